"""``learned``: IS-MCTS whose leaves are valued by the learned network instead of playouts.

Every iteration descends the information-set tree as ``ismcts`` does (in a perfect-information
game the determinization is the position itself, so it is plain UCT), then, instead of a
30-ply playout, plays ``rollout_depth`` plies of the game's rollout policy (default 0) and
asks the network for the value of the position reached, for the seat to act there, from
that seat's view. A playout costs about as much as 30 network evaluations' worth of moves,
so the same time buys many more iterations. Games of more than two seats fall back to
playouts (the network values one seat against the other).

Options, besides those of ``ismcts``: ``weights`` (``default``: the shipped
``sengoku/games/<game>/data/weights/<game>.npz``, or a path). A game with no shipped network is searched
with playouts, as ``ismcts``.

**Priors** (``prior``, default ``none``): with ``eval``, ``net`` or ``policy`` the tree is
searched by PUCT instead of UCB. At a node, every action legal in the iteration's
determinization gets a logit the first time it is met there: the value, for the seat that
chooses it, of the position it leads to, over ``prior_temperature`` (``eval``: the hand-made
evaluation; ``net``: the value network on that seat's view), or the score of the policy head
(``policy``: ``policy=default``, the shipped ``<game>_policy.npz``, or a path). The descent
takes the action with the highest ``Q + c_puct P sqrt(N + 1) / (1 + n)``, ``P`` the softmax
of the logits over the legal actions, an untried action valued as its node so far. The
afterstates are the searcher's own determinization's, as everything IS-MCTS reads.
``policy_depth=D`` (default 0: every node) asks the policy head only at nodes fewer than ``D``
plies below the root searched, and the evaluation (``eval``) deeper: encoding every
afterstate's view costs about half an iteration again, and the head's scores start as the
evaluation's over the same temperature, so the two priors are on one scale.
``settle=0`` spends every decision's share of the turn even where a reused tree has already
settled it.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from sengoku.ai.learned.model import Inputs, ValueNet, default_policy, default_weights, load_net
from sengoku.ai.mcts import ISMCTSAgent, Node, backpropagate, playout_values, pressed
from sengoku.core.game import Action, Game, SengokuError, State

#: Where the prior of an action comes from (option ``prior``).
PRIORS = ("none", "eval", "net", "policy")


class LearnedAgent(ISMCTSAgent):
    name = "learned"
    defaults: dict[str, Any] = {
        **ISMCTSAgent.defaults,
        "rollout_depth": 0,
        "weights": "default",
        "policy": "default",
        "prior": "none",
        "prior_temperature": 0.1,
        "c_puct": 1.5,
        "settle": 1,
        "policy_depth": 0,
    }
    file_options: ClassVar[dict[str, frozenset[str]]] = {
        **ISMCTSAgent.file_options,
        "weights": frozenset({"default"}),
        "policy": frozenset({"default"}),
    }

    def __init__(self, game: Game, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed, **options)
        weights = self.options["weights"]
        if not isinstance(weights, str):
            raise SengokuError("agent 'learned': weights must be 'default' or a path")
        path = default_weights(game) if weights == "default" else Path(weights)
        # A game with no shipped network (or no encoder) is played as plain IS-MCTS, so the
        # agent plays every game; a network named by path must exist.
        self.net: ValueNet | None = None
        if weights != "default" or path.is_file():
            self.net = load_net(path)
        self.inputs: Inputs | None = None
        self.inputs_options: Any = None
        prior = self.options["prior"]
        if prior not in PRIORS:
            raise SengokuError(f"agent 'learned': prior must be one of {', '.join(PRIORS)}")
        self.policy: ValueNet | None = None
        if prior == "policy":
            source = self.options["policy"]
            if not isinstance(source, str):
                raise SengokuError("agent 'learned': policy must be 'default' or a path")
            policy_path = default_policy(game) if source == "default" else Path(source)
            if source != "default" or policy_path.is_file():
                self.policy = load_net(policy_path)
            else:
                prior = "eval"  # no policy head for this game: the evaluation is the prior
        if prior == "net" and self.net is None:
            prior = "eval"  # no network for this game: the evaluation is the prior
        self.prior: str = prior
        if prior != "none" and self.implicit:
            # PUCT's selection has no place for the implicit value (it is UCT's).
            raise SengokuError("agent 'learned': implicit needs prior=none")
        if prior != "none" and self.prior_visits:
            # PUCT has its own priors; prior_visits is UCT's.
            raise SengokuError("agent 'learned': prior_visits needs prior=none")
        temperature = self.options["prior_temperature"]
        if not isinstance(temperature, int | float) or temperature <= 0:
            raise SengokuError("agent 'learned': prior_temperature must be a number above 0")
        self.temperature = float(temperature)
        c_puct = self.options["c_puct"]
        if not isinstance(c_puct, int | float) or c_puct < 0:
            raise SengokuError("agent 'learned': c_puct must be a number >= 0")
        self.c_puct = float(c_puct)
        if self.options["settle"] not in (0, 1, False, True):
            raise SengokuError("agent 'learned': settle must be 0 or 1")
        depth = self.options["policy_depth"]
        if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
            raise SengokuError("agent 'learned': policy_depth must be a whole number >= 0")
        self.policy_depth = depth

    def inputs_for(self, state: State) -> Inputs:
        if self.inputs is None or self.inputs_options != state.options:
            self.inputs = Inputs(self.game, dict(state.options))
            self.inputs_options = dict(state.options)
            if self.net is not None and self.inputs.size != self.net.inputs:
                raise SengokuError(
                    f"agent 'learned': the network takes {self.net.inputs} inputs, "
                    f"{self.game.name} with these options gives {self.inputs.size}"
                )
        return self.inputs

    def leaf_values(self, state: State) -> list[float]:
        if state.num_players != 2 or self.net is None:
            return playout_values(state, self.knowledge, self.rng, self.rollout_depth)
        depth = self.rollout_depth or 0
        plies = 0
        while not state.is_terminal() and plies < depth:
            state.apply(self.knowledge.rollout_action(state, self.rng))
            plies += 1
        if state.is_terminal():
            returns = state.returns()
            return [(float(returns[s]) + 1.0) / 2.0 for s in range(2)]
        seat = state.current_player
        value = float(self.net.forward(self.inputs_for(state).encode(state, seat)))
        mine = (value + 1.0) / 2.0
        return [mine, 1.0 - mine] if seat == 0 else [1.0 - mine, mine]

    def settled(self, root: Node) -> bool:
        # ``settle=0``: a reused tree never settles a decision early, so the turn's time is
        # spent (network leaves fill the floor's visits fast, so with settling on the agent
        # left a fifth of its time unused: docs/ai.md).
        return bool(self.options["settle"]) and super().settled(root)

    # -- PUCT with priors ---------------------------------------------------------------

    def action_logits(
        self,
        state: State,
        player: int,
        actions: list[Action],
        into: dict[Action, float],
        depth: int = 0,
    ) -> None:
        """Each action's prior logit for ``player``, the seat choosing in ``state`` (the
        searcher's determinization): the value, for that seat, of the position the action
        leads to, over the temperature. ``net``: the network on that seat's view of it;
        ``eval``: the hand-made evaluation; ``policy``: the head's score, at nodes ``depth``
        plies below the root when that is under ``policy_depth`` (or it is 0)."""
        afters: list[State] = []
        values: list[float | None] = []
        for action in actions:
            after = state.clone()
            after.apply(action)
            if after.is_terminal():
                values.append(float(after.returns()[player]))
            else:
                values.append(None)
                afters.append(after)
        scored: list[float] = []
        near = self.policy_depth == 0 or depth < self.policy_depth
        if afters and self.policy is not None and near:
            # The policy head's scores are logits already (its scale was trained).
            inputs = self.inputs_for(state)
            batch = np.stack([inputs.encode(after, player) for after in afters])
            raw = iter(float(v) for v in self.policy.logits(batch))
            for action, value in zip(actions, values, strict=True):
                into[action] = next(raw) if value is None else value / self.temperature
            return
        if afters:
            if self.prior == "net" and self.net is not None:
                inputs = self.inputs_for(state)
                batch = np.stack([inputs.encode(after, player) for after in afters])
                scored = [float(v) for v in self.net.forward(batch)]
            else:
                scored = [self.knowledge.evaluate(after, player) for after in afters]
        it = iter(scored)
        t = self.temperature
        for action, value in zip(actions, values, strict=True):
            into[action] = (next(it) if value is None else value) / t

    def iterate(self, root: Node, world: State, seat: int) -> None:
        if self.prior == "none":
            super().iterate(root, world, seat)
            return
        state = world  # a fresh determinization, ours to change
        path = [root]
        node = root
        c = self.c_puct
        while not state.is_terminal():
            legal = state.legal_actions()
            player = state.current_player
            if node.player != player:
                # The node was made where another determinization had ended the game (no
                # seat to act): the seat acting here is the one that chooses.
                node.player = player
            logits = node.logits
            if logits is None:
                logits = node.logits = {}
            missing = [a for a in legal if a not in logits]
            if missing:
                self.action_logits(state, player, missing, logits, len(path) - 1)
            top = max(logits[a] for a in legal)
            weights = [math.exp(logits[a] - top) for a in legal]
            scale = c * math.sqrt(node.visits + 1) / sum(weights)
            # An action not tried yet is valued as the node itself so far (first-play urgency).
            fpu = node.totals[player] / node.visits if node.visits else 0.5
            children = node.children
            best_action = legal[0]
            best_child: Node | None = None
            best_score = -math.inf
            for action, weight in zip(legal, weights, strict=True):
                child = children.get(action)
                if child is None:
                    score = fpu + scale * weight
                else:
                    child.available += 1
                    score = child.totals[player] / child.visits + scale * weight / (
                        1 + child.visits
                    )
                if score > best_score:
                    best_action, best_child, best_score = action, child, score
            state.apply(best_action)
            if best_child is None:
                best_child = Node(best_action, state.current_player, state.num_players)
                best_child.available = 1
                children[best_action] = best_child
                path.append(best_child)
                break
            node = best_child
            path.append(node)
        backpropagate(path, pressed(self.leaf_values(state), len(path) - 1, self.pressure))
