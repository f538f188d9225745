"""Draw offers: in a game whose rules know a draw, the players may agree one.

A game whose rulebook ends a game without a winner declares it
(``GameType.provides_draws_by_agreement``, in the game's own ``game.py``); a game whose rules
always name a winner gets no draw offers. The server names no game.

An offer stands until the next move (as in chess: a move answers it), a decline or a
takeback. Every human seat must offer (or accept, which is the same request) for the game
to end as a draw by agreement: result reason ``agreement``, no winner. An offer is a
numbered public event (``draw_offered``, ``draw_declined``), so it survives a restart and
reaches every connection like any other event. The computer never agrees to a draw, so a
match with an AI seat gets none.

A seat whose offer was declined may offer again only ``OFFER_GAP["draw"]`` (20) plies later,
as on lichess (offers.py, :func:`~sengoku.server.offers.check_may_offer`); one whose offer
lapsed with a move may offer again at once. Accepting is never limited.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sengoku.core.game import Outcome, event
from sengoku.server.broadcast import Broadcaster, event_rows
from sengoku.server.clocks import Clocks
from sengoku.server.db import dumps
from sengoku.server.errors import ApiError
from sengoku.server.live import Live, clocks_until_stored
from sengoku.server.offers import check_may_offer
from sengoku.server.persistence import Persistence, clock_json
from sengoku.server.turns import Turns

#: The result's reason of a draw the players agreed.
AGREEMENT = "agreement"
#: Events after which no earlier offer stands.
_ENDS_OFFER = {"draw_declined", "takeback", "draw_agreed"}


def draw_allowed(live: Live) -> bool:
    """Whether this match may end in a draw by agreement."""
    return live.game.game_type.provides_draws_by_agreement and all(
        s.kind == "human" for s in live.seats
    )


def pending(live: Live) -> list[int]:
    """The seats whose draw offer stands now (read from the match's events)."""
    seats: list[int] = []
    for entry in reversed(live.events):
        ev = entry["event"]
        kind = ev.get("type")
        if kind in _ENDS_OFFER or isinstance(ev.get("action"), str):
            break
        if kind == "draw_offered":
            seats.append(int(ev["seat"]))
    return sorted(set(seats))


def draw_info(live: Live) -> dict[str, Any]:
    return {"allowed": draw_allowed(live) and live.status == "active", "offered_by": pending(live)}


class Draws:
    """Offer, accept and decline draws (each under the match's lock)."""

    def __init__(
        self,
        db: Persistence,
        bus: Broadcaster,
        turns: Turns,
        after_change: Callable[[Live], None],
    ) -> None:
        self.db = db
        self.bus = bus
        self.turns = turns
        self._after_change = after_change

    async def answer(self, live: Live, seat: int, accept: bool) -> dict[str, Any]:
        """``seat`` offers a draw or accepts the one offered (``accept``), or declines it."""
        async with live.lock:
            await self.turns.check_flag(live)  # a fallen flag ends the game first
            if live.status != "active":
                raise ApiError(409, "not_active", "a draw can be agreed only during the game")
            if not live.game.game_type.provides_draws_by_agreement:
                raise ApiError(
                    409,
                    "no_draws",
                    f"{live.game.name}'s rules always name a winner: there is no draw to offer",
                )
            if not draw_allowed(live):
                raise ApiError(409, "no_draws", "the computer does not agree to draws")
            offered = pending(live)
            if not accept:
                if not [s for s in offered if s != seat]:
                    raise ApiError(409, "no_offer", "there is no draw offer to decline")
                await self._commit(
                    live,
                    [
                        event(
                            "draw_declined",
                            None,
                            seat=seat,
                            # whose offers it turns down: they wait before offering again
                            offered_by=[s for s in offered if s != seat],
                            message="the draw offer is declined",
                        )
                    ],
                )
            elif seat in offered:
                raise ApiError(409, "already_offered", "you already offered a draw")
            else:
                humans = {s.seat for s in live.seats}
                if humans.issubset({*offered, seat}):
                    await self._agree(live, seat)
                else:
                    check_may_offer(live, "draw", seat)
                    await self._commit(
                        live,
                        [
                            event(
                                "draw_offered",
                                None,
                                seat=seat,
                                message="a draw is offered",
                            )
                        ],
                    )
            snap = self.bus.snapshot(live, seat)
        self._after_change(live)
        return snap

    async def _commit(self, live: Live, evs: list[dict[str, Any]]) -> None:
        rows = event_rows(live, evs)
        await self.db.run(self.db.store.record_change, live.id, [], rows, None)
        self.bus.commit(live, rows)

    async def _agree(self, live: Live, seat: int) -> None:
        now = self.db.now()
        result = Outcome.no_winner(len(live.seats), AGREEMENT).to_json()
        evs = [event("draw_agreed", None, seat=seat, result=result, message="a draw is agreed")]
        rows = event_rows(live, evs)
        clocks = live.clocks
        if live.clocks is not None and live.clock_spec is not None:
            # A copy: a failed write leaves the running clock as it was.
            clocks = Clocks.from_json(live.clock_spec, live.clocks.to_json())
            clocks.pause(now)
        with clocks_until_stored(live, clocks):
            await self.turns.store(
                live,
                [],
                rows,
                {
                    "status": "finished",
                    "result": dumps(result),
                    "updated_at": now,
                    "clock": clock_json(live),
                },
            )
        live.status = "finished"
        live.result = result
        live.takeback = None
        self.bus.commit(live, rows)
