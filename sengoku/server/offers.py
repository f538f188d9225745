"""Take-backs and offers: a takeback asked for and accepted, a rematch offered and accepted.

A takeback never crosses hidden information that was revealed nor a random draw; a rematch
is the same game with a new seed, every holder one seat further round.

Offers reach the opponent as stored events, so they are limited as lichess limits them: one
pending offer of a kind at a time, and a seat whose offer was declined (or, a takeback,
withdrawn) may offer that kind again only :data:`OFFER_GAP` plies later
(:func:`check_may_offer`; draws.py applies it to draw offers). Accepting an offer is never
limited.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from sengoku.core.game import SengokuError, event
from sengoku.server.broadcast import Broadcaster, event_entries, event_rows
from sengoku.server.clocks import Clocks, running_seat
from sengoku.server.db import dumps
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_
from sengoku.server.live import (
    Live,
    Seat,
    clocks_until_stored,
    engine_fault,
    new_seed,
    replay_problem,
    visible,
)
from sengoku.server.persistence import Persistence, clock_json, seat_row
from sengoku.server.seats import created_event
from sengoku.server.tokens import new_match_id
from sengoku.server.turns import Turns

#: Plies the game must go on, after a seat's offer of a kind was declined, before that seat
#: may offer the same kind again: lichess's 20 plies between draw offers; a takeback may be
#: asked for again once the asker has moved twice more in a two-player game (another move to
#: take back, not the same one over and over).
OFFER_GAP = {"takeback": 4, "draw": 20}


def declined_at(live: Live, kind: str, seat: int) -> int | None:
    """The ply at which ``seat``'s last declined (or withdrawn) offer of ``kind`` was turned
    down, or None; read from the match's stored events, so every process and a restart agree."""
    for entry in reversed(live.events):
        ev = entry["event"]
        if ev.get("type") == f"{kind}_declined" and seat in ev.get("offered_by", ()):
            return int(entry["ply"])
    return None


def check_may_offer(live: Live, kind: str, seat: int) -> None:
    """Refuse (409 ``offer_too_soon``, nothing stored) a new offer of ``kind`` by ``seat``
    made too soon after its last one was declined."""
    at = declined_at(live, kind, seat)
    if at is None:
        return
    again = at + OFFER_GAP[kind]
    if live.ply < again:
        # one whole sentence per offer, so that each is translated whole
        message = (
            N_(
                "your offer of a takeback was declined at ply %(at)s: you may offer a takeback "
                "again from ply %(again)s (%(gap)s plies later); the game is at ply %(ply)s"
            )
            if kind == "takeback"
            else N_(
                "your offer of a draw was declined at ply %(at)s: you may offer a draw "
                "again from ply %(again)s (%(gap)s plies later); the game is at ply %(ply)s"
            )
        )
        raise ApiError(
            409,
            "offer_too_soon",
            message,
            params={"at": at, "again": again, "gap": OFFER_GAP[kind], "ply": live.ply},
        )


