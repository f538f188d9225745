"""What the value fit (:mod:`sengoku.arena.training`) and the policy fit
(:mod:`sengoku.arena.training_policy`) share: PyTorch on a device, whole games held out,
inputs standardised on the training games, and an MLP that starts at zero (so epoch 0 is the
hand-made evaluation the fit corrects); and what every ``sengoku train`` run records, the
effective command (:func:`command_words`)."""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sengoku.core.game import SengokuError


def command_words(
    head: Sequence[str],
    options: dict[str, Any],
    flags: Sequence[tuple[str, Any]],
    data: Sequence[str] = (),
    held_out_data: Sequence[str] = (),
) -> list[str]:
    """The effective command of a training run, so that its record reruns as is: ``head``
    (``sengoku train GAME ...``), the game's options, each flag with a value (None: left out;
    a tiny configuration's values spelt out) and the data files read."""
    words = list(head)
    words += [f"-o {k}={json.dumps(v)}" for k, v in sorted(options.items())]
    words += [f"{flag} {shlex.quote(str(value))}" for flag, value in flags if value is not None]
    words += [f"--data {shlex.quote(d)}" for d in data]
    words += [f"--held-out-data {shlex.quote(d)}" for d in held_out_data]
    return words


def output_path(out: str | None, shipped: Path, overwrite_shipped: bool) -> tuple[Path, str]:
    """Where a ``sengoku train`` run writes, and the words that say so in its rerun command.

    The weights that ship in the package (``shipped``) are written over only when asked by
    name: ``--overwrite-shipped``, or an ``--out`` naming that file. Without either the run
    writes a file of the shipped one's name in the current directory (issue 43: a
    ``--tiny`` test run used to replace the shipped network). The words always name the
    target, so the recorded command reruns to the same place.
    """
    if overwrite_shipped:
        if out is not None and Path(out).resolve() != shipped.resolve():
            raise SengokuError(
                f"--out {out} and --overwrite-shipped disagree: --overwrite-shipped writes {shipped}"
            )
        return shipped, "--overwrite-shipped"
    path = Path(out) if out is not None else Path(shipped.name)
    if out is None and path.resolve() == shipped.resolve():
        raise SengokuError(
            f"the default --out {path} is the shipped {shipped} (run from the package's weights "
            "directory): give --out FILE, or --overwrite-shipped to replace it"
        )
    return path, f"--out {shlex.quote(str(path))}"


def torch_on(device: str, seed: int) -> tuple[Any, Any]:
    """PyTorch (the optional ``train`` extra), seeded, and the device ``device``."""
    try:
        import torch
    except ImportError:
        raise SengokuError("training needs PyTorch: pip install 'sengoku[train]'") from None
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise SengokuError("--device cuda: no CUDA device is available")
    torch.manual_seed(seed)
    return torch, torch.device(device)


def held_out(index: np.ndarray, holdout: float, rng: np.random.Generator) -> np.ndarray:
    """Which rows belong to the held-out games (a share ``holdout`` of the games in ``index``,
    at least one; none when there is a single game)."""
    games = np.unique(index)
    held = set(rng.choice(games, size=max(1, int(len(games) * holdout)), replace=False).tolist())
    if len(games) < 2:
        held = set()
    mask: np.ndarray = np.isin(index, list(held))
    return mask


def standardisation(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mean and spread of each input over ``rows`` (a spread under 0.001 counts as 1)."""
    mu = rows.mean(axis=0)
    sd = rows.std(axis=0)
    return mu, np.where(sd < 1e-3, 1.0, sd).astype(np.float32)


def zero_mlp(torch: Any, sizes: list[int], dropout: float, dev: Any) -> Any:
    """ReLU layers with dropout, ``sizes`` wide, whose output layer starts at zero."""
    layers: list[Any] = []
    for i in range(len(sizes) - 1):
        layers.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers += [torch.nn.ReLU(), torch.nn.Dropout(dropout)]
    mlp = torch.nn.Sequential(*layers).to(dev)
    with torch.no_grad():
        last: Any = mlp[-1]
        last.weight.zero_()
        last.bias.zero_()
    return mlp
