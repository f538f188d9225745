"""The agents on the test games: legality, determinism, honesty, strength at tiny budgets."""

from __future__ import annotations

import random

import pytest

from sengoku.ai import AGENTS, Budget, load_agent, make_agent, parse_spec
from sengoku.core.game import SengokuError, State
from tests.toygames import HighTrick, Mark, Play, TicTacToe

TTT = TicTacToe()
HT = HighTrick()
SEARCHERS = ["mcts", "ismcts", "alphabeta"]


def ttt(*squares: int) -> State:
    st = TTT.new_state()
    for sq in squares:
        st.apply(Mark(sq))
    return st


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_every_agent_plays_legal_games_to_the_end(name: str) -> None:
    for game, opts in ((TTT, {}), (HT, {}), (HT, {"players": 3})):
        if name == "alphabeta" and opts.get("players", 2) != 2:
            continue
        agents = [make_agent(game, name, seed=s, iterations=60) for s in range(3)]
        for seed in range(3):
            st = game.new_state(seed, **opts)
            while not st.is_terminal():
                seat = st.current_player
                action = agents[seat].choose(st, seat)
                assert action in st.legal_actions()
                st.apply(action)
            assert st.outcome() is not None


@pytest.mark.parametrize("name", ["mcts", "alphabeta", "greedy"])
def test_takes_the_win_and_blocks_the_loss(name: str) -> None:
    # X on a1, b1; O on a2, b2; X to move: c1 wins at once.
    st = ttt(0, 3, 1, 4)
    agent = make_agent(TTT, name, seed=3, iterations=300)
    assert agent.choose(st, 0) == Mark(2)
    # X on a1, b1, c2; O on a2, b2 ... O to move must block c1 (square 2) or win at c2: here
    # O has a2, b2 and c2 is taken, so O must block.
    st = ttt(0, 3, 1, 4, 5)
    assert make_agent(TTT, name, seed=1, iterations=2000).choose(st, 1) == Mark(2)


@pytest.mark.parametrize("name", ["random", "greedy", *SEARCHERS])
def test_same_seed_and_iterations_give_the_same_move(name: str) -> None:
    for st in (ttt(), ttt(4), ttt(0, 4, 8)):
        seat = st.current_player
        moves = {
            make_agent(TTT, name, seed=7, iterations=150).choose(st.clone(), seat) for _ in range(3)
        }
        assert len(moves) == 1
    st = HT.new_state(5)
    moves = {make_agent(HT, name, seed=7, iterations=150).choose(st, 0) for _ in range(3)}
    assert len(moves) == 1


def _hidden_variants(seed: int, seat: int, plies: int) -> list[State]:
    """States that agree on everything ``seat`` sees but differ in the others' hands."""
    st = HT.new_state(seed, players=3)
    rng = random.Random(seed)
    for _ in range(plies):
        st.apply(rng.choice(st.legal_actions()))
    while st.current_player != seat:
        st.apply(rng.choice(st.legal_actions()))
    variants = [st]
    for k in range(6):
        other = st.determinize(seat, random.Random(1000 + k))
        assert other.view(seat) == st.view(seat)
        if other.to_json() != st.to_json():
            variants.append(other)
    assert len(variants) > 2
    return variants


@pytest.mark.parametrize("name", ["random", "greedy", "mcts", "ismcts"])
def test_honesty_hidden_information_does_not_change_the_choice(name: str) -> None:
    for seed, seat, plies in ((1, 0, 0), (2, 1, 1), (3, 2, 3)):
        variants = _hidden_variants(seed, seat, plies)
        choices = {
            make_agent(HT, name, seed=11, iterations=200, **_extra(name)).choose(v, seat)
            for v in variants
        }
        assert len(choices) == 1, (name, seed, choices)


def _extra(name: str) -> dict[str, float]:
    return {"epsilon": 0.0} if name == "greedy" else {}


def test_honesty_alphabeta_two_players() -> None:
    st = HT.new_state(4, hand=4)
    variants = [st] + [st.determinize(0, random.Random(k)) for k in range(5)]
    assert len({json_of(v) for v in variants}) > 1
    choices = {make_agent(HT, "alphabeta", seed=2, iterations=500).choose(v, 0) for v in variants}
    assert len(choices) == 1


def json_of(st: State) -> str:
    import json

    return json.dumps(st.to_json(), sort_keys=True)


def test_ismcts_plays_the_sure_winner() -> None:
    # Two players, one card each left; seat 0 leads with the 9: it cannot lose the round.
    st = HT.new_state(0, hand=2)
    st.hands = [[1, 9], [4, 5]]
    st.deck = [c for c in range(1, 10) if c not in (1, 9, 4, 5)]
    agent = make_agent(HT, "ismcts", seed=0, iterations=400)
    # Leading 9 wins a round for sure, then the 1 loses: 1-1 draw at worst... leading the 1
    # loses it, and the opponent leads, so 9 still wins one: both draw-ish; check the value.
    agent.choose(st, 0)
    assert agent.last_stats["iterations"] == 400


def test_mcts_beats_random_at_tictactoe() -> None:
    wins = losses = 0
    for g in range(10):
        st = TTT.new_state()
        agents = {g % 2: make_agent(TTT, "mcts", seed=g, iterations=200)}
        rnd = make_agent(TTT, "random", seed=100 + g)
        while not st.is_terminal():
            seat = st.current_player
            st.apply((agents.get(seat) or rnd).choose(st, seat))
        out = st.outcome()
        assert out is not None
        wins += out.winners == (g % 2,)
        losses += out.winners == (1 - g % 2,)
    assert losses == 0 and wins >= 6


