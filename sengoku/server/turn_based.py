"""Turn-based play for signed-in players: the games of an account whose move it is, and the
account's optional e-mail address (docs/server.md "Turn-based play").

Who is to act is known from each match's live state (the engines' ``current_player``), not
from the database: the account's seats in active matches are read in one query (the
``account_seats`` rows joined with ``matches`` by status), then each match is looked at in
memory, where an active match stays while it is played (loaded once if this process does
not hold it yet). A player's list thus costs one indexed query and one look per game in
play, and is never behind a move this process knows of.
"""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, and_, select, update

from sengoku.server.db import account_seats, accounts, matches
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_

if TYPE_CHECKING:
    from sengoku.server.accounts import Account
    from sengoku.server.live import Live
    from sengoku.server.service import MatchService

#: The most games in play one account's list looks at (the oldest first are left out).
MAX_ACTIVE = 300
#: An address as mail servers take it: one ``@``, no spaces, quotes, brackets or commas
#: (the message's headers are built by the standard library's ``email``, which refuses line
#: breaks too), at most 254 characters (RFC 5321's limit on a path).
EMAIL_RE = re.compile(
    r"^[^@\s\"'<>(),;:\[\]\\]{1,64}@[^@\s\"'<>(),;:\[\]\\]+\.[^@\s\"'<>(),;:\[\]\\]+$"
)
MAX_EMAIL = 254


def check_email(text: str | None) -> str | None:
    """The address to store (None: remove it), or 422 ``bad_email``."""
    if text is None or not text.strip():
        return None
    address = text.strip()
    if len(address) > MAX_EMAIL or not EMAIL_RE.match(address):
        raise ApiError(
            422,
            "bad_email",
            N_(
                "'email': an address like name@example.org (at most 254 characters), or null "
                "to remove it"
            ),
        )
    return address


class TurnBasedStore:
    """The queries (synchronous: run on a thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def active_seats(self, account_id: str) -> list[tuple[str, int]]:
        """The account's seats in matches in play (``ix_account_seats_account``)."""
        with self.engine.begin() as conn:
            rows = conn.execute(
                select(account_seats.c.match_id, account_seats.c.seat)
                .join(matches, matches.c.id == account_seats.c.match_id)
                .where(and_(account_seats.c.account_id == account_id, matches.c.status == "active"))
                .order_by(account_seats.c.at.desc(), account_seats.c.match_id, account_seats.c.seat)
                .limit(MAX_ACTIVE)
            )
            return [(r.match_id, int(r.seat)) for r in rows]

    def email(self, account_id: str) -> str | None:
        with self.engine.begin() as conn:
            value = conn.scalar(select(accounts.c.email).where(accounts.c.id == account_id))
        return None if value is None else str(value)

    def set_email(self, account_id: str, email: str | None) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(email=email))

    def recipient(self, match_id: str, seat: int) -> tuple[str, str] | None:
        """The name and address of the account that owns the seat, if it gave one."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(accounts.c.name, accounts.c.email)
                .join(account_seats, account_seats.c.account_id == accounts.c.id)
                .where(
                    and_(
                        account_seats.c.match_id == match_id,
                        account_seats.c.seat == seat,
                        accounts.c.deleted.is_(False),
                        accounts.c.email.is_not(None),
                    )
                )
            ).first()
        return None if row is None else (str(row.name), str(row.email))


def time_left(live: Live, seat: int, now: float) -> tuple[float | None, float | None]:
    """The seconds ``seat`` has left and when they run out (None: its clock does not run)."""
    clocks = live.clocks
    if clocks is None or clocks.running != seat:
        return None, None
    deadline = clocks.deadline()
    if deadline is None:
        return None, None
    return max(0.0, deadline - now), deadline


def entry(live: Live, seats: list[int], now: float) -> dict[str, Any] | None:
    """One game in play of the account (public facts only: no state, no hidden card)."""
    if live.status != "active" or live.state is None:
        return None
    to_act = live.to_act
    mine = [s for s in seats if live.seats[s].kind == "human"]
    if not mine:
        return None
    seat = to_act if to_act in mine else mine[0]
    left, deadline = time_left(live, to_act, now) if to_act in mine else (None, None)
    return {
        "match_id": live.id,
        "game": live.game.name,
        "title": live.game.game_type.title or live.game.name,
        "seat": seat,
        "seats": mine,
        "to_act": to_act,
        "your_turn": to_act in mine,
        "ply": live.ply,
        "players": [s.name for s in live.seats],
        "opponents": [s.name for s in live.seats if s.seat not in mine],
        "clock": None if live.clock_spec is None else live.clock_spec.to_json(),
        "time_left": None if left is None else round(left, 1),
        "deadline": deadline,
    }


async def account_games(
    service: MatchService, store: TurnBasedStore, account: Account, mine_only: bool
) -> list[dict[str, Any]]:
    """The account's games in play (``mine_only``: those where it is to act), those whose
    move it is first, the least time left first."""
    pairs = await asyncio.to_thread(store.active_seats, account.id)
    seats_of: dict[str, list[int]] = {}
    for match_id, seat in pairs:
        seats_of.setdefault(match_id, []).append(seat)
    now = service.now()
    out = []
    for match_id, seats in seats_of.items():
        try:
            live = await service.get(match_id)
        except ApiError:  # a match that cannot be rebuilt now is left out, not the list
            continue
        if live is None:
            continue
        item = entry(live, sorted(seats), now)
        if item is None or (mine_only and not item["your_turn"]):
            continue
        out.append(item)
    far = float("inf")
    out.sort(
        key=lambda e: (
            not e["your_turn"],
            far if e["deadline"] is None else e["deadline"],
            e["match_id"],
        )
    )
    return out
