"""Where ``sengoku train`` writes (issue 43 item 4): never over the shipped weights unless
asked by name. The argument logic needs no torch; the tiny training runs are in
``tests/ai/test_learned_train.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from sengoku.ai.learned.model import default_weights
from sengoku.arena.fitting import output_path
from sengoku.cli import main
from sengoku.core.game import SengokuError


def test_the_shipped_file_is_written_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = default_weights("sashimono")
    here = Path("sashimono.npz")
    assert output_path(None, shipped, False) == (here, "--out sashimono.npz")
    assert output_path(str(tmp_path / "w.npz"), shipped, False)[0] == tmp_path / "w.npz"
    # Asked by name: the flag, or an --out naming the shipped file.
    assert output_path(None, shipped, True) == (shipped, "--overwrite-shipped")
    assert output_path(str(shipped), shipped, True) == (shipped, "--overwrite-shipped")
    assert output_path(str(shipped), shipped, False)[0] == shipped
    with pytest.raises(SengokuError, match="--overwrite-shipped"):
        output_path(str(tmp_path / "w.npz"), shipped, True)
    # Run from the weights directory, the default would be the shipped file: refused.
    with monkeypatch.context() as inside:
        inside.chdir(shipped.parent)
        with pytest.raises(SengokuError, match="shipped"):
            output_path(None, shipped, False)
    # The CLI refuses the contradiction before any self-play (exit 2, nothing written).
    out = tmp_path / "x.npz"
    assert main(["train", "sashimono", "--tiny", "--out", str(out), "--overwrite-shipped"]) == 2
    assert not out.exists()
