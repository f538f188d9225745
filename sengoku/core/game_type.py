"""A game's static facts, as data: OpenSpiel's ``_GAME_TYPE``.

Everything about a game that is the same in every match and that some consumer reads (the
listing, the web client's renderer, the server's clock rules and draw offers, the research
adapters, the benchmarks, the command line) is one frozen :class:`GameType` value that the
game declares in its ``game.py``::

    class Gungi(Game):
        game_type = GameType(name="gungi", title="...", version=1, min_players=2, ...)

Behaviour stays in methods of :class:`~sengoku.core.game.Game` and
:class:`~sengoku.core.game.State`; an optional ability is a ``provides_*`` flag here together
with a method that has a default in core, so a consumer asks the flag, never ``hasattr``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: A renderer is an ES module name under ``sengoku/web/js/games/``.
_RENDERER = re.compile(r"[a-z][a-z0-9_]{0,31}")


@dataclass(frozen=True, eq=False)
class GameType:
    """The static facts of one game (the same for every match and every option set).

    Identity: ``name`` (the registry's key, lower case), ``title`` (one line for listings),
    ``version`` (the rules version records carry; bumped whenever a rule change alters legal
    moves or outcomes), ``min_players`` .. ``max_players``.

    Information and chance, for every configuration (``Game.traits(**options)`` narrows them
    for one): ``perfect_information`` (False when some seat may not see everything: hands,
    decks, secret choices; the terminal then hides the screen between hot-seat turns),
    ``chance`` (some configuration draws from the seed: a shuffle, a random first player).

    Consumers' facts: ``renderer`` (the ES module of the browser client under
    ``sengoku/web/js/games/`` that draws the game; "generic" draws views and choices),
    ``gymnasium_environments`` (environment id -> the options it plays; one-seat
    configurations only), ``bench_presets`` (the option sets ``sengoku bench`` and the
    contract suite play), ``tournament_seconds`` (seconds per player of the game's own
    tournament time control, its ``time_control`` option; None: the server's default),
    ``file_options`` (options a user may give as a file on their own machine, read by
    ``Game.option_from_file``; the command line's ``--cards FILE``), ``record_formats``
    (other programs' record formats the game converts to and from: format name ->
    ``"module:function"``, the function taking ``sengoku convert``'s arguments),
    ``catalog_words`` (the keys of ``Game.catalog()`` whose strings are words a player reads,
    which the server translates; names that are the rulebook's own terms stay out).

    Optional abilities, each a flag with its method in core:

    * ``provides_fen``: ``Game.from_fen`` reads a position notation;
    * ``provides_native_batch``: ``Game.batch`` is the game's own compiled core, not one
      contract ``State`` a game;
    * ``provides_draws_by_agreement``: players may agree a draw (the server's draw offers,
      the computer's answers): a rulebook that knows a draw, or an agreement to stop as the
      players' own act beside the rules, as a resignation is;
    * ``provides_clock_rules``: the rules say whose clock runs (its states override
      ``State.clock_seat``); the server then never leaves the first move untimed.
    """

    name: str
    title: str
    version: int
    min_players: int
    max_players: int
    perfect_information: bool = True
    chance: bool = True
    renderer: str = "generic"
    gymnasium_environments: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    bench_presets: tuple[Mapping[str, Any], ...] = ({},)
    tournament_seconds: float | None = None
    file_options: tuple[str, ...] = ()
    record_formats: Mapping[str, str] = field(default_factory=dict)
    catalog_words: frozenset[str] = frozenset()
    provides_fen: bool = False
    provides_native_batch: bool = False
    provides_draws_by_agreement: bool = False
    provides_clock_rules: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name or self.name != self.name.lower():
            raise ValueError(f"GameType name: a non-empty lower-case name, not {self.name!r}")
        for key in ("version", "min_players", "max_players"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"GameType {self.name} {key}: an integer, not {value!r}")
        if not 0 <= self.min_players <= self.max_players:
            raise ValueError(
                f"GameType {self.name} players: 0 <= min_players <= max_players, not "
                f"{self.min_players}..{self.max_players}"
            )
        if not _RENDERER.fullmatch(self.renderer):
            raise ValueError(
                f"GameType {self.name} renderer: a module name under sengoku/web/js/games/ "
                f"(lower case), not {self.renderer!r}"
            )
        if not self.bench_presets:
            raise ValueError(f"GameType {self.name} bench_presets: at least one option set")
        object.__setattr__(self, "bench_presets", tuple(self.bench_presets))
        object.__setattr__(self, "file_options", tuple(self.file_options))

    def to_json(self) -> dict[str, Any]:
        """The facts a client or a listing reads (JSON-ready)."""
        return {
            "name": self.name,
            "title": self.title,
            "version": self.version,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "perfect_information": self.perfect_information,
            "chance": self.chance,
            "renderer": self.renderer,
            "provides_fen": self.provides_fen,
            "provides_native_batch": self.provides_native_batch,
            "provides_draws_by_agreement": self.provides_draws_by_agreement,
            "provides_clock_rules": self.provides_clock_rules,
        }
