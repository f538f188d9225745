"""The policy head: self-play by a search, trained to predict where that search spends its
visits (``sengoku train GAME --policy``).

A *policy head* scores an action by the network inputs of the position it leads to, for the
seat choosing it (:class:`sengoku.ai.learned.model.Inputs` on that seat's view), so it needs no
fixed numbering of actions; a softmax over the legal actions' scores is the prior of the
``learned`` agent's PUCT search (``prior=policy``).

*Data*: games of a search (``--agent``, e.g. ``learned:iterations=200:prior=eval``) against
itself, one agent per seat, each game an independent task (a local process pool with
``--workers``). At every ``every``-th decision with a choice, the searched root's visits
(the share of each legal action) are the target, and the inputs of each action's afterstate,
in a determinization drawn for the seat (never the true hidden cards), are the features.

*Fit* (PyTorch): ``score(a) = mlp(x_a) + k h_a`` on standardised inputs, ``h_a`` the hand-made
evaluation of the afterstate (the inputs' last column); it starts as the evaluation's softmax
at temperature :data:`START_TEMPERATURE` (the MLP's output layer zero), so epoch 0 is the
hand-made prior, and the epoch with the best held-out cross-entropy (whole games held out)
is kept. The result is saved as a :class:`ValueNet` whose ``logits`` are the scores.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from sengoku.ai.learned.model import Inputs, ValueNet, made_record
from sengoku.arena.fitting import held_out, standardisation, torch_on, zero_mlp
from sengoku.arena.match import agent_seed, game_from_ref, game_ref
from sengoku.core.game import Game, SengokuError

#: The hand-made prior that the policy head starts from: softmax(evaluation / this).
START_TEMPERATURE = 0.1


def policy_tasks(
    game: Game,
    games: int,
    agent: str,
    seed: int,
    options: dict[str, Any],
    opening_plies: int,
    max_plies: int | None,
    every: int,
    teacher: str | None = None,
) -> Iterator[dict[str, Any]]:
    for index in range(games):
        yield {
            "index": index,
            "game_ref": game_ref(game),
            "options": dict(options),
            "game_seed": agent_seed(seed, index, 7),
            "opening_seed": agent_seed(seed, index, 8),
            "agent_seeds": [agent_seed(seed, index, s) for s in range(2)],
            "opening_plies": opening_plies,
            "agent": agent,
            "teacher": teacher,
            "max_plies": max_plies,
            "every": every,
        }


def policy_game(task: dict[str, Any]) -> dict[str, Any]:
    """One self-play game of the task's search: for the sampled decisions, the inputs of
    each legal action's afterstate (the mover's view, in the mover's own determinization)
    and the share of the root's visits that went to it."""
    from sengoku.ai import make_agent

    game = game_from_ref(task["game_ref"])
    state = game.new_state(task["game_seed"], **task["options"])
    if state.num_players != 2:
        raise SengokuError("the policy head is trained on two-seat games")
    rng = random.Random(task["opening_seed"])
    for _ in range(int(task["opening_plies"])):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    agents = [make_agent(game, task["agent"], seed=s) for s in task["agent_seeds"]]
    # The search that labels a sampled decision (its root visits are the target): the
    # playing agent itself, or a stronger ``teacher`` searched only where a label is taken.
    teacher_spec = task.get("teacher") or None
    teacher = (
        make_agent(game, teacher_spec, seed=task["agent_seeds"][0] + 17) if teacher_spec else None
    )
    inputs = Inputs(game, dict(state.options))
    every = max(1, int(task["every"]))
    phase = rng.randrange(every)
    rows: list[np.ndarray] = []
    shares: list[float] = []
    sizes: list[int] = []
    positions: list[np.ndarray] = []
    values: list[float] = []
    movers: list[int] = []
    choices = 0
    plies = 0
    limit = task.get("max_plies")
    while not state.is_terminal() and (limit is None or plies < int(limit)):
        legal = state.legal_actions()
        seat = state.current_player
        if len(legal) < 2:
            state.apply(legal[0])
            plies += 1
            continue
        choices += 1
        labelled = choices % every == phase
        agent = teacher if teacher is not None and labelled else agents[seat]
        action = agent.choose(state, seat)
        if teacher is not None and labelled:
            action = agents[seat].choose(state, seat)  # the game goes on as its players play
        root = getattr(agent, "last_root", None)
        if root is not None and labelled:
            visits = [root.children[a].visits if a in root.children else 0 for a in legal]
            total = sum(visits)
            world = state.determinize(seat, rng)
            afters = []
            for a in legal:
                after = world.clone()
                after.apply(a)  # the seat's own actions: legal in its determinization
                afters.append(after)
            if total > 0:
                rows.extend(inputs.encode(after, seat) for after in afters)
                shares.extend(v / total for v in visits)
                sizes.append(len(legal))
                # The search's value of the position for the mover (a value target with
                # less noise than the game's outcome), on the mover's view of it.
                positions.append(inputs.encode(world, seat))
                values.append(2.0 * root.totals[seat] / max(root.visits, 1) - 1.0)
                movers.append(seat)
        state.apply(action)
        plies += 1
    return {
        "index": task["index"],
        "x": np.stack(rows).astype(np.float16) if rows else np.zeros((0, inputs.size), np.float16),
        "share": np.asarray(shares, np.float32),
        "sizes": np.asarray(sizes, np.int32),
        "position": np.stack(positions).astype(np.float16)
        if positions
        else np.zeros((0, inputs.size), np.float16),
        "value": np.asarray(values, np.float32),
        # The game's return for each decision's mover (0: unfinished at max_plies).
        "outcome": np.asarray(
            [float(state.returns()[m]) if state.is_terminal() else 0.0 for m in movers],
            np.float32,
        ),
        "plies": plies,
    }


