"""Monte Carlo tree search: UCT with rollouts (``mcts``) and information-set MCTS (``ismcts``).

Both keep, in every node, the total return of every seat, so they play games of any number
of players (each seat maximises its own return, the max^n rule). Playouts follow the game's
rollout policy and, where the game sets a rollout depth, stop there and use its evaluation.

``mcts`` searches one determinization drawn at the root (for a perfect-information game,
the position itself). ``ismcts`` is single-observer IS-MCTS (Cowling, Powley and Whitehouse
2012): every iteration draws a fresh ``state.determinize(seat, rng)``, descends the tree
through the actions legal in that determinization, and counts for each child how often it
was available, so no branch profits from knowing what the seat cannot see.

**Search reuse** (option ``reuse=1``): after a decision the agent keeps the subtree below its
action, with one determinization of the position after it. At its next decision it walks
that subtree (its own later decisions of the turn, the other seats' replies) applying the
tree's actions to the kept world, and re-roots on the first node whose position looks, to
this seat, exactly like the state it is asked about (``view(seat)`` equal): for IS-MCTS that
is the information-set node of what the seat now sees. The visits found there carry over;
where no node matches (a hidden card drawn, a reply the tree never tried) the search
starts afresh. With iteration budgets the result stays a function of the seed and the calls.
"""

from __future__ import annotations

import heapq
import math
import random
from collections import deque
from collections.abc import Callable
from typing import Any, ClassVar

from sengoku.ai.base import Agent, Budget, Clock, pick_legal
from sengoku.ai.eval import knowledge_with
from sengoku.ai.tree import (
    FAST_SHUFFLE,
    Node,
    backpropagate,
    backup_implicit,
    best_child,
    descend,
    descend_available,
    index_last_after_shuffle,
    mean_value,
    playout,
    playout_values,
    pressed,
    select_available_uct,
    select_uct,
)
from sengoku.core.game import Action, Game, SengokuError, State

# The tree and its hot loop live in sengoku/ai/tree.py (compiled with mypyc where the package
# is built); these names are imported from here too.
__all__ = [
    "ISMCTSAgent",
    "MCTSAgent",
    "Node",
    "after_action",
    "backpropagate",
    "backup_implicit",
    "playout",
    "playout_values",
    "pressed",
]

#: Re-rooting looks at most this many positions of the seat, this many plies deep, through
#: the most visited children of each node (the reply actually played is nearly always one).
REUSE_LOOKS = 64
REUSE_DEPTH = 8
REUSE_WIDTH = 24
#: With a floor, a decision whose reused tree already holds the floor's visits with this
#: share on one action is settled: it is played at once (a "trivial" decision).
SETTLED_SHARE = 0.9
#: The searches' default pressure for a result (option ``pressure``): a leaf's value counts
#: ``(1 - PRESSURE) ** depth`` of its distance from a draw's worth, ``depth`` its plies below
#: the root (:func:`pressed`).
PRESSURE = 0.01
#: Belief: positions a particle's explanation may expand before the particle is dropped.
BELIEF_EXPANSIONS = 32
#: Belief: after this many particles none of which is explained, the belief gives up.
BELIEF_GIVE_UP = 3


