"""Texel tuning of an evaluation made of a compiled search's tables (Gungi's; issue 20).

A game whose features declare ``texel = "tables"`` hands this module its parameter layout
through ``Features.texel_tables()`` (:class:`TableTuning`: Gungi's is
``sengoku/games/gungi/eval_tables.py``); this module names no game. Gungi's native search's
evaluation is linear in a few tables: a top piece's worth by piece, tier and square, each
kind's value (buried pieces, pieces in hand) and two factors. Tuning keeps that form, so the
tuned evaluation runs in the same native search with no C++ change:

1. *Self-play*: games of the native alpha-beta at small node budgets (a budget per side drawn
   for each game, a few random opening plies), and every ``every``-th quiet position (no
   capture or betrayal for the side to move) kept with the game's result for White (1, 0.5
   for a draw or an adjudicated game, 0). Positions are stored raw (towers and hands), so any
   parameterisation can be fitted to them.
2. *Fit* (logistic regression, "Texel tuning"): P(White wins) = sigmoid(K * balance), with
   balance White's evaluation minus Black's; K is fitted for the hand-made evaluation and then
   kept, and the parameters minimise the log-loss plus a ridge penalty towards the hand-made
   values (so thin data cannot move them far). Whole games are held out.

The parameters are laid out by the game (Gungi: :mod:`sengoku.games.gungi.eval_tables`).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any, Protocol, cast

import numpy as np

from sengoku.arena.fitting import command_words, output_path
from sengoku.core.game import Game, SengokuError, State

#: The ridge towards the hand-made tables unless --l2 (per mean squared parameter change).
L2 = "20"
#: The tiny configuration the test runs (seconds).
TINY = {"games": 4, "nodes": "60,120", "max_plies": 60, "every": 2, "opening_plies": 4}


class TableTuning(Protocol):
    """What a game's ``Features.texel_tables()`` offers to be tuned here (Gungi's
    ``eval_tables`` module): its parameter layout, the positions it keeps, and its fit."""

    #: Piece kinds (the hands' second axis).
    NK: int

    def features(self, towers: np.ndarray, hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...

    def balance(self, theta: np.ndarray, lin: np.ndarray, counts: np.ndarray) -> np.ndarray: ...

    def hand_made(self) -> np.ndarray: ...

    def to_json(self, theta: np.ndarray) -> dict[str, Any]: ...

    def fit(
        self,
        lin: np.ndarray,
        counts: np.ndarray,
        y: np.ndarray,
        prior: np.ndarray,
        k: float,
        l2: float,
        steps: int = 3000,
        lr: float = 0.02,
    ) -> np.ndarray: ...

    def quiet_position(self, state: State) -> tuple[np.ndarray, np.ndarray] | None: ...


def table_tuning(game: Game) -> tuple[TableTuning, Path]:
    """The game's table layout and where its tuned tables ship, if its features declare
    ``texel = "tables"``; else a refusal naming what the game declares."""
    knowledge = game.features()
    if knowledge.texel != "tables" or knowledge.learned_path is None:
        raise SengokuError(
            f"--texel: {game.name}'s evaluation is not made of a search's tables "
            f"(its features declare texel={knowledge.texel!r})"
        )
    return cast(TableTuning, knowledge.texel_tables()), knowledge.learned_path


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))  # type: ignore[no-any-return]


def fit_k(b: np.ndarray, y: np.ndarray) -> float:
    """The logistic scale K that fits ``y`` best from the balances ``b`` (golden section)."""
    lo, hi = 1e-4, 5.0
    g = (math.sqrt(5) - 1) / 2
    for _ in range(80):
        a, c = hi - g * (hi - lo), lo + g * (hi - lo)
        if log_loss(sigmoid(a * b), y) < log_loss(sigmoid(c * b), y):
            hi = c
        else:
            lo = a
    return (lo + hi) / 2


# ------------------------------------------------------------------------ self-play


def self_play(
    game: Game,
    games: int,
    seed: int,
    nodes: list[int],
    opening_plies: int,
    max_plies: int,
    every: int,
    options: dict[str, Any],
    log: Any = None,
) -> dict[str, np.ndarray]:
    """Quiet positions (the game's ``quiet_position``) of native alpha-beta self-play, each
    with its game's result for the first seat."""
    from sengoku.ai.alphabeta import AlphaBetaAgent
    from sengoku.ai.base import Budget

    tables, _ = table_tuning(game)

    towers: list[np.ndarray] = []
    hands: list[np.ndarray] = []
    to_move: list[int] = []
    game_of: list[int] = []
    results: list[float] = []
    outcomes = {"white": 0, "black": 0, "draw": 0, "adjudicated": 0}
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        state: Any = game.new_state(seed=rng.randrange(2**31), **options)
        budgets = [rng.choice(nodes), rng.choice(nodes)]
        agents = [
            AlphaBetaAgent(game, seed=rng.randrange(2**31), native=1),
            AlphaBetaAgent(game, seed=rng.randrange(2**31), native=1),
        ]
        start = len(towers)
        ply = 0
        while not state.is_terminal() and ply < max_plies:
            seat = state.current_player
            if ply < opening_plies:
                move = rng.choice(state.legal_actions())
            else:
                quiet = tables.quiet_position(state) if ply % every == 0 else None
                if quiet is not None:
                    towers.append(quiet[0])
                    hands.append(quiet[1])
                    to_move.append(seat)
                    game_of.append(g)
                move = agents[seat].choose(state, seat, Budget(iterations=budgets[seat]))
            state.apply(move)
            ply += 1
        if state.is_terminal():
            r = state.returns()[0]
            white = 1.0 if r > 0 else 0.0 if r < 0 else 0.5
            outcomes["white" if r > 0 else "black" if r < 0 else "draw"] += 1
        else:
            white = 0.5
            outcomes["adjudicated"] += 1
        results.extend([white] * (len(towers) - start))
        if log is not None:
            print(
                f"game {g + 1}/{games}: {ply} plies, White {white}, nodes {budgets}, "
                f"{len(towers)} positions",
                file=log,
                flush=True,
            )
    return {
        "towers": np.array(towers, dtype=np.int8).reshape(-1, 81, 3),
        "hands": np.array(hands, dtype=np.int8).reshape(-1, 2, tables.NK),
        "to_move": np.array(to_move, dtype=np.int8),
        "game": np.array(game_of, dtype=np.int32),
        "result": np.array(results, dtype=np.float64),
        "outcomes": np.array([outcomes[k] for k in ("white", "black", "draw", "adjudicated")]),
    }


# ------------------------------------------------------------------------ the command


def save_data(path: str, data: dict[str, np.ndarray], record: dict[str, Any]) -> None:
    np.savez_compressed(path, **data)  # type: ignore[arg-type]
    Path(path).with_suffix(".json").write_text(json.dumps(record, indent=1) + "\n")


def load_data(path: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    with np.load(path) as archive:
        data = {key: archive[key] for key in archive.files}
    meta = Path(path).with_suffix(".json")
    record = json.loads(meta.read_text()) if meta.exists() else {"file": path}
    return data, record


def load_chunks(
    paths: list[str], key: str, game: str
) -> tuple[list[dict[str, np.ndarray]], list[dict[str, Any]]]:
    """The saved self-play data of ``--data`` and their records; a file without ``key``
    (another tuner's or another game's positions) is refused by name."""
    chunks: list[dict[str, np.ndarray]] = []
    records: list[dict[str, Any]] = []
    for path in paths:
        data, record = load_data(path)
        if key not in data:
            raise SengokuError(f"--data {path}: not self-play positions of --texel for {game}")
        chunks.append(data)
        records.append(record)
    return chunks, records


def write_weights(
    path: Path,
    out_words: str,
    values: dict[str, Any],
    words: list[str],
    made: dict[str, Any],
    held_out: list[tuple[dict[str, np.ndarray], dict[str, Any]]],
    started: float,
) -> None:
    """Write a tuned evaluation (``values``) with the record of its making: the effective
    command (``words`` and ``out_words``, where it was written), ``made`` (seed, data, fit),
    the held-out data's records and the cost; to ``path`` (:func:`~sengoku.arena.fitting.
    output_path` decides it: the shipped file only when asked)."""
    weights = {
        **values,
        "made": {
            "command": " ".join([*words, out_words]),
            **made,
            **({"held_out_data": [record for _, record in held_out]} if held_out else {}),
            "seconds": round(time.time() - started, 1),
            "finished_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        },
    }
    path.write_text(json.dumps(weights, indent=1) + "\n")
    print(f"wrote {path}", file=sys.stderr)


def _concat(chunks: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Data sets in one, their games numbered apart (the held-out split is by game)."""
    out: dict[str, list[np.ndarray]] = {k: [] for k in ("towers", "hands", "game", "result")}
    offset = 0
    for chunk in chunks:
        for key in ("towers", "hands", "result"):
            out[key].append(chunk[key])
        out["game"].append(chunk["game"].astype(np.int64) + offset)
        offset += int(chunk["game"].max(initial=-1)) + 1
    return {k: np.concatenate(v) for k, v in out.items()}


def split_by_game(games: np.ndarray, of: np.ndarray, share: float, seed: int) -> np.ndarray:
    """A mask of the positions of ``share`` of the games (at least one), drawn by ``seed``."""
    rng = np.random.default_rng(seed)
    held = rng.choice(games, size=max(1, round(share * len(games))), replace=False)
    return np.isin(of, held)


def tune(
    tables: TableTuning,
    data: dict[str, np.ndarray],
    l2s: list[float],
    held_out: float,
    seed: int,
    steps: int,
    test_data: dict[str, np.ndarray] | None = None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """The tuned parameters and the record of the fit (losses on train and held-out games).

    Whole games are held out (``held_out`` of them, or, given ``test_data``, exactly the games
    of that data, so that fits on different amounts of data are scored on the same games) and
    never fitted; with several ridge weights ``l2s`` the one with the lowest loss on a
    validation tenth of the training games is chosen, then refitted on all the training
    games."""
    first = int(data["game"].max(initial=-1)) + 1  # the test games are numbered after
    if test_data is not None:
        data = _concat([data, test_data])
    lin, counts = tables.features(data["towers"].astype(np.int64), data["hands"].astype(np.float64))
    balance, fit = tables.balance, tables.fit
    y = data["result"].astype(np.float64)
    of = data["game"]
    games = np.unique(of)
    test = of >= first if test_data is not None else split_by_game(games, of, held_out, seed)
    train = ~test
    prior = tables.hand_made()
    k = fit_k(balance(prior, lin[train], counts[train]), y[train])
    validation: dict[str, float] = {}
    l2 = l2s[0]
    if len(l2s) > 1:
        inner = train & split_by_game(np.unique(of[train]), of, 0.1, seed + 1)
        fitted = train & ~inner
        for candidate in l2s:
            t = fit(lin[fitted], counts[fitted], y[fitted], prior, k, candidate, steps=steps)
            loss = log_loss(sigmoid(k * balance(t, lin[inner], counts[inner])), y[inner])
            validation[str(candidate)] = round(loss, 6)
        l2 = min(l2s, key=lambda c: validation[str(c)])
    theta = fit(lin[train], counts[train], y[train], prior, k, l2, steps=steps)

    def losses(t: np.ndarray) -> dict[str, float]:
        return {
            part: round(log_loss(sigmoid(k * balance(t, lin[m], counts[m])), y[m]), 6)
            for part, m in (("train", train), ("held_out", test))
        }

    constant = {
        part: round(log_loss(np.full(int(m.sum()), y[train].mean()), y[m]), 6)
        for part, m in (("train", train), ("held_out", test))
    }
    record = {
        "positions": int(len(y)),
        "games": int(len(games)),
        "held_out_games": int(len(np.unique(of[test]))),
        "held_out_positions": int(test.sum()),
        "k": round(k, 6),
        "l2": l2,
        "l2_validation_loss": validation,
        "steps": steps,
        "log_loss": {"constant": constant, "hand_made": losses(prior), "tuned": losses(theta)},
    }
    return theta, record


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--nodes", default="500,2000,8000", help="node budgets a side may draw")
    p.add_argument(
        "--l2",
        default=None,
        help="ridge weight(s) towards the hand-made values (default: 20 for a game of "
        "tables, 0.001 for a game of terms); several (comma-separated): the best on a validation tenth of the training "
        "games",
    )
    p.add_argument("--steps", type=int, default=3000, help="Adam steps of the fit (tables)")
    p.add_argument(
        "--fit",
        choices=("weights", "scale"),
        default="weights",
        help="a game of terms: fit every term's weight, or only the scale of the hand-made "
        "evaluation (its calibration)",
    )
    p.add_argument(
        "--held-out-data",
        action="append",
        default=[],
        help="score on this saved data (.npz), never fit it, instead of holding out a random "
        "tenth of the games (the same held-out games for fits on different data)",
    )


def run(args: argparse.Namespace, options: dict[str, Any], game: Game) -> int:
    """``sengoku train GAME --texel`` for a game of tables (Gungi): self-play, fit, and the
    weights with their record."""
    tables, learned_path = table_tuning(game)
    started = time.time()
    if args.tiny:
        for key, value in TINY.items():
            setattr(args, key, value)
        args.steps = min(args.steps, 300)
    nodes = [int(n) for n in str(args.nodes).split(",") if n.strip()]
    max_plies = args.max_plies or 300
    flags = [
        ("--games", args.games),
        ("--seed", args.seed),
        ("--nodes", args.nodes),
        ("--opening-plies", args.opening_plies),
        ("--max-plies", max_plies),
        ("--every", args.every),
        ("--l2", args.l2 or L2),
        ("--steps", args.steps),
    ]
    words = command_words(
        ["sengoku", "train", game.name, "--texel"], options, flags, args.data, args.held_out_data
    )
    # Decided before any self-play, so a refusal costs nothing.
    out, out_words = output_path(args.out, learned_path, args.overwrite_shipped)
    held_out = [load_data(path) for path in args.held_out_data]
    chunks, records = load_chunks(args.data, "towers", game.name)
    if args.games > 0:
        t0 = time.time()
        data = self_play(
            game,
            args.games,
            args.seed,
            nodes,
            args.opening_plies,
            max_plies,
            args.every,
            options,
            log=sys.stderr,
        )
        w, b, d, a = (int(x) for x in data["outcomes"])
        record = {
            "games": args.games,
            "agent": f"alphabeta:native=1, nodes a side drawn from {nodes}",
            "seed": args.seed,
            "options": options,
            "opening_plies": args.opening_plies,
            "max_plies": max_plies,
            "every": args.every,
            "positions": int(len(data["result"])),
            "outcomes": {"white": w, "black": b, "draw": d, "adjudicated": a},
            "seconds": round(time.time() - t0, 1),
        }
        print(f"self-play: {json.dumps(record)}", file=sys.stderr)
        if args.save_data:
            save_data(args.save_data, data, record)
        chunks.append(data)
        records.append(record)
    if not chunks or sum(len(c["result"]) for c in chunks) < 2:
        raise SengokuError("no positions to fit (--games 0 and no --data)")
    t0 = time.time()
    l2s = [float(x) for x in str(args.l2 or L2).split(",") if x.strip()]
    test_data = _concat([data for data, _ in held_out]) if held_out else None
    theta, fitted = tune(tables, _concat(chunks), l2s, 0.1, args.seed, args.steps, test_data)
    fitted["seconds"] = round(time.time() - t0, 1)
    print(f"fit: {json.dumps(fitted)}", file=sys.stderr)
    made = {"seed": args.seed, "data": records, "fit": fitted}
    write_weights(
        out, out_words, {"parameters": tables.to_json(theta)}, words, made, held_out, started
    )
    return 0
