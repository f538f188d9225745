"""Prior knowledge in the search (the search agents' option ``prior_visits``): a new node's
evaluation counts in its mean as that many playouts."""

from __future__ import annotations

from typing import Any

import pytest
from search_positions import decision_after

from sengoku.ai import make_agent
from sengoku.ai.base import Budget
from sengoku.ai.mcts import Node
from sengoku.core.game import SengokuError
from sengoku.core.registry import load_game
from sengoku.server.ai import resolve_ai


def test_the_mean_counts_the_prior_as_that_many_playouts() -> None:
    agent: Any = make_agent("sashimono", "ismcts:prior_visits=4", seed=1)
    child = Node(None, 1, 2)
    child.visits, child.totals, child.prior = 6, [4.5, 1.5], [0.2, 0.8]
    assert agent.mean(child, 0) == pytest.approx((4.5 + 4 * 0.2) / (6 + 4))
    assert agent.mean(child, 1) == pytest.approx((1.5 + 4 * 0.8) / (6 + 4))
    # a node made without a prior (a kept tree from before) reads its plain mean
    child.prior = None
    assert agent.mean(child, 0) == pytest.approx(4.5 / 6)
    # with implicit backups too, the implicit value is weighed against that mean
    both: Any = make_agent("sashimono", "ismcts:prior_visits=4:implicit=0.5", seed=1)
    child.prior, child.implicit = [0.2, 0.8], [1.0, 0.0]
    assert both.mean(child, 0) == pytest.approx(0.5 * (4.5 + 0.8) / 10 + 0.5 * 1.0)


def test_every_node_holds_the_evaluation_of_itsdecision_after() -> None:
    """Gungi's UCT searches one position: replaying each node's actions from the root gives
    the position whose evaluation the node holds."""
    rules = load_game("gungi")
    state = decision_after(rules, deal=3, plies=10, choices=2)
    seat = state.current_player
    agent: Any = make_agent(rules, "mcts:prior_visits=3:rollout_depth=4", seed=2)
    agent.choose(state, seat, Budget(iterations=200))
    checked = 0
    stack: list[tuple[Node, Any]] = [(agent.last_root, state)]
    while stack:
        node, position = stack.pop()
        for action, child in node.children.items():
            after = position.clone()
            after.apply(action)
            assert child.prior == agent.evaluated(after)
            checked += 1
            stack.append((child, after))
    assert checked > 150
    assert agent.last_root.prior is None  # the root was never a new leaf


def test_off_by_default_and_then_nothing_is_evaluated_for_it() -> None:
    rules = load_game("sashimono")
    state = decision_after(rules, deal=4, plies=12, choices=2)
    agent: Any = make_agent(rules, "ismcts", seed=3)
    agent.choose(state, state.current_player, Budget(iterations=100))
    stack = [agent.last_root]
    while stack:
        node = stack.pop()
        assert node.prior is None
        stack.extend(node.children.values())


def test_a_strong_prior_steers_the_search_to_the_best_evaluated_action() -> None:
    """Counted as a thousand playouts, the prior outweighs a hundred iterations: with little
    exploration the most visited root child is the one the evaluation likes best."""
    rules = load_game("sashimono")
    state = decision_after(rules, deal=8, plies=20, choices=3)
    seat = state.current_player

    def search(spec: str) -> Any:
        agent: Any = make_agent(rules, spec, seed=5)
        agent.choose(state, seat, Budget(iterations=300))
        return agent.last_root

    plain = search("ismcts:c=0.2")
    steered = search("ismcts:c=0.2:prior_visits=1000")
    assert {a: ch.visits for a, ch in plain.children.items()} != {
        a: ch.visits for a, ch in steered.children.items()
    }
    children = list(steered.children.values())
    most = max(children, key=lambda ch: ch.visits)
    assert most.prior[seat] == max(ch.prior[seat] for ch in children)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:prior_visits=-1", "prior_visits must be a number from 0 to 1000"),
        ("ismcts:prior_visits=5000", "prior_visits must be a number from 0 to 1000"),
        ("mcts:prior_visits=/etc/passwd", "prior_visits must be a number from 0 to 1000"),
        ("ismcts:prior_visits=true", "prior_visits must be a number from 0 to 1000"),
        ("learned:prior=eval:prior_visits=2", "prior_visits needs prior=none"),
    ],
)
def test_a_bad_prior_visits_is_refused_by_the_library_and_the_server(
    spec: str, message: str
) -> None:
    with pytest.raises(SengokuError, match=message):
        make_agent("sashimono", spec)
    server = "option prior_visits is a name or a number, never a path" if "/" in spec else message
    with pytest.raises(SengokuError, match=server):
        resolve_ai(None, spec, "sashimono")
    assert resolve_ai(None, "ismcts:iterations=8:prior_visits=2", "sashimono")[0]
