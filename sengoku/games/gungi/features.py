"""Gungi's evaluation features for the AI: material and tier, captures first, capture-aware playouts.

Reads the state's board (towers of ``kind * 2 + color``, bottom first), hands and the
``hash`` attribute (a Zobrist key, used for the transposition table). Piece values are our
own estimate from each piece's movement (reach, directions, jumps); the Marshal has none,
since taking it ends the game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from sengoku.core.features import Features, Level, NamedEvaluations, weights_file
from sengoku.core.game import Action, Game, State, package_file
from sengoku.games.gungi.move import DONE_INT, INTERNED, MOVE_SPACE, Move
from sengoku.games.gungi.pieces import KIND_BY_NAME, MARSHAL, NUM_KINDS

if TYPE_CHECKING:
    from sengoku.games.gungi.state import GungiState


def _gungi(state: State) -> GungiState:
    """``state`` as the Gungi position it is (the features are registered for Gungi only;
    no check: these run at every node of a search)."""
    return cast("GungiState", state)


VALUE_BY_NAME = {
    "marshal": 0.0,
    "general": 8.0,
    "lieutenant_general": 7.5,
    "major_general": 4.5,
    "samurai": 3.5,
    "spear": 3.5,
    "knight": 4.0,
    "spy": 3.5,
    "fortress": 3.0,
    "pawn": 1.5,
    "cannon": 5.0,
    "archer": 4.0,
    "musketeer": 3.5,
    "captain": 4.0,
}
VALUE = [0.0] * NUM_KINDS
for _name, _value in VALUE_BY_NAME.items():
    VALUE[KIND_BY_NAME[_name]] = _value
#: A piece in hand may be placed where it is needed, but placing costs a move.
HAND_FACTOR = 0.85
#: A top piece at tier t reaches further and cannot be taken by lower towers.
TIER_BONUS = (0.0, 0.0, 0.6, 1.1)
#: Pieces buried under an enemy top are lost if that tower is captured.
BURIED_BY_ENEMY = 0.6
#: Per row advanced by a top piece: a small push forward.
ADVANCE = 0.05
MARSHAL_ADVANCE = -0.15
#: Material points per unit of the heuristic (evaluate squashes with tanh).
SCALE = 12.0
#: The tuned evaluation (``alphabeta:...:eval=learned``; ``sengoku train gungi --texel``).
LEARNED_PATH = package_file("sengoku.games.gungi", "data", "weights", "gungi_eval.json")


def _top_table() -> list[list[list[float]]]:
    """TOP[piece][height][sq]: a top piece's worth for its own side, tier and advance included."""
    table = []
    for piece in range(2 * NUM_KINDS):
        kind, color = piece >> 1, piece & 1
        per_height = []
        for height in range(4):
            row = []
            for sq in range(81):
                # White advances towards row index 0, Black towards 8.
                advance = 8 - sq // 9 if color == 0 else sq // 9
                # The Marshal is safest at home: it loses what other pieces gain by advancing.
                step = MARSHAL_ADVANCE if kind == MARSHAL else ADVANCE
                row.append(VALUE[kind] + TIER_BONUS[height] + step * advance)
            per_height.append(row)
        table.append(per_height)
    return table


TOP = _top_table()
_CACHE_LIMIT = 200_000


@dataclass(frozen=True)
class Evaluation:
    """The evaluation's tables, as the Python search and the native core both take them:
    ``top[piece][height][sq]`` (a top piece's worth), ``value[kind]`` (a buried piece under
    its own colour; order keys), ``buried`` (the factor under an enemy top), ``hand_factor``
    and ``scale``. ``name`` keys the native tables built for it."""

    name: str
    top: list[list[list[float]]]
    value: list[float]
    hand_factor: float
    buried: float
    scale: float


#: The hand-made evaluation (every level plays it).
HAND_MADE = Evaluation("default", TOP, VALUE, HAND_FACTOR, BURIED_BY_ENEMY, SCALE)


