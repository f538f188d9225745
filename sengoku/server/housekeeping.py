"""Housekeeping: waiting matches expire, and errors stay short.

A match that waits for players longer than ``Settings.waiting_ttl`` seconds is aborted with
the reason ``expired`` (an ``expired`` event tells whoever watches), so abandoned invitations
do not pile up in memory and in the lobby.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from sengoku.core.game import SengokuError, event
from sengoku.core.registry import load_game
from sengoku.server.broadcast import event_rows
from sengoku.server.persistence import StaleMatch

if TYPE_CHECKING:
    from sengoku.server.service import MatchService

log = logging.getLogger("sengoku.server")

#: The longest error message sent to a client (an error may quote what the client sent).
MAX_MESSAGE = 600


def clip(message: str) -> str:
    """``message``, cut to :data:`MAX_MESSAGE` characters."""
    if len(message) <= MAX_MESSAGE:
        return message
    return message[: MAX_MESSAGE - 15] + " ... (cut here)"


async def expire_waiting(service: MatchService) -> list[str]:
    """Abort every match that has waited longer than the settings allow; their ids."""
    ttl = float(service.settings.waiting_ttl)
    now = service.now()
    expired = []
    for live in list(service.live.values()):
        if live.status != "waiting" or now - live.created_at < ttl:
            continue
        async with live.lock:
            if live.status != "waiting":
                continue
            reason = f"expired: nobody took the open seats within {ttl:.0f} s"
            rows = event_rows(
                live, [event("expired", None, message="the match expired: nobody joined")]
            )
            try:
                await service.db.run(
                    service.store.record_change,
                    live.id,
                    [],
                    rows,
                    {"status": "aborted", "close_reason": reason, "updated_at": now},
                )
            except StaleMatch:
                continue  # another process changed it first (it catches up meanwhile)
            live.status = "aborted"
            live.close_reason = reason
            service.bus.commit(live, rows)
        service.after_change(live)
        expired.append(live.id)
    if expired:
        log.info("%d waiting match(es) expired", len(expired))
    return expired


async def expire_loop(service: MatchService) -> None:
    """Run :func:`expire_waiting` now and then, for as long as the server runs."""
    period = max(1.0, min(60.0, float(service.settings.waiting_ttl) / 10))
    while True:
        try:
            await expire_waiting(service)
        except asyncio.CancelledError:
            raise
        except Exception:  # never let housekeeping end; the next round tries again
            log.exception("expiring waiting matches failed")
        await asyncio.sleep(period)


async def flag_loop(service: MatchService) -> None:
    """Every ``Settings.flag_sweep`` seconds, end on time the matches whose running clock has
    run out (:meth:`MatchService.sweep_due`), for as long as the server runs: a safety net
    beside each match's timer, whose delay is counted on the process's monotonic clock."""
    period = max(0.05, float(service.settings.flag_sweep))
    while True:
        await asyncio.sleep(period)
        try:
            await service.sweep_due()
        except asyncio.CancelledError:
            raise
        except Exception:  # never let housekeeping end; the next round tries again
            log.exception("looking at the running clocks failed")


async def seed_in_play(service: MatchService, game: str, seed: int) -> bool:
    """Whether a match of ``game`` that is waiting or in play, on this server process or
    another on the same database, has this seed (its secret).

    Both are compared as the engines use them: the game by its registered name (``load_game``
    reads " Gunshi" as "gunshi"), and the seed by its size, since ``random.Random(-s)``
    deals as ``random.Random(s)`` does."""
    try:
        name = load_game(game).name
    except SengokuError:
        return False  # no such game: the replay itself refuses the record
    return bool(await service.run_list(service.store.seed_in_play, name, seed))
