"""``learned``: IS-MCTS whose leaves are valued by the learned network instead of playouts.

Every iteration descends the information-set tree as ``ismcts`` does (in a perfect-information
game the determinization is the position itself, so it is plain UCT), then, instead of a
30-ply playout, plays ``rollout_depth`` plies of the game's rollout policy (default 0) and
asks the network for the value of the position reached, for the seat to act there, from
that seat's view. A playout costs about as much as 30 network evaluations' worth of moves,
so the same time buys many more iterations. Games of more than two seats fall back to
playouts (the network values one seat against the other).

Options, besides those of ``ismcts``: ``weights`` (``default``: the shipped
``sengoku/ai/weights/<game>.npz``, or a path). A game with no shipped network is searched
with playouts, as ``ismcts``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sengoku.ai.learned.model import Inputs, ValueNet, default_weights, load_net
from sengoku.ai.mcts import ISMCTSAgent, playout_values
from sengoku.core.game import Game, SengokuError, State


class LearnedAgent(ISMCTSAgent):
    name = "learned"
    defaults: dict[str, Any] = {**ISMCTSAgent.defaults, "rollout_depth": 0, "weights": "default"}

    def __init__(self, game: Game, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed, **options)
        weights = self.options["weights"]
        if not isinstance(weights, str):
            raise SengokuError("agent 'learned': weights must be 'default' or a path")
        path = default_weights(game.name) if weights == "default" else Path(weights)
        # A game with no shipped network (or no encoder) is played as plain IS-MCTS, so the
        # agent plays every game; a network named by path must exist.
        self.net: ValueNet | None = None
        if weights != "default" or path.is_file():
            self.net = load_net(path)
        self.inputs: Inputs | None = None
        self.inputs_options: Any = None

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
