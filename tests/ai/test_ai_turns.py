"""Time per turn, the level-5 floor, and search reuse: all without real timing (fake clocks)."""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable
from pathlib import Path

import pytest

from sengoku.ai import FLOOR_FACTOR, TURN_CEILING, Budget, load_agent, make_agent
from sengoku.ai.base import TurnTimer
from sengoku.core.game import SengokuError, State
from sengoku.core.registry import load_game
from tests.toygames import HighTrick, Mark, TicTacToe

TTT = TicTacToe()
HT = HighTrick()


def ttt(*squares: int) -> State:
    st = TTT.new_state()
    for sq in squares:
        st.apply(Mark(sq))
    return st


def expired() -> Callable[[], float]:
    """A clock that has always already run out: each reading is 1000 s after the last."""
    t = [0.0]

    def now() -> float:
        t[0] += 1000.0
        return t[0]

    return now


def ticking(step: float) -> tuple[Callable[[], float], list[float]]:
    """A clock that advances ``step`` seconds at every reading."""
    t = [0.0]

    def now() -> float:
        t[0] += step
        return t[0]

    return now, t


@pytest.mark.parametrize("name", ["mcts", "ismcts", "alphabeta"])
def test_a_run_out_clock_still_searches_the_floor(name: str) -> None:
    agent = make_agent(TTT, name, seed=1, turn_seconds=1.0, floor=40)
    agent.now = expired()
    action = agent.choose(ttt(), 0)
    assert action in ttt().legal_actions()
    done = agent.last_stats.get("iterations", agent.last_stats.get("nodes"))
    assert done is not None and done >= 40
    # Without the floor, the same run-out clock allows a single iteration.
    bare = make_agent(TTT, name, seed=1, turn_seconds=1.0)
    bare.now = expired()
    bare.choose(ttt(), 0)
    assert bare.last_stats.get("iterations", bare.last_stats.get("nodes")) <= 8


def test_level5_has_turn_time_a_floor_above_level4_and_reuse(toys: None) -> None:
    for game in ("tictactoe", "hightrick"):
        top = load_agent(game, 5, seed=0)
        level4 = load_agent(game, 4, seed=0)
        assert top.options["turn_seconds"] == 1.0 and "seconds" not in top.options
        assert level4.budget.iterations is not None and level4.budget.seconds is None
        assert (
            top.floor
            == math.ceil(FLOOR_FACTOR * level4.budget.iterations)
            > (level4.budget.iterations)
        )
        assert top.options["reuse"] == 1
    # A given iteration budget is a plain fixed-budget search; seconds a time per decision.
    # Every level keeps its wall-clock ceiling per turn (a timer with no time budget).
    fixed = load_agent("tictactoe", 5, iterations=20)
    assert fixed.budget == Budget(iterations=20) and fixed.floor == 0
    assert fixed.turn is not None and fixed.turn.seconds is None
    assert fixed.turn.ceiling == TURN_CEILING
    per_move = load_agent("tictactoe", 5, seconds=0.2)
    assert per_move.budget == Budget(seconds=0.2) and per_move.floor
    assert per_move.turn is not None and per_move.turn.seconds is None
    server = load_agent("tictactoe", 5, turn_seconds=2.5)
    assert server.turn is not None and server.turn.seconds == 2.5
    for level in (1, 2, 3, 4, 5):
        agent = load_agent("tictactoe", level)
        assert agent.turn is not None and agent.turn.ceiling == TURN_CEILING
    assert load_agent("tictactoe", 4, ceiling=None).turn is None


@pytest.mark.parametrize("name", ["mcts", "ismcts", "alphabeta"])
def test_the_floor_and_the_budget_yield_to_the_ceiling(name: str) -> None:
    # rulebook of the issue: "a turn has a ceiling": a loaded machine (a wall clock that runs
    # far ahead of the search's CPU time) stops even a floor-bound search at the ceiling,
    # after one iteration, with a legal move.
    agent = make_agent(TTT, name, seed=1, turn_seconds=1.0, floor=10_000, ceiling=0.5)
    agent.now = lambda: 0.0  # no CPU time passes: the budget alone would never end
    agent.wall = expired()  # each wall reading is 1000 s later
    st = ttt()
    action = agent.choose(st, 0)
    assert action in st.legal_actions()
    assert 1 <= agent.last_stats.get("iterations", agent.last_stats.get("nodes", 0)) < 100


def test_the_budget_counts_cpu_time_so_load_alone_does_not_weaken_the_search() -> None:
    # The same search under a wall clock that runs 20 times faster than the CPU clock
    # (a loaded machine) does the same iterations as on a quiet one, as long as the ceiling
    # is not reached.
    def run(wall_step: float) -> int:
        agent = make_agent(TTT, "mcts", seed=3, seconds=0.05, ceiling=1000.0)
        agent.now, _ = ticking(0.0001)
        agent.wall, _ = ticking(wall_step)
        agent.choose(ttt(), 0)
        return int(agent.last_stats["iterations"])

    quiet = run(0.0001)
    assert quiet > 20
    assert run(0.002) == quiet


