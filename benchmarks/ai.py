"""AI speed for every game (or those named): MCTS iterations/s, alpha-beta nodes/s.

Usage: python benchmarks/ai.py [GAME ...] [--seconds S]
"""

from __future__ import annotations

import argparse
import json

from sengoku.ai.bench import ai_bench
from sengoku.core.registry import list_games, load_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*")
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    for name in args.games or list_games():
        game = load_game(name)
        for preset in game.bench_presets:
            print(json.dumps(ai_bench(game, dict(preset), args.seconds)))


if __name__ == "__main__":
    main()
