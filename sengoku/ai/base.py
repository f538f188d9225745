"""The agent protocol: built from a game, options and a seed; asked for an action per state.

An agent only ever looks at what its seat may see. Agents for hidden-information games work
on ``state.determinize(seat, rng)``, never on the true state's hidden parts: every searching agent
here first replaces the state it is given by a determinization drawn from its own
generator (for perfect-information games that is a plain copy), so the choice depends only
on ``view(seat)``, the agent's seed and its budget. (``random`` reads only the seat's own
legal actions, which the seat may see.)

With an iteration budget (and no time limit) the same seed and the same inputs give the
same action; a time budget trades that for a fixed thinking time.

**Time per turn.** A *turn* is a run of consecutive decisions by the same seat (Gunshi's card,
unit and direction; Gunkimono's tile and troop choices). With the option ``turn_seconds`` an
agent shares one budget over the decisions of a turn (:class:`TurnTimer`): each decision gets
the time left divided by the decisions it expects still to make in the turn, a forced
decision (one legal action) takes none, and ``floor`` iterations are searched whatever the
clock says, so a loaded machine never makes a timed level weaker than a fixed-budget one.

**Two clocks.** A budget in seconds is counted in CPU time of the searching thread (the
agent's ``now``, ``time.thread_time``), so that a loaded machine, which gives the search
less of each second, does not make it weaker. What a player waits for is wall-clock time:
the option ``ceiling`` bounds a turn's wall time (the agent's ``wall``,
``time.perf_counter``), shared over the turn's decisions like ``turn_seconds``, and the floor
and every budget yield to it (a search stops at its ceiling after at least one iteration).
Tests inject their own ``now`` and ``wall``.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from sengoku.ai.eval import knowledge_for
from sengoku.core.features import Features
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


Now = Callable[[], float]


class Clock:
    """Counts iterations and watches the time limit of one decision.

    ``floor``: iterations done before the time limit may stop the search (an iteration
    budget still stops it); ``count`` may start above 0 (visits a reused tree brings).
    ``now`` reads the budget's seconds (CPU time of the searching thread); ``wall`` and
    ``ceiling`` (a ``wall`` time, or None) bound the wall-clock time: past the ceiling the
    search stops once it has done one iteration, whatever the floor and the budget say.
    """

    def __init__(
        self,
        budget: Budget,
        now: Now = time.thread_time,
        floor: int = 0,
        count: int = 0,
        wall: Now = time.perf_counter,
        ceiling: float | None = None,
    ) -> None:
        self.budget = budget
        self.now = now
        self.floor = floor
        self.count = count
        self.start = now()
        self.deadline = None if budget.seconds is None else self.start + budget.seconds
        self.wall = wall
        self.ceiling = ceiling
        self.started = self.count

    def tick(self, n: int = 1) -> None:
        self.count += n

    def exhausted(self) -> bool:
        if self.budget.iterations is not None and self.count >= self.budget.iterations:
            return True
        if self.past_ceiling():
            return True
        if self.count < self.floor:
            return False
        return self.deadline is not None and self.now() >= self.deadline

    def past_ceiling(self) -> bool:
        """The wall-clock ceiling has passed, and this search did an iteration."""
        return (
            self.ceiling is not None and self.count > self.started and self.wall() >= self.ceiling
        )

    def out_of_time(self) -> bool:
        return (self.deadline is not None and self.now() >= self.deadline) or self.past_ceiling()

    @property
    def elapsed(self) -> float:
        return self.now() - self.start


class TurnTimer:
    """One budget of ``seconds`` (CPU time, or None: no time per turn) and one wall-clock
    ``ceiling`` (or None) shared over the decisions of a turn.

    A decision continues the turn when the state it is asked about is the one the agent's
    own last action led to, still with the same seat to act (compared through
    ``view(seat)``, which is all the seat sees); anything else starts a new turn. Each
    decision gets ``left / decisions_left`` of both, where ``decisions_left`` is the number
    of choices (more than one legal action) the seat still expects to make this turn.
    """

    def __init__(
        self,
        seconds: float | None,
        now: Now,
        ceiling: float | None = None,
        wall: Now = time.perf_counter,
    ) -> None:
        if seconds is not None and seconds <= 0:
            raise SengokuError(f"turn_seconds must be positive, got {seconds}")
        if ceiling is not None and ceiling <= 0:
            raise SengokuError(f"ceiling must be positive, got {ceiling}")
        self.seconds = seconds
        self.now = now
        self.ceiling = ceiling
        self.wall = wall
        self.spent = 0.0
        self.wall_spent = 0.0
        self.decisions = 0
        self.expect: tuple[int, Any] | None = None

    def begin(self, state: State, seat: int) -> bool:
        """Start a decision; True when it continues the turn of the previous one."""
        same = self.expect is not None and self.expect == (seat, state.view(seat))
        if not same:
            self.spent = 0.0
            self.wall_spent = 0.0
            self.decisions = 0
        self.expect = None
        return same

    def allot(self, decisions_left: float) -> float:
        """CPU seconds for this decision (0.0 when the turn's time is spent)."""
        if self.seconds is None:
            return 0.0
        left = self.seconds - self.spent
        if left <= 0:
            return 0.0
        return left / max(1.0, decisions_left)

    def allot_wall(self, decisions_left: float) -> float | None:
        """Wall-clock seconds this decision may take at most (None: no ceiling)."""
        if self.ceiling is None:
            return None
        return max(0.0, self.ceiling - self.wall_spent) / max(1.0, decisions_left)

    def end(
        self, state: State, seat: int, action: Action, seconds: float, wall_seconds: float = 0.0
    ) -> None:
        """Count the decision's time; remember what the turn looks like after ``action``."""
        self.spent += seconds
        self.wall_spent += wall_seconds
        self.decisions += 1
        after = state.clone()
        try:
            after.apply(action)
        except SengokuError:
            return
        if not after.is_terminal() and after.current_player == seat:
            self.expect = (seat, after.view(seat))


class Agent(ABC):
    """Base class: ``choose(state, seat, budget)`` returns one legal action for ``seat``.

    Options every agent accepts: ``iterations`` and ``seconds`` (its default budget when
    ``choose`` is given none), ``turn_seconds`` (a time per turn shared over its decisions,
    see :class:`TurnTimer`; it replaces ``seconds``), ``floor`` (iterations a timed search
    always does, however little time is left) and ``ceiling`` (the most wall-clock seconds
    a turn may take; the floor and the budgets yield to it). Unknown options are refused with
    the list of known ones.
    """

    name = "agent"
    #: Options this agent understands, with their defaults (besides iterations/seconds).
    defaults: dict[str, Any] = {}
    #: The budget used when neither ``choose`` nor the options give one.
    default_budget = Budget(iterations=1000)
    #: Options that name a file (weights, an evaluation), with the names of the files that
    #: ship in the package. The library also takes a path there (a network trained on the
    #: user's disk); a server takes only these names (``sengoku.server.ai.resolve_ai``).
    file_options: ClassVar[dict[str, frozenset[str]]] = {}

    def __init__(self, game: Game, seed: int = 0, **options: Any) -> None:
        known = {"iterations", "seconds", "turn_seconds", "floor", "ceiling", *self.defaults}
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
        #: The clock every budget in seconds reads: CPU time of the searching thread (tests
        #: inject their own).
        self.now: Now = time.thread_time
        #: The wall clock the ceiling reads (tests inject their own).
        self.wall: Now = time.perf_counter
        #: This decision's wall-clock ceiling (a ``wall`` time), set by :meth:`turn_budget`.
        self.ceiling_at: float | None = None
        floor = options.get("floor", 0)
        if not isinstance(floor, int) or isinstance(floor, bool) or floor < 0:
            raise SengokuError(f"agent {self.name!r}: floor must be an integer >= 0, got {floor!r}")
        self.floor: int = floor
        turn = options.get("turn_seconds")
        if turn is not None and (
            not isinstance(turn, int | float) or isinstance(turn, bool) or turn <= 0
        ):
            raise SengokuError(f"agent {self.name!r}: turn_seconds must be a number above 0")
        ceiling = options.get("ceiling")
        if ceiling is not None and (
            not isinstance(ceiling, int | float) or isinstance(ceiling, bool) or ceiling <= 0
        ):
            raise SengokuError(f"agent {self.name!r}: ceiling must be a number of seconds above 0")
        self.turn: TurnTimer | None = (
            None
            if turn is None and ceiling is None
            else TurnTimer(
                None if turn is None else float(turn),
                self.now,
                None if ceiling is None else float(ceiling),
                self.wall,
            )
        )
        if turn is not None and iterations is None and seconds is None:
            self.budget = Budget(seconds=float(turn))
        # Probes of the turn's length use their own generator, so the search's stays as it is.
        self.probe_rng = random.Random(seed ^ 0x5EC0)

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

    # -- judging a position (draw offers) -----------------------------------------------

    #: Determinizations the one-ply agents average their evaluation over in :meth:`assess`.
    ASSESS_SAMPLES = 8

    def assess(self, state: State, seat: int, budget: Budget | None = None) -> float:
        """``seat``'s expected result of ``state`` in [0, 1] (0.5: a draw's worth, every
        return 0), whoever is to act, judged only from what ``seat`` may see: every position
        it reads is ``state.determinize(seat, rng)``. This default averages the game's
        evaluation over a few determinizations; the searching agents search
        (:mod:`sengoku.ai.draws` reads it to answer a draw offer)."""
        if state.is_terminal():
            return (float(state.returns()[seat]) + 1.0) / 2.0
        knowledge: Features = getattr(self, "knowledge", None) or knowledge_for(self.game)
        total = 0.0
        for _ in range(self.ASSESS_SAMPLES):
            world = state.determinize(seat, self.rng)
            total += (knowledge.evaluate(world, seat) + 1.0) / 2.0
        return total / self.ASSESS_SAMPLES

    # -- time per turn ------------------------------------------------------------------

    def begin_turn_decision(self, state: State, seat: int) -> None:
        """Call first in ``choose`` (agents with ``turn_seconds``): the turn's bookkeeping."""
        self.ceiling_at = None
        if self.turn is not None:
            self.turn.now, self.turn.wall = self.now, self.wall
            self.turn.begin(state, seat)
            self._decision_start = self.now()
            self._decision_wall = self.wall()

    def end_turn_decision(self, state: State, seat: int, action: Action) -> None:
        if self.turn is not None:
            self.turn.end(
                state,
                seat,
                action,
                self.now() - self._decision_start,
                self.wall() - self._decision_wall,
            )

    def turn_budget(self, world: State, seat: int, budget: Budget | None) -> Budget | None:
        """The budget of this decision: ``budget`` if the caller gave one, else with
        ``turn_seconds`` this decision's share of the turn's time left (None: no time at all
        is left, only the floor), else the agent's own. With a ``ceiling``, this decision's
        share of the turn's wall time left becomes its ceiling (:attr:`ceiling_at`)."""
        if self.turn is None:
            return self.budget_for(budget)
        left = self.decisions_left(world, seat)
        share = self.turn.allot_wall(left)
        self.ceiling_at = None if share is None else self._decision_wall + share
        if budget is not None or self.turn.seconds is None:
            return self.budget_for(budget)
        seconds = self.turn.allot(left)
        if seconds <= 0:
            return None
        return Budget(self.budget.iterations, seconds)

    def decisions_left(self, world: State, seat: int, probes: int = 3, cap: int = 12) -> float:
        """How many choices ``seat`` expects to make this turn, this one included: the mean
        over a few playouts of the turn by the game's rollout policy (forced ones left out)."""
        knowledge = getattr(self, "knowledge", None)
        total = 0
        for _ in range(probes):
            probe = world.clone()
            probe.mute()
            count = 0
            while not probe.is_terminal() and probe.current_player == seat and count < cap:
                legal = probe.legal_actions()
                if len(legal) > 1:
                    count += 1
                action = (
                    knowledge.rollout_action(probe, self.probe_rng)
                    if knowledge is not None
                    else self.probe_rng.choice(legal)
                )
                probe.apply(action)
            total += count
        return max(1.0, total / probes)

    def clock_for(self, budget: Budget | None, count: int = 0) -> Clock:
        """The clock of one search: ``budget`` (None: no time left, only the floor)."""
        if budget is None:
            budget, floor = Budget(iterations=max(self.floor, count, 1)), 0
        else:
            floor = self.floor
        return Clock(budget, self.now, floor, count, self.wall, self.ceiling_at)

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
