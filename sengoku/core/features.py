"""Evaluation features: what a game tells the AI beyond its rules.

A game declares its features with :meth:`sengoku.core.game.Game.features`; the agents in
:mod:`sengoku.ai` find them only there, never by importing a game's module. The defaults here
know only the rules (they score finished games and nothing else), so a new game is played by
every agent without any features of its own. A game's ``features.py`` subclasses
:class:`Features` and may read its own state's internals: it lives in the game's folder.

Evaluation functions may read a game's state, but agents always hand them a determinization
drawn from what the seat may see, never the true hidden state.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from sengoku.core.game import Action, Game, State

#: One difficulty level: the agent's name and its options (budget included).
Level = tuple[str, dict[str, Any]]


class Features:
    """A game's evaluation features with neutral defaults; games subclass it.

    ``evaluate`` returns a value in [-1, 1] for ``seat``: a finished game scores its
    returns; an unfinished one the heuristic, kept strictly inside (-1, 1) so a proven win
    always outranks a good position.
    """

    #: True for games with hidden information: the levels use IS-MCTS instead of MCTS.
    hidden_information = False
    #: Rollout plies before a playout stops and evaluates (None: play to the end).
    rollout_depth: int | None = None
    #: Search iterations of levels 3 and 4 (scaled to the game's speed: see docs/ai.md).
    level_iterations: tuple[int, int] = (200, 1000)
    #: If set, levels 1-4 are all searches with these iterations (for games whose one-ply
    #: evaluation is too weak a guide for greedy play to make a sensible beginner).
    search_ladder: tuple[int, int, int, int] | None = None
    #: The Texel tuning the evaluation supports (``sengoku train GAME --texel``, in
    #: :mod:`sengoku.arena`): ``"terms"``, linear in per-side terms (the features then offer
    #: ``terms``, ``lead_terms`` and ``hand_made_weights``: ``arena/texel_terms.py``);
    #: ``"tables"``, the tables of a compiled search (:meth:`texel_tables`:
    #: ``arena/texel.py``); None: nothing to tune.
    texel: str | None = None
    #: Where the shipped tuned evaluation lives (a tuner's default ``--out``), or None.
    learned_path: Path | None = None

    def texel_tables(self) -> Any:
        """For ``texel = "tables"``: the game's parameter layout and its fit, as
        :class:`sengoku.arena.texel.TableTuning` reads them; None by default."""
        return None

    def heuristic(self, state: State, seat: int) -> float:
        """How good an unfinished ``state`` is for ``seat``, any real scale (0: even)."""
        return 0.0

    def evaluate(self, state: State, seat: int) -> float:
        if state.is_terminal():
            return float(state.returns()[seat])
        return 0.9 * math.tanh(self.heuristic(state, seat))

    def rollout_action(self, state: State, rng: random.Random) -> Action:
        """The playout policy: uniformly random unless a game knows better."""
        action: Action = rng.choice(state.legal_actions())
        return action

    #: Playout policies a game offers besides its own (the search agents' option
    #: ``rollout``; ``default`` is :meth:`rollout_action` as the game defines it).
    rollout_policies: tuple[str, ...] = ()

    def with_rollout(self, name: str) -> Features:
        """These features with the playout policy ``name`` (``default``: the game's own; a
        game offering others lists them in :attr:`rollout_policies` and overrides this)."""
        self.check_rollout(name)
        return self

    def without_pressure(self) -> Features:
        """These features with any term that presses for a result left out (a term that
        makes a player press on, not part of what a position is worth): what analysis and
        puzzles read. Default: the features themselves (a game with such a term overrides)."""
        return self

    def check_rollout(self, name: str) -> None:
        """Refuse a playout policy this game does not offer, naming those it does."""
        from sengoku.core.game import SengokuError  # the game module imports this one

        offered = ("default", *self.rollout_policies)
        if name not in offered:
            raise SengokuError(f"rollout must be one of {', '.join(offered)}, got {name!r}")

    def order_key(self, state: State, action: Action) -> float:
        """Higher first: alpha-beta's move ordering (e.g. the value of a capture)."""
        return 0.0

    def order_keys(self, state: State, actions: list[Action]) -> list[float]:
        """:meth:`order_key` of each action; a game may compute them in one pass."""
        order_key = self.order_key
        return [order_key(state, action) for action in actions]

    @property
    def orders_moves(self) -> bool:
        """Whether this game has a move ordering (else every order key is 0.0)."""
        cls = type(self)
        return cls.order_key is not Features.order_key or cls.order_keys is not Features.order_keys

    def is_noisy(self, state: State, action: Action) -> bool:
        """Actions that quiescence search still looks at (captures)."""
        return False

    def noisy_actions(self, state: State) -> list[Action]:
        """The noisy actions of ``state`` in legal order; a game may list them cheaper."""
        is_noisy = self.is_noisy
        return [a for a in state.legal_actions() if is_noisy(state, a)]

    def native_search(
        self,
        state: State,
        root_order: list[Action],
        options: Mapping[str, Any],
        iterations: int | None,
        seconds: float | None,
    ) -> tuple[Action, dict[str, Any]] | None:
        """Alpha-beta (:mod:`sengoku.ai.alphabeta`) run by a game's compiled core from the
        root order it made: (best action, stats), or None where the game has no such core."""
        return None

    def position_hash(self, state: State) -> Hashable | None:
        """A hash of the position that the game keeps (a Zobrist key), or None."""
        return None

    def position_key(self, state: State) -> Hashable:
        """A key equal for equal positions (the transposition table's key)."""
        value = self.position_hash(state)
        if value is not None:
            return (value, state.current_player)
        return json.dumps(state.to_json(), sort_keys=True, default=str)

    def levels(self, game: Game) -> dict[int, Level]:
        """Difficulty 1 (a beginner's opponent) to 5 (the strongest within 1 s a move)."""
        search = "ismcts" if self.hidden_information else "mcts"
        top: Level = (search, {"seconds": 1.0})
        if self.search_ladder is not None:
            ladder = {i + 1: (search, {"iterations": n}) for i, n in enumerate(self.search_ladder)}
            return {**ladder, 5: top}
        low, high = self.level_iterations
        return {
            1: ("greedy", {"epsilon": 0.5}),
            2: ("greedy", {}),
            3: (search, {"iterations": low}),
            4: (search, {"iterations": high}),
            5: top,
        }