class Offers:
    """Takebacks and rematches, each offered by one seat and accepted by the others."""

    def __init__(
        self,
        db: Persistence,
        bus: Broadcaster,
        turns: Turns,
        cancel_ai: Callable[[Live], None],
        after_change: Callable[[Live], None],
    ) -> None:
        self.db = db
        self.bus = bus
        self.turns = turns
        self._cancel_ai = cancel_ai
        self._after_change = after_change

    def now(self) -> float:
        return self.db.now()

    async def takeback(self, live: Live, seat: int, accept: bool) -> dict[str, Any]:
        """Propose a takeback of ``seat``'s last decision, or accept the one proposed."""
        async with live.lock:
            await self.turns.check_flag(live)
            self.turns.require_active(live)
            offer = live.takeback
            if offer is None:
                if not accept:
                    raise ApiError(409, "no_offer", N_("there is no takeback offer to decline"))
                mine = [i for i, s in enumerate(live.action_seats) if s == seat]
                if not mine:
                    raise ApiError(409, "nothing_to_take_back", N_("you have not made a move yet"))
                to_ply = mine[-1]
                if any(c["ply"] > to_ply for c in live.concessions):
                    raise ApiError(409, "cannot_take_back", N_("a concession cannot be taken back"))
                others = {s.seat for s in live.seats if s.kind == "human" and s.seat != seat}
                if others:  # against the AI a takeback is granted at once: nobody is asked
                    check_may_offer(live, "takeback", seat)
                try:
                    problem = await asyncio.to_thread(
                        self._takeback_problem, live, to_ply, not others
                    )
                except Exception as exc:  # an engine fault: the match stays as it was
                    raise engine_fault(live, "the takeback check", exc) from None
                if problem:
                    raise ApiError(409, "cannot_take_back", problem)
                live.takeback = {"by": seat, "to_ply": to_ply, "accepted": {seat}}
                if not others:
                    await self._do_takeback(live)
                else:
                    rows = event_rows(
                        live,
                        [
                            event(
                                "takeback_offered",
                                None,
                                seat=seat,
                                to_ply=to_ply,
                                message=f"seat {seat} asks to take back a move",
                            )
                        ],
                    )
                    await self.db.run(self.db.store.record_change, live.id, [], rows, None)
                    self.bus.commit(live, rows)
            else:
                if not accept:
                    live.takeback = None
                    rows = event_rows(
                        live,
                        [
                            event(
                                "takeback_declined",
                                None,
                                seat=seat,
                                # whose offer it turns down (its own: withdrawn): that seat
                                # waits OFFER_GAP plies before it asks again
                                offered_by=[offer["by"]],
                                message="takeback declined",
                            )
                        ],
                    )
                    await self.db.run(self.db.store.record_change, live.id, [], rows, None)
                    self.bus.commit(live, rows)
                else:
                    if seat in offer["accepted"]:
                        raise ApiError(
                            409, "already_offered", N_("you already asked for a takeback")
                        )
                    offer["accepted"].add(seat)
                    humans = {s.seat for s in live.seats if s.kind == "human"}
                    if humans.issubset(offer["accepted"]):
                        await self._do_takeback(live)
            snap = self.bus.snapshot(live, seat)
        self._after_change(live)
        return snap

    def _takeback_problem(self, live: Live, to_ply: int, against_ai: bool) -> str | None:
        """Why the actions from ``to_ply`` on cannot be taken back, or None.

        Never across hidden information that was revealed, nor across a random draw: replay
        the moves to be taken back from determinizations of the position before them (hidden
        parts and future draws resampled); if any seat that must not learn anything would
        have seen a different view or different events, something hidden or random was
        revealed. Against the AI only the requester matters; between humans, everybody.
        """
        record = live.record()
        record.result = None
        record.concessions = []
        try:
            before = record.replay(upto=to_ply)
        except SengokuError as exc:
            return replay_problem(exc)
        requester = live.action_seats[to_ply]
        watchers = [requester] if against_ai else list(range(before.num_players))
        span = live.actions[to_ply:]
        for watcher in watchers:
            real = [before.view(watcher)]
            real_events: list[Any] = []
            st = before.clone()
            for text in span:
                evs = st.apply(live.game.parse_action(st, text))
                real_events.append([e for e in evs if visible(e.get("audience"), watcher)])
                real.append(st.view(watcher))
            for sample in range(3):
                alt = before.determinize(watcher, random.Random(sample + 1))
                try:
                    for i, text in enumerate(span):
                        evs = alt.apply(live.game.parse_action(alt, text))
                        seen = [e for e in evs if visible(e.get("audience"), watcher)]
                        if seen != real_events[i] or alt.view(watcher) != real[i + 1]:
                            return (
                                "a takeback cannot cross hidden information that was revealed, "
                                "nor a random draw"
                            )
                except Exception:  # refused, or a world the engine cannot play on
                    return "a takeback cannot cross hidden information that was revealed"
        return None

    async def _do_takeback(self, live: Live) -> None:
        offer = live.takeback
        assert offer is not None
        to_ply = offer["to_ply"]
        record = live.record()
        record.result = None
        record.actions = live.actions[:to_ply]
        record.concessions = [c for c in live.concessions if c["ply"] <= to_ply]
        try:
            state = await asyncio.to_thread(record.replay)
        except Exception as exc:  # an engine fault: the match stays as it was
            live.takeback = None
            raise engine_fault(live, "the takeback", exc) from None
        now = self.now()
        undone = live.ply - to_ply
        evs = [
            event(
                "takeback",
                None,
                seat=offer["by"],
                to_ply=to_ply,
                message=f"{undone} move(s) taken back",
            )
        ]
        clocks = live.clocks
        if live.clocks is not None and live.clock_spec is not None:
            clocks = Clocks.from_json(live.clock_spec, live.clocks.to_json())
            clocks.start(running_seat(live.clock_spec, state, to_ply), now)
        # A concession ends the game, so an active match's moves are all actions: the
        # move with sequence number k is action k.
        rows = event_rows(live, evs)
        for r in rows:
            r["ply"] = to_ply
        drop_from = to_ply
        with clocks_until_stored(live, clocks):
            await self.db.run(
                self.db.store.record_change,
                live.id,
                [],
                rows,
                {"updated_at": now, "clock": clock_json(live)},
                drop_from,
            )
        live.actions = live.actions[:to_ply]
        live.action_seats = live.action_seats[:to_ply]
        live.action_ids = live.action_ids[:to_ply]
        live.seq = drop_from
        live.state = state
        live.turn += 1
        live.takeback = None
        self._cancel_ai(live)  # its thought was for a position that no longer exists
        self.bus.commit(live, rows)

    async def rematch(self, live: Live, seat: int) -> dict[str, Any]:
        async with live.lock:
            if live.status not in {"finished"}:
                raise ApiError(
                    409, "not_finished", N_("a rematch can be offered once the game ends")
                )
            if live.rematch_id is not None:
                raise ApiError(
                    409,
                    "rematch_exists",
                    N_("the rematch already exists: %(match)s"),
                    params={"match": live.rematch_id},
                )
            if seat in live.rematch_offers:
                raise ApiError(409, "already_offered", N_("you already offered a rematch"))
            humans = {s.seat for s in live.seats if s.kind == "human"}
            # The offer counts once it is stored: a failed write leaves nothing behind.
            if not humans.issubset(live.rematch_offers | {seat}):
                rows = event_rows(
                    live,
                    [event("rematch_offered", None, seat=seat, message="a rematch is offered")],
                )
                await self.db.run(self.db.store.record_change, live.id, [], rows, None)
                live.rematch_offers.add(seat)
                self.bus.commit(live, rows)
                snap = self.bus.snapshot(live, seat)
            else:
                new = await self._create_rematch(live)
                snap = self.bus.snapshot(live, seat)
                snap["rematch_seat"] = (seat + 1) % len(live.seats)
                self._after_change(new)
        self._after_change(live)
        return snap

    async def _create_rematch(self, live: Live) -> Live:
        """The same game and options, a new seed, every holder one seat further round.

        Each player keeps their token: the holder of seat i holds seat i+1 in the rematch.
        """
        n = len(live.seats)
        seed = new_seed()
        state = live.game.new_state(seed, **live.options)
        now = self.now()
        new_id = new_match_id()
        seats = []
        for old in live.seats:
            # A seat the computer took from a player who left stays the computer's: that
            # player asked for no rematch, and their token holds no seat of it.
            gone = live.replaced(old.seat) is not None
            seats.append(
                Seat(
                    (old.seat + 1) % n,
                    old.kind,
                    old.name,
                    token_hash=None if gone else old.token_hash,
                    agent=old.agent,
                    level=old.level,
                    last_seen=now,
                )
            )
        seats.sort(key=lambda s: s.seat)
        new = Live(
            id=new_id,
            game=live.game,
            options=dict(live.options),
            seed=seed,
            version=live.game.version,
            status="waiting",
            seats=seats,
            created_at=now,
            state=state,
            clock_spec=live.clock_spec,
            clocks=Clocks(live.clock_spec, n) if live.clock_spec else None,
            rematch_of=live.id,
            replacement_level=live.replacement_level,
        )
        evs = [created_event(f"rematch of {live.id}", live.replacement_level)]
        evs.extend(self.turns.activate(new, now))
        rows = event_rows(new, evs)
        match_row = {
            "id": new_id,
            "game": live.game.name,
            "version": live.game.version,
            "options": dumps(new.options),
            "seed": str(seed),
            "clock": clock_json(new),
            "status": new.status,
            "result": None,
            "close_reason": None,
            "created_at": now,
            "updated_at": now,
            "rematch_of": live.id,
            "rematch_id": None,
            "node": self.db.node,  # this process runs its clock and AI (cluster.py)
        }
        new.node = self.db.node
        old_rows = event_rows(
            live,
            [event("rematch", None, match=new_id, message="the rematch begins")],
        )

        await self.db.run(
            self.db.store.create_rematch,
            match_row,
            [seat_row(new_id, s) for s in seats],
            rows,
            live.id,
            old_rows,
            {"rematch_id": new_id, "updated_at": now},
        )
        new.events.extend(event_entries(rows))
        self.db.keep(new)
        live.rematch_id = new_id
        # Made: no offer is left open (as a reload from the database also shows it).
        live.rematch_offers = set()
        self.bus.commit(live, old_rows)
        return new
