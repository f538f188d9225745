"""Game records: enough to replay a match exactly (game, rules version, options, seed, actions).

A record is JSON::

    {"game": "gungi", "version": 1, "options": {...}, "seed": 0,
     "players": ["Gon", "Killua"], "actions": ["7-7-1 兵(7-6)", ...],
     "concessions": [{"ply": 12, "seat": 1, "reason": "resignation"}],
     "result": {"reason": "resignation", "winners": [0], ...}}

A seed beyond 2**53 - 1 (the server draws 128-bit seeds) is written as a string of decimal
digits, so that JavaScript readers do not round it; both forms are read.

Actions are stored in canonical notation. ``replay`` rebuilds the state move by move and
rejects a record that does not replay, naming the move number and the reason.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sengoku.core.game import Action, Game, SengokuError, State
from sengoku.core.registry import load_game

#: Seeds beyond this are refused (the server draws 128-bit seeds).
MAX_SEED = 2**256
#: The largest integer every JSON reader keeps exactly (JavaScript's Number.MAX_SAFE_INTEGER).
JSON_SAFE_INT = 2**53 - 1
SEED_TEXT = re.compile(r"-?[0-9]{1,80}")


def seed_json(seed: int) -> int | str:
    """A seed as a record holds it: a number, or its decimal digits when a JavaScript reader
    would round the number (the server's 128-bit seeds)."""
    return seed if abs(seed) <= JSON_SAFE_INT else str(seed)


class InvalidRecord(SengokuError):
    """A record that is malformed or does not replay; the message says where and why."""


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

    def replay(self, upto: int | None = None) -> State:
        """The state after the first ``upto`` actions (all by default)."""
        try:
            game = load_game(self.game)
        except SengokuError as exc:
            raise InvalidRecord(f"record names an unknown game: {exc}") from None
        if self.version != game.version:
            raise InvalidRecord(
                f"record was made with {self.game} rules version {self.version}; "
                f"this engine plays version {game.version}"
            )
        try:
            state = game.new_state(self.seed, **self.options)
        except SengokuError as exc:
            raise InvalidRecord(f"record options: {exc}") from None
        concessions = sorted(self.concessions, key=lambda c: int(c["ply"]))
        n = len(self.actions) if upto is None else upto
        for ply in range(n + 1):
            for c in concessions:
                if int(c["ply"]) == ply and not state.is_terminal():
                    state.concede(int(c["seat"]), str(c.get("reason", "resignation")))
            if ply == n:
                break
            text = self.actions[ply]
            try:
                action = game.parse_action(state, text)
                state.apply(action)
            except SengokuError as exc:
                raise InvalidRecord(f"move {ply + 1} ({text!r}) does not replay: {exc}") from None
        if upto is None and self.result is not None:
            got = state.outcome()
            if got is None or got.to_json() != self.result:
                raise InvalidRecord(
                    f"record says the result is {self.result}, replay gives "
                    f"{got.to_json() if got else 'an unfinished game'}"
                )
        return state

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
