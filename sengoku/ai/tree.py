"""The search tree's hot loop: nodes, selection, backups, playouts and the descent of one
iteration, for ``mcts`` and ``ismcts`` (sengoku/ai/mcts.py holds the agents).

This module is compiled with mypyc where the package is built (``[tool.sengoku] compiled``
in pyproject.toml; sengoku/compiled.py): :class:`Node` becomes a native class, and the loops
run as C. It holds no agent class: the agents stay plain Python classes that other agents
subclass. The descent calls back into its agent for what an agent may change (the expansion
order, the leaf's values); selection reads the agent's constants once per iteration.
``SENGOKU_PURE_PYTHON=1`` runs this source instead, with the same results
(tests/ai/test_mcts_compiled.py).
"""

from __future__ import annotations

import math
import random

from sengoku.core.features import Features
from sengoku.core.game import Action, State

# Not typing.TYPE_CHECKING: the agents import this module (type checkers read the constant).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from sengoku.ai.mcts import ISMCTSAgent, MCTSAgent


def index_last_after_shuffle(rng: random.Random, n: int) -> int:
    """For a list ``x`` of ``n >= 1`` items: the index of the item that ``rng.shuffle(x)``
    leaves last, drawing exactly the numbers that shuffle draws, without shuffling.

    ``Random.shuffle`` swaps ``x[i]`` with ``x[randbelow(i + 1)]`` for ``i = n-1 .. 1``; only
    the first swap touches the last place, and the rest still advance the generator, so they
    are drawn (by the same ``getrandbits`` calls CPython's shuffle makes) and thrown away.
    Only for a plain ``random.Random`` whose shuffle this reproduces (:data:`FAST_SHUFFLE`).
    """
    if n < 2:
        return n - 1
    getrandbits = rng.getrandbits
    k = n.bit_length()  # randbelow(m): the first k-bit draw below m
    picked = getrandbits(k)
    while picked >= n:
        picked = getrandbits(k)
    m = n - 1
    while m > 1:
        # The bounds m .. low share the bit length k: one block without bit_length calls.
        k = m.bit_length()
        low = max(1 << (k - 1), 2)
        for bound in range(m, low - 1, -1):
            r = getrandbits(k)
            while r >= bound:
                r = getrandbits(k)
        m = low - 1
    return picked


def reproduces_shuffle() -> bool:
    """Whether :func:`index_last_after_shuffle` reproduces this interpreter's
    ``Random.shuffle``: checked once, through the public API only, on a few seeded lists
    (the same last item, and the generator left in the same state)."""
    for n in (1, 2, 3, 5, 17, 64, 129):
        for seed in (0, 1):
            shuffled, fast = random.Random(seed), random.Random(seed)
            items = list(range(n))
            shuffled.shuffle(items)
            if index_last_after_shuffle(fast, n) != items[-1]:
                return False
            if shuffled.getstate() != fast.getstate():
                return False
    return True


#: Whether ``index_last_after_shuffle`` reproduces this interpreter's ``Random.shuffle``.
FAST_SHUFFLE = reproduces_shuffle()


class Node:
    __slots__ = (
        "action",
        "player",
        "children",
        "untried",
        "visits",
        "totals",
        "available",
        "seen_legal",
        "seen_found",
        "seen_untried",
        "logits",
        "implicit",
        "prior",
    )

    # Defaults only so that copy and pickle can make an empty node to fill: compiled, the
    # class's __new__ runs __init__ (without arguments, for them).
    def __init__(
        self, action: Action | None = None, player: int = -1, num_players: int = 0
    ) -> None:
        self.action = action
        #: The seat that chooses among this node's children.
        self.player = player
        self.children: dict[Action, Node] = {}
        self.untried: list[Action] | None = None
        self.visits = 0
        self.totals = [0.0] * num_players
        self.available = 0
        # IS-MCTS: the legal actions met here last time (a copy), each one's child or None,
        # and the positions of those without one. A determinization usually offers the
        # same actions again, and then these are read instead of looking up every action.
        self.seen_legal: list[Action] | None = None
        self.seen_found: list[Node | None] = []
        self.seen_untried: list[int] = []
        # PUCT searches (``learned`` with priors): each action's prior logit, computed the
        # first time the action is met here.
        self.logits: dict[Action, float] | None = None
        # Implicit minimax backups (option ``implicit``): each seat's value in [0, 1] by the
        # evaluation of the position this node was made at, backed up by max^n over its
        # children; None until the node is made in a search that uses them.
        self.implicit: list[float] | None = None
        # Prior knowledge (option ``prior_visits``): each seat's value in [0, 1] by the
        # evaluation of the position this node was made at, counted in its mean as that many
        # playouts; None until the node is made in a search that uses it.
        self.prior: list[float] | None = None


