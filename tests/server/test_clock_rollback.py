"""The clock rollback every storing change shares (``live.clocks_until_stored``): the new
clocks stand while the change is stored and stay if it is; a failed or cancelled write
leaves the match with the clocks it had, so memory never runs ahead of storage."""

from __future__ import annotations

import asyncio

import pytest

from sengoku.core.registry import load_game
from sengoku.server.clocks import Clocks, ClockSpec
from sengoku.server.live import Live, clocks_until_stored


def _live() -> Live:
    spec = ClockSpec.from_json({"type": "fischer", "initial": 60, "increment": 0})
    live = Live(
        id="m",
        game=load_game("gungi"),
        options={},
        seed=0,
        version=1,
        status="active",
        seats=[],
        created_at=0.0,
        clock_spec=spec,
    )
    live.clocks = Clocks(spec, 2)
    return live


def test_the_new_clocks_stand_during_the_write_and_stay_after_it() -> None:
    live = _live()
    new = Clocks(live.clocks.spec, 2)  # type: ignore[union-attr]
    with clocks_until_stored(live, new):
        assert live.clocks is new  # what the write stores (clock_json reads live.clocks)
    assert live.clocks is new


@pytest.mark.parametrize("failure", [RuntimeError("disk full"), asyncio.CancelledError()])
def test_a_failed_or_cancelled_write_restores_the_old_clocks(failure: BaseException) -> None:
    live = _live()
    old = live.clocks
    with pytest.raises(type(failure)), clocks_until_stored(live, None):
        assert live.clocks is None
        raise failure
    assert live.clocks is old