class MCTSAgent(Agent):
    """UCT with rollouts on one determinization of the position."""

    name = "mcts"
    #: Every iteration of a decision searches one determinization (IS-MCTS: a fresh one each).
    one_world: ClassVar[bool] = True
    #: ``eval``: the evaluation at the end of a playout, for a game whose features offer
    #: others (``with_evaluation``: Sashimono's and Gungi's ``learned``); ``default`` is the
    #: game's own.
    #: ``rollout``: the playout policy, for a game whose features offer others
    #: (``rollout_policies``: Sashimono's ``informed``); ``default`` is the game's own.
    defaults: dict[str, Any] = {
        "c": 0.7,
        "rollout_depth": "game",
        "reuse": 0,
        "eval": "default",
        "rollout": "default",
        "implicit": 0.0,
        "prior_visits": 0,
        "pressure": PRESSURE,
    }
    default_budget = Budget(iterations=1000)
    file_options: ClassVar[dict[str, frozenset[str]]] = {"eval": frozenset({"default", "learned"})}

    def __init__(self, game: Game, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed, **options)
        if self.options["reuse"] not in (0, 1, False, True):
            raise SengokuError(f"agent {self.name!r}: reuse must be 0 or 1")
        #: The subtree kept for the next decision: (node, world at it, seat).
        self.kept: tuple[Node, State, int] | None = None
        self.last_root: Node | None = None
        c = self.options["c"]
        if not isinstance(c, int | float) or c < 0:
            raise SengokuError(f"agent {self.name!r}: c must be a number >= 0, got {c!r}")
        self.knowledge = knowledge_with(game, self.options["eval"], self.name)
        rollout = self.options["rollout"]
        if not isinstance(rollout, str):
            raise SengokuError(f"agent {self.name!r}: rollout must be a name")
        try:
            self.knowledge = self.knowledge.with_rollout(rollout)
        except SengokuError as exc:
            raise SengokuError(f"agent {self.name!r}: {exc}") from exc
        #: The weight of the implicit minimax value against the mean return in selection.
        self.implicit = self.number_option("implicit", 0, 1)
        #: How many playouts a new node's evaluation counts as in its mean (Gelly and Silver
        #: 2007's prior knowledge; 0: none).
        self.prior_visits = self.number_option("prior_visits", 0, 1000)
        #: How much sooner results count than later ones (:func:`pressed`; 0: not at all).
        self.pressure = self.number_option("pressure", 0, 0.5)
        #: The plies of the last playout (``leaf_values``), for the pressure.
        self.playout_plies = 0
        # Without a move ordering (the generic order_key: every action 0.0) the stable sort in
        # expansion_order keeps the shuffled order, so it is skipped.
        self.ordered = self.knowledge.orders_moves
        depth = self.options["rollout_depth"]
        if depth == "game":
            self.rollout_depth = self.knowledge.rollout_depth
        elif depth is None or (isinstance(depth, int) and depth >= 0):
            self.rollout_depth = depth
        else:
            raise SengokuError(
                f"agent {self.name!r}: rollout_depth must be 'game', null or an integer >= 0"
            )

    def number_option(self, key: str, low: float, high: float) -> float:
        """Option ``key``, a number from ``low`` to ``high`` (a bool, text or path is refused)."""
        value = self.options[key]
        if (
            not isinstance(value, int | float)
            or isinstance(value, bool)
            or not low <= value <= high
        ):
            raise SengokuError(
                f"agent {self.name!r}: {key} must be a number from {low:g} to {high:g}, "
                f"got {value!r}"
            )
        return float(value)

    def choose(self, state: State, seat: int, budget: Budget | None = None) -> Action:
        world = self.observe(state, seat)
        legal = world.legal_actions()
        if len(legal) == 1:
            return self.forced(state, seat, legal[0])
        return self.search(state, seat, budget, world.num_players, lambda: world, world)

    def forced(self, state: State, seat: int, action: Action) -> Action:
        """A decision with one legal action: no search, no time (the kept tree stays)."""
        self.begin_turn_decision(state, seat)
        chosen = pick_legal(state, action)
        self.last_stats = {"iterations": 0, "forced": True}
        self.remember(state, seat, chosen)
        self.end_turn_decision(state, seat, chosen)
        return chosen

    def remember(self, state: State, seat: int, action: Action) -> None:
        """After a decision: what the next one may start from (IS-MCTS: the belief)."""

    def search(
        self,
        state: State,
        seat: int,
        budget: Budget | None,
        num_players: int,
        next_world: Callable[[], State],
        world: State,
    ) -> Action:
        """Iterate from one root until the budget is spent; the most visited action.

        ``next_world`` gives the position each iteration searches: the one determinization
        for MCTS, a fresh one per iteration for IS-MCTS; ``world`` is one of them (to probe
        the turn's length with). The root is the kept subtree where it matches (``reuse``).
        """
        self.begin_turn_decision(state, seat)
        found = self.reused_root(state, seat) if self.options["reuse"] else None
        if found is None:
            root = Node(None, seat, num_players)
        else:
            root, kept_world = found
            if self.one_world:
                # The kept subtree was grown in the kept world: below the root it holds
                # actions of that determinization (another draw of the hidden tiles), so
                # the search goes on in it. It looks to the seat exactly as ``state``.
                world = kept_world
                next_world = lambda: kept_world  # noqa: E731
        reused = root.visits
        if root.children and self.turn is not None and self.settled(root):
            clock = self.clock_for(Budget(iterations=1), reused)
        else:
            clock = self.clock_for(self.turn_budget(world, seat, budget), reused)
            while True:
                self.iterate(root, next_world(), seat)
                clock.tick()
                if clock.exhausted():
                    break
        best = self.best_child(root)
        #: The searched root (its children's visits are a policy head's training target).
        self.last_root = root
        self.last_stats = {
            "iterations": clock.count,
            "reused": reused,
            "root_visits": root.visits,
            "seconds": round(clock.elapsed, 4),
            "visits": best.visits,
            "value": best.totals[seat] / max(best.visits, 1),
        }
        chosen = pick_legal(state, best.action)
        if self.options["reuse"]:
            self.keep(best, state, seat, chosen, world if self.one_world else None)
        self.remember(state, seat, chosen)
        self.end_turn_decision(state, seat, chosen)
        return chosen

    def assess(self, state: State, seat: int, budget: Budget | None = None) -> float:
        """``seat``'s expected result in [0, 1] by this agent's own search from ``state``,
        whoever is to act, on what ``seat`` may see: as its own search, one
        ``state.determinize(seat, rng)`` for ``mcts``, a fresh one every iteration for
        ``ismcts``. The value is the mean return to ``seat`` of the most visited action of
        the seat to act (its best reply, as the search sees it)."""
        if state.is_terminal():
            return (float(state.returns()[seat]) + 1.0) / 2.0
        root = Node(None, state.current_player, state.num_players)
        clock = Clock(self.budget_for(budget), self.now, 0, 0, self.wall, self.ceiling_at)
        world = state.determinize(seat, self.rng)
        fresh = isinstance(self, ISMCTSAgent)
        while True:
            self.iterate(root, state.determinize(seat, self.rng) if fresh else world, seat)
            clock.tick()
            if clock.exhausted():
                break
        if not root.children:
            return root.totals[seat] / max(root.visits, 1)
        best = self.best_child(root)
        self.last_stats = {"iterations": clock.count, "assessed": True}
        return best.totals[seat] / max(best.visits, 1)

    def clock_for(self, budget: Budget | None, count: int = 0) -> Clock:
        """As :meth:`Agent.clock_for`, the floor counting the ``count`` reused visits."""
        floor = max(0, self.floor - count)
        if budget is None:
            return Clock(
                Budget(iterations=max(floor, 1)), self.now, 0, 0, self.wall, self.ceiling_at
            )
        return Clock(budget, self.now, floor, 0, self.wall, self.ceiling_at)

    def settled(self, root: Node) -> bool:
        """The reused tree already decides: the floor's visits, and one action holding
        :data:`SETTLED_SHARE` of them."""
        if self.floor <= 0 or root.visits < self.floor:
            return False
        best = max(ch.visits for ch in root.children.values())
        return best >= SETTLED_SHARE * sum(ch.visits for ch in root.children.values())

    # -- search reuse -------------------------------------------------------------------

    def keep(
        self, node: Node, state: State, seat: int, action: Action, searched: State | None = None
    ) -> None:
        """Keep ``node`` (the chosen action's subtree) with a world after ``action``: the
        world it was grown in (``searched``, plain MCTS's one determinization: below the node
        are actions of that world, such as the seat's own later draws), else a fresh
        determinization of the position after it (IS-MCTS: its nodes hold what was available
        in any world)."""
        if searched is not None:
            after = after_action(searched, seat, node.action)
            self.kept = None if after is None else (node, after, seat)
            return
        after = after_action(state, seat, action)
        self.kept = None if after is None else (node, after.determinize(seat, self.probe_rng), seat)

    def reused_root(self, state: State, seat: int) -> tuple[Node, State] | None:
        """The kept subtree's node whose position ``seat`` sees exactly as ``state``, with the
        kept world brought to it, or None."""
        kept, self.kept = self.kept, None
        if kept is None or kept[2] != seat:
            return None
        target = state.view(seat)
        frontier: deque[tuple[Node, State, int]] = deque([(kept[0], kept[1], 0)])
        looked = 0
        while frontier:
            node, world, depth = frontier.popleft()
            if world.is_terminal():
                continue
            if world.current_player == seat:
                if world.view(seat) == target:
                    node.action = None  # the new root
                    return node, world
                looked += 1
                if looked >= REUSE_LOOKS:
                    return None
            if depth >= REUSE_DEPTH:
                continue
            children = sorted(node.children.values(), key=lambda ch: -ch.visits)
            for child in children[:REUSE_WIDTH]:
                after = world.clone()
                try:
                    # This world's own action equal to the child's (see ``descend_available``).
                    after.apply(pick_legal(after, child.action))
                except SengokuError:
                    continue  # not legal in this world (another determinization's action)
                frontier.append((child, after, depth + 1))
        return None

    def leaf_values(self, state: State) -> list[float]:
        """Each seat's value in [0, 1] of a new leaf (``state`` may be changed): a playout by
        the game's rollout policy; a learned agent evaluates with its network instead."""
        values, self.playout_plies = playout(state, self.knowledge, self.rng, self.rollout_depth)
        return values

    def evaluated(self, state: State) -> list[float]:
        """Each seat's value in [0, 1] of ``state`` by the evaluation alone (its returns if
        the game is over): a new node's implicit minimax value."""
        n = state.num_players
        if state.is_terminal():
            returns = state.returns()
            return [(float(returns[s]) + 1.0) / 2.0 for s in range(n)]
        return [(self.knowledge.evaluate(state, s) + 1.0) / 2.0 for s in range(n)]

    def finish(self, path: list[Node], leaf: State) -> None:
        """Count the iteration: the new leaf's evaluation as its prior and implicit value
        (before its playout changes ``leaf``), its playout's values in every node of
        ``path``, the implicit backups."""
        if self.implicit or self.prior_visits:
            value = self.evaluated(leaf)
            if self.prior_visits:
                path[-1].prior = value
            if self.implicit:
                path[-1].implicit = value
                backpropagate(path, self.pressed_leaf(path, leaf))
                backup_implicit(path)
                return
        backpropagate(path, self.pressed_leaf(path, leaf))

    def pressed_leaf(self, path: list[Node], leaf: State) -> list[float]:
        """The new leaf's values (:meth:`leaf_values`), pressed by its distance from the
        root: the path's plies and the playout's (:func:`pressed`)."""
        self.playout_plies = 0
        values = self.leaf_values(leaf)
        return pressed(values, len(path) - 1 + self.playout_plies, self.pressure)

    def mean(self, child: Node, player: int) -> float:
        """What selection reads of ``child`` for ``player``: its mean return, with its prior
        counted as ``prior_visits`` playouts and its implicit value weighed in."""
        return mean_value(child, player, self.prior_visits, self.implicit)

    def expansion_order(self, state: State, actions: list[Action]) -> list[Action]:
        """Untried actions, the one to expand first last: random, but by the game's move
        ordering first (captures before quiet moves, so a winning capture is tried early)."""
        order = list(actions)
        self.rng.shuffle(order)
        if self.ordered:
            order.sort(key=lambda a: self.knowledge.order_key(state, a))
        return order

    def index_to_expand(self, state: State, actions: list[Action]) -> int:
        """The index in ``actions`` of ``expansion_order(state, actions)[-1]``, drawing the
        same random numbers."""
        if not self.ordered and FAST_SHUFFLE and type(self.rng) is random.Random:
            return index_last_after_shuffle(self.rng, len(actions))
        first = self.expansion_order(state, actions)[-1]
        return next(i for i, a in enumerate(actions) if a is first)

    def best_child(self, root: Node) -> Node:
        """Most visits, then best mean; the children's insertion order is deterministic."""
        return best_child(root)

    def select(self, node: Node, candidates: list[Node], parent_visits: int) -> Node:
        """UCB1 over ``candidates`` for the seat choosing at ``node``."""
        c = float(self.options["c"])
        return select_uct(
            candidates, node.player, parent_visits, c, self.prior_visits, self.implicit
        )

    def iterate(self, root: Node, world: State, seat: int) -> None:
        """One iteration from ``root`` (sengoku/ai/tree.py's :func:`descend`)."""
        descend(self, root, world)


