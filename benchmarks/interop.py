"""Random play through each research adapter against the contract directly.

``python benchmarks/interop.py [--seconds S] [--games gungi,gunkimono,...]`` prints, per game,
plies per second of uniformly random play:

* ``direct``: the contract itself (``legal_actions``, ``apply``);
* ``openspiel``: a ``pyspiel`` state (``legal_actions``, ``apply_action``), no observations;
* ``openspiel+obs``: the same, also filling the acting player's observation tensor (through
  ``open_spiel.python.observation.make_observation``, OpenSpiel's numpy path; the
  ``state.observation_tensor()`` call converts thousands of floats to a Python list);
* ``pettingzoo``: the wrapped AEC environment in its usual loop (``last()`` builds the
  observation and mask, the action is drawn from the mask);
* ``gymnasium``: the one-player environment (one-player games only), same loop.

and each adapter's ratio to ``direct`` (the target is at least 0.5). The machine's speed
cancels out of the ratios; the random draws differ, so games differ in length: plies per
second, not games, are compared.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
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


def timed(loop: Callable[[float], int], seconds: float) -> float:
    """Plies per second of ``loop(deadline)`` (which returns the plies it played)."""
    start = time.perf_counter()
    plies = loop(start + seconds)
    return plies / (time.perf_counter() - start)


def direct(name: str, options: dict[str, Any]) -> Callable[[float], int]:
    game = sengoku.load_game(name)

    def loop(deadline: float) -> int:
        rng = random.Random(0)
        plies = seed = 0
        while time.perf_counter() < deadline:
            state = game.new_state(seed=seed, **options)
            seed += 1
            while not state.is_terminal():
                state.apply(rng.choice(state.legal_actions()))
                plies += 1
        return plies

    return loop


def openspiel(name: str, options: dict[str, Any], observe: bool) -> Callable[[float], int]:
    from open_spiel.python.observation import make_observation

    from sengoku.interop import openspiel as osp

    game = osp.load(name, **options)
    observation = make_observation(game)

    def loop(deadline: float) -> int:
        rng = random.Random(0)
        plies = 0
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if observe:
                    observation.set_from(state, state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                plies += 1
        return plies

    return loop


def pettingzoo(name: str, options: dict[str, Any]) -> Callable[[float], int]:
    from sengoku.interop.pettingzoo import env as make_env

    env = make_env(name, **options)

    def loop(deadline: float) -> int:
        rng = np.random.default_rng(0)
        plies = seed = 0
        while time.perf_counter() < deadline:
            env.reset(seed=seed)
            seed += 1
            for _agent in env.agent_iter():
                observation, _reward, termination, truncation, _info = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                env.step(int(rng.choice(legal_of(observation["action_mask"]))))
                plies += 1
        return plies

    return loop


def gymnasium(name: str, options: dict[str, Any]) -> Callable[[float], int]:
    from sengoku.interop.gymnasium import SoloEnv

    env = SoloEnv(name, **options)

    def loop(deadline: float) -> int:
        rng = np.random.default_rng(0)
        plies = seed = 0
        while time.perf_counter() < deadline:
            observation, _info = env.reset(seed=seed)
            seed += 1
            done = False
            while not done:
                action = int(rng.choice(legal_of(observation["action_mask"])))
                observation, _r, terminated, truncated, _i = env.step(action)
                done = terminated or truncated
                plies += 1
        return plies

    return loop


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--games", default="", help="comma-separated names (default: all)")
    args = parser.parse_args(argv)
    wanted = {g for g in args.games.split(",") if g}
    print(f"{'game':<28}{'adapter':<16}{'plies/s':>10}{'x direct':>10}")
    for name, options in CASES:
        if wanted and name not in wanted:
            continue
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        base = timed(direct(name, options), args.seconds)
        print(f"{label:<28}{'direct':<16}{base:>10.0f}{1.0:>10.2f}")
        adapters: list[tuple[str, Callable[[float], int]]] = [
            ("openspiel", openspiel(name, options, observe=False)),
            ("openspiel+obs", openspiel(name, options, observe=True)),
            ("pettingzoo", pettingzoo(name, options)),
        ]
        if sengoku.load_game(name).new_state(**options).num_players == 1:
            adapters.append(("gymnasium", gymnasium(name, options)))
        for adapter, loop in adapters:
            rate = timed(loop, args.seconds)
            print(f"{label:<28}{adapter:<16}{rate:>10.0f}{rate / base:>10.2f}")


if __name__ == "__main__":
    main()