def test_alphabeta_never_loses_tictactoe_to_mcts() -> None:
    for g in range(4):
        st = TTT.new_state()
        ab = make_agent(TTT, "alphabeta", seed=g, iterations=5000)
        mc = make_agent(TTT, "mcts", seed=g, iterations=300)
        seats = {g % 2: ab, 1 - g % 2: mc}
        while not st.is_terminal():
            seat = st.current_player
            st.apply(seats[seat].choose(st, seat))
        out = st.outcome()
        assert out is not None and out.winners in ((), (g % 2,))


def test_budget_and_stats() -> None:
    agent = make_agent(TTT, "mcts", seed=0)
    agent.choose(ttt(), 0, Budget(iterations=37))
    assert agent.last_stats["iterations"] == 37
    agent.choose(ttt(), 0, Budget(seconds=0.05))
    assert agent.last_stats["iterations"] >= 1
    ab = make_agent(TTT, "alphabeta", seed=0)
    ab.choose(ttt(), 0, Budget(iterations=500))
    assert ab.last_stats["nodes"] <= 501
    with pytest.raises(SengokuError, match="iterations must be at least 1"):
        Budget(iterations=0)


def test_bad_agent_names_and_options_are_refused() -> None:
    with pytest.raises(SengokuError, match="unknown agent 'mtcs'"):
        make_agent(TTT, "mtcs")
    with pytest.raises(SengokuError, match="unknown option"):
        make_agent(TTT, "mcts", depth=3)
    with pytest.raises(SengokuError, match="epsilon"):
        make_agent(TTT, "greedy", epsilon=2)
    with pytest.raises(SengokuError, match="not key=value"):
        parse_spec("mcts:iterations")
    with pytest.raises(SengokuError, match="seat 1 asked to choose"):
        make_agent(TTT, "mcts").choose(ttt(), 1)
    with pytest.raises(SengokuError, match="two-player"):
        make_agent(HT, "alphabeta").choose(HT.new_state(0, players=3), 0)
    assert parse_spec("mcts:iterations=50:c=1.5") == ("mcts", {"iterations": 50, "c": 1.5})


def test_levels(toys: None) -> None:
    for level in range(1, 6):
        agent = load_agent("tictactoe", level, seed=1)
        st = ttt()
        if level == 5:
            agent = load_agent("tictactoe", level, seed=1, iterations=50)
        assert agent.choose(st, 0) in st.legal_actions()
    assert type(load_agent("hightrick", 3)).__name__ == "ISMCTSAgent"
    assert type(make_agent("hightrick", "level4")).__name__ == "ISMCTSAgent"
    assert make_agent("tictactoe", "level5:iterations=20").budget == Budget(iterations=20)
    with pytest.raises(SengokuError, match="level must be one of 1-5"):
        load_agent("tictactoe", 6)


def test_hidden_card_values_only_from_determinization() -> None:
    # The true state is never what the searchers read: give seat 0's opponent the 9 in one
    # world and not in another; the statistics of the decision must be the same.
    st = HT.new_state(8, hand=3)
    a = make_agent(HT, "ismcts", seed=4, iterations=300)
    b = make_agent(HT, "ismcts", seed=4, iterations=300)
    other = st.determinize(0, random.Random(99))
    assert a.choose(st, 0) == b.choose(other, 0)
    assert a.last_stats == {**b.last_stats, "seconds": a.last_stats["seconds"]}
    assert isinstance(a.choose(st, 0), Play)


def test_expansion_pick_matches_a_real_shuffle() -> None:
    """IS-MCTS picks the action to expand without shuffling (tree.index_last_after_shuffle);
    it must pick what ``Random.shuffle`` would leave last and leave the generator where
    shuffle leaves it, or seeded games would change."""
    from sengoku.ai import tree

    assert tree.FAST_SHUFFLE  # CPython's Random: the fast path is the one in use
    for n in [*range(1, 70), 127, 128, 129, 1025]:
        for seed in range(5):
            shuffled, fast = random.Random(seed), random.Random(seed)
            items = list(range(n))
            shuffled.shuffle(items)
            assert tree.index_last_after_shuffle(fast, n) == items[-1]
            assert fast.getstate() == shuffled.getstate()


def test_ismcts_chooses_for_the_seat_to_act_in_the_world_searched() -> None:
    """A node first reached in a world where the game had ended records no seat (-1); in a
    world where the game goes on, its children are chosen for the seat to act there. (It read
    the last seat's totals: in a two-player game, the other seat's choice.)"""
    from sengoku.ai.mcts import ISMCTSAgent, Node

    state = ttt(4)  # seat 1 to act
    agent = make_agent(TTT, "ismcts", seed=0, iterations=1)
    assert isinstance(agent, ISMCTSAgent)
    root = Node(None, 1, 2)
    replies = state.legal_actions()
    chosen = replies[0]
    for action in replies:  # seat 1 surely plays ``chosen`` here
        child = Node(action, 0, 2)
        child.visits = child.available = 100
        child.totals = [0.0, 100.0] if action == chosen else [100.0, 0.0]
        root.children[action] = child
    root.visits = 100 * len(replies)
    node = root.children[chosen]
    node.player = -1  # as if it had been met first where the game had ended
    after = state.clone()
    after.apply(chosen)
    assert after.current_player == 0
    best_for_seat_0 = after.legal_actions()[-1]
    for action in after.legal_actions():
        grandchild = Node(action, 1, 2)
        grandchild.visits = grandchild.available = 10
        grandchild.totals = [10.0, 0.0] if action == best_for_seat_0 else [0.0, 10.0]
        node.children[action] = grandchild
    node.visits = 10 * len(node.children)
    agent.iterate(root, state.clone(), 1)
    assert node.children[best_for_seat_0].visits == 11
