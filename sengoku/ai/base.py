"""The agent protocol: built from a game, options and a seed; asked for an action per state.

An agent only ever looks at what its seat may see. Agents for hidden-information games work
on ``state.determinize(seat, rng)``, never on the true state's hidden parts: every searching agent
here first replaces the state it is given by a determinization drawn from its own
generator (for perfect-information games that is a plain copy), so the choice depends only
on ``view(seat)``, the agent's seed and its budget. (``random`` reads only the seat's own
legal actions, which the seat may see.)

With an iteration budget (and no time limit) the same seed and the same inputs give the
same action; a time budget trades that for a fixed thinking time.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from sengoku.core.game import Action, Game, SengokuError, State


@dataclass(frozen=True)
class Budget:
    """How much thinking an agent may do for one decision: iterations and/or seconds.

    With both set, the agent stops at whichever limit comes first. What an "iteration" is
    depends on the agent: a playout for MCTS, a searched node for alpha-beta.
    """

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is not None and self.iterations < 1:
            raise SengokuError(f"budget: iterations must be at least 1, got {self.iterations}")
        if self.seconds is not None and self.seconds <= 0:
            raise SengokuError(f"budget: seconds must be positive, got {self.seconds}")

    @property
    def deterministic(self) -> bool:
        """True when only iterations limit the search (same seed, same move)."""
        return self.seconds is None


class Clock:
    """Counts iterations and watches the time limit of one decision."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.count = 0
        self.start = time.perf_counter()
        self.deadline = None if budget.seconds is None else self.start + budget.seconds

    def tick(self, n: int = 1) -> None:
        self.count += n

    def exhausted(self) -> bool:
        if self.budget.iterations is not None and self.count >= self.budget.iterations:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start


class Agent(ABC):
    """Base class: ``choose(state, seat, budget)`` returns one legal action for ``seat``.

    Options every agent accepts: ``iterations`` and ``seconds`` (its default budget when
    ``choose`` is given none). Unknown options are refused with the list of known ones.
    """

    name = "agent"
    #: Options this agent understands, with their defaults (besides iterations/seconds).
    defaults: dict[str, Any] = {}
    #: The budget used when neither ``choose`` nor the options give one.
    default_budget = Budget(iterations=1000)

    def __init__(self, game: Game, seed: int = 0, **options: Any) -> None:
        known = {"iterations", "seconds", *self.defaults}
        unknown = sorted(set(options) - known)
        if unknown:
            raise SengokuError(
                f"agent {self.name!r}: unknown option(s) {', '.join(map(repr, unknown))}; "
                f"known: {', '.join(sorted(known))}"
            )
        self.game = game
        self.seed = seed
        self.options: dict[str, Any] = {**self.defaults, **options}
        self.rng = random.Random(seed)
        iterations = options.get("iterations")
        seconds = options.get("seconds")
        self.budget = (
            Budget(
                None if iterations is None else int(iterations),
                None if seconds is None else float(seconds),
            )
            if iterations is not None or seconds is not None
            else self.default_budget
        )
        #: Statistics of the last decision (iterations, seconds, agent-specific figures).
        self.last_stats: dict[str, Any] = {}

    @abstractmethod
    def choose(self, state: State, seat: int, budget: Budget | None = None) -> Action:
        """One legal action for ``seat`` in ``state``."""

    def observe(self, state: State, seat: int) -> State:
        """The agent's own picture of ``state``: hidden parts resampled from ``seat``'s view."""
        if state.is_terminal():
            raise SengokuError("the game is over: there is nothing to choose")
        if state.current_player != seat:
            raise SengokuError(
                f"seat {seat} asked to choose, but seat {state.current_player} is to act"
            )
        return state.determinize(seat, self.rng)

    def budget_for(self, budget: Budget | None) -> Budget:
        return budget if budget is not None else self.budget

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "seed": self.seed, "options": dict(self.options)}


def pick_legal(state: State, action: Action) -> Action:
    """The action of ``state``'s legal list equal to ``action`` (from a determinization)."""
    candidates: list[Action] = state.legal_actions()
    for legal in candidates:
        if legal == action:
            return legal
    raise SengokuError(f"agent chose {action}, which is not legal in the real state")


class RandomAgent(Agent):
    """Uniformly random legal actions: the baseline every other agent must beat."""

    name = "random"

    def choose(self, state: State, seat: int, budget: Budget | None = None) -> Action:
        action: Action = self.rng.choice(state.legal_actions())
        return action