#: The features of a game that declares none: the rules only.
GENERIC_FEATURES = Features()


def weights_file(game: str, name: str, learned: Path) -> Any:
    """The JSON of the evaluation ``name`` names for an agent's ``eval`` option: ``learned``
    (the file that ships, ``learned``) or the path of a ``.json`` weights file written by
    ``sengoku train GAME --texel``; anything else, or a file that cannot be read, is refused
    naming the game's evaluation."""
    from sengoku.core.game import SengokuError  # the game module imports this one

    path = learned if name == "learned" else Path(name)
    if name != "learned" and path.suffix != ".json":
        raise SengokuError(
            f"{game} evaluation {name!r}: expected 'default', 'learned' or a .json weights file"
        )
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise SengokuError(f"{game} evaluation {name!r}: cannot read {path}: {exc}") from exc


#: A game's evaluation class (Sashimono's, Gunshi's ``Evaluation``).
E = TypeVar("E")


def evaluation_from_file(
    game: str, name: str, learned: Path, terms: tuple[str, ...], build: Callable[..., E]
) -> E:
    """The evaluation ``name`` names (``learned`` or a ``.json`` weights file: see
    :func:`weights_file`), built as ``build(name, **weights)`` from the file's weight of each
    term and its ``scale``; a file without them is refused naming the game's evaluation."""
    from sengoku.core.game import SengokuError  # the game module imports this one

    data = weights_file(game, name, learned)
    try:
        weights = data["weights"]
        return build(name, **{k: float(weights[k]) for k in (*terms, "scale")})
    except (ValueError, KeyError, TypeError) as exc:
        raise SengokuError(f"{game} evaluation {name!r}: cannot read its weights: {exc}") from exc


class NamedEvaluations(Generic[E]):
    """A game's evaluations by name, each read once: ``default`` is the hand-made one, any
    other name (``learned``, a weights file's path) is read by ``read(name)``, which refuses
    what it cannot read (the search agents' ``eval`` option)."""

    def __init__(self, hand_made: E, read: Callable[[str], E]) -> None:
        self._read = read
        self._known: dict[str, E] = {"default": hand_made}

    def __call__(self, name: str) -> E:
        found = self._known.get(name)
        if found is None:
            found = self._known[name] = self._read(name)
        return found
