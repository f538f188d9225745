"""Implicit minimax backups (the search agents' option ``implicit``)."""

from __future__ import annotations

from typing import Any

import pytest
from search_positions import decision_after

from sengoku.ai import make_agent
from sengoku.ai.base import Budget
from sengoku.ai.mcts import Node, backup_implicit
from sengoku.core.game import SengokuError
from sengoku.core.registry import load_game
from sengoku.server.ai import resolve_ai


def _node(player: int, implicit: list[float] | None = None) -> Node:
    node = Node(None, player, 2)
    node.implicit = implicit
    return node


def test_the_backup_takes_for_each_node_the_child_best_for_its_chooser() -> None:
    # root (seat 0 chooses) -> a (seat 1 chooses) -> a1, a2 (leaves); root -> b (leaf)
    root, a, b = _node(0), _node(1, [0.5, 0.5]), _node(1, [0.6, 0.4])
    a1, a2 = _node(0, [0.9, 0.1]), _node(0, [0.3, 0.7])
    root.children = {1: a, 2: b}
    a.children = {1: a1, 2: a2}
    backup_implicit([root, a, a2])
    # seat 1 picks a2 (0.7 for it), so a is worth 0.3 to seat 0, less than b's 0.6
    assert a.implicit == [0.3, 0.7]
    assert root.implicit == [0.6, 0.4]
    # a node made where the game had ended (no chooser) keeps its own value
    ended = _node(-1, [1.0, 0.0])
    ended.children = {1: _node(0, [0.0, 1.0])}
    backup_implicit([ended, next(iter(ended.children.values()))])
    assert ended.implicit == [1.0, 0.0]


def _walk(node: Node) -> list[Node]:
    found, stack = [], [node]
    while stack:
        n = stack.pop()
        found.append(n)
        stack.extend(n.children.values())
    return found


@pytest.mark.parametrize(
    ("game", "spec"),
    [("sashimono", "ismcts:implicit=0.3"), ("gungi", "mcts:implicit=0.3:rollout_depth=4")],
)
def test_every_node_of_a_search_holds_the_max_n_backup_of_its_children(
    game: str, spec: str
) -> None:
    rules = load_game(game)
    state = decision_after(rules, deal=3, plies=12, choices=2)
    agent: Any = make_agent(rules, spec, seed=2)
    agent.choose(state, state.current_player, Budget(iterations=300))
    nodes = _walk(agent.last_root)
    assert len(nodes) > 100
    checked = 0
    for node in nodes:
        assert node.implicit is not None
        assert all(0.0 <= v <= 1.0 for v in node.implicit)
        if node.children and node.player >= 0:
            best = max(node.children.values(), key=lambda ch: ch.implicit[node.player])  # type: ignore[index]
            assert node.implicit[node.player] == best.implicit[node.player]  # type: ignore[index]
            checked += 1
    assert checked > 20


def test_the_implicit_value_steers_the_search() -> None:
    """With all the weight on the implicit value the visits follow the evaluation: the
    search differs from the plain one, and from another seed's only by its draws."""
    rules = load_game("sashimono")
    state = decision_after(rules, deal=8, plies=20, choices=3)
    seat = state.current_player

    def visits(spec: str) -> dict[Any, int]:
        agent: Any = make_agent(rules, spec, seed=5)
        agent.choose(state, seat, Budget(iterations=400))
        return {a: ch.visits for a, ch in agent.last_root.children.items()}

    plain = visits("ismcts:c=0.2")
    steered = visits("ismcts:c=0.2:implicit=1")
    assert plain != steered
    # every child's implicit value at the root is the evaluation's backup; the most
    # visited child under implicit=1 has the best of them (c small: little exploration)
    agent: Any = make_agent(rules, "ismcts:c=0.2:implicit=1", seed=5)
    agent.choose(state, seat, Budget(iterations=400))
    children = list(agent.last_root.children.values())
    most = max(children, key=lambda ch: ch.visits)
    assert most.implicit[seat] == max(ch.implicit[seat] for ch in children)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:implicit=1.5", "implicit must be a number from 0 to 1"),
        ("ismcts:implicit=-0.1", "implicit must be a number from 0 to 1"),
        ("mcts:implicit=/etc/passwd", "implicit must be a number from 0 to 1"),
        ("ismcts:implicit=true", "implicit must be a number from 0 to 1"),
        ("learned:prior=eval:implicit=0.2", "implicit needs prior=none"),
    ],
)
def test_a_bad_implicit_is_refused_by_the_library_and_the_server(spec: str, message: str) -> None:
    with pytest.raises(SengokuError, match=message):
        make_agent("sashimono", spec)
    # the server refuses before building the agent; a path, by its own check of values
    server = "option implicit is a name or a number, never a path" if "/" in spec else message
    with pytest.raises(SengokuError, match=server):
        resolve_ai(None, spec, "sashimono")
    assert resolve_ai(None, "ismcts:iterations=8:implicit=0.15", "sashimono")[0]
