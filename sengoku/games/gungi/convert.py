"""``sengoku convert IN OUT``: Gungi records between Sengoku's JSON and gungi.js PGN.

The format of each side is ``--from``/``--to``, or else read from the file name: ``.json`` is
a Sengoku record, anything else gungi.js PGN (:mod:`sengoku.games.gungi.gungijs`). ``-`` is
standard input or output. gungi.js comments have no place in a Sengoku record: converting
to one drops them and says how many.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sengoku.games.gungi.gungijs import ADVANCED_POSITION, dump_pgn, load_pgn


def _format(path: str, given: str | None) -> str:
    if given:
        return given
    return "sengoku" if path.lower().endswith(".json") else "gungijs"


def _read(path: str) -> str:
    return sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
    else:
        Path(path).write_text(text, encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    from sengoku.core.record import GameRecord

    source = _format(args.input, args.source)
    target = _format(args.output, args.target)
    text = _read(args.input)
    comments: dict[int, str] = {}
    if source == "gungijs":
        game = load_pgn(text, args.fen or ADVANCED_POSITION)
        record, comments = game.record, game.comments
    else:
        record = GameRecord.loads(text)
        record.replay()  # refuse a record that does not replay before writing anything
    if target == "gungijs":
        out = dump_pgn(record, max_width=args.width, comments=comments) + "\n"
    else:
        out = record.dumps() + "\n"
        if comments:
            print(
                f"sengoku convert: {len(comments)} gungi.js comment(s) dropped "
                "(a Sengoku record has no comments)",
                file=sys.stderr,
            )
    _write(args.output, out)
    return 0
