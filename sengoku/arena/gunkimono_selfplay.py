"""Self-play report for Gunkimono: ``sengoku selfplay gunkimono`` or
``python -m sengoku.arena.gunkimono_selfplay``.

Plays games between agents (uniformly random by default; ``balanced``, a scripted player
that mixes honor and victory points; or any agent name that ``sengoku.ai.make_agent``
knows) and summarises scores, game length, when strongholds are
built (as a fraction of the game), banners claimed and the first seat's advantage. The
honor-track rows are reconstructed values; this report is how they are checked against the
spec's target (a balanced player builds the first stronghold around mid-game).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from typing import Any

from sengoku.ai import make_agent
from sengoku.games.gunkimono.actions import BuildStronghold, GunkimonoAction, Score
from sengoku.games.gunkimono.game import Gunkimono
from sengoku.games.gunkimono.state import GunkimonoState
from sengoku.games.gunkimono.turn_sequence import Phase


def balanced_choice(state: GunkimonoState, rng: random.Random) -> GunkimonoAction:
    """A scripted "balanced" player for the report: random placements and draws; honor for
    a troop whose formation is small (under 3), victory points otherwise; strongholds on
    the largest free formation."""
    legal = state.legal_actions()
    if state.phase is Phase.SCORE:
        vp = state.pending[0].vp
        honor = [a for a in legal if isinstance(a, Score) and a.honor]
        points = [a for a in legal if isinstance(a, Score) and not a.honor]
        if honor and (vp < 3 or not points):
            return honor[0]
        return points[0] if points else legal[0]
    if state.phase is Phase.STRONGHOLD:
        builds = [a for a in legal if isinstance(a, BuildStronghold)]
        return max(builds, key=lambda a: (len(state.formation(a.cell)), -a.cell))
    return rng.choice(legal)


def play_one(game: Gunkimono, players: int, seed: int, agent: str) -> GunkimonoState:
    state = game.new_state(seed, players=players)
    if agent in ("random", "balanced"):
        rng = random.Random(seed)
        while not state.is_terminal():
            if agent == "balanced":
                state.apply(balanced_choice(state, rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
        return state
    agents = [make_agent("gunkimono", agent, seed=seed * 10 + s) for s in range(players)]
    while not state.is_terminal():
        seat = state.current_player
        state.apply(agents[seat].choose(state, seat))
    return state


def selfplay(players: int, games: int, agent: str = "random", seed: int = 0) -> dict[str, Any]:
    """Summary figures over ``games`` games of ``players`` players."""
    game = Gunkimono()
    finals: list[list[int]] = []
    turns: list[int] = []
    first_built: list[float] = []  # turn of each seat's first stronghold / game turns
    built_per_game: list[int] = []
    banners: list[int] = []
    wins = [0.0] * players
    for g in range(games):
        st = play_one(game, players, seed + g, agent)
        out = st.outcome()
        assert out is not None
        finals.append(st.final_scores())
        turns.append(st.turns)
        firsts: dict[int, int] = {}
        for seat, turn in st.built_at:
            firsts.setdefault(seat, turn)
        first_built.extend(t / max(st.turns, 1) for t in firsts.values())
        built_per_game.append(len(st.built_at))
        banners.append(sum(len(b) for b in st.banners))
        for w in out.winners:
            wins[w] += 1 / len(out.winners)
    return {
        "players": players,
        "games": games,
        "agent": agent,
        "mean_final_score_by_seat": [
            round(statistics.mean(f[s] for f in finals), 1) for s in range(players)
        ],
        "mean_turns": round(statistics.mean(turns), 1),
        "strongholds_built_per_game": round(statistics.mean(built_per_game), 2),
        "players_with_a_stronghold": round(len(first_built) / (games * players), 3),
        "first_stronghold_at_fraction_of_game": (
            round(statistics.median(first_built), 2) if first_built else None
        ),
        "banners_claimed_per_game": round(statistics.mean(banners), 2),
        "win_share_by_seat": [round(w / games, 3) for w in wins],
        "first_seat_advantage": round(wins[0] / games - 1 / players, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--agent", default="random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = selfplay(args.players, args.games, args.agent, args.seed)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
