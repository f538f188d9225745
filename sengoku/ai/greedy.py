"""Greedy: one ply of lookahead on the game's evaluation function."""

from __future__ import annotations

from sengoku.ai.base import Agent, Budget, pick_legal
from sengoku.ai.eval import knowledge_for
from sengoku.core.game import Action, SengokuError, State


class GreedyAgent(Agent):
    """Plays the action whose resulting position evaluates best for its seat.

    ``epsilon`` is the chance of a uniformly random action instead (a beginner's slips).
    Ties are broken at random by the agent's own generator.
    """

    name = "greedy"
    defaults = {"epsilon": 0.0}
    default_budget = Budget(iterations=1)

    def __init__(self, game, seed: int = 0, **options):  # type: ignore[no-untyped-def]
        super().__init__(game, seed, **options)
        eps = self.options["epsilon"]
        if not isinstance(eps, int | float) or not 0.0 <= float(eps) <= 1.0:
            raise SengokuError(f"agent 'greedy': epsilon must be in [0, 1], got {eps!r}")
        self.knowledge = knowledge_for(game)

    def choose(self, state: State, seat: int, budget: Budget | None = None) -> Action:
        world = self.observe(state, seat)
        legal = world.legal_actions()
        if self.rng.random() < float(self.options["epsilon"]):
            return pick_legal(state, self.rng.choice(legal))
        best: list[Action] = []
        best_value = -float("inf")
        for action in legal:
            child = world.clone()
            child.apply(action)
            value = self.knowledge.evaluate(child, seat)
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        self.last_stats = {"evaluated": len(legal), "value": best_value}
        return pick_legal(state, self.rng.choice(best))
