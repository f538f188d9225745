"""How the computer answers a draw offer: by its own judgement of the position.

An AI seat asked to agree a draw judges the position from its seat's view with its own
agent (the level's evaluation and search, :meth:`sengoku.ai.base.Agent.assess`): the
position it reads is always ``state.determinize(seat, rng)``, so it knows no more than it
may see. Its judgement is its expected result on the scale of the searches' values, from 0
(a sure loss) to 1 (a sure win); a draw is worth 0.5 there for any number of players (every
return 0, the middle of the ranks). It accepts when that value is below
:data:`DRAW_ACCEPT_BELOW` (0.45: it takes a draw only when it expects clearly less than a
draw's worth, its winning chances under 45% in a two-player game), else it declines.

The judgement searches at least :data:`ASSESS_ITERATIONS` iterations (alpha-beta:
:data:`ASSESS_NODES` nodes) or the level's own budget if larger, within
:data:`ASSESS_SECONDS` of CPU time and :data:`ASSESS_CEILING` wall-clock seconds, so that the
answer of a level with a tiny budget (Gunshi's level 2 searches 5 iterations a decision) is
not a coin flip, and comes within about a second. Only the answer leaves this module: the
value stays with the caller (the server never sends it).
"""

from __future__ import annotations

from sengoku.ai.alphabeta import AlphaBetaAgent
from sengoku.ai.base import Agent, Budget
from sengoku.core.game import State

#: An AI seat accepts a draw when its expected result (0 loss .. 1 win) is below this.
DRAW_ACCEPT_BELOW = 0.45
#: The least search behind a judgement: IS-MCTS / MCTS iterations, alpha-beta nodes.
ASSESS_ITERATIONS = 200
ASSESS_NODES = 2000
#: The most CPU seconds and wall-clock seconds a judgement takes.
ASSESS_SECONDS = 1.0
ASSESS_CEILING = 3.0


def assess_budget(agent: Agent) -> Budget:
    """The budget of ``agent``'s judgement: its own iterations, at least the minimum."""
    least = ASSESS_NODES if isinstance(agent, AlphaBetaAgent) else ASSESS_ITERATIONS
    own = agent.budget.iterations or 0
    return Budget(iterations=max(least, own), seconds=ASSESS_SECONDS)


def expected_result(agent: Agent, state: State, seat: int) -> float:
    """``seat``'s expected result of ``state`` in [0, 1] by ``agent``'s own judgement."""
    agent.ceiling_at = agent.wall() + ASSESS_CEILING
    try:
        return agent.assess(state, seat, assess_budget(agent))
    finally:
        agent.ceiling_at = None


def accepts_draw(agent: Agent, state: State, seat: int) -> bool:
    """Whether the AI in ``seat`` agrees to a draw in ``state`` (its value below
    :data:`DRAW_ACCEPT_BELOW`)."""
    return expected_result(agent, state, seat) < DRAW_ACCEPT_BELOW


__all__ = [
    "ASSESS_CEILING",
    "ASSESS_ITERATIONS",
    "ASSESS_NODES",
    "ASSESS_SECONDS",
    "DRAW_ACCEPT_BELOW",
    "accepts_draw",
    "assess_budget",
    "expected_result",
]
