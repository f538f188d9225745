"""Every Python block of README.md and docs/ runs as written (issue 40).

A block with ``>>>`` prompts is a doctest; any other ```python block is executed on its own,
in a fresh namespace (a file's doctest blocks share one, as one session), in a temporary folder that holds a short finished Gungi record as
``game.json`` (the name the docs give a saved record). A block that cannot run here is marked
on the line before it with ``<!-- not run: REASON -->``; such marks must give a reason and
stay rare. Shell and JSON blocks are not run here: docs/api.md's create-match example is
posted to the server by tests/server/test_api_doc_example.py.
"""

from __future__ import annotations

import doctest
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(?P<lang>[\w-]*)[ \t]*\n(?P<body>.*?)^```[ \t]*$", re.S | re.M)
NOT_RUN = re.compile(r"<!--\s*not run(?::\s*(?P<reason>.*?))?\s*-->\s*\Z", re.S)
#: The most blocks the docs may leave unrun.
MAX_NOT_RUN = 3


def _blocks() -> Iterator[tuple[Path, int, str, str | None]]:
    """(file, line, source, why not run) of every ```python block."""
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if m.group("lang") != "python":
                continue
            mark = NOT_RUN.search(text[: m.start()].rstrip())
            why = None if mark is None else (mark.group("reason") or "")
            yield path, text[: m.start()].count("\n") + 1, m.group("body"), why


BLOCKS = list(_blocks())


def test_the_docs_have_python_blocks_and_few_unrun_ones() -> None:
    assert len(BLOCKS) >= 10, [f"{p.name}:{n}" for p, n, _, _ in BLOCKS]
    unrun = [(p.name, n, why) for p, n, _, why in BLOCKS if why is not None]
    assert len(unrun) <= MAX_NOT_RUN, unrun
    for name, line, why in unrun:
        assert why and why.strip(), f"{name}:{line}: a 'not run' mark says why"


@pytest.fixture
def in_tmp(tmp_path: Path) -> Iterator[Path]:
    from sengoku.core.record import GameRecord
    from sengoku.core.registry import load_game

    game = load_game("gungi")
    record, state = GameRecord.start(game, 0, mode="intro")
    for text in ["5-6-1 侍(6-7)", "5-4-1 侍(4-3)"]:
        record.play(state, game.parse_action(state, text))
    record.save(tmp_path / "game.json")
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(old)


@pytest.mark.parametrize(
    ("path", "line", "source", "why"),
    BLOCKS,
    ids=[f"{p.relative_to(ROOT)}:{n}" for p, n, _, _ in BLOCKS],
)
def test_block_runs_as_written(
    path: Path, line: int, source: str, why: str | None, in_tmp: Path
) -> None:
    if why is not None:
        pytest.skip(f"marked not run: {why}")
    name = f"{path.relative_to(ROOT)}:{line}"
    if ">>>" in source:
        # A file's doctest blocks are one session, as a reader types them: the earlier ones
        # are played first (their output was checked by their own tests).
        globs: dict[str, object] = {"__name__": "__doc_block__"}
        for other, other_line, earlier, _ in BLOCKS:
            if other == path and other_line < line and ">>>" in earlier:
                for example in doctest.DocTestParser().get_examples(earlier):
                    exec(compile(example.source, name, "single"), globs)
        test = doctest.DocTestParser().get_doctest(source, globs, name, str(path), line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        runner.run(test)
        assert runner.failures == 0, f"{name}: {runner.failures} doctest example(s) failed"
    else:
        exec(compile(source, name, "exec"), {"__name__": "__doc_block__"})
