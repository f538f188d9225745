"""AI speed: MCTS iterations and alpha-beta nodes per second, next to random-play plies.

``sengoku bench ai --game G [--seconds S] [--json]`` (and ``benchmarks/ai.py``). Positions
are taken from random games (the start and a few plies in), so the figures reflect the
game's typical middle positions rather than one opening.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from sengoku.ai import make_agent
from sengoku.ai.base import Budget
from sengoku.core.bench import random_play
from sengoku.core.game import Game, SengokuError, State
from sengoku.core.registry import load_game


def sample_positions(game: Game, options: dict[str, Any], count: int, seed: int) -> list[State]:
    """The start and positions 10, 20, ... random plies in (each from its own game)."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        state = game.new_state(rng.randrange(2**31), **options)
        for _ in range(10 * k):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(state)
    return out or [game.new_state(seed, **options)]


def measure(
    game: Game, agent_name: str, positions: list[State], seconds: float, seed: int
) -> dict[str, Any]:
    """Iterations (MCTS) or nodes (alpha-beta) per second over ``positions``."""
    agent = make_agent(game, agent_name, seed=seed)
    per = seconds / len(positions)
    count = 0
    elapsed = 0.0
    for state in positions:
        seat = state.current_player
        start = time.perf_counter()
        agent.choose(state, seat, Budget(seconds=per))
        elapsed += time.perf_counter() - start
        stats = agent.last_stats
        count += int(stats.get("iterations", stats.get("nodes", 0)))
    return {
        "agent": agent_name,
        "count": count,
        "seconds": round(elapsed, 3),
        "per_second": round(count / elapsed, 1) if elapsed else 0.0,
    }


def ai_bench(
    game: Game, options: dict[str, Any], seconds: float = 5.0, seed: int = 0
) -> dict[str, Any]:
    if seconds <= 0:
        raise SengokuError(f"--seconds must be positive, got {seconds}")
    positions = sample_positions(game, options, 4, seed)
    two_players = positions[0].num_players == 2
    hidden = _hidden(game)
    share = seconds / (2 + int(two_players) + int(hidden))
    rand = random_play(game, options, share, seed)
    result: dict[str, Any] = {
        "game": game.name,
        "options": options,
        "random_plies_per_second": rand["plies_per_second"],
        "positions": len(positions),
        "mcts_iterations_per_second": measure(game, "mcts", positions, share, seed)["per_second"],
    }
    if hidden:
        ismcts = measure(game, "ismcts", positions, share, seed)
        result["ismcts_iterations_per_second"] = ismcts["per_second"]
    result["alphabeta_nodes_per_second"] = (
        measure(game, "alphabeta", positions, share, seed)["per_second"] if two_players else None
    )
    return result


def _hidden(game: Game) -> bool:
    from sengoku.ai.eval import knowledge_for

    return knowledge_for(game).hidden_information


def run_cli(args: argparse.Namespace, options_of: Callable[[Game, argparse.Namespace], Any]) -> int:
    if not args.ai_game:
        raise SengokuError("bench ai needs --game GAME (e.g. sengoku bench ai --game gungi)")
    game = load_game(args.ai_game)
    result = ai_bench(game, options_of(game, args), args.seconds, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{game.name}: random play {result['random_plies_per_second']:.0f} plies/s; "
            f"MCTS {result['mcts_iterations_per_second']:.0f} iterations/s; "
            + (
                f"IS-MCTS {result['ismcts_iterations_per_second']:.0f} iterations/s; "
                if "ismcts_iterations_per_second" in result
                else ""
            )
            + (
                f"alpha-beta {result['alphabeta_nodes_per_second']:.0f} nodes/s"
                if result["alphabeta_nodes_per_second"] is not None
                else "alpha-beta: not for this many players"
            )
        )
    return 0
