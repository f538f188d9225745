"""Game records: enough to replay a match exactly (game, rules version, options, seed, actions).

A record is JSON::

    {"game": "gungi", "version": 1, "options": {...}, "seed": 0,
     "players": ["Gon", "Killua"], "actions": ["7-7-1 兵(7-6)", ...],
     "concessions": [{"ply": 12, "seat": 1, "reason": "resignation"}],
     "result": {"reason": "resignation", "winners": [0], ...}}

A seed beyond 2**53 - 1 (the server draws 128-bit seeds) is written as a string of decimal
digits, so that JavaScript readers do not round it; both forms are read.

Actions are stored in canonical notation. :meth:`GameRecord.steps` is the one replay of a
record: it rebuilds the state move by move, plays each concession where the record puts it,
and rejects a record that does not replay, naming the move number and the reason. Everything
that replays (``replay``, the server, the web replay, the research adapters) goes through it;
a caller that drives its own wrapper of the state passes a :class:`ReplayTarget`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from sengoku.core.game import Action, Event, Game, SengokuError, State
from sengoku.core.registry import load_game

#: Seeds beyond this are refused (the server draws 128-bit seeds).
MAX_SEED = 2**256
#: The largest integer every JSON reader keeps exactly (JavaScript's Number.MAX_SAFE_INTEGER).
JSON_SAFE_INT = 2**53 - 1
#: The most concessions a record may hold: one per seat, and no game seats more.
MAX_CONCESSIONS = 8
SEED_TEXT = re.compile(r"-?[0-9]{1,80}")


def seed_json(seed: int) -> int | str:
    """A seed as a record holds it: a number, or its decimal digits when a JavaScript reader
    would round the number (the server's 128-bit seeds)."""
    return seed if abs(seed) <= JSON_SAFE_INT else str(seed)


class InvalidRecord(SengokuError):
    """A record that is malformed or does not replay; the message says where and why."""


class ReplayTarget(Protocol):
    """What a replay drives: a state, and how to play an action or a concession on it.

    The default plays on the state itself; an adapter that wraps the state (OpenSpiel's,
    which keeps the events each seat was told) passes its own.
    """

    @property
    def state(self) -> State: ...

    def play(self, action: Action) -> list[Event]: ...

    def concede(self, seat: int, reason: str) -> list[Event]: ...


class _OnState:
    """The default :class:`ReplayTarget`: plays straight on ``state``."""

    def __init__(self, state: State) -> None:
        self.state = state

    def play(self, action: Action) -> list[Event]:
        return self.state.apply(action)

    def concede(self, seat: int, reason: str) -> list[Event]:
        return self.state.concede(seat, reason)


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay, with the state just after it (the live state: clone to keep it).

    ``kind`` is ``start`` (the starting position; ``seat`` and ``action`` are None),
    ``concession`` (``seat`` conceded for the reason ``action``) or ``action`` (``seat``
    played ``action``, in canonical notation). ``ply`` counts the actions played so far;
    ``events`` are what the step told (every audience: filter before showing them).
    """

    kind: Literal["start", "concession", "action"]
    ply: int
    seat: int | None
    action: str | None
    events: list[Event]
    state: State


@dataclass
class GameRecord:
    game: str
    version: int
    options: dict[str, Any]
    seed: int = 0
    players: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    concessions: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None

    @classmethod
    def start(
        cls, game: Game, seed: int = 0, players: list[str] | None = None, /, **options: Any
    ) -> tuple[GameRecord, State]:
        """A new record and the matching starting state.

        ``game``, ``seed`` and the player names are positional-only, so that a game's own
        ``players`` option (the number of seats) can be passed by keyword with the others.
        """
        state = game.new_state(seed, **options)
        record = cls(game.name, game.version, dict(state.options), seed, list(players or []))
        return record, state

    def play(self, state: State, action: Action) -> list[dict[str, Any]]:
        """Apply ``action`` to ``state`` and append it (canonical) to the record."""
        text = str(action)
        events = state.apply(action)
        self.actions.append(text)
        self._update_result(state)
        return events

    def concede(self, state: State, seat: int, reason: str = "resignation") -> None:
        state.concede(seat, reason)
        self.concessions.append({"ply": len(self.actions), "seat": seat, "reason": reason})
        self._update_result(state)

    def _update_result(self, state: State) -> None:
        result = state.outcome()
        self.result = result.to_json() if result else None

    def load_game(self) -> Game:
        """The record's game, refused if unknown or of another rules version."""
        try:
            game = load_game(self.game)
        except SengokuError as exc:
            raise InvalidRecord(f"record names an unknown game: {exc}") from None
        if self.version != game.version:
            raise InvalidRecord(
                f"record was made with {self.game} rules version {self.version}; "
                f"this engine plays version {game.version}"
            )
        return game

    def start_state(self) -> State:
        """The record's starting state (its game, seed and options)."""
        game = self.load_game()
        try:
            return game.new_state(self.seed, **self.options)
        except SengokuError as exc:
            raise InvalidRecord(f"record options: {exc}") from None

    def steps(
        self,
        upto: int | None = None,
        target: ReplayTarget | None = None,
        *,
        check_result: bool = True,
    ) -> Iterator[ReplayStep]:
        """Replay the first ``upto`` actions (all by default), step by step.

        ``target`` defaults to :meth:`start_state` played on directly. Concessions are played
        where the record puts them (once the game is over, later ones are skipped). When the
        whole record is replayed and ``check_result`` is true, the end must match the
        record's result. Raises :class:`InvalidRecord` naming the move that fails.
        """
        target = _OnState(self.start_state()) if target is None else target
        state = target.state
        game = state.game
        yield ReplayStep("start", 0, None, None, [], state)
        concessions = sorted(self.concessions, key=lambda c: int(c["ply"]))
        n = len(self.actions) if upto is None else upto
        for ply in range(n + 1):
            for c in concessions:
                if int(c["ply"]) == ply and not target.state.is_terminal():
                    seat, reason = int(c["seat"]), str(c.get("reason", "resignation"))
                    if not 0 <= seat < target.state.num_players:
                        raise InvalidRecord(
                            f"concession at ply {ply}: seat {seat} is not one of the game's "
                            f"{target.state.num_players} seats"
                        )
                    told = target.concede(seat, reason)
                    yield ReplayStep("concession", ply, seat, reason, told, target.state)
            if ply == n:
                break
            text = self.actions[ply]
            state = target.state
            mover = state.current_player
            try:
                action = game.parse_action(state, text)
                told = target.play(action)
            except SengokuError as exc:
                raise InvalidRecord(f"move {ply + 1} ({text!r}) does not replay: {exc}") from None
            yield ReplayStep("action", ply + 1, mover, str(action), told, target.state)
        if check_result and upto is None and self.result is not None:
            got = target.state.outcome()
            # A draw the players agreed ends a game the rules had not ended (the server's
            # draw offers, sengoku/server/draws.py): no winner, and the game unfinished.
            agreed = self.result.get("reason") == "agreement" and not self.result.get("winners")
            if agreed and got is None:
                pass
            elif got is None or got.to_json() != self.result:
                raise InvalidRecord(
                    f"record says the result is {self.result}, replay gives "
                    f"{got.to_json() if got else 'an unfinished game'}"
                )

    def replay(self, upto: int | None = None) -> State:
        """The state after the first ``upto`` actions (all by default): see :meth:`steps`."""
        target = _OnState(self.start_state())
        for _ in self.steps(upto, target):
            pass
        return target.state

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "version": self.version,
            "options": self.options,
            "seed": seed_json(self.seed),
            "players": self.players,
            "actions": self.actions,
            "concessions": self.concessions,
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise InvalidRecord("a record is a JSON object")
        required = {"game": str, "version": int, "options": dict, "actions": list}
        for key, typ in required.items():
            if key not in data:
                raise InvalidRecord(f"record field {key!r} is missing")
            if not isinstance(data[key], typ) or isinstance(data[key], bool):
                raise InvalidRecord(f"record field {key!r} must be a {typ.__name__}")
        if not all(isinstance(a, str) for a in data["actions"]):
            raise InvalidRecord("record field 'actions' must be a list of strings")
        seed = data.get("seed", 0)
        if isinstance(seed, str) and SEED_TEXT.fullmatch(seed):
            seed = int(seed)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise InvalidRecord("record field 'seed' must be an integer (or its decimal digits)")
        if abs(seed) >= MAX_SEED:
            raise InvalidRecord("record field 'seed' must be below 2**256")
        concessions = data.get("concessions", [])
        if not isinstance(concessions, list) or not all(
            isinstance(c, dict) and isinstance(c.get("ply"), int) and isinstance(c.get("seat"), int)
            for c in concessions
        ):
            raise InvalidRecord("record field 'concessions' must be a list of {ply, seat, reason}")
        if len(concessions) > MAX_CONCESSIONS:
            raise InvalidRecord(
                f"record field 'concessions' holds {len(concessions)}; a seat concedes once, "
                f"and no game has more than {MAX_CONCESSIONS} seats"
            )
        seats_conceded: set[int] = set()
        for c in concessions:
            ply, seat, reason = c["ply"], c["seat"], c.get("reason", "resignation")
            if not 0 <= ply <= len(data["actions"]):
                raise InvalidRecord(
                    f"record field 'concessions': ply {ply} is outside the record's "
                    f"0-{len(data['actions'])} actions"
                )
            if seat < 0 or seat in seats_conceded:
                raise InvalidRecord(
                    f"record field 'concessions': seat {seat} "
                    + ("is not a seat" if seat < 0 else "concedes more than once")
                )
            if not isinstance(reason, str) or len(reason) > 64:
                raise InvalidRecord(
                    "record field 'concessions': a reason is a text of at most 64 characters"
                )
            seats_conceded.add(seat)
        players = data.get("players", [])
        if not isinstance(players, list):
            raise InvalidRecord("record field 'players' must be a list of names")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise InvalidRecord("record field 'result' must be an object or null")
        return cls(
            game=data["game"],
            version=data["version"],
            options=data["options"],
            seed=seed,
            players=[str(p) for p in players],
            actions=list(data["actions"]),
            concessions=concessions,
            result=result,
        )

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidRecord(f"record is not valid JSON: {exc}") from None
        return cls.from_json(data)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        return cls.loads(Path(path).read_text(encoding="utf-8"))
