"""What a Scout saw: Command Row cards a Scout has seen show to the seats, not to spectators.

(The view's agreement with what each seat may know is checked for every game by the
contract suite, ``tests/contract``.)
"""

from __future__ import annotations

from sengoku.games.gunshi import Gunshi, GunshiState
from sengoku.games.gunshi.state import SCOUTED
from tests.sampling import sampled_positions

GAME = Gunshi()
OPTIONS = {"variant": "custom", "custom_selection": "secret", "time_control": "tournament"}


def test_scouted_cards_show_to_seats_not_spectators_and_fenceless_positions_occur() -> None:
    """The sample holds Command Row cards only a Scout has seen (shown to seats, not to
    spectators) and positions without any Fence."""
    states: list[GunshiState] = sampled_positions(GAME, OPTIONS, 300, every=6, at=1, max_ply=1500)  # type: ignore[assignment]
    scouted = [
        (st, p) for st in states for p in (0, 1) if any(c[1] == SCOUTED for c in st.cards.row[p])
    ]
    assert scouted
    st, p = scouted[0]
    spectator = st.view(None)["players"][p]["row"]
    opponent = st.view(1 - p)["players"][p]["row"]
    assert [e["card"] for e in spectator].count(None) > [e["card"] for e in opponent].count(None)
    assert any(all(f < 0 for f in st.fences.fence) for st in states)
