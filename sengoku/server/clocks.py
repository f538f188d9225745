"""Game clocks, enforced by the server.

Kinds (``spec["type"]``):

* ``fischer``: ``initial`` seconds plus ``increment`` seconds each time the turn passes to
  another seat (a turn of several decisions by one seat earns one increment, not one per
  decision, so chained decisions are not a way to gain time);
* ``byoyomi``: ``main`` seconds, then ``periods`` periods of ``period`` seconds: a decision made
  within a period keeps it, each period that runs out is used up, and the last one running
  out loses on time (Japanese byo-yomi);
* ``sudden_death``: ``initial`` seconds for the whole game;
* ``tournament``: Gunshi's official tournament clock: 20 minutes each, no byo-yomi. A game
  with a ``time_control`` option (Gunshi) plays it with ``time_control=tournament``, and its
  states say whose clock runs (``State.clock_seat``, with ``GameType.provides_clock_rules``: Gunshi starts
  the clock after Red's first placement and stops it while the Advanced Command cards are
  chosen). In other games the first decision of the game is not timed and then the seat to
  act's clock runs;
* ``correspondence``: turn-based play, ``days`` whole days (1 to 14) for each move: every
  time the turn passes to another seat, the seat that moved has its ``days`` back for its
  next turn (no accumulation: time left unused is not kept; a turn of several decisions by
  one seat is one move, as for ``fischer``'s increment). The seat whose time runs out loses
  on time. No vacations.

Every kind runs in every game: :func:`running_seat` is the one place that says whose clock
runs, from the declared ``State.clock_seat`` (by default the seat to act, none while
``State.clock_running`` is False).

A seat the computer took over from a player who left (docs/api.md, *Players who leave*) is
*held*: its clock does not run while the computer plays it, and earns no increment; the
player who comes back finds it as it stood when they left (``release``).

Time comes from an injected ``now`` function (wall-clock seconds) so that a clock survives a
restart and tests can use a fake time source.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sengoku.core.game import State

TOURNAMENT_SECONDS = 20 * 60.0
DAY = 86_400.0
#: The days per move a ``correspondence`` clock may give.
MAX_DAYS = 14


class ClockError(ValueError):
    """A time-control description the server cannot use."""


@dataclass(frozen=True)
class ClockSpec:
    type: str
    initial: float = 0.0
    increment: float = 0.0
    periods: int = 0
    period: float = 0.0

    @property
    def untimed_first(self) -> bool:
        return self.type == "tournament"

    @property
    def days(self) -> int:
        """A ``correspondence`` clock's days per move."""
        return round(self.initial / DAY)

    @classmethod
    def from_json(cls, data: Any) -> ClockSpec:
        if not isinstance(data, dict):
            raise ClockError("clock must be an object like {'type': 'fischer', 'initial': 300}")
        kind = data.get("type")
        fields = {
            "fischer": {"initial", "increment"},
            "byoyomi": {"main", "periods", "period"},
            "sudden_death": {"initial"},
            "tournament": {"initial"},
            "correspondence": {"days"},
        }
        if kind not in fields:
            raise ClockError(f"clock type {kind!r} is unknown; known: {', '.join(fields)}")
        extra = set(data) - fields[kind] - {"type"}
        if extra:
            raise ClockError(f"clock {kind}: unknown field(s) {', '.join(sorted(extra))}")

        def num(name: str, low: float, high: float, default: float | None = None) -> float:
            value = data.get(name, default)
            if value is None:
                raise ClockError(f"clock {kind}: field {name!r} is required")
            if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
                raise ClockError(f"clock {kind}: {name!r} must be a number")
            if not low <= value <= high:
                raise ClockError(f"clock {kind}: {name!r} must be between {low} and {high}")
            return float(value)

        day = DAY
        if kind == "correspondence":
            days = num("days", 1, MAX_DAYS)
            if days != int(days):
                raise ClockError("clock correspondence: 'days' must be a whole number of days")
            return cls(kind, days * DAY)
        if kind == "fischer":
            return cls(kind, num("initial", 1, day), num("increment", 0, 3600, 0))
        if kind == "byoyomi":
            periods = num("periods", 0, 30, 1)
            if periods != int(periods):
                raise ClockError("clock byoyomi: 'periods' must be a whole number")
            period = num("period", 1, 3600, 30) if periods else 0.0
            return cls(kind, num("main", 0, day), 0.0, int(periods), period)
        if kind == "sudden_death":
            return cls(kind, num("initial", 1, day))
        return cls(kind, num("initial", 1, day, TOURNAMENT_SECONDS))

    def to_json(self) -> dict[str, Any]:
        if self.type == "fischer":
            return {"type": "fischer", "initial": self.initial, "increment": self.increment}
        if self.type == "byoyomi":
            return {
                "type": "byoyomi",
                "main": self.initial,
                "periods": self.periods,
                "period": self.period,
            }
        if self.type == "sudden_death":
            return {"type": "sudden_death", "initial": self.initial}
        if self.type == "correspondence":
            return {"type": "correspondence", "days": self.days}
        return {"type": "tournament", "initial": self.initial}


