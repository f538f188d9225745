"""Turns and clocks: actions, concessions, the clocks that run with them, and the endings
of a match in play (resignation, timeout, abandonment, abort).

In a game of three or more players, a player who leaves (resigns, runs out of time, or is
gone past ``claim_after`` and claimed against) does not end the game for the others: the
computer takes the seat and plays on (Board Game Arena's "zombie" rule: ``hand_to_ai``),
until the player comes back (``come_back``). The last human at the table leaving ends the
game as a concession, as in a two-player game.

Every change follows the same path, under the match's lock: check that it is allowed now,
compute it on a clone of the state (the engine validates every action), commit the moves and
numbered events to storage, and only then replace the live state and broadcast.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from sengoku.core.describe import describe_played
from sengoku.core.game import IllegalAction, SengokuError, State, event
from sengoku.server import ai as ai_mod
from sengoku.server.broadcast import Answer, Broadcaster, event_entries, event_rows
from sengoku.server.clocks import Clocks, running_seat
from sengoku.server.db import dumps
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_
from sengoku.server.live import Live, clocks_until_stored, engine_fault, follow_seats
from sengoku.server.persistence import Persistence, StaleMatch, clock_json
from sengoku.server.positions import state_after
from sengoku.server.ratings import NotRated, rating_step

log = logging.getLogger("sengoku.server")

#: (match id, seat) -> its open connections in every process and when the last closed.
Presence = Callable[[str, int], Awaitable[tuple[int, float | None] | None]]

#: Refusals of an action that a process behind the database may give wrongly.
REJUDGED = frozenset({"stale", "not_your_turn", "ai_seat"})

#: How each way of leaving reads in the ``seat_left`` event's message.
LEFT_WORDS = {
    "resignation": "resigned",
    "timeout": "ran out of time",
    "abandoned": "left the table",
}


def same_action(live: Live, i: int, text: str) -> bool:
    """Whether ``text`` names the match's ``i``-th action (a retry, in any spelling the game
    reads: canonical notation or a short form), read in the position it was played in."""
    if text.strip() == live.actions[i]:
        return True
    try:
        before = state_after(live, i)
        return str(live.game.parse_action(before, text)) == live.actions[i]
    except SengokuError:
        return False


class Turns:
    """Plays actions and concessions on a match, and keeps its clocks."""

    def __init__(
        self, db: Persistence, bus: Broadcaster, after_change: Callable[[Live], None]
    ) -> None:
        self.db = db
        self.bus = bus
        self.settings = db.settings
        self._after_change = after_change
        #: Several processes share the database (their copies of a match may be behind).
        self.shared = db.settings.pubsub_url != "memory://"
        #: A seat's connections in every process and when its last one closed (set where
        #: the processes share Redis: sengoku/server/limits.py); None: this process's own.
        self.presence: Presence | None = None

    def now(self) -> float:
        return self.settings.now()

    async def store(
        self,
        live: Live,
        move_rows: list[dict[str, Any]],
        rows: list[dict[str, Any]],
        values: dict[str, Any] | None,
    ) -> None:
        """Store a change of ``live`` (``Store.record_change``). Every ending of a rated
        match comes through here: its rating changes are stored in the same transaction as
        its result (both or neither), with a public ``ratings`` event appended to ``rows``
        for the caller to broadcast with the ending's own events (docs/ratings.md)."""
        step = rating_step(
            live.id, live.rated, len(live.events), rows, live.ply, values, self.now()
        )
        if step is None:
            await self.db.run(self.db.store.record_change, live.id, move_rows, rows, values)
            return
        try:
            await self.db.run(
                self.db.store.record_change, live.id, move_rows, rows, values, None, step
            )
        except NotRated as exc:
            # Nothing was stored: the game goes on rather than end without its ratings.
            log.error("match %s: ratings not stored: %s", live.id, exc)
            raise ApiError(
                503,
                "ratings_not_stored",
                N_(
                    "the game's end could not be stored with its rating changes; nothing changed: "
                    "try again"
                ),
            ) from None
        rows.extend(step.rows)

    def activate(self, live: Live, now: float) -> list[dict[str, Any]]:
        live.status = "active"
        if live.clocks is not None and live.state is not None:
            live.clocks.start(running_seat(live.clocks.spec, live.state, live.ply), now)
        return [event("match_started", None, message="every seat is taken: the game begins")]

    def require_active(self, live: Live) -> State:
        if live.status != "active" or live.state is None:
            code = f"match_{live.status}"
            if live.status == "closed":
                reason = {"reason": live.close_reason}
                raise ApiError(409, code, N_("this match is closed: %(reason)s"), reason)
            why = {
                "waiting": N_("this match is waiting for players to join"),
                "finished": N_("this match is over"),
                "aborted": N_("this match was aborted"),
                "archived": N_("this is an imported record, not a match in play"),
            }.get(live.status)
            if why is None:
                raise ApiError(409, code, N_("this match is %(status)s"), {"status": live.status})
            raise ApiError(409, code, why)
        return live.state

    async def act(
        self,
        live: Live,
        seat: int,
        text: str,
        ply: int | None,
        by_ai: bool = False,
        client_id: str | None = None,
        turn: int | None = None,
    ) -> Answer:
        """Play ``text`` for ``seat``. A retry is never applied twice: ``ply`` (the number of
        actions the client saw) makes it stale, and a ``client_id`` seen before for this seat
        answers with the match as it is, marked ``duplicate``. One of the two is required.

        With several server processes on one database, this process's copy of the match may
        be behind: a client that saw a later ply, or a commit that finds its move or event
        number taken (``StaleMatch``), makes it catch up from the database and try once more
        (the second try then judges the action on the match as stored)."""
        async with live.lock:
            try:
                snap = await self._act(live, seat, text, ply, by_ai, client_id, turn)
            except ApiError as exc:
                # Refused on what this process holds, which may be behind the database (with
                # several processes): judge once more on the stored match, if it is newer.
                behind = self.shared and (exc.code in REJUDGED or exc.code.startswith("match_"))
                if not (isinstance(exc, StaleMatch) or behind):
                    raise
                if not await self.catch_up(live):
                    raise
                snap = await self._act(live, seat, text, ply, by_ai, client_id, turn)
        self._after_change(live)
        return snap

    async def catch_up(self, live: Live) -> bool:
        """Bring ``live`` up to the database and tell this process's subscribers (the caller
        holds the lock); whether anything was new."""
        entries = await self.db.catch_up(live)
        if entries is None:
            return False
        self.bus.send(live, entries)
        return True

    async def _act(
        self,
        live: Live,
        seat: int,
        text: str,
        ply: int | None,
        by_ai: bool,
        client_id: str | None,
        turn: int | None,
    ) -> Answer:
        """``act`` under the match's lock: check, apply to a clone, commit, broadcast."""
        if client_id is not None and client_id in live.action_ids:
            i = live.action_ids.index(client_id)
            if live.action_seats[i] != seat:
                raise ApiError(
                    409, "id_used", N_("this action id was used by another seat; use a new one")
                )
            if not same_action(live, i, text):
                raise ApiError(
                    409,
                    "id_used",
                    N_(
                        "this action id was used for another action (ply %(ply)s: "
                        "%(action)s); use a new id for a new action"
                    ),
                    params={"ply": i + 1, "action": live.actions[i]},
                )
            snap = self.bus.snapshot(live, seat)
            snap["duplicate"] = {"ply": i, "action": live.actions[i]}
            return snap
        await self.check_flag(live)
        state = self.require_active(live)
        if turn is not None and turn != live.turn:
            raise ApiError(409, "stale", N_("the position changed while the AI was thinking"))
        if ply is not None and ply != live.ply:
            raise ApiError(
                409,
                "stale",
                N_(
                    "stale action: it was meant for ply %(ply)s, but %(played)s actions have "
                    "been played; fetch the match again"
                ),
                {"ply": ply, "played": live.ply},
            )
        if state.current_player != seat:
            raise ApiError(
                409,
                "not_your_turn",
                N_("it is not your turn: seat %(seat)s is to act"),
                {"seat": state.current_player},
            )
        if live.seats[seat].kind == "ai" and not by_ai:
            gone = live.replaced(seat)
            if gone is not None:
                raise ApiError(
                    403,
                    "ai_seat",
                    N_(
                        "the computer plays this seat since you left at ply %(ply)s; "
                        "POST /api/matches/{id}/return to play it again"
                    ),
                    params={"ply": gone["ply"]},
                )
            raise ApiError(403, "ai_seat", N_("this seat is played by the AI"))
        if by_ai and live.seats[seat].kind != "ai":
            # its player came back while it thought: the answer is dropped, never played
            raise ApiError(409, "stale", N_("the player came back to this seat"))
        try:
            live.legal()
            exact = live.legal_by_text.get(text.strip())
            action = exact if exact is not None else live.game.parse_action(state, text)
            # The contract's explanation of a refusal, the rule by name, before any copy.
            why = state.why_illegal(action)
            if why is not None:
                raise IllegalAction(why)
            after = state.clone()
            game_events = after.apply(action)
            if live.perfect_information:  # the last move, as data for every seat
                describe_played(live.game, state, action, game_events)
        except SengokuError as exc:
            raise ApiError(
                422, "illegal_action", str(exc), say=exc.say.wire() if exc.say else None
            ) from None
        except Exception as exc:  # an engine fault: the match stays as it was
            raise engine_fault(live, "the action", exc) from None
        if ply is None and client_id is None:
            raise ApiError(
                422,
                "missing_ply",
                N_(
                    "an action needs 'ply' (the number of actions you have seen) or 'id' (a "
                    "key of your own, unique to this action), so that a retry is never "
                    "applied twice"
                ),
            )
        now = self.now()
        notation = str(action)
        clocks_after = self._clocks_after(live, seat, after, now)
        outcome = after.outcome()
        move = {
            "match_id": live.id,
            "seq": live.seq,
            "kind": "action",
            "seat": seat,
            "action": notation,
            "reason": None,
            "at": now,
            "clocks": dumps(clocks_after.to_json()) if clocks_after else None,
            "client_id": client_id,
        }
        rows = event_rows(live, game_events)
        for r in rows:
            r["ply"] = live.ply + 1
        values: dict[str, Any] = {"updated_at": now}
        if outcome is not None:
            values["status"] = "finished"
            values["result"] = dumps(outcome.to_json())
        with clocks_until_stored(live, clocks_after):
            values["clock"] = clock_json(live)
            await self.store(live, [move], rows, values)
        live.state = after
        live.turn += 1
        live.actions.append(notation)
        live.action_seats.append(seat)
        live.action_ids.append(client_id)
        live.seq += 1
        live.takeback = None
        if outcome is not None:
            live.status = "finished"
            live.result = outcome.to_json()
        states = self.bus.commit(live, rows, [move], values)
        log.debug("match %s: seat %d played ply %d", live.id, seat, live.ply)
        return self.bus.answer(live, seat, states)

    def _clocks_after(self, live: Live, mover: int, after: State, now: float) -> Clocks | None:
        if live.clocks is None or live.clock_spec is None:
            return None
        clocks = Clocks.from_json(live.clock_spec, live.clocks.to_json())
        if after.is_terminal():
            clocks.pause(now)
        else:
            running = running_seat(live.clock_spec, after, live.ply + 1)
            clocks.decided(mover, after.current_player, now, running)
        return clocks

    async def conclude(self, live: Live, seat: int, reason: str, status: str = "finished") -> None:
        """End the match as a loss for ``seat`` (resignation, timeout, abandonment).

        The caller holds the lock.
        """
        state = self.require_active(live)
        after = state.clone()
        try:
            evs = after.concede(seat, reason)
        except SengokuError as exc:
            raise ApiError(409, "cannot_concede", str(exc)) from None
        except Exception as exc:  # an engine fault: the match stays as it was
            raise engine_fault(live, "the concession", exc) from None
        now = self.now()
        outcome = after.outcome()
        result = outcome.to_json() if outcome else None
        clocks = None
        if live.clocks is not None and live.clock_spec is not None:
            clocks = Clocks.from_json(live.clock_spec, live.clocks.to_json())
            clocks.pause(now)
        move = {
            "match_id": live.id,
            "seq": live.seq,
            "kind": "concede",
            "seat": seat,
            "action": None,
            "reason": reason,
            "at": now,
            "clocks": dumps(clocks.to_json()) if clocks else None,
        }
        rows = event_rows(live, evs)
        with clocks_until_stored(live, clocks):
            values = {
                "status": status,
                "result": dumps(result) if result else None,
                "updated_at": now,
                "clock": clock_json(live),
            }
            await self.store(live, [move], rows, values)
        live.state = after
        live.turn += 1
        live.concessions.append({"ply": live.ply, "seat": seat, "reason": reason})
        live.seq += 1
        live.status = status
        live.result = result
        live.takeback = None
        self.bus.commit(live, rows)
        log.info("match %s: seat %d conceded (%s)", live.id, seat, reason)

    async def resign(self, live: Live, seat: int) -> dict[str, Any]:
        async with live.lock:
            await self.check_flag(live)
            self.require_active(live)
            self._not_left(live, seat)
            if self.replaces(live, seat):
                await self.hand_to_ai(live, seat, "resignation")
            else:
                await self.conclude(live, seat, "resignation")
            snap = self.bus.snapshot(live, seat)
        self._after_change(live)
        return snap

    @staticmethod
    def _not_left(live: Live, seat: int) -> None:
        """A player whose seat the computer plays has left already: 409."""
        gone = live.replaced(seat)
        if gone is not None:
            raise ApiError(
                409,
                "seat_left",
                N_(
                    "you left at ply %(ply)s and the computer plays your seat; "
                    "POST /api/matches/{id}/return to play it again"
                ),
                params={"ply": gone["ply"]},
            )

    @staticmethod
    def replaces(live: Live, seat: int) -> bool:
        """Whether the computer takes ``seat`` over when its player leaves: a human seat of
        a match of three or more seats (``replacement_level``) where another human still
        plays. Otherwise the leaving ends the game as a concession."""
        return (
            live.replacement_level is not None
            and 0 <= seat < len(live.seats)
            and live.seats[seat].kind == "human"
            and any(s.kind == "human" and s.seat != seat for s in live.seats)
        )

    async def hand_to_ai(self, live: Live, seat: int, reason: str) -> None:
        """The player of ``seat`` left (``reason``: resignation, timeout, abandoned): the
        computer at the match's ``replacement_level`` plays the seat from this ply on, on
        this process or whichever runs the match's AI (caller holds the lock).

        Its clock is held (it does not run while the computer plays: clocks.py). The game's
        own state is untouched: no concession, so the result stays the game's own; the
        ``seat_left`` event records who left, why and from which ply."""
        self.require_active(live)
        level = live.replacement_level
        assert level is not None, "replaces() is checked first"
        s = live.seats[seat]
        now = self.now()
        clocks = None
        if live.clocks is not None and live.clock_spec is not None:
            clocks = Clocks.from_json(live.clock_spec, live.clocks.to_json())
            clocks.hold(seat, now)
        agent = ai_mod.AI_LEVELS[level]
        evs = [
            event(
                "seat_left",
                None,
                seat=seat,
                reason=reason,
                ply=live.ply,
                level=level,
                message=f"{s.name} {LEFT_WORDS.get(reason, reason)}: the computer (level "
                f"{level}) plays seat {seat} from ply {live.ply}",
            )
        ]
        rows = event_rows(live, evs)
        with clocks_until_stored(live, clocks):
            await self.db.run(
                self.db.store.join,
                live.id,
                seat,
                {"kind": "ai", "agent": agent, "level": level},
                rows,
                {"updated_at": now, "clock": clock_json(live)},
            )
        s.kind, s.agent, s.level = "ai", agent, level
        live.turn += 1
        follow_seats(live, event_entries(rows))
        self.bus.commit(live, rows)
        log.info("match %s: seat %d left (%s); the AI plays it", live.id, seat, reason)

    async def come_back(self, live: Live, seat: int, token_hash: str | None = None) -> None:
        """The player of ``seat`` takes it back from the computer (caller holds the lock and
        has stopped the AI's thought about the seat, if any: it is never played). They
        decide from the position as it is; the computer's moves stay in the record. Their
        clock runs again as it stood when they left (``Clocks.release``). ``token_hash``:
        the seat's new token (a return through the account, without the old one)."""
        self.require_active(live)
        gone = live.replaced(seat)
        if gone is None:
            raise ApiError(
                409,
                "not_replaced",
                N_(
                    "seat %(seat)s is not played by the computer for a player who left; "
                    "there is nothing to return to"
                ),
                params={"seat": seat},
            )
        s = live.seats[seat]
        now = self.now()
        clocks = None
        state = live.state
        if live.clocks is not None and live.clock_spec is not None and state is not None:
            clocks = Clocks.from_json(live.clock_spec, live.clocks.to_json())
            clocks.release(
                seat, now, running_seat(live.clock_spec, state, live.ply), self.settings.return_time
            )
        evs = [
            event(
                "seat_returned",
                None,
                seat=seat,
                ply=live.ply,
                message=f"{s.name} came back to seat {seat} at ply {live.ply}",
            )
        ]
        rows = event_rows(live, evs)
        values: dict[str, Any] = {"kind": "human", "agent": None, "level": None}
        if token_hash is not None:
            values["token_hash"] = token_hash
        with clocks_until_stored(live, clocks):
            await self.db.run(
                self.db.store.join,
                live.id,
                seat,
                values,
                rows,
                {"updated_at": now, "clock": clock_json(live)},
            )
        s.kind, s.agent, s.level = "human", None, None
        if token_hash is not None:
            s.token_hash = token_hash
        s.last_seen = now
        live.turn += 1  # an AI answer still on its way is stale
        follow_seats(live, event_entries(rows))
        self.bus.commit(live, rows)
        log.info("match %s: seat %d came back at ply %d", live.id, seat, live.ply)

    async def check_flag(self, live: Live) -> None:
        """If the running clock has run out, the game ends on time (caller holds the lock).

        With several processes, another one may store that ending (or a last move) at the same
        moment: this one then catches up from the database and looks again, rather than
        failing the request that only looked (a GET of the match answered 409)."""
        for attempt in range(2):
            if live.status != "active" or live.clocks is None:
                return
            flagged = live.clocks.flagged(self.now())
            if flagged is None:
                return
            try:
                if self.replaces(live, flagged):
                    await self.hand_to_ai(live, flagged, "timeout")
                else:
                    await self.conclude(live, flagged, "timeout")
                return
            except StaleMatch:
                if attempt or not await self.catch_up(live):
                    raise

    async def abort(self, live: Live, seat: int) -> dict[str, Any]:
        async with live.lock:
            if not live.can_abort():
                raise ApiError(
                    409,
                    "cannot_abort",
                    N_("a match can be aborted only before every player has made a first move"),
                )
            await self._set_status(
                live,
                "aborted",
                [event("aborted", None, seat=seat, message=f"seat {seat} aborted the match")],
            )
            snap = self.bus.snapshot(live, seat)
        self._after_change(live)
        return snap

    async def _set_status(self, live: Live, status: str, evs: list[dict[str, Any]]) -> None:
        rows = event_rows(live, evs)
        now = self.now()
        if live.clocks is not None:
            live.clocks.pause(now)
        await self.db.run(
            self.db.store.record_change,
            live.id,
            [],
            rows,
            {"status": status, "updated_at": now, "clock": clock_json(live)},
        )
        live.status = status
        self.bus.commit(live, rows)

    async def claim(self, live: Live, seat: int) -> dict[str, Any]:
        async with live.lock:
            await self.check_flag(live)
            state = self.require_active(live)
            self._not_left(live, seat)
            now = self.now()
            # A claim wins only on the opponent's time: the seat to act is the one that left.
            to_act = state.current_player
            if to_act == seat:
                raise ApiError(
                    409,
                    "your_turn",
                    N_("you are to act: a claim wins only while the opponent who left is to act"),
                )
            if not 0 <= to_act < len(live.seats) or live.seats[to_act].kind != "human":
                raise ApiError(
                    409,
                    "not_claimable",
                    N_("a win can be claimed only while an absent human opponent is to act"),
                )
            gone = [s for s in live.seats if s.seat == to_act and s.connections == 0]
            left_at = {s.seat: s.last_seen for s in gone}
            if gone and self.presence is not None:
                # several processes: the opponent may be connected to another one
                shared = await self.presence(live.id, to_act)
                if shared is not None:
                    count, seen = shared
                    if count > 0:
                        gone = []
                    elif seen is not None:
                        left_at[to_act] = max(left_at[to_act], seen)
            ready = [s for s in gone if now - left_at[s.seat] >= self.settings.claim_after]
            if not ready:
                if not gone:
                    raise ApiError(409, "opponent_connected", N_("your opponent is connected"))
                wait = min(self.settings.claim_after - (now - left_at[s.seat]) for s in gone)
                raise ApiError(
                    409,
                    "too_soon",
                    N_(
                        "your opponent left less than %(after)s s ago; "
                        "you can claim the win in %(wait)s s"
                    ),
                    params={"after": f"{self.settings.claim_after:.0f}", "wait": f"{wait:.0f}"},
                )
            if self.replaces(live, ready[0].seat):
                await self.hand_to_ai(live, ready[0].seat, "abandoned")
            else:
                await self.conclude(live, ready[0].seat, "abandoned")
            snap = self.bus.snapshot(live, seat)
        self._after_change(live)
        return snap

    async def end_without_result(self, live: Live, reason: str) -> None:
        """Abort the match (caller holds the lock), saying why to everybody."""
        rows = event_rows(live, [event("aborted", None, reason=reason, message=reason)])
        now = self.now()
        clocks = None
        if live.clocks is not None and live.clock_spec is not None:
            clocks = Clocks.from_json(live.clock_spec, live.clocks.to_json())
            clocks.pause(now)
        with clocks_until_stored(live, clocks):
            await self.db.run(
                self.db.store.record_change,
                live.id,
                [],
                rows,
                {
                    "status": "aborted",
                    "close_reason": reason,
                    "updated_at": now,
                    "clock": clock_json(live),
                },
            )
        live.status = "aborted"
        live.close_reason = reason
        live.turn += 1
        self.bus.commit(live, rows)
        log.info("match %s aborted: %s", live.id, reason)
