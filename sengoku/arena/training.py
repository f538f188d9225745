"""``sengoku train GAME``: self-play on the arena's backends, then fit the value network.

Training uses PyTorch (the optional extra: ``pip install 'sengoku[train]'``); the result is
written as a numpy network (:class:`sengoku.ai.learned.model.ValueNet`) with a JSON record of
the data, seed, command and cost beside it, so playing never needs torch. ``--device cuda``
trains on a GPU (self-play stays on the CPU workers).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from sengoku.ai.learned.model import ValueNet, default_policy, default_weights, made_record
from sengoku.arena.fitting import (
    command_words,
    held_out,
    output_path,
    standardisation,
    torch_on,
    zero_mlp,
)
from sengoku.core.game import Game, SengokuError

#: The tiny configuration (tests, smoke runs): a few games of cheap play, a few epochs.
TINY: dict[str, Any] = {
    "games": 4,
    "agent": "greedy",
    "hidden": "16",
    "epochs": 3,
    "max_plies": None,
}


def fit(
    x: np.ndarray,
    y: np.ndarray,
    index: np.ndarray,
    hidden: list[int],
    epochs: int,
    seed: int,
    device: str = "cpu",
    lr: float = 1e-4,
    batch: int = 512,
    weight_decay: float = 1e-2,
    dropout: float = 0.5,
    holdout: float = 0.1,
    log: Any = None,
) -> tuple[ValueNet, dict[str, Any]]:
    """Fit ``x -> y`` (mean squared error on a tanh output) with AdamW; whole games
    (``index``) held out for validation; the epoch with the best validation loss is kept.

    The model is wide and deep: a linear term on every input (the *skip*) plus an MLP, both
    on standardised inputs. It starts as the hand-made evaluation alone (the skip reads only
    the last input, the MLP's output layer is zero), so what it learns is a correction to
    that evaluation, and early stopping can only keep an epoch that beats it on held-out
    games (epoch 0 in the history). Why: the raw encoder inputs (card positions, counts) let
    a plain MLP recognise games and overfit within an epoch (validation error above that of
    always saying 0, in the first run)."""
    if len(y) == 0:
        raise SengokuError("no training positions: play more games")
    torch, dev = torch_on(device, seed)
    rng = np.random.default_rng(seed)
    val_mask = held_out(index, holdout, rng)
    train_mask = ~val_mask
    mu, sd = standardisation(x[train_mask])

    def standard(rows: np.ndarray) -> Any:
        return torch.from_numpy(((rows - mu) / sd).astype(np.float32)).to(dev)

    xt, yt = standard(x[train_mask]), torch.from_numpy(y[train_mask]).to(dev)
    xv, yv = standard(x[val_mask]), torch.from_numpy(y[val_mask]).to(dev)
    mlp = zero_mlp(torch, [x.shape[1], *hidden, 1], dropout, dev)
    # The skip reads the evaluation alone: a linear term on every input memorised the games
    # (ridge regression on all inputs: validation error 0.94, the evaluation alone 0.78). It
    # starts at tanh(2 h) for the evaluation h, the scale that fit outcomes best on the first
    # greedy self-play data (MSE 0.775, against 0.795 at 1x and 0.803 at 3x).
    scale = torch.nn.Parameter(torch.tensor([2.0 * float(sd[-1]), 2.0 * float(mu[-1])], device=dev))

    def model(batch_x: Any) -> Any:
        return torch.tanh(mlp(batch_x).squeeze(-1) + scale[0] * batch_x[:, -1] + scale[1])

    opt = torch.optim.AdamW(
        [
            {"params": mlp.parameters(), "weight_decay": weight_decay},
            # The calibration of the evaluation (two numbers) learns fast; the MLP slowly, since
            # it memorises games within an epoch at the usual rates.
            {"params": [scale], "weight_decay": 0.0, "lr": 1e-2},
        ],
        lr=lr,
    )
    loss_fn = torch.nn.MSELoss()
    n = len(yt)
    history: list[dict[str, Any]] = []
    gen = torch.Generator(device="cpu").manual_seed(seed)

    def snapshot() -> ValueNet:
        """The model as a numpy network on raw inputs (the standardisation folded in)."""
        linears = [m for m in mlp if isinstance(m, torch.nn.Linear)]
        arrays = [
            (m.weight.detach().cpu().numpy().T.astype(np.float64), m.bias.detach().cpu().numpy())
            for m in linears
        ]
        w0, b0 = arrays[0]
        arrays[0] = (w0 / sd[:, None], b0 - (mu / sd) @ w0)
        a, c = (float(v) for v in scale.detach().cpu())
        v = np.zeros(len(sd))
        v[-1] = a
        wn, bn = arrays[-1]
        arrays[-1] = (wn, bn + c - float((mu / sd) @ v))
        return ValueNet([(w, b) for w, b in arrays], {}, skip=v / sd)

    def validate() -> float:
        mlp.eval()
        with torch.no_grad():
            return float(loss_fn(model(xv), yv)) if len(yv) else float("inf")

    best = (validate(), snapshot())
    history.append({"epoch": 0, "train_mse": None, "val_mse": round(best[0], 4)})
    if log is not None:
        log(history[-1])
    for epoch in range(epochs):
        mlp.train()
        perm = torch.randperm(n, generator=gen).to(dev)
        total = 0.0
        for start in range(0, n, batch):
            idx = perm[start : start + batch]
            opt.zero_grad()
            loss = loss_fn(model(xt[idx]), yt[idx])
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        val = validate()
        history.append(
            {"epoch": epoch + 1, "train_mse": round(total / max(n, 1), 4), "val_mse": round(val, 4)}
        )
        if log is not None:
            log(history[-1])
        if val < best[0] or not len(yv):
            best = (val, snapshot())
    baseline = float(np.mean((y[val_mask] - y[train_mask].mean()) ** 2)) if val_mask.any() else None
    report = {
        "hidden": hidden,
        "epochs": epochs,
        "lr": lr,
        "batch": batch,
        "weight_decay": weight_decay,
        "train_positions": int(train_mask.sum()),
        "val_positions": int(val_mask.sum()),
        "val_games": len(np.unique(index[val_mask])),
        "best_val_mse": round(best[0], 4),
        "best_epoch": min(history, key=lambda h: h["val_mse"])["epoch"],
        "dropout": dropout,
        "val_mse_of_mean": None if baseline is None else round(baseline, 4),
        "history": history,
        "device": device,
        "torch": torch.__version__,
    }
    return best[1], report


def train(
    game: Game,
    *,
    games: int,
    agent: str,
    seed: int,
    options: dict[str, Any] | None = None,
    workers: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    hidden: list[int] | None = None,
    epochs: int = 20,
    device: str = "cpu",
    opening_plies: int = 4,
    max_plies: int | None = None,
    every: int = 2,
    out: str | Path,
    data_out: str | Path | None = None,
    data_in: list[str] | None = None,
    command: str | None = None,
    log: Any = None,
    playouts: int = 0,
    lr: float = 1e-4,
    dropout: float = 0.5,
) -> dict[str, Any]:
    """The whole pipeline: self-play (or saved data), fit, write weights and their record."""
    from sengoku.arena.backends import LocalBackend, RayBackend
    from sengoku.arena.training_data import generate

    def say(text: str) -> None:
        if log is not None:
            log(text)

    started = time.perf_counter()
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    data_records: list[dict[str, Any]] = []
    offset = 0
    for path in data_in or []:
        with np.load(path) as d:
            parts.append((d["x"].astype(np.float32), d["y"], d["index"] + offset))
            offset += int(d["index"].max()) + 1 if len(d["index"]) else 0
        meta_path = Path(path).with_suffix(".json")
        data_records.append(
            {
                "file": Path(path).name,
                **(json.loads(meta_path.read_text()) if meta_path.is_file() else {}),
            }
        )
    selfplay_seconds = 0.0
    if games > 0:
        runner = RayBackend(ray_address, workers) if backend == "ray" else LocalBackend(workers)

        def progress(done: int, total: int, positions: int) -> None:
            if done == total or done % max(1, total // 10) == 0:
                say(f"self-play: {done}/{total} games, {positions} positions")

        x, y, index, summary = generate(
            game,
            games,
            agent,
            seed,
            options,
            runner,
            opening_plies,
            max_plies,
            every,
            progress,
            playouts,
        )
        selfplay_seconds = summary["seconds"]
        parts.append((x, y, index + offset))
        data_records.append(summary)
        if data_out is not None:
            np.savez_compressed(data_out, x=x.astype(np.float16), y=y, index=index)
            Path(data_out).with_suffix(".json").write_text(json.dumps(summary, indent=2) + "\n")
    if not parts:
        raise SengokuError("nothing to train on: give --games or --data")
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    index = np.concatenate([p[2] for p in parts])
    say(f"training on {len(y)} positions ({device})")
    fit_start = time.perf_counter()
    net, report = fit(
        x,
        y,
        index,
        hidden or [64, 32],
        epochs,
        seed,
        device,
        lr=lr,
        dropout=dropout,
        log=lambda h: say(f"epoch {h['epoch']}: train {h['train_mse']} val {h['val_mse']}"),
    )
    fit_seconds = time.perf_counter() - fit_start
    meta = made_record(
        game,
        net,
        command=command,
        seed=seed,
        data=data_records,
        training=report,
        selfplay_seconds=selfplay_seconds,
        fit_seconds=fit_seconds,
        started=started,
        workers=workers,
    )
    # No default: the caller names the file (the CLI's --out rule: fitting.output_path).
    target = Path(out)
    net.save(target, meta)
    say(f"wrote {target} and {target.with_suffix('.json')}")
    return meta


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=int, default=200, help="self-play games (0: only --data)")
    p.add_argument("--agent", default="level3", help="the self-play agent spec (plays every seat)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1, help="arena worker processes")
    p.add_argument("--backend", choices=("local", "ray"), default="local")
    p.add_argument("--ray-address", default=None)
    p.add_argument("--hidden", default="64,32", help="hidden layer sizes, comma-separated")
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--lr", type=float, default=1e-4, help="the MLP's learning rate")
    p.add_argument("--dropout", type=float, default=0.5, help="the MLP's dropout")
    p.add_argument("--device", default="cpu", help="cpu, cuda or cuda:N (training only)")
    p.add_argument("--opening-plies", type=int, default=4, help="random plies opening each game")
    p.add_argument("--max-plies", type=int, default=None, help="adjudicate longer games a draw")
    p.add_argument("--every", type=int, default=2, help="keep every N-th choice of a game")
    p.add_argument(
        "--playouts",
        type=int,
        default=0,
        help="value targets: the mean of N playouts from the position (0: the game's result)",
    )
    p.add_argument(
        "--data", action="append", default=[], help="also train on this saved data (.npz)"
    )
    p.add_argument("--save-data", default=None, help="write the self-play data here (.npz)")
    p.add_argument(
        "--out",
        default=None,
        help="weights file (default: the shipped file's name in the current directory, e.g. "
        "./GAME.npz; naming the shipped file writes over it)",
    )
    p.add_argument(
        "--overwrite-shipped",
        action="store_true",
        help="write over the weights that ship in the package (sengoku/games/GAME/data/weights/...)",
    )
    p.add_argument("--tiny", action="store_true", help="the tiny configuration (tests)")
    p.add_argument(
        "--policy",
        action="store_true",
        help="train the policy head instead: --agent is a search whose root visits are the "
        "targets (default out: ./GAME_policy.npz; shipped: sengoku/games/GAME/data/weights/GAME_policy.npz)",
    )
    p.add_argument(
        "--teacher",
        default=None,
        help="--policy: the search that labels the sampled decisions (default: --agent)",
    )
    p.add_argument(
        "--holdout",
        type=float,
        default=0.1,
        help="--policy: the share of the games held out to choose the epoch (default 0.1)",
    )


def run(args: argparse.Namespace, options: dict[str, Any], game: Game) -> int:
    if args.tiny:
        from sengoku.arena.training_policy import TINY_POLICY

        for key, value in (TINY_POLICY if args.policy else TINY).items():
            setattr(args, key, value)
    hidden = [int(h) for h in str(args.hidden).split(",") if h.strip()]
    # The effective command (the tiny configuration spelt out), so that it reruns as is.
    flags = [
        ("--games", args.games),
        ("--agent", args.agent),
        ("--seed", args.seed),
        ("--workers", args.workers),
        ("--backend", args.backend),
        ("--hidden", args.hidden),
        ("--epochs", args.epochs),
        # The policy head's fit has its own learning rate and dropout (these are the value's).
        ("--lr", None if args.policy else args.lr),
        ("--dropout", None if args.policy else args.dropout),
        ("--device", args.device),
        ("--opening-plies", args.opening_plies),
        ("--max-plies", args.max_plies),
        ("--every", args.every),
        ("--playouts", args.playouts or None),
    ]
    shipped = default_policy(game) if args.policy else default_weights(game)
    # Decided before any self-play, so a refusal costs nothing.
    out, out_words = output_path(args.out, shipped, args.overwrite_shipped)
    words = command_words(["sengoku", "train", game.name], options, flags, args.data)
    if args.policy:
        words.append("--policy")
        if args.teacher:
            words.append(f"--teacher {shlex.quote(args.teacher)}")
        words.append(f"--holdout {args.holdout}")
    words.append(out_words)
    command = " ".join(words)
    if args.policy:
        from sengoku.arena.training_policy import train_policy

        meta = train_policy(
            game,
            games=args.games,
            agent=args.agent,
            seed=args.seed,
            options=options,
            workers=args.workers,
            hidden=hidden,
            epochs=args.epochs,
            device=args.device,
            opening_plies=args.opening_plies,
            max_plies=args.max_plies,
            every=args.every,
            out=out,
            data_out=args.save_data,
            data_in=args.data,
            command=command,
            log=lambda text: print(text, file=sys.stderr, flush=True),
            teacher=args.teacher,
            holdout=args.holdout,
        )
        print(
            json.dumps(
                {k: meta[k] for k in ("game", "seed", "cost")}
                | {"val_ce": meta["training"]["best_val_ce"]}
            )
        )
        return 0
    meta = train(
        game,
        games=args.games,
        agent=args.agent,
        seed=args.seed,
        options=options,
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        hidden=hidden,
        epochs=args.epochs,
        device=args.device,
        opening_plies=args.opening_plies,
        max_plies=args.max_plies,
        every=args.every,
        out=out,
        data_out=args.save_data,
        data_in=args.data,
        command=command,
        log=lambda text: print(text, file=sys.stderr, flush=True),
        playouts=args.playouts,
        lr=args.lr,
        dropout=args.dropout,
    )
    print(
        json.dumps(
            {k: meta[k] for k in ("game", "seed", "cost")}
            | {"val": meta["training"]["best_val_mse"]}
        )
    )
    return 0
