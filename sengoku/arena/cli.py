"""The ``sengoku arena`` command's arguments and body (wired in by ``sengoku.cli``)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from sengoku.arena.stats import SPRT
from sengoku.arena.tournament import arena, format_report
from sengoku.core.game import Game, SengokuError
from sengoku.core.registry import load_game


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game")
    p.add_argument(
        "--agents",
        required=True,
        help="comma-separated agents: random, greedy, mcts, ismcts, alphabeta, level1..level5; "
        "options after colons, e.g. mcts:iterations=500:c=1.0",
    )
    p.add_argument("--games", type=int, default=100, help="games (rounded up to whole blocks)")
    p.add_argument(
        "--options", help='game options: JSON (\'{"mode": "advanced"}\') or KEY=VALUE,KEY=VALUE'
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1, help="processes (or Ray CPUs)")
    p.add_argument("--backend", choices=["local", "ray"], default="local")
    p.add_argument("--ray-address", help="a Ray cluster to run on (default: start a local one)")
    p.add_argument("--iterations", type=int, help="default iteration budget per move")
    p.add_argument("--seconds", type=float, help="default time budget per move")
    p.add_argument(
        "--opening-plies", type=int, default=2, help="random plies shared by each block's games"
    )
    p.add_argument(
        "--max-plies",
        type=int,
        help="adjudicate a game still running after this many plies as a draw",
    )
    p.add_argument("--sprt", metavar="ELO0,ELO1", help="stop early by SPRT (two agents)")
    p.add_argument("--alpha", type=float, default=0.05, help="SPRT false-positive rate")
    p.add_argument("--beta", type=float, default=0.05, help="SPRT false-negative rate")
    p.add_argument("--out", metavar="FILE", help="write each game and the summary as JSON lines")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def parse_options(text: str | None) -> dict[str, Any]:
    """``--options``: a JSON object, or comma-separated KEY=VALUE pairs (values as JSON)."""
    if not text:
        return {}
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SengokuError(f"--options is not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise SengokuError("--options must be a JSON object")
        return data
    options: dict[str, Any] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise SengokuError(f"--options takes KEY=VALUE pairs, got {item!r}")
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value.strip()
    return options


def run(args: argparse.Namespace, options_of: Callable[[Game, argparse.Namespace], Any]) -> int:
    game = load_game(args.game)
    options = {**options_of(game, args), **parse_options(args.options)}
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    defaults: dict[str, Any] = {}
    if args.iterations is not None:
        defaults["iterations"] = args.iterations
    if args.seconds is not None:
        defaults["seconds"] = args.seconds
    sprt = None
    if args.sprt:
        try:
            elo0, elo1 = (float(x) for x in args.sprt.split(","))
        except ValueError:
            raise SengokuError(f"--sprt takes ELO0,ELO1 (e.g. 0,50), got {args.sprt!r}") from None
        sprt = SPRT(elo0, elo1, args.alpha, args.beta)
    if args.opening_plies < 0:
        raise SengokuError("--opening-plies must be at least 0")
    report = arena(
        game,
        agents,
        args.games,
        options=options,
        seed=args.seed,
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        opening_plies=args.opening_plies,
        defaults=defaults,
        sprt=sprt,
        progress=None if args.quiet else sys.stderr,
        jsonl_path=args.out,
        max_plies=args.max_plies,
    )
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print(format_report(report))
    return 0
