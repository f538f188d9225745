"""Broadcast: numbered events with an audience, what a seat sees, and the subscribers.

Every event of a match has a number (1, 2, ...) and an audience (None: everybody, else the
seats that may see it). A subscriber (one WebSocket connection) gets each committed event its
seat may see, then the match as its seat sees it; a reconnecting client resumes after the
last number it saw.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sengoku.server.db import dumps
from sengoku.server.live import Live, Subscriber, visible
from sengoku.server.wire import JsonText, encode

#: Messages waiting for one WebSocket connection before it is closed as too slow.
MAX_QUEUED = 2000


def event_rows(live: Live, evs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Database rows for ``evs``, numbered after the match's last event."""
    rows = []
    n = len(live.events)
    for ev in evs:
        n += 1
        payload = {k: v for k, v in ev.items() if k != "audience"}
        rows.append(
            {
                "match_id": live.id,
                "n": n,
                "ply": live.ply,
                "audience": None if ev.get("audience") is None else dumps(ev["audience"]),
                "payload": dumps(payload),
            }
        )
    return rows


def event_entries(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The in-memory entries of stored event rows."""
    return [
        {
            "n": r["n"],
            "ply": r["ply"],
            "audience": None if r["audience"] is None else json.loads(r["audience"]),
            "event": json.loads(r["payload"]),
        }
        for r in rows
    ]


def wire_event(e: dict[str, Any]) -> dict[str, Any]:
    """The message that carries event entry ``e`` to a client: with ``ply``, the actions
    played once it happened (a move list's entry shows the position after it)."""
    return {
        "type": "event",
        "n": e["n"],
        "ply": e["ply"],
        "event": {**e["event"], "audience": e["audience"]},
    }


def _snapshot_parts(
    live: Live, seat: int | None, now: float
) -> tuple[dict[str, Any], bool, dict[str, Any]]:
    """What ``seat`` sees, in the order it is sent: the fields before ``legal``, whether
    ``legal`` holds the legal actions (only for the seat to act), and the fields after it."""
    state = live.state
    to_act = live.to_act
    takeback = None
    if live.takeback is not None:
        takeback = {"by": live.takeback["by"], "to_ply": live.takeback["to_ply"]}
    head = {
        "id": live.id,
        "game": live.game.name,
        "version": live.version,
        "options": live.options,
        "status": live.status,
        "seats": [s.public() for s in live.seats],
        "you": seat,
        "ply": live.ply,
        "last_event": len(live.events),
        "to_act": to_act,
        "view": state.view(seat) if state is not None else None,
    }
    tail = {
        "clocks": live.clocks.snapshot(now) if live.clocks else None,
        "result": live.result,
        "rated": live.rated,
        "ratings": live.ratings(),
        "close_reason": live.close_reason,
        "rematch_of": live.rematch_of,
        "rematch_id": live.rematch_id,
        "offers": {"takeback": takeback, "rematch": sorted(live.rematch_offers)},
        "can_abort": live.can_abort(),
        "ai_thought": live.ai_thought,
        "replacement_level": live.replacement_level,
        "left": live.left,
    }
    return head, state is not None and seat is not None and to_act == seat, tail


def snapshot(live: Live, seat: int | None, now: float, short: bool = True) -> dict[str, Any]:
    """What ``seat`` sees of the match; ``short`` adds each legal action's short form."""
    head, acts, tail = _snapshot_parts(live, seat, now)
    return {**head, "legal": live.legal_json(short) if acts else [], **tail}


def snapshot_text(live: Live, seat: int | None, now: float, short: bool = True) -> str:
    """``snapshot(...)`` as JSON text, with the legal actions' text made once per position
    (``Live.legal_text``) and put in place rather than encoded again for every message (a
    Gunkimono placement list is hundreds of described actions)."""
    head, acts, tail = _snapshot_parts(live, seat, now)
    legal = live.legal_text(short) if acts else "[]"
    return encode(head)[:-1] + ',"legal":' + legal + "," + encode(tail)[1:]


#: How every ``state`` message starts: ``{"type": "state", **snapshot}``.
STATE_PREFIX = '{"type":"state",'


def state_text(live: Live, seat: int | None, now: float, short: bool = True) -> str:
    """The ``state`` message for ``seat`` as JSON text: ``{"type": "state", **snapshot}``."""
    return STATE_PREFIX + snapshot_text(live, seat, now, short)[1:]


#: What a change answers its client: the match as the seat sees it, as data, or as the JSON
#: text of the state message already made for it (``Broadcaster.answer``).
Answer = dict[str, Any] | JsonText
#: The state messages one broadcast made, by (seat, short form or not).
States = dict[tuple[int | None, bool], str]


#: Tells the other server processes of a committed change: (the match, its event rows, and
#: for an action the move rows and the match's stored columns, so they need not read them).
Publish = Callable[
    [Live, list[dict[str, Any]], list[dict[str, Any]] | None, dict[str, Any] | None], None
]


class Broadcaster:
    """Subscribers of each match, and the delivery of its committed events to them (and,
    through ``publish``, to the other server processes' subscribers)."""

    def __init__(self, now: Callable[[], float], forget_if_done: Callable[[Live], None]) -> None:
        self._now = now
        self._forget_if_done = forget_if_done
        self.publish: Publish = lambda _live, _rows, _moves, _values: None

    def snapshot(self, live: Live, seat: int | None, short: bool = True) -> dict[str, Any]:
        return snapshot(live, seat, self._now(), short)

    def state_text(self, live: Live, seat: int | None, short: bool = True) -> str:
        return state_text(live, seat, self._now(), short)

    def events_for(self, live: Live, seat: int | None, after: int) -> list[dict[str, Any]]:
        """The numbered events after ``after`` that ``seat`` may see."""
        start = max(0, after)
        return [
            wire_event(e)
            for e in live.events[start:]
            if e["n"] > after and visible(e["audience"], seat)
        ]

    def commit(
        self,
        live: Live,
        rows: list[dict[str, Any]],
        moves: list[dict[str, Any]] | None = None,
        values: dict[str, Any] | None = None,
    ) -> States:
        """Stored event rows become the match's events, and go out to its subscribers here
        and in the other processes (``moves`` and ``values``: what was stored with them);
        the state messages made for this process's subscribers (``send``)."""
        entries = event_entries(rows)
        live.events.extend(entries)
        states = self.send(live, entries)
        self.publish(live, rows, moves, values)
        return states

    def answer(self, live: Live, seat: int, states: States) -> JsonText:
        """The match as ``seat`` sees it, with short forms (``snapshot(live, seat)``), as the
        answer to the change that the broadcast ``states`` came from: the seat's own state
        message when one was made (call it before anything else changes), so an action's
        answer costs no second view, legal list or encoding."""
        made = states.get((seat, True))
        if made is not None:
            return JsonText("{" + made[len(STATE_PREFIX) :])
        return JsonText(snapshot_text(live, seat, self._now(), True))

    def send(self, live: Live, entries: list[dict[str, Any]]) -> States:
        """Each subscriber gets the entries its seat may see, then the match as it sees it:
        each message encoded once for all the connections it goes to (the state messages
        are returned, by seat and short form)."""
        texts: list[str] | None = None
        states: States = {}
        for sub in list(live.subscribers):
            if sub.queue.qsize() > MAX_QUEUED:
                # A connection that reads nothing is dropped rather than let its backlog
                # grow without end; the client resumes from its last event number.
                live.subscribers.discard(sub)
                sub.queue.put_nowait(None)
                continue
            if entries:
                if texts is None:
                    texts = [encode(wire_event(e)) for e in entries]
                for e, text in zip(entries, texts, strict=True):
                    if visible(e["audience"], sub.seat):
                        sub.queue.put_nowait(text)
            key = (sub.seat, sub.short)
            state = states.get(key)
            if state is None:
                state = states[key] = self.state_text(live, sub.seat, sub.short)
            sub.queue.put_nowait(state)
        return states

    def subscribe(
        self, live: Live, seat: int | None, after: int, short: bool = False
    ) -> Subscriber:
        """Register a connection and queue what it missed (the caller holds the lock)."""
        sub = Subscriber(seat, short)
        live.watched_at = self._now()
        if seat is not None:
            live.seats[seat].connections += 1
            live.seats[seat].last_seen = self._now()
        for msg in self.events_for(live, seat, after):
            sub.queue.put_nowait(encode(msg))
        sub.queue.put_nowait(self.state_text(live, seat, short))
        live.subscribers.add(sub)
        return sub

    def unsubscribe(self, live: Live, sub: Subscriber) -> None:
        live.subscribers.discard(sub)
        live.watched_at = self._now()
        if sub.seat is not None:
            s = live.seats[sub.seat]
            s.connections = max(0, s.connections - 1)
            s.last_seen = self._now()
        self._forget_if_done(live)
