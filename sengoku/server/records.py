"""Records: the published record of a match that ended, and imported records.

An import is replayed in a worker process, bounded in time, and kept in storage only.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from sengoku.core.game import SengokuError, event
from sengoku.core.record import GameRecord
from sengoku.core.registry import load_game
from sengoku.server.broadcast import event_entries, event_rows
from sengoku.server.db import dumps
from sengoku.server.errors import ApiError, engine_error
from sengoku.server.i18n import N_
from sengoku.server.live import LIVE_STATUSES, Live, Seat
from sengoku.server.persistence import Persistence, seat_row
from sengoku.server.tokens import new_match_id
from sengoku.server.work import import_summary

#: The longest record ``POST /api/records`` accepts (each action is replayed by the engine).
MAX_IMPORT_ACTIONS = 20_000
#: The longest player name a record may hold (a seat's name at match creation).
MAX_NAME = 64


class Records:
    """Records out (``record_of``) and in (``import_record``)."""

    def __init__(self, db: Persistence, heavy: Callable[..., Awaitable[Any]]) -> None:
        self.db = db
        self._heavy = heavy

    def now(self) -> float:
        return self.db.now()

    async def record_of(self, live: Live) -> dict[str, Any]:
        if live.status in LIVE_STATUSES:
            raise ApiError(
                409,
                "in_progress",
                N_(
                    "this match is still in play; its record (with its seed) is published when it ends"
                ),
            )
        data = live.record().to_json()
        data["id"] = live.id
        data["status"] = live.status
        # Who left and from which ply the computer played their seat (the result is the
        # game's own: the computer played those seats to the end).
        data["left"] = [dict(entry) for entry in live.left]
        return data

    async def import_record(self, data: Any) -> Live:
        try:
            record = GameRecord.from_json(data)
            if len(record.actions) > MAX_IMPORT_ACTIONS:
                raise ApiError(
                    422,
                    "bad_record",
                    N_("records are limited to %(n)s actions"),
                    {"n": MAX_IMPORT_ACTIONS},
                )
            game = load_game(record.game)
        except SengokuError as exc:
            raise engine_error(422, "bad_record", exc) from None
        # The replay runs in a worker process, bounded in time: a long record must not stall
        # every game. The match is kept in storage only (it is replayed when looked at).
        summary = await self._heavy(import_summary, data, MAX_IMPORT_ACTIONS)
        if "error" in summary:
            raise ApiError(422, "bad_record", summary["error"], say=summary.get("say"))
        movers: list[int] = summary["movers"]
        now = self.now()
        match_id = new_match_id()
        n = int(summary["num_players"])
        if len(record.players) > n:
            # never cut silently: the record names players this match has no seat for
            raise ApiError(
                422,
                "bad_record",
                N_(
                    "record field 'players' names %(named)s players; this %(game)s match has "
                    "%(n)s seats"
                ),
                {"named": len(record.players), "game": game.name, "n": n},
            )
        for i, name in enumerate(record.players):
            if len(name) > MAX_NAME:
                raise ApiError(
                    422,
                    "bad_record",
                    N_("record field 'players.%(i)s': a name has at most %(n)s characters"),
                    {"i": i, "n": MAX_NAME},
                )
        names = list(record.players) + [f"Player {i + 1}" for i in range(len(record.players), n)]
        seats = [Seat(i, "human", names[i]) for i in range(n)]
        status = "finished" if summary["terminal"] else "archived"
        live = Live(
            id=match_id,
            game=game,
            options=dict(summary["options"]),
            seed=record.seed,
            version=record.version,
            status=status,
            seats=seats,
            created_at=now,
            state=None,
            actions=list(record.actions),
            concessions=list(record.concessions),
            result=summary["outcome"],
        )
        moves_rows = []
        seq = 0
        ply = 0
        concessions = sorted(record.concessions, key=lambda c: int(c["ply"]))
        for i in range(len(record.actions) + 1):
            for c in concessions:
                if int(c["ply"]) == i:
                    moves_rows.append(
                        {
                            "match_id": match_id,
                            "seq": seq,
                            "kind": "concede",
                            "seat": int(c["seat"]),
                            "action": None,
                            "reason": str(c.get("reason", "resignation")),
                            "at": now,
                            "clocks": None,
                        }
                    )
                    seq += 1
            if i == len(record.actions):
                break
            mover = movers[i]
            live.action_seats.append(mover)
            live.action_ids.append(None)
            moves_rows.append(
                {
                    "match_id": match_id,
                    "seq": seq,
                    "kind": "action",
                    "seat": mover,
                    "action": record.actions[i],
                    "reason": None,
                    "at": now,
                    "clocks": None,
                }
            )
            seq += 1
            ply += 1
        live.seq = seq
        rows = event_rows(live, [event("imported", None, message="an imported record")])
        match_row = {
            "id": match_id,
            "game": game.name,
            "version": record.version,
            "options": dumps(live.options),
            "seed": str(record.seed),
            "clock": None,
            "status": status,
            "result": dumps(live.result) if live.result else None,
            "close_reason": None,
            "created_at": now,
            "updated_at": now,
            "rematch_of": None,
            "rematch_id": None,
        }

        await self.db.run(
            self.db.store.create_match,
            match_row,
            [seat_row(match_id, s) for s in seats],
            rows,
            moves_rows,
        )
        live.events.extend(event_entries(rows))
        self.db.keep(live)
        self.db.forget_if_done(live)  # nobody watches an imported record yet
        return live