def test_a_turns_ceiling_is_shared_over_its_decisions() -> None:
    timer = TurnTimer(None, lambda: 0.0, ceiling=3.0, wall=lambda: 0.0)
    assert timer.allot(2) == 0.0 and timer.allot_wall(3) == pytest.approx(1.0)
    timer.wall_spent = 2.0
    assert timer.allot_wall(2) == pytest.approx(0.5)
    timer.wall_spent = 4.0
    assert timer.allot_wall(1) == 0.0
    with pytest.raises(SengokuError, match="ceiling must be a number"):
        make_agent(TTT, "mcts", ceiling=0)
    with pytest.raises(SengokuError, match="ceiling must be a number"):
        make_agent(TTT, "mcts", ceiling="soon")


def test_gungi_level5_floor_with_a_run_out_clock() -> None:
    game = load_game("gungi")
    agent = load_agent(game, 5, seed=0)
    level4 = load_agent(game, 4, seed=0)
    assert level4.budget.iterations is not None
    assert agent.floor > level4.budget.iterations
    agent.now = expired()
    st = game.new_state(0)
    action = agent.choose(st, st.current_player)
    assert action in st.legal_actions()
    assert agent.last_stats["nodes"] >= agent.floor


def test_forced_decisions_take_no_search_and_no_time() -> None:
    # X O X / X O O / O X . : X's only square is 8.
    st = ttt(0, 1, 2, 4, 3, 5, 7, 6)
    assert st.legal_actions() == [Mark(8)]
    for name in ("mcts", "ismcts", "alphabeta"):
        agent = make_agent(TTT, name, seed=0, turn_seconds=1.0, floor=50)
        now, t = ticking(0.001)
        agent.now = now
        assert agent.choose(st, 0) == Mark(8)
        assert agent.last_stats.get("forced") is True
        assert t[0] < 0.01  # a few clock readings, no search


def test_turn_timer_shares_the_turn_over_its_decisions() -> None:
    timer = TurnTimer(1.2, lambda: 0.0)
    assert timer.allot(3) == pytest.approx(0.4)
    timer.spent = 0.4
    assert timer.allot(2) == pytest.approx(0.4)
    timer.spent = 1.3
    assert timer.allot(1) == 0.0
    with pytest.raises(SengokuError, match="turn_seconds must be positive"):
        TurnTimer(0, lambda: 0.0)
    with pytest.raises(SengokuError, match="floor must be an integer"):
        make_agent(TTT, "mcts", floor=-1)


def test_a_gunshi_turn_shares_one_budget() -> None:
    # Gunshi's turn is several decisions by one seat (card, unit, direction, ...). With a
    # fake clock that advances 1 ms a reading, the agent's decisions of one turn together
    # spend about the turn's time, and the next turn (the other seat) starts afresh.
    game = load_game("gunshi")
    st = game.new_state(3)
    agent = make_agent(game, "ismcts", seed=2, turn_seconds=0.2, reuse=1)
    now, t = ticking(0.001)
    agent.now = now
    turns: list[tuple[int, float, int]] = []  # (seat, time spent, decisions)
    seat = st.current_player
    while not st.is_terminal() and len(turns) < 3:
        seat = st.current_player
        start = t[0]
        decisions = 0
        while not st.is_terminal() and st.current_player == seat:
            st.apply(agent.choose(st, seat))
            decisions += 1
        turns.append((seat, t[0] - start, decisions))
    assert any(d > 1 for _, _, d in turns)
    for _, spent, decisions in turns:
        # Each decision may overrun its share by one iteration's clock readings.
        assert spent <= 0.2 + 0.01 * decisions


def test_mcts_reuse_carries_visits_over_the_reply_and_is_deterministic() -> None:
    def play(seed: int) -> tuple[list[Mark], list[dict[str, object]]]:
        agent = make_agent(TTT, "mcts", seed=seed, iterations=200, reuse=1)
        st = ttt()
        moves, stats = [], []
        for reply in (4, 8):
            move = agent.choose(st, 0)
            moves.append(move)
            stats.append({k: v for k, v in agent.last_stats.items() if k != "seconds"})
            st.apply(move)
            if reply in [m.square for m in st.legal_actions()]:
                st.apply(Mark(reply))
            else:
                st.apply(st.legal_actions()[0])
        return moves, stats

    moves, stats = play(5)
    assert play(5) == (moves, stats)
    assert stats[0]["reused"] == 0
    # The second decision re-rooted on the move played and the reply.
    reused = stats[1]["reused"]
    assert isinstance(reused, int) and reused > 0
    assert stats[1]["root_visits"] == reused + 200