def _read_evaluation(name: str) -> Evaluation:
    weights = weights_file("Gungi", name, LEARNED_PATH)
    from sengoku.games.gungi.eval_tables import (
        NK,
        OFF_BURIED,
        OFF_HAND,
        OFF_VALUE,
        from_json,
        top_table,
    )

    theta = from_json(weights["parameters"])
    built = Evaluation(
        name,
        top_table(theta),
        [float(x) for x in theta[OFF_VALUE : OFF_VALUE + NK]],
        float(theta[OFF_HAND]),
        float(theta[OFF_BURIED]),
        SCALE,
    )
    return built


#: The evaluation an ``eval`` option names: ``default`` (hand-made), ``learned`` (the shipped
#: tuned tables, ``LEARNED_PATH``) or a weights file written by ``sengoku train gungi --texel``.
evaluation_named = NamedEvaluations(HAND_MADE, _read_evaluation)


class GungiFeatures(Features):
    rollout_depth = 16
    #: ``sengoku train gungi --texel`` tunes the native search's tables (eval_tables.py).
    texel = "tables"
    learned_path = LEARNED_PATH

    def texel_tables(self) -> Any:
        import sengoku.games.gungi.eval_tables as eval_tables

        return eval_tables

    def __init__(self, evaluation: Evaluation = HAND_MADE) -> None:
        #: White's material minus Black's, by position hash (positions recur in search).
        self.cache: dict[int, float] = {}
        self.evaluation = evaluation
        self.value = evaluation.value

    def with_evaluation(self, name: str) -> GungiFeatures:
        """These features with another evaluation (see :func:`evaluation_named`): the
        alpha-beta agent's ``eval`` option."""
        evaluation = evaluation_named(name)
        return self if evaluation is self.evaluation else GungiFeatures(evaluation)

    def balance(self, state: Any) -> float:
        """White's material minus Black's (board, tiers, buried pieces, hands)."""
        key = state.hash
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        total = 0.0
        evaluation = self.evaluation
        top_table, values = evaluation.top, evaluation.value  # locals: run at every leaf
        buried, hand_factor = evaluation.buried, evaluation.hand_factor
        # Same arithmetic, in the same order, as sign * worth (adding -x is subtracting x).
        for sq, tower in enumerate(state.board):
            if not tower:
                continue
            top = tower[-1]
            height = len(tower)
            if top & 1:
                total -= top_table[top][height][sq]
            else:
                total += top_table[top][height][sq]
            if height > 1:
                for piece in tower[:-1]:
                    value = values[piece >> 1]
                    if piece & 1 != top & 1:
                        value *= buried
                    total += value if piece & 1 == 0 else -value
        white, black = state.hands
        if any(white) or any(black):  # empty hands add nothing
            for kind in range(NUM_KINDS):
                if white[kind] or black[kind]:
                    total += (white[kind] - black[kind]) * values[kind] * hand_factor
        if len(self.cache) >= _CACHE_LIMIT:
            self.cache.clear()
        self.cache[key] = total
        return total

    def position_hash(self, state: State) -> Hashable:
        """The state's Zobrist key."""
        return _gungi(state).hash

    def heuristic(self, state: State, seat: int) -> float:
        value = self.balance(state) / self.evaluation.scale
        return value if seat == 0 else -value

    def evaluate(self, state: State, seat: int) -> float:
        # Features.evaluate with the heuristic inlined (search calls this at every leaf).
        if state.is_terminal():
            return float(state.returns()[seat])
        value = self.balance(state) / self.evaluation.scale
        return 0.9 * math.tanh(value if seat == 0 else -value)

    def order_key(self, state: State, action: Action) -> float:
        code: int = action.code  # type: ignore[attr-defined]
        act = code >> 14
        if act >= MOVE_SPACE or not (act >> 2) & 1:  # not a capture
            return 1.0 if act < DONE_INT and act & 3 else 0.0  # betrayals next
        target = state.board[(act >> 3) % 81]  # type: ignore[attr-defined]
        mover = state.current_player
        values = self.value
        gain = sum(100.0 if p >> 1 == MARSHAL else values[p >> 1] for p in target if p & 1 != mover)
        return 10.0 + gain - values[(code >> 2) & 15] / 10.0

    def is_noisy(self, state: State, action: Action) -> bool:
        act: int = action.code >> 14  # type: ignore[attr-defined]
        return act < DONE_INT and (act & 3 != 0 or (act < MOVE_SPACE and (act >> 2) & 1 == 1))

    def order_keys(self, state: State, actions: list[Action]) -> list[float]:
        """``order_key`` of each action, in one pass (alpha-beta sorts every node's moves)."""
        board = state.board  # type: ignore[attr-defined]
        mover = state.current_player
        values = self.value
        keys = []
        for action in actions:
            code = action.code  # type: ignore[attr-defined]
            act = code >> 14
            if act >= MOVE_SPACE or not (act >> 2) & 1:  # not a capture
                keys.append(1.0 if act < DONE_INT and act & 3 else 0.0)  # betrayals next
                continue
            target = board[(act >> 3) % 81]
            gain = sum(
                100.0 if p >> 1 == MARSHAL else values[p >> 1] for p in target if p & 1 != mover
            )
            keys.append(10.0 + gain - values[(code >> 2) & 15] / 10.0)
        return keys

    def noisy_actions(self, state: State) -> list[Action]:
        """The legal actions ``is_noisy`` accepts (captures and betrayals), in legal order,
        for quiescence search: the engine generates only those, as codes."""
        interned = INTERNED
        return [interned.get(code) or Move(code) for code in _gungi(state).noisy_codes()]

    def rollout_action(self, state: State, rng: random.Random) -> Action:
        legal: list[Move] = state.legal_actions()
        # Take the Marshal when possible (it ends the game); else captures half of the time.
        captures = [m for m in legal if m.capture]
        if captures:
            board = _gungi(state).board
            for move in captures:
                to = move.destination  # a capture always has one
                if to is not None and any(p >> 1 == MARSHAL for p in board[to]):
                    return move
            if rng.random() < 0.5:
                return max(captures, key=lambda m: self.order_key(state, m))
        return rng.choice(legal)

    def native_search(
        self,
        state: State,
        root_order: list[Action],
        options: Mapping[str, Any],
        iterations: int | None,
        seconds: float | None,
    ) -> tuple[Action, dict[str, Any]] | None:
        """The alpha-beta of :mod:`sengoku.ai.alphabeta` run by the native core (the same
        evaluation, ordering, table and quiescence; see native/core.cpp), or None without it."""
        import sengoku.games.gungi.native_core as native_core

        if not native_core.native_available():
            return None
        position = native_core.full_position(state, self.evaluation)  # type: ignore[arg-type]
        result = position.search(
            [a.code for a in root_order],  # type: ignore[attr-defined]
            int(options["max_depth"]),
            int(options["quiescence"]),
            int(options["table_size"]),
            -1 if iterations is None else int(iterations),
            0.0 if seconds is None else float(seconds),
        )
        stats = {
            "nodes": int(result["nodes"]),
            "depth": int(result["depth"]),
            "value": float(result["value"]),
            "seconds": round(float(result["seconds"]), 4),
            "native": True,
        }
        return Move(int(result["move"])), stats

    def position_key(self, state: State) -> Hashable:
        s = _gungi(state)
        return (s.hash, s.to_move, s.phase)

    def levels(self, game: Game) -> dict[int, Level]:
        return {
            1: ("greedy", {"epsilon": 0.5}),
            2: ("greedy", {}),
            3: ("alphabeta", {"iterations": 200}),
            4: ("alphabeta", {"iterations": 500}),
            # The native core runs the same search about 40x faster where it is built (the
            # option falls back to the Python search where it is not). Its evaluation is the
            # tuned one (``eval=learned``): at this same time it scored 0.6+ against the
            # hand-made one over 200+ games (docs/ai.md).
            5: ("alphabeta", {"seconds": 1.0, "native": 1, "eval": "learned"}),
        }


FEATURES = GungiFeatures()
