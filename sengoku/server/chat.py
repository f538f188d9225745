"""Chat at the table: one conversation per match, the players' and the spectators' apart.

Two channels per match:

* ``players``: written by the seats (with their token); everybody reads it, spectators too.
* ``spectators``: written by anyone without a seat; spectators read it, and so do the
  players, unless a player mutes the spectators (``mute``): that seat then gets none of it.

What the server guarantees (issue 17): a message is at most :data:`MAX_TEXT` characters of
plain text (control characters dropped, no more than two combining marks in a row: names.py;
clients render it as text, never as markup), each message says who wrote it (``role``:
player or spectator, and the seat), a spectator's name never imitates a seat or a player
(names.py), a
writer gets :data:`BURST` messages at once then one every :data:`EVERY` seconds, a match
keeps at most :data:`MAX_MESSAGES` in each channel, and messages are stored with the match (the
``chat_messages`` table) so a reload or another server process shows the same history. The
server never writes into the chat itself: a message holds only what its writer typed, the
writer's seat (or none) and the name they chose, so it carries no hidden information of
the game. Chat is not a numbered game event: it never enters the record, the move list or
a replay, and a takeback does not touch it.
"""

from __future__ import annotations

import re
import unicodedata
from collections import OrderedDict
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    delete,
    func,
    insert,
    select,
)

from sengoku.server.db import metadata
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_
from sengoku.server.limits import TokenBucket
from sengoku.server.live import Live
from sengoku.server.names import check_marks, check_spectator_name

#: Characters in one message.
MAX_TEXT = 300
#: Messages one match keeps in each channel; past it that channel is full (a match is not a
#: forum). Each channel has its own: spectators, who may be many, never fill the players'.
MAX_MESSAGES = 1000
#: Messages a writer may send at once, then one per EVERY seconds.
BURST = 5
EVERY = 2.0
#: Writers whose budgets are remembered (the least recent are forgotten first).
MAX_WRITERS = 20_000
#: A spectator's name when they give none.
SPECTATOR = "Spectator"
CHANNELS = ("players", "spectators")

#: The messages of every match, numbered per match.
chat_messages = Table(
    "chat_messages",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("channel", String(16), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
)

#: The seats that muted the spectators of a match.
chat_mutes = Table(
    "chat_mutes",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("muted", Boolean, nullable=False),
)

_SPACES = re.compile(r"\s+")


def clean_text(text: str) -> str:
    """``text`` as one line of plain text: control and format characters (bidi overrides,
    zero-width joiners used to hide text) dropped, runs of white space made one space."""
    kept = "".join(
        " " if ch in "\t\r\n" else ch
        for ch in text
        if ch in "\t\r\n" or unicodedata.category(ch) not in {"Cc", "Cf", "Cs", "Co", "Cn"}
    )
    return _SPACES.sub(" ", kept).strip()


def clean_name(name: str | None) -> str:
    out = clean_text(name or "")[:32]
    return out or SPECTATOR


class ChatStore:
    """The chat's queries, each one transaction (run on the service's storage threads)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def load(self, match_id: str) -> tuple[list[dict[str, Any]], set[int]]:
        """The messages of a match in order, and the seats that muted the spectators."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(chat_messages)
                .where(chat_messages.c.match_id == match_id)
                .order_by(chat_messages.c.n)
            ).mappings()
            messages = [dict(r) for r in rows]
            mutes = conn.execute(
                select(chat_mutes.c.seat).where(
                    chat_mutes.c.match_id == match_id, chat_mutes.c.muted.is_(True)
                )
            )
            return messages, {int(r[0]) for r in mutes}

    def append(self, row: dict[str, Any]) -> tuple[int, set[int]]:
        """Store a message as the match's next one: its number, and the seats that muted the
        spectators (whom it is not delivered to). A full chat is refused."""
        with self.engine.begin() as conn:
            last = conn.execute(
                select(func.max(chat_messages.c.n)).where(
                    chat_messages.c.match_id == row["match_id"]
                )
            ).scalar()
            n = int(last or 0) + 1
            held = conn.execute(
                select(func.count()).where(
                    chat_messages.c.match_id == row["match_id"],
                    chat_messages.c.channel == row["channel"],
                )
            ).scalar()
            if int(held or 0) >= MAX_MESSAGES:
                raise ApiError(
                    409,
                    "chat_full",
                    N_("this match's %(channel)s chat holds %(n)s messages"),
                    params={"channel": row["channel"], "n": MAX_MESSAGES},
                )
            conn.execute(insert(chat_messages), [{**row, "n": n}])
            mutes = conn.execute(
                select(chat_mutes.c.seat).where(
                    chat_mutes.c.match_id == row["match_id"], chat_mutes.c.muted.is_(True)
                )
            )
            return n, {int(r[0]) for r in mutes}

    def set_mute(self, match_id: str, seat: int, muted: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                delete(chat_mutes).where(
                    chat_mutes.c.match_id == match_id, chat_mutes.c.seat == seat
                )
            )
            conn.execute(insert(chat_mutes), [{"match_id": match_id, "seat": seat, "muted": muted}])