def running_seat(spec: ClockSpec, state: State[Any], ply: int) -> int | None:
    """Whose clock runs in ``state``, ``ply`` decisions into the game (None: none runs).

    The contract's declared ``State.clock_seat`` (by default the seat to act; a game whose
    rules stop the clock in some phases, as Gunshi's tournament rules do, overrides it and
    sets ``GameType.provides_clock_rules``); none once the game is over; and under the ``tournament``
    kind, none for a game's first decision unless the game's own rules say whose runs.
    """
    if state.is_terminal():
        return None
    if ply == 0 and spec.untimed_first and not state.game.game_type.provides_clock_rules:
        return None
    seat = state.clock_seat
    return None if seat is None else int(seat)


class Clocks:
    """The seats' clocks of one match; at most one runs at a time."""

    def __init__(self, spec: ClockSpec, num_players: int) -> None:
        self.spec = spec
        self.remaining = [spec.initial] * num_players
        self.periods = [spec.periods] * num_players
        self.running: int | None = None
        self.since: float | None = None
        self.decisions = 0
        #: Seats the computer plays for a player who left: their clocks never run.
        self.held: set[int] = set()

    # -- the running clock -------------------------------------------------------------
    def deadline(self) -> float | None:
        """When the running seat's time runs out (None: no clock is running)."""
        if self.running is None or self.since is None:
            return None
        s = self.running
        return self.since + self.remaining[s] + self.periods[s] * self.spec.period

    def flagged(self, now: float) -> int | None:
        """The seat whose time has run out at ``now``, if any."""
        deadline = self.deadline()
        if deadline is not None and now >= deadline:
            return self.running
        return None

    def _charge(self, now: float) -> None:
        if self.running is None or self.since is None:
            return
        s = self.running
        elapsed = max(0.0, now - self.since)
        if elapsed <= self.remaining[s]:
            self.remaining[s] -= elapsed
        else:
            over = elapsed - self.remaining[s]
            self.remaining[s] = 0.0
            if self.spec.period > 0:
                used = int(over // self.spec.period)
                self.periods[s] = max(0, self.periods[s] - used)

    def start(self, seat: int | None, now: float, running: bool = True) -> None:
        """Start ``seat``'s clock at ``now`` (none runs for None, for a held seat, or when
        ``running`` is False)."""
        self.running = seat if running and seat not in self.held else None
        self.since = now if self.running is not None else None

    def decided(
        self, mover: int, next_seat: int | None, now: float, running: int | None = -1
    ) -> None:
        """``mover`` made a decision at ``now``; ``next_seat`` is to decide next.

        ``running`` is the seat whose clock runs from now (None: none runs); by default
        ``next_seat``'s.
        """
        self._charge(now)
        self.decisions += 1
        if next_seat is not None and next_seat != mover and mover not in self.held:
            # The turn passes (several decisions of one seat are one turn); a seat the
            # computer holds earns nothing.
            if self.spec.type == "fischer":
                self.remaining[mover] += self.spec.increment
            elif self.spec.type == "correspondence":
                self.remaining[mover] = self.spec.initial  # its next move's days, afresh
        self.start(next_seat if running == -1 else running, now)

    def pause(self, now: float) -> None:
        self._charge(now)
        self.start(None, now)

    def hold(self, seat: int, now: float) -> None:
        """The computer takes ``seat`` over at ``now``: its clock is charged to now and
        stops for as long as the computer plays it."""
        if self.running == seat:
            self._charge(now)
            self.start(None, now)
        self.held.add(seat)

    def release(self, seat: int, now: float, running: int | None, least: float) -> None:
        """The player comes back to ``seat`` at ``now``: its clock runs again as it stood
        when they left, with at least ``least`` seconds if it had run out (the computer
        took the seat when its flag fell); ``running`` is the seat whose clock runs now."""
        self.held.discard(seat)
        if self.remaining[seat] <= 0 and self.periods[seat] <= 0:
            self.remaining[seat] = least
        if running == seat and self.running is None:
            self.start(seat, now)

    # -- what clients and storage see -------------------------------------------------------
    def snapshot(self, now: float) -> dict[str, Any]:
        remaining = list(self.remaining)
        periods = list(self.periods)
        if self.running is not None and self.since is not None:
            s = self.running
            elapsed = max(0.0, now - self.since)
            if elapsed <= remaining[s]:
                remaining[s] -= elapsed
            else:
                over = elapsed - remaining[s]
                remaining[s] = 0.0
                if self.spec.period > 0:
                    periods[s] = max(0, periods[s] - int(over // self.spec.period))
        return {
            "spec": self.spec.to_json(),
            "remaining": [round(r, 3) for r in remaining],
            "periods": periods,
            "running": self.running,
            "held": sorted(self.held),
        }

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "remaining": self.remaining,
            "periods": self.periods,
            "running": self.running,
            "since": self.since,
            "decisions": self.decisions,
        }
        if self.held:  # only a match someone left stores it
            data["held"] = sorted(self.held)
        return data

    @classmethod
    def from_json(cls, spec: ClockSpec, data: dict[str, Any]) -> Clocks:
        clocks = cls(spec, len(data["remaining"]))
        clocks.remaining = [float(r) for r in data["remaining"]]
        clocks.periods = [int(p) for p in data["periods"]]
        clocks.running = data["running"]
        clocks.since = data["since"]
        clocks.decisions = int(data.get("decisions", 0))
        clocks.held = {int(s) for s in data.get("held", [])}
        return clocks
