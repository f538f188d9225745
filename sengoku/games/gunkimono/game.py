"""The Gunkimono game description: options, notation, integer actions, text drawing."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from sengoku.core.describe import ActionDescription, load_view_schema
from sengoku.core.features import Features
from sengoku.core.game import (
    Action,
    Game,
    Option,
    ParseError,
    State,
    normalize_notation,
    pick_one,
)
from sengoku.core.game_type import GameType
from sengoku.core.observation import Encoder
from sengoku.core.sentence import Said, Sentence, said, say
from sengoku.core.traits import Traits
from sengoku.games.gunkimono.actions import (
    NUM_ACTIONS,
    GunkimonoAction,
    Place,
    Score,
    from_notation,
    int_to_action,
    parse_square,
    short_place,
)
from sengoku.games.gunkimono.battlefield import troop_word
from sengoku.games.gunkimono.data import tile_code, tile_troops
from sengoku.games.gunkimono.state import GunkimonoState

if TYPE_CHECKING:
    from sengoku.core.batch import GameBatch
    from sengoku.core.native_play import NativePlay


def _norm(text: str) -> str:
    return normalize_notation(text).replace("@", "")


def _legal_actions_and_ints(state: State) -> tuple[list[Any], list[int]]:
    """``(state.legal_actions(), Gunkimono.legal_action_ints(state))`` in one pass."""
    actions = state.legal_actions()
    return actions, [action.int_id for action in actions]


class Gunkimono(Game):
    """Gunkimono (Jeffrey D. Allers, Renegade Game Studios 2018), 2-5 players.

    Properties: sequential, imperfect information (hands, stacks, banner values), chance only
    at setup (the seeded shuffles are stored in the state), general-sum scores ranked at the
    end. Seat 0 is the start player.
    """

    game_type = GameType(
        # The catalog's words the server translates (sengoku/server/texts.py).
        catalog_words=frozenset({"name", "kind"}),
        name="gunkimono",
        title="Gunkimono: place army tiles, score formations or honor, build strongholds",
        version=1,
        min_players=2,
        max_players=5,
        # Hands, stacks, removed tiles and banner values are hidden.
        perfect_information=False,
        chance=True,
        renderer="gunkimono",
        bench_presets=({"players": 2}, {"players": 3}, {"players": 4}, {"players": 5}),
        # Game.batch keeps the games in the native core (batch.py) where it is built.
        provides_native_batch=True,
        # Played out, the rules name a winner; an agreement to stop is the players' own act
        # beside the rules, as a resignation is (sengoku/server/draws.py).
        provides_draws_by_agreement=True,
    )
    options: ClassVar[Mapping[str, Option]] = {
        "players": Option("players", 2, range(2, 6), "number of players (2-5)"),
        "own_double_stronghold": Option(
            "own_double_stronghold",
            False,
            (False, True),
            "spec ruling 1: may a stronghold go in a formation that already holds your own "
            "stronghold (never an opponent's)",
        ),
        "empty_banner_stack": Option(
            "empty_banner_stack",
            "remove",
            ("remove", "stay"),
            "spec ruling 2: a marker reaching an empty banner stack is removed (remove) or stays "
            "on the ending row (stay)",
        ),
        "removed_marker_counts": Option(
            "removed_marker_counts",
            True,
            (True, False),
            "spec ruling 3: a marker removed after claiming a banner counts as having reached "
            "every stronghold row",
        ),
        "end_tile_replacement": Option(
            "end_tile_replacement",
            True,
            (True, False),
            "spec ruling 5: whoever draws the end-of-game tile takes another, and the row is "
            "refilled past it",
        ),
        "link_own_formations": Option(
            "link_own_formations",
            True,
            (True, False),
            "spec ruling 6: a tile may link two formations controlled by the same player",
        ),
    }
    # -- Declared hooks (see sengoku.core.game.Game) -------------------------------------

    def describe_action(self, state: State, action: Any) -> ActionDescription:
        from sengoku.games.gunkimono.describe import describe

        return describe(cast(GunkimonoState, state), action)

    def describe_actions(self, state: State, actions: Sequence[Any]) -> list[ActionDescription]:
        # One import for the whole list: a position offers hundreds of placements.
        from sengoku.games.gunkimono.describe import describe

        st = cast(GunkimonoState, state)
        return [describe(st, a) for a in actions]

    def view_schema(self) -> dict[str, Any]:
        return load_view_schema(Path(__file__).parent)

    def catalog(self, **options: Any) -> dict[str, Any]:
        from sengoku.games.gunkimono.describe import catalog

        return catalog()

    def features(self) -> Features:
        from sengoku.games.gunkimono.features import FEATURES

        return FEATURES

    def batch(self, **options: Any) -> GameBatch:
        # The native core keeps the games in C++ (batch.py), with the contract's numbers;
        # without it (a pure-Python build, SENGOKU_PURE_PYTHON), one contract state a game.
        import sengoku.games.gunkimono.native_core as native_core

        if not native_core.native_available():
            return super().batch(**options)
        from sengoku.games.gunkimono.batch import GunkimonoBatch

        return GunkimonoBatch(self, **options)

    def native_play(self, **options: Any) -> NativePlay | None:
        # The research adapters step native matches where the core is built.
        import sengoku.games.gunkimono.native_core as native_core

        if not native_core.native_available():
            return None
        return native_core.native_play(self, self.resolve_options(**options))

    def observation_encoder(self, **options: Any) -> Encoder:
        from sengoku.games.gunkimono.encoder import GunkimonoEncoder

        return GunkimonoEncoder()

    def scripted_players(self) -> Mapping[str, Callable[[State, random.Random], Action]]:
        from sengoku.games.gunkimono.selfplay import balanced_choice

        return {"balanced": cast(Callable[[State, random.Random], Action], balanced_choice)}

    def selfplay_figures(self, finals: Sequence[State]) -> dict[str, Any]:
        from sengoku.games.gunkimono.selfplay import figures

        return figures(finals)

    def traits(self, **options: Any) -> Traits:
        # Shuffled tiles and banners; ranked returns and every concession sum to zero.
        return Traits(stochastic=True, zero_sum=True, perfect_information=False)

    def new_state(self, seed: int = 0, **options: Any) -> GunkimonoState:
        return GunkimonoState.setup(self, seed, self.resolve_options(**options))

    def num_distinct_actions(self, **options: Any) -> int:
        self.resolve_options(**options)
        return NUM_ACTIONS

    def action_to_int(self, state: State, action: Action) -> int:
        # Each action stores its integer when it is created (research adapters ask for every
        # legal action's integer on every ply, so this is one attribute read).
        try:
            return action.int_id  # type: ignore[attr-defined, no-any-return]
        except AttributeError:
            raise ValueError(f"{action!r} is not a Gunkimono action") from None

    def int_to_action(self, state: State, n: int) -> Action:
        return int_to_action(n)

    def legal_action_ints(self, state: State) -> list[int]:
        # The stored integers read directly (the default calls ``action_to_int`` per action:
        # about 140 calls a ply, a tenth of a PettingZoo step).
        return [action.int_id for action in state.legal_actions()]

    #: The legal actions and their stored integers (core/game.py): the adapters keep the
    #: actions, and play the one chosen without ``int_to_action`` (about 0.8 us a step).
    legal_actions_and_ints = staticmethod(_legal_actions_and_ints)

    #: The length guard (any options; core/game.py ``Game.length_limit``), not a rule: at
    #: most 60 large + 25 small tiles, six decisions per turn.
    length_limit = 1000

    def state_from_json(self, data: Mapping[str, Any]) -> GunkimonoState:
        if data.get("game") != self.name:
            raise ValueError(f"not a gunkimono state: game is {data.get('game')!r}")
        return GunkimonoState.from_json(self, data)

    def format_action(self, state: State, action: Action) -> str:
        """The short form when no other legal action shares it, else the canonical form."""
        text = _formatted(state).get(action)
        if text is not None:
            return text
        canonical, short, _n, _ns = _texts(action)  # not a legal action here
        return short if _short_counts(state).get(short, 0) <= 1 else canonical

    def format_actions(self, state: State, actions: Sequence[Action]) -> list[str]:
        formatted = _formatted(state)  # the legal list's forms, worked out once
        return [
            text if (text := formatted.get(a)) is not None else self.format_action(state, a)
            for a in actions
        ]

    def parse_action(self, state: State, text: str) -> Action:
        if not isinstance(text, str):
            raise ParseError(f"Gunkimono notation is a string, not {type(text).__name__}")
        wanted = _norm(text)
        legal: list[Action] = state.legal_actions()
        texts = [_texts(a) for a in legal]
        exact = [a for a, t in zip(legal, texts, strict=True) if t[2] == wanted]
        if len(exact) == 1:
            return exact[0]
        short = [a for a, t in zip(legal, texts, strict=True) if t[3] == wanted]
        if not exact and not short and isinstance(state, GunkimonoState):
            halves = short_place(text)
            if halves is not None:
                # A large tile's short form names its halves in either order ("Ag3 If3").
                t1, a, t2, b = halves
                short = [
                    x
                    for x in legal
                    if isinstance(x, Place)
                    and (x.first // 2, x.a, x.second // 2, x.b) == (t1, a, t2, b)
                ]
            if not short:
                # canonical in another order (a tile's far end first), or the action a short
                # form names: the rule it breaks is the reason given.
                named = from_notation(text) or _named_by_short(state, text)
                if named is not None and named in legal:
                    return named
                why = state.why_illegal(named) if named is not None else None
                if why is not None and isinstance(named, Place) and "not in your hand" in why:
                    why = said(
                        say(
                            "no large tile with {first} and {second} is in your hand",
                            first=troop_word(named.first // 2),
                            second=troop_word(named.second // 2),
                        )
                    )
                if why is not None:
                    raise ParseError(_not_legal_here(text, why))
        return pick_one(text, exact or short, legal)

    def render_text(self, state: State, seat: int | None) -> str:
        from sengoku.games.gunkimono.render import render

        assert isinstance(state, GunkimonoState)
        return render(state, seat)


def _not_legal_here(text: str, why: str) -> Sentence:
    """The refusal of notation that names an illegal action, with the rule it breaks (the
    rule's own sentence, when ``why_illegal`` said one, is a phrase of this one: both reach
    the reader in their language)."""
    reason: object = why.sentence if isinstance(why, Said) else str(why)
    return say("{notation} is not legal here: {reason}", notation=repr(text), reason=reason)


def _named_by_short(state: GunkimonoState, text: str) -> GunkimonoAction | None:
    """The action a refused short form stands for, to name the rule it breaks.

    ``Ac3 Cd3``: a large tile of the hand with those troops (any, when none is legal there;
    if the hand holds no such tile, a tile with those troops, so the reason says so);
    ``vp c3`` / ``honor c3``: the score of the troop on that square.
    """
    halves = short_place(text)
    if halves is not None:
        t1, a, t2, b = halves
        if t1 == t2:
            return Place(t1 * 2, a, t2 * 2, b)  # "a large tile shows two different troops"
        # A tile of the hand with those troops; else one it lacks (the reason says so).
        tiles = [*state.supply.hands[state.sequence.turn], tile_code(t1, 1, t2, 1)]
        for tile in tiles:
            (x, sx), (y, sy) = tile_troops(tile)
            symbols = {x: sx, y: sy}
            if set(symbols) == {t1, t2}:
                return Place(t1 * 2 + symbols[t1] - 1, a, t2 * 2 + symbols[t2] - 1, b)
    m = _SCORE_SHORT.match(_norm(text))
    if m is not None:
        try:
            cell = parse_square(m.group(2))
        except ValueError:
            return None
        top = state.battlefield.top[cell]
        return Score(m.group(1) == "honor", top if 0 <= top < 5 else 0, cell)
    return None


_SCORE_SHORT = re.compile(r"^(vp|honor)([a-z]\d+)$")


def _short_counts(state: State) -> dict[str, int]:
    """How many legal actions share each short form (cached until the state changes)."""
    return _notation(state)[0]


def _formatted(state: State) -> dict[Action, str]:
    """``format_action`` of every legal action (cached until the state changes)."""
    return _notation(state)[1]


def _notation(state: State) -> tuple[dict[str, int], dict[Action, str]]:
    """The short forms' counts and each legal action's written form, made in one pass per
    position: the server formats the whole legal list, action by action."""
    assert isinstance(state, GunkimonoState)
    key = state.legal_key()  # the state's cached list: replaced on every change
    cached = state.notation_cache
    if key is not None and cached is not None and cached[0] is key:
        return cached[1], cached[2]
    legal = state.legal_actions()
    key = state.legal_key()
    texts = [_texts(a) for a in legal]
    counts: dict[str, int] = {}
    for t in texts:
        counts[t[1]] = counts.get(t[1], 0) + 1
    formatted: dict[Action, str] = {
        a: (t[1] if counts[t[1]] <= 1 else t[0]) for a, t in zip(legal, texts, strict=True)
    }
    state.notation_cache = (key, counts, formatted)
    return counts, formatted


def _short(action: Action) -> str:
    short = getattr(action, "short", None)
    return str(short()) if short is not None else str(action)


def _texts(action: Action) -> tuple[str, str, str, str]:
    """An action's canonical form, its short form (the canonical string itself when it has
    none), and both normalised: made once per action and kept (the actions are values, at
    most ``NUM_ACTIONS`` of them), so formatting and parsing a legal list are lookups."""
    key = getattr(action, "int_id", None)
    texts = _TEXTS.get(key) if type(key) is int else None
    if texts is None or (texts[4] is not action and texts[4] != action):
        canonical = str(action)
        short = _short(action) if hasattr(action, "short") else canonical
        texts = (canonical, short, _norm(canonical), _norm(short), action)
        if type(key) is int and 0 <= key < NUM_ACTIONS:  # an action off the board: not kept
            _TEXTS[key] = texts
    return texts[:4]


#: ``_texts`` by action integer (with the action, checked on every look-up).
_TEXTS: dict[int, tuple[str, str, str, str, Action]] = {}