def wire(row: dict[str, Any]) -> dict[str, Any]:
    """A message as clients get it: ``role`` and ``seat`` are the server's word on who wrote
    it (a player of that seat, or a spectator), whatever name it carries."""
    return {
        "n": row["n"],
        "channel": row["channel"],
        "role": "spectator" if row["seat"] is None else "player",
        "seat": row["seat"],
        "name": row["name"],
        "text": row["text"],
        "at": row["at"],
    }


def visible(row: dict[str, Any], seat: int | None, muted: set[int]) -> bool:
    """Whether ``seat`` (None: a spectator) reads message ``row``."""
    if row["channel"] == "players":
        return True
    return seat is None or seat not in muted


class Chat:
    """The chat of every match. Nothing is kept in memory but the writers' budgets: the
    history and the mutes are read from the database, so every server process agrees."""

    def __init__(self, store: ChatStore) -> None:
        self.store = store
        self._budgets: OrderedDict[str, TokenBucket] = OrderedDict()

    async def history(self, service: Any, live: Live, seat: int | None) -> dict[str, Any]:
        messages, muted = await service.db.run(self.store.load, live.id)
        return {
            "messages": [wire(m) for m in messages if visible(m, seat, muted)],
            "muted": seat is not None and seat in muted,
            "max_text": MAX_TEXT,
        }

    def _spend(self, writer: str) -> None:
        bucket = self._budgets.get(writer)
        if bucket is None:
            bucket = self._budgets[writer] = TokenBucket(1.0 / EVERY, BURST)
            while len(self._budgets) > MAX_WRITERS:
                self._budgets.popitem(last=False)
        else:
            self._budgets.move_to_end(writer)
        if not bucket.take():
            raise ApiError(
                429,
                "chat_rate_limited",
                N_(
                    "you are writing too fast: one message every %(every)s s "
                    "after %(burst)s in a row; wait %(wait)s s"
                ),
                params={
                    "every": f"{EVERY:.0f}",
                    "burst": BURST,
                    "wait": f"{bucket.retry_after():.0f}",
                },
            )

    async def post(
        self,
        service: Any,
        live: Live,
        seat: int | None,
        text: Any,
        name: Any,
        client: str,
    ) -> dict[str, Any]:
        """Store and deliver a message from ``seat`` (None: a spectator at ``client``)."""
        if not isinstance(text, str):
            raise ApiError(422, "bad_message", N_("'text' must be the message, as a string"))
        if name is not None and not isinstance(name, str):
            raise ApiError(422, "bad_message", N_("'name' must be a string"))
        body = clean_text(text)
        if not body:
            raise ApiError(422, "empty_message", N_("the message is empty"))
        if len(body) > MAX_TEXT:
            raise ApiError(
                422,
                "message_too_long",
                N_("a message has at most %(n)s characters"),
                params={"n": MAX_TEXT},
            )
        check_marks("text", body)
        if seat is None:
            channel, who = "spectators", clean_name(name)
            if who != SPECTATOR:
                check_marks("name", who)
                # a spectator writing as "Ann" or "Ann (seat 1)" would pass for a player in
                # a transcript: refused (the message's role and seat say who plays)
                check_spectator_name(who, [s.name for s in live.seats if s.name])
        else:
            channel, who = "players", live.seats[seat].name
        # A player's budget follows the seat (whatever device it writes from); a
        # spectator's follows the address (spectators have no identity).
        self._spend(f"seat:{live.id}:{seat}" if seat is not None else f"client:{client}")
        row = {
            "match_id": live.id,
            "channel": channel,
            "seat": seat,
            "name": who,
            "text": body,
            "at": service.now(),
        }
        async with live.lock:  # one writer at a time per match: numbers stay in order
            row["n"], muted = await service.db.run(self.store.append, row)
        self.deliver(live, row, muted)
        # The other server processes deliver it to their own connections (Redis pub/sub).
        service.cluster.publish_chat(live, row, muted)
        return wire(row)

    @staticmethod
    def deliver(live: Live, row: dict[str, Any], muted: set[int]) -> None:
        """To this process's connections to the match whose seat reads the message."""
        msg = {"type": "chat", "message": wire(row)}
        for sub in list(live.subscribers):
            if visible(row, sub.seat, muted):
                sub.queue.put_nowait(msg)

    async def mute(self, service: Any, live: Live, seat: int, muted: bool) -> dict[str, Any]:
        """``seat`` mutes (or hears again) the spectators of the match."""
        await service.db.run(self.store.set_mute, live.id, seat, muted)
        return await self.history(service, live, seat)
