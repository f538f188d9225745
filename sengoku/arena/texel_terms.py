"""Texel tuning of an evaluation linear in per-side terms (Sashimono's, Gunshi's; issue 20).

A game whose features declare ``texel = "terms"`` is tuned here; this module names no game.

Sashimono's evaluation (:mod:`sengoku.games.sashimono.features`) is a weighted sum of a few
terms of each side (victory points, bowed and standing Sashimono, the best line's attack and
defence, cards in hand), the seat's less its enemy's, times a scale; Gunshi's
(:mod:`sengoku.games.gunshi.features`) likewise (invaders, units near the enemy's Shogun,
the army, ...). IS-MCTS reads it at the
end of every playout, so the weights and the scale set what a leaf is worth. Tuning keeps
that form, so a tuned evaluation plays in the same search at the same speed:

1. *Self-play*: arena games of ``agent`` against itself (a fresh deal and a few random
   opening plies each), on the arena's backends (a local process pool with ``workers``, or
   Ray). Each record is replayed, and every ``every``-th decision with a choice gives one
   position: the mover's terms less its enemy's (``lead_terms``; the true state: training
   may see everything, the agents only ever evaluate determinizations) and the game's result
   for the mover (1, 0.5 for a draw, 0).
2. *Fit* (logistic regression, "Texel tuning"): P(the mover wins) = sigmoid(theta . lead),
   by Newton's method, with a ridge towards the hand-made evaluation (its weights times the
   K that fits the training games best). Whole games are held out. An evaluation's expected
   result is then ``tanh(theta . lead / 2)``, so the weights written are ``theta`` in
   victory points (``theta / theta[vp]``) and the scale is ``theta[vp] / 2``: a calibrated
   heuristic for ``evaluate``'s tanh.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from sengoku.arena.fitting import command_words, output_path
from sengoku.arena.texel import (
    fit_k,
    load_chunks,
    load_data,
    log_loss,
    save_data,
    sigmoid,
    split_by_game,
    write_weights,
)
from sengoku.core.game import Game, SengokuError, State

#: The ridge towards the hand-made evaluation (per unit of |theta - prior|^2) unless --l2.
L2 = "0.001"
#: What ``--fit`` may learn: every weight, or only the scale of the hand-made evaluation.
FITS = ("weights", "scale")
#: The tiny configuration the tests run (seconds): the whole pipeline, fitting only the
#: scale, since every weight fitted to four games of one-ply play is noise (in Gunshi it can
#: come out with a negative unit term, which ``weights_of`` refuses).
TINY: dict[str, Any] = {
    "games": 4,
    "agent": "greedy",
    "every": 2,
    "opening_plies": 2,
    "fit": "scale",
}


class TermFeatures(Protocol):
    """What a game's features offer to be tuned here (Sashimono's and Gunshi's do)."""

    terms: tuple[str, ...]
    #: Where the shipped tuned evaluation lives (the default ``--out``).
    learned_path: Path

    def lead_terms(self, state: State, seat: int) -> tuple[float, ...]: ...

    def hand_made_weights(self) -> tuple[tuple[float, ...], float]: ...


def term_features(game: Game) -> TermFeatures:
    """The game's features, if their evaluation is linear in per-side terms."""
    knowledge = game.features()
    if knowledge.texel != "terms" or knowledge.learned_path is None:
        raise SengokuError(
            f"--texel: {game.name}'s evaluation is not linear in per-side terms "
            f"(its features declare texel={knowledge.texel!r})"
        )
    found: TermFeatures = knowledge  # type: ignore[assignment]
    return found


# ------------------------------------------------------------------------ self-play


def positions(
    result: dict[str, Any], features: TermFeatures, every: int, rng: random.Random
) -> tuple[list[tuple[float, ...]], list[float]]:
    """One played game's positions: every ``every``-th decision with a choice (a random
    phase), the mover's lead in each term and the game's result for the mover."""
    from sengoku.arena.training_data import sampled_choices

    returns = [float(r) for r in result["outcome"]["returns"]]
    leads: list[tuple[float, ...]] = []
    results: list[float] = []
    if not returns:
        return leads, results
    for state in sampled_choices(result, every, rng):
        seat = state.current_player
        leads.append(features.lead_terms(state, seat))
        r = returns[seat]
        results.append(1.0 if r > 0 else 0.0 if r < 0 else 0.5)
    return leads, results


