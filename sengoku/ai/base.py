"""The agent protocol: built from a game, options and a seed; asked for an action per state.

An agent only ever looks at ``state.view(seat)``-equivalent information: agents for
hidden-information games must work on ``state.determinize(seat, rng)``, never on the
true state's hidden parts.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from sengoku.core.game import Action, Game, State


@dataclass(frozen=True)
class Budget:
    """How much thinking an agent may do for one decision: iterations and/or seconds."""

    iterations: int | None = None
    seconds: float | None = None


class Agent(ABC):
    """Base class: ``choose(state, seat, budget)`` returns one legal action for ``seat``."""

    name = "agent"

    def __init__(self, game: Game, seed: int = 0, **options: Any) -> None:
        self.game = game
        self.options = options
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, state: State, seat: int, budget: Budget | None = None) -> Action:
        """One legal action for ``seat`` in ``state``."""


class RandomAgent(Agent):
    """Uniformly random legal actions: the baseline every other agent must beat."""

    name = "random"

    def choose(self, state: State, seat: int, budget: Budget | None = None) -> Action:
        return self.rng.choice(state.legal_actions())
