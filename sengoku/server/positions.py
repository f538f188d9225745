"""Earlier positions of a match, for looking back during a game (``GET .../position``).

A seat looking back asks for the position after ``ply`` actions, as it saw it then. Replaying
the whole match for every request would cost up to a whole game of actions each (a Gunshi
game runs 400-900 plies), and a player stepping back through it that many times over: a
match keeps a copy of its replayed state every :data:`EVERY` actions, keyed by the actions
that led there (a takeback changes them), so one request plays at most ``EVERY`` actions
from the nearest copy.
"""

from __future__ import annotations

from typing import Any

from sengoku.core.game import State
from sengoku.server.live import Live

#: Actions between two kept copies of a match's replayed state.
EVERY = 32
#: Copies kept per match at most (the oldest go first): a bound on memory.
MAX_KEPT = 64


def _key(live: Live, ply: int) -> int:
    """What identifies the first ``ply`` actions (the same ply after a takeback differs)."""
    return hash(tuple(live.actions[:ply]))


def _concessions(live: Live) -> dict[int, list[dict[str, Any]]]:
    """The match's concessions by the ply the record puts them at."""
    at: dict[int, list[dict[str, Any]]] = {}
    for c in live.concessions:
        at.setdefault(int(c["ply"]), []).append(c)
    return at


def _concede(conceded: dict[int, list[dict[str, Any]]], state: State, ply: int) -> None:
    """The concessions the match records at ``ply`` (played where the record puts them)."""
    for c in conceded.get(ply, ()):
        if not state.is_terminal():
            state.concede(int(c["seat"]), str(c.get("reason", "resignation")))


def shown_action(live: Live, ply: int, seat: int | None) -> str | None:
    """The notation of the ``ply``-th action as ``seat`` may read it: every action in a game
    of perfect information, else only the seat's own (another seat's move may hold what it
    hid: a Gunshi Shogun, a card sent face down, a hand's order); its events say the rest."""
    if ply == 0:
        return None
    if live.perfect_information:
        return live.actions[ply - 1]
    mover = live.action_seats[ply - 1] if ply - 1 < len(live.action_seats) else None
    return live.actions[ply - 1] if seat is not None and mover == seat else None


def _replay(live: Live, ply: int, describe_last: bool) -> tuple[State, dict[str, Any] | None]:
    """The state after ``ply`` actions (and the concessions at ``ply``), from the nearest
    kept copy, and, given ``describe_last``, the last action as data."""
    conceded = _concessions(live)
    kept: dict[int, tuple[int, State]] = live.kept_positions
    start, state = 0, None
    for at in sorted(kept, reverse=True):
        key, copy = kept[at]
        if at <= ply and key == _key(live, at):
            start, state = at, copy.clone()
            break
    if state is None:
        state = live.record().start_state()
    described: dict[str, Any] | None = None
    for p in range(start, ply):
        _concede(conceded, state, p)
        action = live.game.parse_action(state, live.actions[p])
        if p == ply - 1 and describe_last:
            described = live.game.describe_action(state, action).to_json()
        state.apply(action)
        if (p + 1) % EVERY == 0 and p + 1 not in kept:
            if len(kept) >= MAX_KEPT:
                del kept[min(kept)]
            kept[p + 1] = (_key(live, p + 1), state.clone())
    _concede(conceded, state, ply)
    return state, described


def state_after(live: Live, ply: int) -> State:
    """The match's state after its first ``ply`` actions (0 <= ply <= live.ply)."""
    return _replay(live, ply, False)[0]


def position(live: Live, ply: int, seat: int | None) -> dict[str, Any]:
    """The position after ``ply`` actions (0 <= ply <= live.ply) as ``seat`` sees it, with
    the action that led there (:func:`shown_action`), as notation and, in games of perfect
    information, as data."""
    state, described = _replay(live, ply, live.perfect_information)
    return {
        "ply": ply,
        "of": live.ply,
        "action": shown_action(live, ply, seat),
        "described": described,
        "view": state.view(seat),
    }