def self_play(
    game: Game,
    games: int,
    agent: str,
    seed: int,
    options: dict[str, Any],
    backend: Any,
    opening_plies: int,
    max_plies: int | None,
    every: int,
    log: Any = None,
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Self-play positions (``lead``, ``result``, ``game``) and the record of what was played."""
    from sengoku.arena.training_data import tasks

    features = term_features(game)
    rng = random.Random(seed)
    leads: list[tuple[float, ...]] = []
    results: list[float] = []
    game_of: list[int] = []
    outcomes: dict[str, int] = {}
    plies = 0
    t0 = time.perf_counter()
    for done, result in enumerate(
        backend.run(tasks(game, games, agent, seed, options, opening_plies, max_plies)), 1
    ):
        lead, res = positions(result, features, every, rng)
        leads.extend(lead)
        results.extend(res)
        game_of.extend([int(result["index"])] * len(lead))
        plies += int(result["plies"])
        winners = result["outcome"]["winners"]
        key = "draw" if len(winners) != 1 else f"seat{winners[0]}"
        outcomes[key] = outcomes.get(key, 0) + 1
        if log is not None:
            print(f"game {done}/{games}: {len(leads)} positions", file=log, flush=True)
    width = len(features.terms)
    data: dict[str, np.ndarray] = {
        "lead": np.array(leads, dtype=np.float64).reshape(-1, width),
        "result": np.array(results, dtype=np.float64),
        "game": np.array(game_of, dtype=np.int32),
    }
    record = {
        "games": games,
        "agent": agent,
        "seed": seed,
        "options": dict(game.new_state(seed, **options).options),
        "opening_plies": opening_plies,
        "max_plies": max_plies,
        "every": every,
        "terms": list(features.terms),
        "positions": len(results),
        "mean_plies": round(plies / max(games, 1), 1),
        "outcomes": outcomes,
        "backend": backend.describe(),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    return data, record


# ------------------------------------------------------------------------ the fit


def fit(
    lead: np.ndarray, y: np.ndarray, prior: np.ndarray, l2: float, steps: int = 50
) -> np.ndarray:
    """Minimise mean log-loss of sigmoid(lead . theta) + l2 * |theta - prior|^2 (Newton's
    method from the prior: the loss is convex)."""
    theta = prior.astype(np.float64).copy()
    n = len(y)
    eye = np.eye(len(theta))
    for _ in range(steps):
        p = sigmoid(lead @ theta)
        grad = lead.T @ (p - y) / n + 2 * l2 * (theta - prior)
        hess = (lead * (p * (1 - p))[:, None]).T @ lead / n + 2 * l2 * eye
        step = np.linalg.solve(hess, grad)
        theta -= step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return theta


def _concat(chunks: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Data sets in one, their games numbered apart (the held-out split is by game)."""
    offset = 0
    games = []
    for chunk in chunks:
        games.append(chunk["game"].astype(np.int64) + offset)
        offset += int(chunk["game"].max(initial=-1)) + 1
    return {
        "lead": np.concatenate([c["lead"] for c in chunks]),
        "result": np.concatenate([c["result"] for c in chunks]),
        "game": np.concatenate(games),
    }


def tune(
    data: dict[str, np.ndarray],
    features: TermFeatures,
    l2s: list[float],
    held_out: float,
    seed: int,
    test_data: dict[str, np.ndarray] | None = None,
    what: str = "weights",
) -> tuple[np.ndarray, dict[str, Any]]:
    """The fitted ``theta`` (P(win) = sigmoid(theta . lead)) and the record of the fit.

    ``what``: ``weights`` fits every term's weight; ``scale`` only the calibration (the
    hand-made weights times the K that fits best: the evaluation's shape kept, its
    confidence learned). Whole games are held out (``held_out`` of them, or exactly the games
    of ``test_data``); with several ridge weights the one with the lowest loss on a
    validation tenth of the training games is chosen, then refitted on all of them."""
    if what not in FITS:
        raise SengokuError(f"--fit must be one of {', '.join(FITS)}, got {what!r}")
    first = int(data["game"].max(initial=-1)) + 1
    if test_data is not None:
        data = _concat([data, test_data])
    lead, y, of = data["lead"], data["result"], data["game"]
    if lead.shape[1] != len(features.terms):
        raise SengokuError(
            f"--texel: the data has {lead.shape[1]} terms, the evaluation {len(features.terms)}"
        )
    games = np.unique(of)
    test = of >= first if test_data is not None else split_by_game(games, of, held_out, seed)
    train = ~test
    weights, scale = features.hand_made_weights()
    hand = np.array(weights, dtype=np.float64)
    k = fit_k(lead[train] @ hand, y[train])
    prior = k * hand
    validation: dict[str, float] = {}
    l2 = l2s[0]
    if what == "scale":
        l2s = l2s[:1]
    if len(l2s) > 1:
        inner = train & split_by_game(np.unique(of[train]), of, 0.1, seed + 1)
        fitted = train & ~inner
        for candidate in l2s:
            t = fit(lead[fitted], y[fitted], prior, candidate)
            validation[str(candidate)] = round(log_loss(sigmoid(lead[inner] @ t), y[inner]), 6)
        l2 = min(l2s, key=lambda c: validation[str(c)])
    theta = prior if what == "scale" else fit(lead[train], y[train], prior, l2)

    def losses(t: np.ndarray) -> dict[str, float]:
        return {
            part: round(log_loss(sigmoid(lead[m] @ t), y[m]), 6)
            for part, m in (("train", train), ("held_out", test))
        }

    record = {
        "positions": int(len(y)),
        "games": int(len(games)),
        "held_out_games": int(len(np.unique(of[test]))),
        "held_out_positions": int(test.sum()),
        "fit": what,
        "k": round(k, 6),
        "l2": l2 if what == "weights" else None,
        "l2_validation_loss": validation,
        "log_loss": {
            "constant": {
                part: round(log_loss(np.full(int(m.sum()), y[train].mean()), y[m]), 6)
                for part, m in (("train", train), ("held_out", test))
            },
            # The evaluation as it plays: P(win) = (1 + tanh(scale * lead . w)) / 2.
            "hand_made_as_shipped": losses(2 * scale * hand),
            "hand_made_calibrated": losses(prior),
            "tuned": losses(theta),
        },
    }
    return theta, record


def weights_of(theta: np.ndarray, features: TermFeatures) -> dict[str, float]:
    """``theta`` as an evaluation: the weights in units of the first term (Sashimono's
    victory points, Gunshi's invasions: its weight is 1) and the scale of the heuristic, ``theta[0] / 2`` (``evaluate`` takes its tanh)."""
    unit = float(theta[0])
    if unit <= 0:
        raise SengokuError(
            f"--texel: the fit gave the {features.terms[0]} term a weight of {unit:.4f}; "
            "more data is needed"
        )
    out = {name: round(float(t) / unit, 6) for name, t in zip(features.terms, theta, strict=True)}
    out["scale"] = round(unit / 2, 6)
    return out


# ------------------------------------------------------------------------ the command


def run(args: argparse.Namespace, options: dict[str, Any], game: Game) -> int:
    """``sengoku train GAME --texel`` for a game of terms (Sashimono): self-play, fit, and
    the weights with their record."""
    from sengoku.arena.backends import make_backend

    features = term_features(game)
    started = time.time()
    if args.tiny:
        for key, value in TINY.items():
            setattr(args, key, value)
    flags = [
        ("--games", args.games),
        ("--agent", args.agent),
        ("--seed", args.seed),
        ("--workers", args.workers),
        ("--backend", args.backend),
        ("--opening-plies", args.opening_plies),
        ("--max-plies", args.max_plies or None),
        ("--every", args.every),
        ("--l2", args.l2 or L2),
        ("--fit", args.fit),
    ]
    words = command_words(
        ["sengoku", "train", game.name, "--texel"], options, flags, args.data, args.held_out_data
    )
    # Decided before any self-play, so a refusal costs nothing.
    out, out_words = output_path(args.out, features.learned_path, args.overwrite_shipped)
    held_out = [load_data(path) for path in args.held_out_data]
    chunks, records = load_chunks(args.data, "lead", game.name)
    if args.games > 0:
        backend = make_backend(args.backend, args.workers, args.ray_address)
        data, record = self_play(
            game,
            args.games,
            args.agent,
            args.seed,
            options,
            backend,
            args.opening_plies,
            args.max_plies,
            args.every,
            log=sys.stderr,
        )
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
    theta, fitted = tune(_concat(chunks), features, l2s, 0.1, args.seed, test_data, args.fit)
    fitted["seconds"] = round(time.time() - t0, 1)
    print(f"fit: {json.dumps(fitted)}", file=sys.stderr)
    made = {"seed": args.seed, "data": records, "fit": fitted}
    weights = {"weights": weights_of(theta, features)}
    write_weights(out, out_words, weights, words, made, held_out, started)
    return 0
