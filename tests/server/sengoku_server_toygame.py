"""A tiny two-player game with hidden information and chance, for the server's tests only.

"Secret Nim": a public pile of stones; players alternate taking one or two; whoever takes the
last stone wins. At setup each seat is dealt a secret word from a seeded shuffle; the word is
in ``view(seat)`` for its owner only and in private events addressed to that seat, so a test
can look for the other seat's word anywhere it should not be. Option ``peek`` adds a third
action, ``peek``, that reveals the mover's own word to everybody (hidden information revealed
in public) and ``draw``, a random draw from the hidden bag (chance).

It is registered in the game registry by :func:`register`, only inside the tests.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sengoku.core.game import (
    TERMINAL,
    Event,
    Game,
    IllegalAction,
    Option,
    Outcome,
    State,
    event,
)
from sengoku.core.registry import REGISTRY

WORDS = [f"SECRET{i:02d}x{i * 7919 % 1000:03d}" for i in range(40)]


@dataclass(frozen=True)
class Take:
    n: int

    def __str__(self) -> str:
        return f"take {self.n}"


@dataclass(frozen=True)
class Peek:
    def __str__(self) -> str:
        return "peek"


@dataclass(frozen=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


class NimState(State):
    def __init__(self, game: SecretNim, options: dict[str, Any], seed: int) -> None:
        self.game = game
        self.options = options
        self.num_players = 2
        rng = random.Random(seed)
        bag = list(WORDS)
        rng.shuffle(bag)
        self.secrets = [bag.pop(), bag.pop()]
        self.bag = bag
        self.pile = int(options["pile"])
        self.to_move = 0
        self.revealed = [False, False]
        self.drawn: list[str] = []
        self.plies = 0
        self.result: Outcome | None = None

    @property
    def current_player(self) -> int:
        return TERMINAL if self.result else self.to_move

    def legal_actions(self) -> list[Any]:
        if self.result:
            return []
        acts: list[Any] = [Take(n) for n in (1, 2) if n <= self.pile]
        if self.options["peek"]:
            if not self.revealed[self.to_move]:
                acts.append(Peek())
            if self.bag:
                acts.append(Draw())
        return acts

    def apply(self, action: Any) -> list[Event]:
        if action not in self.legal_actions():
            raise IllegalAction(f"'{action}' is not legal: take 1 or 2 stones, at most the pile")
        seat = self.to_move
        events: list[Event] = []
        if isinstance(action, Take):
            self.pile -= action.n
            events.append(
                event("took", None, seat=seat, n=action.n, message=f"seat {seat} took {action.n}")
            )
        elif isinstance(action, Peek):
            self.revealed[seat] = True
            events.append(
                event("revealed", None, seat=seat, word=self.secrets[seat], message="revealed")
            )
        else:
            word = self.bag.pop()
            self.drawn.append(word)
            events.append(event("drew", None, seat=seat, word=word, message=f"drew {word}"))
        events.append(
            event("reminder", [seat], secret=self.secrets[seat], message="your secret word")
        )
        self.plies += 1
        if self.pile == 0:
            self.result = Outcome.win(seat, 2, "last_stone")
        elif self.plies >= self.game.max_game_length(**self.options):
            self.result = Outcome.no_winner(2, "length_limit")
        self.to_move = 1 - seat
        if self.result:
            events.append(event("game_over", None, **self.result.to_json(), message="game over"))
        return events

    def concede(self, seat: int, reason: str = "resignation") -> list[Event]:
        if self.result:
            raise IllegalAction("the game is over")
        self.result = Outcome.loss(seat, 2, reason)
        return [event("game_over", None, **self.result.to_json(), message=reason)]

    def clone(self) -> NimState:
        other = object.__new__(NimState)
        other.__dict__.update(self.__dict__)
        other.secrets = list(self.secrets)
        other.bag = list(self.bag)
        other.revealed = list(self.revealed)
        other.drawn = list(self.drawn)
        return other

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "pile": self.pile,
            "to_move": self.current_player,
            "my_secret": self.secrets[seat] if seat is not None else None,
            "revealed": {str(s): self.secrets[s] for s in range(2) if self.revealed[s]},
            "drawn": list(self.drawn),
            "bag_size": len(self.bag),
        }

    def determinize(self, seat: int, rng: random.Random) -> NimState:
        other = self.clone()
        unknown = [other.secrets[1 - seat]] if not other.revealed[1 - seat] else []
        pool = unknown + other.bag
        rng.shuffle(pool)
        if unknown:
            other.secrets[1 - seat] = pool.pop()
        other.bag = pool
        return other

    def to_json(self) -> dict[str, Any]:
        return {
            "options": self.options,
            "secrets": self.secrets,
            "bag": self.bag,
            "pile": self.pile,
            "to_move": self.to_move,
            "revealed": self.revealed,
            "drawn": self.drawn,
            "plies": self.plies,
            "result": self.result.to_json() if self.result else None,
        }


class SecretNim(Game):
    name = "secretnim"
    version = 1
    min_players = 2
    max_players = 2
    title = "Secret Nim (a test game)"
    options = {
        "pile": Option("pile", 10, range(1, 201), "stones in the pile"),
        "peek": Option("peek", False, (False, True), "allow the peek and draw actions"),
    }

    def new_state(self, seed: int = 0, **options: Any) -> NimState:
        return NimState(self, self.resolve_options(**options), seed)

    def num_distinct_actions(self, **options: Any) -> int:
        return 4

    def action_to_int(self, state: State, action: Any) -> int:
        if isinstance(action, Take):
            return action.n - 1
        return 2 if isinstance(action, Peek) else 3

    def int_to_action(self, state: State, n: int) -> Any:
        return [Take(1), Take(2), Peek(), Draw()][n]

    def max_game_length(self, **options: Any) -> int:
        return 400

    def state_from_json(self, data: Mapping[str, Any]) -> NimState:
        state = NimState(self, dict(data["options"]), 0)
        state.secrets = list(data["secrets"])
        state.bag = list(data["bag"])
        state.pile = int(data["pile"])
        state.to_move = int(data["to_move"])
        state.revealed = list(data["revealed"])
        state.drawn = list(data["drawn"])
        state.plies = int(data["plies"])
        state.result = Outcome.from_json(data["result"]) if data["result"] else None
        return state


def register() -> None:
    """Put Secret Nim in the registry (tests and their AI worker processes call this)."""
    REGISTRY.register(SecretNim.name, SecretNim)
