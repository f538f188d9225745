"""Race, a tiny test game for the adapters: one or two players count up to a goal.

Each decision adds 0 ("wait"), 1 or 2 to a shared count. Landing exactly on ``goal`` wins;
passing it loses. ``limit`` decisions end the game with ``length_limit`` (returns 0), so the
adapters' truncation can be tested. With ``players=1`` it is a one-player game, the shape of
Sashimono's solo mode, for the Gymnasium environment's generic path.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from sengoku.core.game import (
    TERMINAL,
    Action,
    Event,
    Game,
    IllegalAction,
    Option,
    Outcome,
    State,
    event,
)
from sengoku.core.registry import REGISTRY

NAME = "race"
STEPS = ("wait", "add1", "add2")


class Race(Game):
    name = NAME
    version = 1
    min_players = 1
    max_players = 2
    title = "Race to the goal (test game)"
    options: ClassVar[Mapping[str, Option]] = {
        "players": Option("players", 1, range(1, 3), "one or two players"),
        "goal": Option("goal", 5, range(1, 50), "the count that wins"),
        "limit": Option("limit", 30, range(1, 1000), "decisions before length_limit"),
    }

    def new_state(self, seed: int = 0, **options: Any) -> RaceState:
        return RaceState(self, self.resolve_options(**options))

    def num_distinct_actions(self, **options: Any) -> int:
        return len(STEPS)

    def action_to_int(self, state: State, action: Action) -> int:
        return STEPS.index(str(action))

    def int_to_action(self, state: State, n: int) -> Action:
        if not 0 <= n < len(STEPS):
            raise IllegalAction(f"race: action {n} is not 0, 1 or 2")
        return STEPS[n]

    def max_game_length(self, **options: Any) -> int:
        return int(self.resolve_options(**options)["limit"])

    def state_from_json(self, data: Mapping[str, Any]) -> RaceState:
        state = RaceState(self, self.resolve_options(**data["options"]))
        state.count, state.to_move, state.ply = data["count"], data["to_move"], data["ply"]
        state.result = Outcome.from_json(data["result"]) if data["result"] else None
        return state


class RaceState(State):
    def __init__(self, game: Race, options: dict[str, Any]) -> None:
        self.game = game
        self.options = options
        self.num_players = options["players"]
        self.count = 0
        self.to_move = 0
        self.ply = 0
        self.result: Outcome | None = None

    @property
    def current_player(self) -> int:
        return TERMINAL if self.result else self.to_move

    def legal_actions(self) -> list[Action]:
        return [] if self.result else list(STEPS)

    def apply(self, action: Action) -> list[Event]:
        if self.result:
            raise IllegalAction("race: the game is over")
        if action not in STEPS:
            raise IllegalAction(f"race: {action!r} is not one of {', '.join(STEPS)}")
        seat = self.to_move
        self.count += STEPS.index(str(action))
        self.ply += 1
        n = self.num_players
        goal = self.options["goal"]
        if self.count == goal:
            self.result = Outcome.win(seat, n, "goal")
        elif self.count > goal:
            self.result = Outcome.loss(seat, n, "overshoot")
        elif self.ply >= self.options["limit"]:
            self.result = Outcome.no_winner(n, "length_limit")
        self.to_move = (seat + 1) % n
        return [event("step", None, seat=seat, step=action, message=f"seat {seat}: {action}")]

    def concede(self, seat: int, reason: str = "resignation") -> list[Event]:
        self.result = Outcome.loss(seat, self.num_players, reason)
        return [event("concede", None, seat=seat)]

    def clone(self) -> RaceState:
        other = RaceState(self.game, self.options)  # type: ignore[arg-type]
        other.count, other.to_move, other.ply, other.result = (
            self.count,
            self.to_move,
            self.ply,
            self.result,
        )
        return other

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "game": NAME,
            "count": self.count,
            "goal": self.options["goal"],
            "current_player": self.current_player,
            "ply": self.ply,
            "outcome": self.result.to_json() if self.result else None,
        }

    def determinize(self, seat: int, rng: random.Random) -> RaceState:
        return self.clone()

    def to_json(self) -> dict[str, Any]:
        return {
            "game": NAME,
            "options": dict(self.options),
            "count": self.count,
            "to_move": self.to_move,
            "ply": self.ply,
            "result": self.result.to_json() if self.result else None,
        }


def register_race() -> None:
    REGISTRY.register(NAME, Race)


def unregister_race() -> None:
    REGISTRY.factories.pop(NAME, None)
    REGISTRY._cache.pop(NAME, None)
