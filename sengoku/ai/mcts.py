"""Monte Carlo tree search: UCT with rollouts (``mcts``) and information-set MCTS (``ismcts``).

Both keep, in every node, the total return of every seat, so they play games of any number
of players (each seat maximises its own return, the max^n rule). Playouts follow the game's
rollout policy and, where the game sets a rollout depth, stop there and use its evaluation.

``mcts`` searches one determinization drawn at the root (for a perfect-information game,
the position itself). ``ismcts`` is single-observer IS-MCTS (Cowling, Powley and Whitehouse
2012): every iteration draws a fresh ``state.determinize(seat, rng)``, descends the tree
through the actions legal in that determinization, and counts for each child how often it
was available, so no branch profits from knowing what the seat cannot see.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from sengoku.ai.base import Agent, Budget, Clock, pick_legal
from sengoku.ai.eval import Knowledge, knowledge_for
from sengoku.core.game import Action, Game, SengokuError, State


class Node:
    __slots__ = ("action", "player", "children", "untried", "visits", "totals", "available")

    def __init__(self, action: Action | None, player: int, num_players: int) -> None:
        self.action = action
        #: The seat that chooses among this node's children.
        self.player = player
        self.children: dict[Action, Node] = {}
        self.untried: list[Action] | None = None
        self.visits = 0
        self.totals = [0.0] * num_players
        self.available = 0


def playout_values(
    state: State, knowledge: Knowledge, rng: random.Random, depth: int | None
) -> list[float]:
    """Play the rollout policy from ``state`` (changed in place); each seat's value in [0, 1]."""
    plies = 0
    while not state.is_terminal() and (depth is None or plies < depth):
        state.apply(knowledge.rollout_action(state, rng))
        plies += 1
    n = state.num_players
    if state.is_terminal():
        returns = state.returns()
        return [(float(returns[s]) + 1.0) / 2.0 for s in range(n)]
    return [(knowledge.evaluate(state, s) + 1.0) / 2.0 for s in range(n)]


class MCTSAgent(Agent):
    """UCT with rollouts on one determinization of the position."""

    name = "mcts"
    defaults: dict[str, Any] = {"c": 0.7, "rollout_depth": "game"}
    default_budget = Budget(iterations=1000)

    def __init__(self, game: Game, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed, **options)
        c = self.options["c"]
        if not isinstance(c, int | float) or c < 0:
            raise SengokuError(f"agent {self.name!r}: c must be a number >= 0, got {c!r}")
        self.knowledge = knowledge_for(game)
        depth = self.options["rollout_depth"]
        if depth == "game":
            self.rollout_depth = self.knowledge.rollout_depth
        elif depth is None or (isinstance(depth, int) and depth >= 0):
            self.rollout_depth = depth
        else:
            raise SengokuError(
                f"agent {self.name!r}: rollout_depth must be 'game', null or an integer >= 0"
            )

    def choose(self, state: State, seat: int, budget: Budget | None = None) -> Action:
        world = self.observe(state, seat)
        legal = world.legal_actions()
        if len(legal) == 1:
            self.last_stats = {"iterations": 0}
            return pick_legal(state, legal[0])
        return self.search(state, seat, budget, world.num_players, lambda: world)

    def search(
        self,
        state: State,
        seat: int,
        budget: Budget | None,
        num_players: int,
        next_world: Callable[[], State],
    ) -> Action:
        """Iterate from one root until the budget is spent; the most visited action.

        ``next_world`` gives the position each iteration searches: the one determinization
        for MCTS, a fresh one per iteration for IS-MCTS.
        """
        clock = Clock(self.budget_for(budget))
        root = Node(None, seat, num_players)
        while True:
            self.iterate(root, next_world(), seat)
            clock.tick()
            if clock.exhausted():
                break
        best = self.best_child(root)
        self.last_stats = {
            "iterations": clock.count,
            "seconds": round(clock.elapsed, 4),
            "visits": best.visits,
            "value": best.totals[seat] / max(best.visits, 1),
        }
        return pick_legal(state, best.action)

    def expansion_order(self, state: State, actions: list[Action]) -> list[Action]:
        """Untried actions, the one to expand first last: random, but by the game's move
        ordering first (captures before quiet moves, so a winning capture is tried early)."""
        order = list(actions)
        self.rng.shuffle(order)
        order.sort(key=lambda a: self.knowledge.order_key(state, a))
        return order

    def best_child(self, root: Node) -> Node:
        # Most visits, then best mean; the children's insertion order is deterministic.
        return max(
            root.children.values(),
            key=lambda ch: (ch.visits, ch.totals[root.player] / max(ch.visits, 1)),
        )

    def select(self, node: Node, candidates: list[Node], parent_visits: int) -> Node:
        c = float(self.options["c"])
        log_n = math.log(max(parent_visits, 1))
        best = candidates[0]
        best_score = -float("inf")
        for child in candidates:
            mean = child.totals[node.player] / child.visits
            score = mean + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def iterate(self, root: Node, world: State, seat: int) -> None:
        state = world.clone()
        path = [root]
        node = root
        while True:
            if state.is_terminal():
                break
            if node.untried is None:
                node.untried = self.expansion_order(state, state.legal_actions())
            if node.untried:
                action = node.untried.pop()
                state.apply(action)
                child = Node(action, state.current_player, state.num_players)
                node.children[action] = child
                path.append(child)
                break
            node = self.select(node, list(node.children.values()), node.visits)
            state.apply(node.action)
            path.append(node)
        values = playout_values(state, self.knowledge, self.rng, self.rollout_depth)
        for n in path:
            n.visits += 1
            for s, v in enumerate(values):
                n.totals[s] += v


class ISMCTSAgent(MCTSAgent):
    """Single-observer information-set MCTS: a fresh determinization every iteration."""

    name = "ismcts"

    def choose(self, state: State, seat: int, budget: Budget | None = None) -> Action:
        if state.is_terminal() or state.current_player != seat:
            self.observe(state, seat)  # raises the clear error
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_stats = {"iterations": 0}
            return legal[0]
        return self.search(
            state, seat, budget, state.num_players, lambda: state.determinize(seat, self.rng)
        )

    def iterate(self, root: Node, world: State, seat: int) -> None:
        state = world  # a fresh determinization, ours to change
        path = [root]
        node = root
        while not state.is_terminal():
            legal = state.legal_actions()
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = self.expansion_order(state, untried)[-1]
                state.apply(action)
                child = Node(action, state.current_player, state.num_players)
                node.children[action] = child
                for a in legal:
                    if a in node.children:
                        node.children[a].available += 1
                path.append(child)
                break
            candidates = [node.children[a] for a in legal]
            for child in candidates:
                child.available += 1
            node = self.select_available(node, candidates)
            state.apply(node.action)
            path.append(node)
        values = playout_values(state, self.knowledge, self.rng, self.rollout_depth)
        for n in path:
            n.visits += 1
            for s, v in enumerate(values):
                n.totals[s] += v

    def select_available(self, node: Node, candidates: list[Node]) -> Node:
        c = float(self.options["c"])
        best = candidates[0]
        best_score = -float("inf")
        for child in candidates:
            mean = child.totals[node.player] / child.visits
            score = mean + c * math.sqrt(math.log(max(child.available, 1)) / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best
