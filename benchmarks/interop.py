"""Random play through each research adapter against the contract directly.

``python benchmarks/interop.py [--seconds S] [--games gungi,gunkimono,...]`` prints, per game,
plies per second of uniformly random play:

* ``direct``: the contract itself (``legal_actions``, ``apply``);
* ``openspiel``: a ``pyspiel`` state (``legal_actions``, ``apply_action``), no observations;
* ``openspiel+obs``: the same, also filling the acting player's observation tensor (through
  ``open_spiel.python.observation.make_observation``, OpenSpiel's numpy path; the
  ``state.observation_tensor()`` call converts thousands of floats to a Python list);
* ``pettingzoo``: the wrapped AEC environment in its usual loop (``last()``, the action drawn
  from the mask): random play reads only the mask, so the observation tensor, encoded on
  first read, is never encoded;
* ``pettingzoo+obs``: the same loop, also reading ``observation["observation"]`` every ply
  (as a learner does): it pays for every tensor;
* ``gymnasium``: the one-player environment (one-player games only), same loop; it returns
  the observation, tensor included, every step.

Every player draws its action with the same ``random.Random.choice`` over the legal
integers (the mask's, for the environments), so the draw costs every player alike.

and each adapter's ratio to ``direct`` (the target is at least 0.5), all measured in the same
run, and memory: the peak of Python allocations (``tracemalloc``) while each player plays
``--memory-plies`` more plies after the timing (what a ply allocates on top of the game the
player already holds), and the process's peak resident size at the end. Last, where an
adapter's time goes (:func:`breakdown`): microseconds per ply of the direct ply, of the legal
actions' integers, of ``view(seat)`` and of its encoding. The players take turns
(``--rounds`` slices each), so a change in the machine's load falls on all of them; each keeps
its games going between turns. The random draws differ, so games differ in length: plies per
second, not games, are compared.
"""

from __future__ import annotations

import argparse
import itertools
import random
import resource
import sys
import time
import tracemalloc
from collections.abc import Iterator
from typing import Any

import numpy as np

import sengoku

CASES: list[tuple[str, dict[str, Any]]] = [
    ("gungi", {"mode": "intro"}),
    ("gunkimono", {"players": 2}),
    ("gunshi", {}),
    ("sashimono", {"mode": "duel"}),
    ("sashimono", {"mode": "solo"}),
]


def legal_of(mask: np.ndarray) -> np.ndarray:
    """The legal action integers of an int8 mask (a bool view: numpy scans it far faster)."""
    return np.flatnonzero(mask.view(np.bool_))


#: A player: an endless generator of random plies (it yields once per ply played).
Plies = Iterator[None]


def direct(name: str, options: dict[str, Any]) -> Plies:
    game = sengoku.load_game(name)
    rng = random.Random(0)
    for seed in itertools.count():
        state = game.new_state(seed=seed, **options)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            yield


