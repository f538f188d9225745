"""Nim as a Sengoku game: heaps of stones; a turn takes one to three stones from one heap;
whoever takes the last stone wins (normal play).

Written only against ``sengoku.core``: it declares no features, encoder or renderer of its
own, so every agent, adapter and the browser client use the generic ones.

>>> from sengoku_nim import Nim
>>> state = Nim().new_state(heaps="tiny")
>>> [str(a) for a in state.legal_actions()]
['a1', 'b1', 'b2']
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from sengoku.core.game import (
    TERMINAL,
    Event,
    Game,
    IllegalAction,
    Option,
    Outcome,
    State,
    action_number,
    event,
)
from sengoku.core.game_type import GameType
from sengoku.core.traits import Traits

#: The starting heaps a game may choose.
HEAPS = {"long": (5, 7, 9, 11), "classic": (1, 3, 5, 7), "tiny": (1, 2)}
MAX_HEAPS = 4
MAX_TAKE = 3
LETTERS = "abcd"


@dataclass(frozen=True, order=True)
class Take:
    """Take ``count`` stones from heap ``heap`` (0 = ``a``); notation ``b3``."""

    heap: int
    count: int

    def __str__(self) -> str:
        return f"{LETTERS[self.heap]}{self.count}"


class Nim(Game):
    game_type = GameType(
        name="nim",
        title="Nim: take 1-3 stones from one heap; whoever takes the last stone wins",
        version=1,
        min_players=2,
        max_players=2,
    )
    options: ClassVar[Mapping[str, Option]] = {
        "heaps": Option(
            "heaps",
            "long",
            tuple(HEAPS),
            "the starting heaps: long 5-7-9-11, classic 1-3-5-7, tiny 1-2",
        ),
    }

    def new_state(self, seed: int = 0, **options: Any) -> NimState:
        opts = self.resolve_options(**options)
        return NimState(self, opts, list(HEAPS[opts["heaps"]]))

    def num_distinct_actions(self, **options: Any) -> int:
        return MAX_HEAPS * MAX_TAKE

    def action_to_int(self, state: State, action: Any) -> int:
        if not isinstance(action, Take):
            raise IllegalAction(f"not a Nim action: {action!r}")
        return action.heap * MAX_TAKE + action.count - 1

    def int_to_action(self, state: State, n: int) -> Take:
        n = action_number(n, MAX_HEAPS * MAX_TAKE)  # the project's error for a bad number
        return Take(n // MAX_TAKE, n % MAX_TAKE + 1)

    def max_game_length(self, **options: Any) -> int:
        opts = self.resolve_options(**options)
        return sum(HEAPS[opts["heaps"]]) + 1

    def state_from_json(self, data: Mapping[str, Any]) -> NimState:
        opts = self.resolve_options(**data["options"])
        state = NimState(self, opts, [int(h) for h in data["heaps"]])
        state.to_move = int(data["to_move"])
        state.ply = int(data["ply"])
        if data.get("outcome") is not None:
            state.result = Outcome.from_json(data["outcome"])
        return state

    def traits(self, **options: Any) -> Traits:
        return Traits(stochastic=False, zero_sum=True, perfect_information=True)


class NimState(State[Take]):
    def __init__(self, game: Nim, options: dict[str, Any], heaps: list[int]) -> None:
        self.game: Nim = game
        self.options = options
        self.num_players = 2
        self.heaps = heaps
        self.to_move = 0
        self.ply = 0
        self.result: Outcome | None = None

    @property
    def current_player(self) -> int:
        return TERMINAL if self.result is not None else self.to_move

    def legal_actions(self) -> list[Take]:
        if self.result is not None:
            return []
        return [
            Take(h, n)
            for h, size in enumerate(self.heaps)
            for n in range(1, min(size, MAX_TAKE) + 1)
        ]

    def why_illegal(self, action: Take) -> str | None:
        if self.result is not None:
            return "Nim: the game is over"
        if action in self.legal_actions():
            return None
        return f"Nim: {action} is not legal (take 1 to 3 stones from one heap)"

    def apply(self, action: Take) -> list[Event]:
        why = self.why_illegal(action)
        if why is not None:
            raise IllegalAction(why)
        mover = self.to_move
        self.heaps[action.heap] -= action.count
        self.ply += 1
        self.to_move = 1 - mover
        events = [event("took", None, seat=mover, action=str(action))]
        if not any(self.heaps):
            self._end_game(Outcome.win(mover, 2, "last_stone"))
            events.append(event("game_over", None, **self.outcome_json()))
        return events + self._end_if_too_long(self.ply)

    def outcome_json(self) -> dict[str, Any]:
        return self.result.to_json() if self.result is not None else {}

    def _end_game(self, result: Outcome) -> None:
        self.result = result

    def clone(self) -> NimState:
        new = NimState(self.game, self.options, list(self.heaps))
        new.to_move, new.ply, new.result = self.to_move, self.ply, self.result
        return new

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.to_json()

    def determinize(self, seat: int, rng: random.Random) -> NimState:
        return self.clone()

    def to_json(self) -> dict[str, Any]:
        return {
            "options": dict(self.options),
            "heaps": list(self.heaps),
            "to_move": self.to_move,
            "ply": self.ply,
            "outcome": self.outcome_json() or None,
        }

    def __str__(self) -> str:
        rows = [f"{LETTERS[h]}: {'o' * n}" for h, n in enumerate(self.heaps)]
        return "\n".join(rows)
