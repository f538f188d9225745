"""Official Tournament-Style Games: 20 minutes per player, no byoyomi.

Rulebook, "Official Tournament-Style Games"; option ``time_control``. The server keeps the
time; the rules say whose clock runs: the player to act, from the first formation placement,
never during the setup choices of the variants. The times are ``game.TOURNAMENT_SECONDS``
and ``game.TOURNAMENT_BYOYOMI_SECONDS``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState


def clock_seat(st: GunshiState) -> int | None:
    """Whose clock runs now under any clock a server keeps (None: none runs).

    The tournament rules stop the clock before Red's first placement and while Advanced
    cards are chosen; without them (``time_control=none``: a server's Fischer, byo-yomi or
    sudden-death clock) every decision is timed, so the seat to act's clock always runs.
    """
    if st.result is not None:
        return None
    if st.options["time_control"] != "tournament":
        return st.player
    return tournament_seat(st)


def tournament_seat(st: GunshiState) -> int | None:
    """Whose tournament clock runs now (None: no tournament clock, or none runs)."""
    if st.options["time_control"] != "tournament" or st.result is not None:
        return None
    if st.phase in ("build", "prepare", "mod3") or not st.formation.clock_started:
        return None
    return st.player
