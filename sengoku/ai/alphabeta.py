"""Alpha-beta search for two-player games (written for Gungi; it plays any two-player game).

Negamax with iterative deepening, a transposition table keyed on the game's position hash,
move ordering (the table's move, then the game's order key, e.g. captures of valuable
pieces first, then killer moves), quiescence search on noisy actions (captures), and time
control: a search stopped by its budget plays the best move of the last finished depth.

An iteration is one searched node, so an iteration budget is deterministic.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

from sengoku.ai.base import Agent, Budget, Clock, pick_legal
from sengoku.ai.eval import knowledge_with
from sengoku.core.game import Action, Game, SengokuError, State

WIN = 1000.0
EXACT, LOWER, UPPER = 0, 1, 2


class _Stop(Exception):
    """The budget ran out in the middle of a depth."""


class AlphaBetaAgent(Agent):
    name = "alphabeta"
    #: ``native``: 1 lets a game with a compiled core (Gungi) run this same search natively.
    #: ``eval``: the evaluation, for a game whose features offer others (``with_evaluation``:
    #: Gungi's ``learned``, tuned by ``sengoku train gungi --texel``); ``default`` is the
    #: game's own.
    defaults: dict[str, Any] = {
        "max_depth": 64,
        "quiescence": 4,
        "table_size": 200_000,
        "native": 0,
        "reuse": 0,
        "eval": "default",
    }
    default_budget = Budget(iterations=20_000)
    file_options: ClassVar[dict[str, frozenset[str]]] = {"eval": frozenset({"default", "learned"})}

    def __init__(self, game: Game, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed, **options)
        for key in ("max_depth", "quiescence", "table_size", "native", "reuse"):
            value = self.options[key]
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise SengokuError(f"agent 'alphabeta': {key} must be an integer >= 0")
        if self.options["max_depth"] < 1:
            raise SengokuError("agent 'alphabeta': max_depth must be at least 1")
        self.knowledge = knowledge_with(game, self.options["eval"], self.name)
        self.table: dict[Hashable, tuple[int, float, int, Action | None]] = {}
        self.killers: dict[int, list[Action]] = {}

    def choose(self, state: State, seat: int, budget: Budget | None = None) -> Action:
        world = self.observe(state, seat)
        if world.num_players != 2:
            raise SengokuError(
                f"agent 'alphabeta' plays two-player games; this one has {world.num_players}"
            )
        self.begin_turn_decision(state, seat)
        action = self.decide(state, world, seat, budget)
        self.end_turn_decision(state, seat, action)
        return action

    def decide(self, state: State, world: State, seat: int, budget: Budget | None) -> Action:
        legal = world.legal_actions()
        if len(legal) == 1:
            self.last_stats = {"nodes": 0, "depth": 0, "forced": True}
            return pick_legal(state, legal[0])
        self.clock = self.clock_for(self.turn_budget(world, seat, budget))
        # With ``reuse`` the transposition table carries over from the previous decision:
        # the positions searched below the move played (and the reply) are often met again,
        # with their bounds and best moves. Killers are per ply from the root, so they go.
        reused = len(self.table) if self.options["reuse"] else 0
        if not reused:
            self.table.clear()
        self.killers.clear()
        # Equal-valued root moves are shuffled once by the seed so play is not always the same.
        root_order = list(legal)
        self.rng.shuffle(root_order)
        root_order.sort(key=lambda a: -self.knowledge.order_key(world, a))
        if self.options["native"]:
            budget_now = self.clock.budget
            found = self.knowledge.native_search(
                world, list(root_order), self.options, budget_now.iterations, budget_now.seconds
            )
            if found is not None and int(found[1]["nodes"]) < self.floor:
                # The time ran out before the floor: search the floor's nodes instead.
                floor_search = self.knowledge.native_search(
                    world, root_order, self.options, self.floor, None
                )
                found = floor_search or found
            if found is not None:
                self.last_stats = found[1]
                return pick_legal(state, found[0])
        best: Action = root_order[0]
        best_value = 0.0
        depth_done = 0
        for depth in range(1, int(self.options["max_depth"]) + 1):
            try:
                value, action = self.root_search(world, depth, root_order, best)
            except _Stop:
                # A move that beat the previous best in the unfinished depth (searched
                # first) is better by that depth's reckoning; at depth 1 it is all we have.
                if self.partial is not None and (depth_done == 0 or self.partial[1] != best):
                    best_value, best = self.partial
                break
            best, best_value, depth_done = action, value, depth
            if abs(value) >= WIN - 100 or self.clock.exhausted():
                break
        self.last_stats = {
            "nodes": self.clock.count,
            "reused_entries": reused,
            "depth": depth_done,
            "value": best_value,
            "seconds": round(self.clock.elapsed, 4),
        }
        return pick_legal(state, best)

    def assess(self, state: State, seat: int, budget: Budget | None = None) -> float:
        """``seat``'s expected result in [0, 1] by this search from ``state``, whoever is to
        move (iterative deepening within ``budget``, the Python search): a proven win 1, a
        proven loss 0, else the evaluation's value mapped from [-1, 1]. It reads only
        ``state.determinize(seat, rng)`` (for a perfect-information game, a copy)."""
        world = state.determinize(seat, self.rng)
        if world.is_terminal():
            return (float(world.returns()[seat]) + 1.0) / 2.0
        mover = world.current_player
        self.clock = Clock(self.budget_for(budget), self.now, 0, 0, self.wall, self.ceiling_at)
        self.table.clear()
        self.killers.clear()
        order = list(world.legal_actions())
        order.sort(key=lambda a: -self.knowledge.order_key(world, a))
        best = order[0]
        value = self.knowledge.evaluate(world, mover)
        for depth in range(1, int(self.options["max_depth"]) + 1):
            try:
                value, best = self.root_search(world, depth, order, best)
            except _Stop:
                break
            if abs(value) >= WIN - 100 or self.clock.exhausted():
                break
        mine = value if mover == seat else -value
        self.last_stats = {"nodes": self.clock.count, "assessed": True}
        if mine >= WIN - 100:
            return 1.0
        if mine <= -(WIN - 100):
            return 0.0
        return (max(-1.0, min(1.0, mine)) + 1.0) / 2.0

    # -- search -------------------------------------------------------------------------

    def count_node(self) -> None:
        clock = self.clock
        clock.count += 1  # Clock.tick, inlined: this runs once per node
        # The clock is read every 8 nodes (a node can take a millisecond on a busy machine).
        if (clock.count & 7 == 0 or clock.budget.iterations is not None) and clock.exhausted():
            raise _Stop

    def root_search(
        self, state: State, depth: int, order: list[Action], previous: Action
    ) -> tuple[float, Action]:
        moves = [previous] + [a for a in order if a != previous]
        alpha, beta = -float("inf"), float("inf")
        best = moves[0]
        player = state.current_player
        self.partial: tuple[float, Action] | None = None
        for action in moves:
            value = self.child_value(state, action, player, depth - 1, alpha, beta, 0)
            if value > alpha:
                alpha, best = value, action
                self.partial = (alpha, best)
        # Keep the found best first next time (order is shared across depths).
        order.remove(best)
        order.insert(0, best)
        return alpha, best

    def child_value(
        self,
        state: State,
        action: Action,
        player: int,
        depth: int,
        alpha: float,
        beta: float,
        ply: int,
        quiescence: int | None = None,
    ) -> float:
        """The value for ``player`` (to move in ``state``) of playing ``action``."""
        child = state.clone()
        child.apply(action)
        if child.is_terminal():
            self.count_node()
            r = float(child.returns()[player])
            return r * (WIN - ply - 1) if r else 0.0
        if child.current_player == player:  # the same seat decides again
            if quiescence is not None:
                return self.quiesce(child, alpha, beta, ply + 1, quiescence)
            return self.negamax(child, depth, alpha, beta, ply + 1)
        if quiescence is not None:
            return -self.quiesce(child, -beta, -alpha, ply + 1, quiescence)
        return -self.negamax(child, depth, -beta, -alpha, ply + 1)

    def negamax(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value of ``state`` (not terminal) for the seat to move."""
        self.count_node()
        if depth <= 0:
            return self.quiesce(state, alpha, beta, ply, int(self.options["quiescence"]))
        key = self.knowledge.position_key(state)
        entry = self.table.get(key)
        tt_move = None
        alpha0 = alpha
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_value
                if e_flag == LOWER and e_value >= beta:
                    return e_value
                if e_flag == UPPER and e_value <= alpha:
                    return e_value
        player = state.current_player
        best_value = -float("inf")
        best_move: Action | None = None
        for action in self.ordered(state, tt_move, ply):
            value = self.child_value(state, action, player, depth - 1, alpha, beta, ply)
            if value > best_value:
                best_value, best_move = value, action
            if value > alpha:
                alpha = value
            if alpha >= beta:
                if not self.knowledge.is_noisy(state, action):
                    killers = self.killers.setdefault(ply, [])
                    if action not in killers:
                        killers.insert(0, action)
                        del killers[2:]
                break
        flag = UPPER if best_value <= alpha0 else LOWER if best_value >= beta else EXACT
        if len(self.table) >= int(self.options["table_size"]):
            self.table.clear()
        self.table[key] = (depth, best_value, flag, best_move)
        return best_value

    def quiesce(self, state: State, alpha: float, beta: float, ply: int, left: int) -> float:
        """Stand pat or resolve noisy actions (captures), ``left`` plies at most."""
        knowledge = self.knowledge
        player = state.current_player
        stand = knowledge.evaluate(state, player)
        if stand >= beta or left <= 0:
            return stand
        alpha = max(alpha, stand)
        # In legal order: a game's features may list them cheaper than is_noisy one by one.
        noisy = self.by_order_key(state, knowledge.noisy_actions(state))
        for action in noisy:
            value = self.child_value(state, action, player, 0, alpha, beta, ply, left - 1)
            if value >= beta:
                return value
            alpha = max(alpha, value)
        return alpha

    def ordered(self, state: State, tt_move: Action | None, ply: int) -> list[Action]:
        """The table's move first, then by order key (higher first), then killers; ties
        keep the legal order (a stable sort)."""
        legal = state.legal_actions()
        killers = self.killers.get(ply, [])
        if tt_move is None and not killers:
            # The first and last parts of the key would be the same for every action.
            return self.by_order_key(state, legal)
        keys = self.order_keys(state, legal)
        # Sorting (table move?, -order key, killer?, index) tuples: the index keeps ties in
        # legal order, as a stable sort on the first three would.
        decorated = sorted(
            zip(
                [0 if action == tt_move else 1 for action in legal],
                [-k for k in keys],
                [0 if action in killers else 1 for action in legal],
                range(len(legal)),
                strict=True,
            )
        )
        return [legal[entry[3]] for entry in decorated]

    def order_keys(self, state: State, actions: list[Action]) -> list[float]:
        """The features' order key of each action (one call: a game may do them in a pass)."""
        return self.knowledge.order_keys(state, actions)

    def by_order_key(self, state: State, actions: list[Action]) -> list[Action]:
        """``actions`` by order key, higher first; ties keep their order (stable sort)."""
        if len(actions) < 2:
            return list(actions)
        negated = [-k for k in self.order_keys(state, actions)]
        return [actions[i] for i in sorted(range(len(actions)), key=negated.__getitem__)]
