"""The ``sengoku analyse`` and ``sengoku puzzles mine`` commands (imported only when they run)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

from sengoku.analysis.analyse import AnalysisBudget, PlyAnalysis, analyse, format_table
from sengoku.analysis.puzzles import Puzzle, folder_records, mine, selfplay_records, write
from sengoku.core.game import SengokuError
from sengoku.core.record import GameRecord


def run_analyse(args: argparse.Namespace) -> int:
    record = GameRecord.load(args.record)
    budget = AnalysisBudget(
        iterations=args.iterations, seconds=args.seconds, cpu_seconds=args.cpu_seconds
    )

    def progress(ply: PlyAnalysis) -> None:
        if args.progress:
            print(f"ply {ply.ply} done", file=sys.stderr, flush=True)

    result = analyse(record, budget, seed=args.seed, hindsight=args.hindsight, progress=progress)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(format_table(result))
    return 0


def run_puzzles(args: argparse.Namespace) -> int:
    if args.action != "mine":
        raise SengokuError(f"puzzles: unknown action {args.action!r}; known: mine")
    if (args.records is None) == (args.selfplay is None):
        raise SengokuError("puzzles mine: give exactly one of --records DIR and --selfplay N")
    if args.records is not None:
        folder = Path(args.records)
        if not folder.is_dir():
            raise SengokuError(f"puzzles mine: --records {folder} is not a folder")
        records = folder_records(args.game, folder)
    else:
        if args.selfplay < 1:
            raise SengokuError("puzzles mine: --selfplay takes a number of games >= 1")
        records = selfplay_records(args.game, args.selfplay, args.seed, args.agent)
    started = time.perf_counter()
    found: list[Puzzle] = []

    def progress(puzzle: Puzzle) -> None:
        found.append(puzzle)
        print(
            f"{puzzle.id}: {puzzle.theme}, {' '.join(puzzle.solution)} "
            f"({time.perf_counter() - started:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
        if args.checkpoint:
            # Mining is sequential and reproducible: the first n puzzles of this run are what
            # the same command with --limit n finds, so the file is true whenever it stops.
            write(found, Path(args.out), command_of(args, len(found)), args.seed)

    puzzles = mine(
        args.game,
        records,
        seed=args.seed,
        limit=args.limit,
        last_plies=args.last_plies,
        progress=progress,
    )
    command = command_of(args, args.limit)
    write(puzzles, Path(args.out), command, args.seed)
    seconds = time.perf_counter() - started
    print(f"{len(puzzles)} puzzles written to {args.out} in {seconds:.0f} s")
    return 0


def command_of(args: argparse.Namespace, limit: int | None) -> str:
    """The exact command that mines what this run writes (with ``limit`` puzzles at most)."""
    source = (
        f"--records {args.records}" if args.records is not None else f"--selfplay {args.selfplay}"
    )
    words = ["sengoku", "puzzles", "mine", args.game, *source.split(), "--agent", args.agent]
    words += ["--seed", str(args.seed), "--last-plies", str(args.last_plies)]
    if limit is not None:
        words += ["--limit", str(limit)]
    return " ".join(shlex.quote(w) for w in [*words, "--out", args.out])
