"""Gungi (軍儀), the 9x9 stacking game: the :class:`Gungi` game description."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any, ClassVar

from sengoku.core.game import Game, IllegalAction, Option, ParseError, State, pick_one
from sengoku.games.gungi.fen import parse_fen, to_fen
from sengoku.games.gungi.move import (
    DONE_TEXT,
    NEW,
    NUM_DISTINCT_ACTIONS,
    Move,
)
from sengoku.games.gungi.pieces import (
    ARCHER_BLOCKERS,
    BLACK,
    ENGLISH_ALIASES,
    KIND_BY_KANJI,
    MODE_BY_CODE,
    MODES,
    PIECES,
    WHITE,
)
from sengoku.games.gungi.state import PLAY, SETUP, GungiState

MAX_GAME_LENGTH = 1000


class Gungi(Game):
    """Gungi: 2 players, perfect information, no chance (but who moves first may be drawn)."""

    name = "gungi"
    title = "Gungi - 9x9 stacking chess from HUNTER x HUNTER"
    version = 1
    min_players = 2
    max_players = 2
    options: ClassVar[Mapping[str, Option]] = {
        "mode": Option(
            "mode", "intro", tuple(MODES), "ruleset: intro, beginner, intermediate or advanced"
        ),
        "first_player": Option(
            "first_player",
            "white",
            ("white", "black", "random"),
            "who places and moves first (random: drawn from the seed)",
        ),
        "self_check": Option(
            "self_check",
            "allowed",
            ("allowed", "forbidden"),
            "whether a move may leave your own Marshal capturable",
        ),
        "archer_blockers": Option(
            "archer_blockers",
            "front_and_wing",
            ARCHER_BLOCKERS,
            "which squares must be no taller than an Archer for its diagonal jump",
        ),
        "betrayal": Option(
            "betrayal",
            "any_subset",
            ("any_subset", "all_or_nothing"),
            "which enemy pieces a Captain's betrayal may turn: any choice, or all or none",
        ),
    }
    bench_presets: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {"mode": "intro"},
        {"mode": "advanced"},
    )

    # ------------------------------------------------------------------ states
    def new_state(self, seed: int = 0, **options: Any) -> GungiState:
        opts = self.resolve_options(**options)
        first = opts["first_player"]
        if first == "random":
            first = random.Random(seed).choice(("white", "black"))
        return self._from_fen(MODES[opts["mode"]].setup, opts, WHITE if first == "white" else BLACK)

    def from_fen(self, fen: str, **options: Any) -> GungiState:
        """A position from gungi.js FEN (its mode field sets the mode)."""
        board, *_rest = parse_fen(fen)
        mode = MODE_BY_CODE[int(fen.split()[3])].name
        if "mode" in options and options["mode"] != mode:
            raise IllegalAction(f"the FEN is a {mode} position, not {options['mode']}")
        opts = self.resolve_options(**{**options, "mode": mode})
        return self._from_fen(fen, opts, None)

    def _from_fen(self, fen: str, opts: dict[str, Any], first: int | None) -> GungiState:
        board, hands, order, side, _mode, drafting, number = parse_fen(fen)
        state = GungiState(self, opts)
        state.board = board
        state.hands = hands
        state.hand_order = order
        state.move_number = number
        in_setup = drafting[0] or drafting[1]
        state.phase = SETUP if in_setup else PLAY
        state.drafting = drafting if in_setup else [False, False]
        if first is not None:
            state.first = first
            state.to_move = first
        else:
            state.to_move = side
            state.first = self._infer_first(state, opts)
        state.recompute()
        state.seen = {state.hash: 1}
        if state.phase == PLAY:
            result = state._judge(1 - state.to_move, False)
            if result is not None and result.reason != "length_limit":
                state._outcome = result
        return state

    @staticmethod
    def _infer_first(state: GungiState, opts: dict[str, Any]) -> int:
        """Who placed first, from the setup progress (the FEN does not record it)."""
        if state.phase == SETUP and all(state.drafting):
            placed = [sum(1 for t in state.board for p in t if p & 1 == c) for c in (WHITE, BLACK)]
            side = state.to_move
            return side if placed[side] == placed[1 - side] else 1 - side
        if state.phase == PLAY and state.mode.free_setup is False:
            return state.to_move if state.move_number == 1 else WHITE
        return WHITE if opts["first_player"] != "black" else BLACK

    def state_from_json(self, data: Mapping[str, Any]) -> GungiState:
        try:
            if data.get("game") != "gungi":
                raise IllegalAction(f"not a Gungi state: game is {data.get('game')!r}")
            opts = self.resolve_options(**data["options"])
            first = WHITE if data["first"] == "white" else BLACK
            state = self._from_fen(str(data["fen"]), opts, None)
            state.first = first
            state.to_move = WHITE if str(data["fen"]).split()[2] == "w" else BLACK
            state.recompute()
            state.ply = int(data["ply"])
            state.seen = {int(k): int(n) for k, n in data["seen"]}
            outcome = data.get("outcome")
            from sengoku.core.game import Outcome

            state._outcome = Outcome.from_json(outcome) if outcome else None
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, IllegalAction):
                raise
            raise IllegalAction(f"malformed Gungi state JSON: {exc!r}") from None
        return state

    def to_fen(self, state: GungiState) -> str:
        return to_fen(state)

    # ------------------------------------------------------------------ actions
    def num_distinct_actions(self, **options: Any) -> int:
        self.resolve_options(**options)
        return NUM_DISTINCT_ACTIONS

    def max_game_length(self, **options: Any) -> int:
        return MAX_GAME_LENGTH

    def action_to_int(self, state: State, action: Any) -> int:
        if not isinstance(action, Move):
            raise IllegalAction(f"{action!r} is not a Gungi move")
        return action.action_int

    def int_to_action(self, state: State, n: int) -> Move:
        assert isinstance(state, GungiState)
        for code in state._legal_codes():
            if code >> 14 == n:
                return Move(code)
        raise IllegalAction(f"action {n} is not legal in this position")

    def format_action(self, state: State, action: Any) -> str:
        """Official short notation; the origin (or betrayal tiers) only when needed."""
        if not isinstance(action, Move):
            raise IllegalAction(f"{action!r} is not a Gungi move")
        assert isinstance(state, GungiState)
        short_counts, origin_counts = state.notation_counts()
        short = action.official()
        if short_counts.get(short, 0) <= 1:
            return short
        with_origin = action.official(with_origin=True)
        if origin_counts.get(with_origin, 0) <= 1:
            return with_origin
        return str(action)

    def parse_action(self, state: State, text: str) -> Move:
        key = normalize(text)
        legal: list[Move] = state.legal_actions()  # type: ignore[assignment]
        matches = [
            m
            for m in legal
            if key
            in (
                normalize(str(m)),
                normalize(m.official()),
                normalize(m.official(with_origin=True)),
                normalize(m.official(betrayal_tiers=True)),
                normalize(m.official(with_origin=True, betrayal_tiers=False).rstrip("付取")),
            )
        ]
        if not matches:
            raise ParseError(_no_match_reason(state, text, legal))
        return pick_one(text, matches, legal)  # type: ignore[return-value]

    def render_text(self, state: State, seat: int | None) -> str:
        return str(state)


_ALIASES = sorted(ENGLISH_ALIASES.items(), key=lambda kv: -len(kv[0]))
_NEW_FIRST = re.compile("新([" + "".join(KIND_BY_KANJI) + "])")


def normalize(text: str) -> str:
    """One spelling for every way of writing a move: kanji, no spaces or hyphens."""
    t = text.strip().casefold()
    if t in ("done", "済", "済み", "sumi"):
        return DONE_TEXT
    for alias, kind in _ALIASES:
        t = t.replace(alias, PIECES[kind].kanji)
    t = t.replace("new", NEW)
    t = re.sub(r"[\s\-_]", "", t)
    t = t.replace("betray", "返").replace("capture", "取").replace("stack", "付")
    return _NEW_FIRST.sub(lambda m: m.group(1) + NEW, t)


def _no_match_reason(state: State, text: str, legal: list[Move]) -> str:
    if state.is_terminal():
        return f"{text!r}: the game is over"
    sample = ", ".join(str(m) for m in legal[:10])
    return (
        f"{text!r} names no legal move. Write column-row-tier piece, e.g. '7-6-1 兵' or "
        f"'4-7-2 忍新' for a drop ({len(legal)} legal moves, e.g. {sample})"
    )


__all__ = ["Gungi", "normalize", "PLAY", "SETUP"]
