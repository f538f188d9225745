"""Every agent on every registered game, through the contract only; honesty on the real
hidden-information games (states that differ only in what the seat cannot see)."""

from __future__ import annotations

import random

import pytest

from sengoku.ai import knowledge_for, make_agent
from sengoku.core.game import State
from sengoku.core.registry import list_games, load_game

GAMES = list_games()


def midgame(name: str, seed: int, plies: int) -> State:
    game = load_game(name)
    st = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_actions()))
    if st.is_terminal():
        st = game.new_state(seed)
    return st


@pytest.mark.parametrize("name", GAMES)
def test_every_agent_chooses_a_legal_action(name: str) -> None:
    game = load_game(name)
    agents = ["random", "greedy", "mcts", "ismcts"]
    if game.new_state(0).num_players == 2:
        agents.append("alphabeta")
    for plies in (0, 25):
        st = midgame(name, 4, plies)
        seat = st.current_player
        for agent_name in agents:
            agent = make_agent(game, agent_name, seed=2, iterations=8)
            assert agent.choose(st, seat) in st.legal_actions()


@pytest.mark.parametrize("name", GAMES)
def test_evaluation_is_bounded(name: str) -> None:
    knowledge = knowledge_for(name)
    st = midgame(name, 6, 30)
    for seat in range(st.num_players):
        assert -1.0 <= knowledge.evaluate(st, seat) <= 1.0


@pytest.mark.parametrize("name", [g for g in GAMES if knowledge_for(g).hidden_information])
def test_honesty_on_hidden_information_games(name: str) -> None:
    game = load_game(name)
    checked = 0
    for seed, plies in ((1, 6), (2, 20), (3, 40)):
        st = midgame(name, seed, plies)
        seat = st.current_player
        variants = [st]
        for k in range(4):
            other = st.determinize(seat, random.Random(100 + k))
            assert other.view(seat) == st.view(seat)
            variants.append(other)
        for agent_name in ("greedy", "mcts", "ismcts"):
            picks = {
                make_agent(game, agent_name, seed=5, iterations=12).choose(v, seat)
                for v in variants
            }
            assert len(picks) == 1, (name, agent_name, seed, picks)
            checked += 1
    assert checked == 9


@pytest.mark.parametrize("name", ["gunshi", "sashimono", "gunkimono"])
def test_levels_of_hidden_information_games_climb(name: str) -> None:
    """Levels 1-4 have iteration budgets (same seed, same move); each search level searches
    more than the one below (docs/ai.md, Strength: each beats the one below); level 5
    thinks for a second."""
    from sengoku.ai import load_agent
    from sengoku.ai.base import Budget

    agents = [load_agent(name, level, seed=0) for level in range(1, 6)]
    assert agents[4].budget == Budget(seconds=1.0)
    assert type(agents[4]).__name__ == "ISMCTSAgent"
    searches = [a for a in agents[:4] if type(a).__name__ == "ISMCTSAgent"]
    assert len(searches) >= 2
    budgets = [a.budget.iterations for a in searches]
    assert all(b is not None for b in budgets)
    assert budgets == sorted(set(budgets))  # type: ignore[type-var]
    # The levels below the searches play greedily on the game's evaluation, the lower with
    # no fewer random moves.
    greedy = agents[: 4 - len(searches)]
    assert all(type(a).__name__ == "GreedyAgent" for a in greedy)
    epsilons = [a.options["epsilon"] for a in greedy]
    assert epsilons == sorted(epsilons, reverse=True)