def test_ismcts_reuse_within_a_gunshi_turn() -> None:
    game = load_game("gunshi")
    st = game.new_state(5)
    seat = st.current_player

    def turn(seed: int) -> tuple[list[str], list[int]]:
        agent = make_agent(game, "ismcts", seed=seed, iterations=60, reuse=1)
        s = st.clone()
        moves, reused = [], []
        while not s.is_terminal() and s.current_player == seat and len(moves) < 4:
            a = agent.choose(s, seat)
            assert a in s.legal_actions()
            moves.append(str(a))
            reused.append(int(agent.last_stats.get("reused", 0)))
            s.apply(a)
        return moves, reused

    moves, reused = turn(9)
    assert turn(9) == (moves, reused)
    assert len(moves) > 1 and reused[0] == 0 and max(reused[1:]) > 0


def test_reuse_is_refused_unless_zero_or_one() -> None:
    with pytest.raises(SengokuError, match="reuse must be 0 or 1"):
        make_agent(HT, "ismcts", reuse=3)


def test_belief_weighs_particles_that_explain_the_reply_and_stays_deterministic() -> None:
    game = load_game("sashimono")

    def run(seed: int) -> tuple[list[str], list[dict[str, int]]]:
        st = game.new_state(4)
        me = make_agent(game, "ismcts", seed=seed, iterations=20, belief=1, belief_particles=6)
        other = make_agent(game, "ismcts", seed=seed + 1, iterations=20)
        moves: list[str] = []
        beliefs: list[dict[str, int]] = []
        while not st.is_terminal() and len(moves) < 30:
            seat = st.current_player
            agent = me if seat == 0 else other
            action = agent.choose(st, seat)
            assert action in st.legal_actions()
            if seat == 0 and hasattr(me, "belief_stats"):
                beliefs.append(dict(me.belief_stats))
                del me.belief_stats
            moves.append(str(action))
            st.apply(action)
        return moves, beliefs

    moves, beliefs = run(3)
    assert run(3) == (moves, beliefs)
    # Across the other seat's turns some particles were explained and so weighed.
    assert any(b["explained"] > 0 for b in beliefs)
    assert all(b["explained"] <= b["particles"] == 6 for b in beliefs)


def test_belief_options_are_checked() -> None:
    with pytest.raises(SengokuError, match="belief must be 0 or 1"):
        make_agent(HT, "ismcts", belief=2)
    with pytest.raises(SengokuError, match="belief_particles"):
        make_agent(HT, "ismcts", belief=1, belief_particles=0)
    with pytest.raises(SengokuError, match="belief_temperature"):
        make_agent(HT, "ismcts", belief=1, belief_temperature=0)


def test_turns_benchmark_reports_median_and_p90(toys: None) -> None:
    path = Path(__file__).parents[2] / "benchmarks" / "ai.py"
    spec = importlib.util.spec_from_file_location("benchmarks_ai", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.percentile([float(x) for x in range(1, 11)], 0.9) == 9.0
    assert bench.percentile([3.0], 0.9) == 3.0
    out = bench.turn_times("tictactoe", games=2, max_turns=2, level=3, seed=0)
    assert 2 <= out["turns"] <= 4 and out["decisions_per_turn"] == 1
    assert out["median_s"] <= out["p90_s"] <= out["max_s"]
    assert {"load_before", "load_after"} <= set(out)


def test_opponent_model_and_explanations() -> None:
    from sengoku.ai.mcts import ISMCTSAgent

    # O to move may block at square 2 (X threatens a1-b1-c1): the model prefers the block.
    st = ttt(0, 3, 1)
    agent = make_agent(TTT, "ismcts", seed=0, belief=1)
    assert isinstance(agent, ISMCTSAgent)
    model = agent.opponent_model(st)
    assert sum(p for _, p in model) == pytest.approx(1.0)
    probs = {next(iter(set(c.legal_actions()) ^ set(st.legal_actions()))): p for c, p in model}
    assert max(probs, key=probs.__getitem__) == Mark(2)
    # X's view after O's block is explained from the position before it, with its probability.
    after = st.clone()
    after.apply(Mark(2))
    explained = agent.explain(st, 0, after.view(0))
    assert explained is not None and explained[1] == pytest.approx(probs[Mark(2)])
    # A position O cannot reach in one move is not explained.
    far = ttt(0, 3, 1, 4, 8)
    assert agent.explain(st, 0, far.view(0)) is None


def test_mcts_reuse_in_a_hidden_information_game_searches_on_in_the_kept_world() -> None:
    """Plain MCTS searches one determinization; a kept subtree was grown in the kept one, so
    below its root it holds actions of that world (another draw of the hidden tiles). Reused
    with a fresh determinization, the search once played a tile the seat does not hold in
    that world: ``IllegalAction: tile ... is not in your hand``."""
    game = load_game("gunkimono")
    st = game.new_state(3, players=2)
    agents = [make_agent(game, "mcts", seed=s, iterations=120, reuse=1) for s in (1, 2)]
    reused: list[int] = []
    decisions = 0
    while not st.is_terminal() and decisions < 60:
        seat = st.current_player
        action = agents[seat].choose(st, seat)
        assert action in st.legal_actions()
        reused.append(int(agents[seat].last_stats.get("reused", 0)))
        st.apply(action)
        decisions += 1
    assert max(reused) > 0, "no decision found its position in the kept tree"
