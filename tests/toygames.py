"""The tests' own small games, written to the core contract (one module for all of them).

* ``secretnim`` (the server's tests): a public pile of stones; players alternate taking one
  or two; whoever takes the last stone wins. At setup each seat is dealt a secret word from a
  seeded shuffle; the word is in ``view(seat)`` for its owner only and in private events
  addressed to that seat, so a test can look for the other seat's word anywhere it should not
  be. Option ``peek`` adds a third action, ``peek``, that reveals the mover's own word to
  everybody (hidden information revealed in public) and ``draw``, a random draw from the
  hidden bag (chance).
* ``tictactoe`` (the agents and the arena): perfect information, two players, draws possible.
* ``hightrick`` (the agents and the arena): hidden hands, 2-4 players. Each player is dealt
  cards from 1..9; in each round every player in turn lays one card face up, the highest wins
  the round and leads the next. Most rounds wins; shared most is a shared win (ranked by
  rounds).
* ``race`` (the adapters): one or two players count up to a goal. Each decision adds 0
  ("wait"), 1 or 2 to a shared count. Landing exactly on ``goal`` wins; passing it loses.
  ``limit`` decisions end the game with ``length_limit`` (returns 0), so the adapters'
  truncation can be tested. With ``players=1`` it is a one-player game, the shape of
  Sashimono's solo mode, for the Gymnasium environment's generic path.

They are registered in the game registry only by the tests' fixtures (``register_*``), never
at import; the knowledge (an evaluation) of tictactoe and hightrick is registered at import,
so that worker processes which import this module to build a game also know it. A game added
from outside, as a package, is the Nim plugin (tests/plugins/nim), kept apart on purpose.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from sengoku.ai.eval import Knowledge, register_knowledge
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
from sengoku.core.game_type import GameType
from sengoku.core.registry import REGISTRY

# -- Secret Nim -----------------------------------------------------------------------------
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
    game_type = GameType(
        name="secretnim",
        title="Secret Nim (a test game)",
        version=1,
        min_players=2,
        max_players=2,
    )
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


def register_secretnim() -> None:
    """Put Secret Nim in the registry (tests and their AI worker processes call this)."""
    REGISTRY.register(SecretNim.name, SecretNim)


def unregister_secretnim() -> None:
    REGISTRY.factories.pop(SecretNim.name, None)
    REGISTRY._cache.pop(SecretNim.name, None)


# -- noughts and crosses, High Trick ---------------------------------------------------------
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@dataclass(frozen=True, order=True)
class Mark:
    square: int

    def __str__(self) -> str:
        return "abc"[self.square % 3] + str(self.square // 3 + 1)


class TicTacToe(Game):
    game_type = GameType(
        name="tictactoe",
        title="noughts and crosses (test game)",
        version=1,
        min_players=2,
        max_players=2,
    )
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
    game_type = GameType(
        name="hightrick",
        title="highest card wins the round (hidden-hand test game)",
        version=1,
        min_players=2,
        max_players=4,
    )
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


# -- Race -----------------------------------------------------------------------------------
RACE = "race"
STEPS = ("wait", "add1", "add2")


class Race(Game):
    game_type = GameType(
        name=RACE,
        title="Race to the goal (test game)",
        version=1,
        min_players=1,
        max_players=2,
    )
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
            "game": RACE,
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
            "game": RACE,
            "options": dict(self.options),
            "count": self.count,
            "to_move": self.to_move,
            "ply": self.ply,
            "result": self.result.to_json() if self.result else None,
        }


def register_race() -> None:
    REGISTRY.register(RACE, Race)


def unregister_race() -> None:
    REGISTRY.factories.pop(RACE, None)
    REGISTRY._cache.pop(RACE, None)