def pressed(values: list[float], depth: int, pressure: float) -> list[float]:
    """Leaf ``values`` (each seat's, in [0, 1]) found ``depth`` plies below the root, drawn
    towards a draw's worth (0.5) by ``(1 - pressure) ** depth``: the sooner a result comes,
    the more it counts, so of two wins the search prefers the shorter (and of two losses
    the longer). This is the search's pressure for a result (docs/ai.md, "Pressing for a
    result")."""
    if not pressure or depth <= 0:
        return values
    keep = (1.0 - pressure) ** depth
    return [0.5 + (v - 0.5) * keep for v in values]


def backpropagate(path: list[Node], values: list[float]) -> None:
    """Count an iteration's leaf ``values`` (one per seat) in every node of its ``path``."""
    for node in path:
        node.visits += 1
        totals = node.totals
        for s, v in enumerate(values):
            totals[s] += v


def backup_implicit(path: list[Node]) -> None:
    """Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant 2014): from the new
    leaf up, each node's ``implicit`` values become those of its child best for the seat that
    chooses there (max^n over the evaluations of the positions below). A node whose chooser
    is unknown (-1: made where the game had ended) keeps its own."""
    for node in reversed(path[:-1]):
        mover = node.player
        if mover < 0:
            continue
        best: list[float] | None = None
        for child in node.children.values():
            values = child.implicit
            if values is not None and (best is None or values[mover] > best[mover]):
                best = values
        if best is not None:
            node.implicit = best


def playout(
    state: State, knowledge: Features, rng: random.Random, depth: int | None
) -> tuple[list[float], int]:
    """Play the rollout policy from ``state`` (changed in place): each seat's value in
    [0, 1], and the plies played."""
    plies = 0
    while not state.is_terminal() and (depth is None or plies < depth):
        state.apply(knowledge.rollout_action(state, rng))
        plies += 1
    n = state.num_players
    if state.is_terminal():
        returns = state.returns()
        return [(float(returns[s]) + 1.0) / 2.0 for s in range(n)], plies
    return [(knowledge.evaluate(state, s) + 1.0) / 2.0 for s in range(n)], plies


def playout_values(
    state: State, knowledge: Features, rng: random.Random, depth: int | None
) -> list[float]:
    """Play the rollout policy from ``state`` (changed in place); each seat's value in [0, 1]."""
    return playout(state, knowledge, rng, depth)[0]


def mean_value(child: Node, player: int, prior_visits: float, implicit: float) -> float:
    """What selection reads of ``child`` for ``player``: its mean return, with its prior
    counted as ``prior_visits`` playouts and its implicit value weighed in by ``implicit``
    (both 0: the plain mean)."""
    total, visits = child.totals[player], child.visits
    prior = child.prior
    if prior is not None and prior_visits:
        mean = (total + prior_visits * prior[player]) / (visits + prior_visits)
    else:
        mean = total / visits
    if implicit and child.implicit is not None:
        mean = (1.0 - implicit) * mean + implicit * child.implicit[player]
    return mean


def select_uct(
    candidates: list[Node],
    player: int,
    parent_visits: int,
    c: float,
    prior_visits: float,
    implicit: float,
) -> Node:
    """UCB1 over ``candidates`` (each visited) for ``player``: the first of the best."""
    log_n = math.log(max(parent_visits, 1))
    best = candidates[0]
    best_score = -float("inf")
    plain = not (implicit or prior_visits)
    for child in candidates:
        if plain:
            mean = child.totals[player] / child.visits
        else:
            mean = mean_value(child, player, prior_visits, implicit)
        score = mean + c * math.sqrt(log_n / child.visits)
        if score > best_score:
            best, best_score = child, score
    return best


