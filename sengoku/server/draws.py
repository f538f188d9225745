"""Draw offers: the players may agree to end a game without a winner.

A game declares whether its players may agree a draw
(``GameType.provides_draws_by_agreement``, in the game's own ``game.py``), and the server
names no game. Gungi's rulebook ends a game without a winner ("If the same board position is
reached 4 times, the game is drawn", docs/rules/gungi.md); Gunshi, Gunkimono and Sashimono
name a winner when played out, but, as a resignation is, an agreement to stop is the players'
own act beside the rules, so all four games declare it (issue 41: a player facing an endless
game against the computer had no way out but to resign). The tests' toy games do not.

An offer stands until the next move (as in chess: a move answers it), a decline or a
takeback. Every seat must offer (or accept, which is the same request) for the game to end
as a draw by agreement: result reason ``agreement``, no winner. An offer is a numbered
public event (``draw_offered``, ``draw_declined``), so it survives a restart and reaches
every connection like any other event.

**The computer's answer.** When a player's offer stands and AI seats have not answered it,
each AI seat judges the position by its own agent, from its seat's view, in the AI pool
(never on the event loop: :func:`sengoku.server.ai.answer_draw`, with
:func:`sengoku.ai.draws.accepts_draw`), and answers shortly after the offer: it accepts
(event ``draw_offered`` by the AI seat, "the computer accepts the draw") when its expected
result is below 0.45 on the search's scale (a loss 0, a draw 0.5, a win 1), else it declines
(event ``draw_declined`` by the AI seat, "the computer declines the draw"), which holds the
offerer back as a human's decline does. Only the answer is stored and sent, never the value
behind it. With several AI seats (Gunkimono, 3-5 players) one declining AI declines the
offer; when they all accept, the offer still waits for every other human. The answer is
dropped when the offer no longer stands (a move, a decline, a takeback came first); an AI
seat to move plays only after its answer is in. The computer never offers a draw itself.

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
from sengoku.server.i18n import N_
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
    return live.game.game_type.provides_draws_by_agreement


def unanswered_ai(live: Live) -> list[int]:
    """The AI seats that have not answered the offer standing now (none if none stands)."""
    offered = pending(live)
    if not offered:
        return []
    return [s.seat for s in live.seats if s.kind == "ai" and s.seat not in offered]


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
                raise ApiError(409, "not_active", N_("a draw can be agreed only during the game"))
            if not live.game.game_type.provides_draws_by_agreement:
                raise ApiError(
                    409,
                    "no_draws",
                    N_("%(game)s takes no draw offers"),
                    params={"game": live.game.name},
                )
            offered = pending(live)
            if not accept:
                if not [s for s in offered if s != seat]:
                    raise ApiError(409, "no_offer", N_("there is no draw offer to decline"))
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
                raise ApiError(409, "already_offered", N_("you already offered a draw"))
            else:
                everyone = {s.seat for s in live.seats}
                if everyone.issubset({*offered, seat}):
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
        self._after_change(live)  # which asks the AI seats to answer (service.after_change)
        return snap

    async def answer_for_ai(self, live: Live, ply: int, offered: list[int], answers: str) -> None:
        """Store the AI seats' answers (``answers``: a letter a seat of :func:`unanswered_ai`
        when asked, ``a`` accept, ``d`` decline) to the offer by ``offered`` standing at
        ``ply``; nothing if that offer no longer stands."""
        async with live.lock:
            if live.status != "active" or live.ply != ply or not set(offered) <= set(pending(live)):
                return  # a move, a decline, a takeback or the end came first
            seats = unanswered_ai(live)
            if len(seats) != len(answers):
                return  # the seats changed meanwhile (nothing stored, nothing asked again)
            declining = [s for s, a in zip(seats, answers, strict=True) if a != "a"]
            standing = pending(live)
            if declining:
                await self._commit(
                    live,
                    [
                        event(
                            "draw_declined",
                            None,
                            seat=declining[0],
                            offered_by=standing,
                            message="the computer declines the draw",
                        )
                    ],
                )
            elif {s.seat for s in live.seats}.issubset({*standing, *seats}):
                # Everybody else offered: the last AI seat's acceptance agrees the draw.
                for s in seats[:-1]:
                    await self._commit(live, [self._accepted(s)])
                await self._agree(live, seats[-1])
            else:
                await self._commit(live, [self._accepted(s) for s in seats])
        self._after_change(live)

    @staticmethod
    def _accepted(seat: int) -> dict[str, Any]:
        return event("draw_offered", None, seat=seat, message="the computer accepts the draw")

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
