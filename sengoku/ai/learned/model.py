"""The learned value network, evaluated with numpy alone (playing needs no torch).

A network is a small multilayer perceptron: ReLU hidden layers and one tanh output, the value
of a position in [-1, 1] for the seat whose view it reads. Its inputs (:class:`Inputs`) are the
game's observation encoder on ``view(seat)`` (so it never reads more than the seat may see),
flattened, followed by the game's hand-made evaluation for that seat: the network learns a
correction of that evaluation from self-play outcomes rather than the whole game from scratch.

Weights live in an ``.npz`` file (``w0``, ``b0``, ``w1``, ..., ``skip``; float32, since the
input standardisation is folded into the first layer and the skip) beside a JSON file of the same name that records
how they were made (data, seed, command, cost). The shipped ones are in each game's ``data/weights`` folder.
"""

from __future__ import annotations

import datetime
import json
import platform
import time
from pathlib import Path
from typing import Any

import numpy as np

from sengoku.ai.eval import knowledge_for
from sengoku.core.game import Game, SengokuError, State
from sengoku.core.registry import load_game


def _shipped(game: Game | str, suffix: str) -> Path:
    """The game's shipped weights file ``<game><suffix>`` in its own data folder
    (``sengoku/games/<game>/data/weights/``, package data: ``Game.data_file``)."""
    found = load_game(game) if isinstance(game, str) else game
    return found.data_file("weights", f"{found.name}{suffix}")


def default_weights(game: Game | str) -> Path:
    """The shipped value network: ``<game>.npz`` (its record beside it, ``<game>.json``)."""
    return _shipped(game, ".npz")


def default_policy(game: Game | str) -> Path:
    """The shipped policy head: scores of actions, by their afterstates' inputs."""
    return _shipped(game, "_policy.npz")


class ValueNet:
    """A multilayer perceptron with a linear skip from its inputs to its output:
    ``tanh(mlp(x) + x . skip)``, ``mlp(x) = relu(... relu(x W0 + b0) ...) Wn + bn``."""

    def __init__(
        self,
        layers: list[tuple[np.ndarray, np.ndarray]],
        meta: dict[str, Any],
        skip: np.ndarray | None = None,
    ) -> None:
        if not layers:
            raise SengokuError("a value network needs at least one layer")
        self.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
        self.meta = meta
        self.inputs = int(self.layers[0][0].shape[0])
        self.skip = None if skip is None else skip.astype(np.float32)

    @classmethod
    def load(cls, path: str | Path) -> ValueNet:
        path = Path(path)
        if not path.is_file():
            raise SengokuError(f"no value network at {path}: train one with `sengoku train`")
        with np.load(path) as data:
            count = sum(1 for key in data.files if key.startswith("w"))
            layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(count)]
            skip = data["skip"] if "skip" in data.files else None
        meta_path = path.with_suffix(".json")
        meta = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
        return cls(layers, meta, skip)

    def save(self, path: str | Path, meta: dict[str, Any] | None = None) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, np.ndarray] = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"] = w
            arrays[f"b{i}"] = b
        if self.skip is not None:
            arrays["skip"] = self.skip
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
        if meta is not None:
            self.meta = meta
            path.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")

    def forward(self, x: np.ndarray) -> np.ndarray:
        """Values in [-1, 1] of a batch ``(n, inputs)`` (or one vector: a 0-d array)."""
        values: np.ndarray = np.tanh(self.logits(x))
        return values

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The output before the tanh, ``mlp(x) + x . skip``: a policy network's score of
        each row (an action's afterstate), a value network's value before squashing."""
        x = x.astype(np.float32, copy=False)
        h = x
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
        out = h[..., 0]
        if self.skip is not None:
            out = out + x @ self.skip
        result: np.ndarray = out
        return result


class Inputs:
    """A position's network inputs for a seat: the encoder's planes and the evaluation."""

    def __init__(self, game: Game, options: dict[str, Any]) -> None:
        encoder = game.observation_encoder(**options)
        if encoder is None:
            raise SengokuError(f"{game.name} has no observation encoder to learn from")
        self.encoder = encoder
        self.knowledge = knowledge_for(game)
        self.planes = int(np.prod(encoder.shape))
        # An encoder of planes whose channels from ``uniform_from`` on are one number spread
        # over the plane (Gungi's hand counts and flags) gives one input per such channel.
        uniform = getattr(encoder, "uniform_from", None)
        self.keep: np.ndarray | None = None
        if isinstance(uniform, int) and len(encoder.shape) == 3:
            channels, area = encoder.shape[0], encoder.shape[1] * encoder.shape[2]
            self.keep = np.concatenate(
                [np.arange(uniform * area), np.arange(uniform, channels) * area]
            )
        self.size = (self.planes if self.keep is None else len(self.keep)) + 1
        self.buffer = np.zeros(encoder.shape, np.float32)

    def encode(self, state: State, seat: int) -> np.ndarray:
        buffer = self.buffer
        buffer.fill(0.0)
        self.encoder.encode_into(state.view(seat), seat, buffer)
        flat = buffer.reshape(-1)
        out = np.empty(self.size, np.float32)
        out[:-1] = flat if self.keep is None else flat[self.keep]
        out[-1] = self.knowledge.evaluate(state, seat)
        return out


_NETS: dict[str, ValueNet] = {}


def load_net(path: str | Path) -> ValueNet:
    """The network at ``path``, loaded once per process (agents are made per decision)."""
    key = str(Path(path).resolve())
    if key not in _NETS:
        _NETS[key] = ValueNet.load(key)
    return _NETS[key]


def made_record(
    game: Game,
    net: ValueNet,
    *,
    command: str | None,
    seed: int,
    data: list[dict[str, Any]],
    training: dict[str, Any],
    selfplay_seconds: float,
    fit_seconds: float,
    started: float,
    workers: int,
    kind: str | None = None,
) -> dict[str, Any]:
    """The JSON record saved beside a network: what game and inputs it is for, when, by what
    command and seed, from what data, how the fit went and what it cost (``started``: the
    ``time.perf_counter()`` of the start)."""
    head: dict[str, Any] = {"game": game.name, "game_version": game.version}
    if kind is not None:
        head["kind"] = kind
    return head | {
        "inputs": net.inputs,
        "made": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": command,
        "seed": seed,
        "data": data,
        "training": training,
        "cost": {
            "selfplay_seconds": round(selfplay_seconds, 1),
            "fit_seconds": round(fit_seconds, 1),
            "total_seconds": round(time.perf_counter() - started, 1),
            "machine": f"{platform.machine()}, {platform.python_implementation()} "
            f"{platform.python_version()}",
            "workers": workers,
        },
    }