def select_available_uct(
    candidates: list[Node], player: int, c: float, prior_visits: float, implicit: float
) -> Node:
    """IS-MCTS's UCB over the children available in this world, for ``player`` (the seat to
    act): each child's exploration counts the times it was available, not its parent's
    visits."""
    best = candidates[0]
    best_score = -float("inf")
    plain = not (implicit or prior_visits)
    for child in candidates:
        if plain:
            mean = child.totals[player] / child.visits
        else:
            mean = mean_value(child, player, prior_visits, implicit)
        score = mean + c * math.sqrt(math.log(max(child.available, 1)) / child.visits)
        if score > best_score:
            best, best_score = child, score
    return best


def best_child(root: Node) -> Node:
    """The root's child to play: most visits, then best mean for the seat choosing there (the
    children's insertion order, deterministic, breaks ties)."""
    player = root.player

    def key(child: Node) -> tuple[int, float]:
        return child.visits, child.totals[player] / max(child.visits, 1)

    return max(root.children.values(), key=key)


def descend(agent: MCTSAgent, root: Node, world: State) -> None:
    """One iteration of ``mcts`` from ``root`` on a copy of ``world``: down the tree by UCB
    to a node with an untried action, that action expanded, the leaf's values counted
    (``agent.finish``)."""
    c = float(agent.options["c"])
    prior_visits, implicit = agent.prior_visits, agent.implicit
    state = world.clone()
    state.mute()  # the iteration reads no event: the game need not build them
    path = [root]
    node = root
    while True:
        if state.is_terminal():
            break
        if node.untried is None:
            node.untried = agent.expansion_order(state, state.legal_actions())
        if node.untried:
            action = node.untried.pop()
            state.apply(action)
            child = Node(action, state.current_player, state.num_players)
            node.children[action] = child
            path.append(child)
            break
        candidates = list(node.children.values())
        node = select_uct(candidates, node.player, node.visits, c, prior_visits, implicit)
        state.apply(node.action)
        path.append(node)
    agent.finish(path, state)


def descend_available(agent: ISMCTSAgent, root: Node, world: State) -> None:
    """One iteration of ``ismcts`` from ``root`` in ``world`` (a fresh determinization, changed
    in place): down through the actions legal in this world, counting each legal child as
    available, to the first untried one, expanded; the leaf's values counted."""
    c = float(agent.options["c"])
    prior_visits, implicit = agent.prior_visits, agent.implicit
    state = world  # a fresh determinization, ours to change
    state.mute()  # the iteration reads no event: the game need not build them
    path = [root]
    node = root
    while not state.is_terminal():
        legal = state.legal_actions()
        if legal == node.seen_legal:
            found, untried_at = node.seen_found, node.seen_untried
        else:
            children = node.children
            # Each legal action's child, or None if not expanded yet.
            found = [children.get(a) for a in legal] if children else [None] * len(legal)
            untried_at = [i for i, ch in enumerate(found) if ch is None]
            node.seen_legal, node.seen_found, node.seen_untried = legal[:], found, untried_at
        if untried_at:
            k = agent.index_to_expand(state, [legal[i] for i in untried_at])
            at = untried_at.pop(k)
            action = legal[at]
            state.apply(action)
            child = Node(action, state.current_player, state.num_players)
            node.children[action] = child
            # Every legal action's child was available this time: the old ones and the
            # new one (legal actions are distinct: ascending action numbers).
            for ch in found:
                if ch is not None:
                    ch.available += 1
            child.available += 1
            found[at] = child
            path.append(child)
            break
        candidates: list[Node] = []
        for ch in found:
            assert ch is not None  # no untried action left: every legal one has its child
            ch.available += 1
            candidates.append(ch)
        # The seat choosing is this world's: a node first reached in a world where the
        # game had ended holds no seat (-1, which would read the last seat's totals), and
        # who acts next can depend on what the searcher cannot see.
        player = state.current_player
        node = select_available_uct(candidates, player, c, prior_visits, implicit)
        # This world's own action, not the node's (made in another world): equal actions
        # may differ in what else they carry, and ``apply`` takes only the world's (a
        # Sashimono "done" that ends a card's actions in one world is "end", placing no more
        # Kumi, in another, where the hidden cards asked another question).
        for i in range(len(found)):
            if found[i] is node:
                state.apply(legal[i])
                break
        path.append(node)
    agent.finish(path, state)
