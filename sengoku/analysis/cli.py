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
    budget = AnalysisBudget(iterations=args.iterations, seconds=args.seconds)

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

    def progress(puzzle: Puzzle) -> None:
        print(
            f"{puzzle.id}: {puzzle.theme}, {' '.join(puzzle.solution)} "
            f"({time.perf_counter() - started:.0f} s)",
            file=sys.stderr,
            flush=True,
        )

    puzzles = mine(
        args.game,
        records,
        seed=args.seed,
        limit=args.limit,
        last_plies=args.last_plies,
        progress=progress,
    )
    source = (
        f"--records {args.records}" if args.records is not None else f"--selfplay {args.selfplay}"
    )
    words = ["sengoku", "puzzles", "mine", args.game, *source.split(), "--agent", args.agent]
    words += ["--seed", str(args.seed), "--last-plies", str(args.last_plies)]
    if args.limit is not None:
        words += ["--limit", str(args.limit)]
    command = " ".join(shlex.quote(w) for w in [*words, "--out", args.out])
    write(puzzles, Path(args.out), command, args.seed)
    seconds = time.perf_counter() - started
    print(f"{len(puzzles)} puzzles written to {args.out} in {seconds:.0f} s")
    return 0
