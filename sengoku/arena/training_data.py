"""Self-play data for the value network, played on the arena's backends.

The games are ordinary arena games (:func:`sengoku.arena.match.play_game`, the same tasks the
arena schedules), so they run on the arena's local process pool (``workers``) or on Ray, and
each returns its full record. The records are then replayed here and every position where
the seat to act has a choice becomes one example: the network's inputs for that seat (its
view only) and the game's return for it at the end (win 1, draw 0, loss -1).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from sengoku.ai.learned.model import Inputs
from sengoku.ai.mcts import playout_values
from sengoku.arena.backends import Backend, LocalBackend
from sengoku.arena.match import agent_seed, game_ref
from sengoku.core.features import Features
from sengoku.core.game import Game, State
from sengoku.core.record import GameRecord


def tasks(
    game: Game,
    games: int,
    agent: str,
    seed: int,
    options: dict[str, Any],
    opening_plies: int,
    max_plies: int | None,
) -> Iterator[dict[str, Any]]:
    """Arena tasks: ``agent`` against itself, a fresh deal and random opening each game."""
    num_players = game.new_state(seed, **options).num_players
    for index in range(games):
        yield {
            "index": index,
            "block": index,
            "game_ref": game_ref(game),
            "options": dict(options),
            "game_seed": agent_seed(seed, index, 7),
            "opening_seed": agent_seed(seed, index, 8),
            "opening_plies": opening_plies,
            "seats": [agent] * num_players,
            "seed": seed,
            "defaults": {},
            "max_plies": max_plies,
        }


def playout_target(
    state: State, seat: int, knowledge: Features, playouts: int, rng: random.Random
) -> float:
    """The value for ``seat`` that an IS-MCTS leaf estimates by playouts, measured with many:
    the mean, over ``playouts`` fresh determinizations for the seat (its view only), of the
    game's rollout policy played ``rollout_depth`` plies and then evaluated, in [-1, 1]."""
    total = 0.0
    for _ in range(playouts):
        world = state.determinize(seat, rng)
        total += playout_values(world, knowledge, rng, knowledge.rollout_depth)[seat]
    return 2.0 * total / playouts - 1.0


def sampled_choices(result: dict[str, Any], every: int, rng: random.Random) -> Iterator[State]:
    """A played game's positions where the seat to act has a choice, every ``every``-th of
    them (a random phase), replayed from its record (the state changes in place)."""
    phase = rng.randrange(every)
    count = 0
    for step in GameRecord.from_json(result["record"]).steps(check_result=False):
        state = step.state
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        count += 1
        if count % every == phase:
            yield state


def examples(
    result: dict[str, Any],
    inputs: Inputs,
    every: int,
    rng: random.Random,
    playouts: int = 0,
) -> tuple[list[np.ndarray], list[float]]:
    """A played game's examples: every ``every``-th choice (a random phase), per mover, with
    the game's return for the mover (an adjudicated game is a draw: 0); with ``playouts``,
    instead the mean playout value for the mover (:func:`playout_target`), a target of far
    less noise than one game's result."""
    returns = [float(r) for r in result["outcome"]["returns"]]
    xs: list[np.ndarray] = []
    ys: list[float] = []
    if not returns:
        return xs, ys
    for state in sampled_choices(result, every, rng):
        seat = state.current_player
        xs.append(inputs.encode(state, seat))
        ys.append(
            playout_target(state, seat, inputs.knowledge, playouts, rng)
            if playouts
            else returns[seat]
        )
    return xs, ys


def generate(
    game: Game,
    games: int,
    agent: str,
    seed: int,
    options: dict[str, Any] | None = None,
    backend: Backend | None = None,
    opening_plies: int = 4,
    max_plies: int | None = None,
    every: int = 2,
    progress: Any = None,
    playouts: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    """Play ``games`` self-play games; inputs ``x``, targets ``y``, each example's game
    index (to hold whole games out for validation) and a summary of what was played."""
    resolved = game.new_state(seed, **(options or {})).options
    inputs = Inputs(game, dict(resolved))
    backend = backend or LocalBackend(1)
    rng = random.Random(seed)
    xs: list[np.ndarray] = []
    ys: list[float] = []
    index: list[int] = []
    start = time.perf_counter()
    plies = 0
    outcomes: dict[str, int] = {}
    done = 0
    for result in backend.run(
        tasks(game, games, agent, seed, options or {}, opening_plies, max_plies)
    ):
        gx, gy = examples(result, inputs, every, rng, playouts)
        xs.extend(gx)
        ys.extend(gy)
        index.extend([int(result["index"])] * len(gx))
        plies += int(result["plies"])
        winners = result["outcome"]["winners"]
        key = "draw" if not winners else f"seat{winners[0]}"
        outcomes[key] = outcomes.get(key, 0) + 1
        done += 1
        if progress is not None:
            progress(done, games, len(xs))
    seconds = time.perf_counter() - start
    x = np.stack(xs).astype(np.float32) if xs else np.zeros((0, inputs.size), np.float32)
    summary = {
        "games": games,
        "agent": agent,
        "seed": seed,
        "options": dict(resolved),
        "opening_plies": opening_plies,
        "max_plies": max_plies,
        "every": every,
        "target": f"mean of {playouts} playouts" if playouts else "outcome",
        "positions": len(ys),
        "mean_plies": round(plies / max(games, 1), 1),
        "outcomes": outcomes,
        "backend": backend.describe(),
        "seconds": round(seconds, 1),
    }
    return x, np.asarray(ys, np.float32), np.asarray(index, np.int32), summary
