"""The examples in docs/interop.md run, so they stay true."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "interop.md"


def test_every_python_example_in_the_interop_docs_runs(capsys: object) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 4
    namespace: dict[str, object] = {}
    for block in blocks:  # later blocks build on earlier ones, as a reader would type them
        exec(compile(block, str(DOC), "exec"), namespace)
