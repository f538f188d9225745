"""Two tiny games written to the core contract, for testing the agents and the arena.

* ``tictactoe``: perfect information, two players, draws possible.
* ``hightrick``: hidden hands, 2-4 players. Each player is dealt cards from 1..9; in each
  round every player in turn lays one card face up, the highest wins the round and leads
  the next. Most rounds wins; shared most is a shared win (ranked by rounds).

They are registered in the game registry only by the tests' fixtures (never at import), but
their knowledge (an evaluation) is registered at import so that worker processes which
import this module to build a game also know it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sengoku.ai.eval import Knowledge, register_knowledge
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

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@dataclass(frozen=True, order=True)
class Mark:
    square: int

    def __str__(self) -> str:
        return "abc"[self.square % 3] + str(self.square // 3 + 1)


class TicTacToe(Game):
    name = "tictactoe"
    version = 1
    min_players = 2
    max_players = 2
    title = "noughts and crosses (test game)"
    options: Mapping[str, Option] = {}

    def new_state(self, seed: int = 0, **options: Any) -> TicTacToeState:
        return TicTacToeState(self, self.resolve_options(**options))

    def num_distinct_actions(self, **options: Any) -> int:
        return 9

    def action_to_int(self, state: State, action: Any) -> int:
        return int(action.square)

    def int_to_action(self, state: State, n: int) -> Mark:
        return Mark(n)

    def max_game_length(self, **options: Any) -> int:
        return 9

    def state_from_json(self, data: Mapping[str, Any]) -> TicTacToeState:
        st = TicTacToeState(self, {})
        st.board = list(data["board"])
        st.player = int(data["player"])
        st.hash = hash(tuple(st.board))
        return st


class TicTacToeState(State):
    def __init__(self, game: TicTacToe, options: dict[str, Any]) -> None:
        self.game = game
        self.options = options
        self.num_players = 2
        self.board = [-1] * 9
        self.player = 0
        self.resigned: int | None = None
        self.hash = hash(tuple(self.board))

    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.player

    def winner(self) -> int | None:
        for a, b, c in LINES:
            if self.board[a] >= 0 and self.board[a] == self.board[b] == self.board[c]:
                return self.board[a]
        return None

    def is_terminal(self) -> bool:
        return self.resigned is not None or self.winner() is not None or -1 not in self.board

    def legal_actions(self) -> list[Any]:
        if self.is_terminal():
            return []
        return [Mark(i) for i in range(9) if self.board[i] < 0]

    def apply(self, action: Any) -> list[Event]:
        if self.is_terminal():
            raise IllegalAction("the game is over")
        if not isinstance(action, Mark) or not 0 <= action.square < 9:
            raise IllegalAction(f"{action!r} is not a square")
        if self.board[action.square] >= 0:
            raise IllegalAction(f"square {action} is taken")
        self.board[action.square] = self.player
        self.hash = hash(tuple(self.board))
        self.player = 1 - self.player
        return [event("mark", square=str(action), message=f"mark on {action}")]

    def concede(self, seat: int, reason: str = "resignation") -> list[Event]:
        self.resigned = seat
        self.reason = reason
        return [event("conceded", seat=seat, message=f"seat {seat} concedes")]

    def clone(self) -> TicTacToeState:
        st = TicTacToeState.__new__(TicTacToeState)
        st.__dict__.update(self.__dict__)
        st.board = list(self.board)
        return st

    def outcome(self) -> Outcome | None:
        if self.resigned is not None:
            return Outcome.loss(self.resigned, 2, self.reason)
        w = self.winner()
        if w is not None:
            return Outcome.win(w, 2, "three_in_a_row")
        if -1 not in self.board:
            return Outcome.no_winner(2, "draw")
        return None

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"board": list(self.board), "player": self.current_player}

    def determinize(self, seat: int, rng: random.Random) -> TicTacToeState:
        return self.clone()

    def to_json(self) -> dict[str, Any]:
        return {"board": list(self.board), "player": self.player}


@dataclass(frozen=True, order=True)
class Play:
    card: int

    def __str__(self) -> str:
        return f"play {self.card}"


class HighTrick(Game):
    name = "hightrick"
    version = 1
    min_players = 2
    max_players = 4
    title = "highest card wins the round (hidden-hand test game)"
    options: Mapping[str, Option] = {
        "players": Option("players", 2, range(2, 5), "number of players"),
        "hand": Option("hand", 3, range(1, 5), "cards dealt to each player"),
    }

    def new_state(self, seed: int = 0, **options: Any) -> HighTrickState:
        opts = self.resolve_options(**options)
        deck = list(range(1, 10))
        random.Random(seed).shuffle(deck)
        n, h = opts["players"], opts["hand"]
        hands = [sorted(deck[i * h : (i + 1) * h]) for i in range(n)]
        return HighTrickState(self, opts, hands, deck[n * h :])

    def num_distinct_actions(self, **options: Any) -> int:
        return 9

    def action_to_int(self, state: State, action: Any) -> int:
        return int(action.card) - 1

    def int_to_action(self, state: State, n: int) -> Play:
        return Play(n + 1)

    def max_game_length(self, **options: Any) -> int:
        opts = self.resolve_options(**options)
        return int(opts["players"] * opts["hand"])

    def state_from_json(self, data: Mapping[str, Any]) -> HighTrickState:
        st = HighTrickState(self, dict(data["options"]), data["hands"], data["deck"])
        st.leader, st.player = int(data["leader"]), int(data["player"])
        st.table = [tuple(x) for x in data["table"]]
        st.rounds = list(data["rounds"])
        st.played = list(data["played"])
        return st


class HighTrickState(State):
    def __init__(
        self, game: HighTrick, options: dict[str, Any], hands: list[list[int]], deck: list[int]
    ) -> None:
        self.game = game
        self.options = options
        self.num_players = int(options["players"])
        self.hands = [list(h) for h in hands]
        self.deck = list(deck)
        self.leader = 0
        self.player = 0
        self.table: list[tuple[int, int]] = []  # (seat, card) this round
        self.rounds = [0] * self.num_players
        self.played: list[int] = []  # every card laid, in order
        self.resigned: int | None = None

    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.player

    def is_terminal(self) -> bool:
        return self.resigned is not None or not any(self.hands)

    def legal_actions(self) -> list[Any]:
        if self.is_terminal():
            return []
        return [Play(c) for c in sorted(self.hands[self.player])]

    def apply(self, action: Any) -> list[Event]:
        if self.is_terminal():
            raise IllegalAction("the game is over")
        if not isinstance(action, Play) or action.card not in self.hands[self.player]:
            raise IllegalAction(f"{action} is not a card in seat {self.player}'s hand")
        seat = self.player
        self.hands[seat].remove(action.card)
        self.table.append((seat, action.card))
        self.played.append(action.card)
        events = [event("played", seat=seat, card=action.card, message=f"seat {seat}: {action}")]
        if len(self.table) == self.num_players:
            winner = max(self.table, key=lambda sc: sc[1])[0]
            self.rounds[winner] += 1
            self.table = []
            self.leader = self.player = winner
            events.append(event("round", winner=winner, message=f"seat {winner} wins the round"))
        else:
            self.player = (self.player + 1) % self.num_players
        return events

    def concede(self, seat: int, reason: str = "resignation") -> list[Event]:
        self.resigned = seat
        self.reason = reason
        return [event("conceded", seat=seat)]

    def clone(self) -> HighTrickState:
        st = HighTrickState.__new__(HighTrickState)
        st.__dict__.update(self.__dict__)
        st.hands = [list(h) for h in self.hands]
        st.deck = list(self.deck)
        st.table = list(self.table)
        st.rounds = list(self.rounds)
        st.played = list(self.played)
        return st

    def outcome(self) -> Outcome | None:
        n = self.num_players
        if self.resigned is not None:
            return Outcome.loss(self.resigned, n, self.reason)
        if not self.is_terminal():
            return None
        ranks = [sum(1 for o in self.rounds if o > r) for r in self.rounds]
        if n == 2:
            if self.rounds[0] == self.rounds[1]:
                return Outcome.no_winner(2, "rounds")
            return Outcome.win(0 if self.rounds[0] > self.rounds[1] else 1, 2, "rounds")
        return Outcome.ranked([float(r) for r in self.rounds], "rounds", ranks)

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "hand": sorted(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "table": [list(x) for x in self.table],
            "rounds": list(self.rounds),
            "played": list(self.played),
            "player": self.current_player,
        }

    def determinize(self, seat: int, rng: random.Random) -> HighTrickState:
        st = self.clone()
        # Sorted as one list: its order must not tell where the unseen cards really are.
        unseen = sorted([c for s, h in enumerate(self.hands) if s != seat for c in h] + self.deck)
        rng.shuffle(unseen)
        for s in range(self.num_players):
            if s != seat:
                k = len(self.hands[s])
                st.hands[s], unseen = sorted(unseen[:k]), unseen[k:]
        st.deck = unseen
        return st

    def to_json(self) -> dict[str, Any]:
        return {
            "options": dict(self.options),
            "hands": [list(h) for h in self.hands],
            "deck": list(self.deck),
            "leader": self.leader,
            "player": self.player,
            "table": [list(x) for x in self.table],
            "rounds": list(self.rounds),
            "played": list(self.played),
        }


class TicTacToeKnowledge(Knowledge):
    def position_hash(self, state: State) -> int:
        return int(state.hash)  # type: ignore[attr-defined]

    def heuristic(self, state: State, seat: int) -> float:
        # Open lines: lines with only our marks count for us, only theirs against.
        board = state.board  # type: ignore[attr-defined]
        score = 0.0
        for line in LINES:
            marks = {board[i] for i in line} - {-1}
            if marks == {seat}:
                score += 0.1 * sum(1 for i in line if board[i] == seat)
            elif marks == {1 - seat}:
                score -= 0.1 * sum(1 for i in line if board[i] == 1 - seat)
        return score


class HighTrickKnowledge(Knowledge):
    hidden_information = True

    def heuristic(self, state: State, seat: int) -> float:
        rounds = state.rounds  # type: ignore[attr-defined]
        best_other = max(r for s, r in enumerate(rounds) if s != seat)
        return 0.5 * (rounds[seat] - best_other)


register_knowledge("tictactoe", TicTacToeKnowledge())
register_knowledge("hightrick", HighTrickKnowledge())

TOYS = {"tictactoe": TicTacToe, "hightrick": HighTrick}


def register_toys() -> None:
    for name, cls in TOYS.items():
        REGISTRY.register(name, cls)


def unregister_toys() -> None:
    for name in TOYS:
        REGISTRY.factories.pop(name, None)
        REGISTRY._cache.pop(name, None)
