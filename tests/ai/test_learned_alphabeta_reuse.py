"""Alpha-beta's transposition table kept between decisions (``alphabeta:reuse=1``), on
Gungi's Python search (issue 20's search reuse, next to the learned evaluation)."""

from __future__ import annotations

import random

from sengoku.ai import make_agent
from sengoku.core.registry import load_game

GUNGI = load_game("gungi")


def play(reuse: int, plies: int = 4) -> tuple[list[str], list[dict[str, object]]]:
    st = GUNGI.new_state(3)
    rng = random.Random(3)
    for _ in range(30):
        st.apply(rng.choice(st.legal_actions()))
    agent = make_agent(GUNGI, "alphabeta", seed=5, iterations=1500, reuse=reuse)
    moves, stats = [], []
    for _ in range(plies):
        action = agent.choose(st, st.current_player)
        moves.append(str(action))
        stats.append(dict(agent.last_stats))
        st.apply(action)
    return moves, stats


def test_the_table_carries_over_and_play_stays_repeatable() -> None:
    moves, stats = play(1)
    assert stats[0]["reused_entries"] == 0
    assert all(int(s["reused_entries"]) > 0 for s in stats[1:])  # type: ignore[call-overload]
    again, _ = play(1)
    assert again == moves
    fresh_moves, fresh = play(0)
    assert all(s["reused_entries"] == 0 for s in fresh)
    # Same first decision: nothing to reuse yet, so the same search.
    assert fresh_moves[0] == moves[0]