def openspiel(name: str, options: dict[str, Any], observe: bool) -> Plies:
    from open_spiel.python.observation import make_observation

    from sengoku.interop import openspiel as osp

    game = osp.load(name, **options)
    observation = make_observation(game)
    rng = random.Random(0)
    while True:
        state = game.new_initial_state()
        while state.is_chance_node():  # the deal: the seed's bytes
            state.apply_action(rng.randrange(osp.CHANCE_OUTCOMES))
        while not state.is_terminal():
            if observe:
                observation.set_from(state, state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            yield


def pettingzoo(name: str, options: dict[str, Any], observe: bool = False) -> Plies:
    from sengoku.interop.pettingzoo import env as make_env

    env = make_env(name, **options)
    rng = random.Random(0)
    for seed in itertools.count():
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            observation, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            if observe:
                observation["observation"]  # noqa: B018 - encodes the tensor, as a learner would
            env.step(rng.choice(legal_of(observation["action_mask"]).tolist()))
            yield


def gymnasium(name: str, options: dict[str, Any]) -> Plies:
    from sengoku.interop.gymnasium import SoloEnv

    env = SoloEnv(name, **options)
    rng = random.Random(0)
    for seed in itertools.count():
        observation, _info = env.reset(seed=seed)
        done = False
        while not done:
            action = rng.choice(legal_of(observation["action_mask"]).tolist())
            observation, _r, terminated, truncated, _i = env.step(action)
            done = terminated or truncated
            yield


def measure(players: dict[str, Plies], seconds: float, rounds: int) -> dict[str, float]:
    """Plies per second of each player, run in turns of ``seconds / rounds`` each.

    Taking turns (direct, then each adapter, again and again) spreads any change in the
    machine's load over all of them; the generators keep their games between turns.
    """
    plies = dict.fromkeys(players, 0)
    spent = dict.fromkeys(players, 0.0)
    clock = time.perf_counter
    for _ in range(rounds):
        for label, player in players.items():
            start = clock()
            deadline = start + seconds / rounds
            count = 0
            for _ in player:
                count += 1
                if clock() >= deadline:
                    break
            spent[label] += clock() - start
            plies[label] += count
    return {label: plies[label] / spent[label] for label in players}


def peak_kib(player: Plies, plies: int) -> float:
    """Peak Python memory (KiB) allocated while ``player`` plays ``plies`` more plies."""
    tracemalloc.start()
    try:
        for _ in itertools.islice(player, plies):
            pass
        return tracemalloc.get_traced_memory()[1] / 1024
    finally:
        tracemalloc.stop()


def max_rss_mib() -> float:
    """The process's peak resident set size so far (MiB)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def breakdown(name: str, options: dict[str, Any], plies: int = 1500) -> dict[str, float]:
    """Microseconds per ply of each part of an adapter step, on the positions of random play:
    the direct ply (``legal_actions`` + ``apply``), the legal actions' integers
    (``action_to_int`` over the legal list), ``view(seat)`` of the player to act and its
    encoding. The first three are the game's own code; only the encoder is the adapter's."""
    from sengoku.interop.encoders import encoder_for

    game = sengoku.load_game(name)
    encoder = encoder_for(game, options)
    rng = random.Random(0)
    clock = time.perf_counter
    spent = dict.fromkeys(("ply", "action ints", "view", "encode"), 0.0)
    count = legal_count = 0
    seed = 0
    while count < plies:
        state = game.new_state(seed=seed, **options)
        seed += 1
        while not state.is_terminal() and count < plies:
            t0 = clock()
            legal = state.legal_actions()
            t1 = clock()
            for action in legal:
                game.action_to_int(state, action)
            t2 = clock()
            seat = state.current_player
            view = state.view(seat)
            t3 = clock()
            encoder.encode(view, seat)
            t4 = clock()
            state.apply(rng.choice(legal))
            t5 = clock()
            spent["ply"] += (t1 - t0) + (t5 - t4)
            spent["action ints"] += t2 - t1
            spent["view"] += t3 - t2
            spent["encode"] += t4 - t3
            count += 1
            legal_count += len(legal)
    result = {part: seconds / count * 1e6 for part, seconds in spent.items()}
    result["legal actions"] = legal_count / count
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per figure, in all")
    parser.add_argument("--rounds", type=int, default=20, help="turns each figure is cut into")
    parser.add_argument("--games", default="", help="comma-separated names (default: all)")
    parser.add_argument(
        "--memory-plies", type=int, default=200, help="plies traced for the peak memory"
    )
    args = parser.parse_args(argv)
    wanted = {g for g in args.games.split(",") if g}
    print(f"{'game':<28}{'adapter':<16}{'plies/s':>10}{'x direct':>10}{'peak KiB':>10}")
    for name, options in CASES:
        if wanted and name not in wanted:
            continue
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        players: dict[str, Plies] = {
            "direct": direct(name, options),
            "openspiel": openspiel(name, options, observe=False),
            "openspiel+obs": openspiel(name, options, observe=True),
            "pettingzoo": pettingzoo(name, options),
            "pettingzoo+obs": pettingzoo(name, options, observe=True),
        }
        if sengoku.load_game(name).new_state(**options).num_players == 1:
            players["gymnasium"] = gymnasium(name, options)
        rates = measure(players, args.seconds, args.rounds)
        peaks = {
            adapter: peak_kib(player, args.memory_plies) for adapter, player in players.items()
        }
        for adapter, rate in rates.items():
            print(
                f"{label:<28}{adapter:<16}{rate:>10.0f}{rate / rates['direct']:>10.2f}"
                f"{peaks[adapter]:>10.0f}"
            )
    print(f"peak resident size of the process: {max_rss_mib():.0f} MiB")
    print()
    print("microseconds per ply: direct ply, action ints, view, encode (legal actions)")
    for name, options in CASES:
        if wanted and name not in wanted:
            continue
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        parts = breakdown(name, options)
        print(
            f"{label:<28}"
            + "".join(f"{parts[k]:>8.0f}" for k in ("ply", "action ints", "view", "encode"))
            + f"   ({parts['legal actions']:.0f})"
        )


if __name__ == "__main__":
    main()