def generate_policy(
    game: Game,
    games: int,
    agent: str,
    seed: int,
    options: dict[str, Any] | None = None,
    workers: int = 1,
    opening_plies: int = 4,
    max_plies: int | None = None,
    every: int = 2,
    progress: Any = None,
    teacher: str | None = None,
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Play ``games`` games of ``agent`` against itself; the arrays ``x`` (an afterstate's
    inputs a row), ``share`` (its visit share), ``sizes`` (rows a decision), ``index`` (each
    decision's game) and a summary of what was played."""
    resolved = game.new_state(seed, **(options or {})).options
    tasks = policy_tasks(
        game, games, agent, seed, dict(options or {}), opening_plies, max_plies, every, teacher
    )
    start = time.perf_counter()
    results: list[dict[str, Any]] = []
    if workers <= 1:
        source: Iterator[dict[str, Any]] = (policy_game(t) for t in tasks)
        for result in source:
            results.append(result)
            if progress is not None:
                progress(len(results), games)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for result in pool.map(policy_game, tasks):
                results.append(result)
                if progress is not None:
                    progress(len(results), games)
    results.sort(key=lambda r: int(r["index"]))
    size = Inputs(game, dict(resolved)).size
    arrays = {
        "x": np.concatenate([r["x"] for r in results]) if results else np.zeros((0, size)),
        "share": np.concatenate([r["share"] for r in results]) if results else np.zeros(0),
        "sizes": np.concatenate([r["sizes"] for r in results]) if results else np.zeros(0),
        "index": np.concatenate(
            [np.full(len(r["sizes"]), int(r["index"]), np.int32) for r in results]
        )
        if results
        else np.zeros(0, np.int32),
    }
    for key in ("position", "value", "outcome"):
        arrays[key] = np.concatenate([r[key] for r in results]) if results else np.zeros((0, size))
    summary = {
        "games": games,
        "agent": agent,
        "teacher": teacher,
        "seed": seed,
        "options": dict(resolved),
        "opening_plies": opening_plies,
        "max_plies": max_plies,
        "every": every,
        "decisions": int(len(arrays["sizes"])),
        "actions": int(len(arrays["share"])),
        "mean_plies": round(sum(int(r["plies"]) for r in results) / max(games, 1), 1),
        "workers": workers,
        "seconds": round(time.perf_counter() - start, 1),
    }
    return arrays, summary


def fit_policy(
    data: dict[str, np.ndarray],
    hidden: list[int],
    epochs: int,
    seed: int,
    device: str = "cpu",
    lr: float = 1e-3,
    batch: int = 256,
    weight_decay: float = 1e-2,
    dropout: float = 0.3,
    holdout: float = 0.1,
    log: Any = None,
) -> tuple[ValueNet, dict[str, Any]]:
    """Fit the scores to the visit shares (cross-entropy of the softmax over each decision's
    actions); whole games held out; the best held-out epoch (0: the evaluation's softmax at
    :data:`START_TEMPERATURE`) is kept."""
    x = data["x"].astype(np.float32)
    share = data["share"].astype(np.float32)
    sizes = data["sizes"].astype(np.int64)
    index = data["index"]
    if len(sizes) == 0:
        raise SengokuError("no training decisions: play more games")
    torch, dev = torch_on(device, seed)
    rng = np.random.default_rng(seed)
    # Each decision's rows, padded to the widest decision (-1: no action there).
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    width = int(sizes.max())
    rows = np.full((len(sizes), width), -1, np.int64)
    for d, (s, n) in enumerate(zip(starts, sizes, strict=True)):
        rows[d, :n] = np.arange(s, s + n)
    val = held_out(index, holdout, rng)
    train_rows = rows[~val]
    mu, sd = standardisation(x[train_rows[train_rows >= 0]])
    xs = torch.from_numpy(((x - mu) / sd).astype(np.float32)).to(dev)
    # One zero row at the end stands for the padding.
    xs = torch.cat([xs, torch.zeros(1, xs.shape[1], device=dev)])
    target_all = torch.from_numpy(np.concatenate([share, [0.0]]).astype(np.float32)).to(dev)
    pad = len(x)

    def batch_of(decisions: np.ndarray) -> tuple[Any, Any, Any]:
        r = rows[decisions]
        mask = torch.from_numpy(r >= 0).to(dev)
        r = np.where(r >= 0, r, pad)
        rt = torch.from_numpy(r).to(dev)
        return xs[rt], target_all[rt], mask

    mlp = zero_mlp(torch, [x.shape[1], *hidden, 1], dropout, dev)
    # The evaluation's weight on standardised inputs: softmax(h / START_TEMPERATURE) at first.
    scale = torch.nn.Parameter(torch.tensor([float(sd[-1]) / START_TEMPERATURE], device=dev))

    def scores(bx: Any, mask: Any) -> Any:
        out = mlp(bx).squeeze(-1) + scale[0] * bx[..., -1]
        return out.masked_fill(~mask, -1e9)

    def loss_of(bx: Any, bt: Any, mask: Any) -> tuple[Any, Any]:
        logp = torch.log_softmax(scores(bx, mask), dim=-1)
        loss = -(bt * logp.masked_fill(~mask, 0.0)).sum(-1).mean()
        agree = (logp.argmax(-1) == bt.argmax(-1)).float().mean()
        return loss, agree

    opt = torch.optim.AdamW(
        [
            {"params": mlp.parameters(), "weight_decay": weight_decay},
            {"params": [scale], "weight_decay": 0.0, "lr": 1e-2},
        ],
        lr=lr,
    )
    train_ids = np.flatnonzero(~val)
    val_ids = np.flatnonzero(val)

    def validate() -> tuple[float, float]:
        if not len(val_ids):
            return float("inf"), 0.0
        mlp.eval()
        with torch.no_grad():
            loss, agree = loss_of(*batch_of(val_ids))
        return float(loss), float(agree)

    def snapshot() -> ValueNet:
        """The scorer as a numpy network on raw inputs (the standardisation folded in)."""
        linears = [m for m in mlp if isinstance(m, torch.nn.Linear)]
        arrays = [
            (m.weight.detach().cpu().numpy().T.astype(np.float64), m.bias.detach().cpu().numpy())
            for m in linears
        ]
        w0, b0 = arrays[0]
        arrays[0] = (w0 / sd[:, None], b0 - (mu / sd) @ w0)
        v = np.zeros(len(sd))
        v[-1] = float(scale.detach().cpu()[0])
        wn, bn = arrays[-1]
        arrays[-1] = (wn, bn - float((mu / sd) @ v))
        return ValueNet([(w, b) for w, b in arrays], {}, skip=v / sd)

    first = validate()
    best = (first[0], snapshot())
    history: list[dict[str, Any]] = [
        {"epoch": 0, "train_ce": None, "val_ce": round(first[0], 4), "val_top1": round(first[1], 3)}
    ]
    if log is not None:
        log(history[-1])
    gen = np.random.default_rng(seed + 1)
    for epoch in range(epochs):
        mlp.train()
        perm = gen.permutation(train_ids)
        total = 0.0
        for start in range(0, len(perm), batch):
            ids = perm[start : start + batch]
            opt.zero_grad()
            loss, _ = loss_of(*batch_of(ids))
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(ids)
        v_loss, v_agree = validate()
        history.append(
            {
                "epoch": epoch + 1,
                "train_ce": round(total / max(len(perm), 1), 4),
                "val_ce": round(v_loss, 4),
                "val_top1": round(v_agree, 3),
            }
        )
        if log is not None:
            log(history[-1])
        if v_loss < best[0] or not len(val_ids):
            best = (v_loss, snapshot())
    # The entropy of the targets: the cross-entropy a perfect predictor would reach.
    t = share[rows[val][rows[val] >= 0]] if len(val_ids) else np.zeros(0)
    entropy = float(-(t[t > 0] * np.log(t[t > 0])).sum() / max(len(val_ids), 1))
    report = {
        "kind": "policy",
        "hidden": hidden,
        "epochs": epochs,
        "lr": lr,
        "batch": batch,
        "weight_decay": weight_decay,
        "dropout": dropout,
        "start_temperature": START_TEMPERATURE,
        "train_decisions": int(len(train_ids)),
        "val_decisions": int(len(val_ids)),
        "val_games": len(np.unique(index[val])),
        "val_target_entropy": round(entropy, 4),
        "best_val_ce": round(best[0], 4),
        "best_epoch": min(history, key=lambda h: h["val_ce"])["epoch"],
        "history": history,
        "device": device,
        "torch": torch.__version__,
    }
    return best[1], report


#: The tiny configuration of the policy head (tests, smoke runs).
TINY_POLICY: dict[str, Any] = {
    "games": 2,
    "agent": "learned:iterations=12:prior=eval",
    "hidden": "8",
    "epochs": 2,
    "max_plies": 60,
}


def train_policy(
    game: Game,
    *,
    games: int,
    agent: str,
    seed: int,
    options: dict[str, Any] | None = None,
    workers: int = 1,
    hidden: list[int] | None = None,
    epochs: int = 10,
    device: str = "cpu",
    opening_plies: int = 4,
    max_plies: int | None = None,
    every: int = 2,
    out: str | Path,
    data_out: str | Path | None = None,
    data_in: list[str] | None = None,
    command: str | None = None,
    log: Any = None,
    teacher: str | None = None,
    holdout: float = 0.1,
) -> dict[str, Any]:
    """Self-play by a search (or saved data), fit the policy head, write it and its record."""

    def say(text: str) -> None:
        if log is not None:
            log(text)

    started = time.perf_counter()
    parts: list[dict[str, np.ndarray]] = []
    records: list[dict[str, Any]] = []
    offset = 0
    for path in data_in or []:
        with np.load(path) as d:
            part = {k: d[k] for k in ("x", "share", "sizes", "index")}
        part["index"] = part["index"] + offset
        offset = int(part["index"].max()) + 1 if len(part["index"]) else offset
        parts.append(part)
        meta_path = Path(path).with_suffix(".json")
        records.append(
            {
                "file": Path(path).name,
                **(json.loads(meta_path.read_text()) if meta_path.is_file() else {}),
            }
        )
    selfplay_seconds = 0.0
    if games > 0:

        def progress(done: int, total: int) -> None:
            if done == total or done % max(1, total // 10) == 0:
                say(f"self-play: {done}/{total} games")

        arrays, summary = generate_policy(
            game,
            games,
            agent,
            seed,
            options,
            workers,
            opening_plies,
            max_plies,
            every,
            progress,
            teacher,
        )
        selfplay_seconds = summary["seconds"]
        if data_out is not None:
            np.savez_compressed(data_out, **arrays)  # type: ignore[arg-type]
            Path(data_out).with_suffix(".json").write_text(json.dumps(summary, indent=2) + "\n")
        arrays["index"] = arrays["index"] + offset
        parts.append(arrays)
        records.append(summary)
    if not parts:
        raise SengokuError("nothing to train on: give --games or --data")
    data = {k: np.concatenate([p[k] for p in parts]) for k in ("x", "share", "sizes", "index")}
    say(f"training the policy head on {len(data['sizes'])} decisions ({device})")
    fit_start = time.perf_counter()
    net, report = fit_policy(
        data,
        hidden or [32],
        epochs,
        seed,
        device,
        holdout=holdout,
        log=lambda h: say(f"epoch {h['epoch']}: train {h['train_ce']} val {h['val_ce']}"),
    )
    fit_seconds = time.perf_counter() - fit_start
    meta = made_record(
        game,
        net,
        command=command,
        seed=seed,
        data=records,
        training=report,
        selfplay_seconds=selfplay_seconds,
        fit_seconds=fit_seconds,
        started=started,
        workers=workers,
        kind="policy",
    )
    # No default: the caller names the file (the CLI's --out rule: fitting.output_path).
    target = Path(out)
    net.save(target, meta)
    say(f"wrote {target} and {target.with_suffix('.json')}")
    return meta