def after_action(state: State, seat: int, action: Action) -> State | None:
    """``state`` after ``seat``'s own ``action`` (a copy), to be determinized for ``seat``:
    what it holds beyond the seat's view is never read, since only ``determinize(seat)`` of
    it is used. None if the action does not apply."""
    after = state.clone()
    try:
        after.apply(action)
    except SengokuError:
        return None
    return after


class ISMCTSAgent(MCTSAgent):
    """Single-observer information-set MCTS: a fresh determinization every iteration.

    **Belief** (option ``belief=1``): after each decision the agent draws
    ``belief_particles`` determinizations of the position its action leads to. At its next
    decision it explains, for each, the other seats' actions since (a best-first search
    through their legal actions, the likeliest first, to a position that its seat sees
    exactly as the state it is asked about) and weighs the particle by how likely those
    actions were under a simple opponent model: a softmax, at ``belief_temperature``, over
    the evaluation of each action's result for the seat that chose it. A particle that no
    sequence explains within :data:`BELIEF_EXPANSIONS` expansions is dropped. Half of the
    search's iterations then start from a surviving particle drawn by weight (a copy), the
    other half from a fresh uniform determinization. The belief looks back one turn of the
    other seats: the particles are drawn afresh after each own decision.
    """

    name = "ismcts"
    one_world: ClassVar[bool] = False
    defaults: dict[str, Any] = {
        **MCTSAgent.defaults,
        "belief": 0,
        "belief_particles": 16,
        "belief_temperature": 0.1,
    }

    def __init__(self, game: Game, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed, **options)
        if self.options["belief"] not in (0, 1, False, True):
            raise SengokuError("agent 'ismcts': belief must be 0 or 1")
        particles = self.options["belief_particles"]
        if not isinstance(particles, int) or isinstance(particles, bool) or particles < 1:
            raise SengokuError("agent 'ismcts': belief_particles must be an integer >= 1")
        temperature = self.options["belief_temperature"]
        if not isinstance(temperature, int | float) or temperature <= 0:
            raise SengokuError("agent 'ismcts': belief_temperature must be a number above 0")
        #: Determinizations after the agent's last action (seat, worlds), to be explained.
        self.particles: tuple[int, list[State]] | None = None
        self.belief_rng = random.Random(seed ^ 0xBE11EF)

    def choose(self, state: State, seat: int, budget: Budget | None = None) -> Action:
        if state.is_terminal() or state.current_player != seat:
            self.observe(state, seat)  # raises the clear error
        beliefs = self.update_belief(state, seat) if self.options["belief"] else []
        legal: list[Action] = state.legal_actions()
        if len(legal) == 1:
            return self.forced(state, seat, legal[0])
        world = state.determinize(seat, self.probe_rng) if self.turn is not None else state
        next_world: Callable[[], State] = lambda: state.determinize(seat, self.rng)  # noqa: E731
        if beliefs:
            worlds = [w for w, _ in beliefs]
            weights = [p for _, p in beliefs]
            rng = self.belief_rng

            def next_world() -> State:
                if rng.random() < 0.5:
                    return rng.choices(worlds, weights)[0].clone()
                return state.determinize(seat, self.rng)

        return self.search(state, seat, budget, state.num_players, next_world, world)

    # -- belief -------------------------------------------------------------------------

    def remember(self, state: State, seat: int, action: Action) -> None:
        if not self.options["belief"]:
            return
        after = after_action(state, seat, action)
        if after is None:
            self.particles = None
            return
        count = int(self.options["belief_particles"])
        self.particles = (seat, [after.determinize(seat, self.belief_rng) for _ in range(count)])

    def update_belief(self, state: State, seat: int) -> list[tuple[State, float]]:
        """The particles that explain ``state`` for ``seat``, advanced to it, with their
        normalised weights (empty: nothing to go on, sample uniformly)."""
        kept, self.particles = self.particles, None
        if kept is None or kept[0] != seat:
            return []
        target = state.view(seat)
        found: list[tuple[State, float]] = []
        for i, world in enumerate(kept[1]):
            if i >= BELIEF_GIVE_UP and not found:
                break  # nothing explains what happened (a chance event the search cannot see)
            explained = self.explain(world, seat, target)
            if explained is not None:
                found.append(explained)
        total = sum(w for _, w in found)
        self.belief_stats = {"particles": len(kept[1]), "explained": len(found)}
        if total <= 0:
            return []
        return [(w, p / total) for w, p in found]

    def explain(self, world: State, seat: int, target: Any) -> tuple[State, float] | None:
        """The likeliest run of the other seats' actions from ``world`` to a position that
        ``seat`` sees as ``target``: (that position, the run's probability), or None."""
        counter = 0
        heap: list[tuple[float, int, State]] = [(0.0, counter, world)]
        expansions = 0
        while heap and expansions < BELIEF_EXPANSIONS:
            cost, _, w = heapq.heappop(heap)
            if w.is_terminal():
                continue
            if w.current_player == seat:
                if w.view(seat) == target:
                    return w, math.exp(-cost)
                continue
            expansions += 1
            for child, p in self.opponent_model(w):
                counter += 1
                heapq.heappush(heap, (cost - math.log(max(p, 1e-12)), counter, child))
        return None

    def opponent_model(self, state: State) -> list[tuple[State, float]]:
        """Each legal action's result with its probability: a softmax over the evaluation of
        the result for the seat to act."""
        mover = state.current_player
        children: list[State] = []
        values: list[float] = []
        for action in state.legal_actions():
            child = state.clone()
            child.mute()
            child.apply(action)
            children.append(child)
            values.append(self.knowledge.evaluate(child, mover))
        t = float(self.options["belief_temperature"])
        top = max(values)
        exps = [math.exp((v - top) / t) for v in values]
        total = sum(exps)
        return [(c, e / total) for c, e in zip(children, exps, strict=True)]

    def iterate(self, root: Node, world: State, seat: int) -> None:
        """One iteration in ``world``, a fresh determinization (sengoku/ai/tree.py's
        :func:`descend_available`)."""
        descend_available(self, root, world)

    def select_available(self, node: Node, candidates: list[Node], player: int) -> Node:
        """UCB over the children available in this world, for ``player``, the seat to act."""
        c = float(self.options["c"])
        return select_available_uct(candidates, player, c, self.prior_visits, self.implicit)
