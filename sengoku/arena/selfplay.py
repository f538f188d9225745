"""Self-play reports for any game: ``sengoku selfplay GAME``.

Plays games between copies of one agent (uniformly ``random`` by default, a scripted player
that the game declares, or any agent name :func:`sengoku.ai.make_agent` knows) and
summarises what every game shares: scores and wins by seat, the first seat's advantage, game
length and how the games ended. A game adds its own figures (milestones such as Gunkimono's
strongholds and banners) through the declared hook ``Game.selfplay_figures``, and its
scripted players through ``Game.scripted_players``; this module names no game.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from typing import Any

from sengoku.ai import make_agent
from sengoku.core.game import Game, SengokuError, State


def play_one(game: Game, options: dict[str, Any], seed: int, agent: str) -> State:
    """One game of ``agent`` against itself from ``seed`` (random and scripted players draw
    from ``random.Random(seed)``; agents get the seeds ``seed * 10 + seat``)."""
    state = game.new_state(seed, **options)
    scripted = game.scripted_players()
    if agent == "random" or agent in scripted:
        rng = random.Random(seed)
        choose = scripted.get(agent)
        while not state.is_terminal():
            if choose is not None:
                state.apply(choose(state, rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
        return state
    agents = [make_agent(game, agent, seed=seed * 10 + s) for s in range(state.num_players)]
    while not state.is_terminal():
        seat = state.current_player
        state.apply(agents[seat].choose(state, seat))
    return state


def selfplay(
    game: Game,
    games: int,
    agent: str = "random",
    seed: int = 0,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Summary figures over ``games`` games (game ``i`` from seed ``seed + i``)."""
    if games < 1:
        raise SengokuError(f"selfplay: --games must be at least 1, got {games}")
    opts = dict(options or {})
    finals = [play_one(game, opts, seed + g, agent) for g in range(games)]
    players = finals[0].num_players
    wins = [0.0] * players
    scores: list[tuple[float, ...]] = []
    reasons: Counter[str] = Counter()
    for state in finals:
        out = state.outcome()
        assert out is not None
        scores.append(out.scores)
        reasons[out.reason] += 1
        for w in out.winners:
            wins[w] += 1 / len(out.winners)
    report: dict[str, Any] = {
        "game": game.name,
        "options": game.resolve_options(**opts),
        "players": players,
        "games": games,
        "agent": agent,
        "mean_final_score_by_seat": [
            round(statistics.mean(s[seat] for s in scores), 1) for seat in range(players)
        ],
        "win_share_by_seat": [round(w / games, 3) for w in wins],
        "first_seat_advantage": round(wins[0] / games - 1 / players, 3),
        "endings": dict(sorted(reasons.items())),
    }
    report.update(game.selfplay_figures(finals))
    return report
