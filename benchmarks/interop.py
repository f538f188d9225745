"""Random play through each research adapter against the contract directly.

``python benchmarks/interop.py [--seconds S] [--games gungi,gunkimono,...]`` prints, per game,
plies per second of uniformly random play:

* ``chess``: the reference, python-chess random play (``board.push`` of a random legal
  move), measured in the same turns as the others;
* ``pyspiel chess``: OpenSpiel's C++ chess driven from Python (``legal_actions``,
  ``apply_action``), a second reference: a C++ engine behind Python calls, as Gungi's direct
  play is (left out where ``pyspiel`` does not import);
* ``direct``: the contract itself (``legal_actions``, ``apply``);
* ``openspiel``: a ``pyspiel`` state (``legal_actions``, ``apply_action``), no observations;
* ``openspiel+obs``: the same, also filling the acting player's observation tensor (through
  ``open_spiel.python.observation.make_observation``, OpenSpiel's numpy path; the
  ``state.observation_tensor()`` call converts thousands of floats to a Python list);
* ``pettingzoo``: the wrapped AEC environment in its usual loop (``last()``, the action drawn
  from the mask): random play reads only the mask, so the observation tensor, encoded on
  first read, is never encoded;
* ``pettingzoo mask``: the same loop, reading ``observation["action_mask"]`` every ply (the
  environment makes the mask, as it does for an agent that reads it), the action drawn as
  every other player draws it, from the list of legal integers (``env.legal_actions()``):
  the adapter's cost with its mask, without the agent's scan of it (in ``pettingzoo``, the
  scan of Gungi's 57,025 entries costs about twice a direct ply, whatever the adapter);
* ``pettingzoo sparse``: the same loop, the action drawn from ``env.legal_actions()`` (the
  mask's nonzero entries as a list, as OpenSpiel gives them): neither the mask nor the tensor
  is made;
* ``pettingzoo+obs``: the same loop, also reading ``observation["observation"]`` every ply
  (as a learner does): it pays for every tensor;
* ``gymnasium``: the one-player environment (one-player games only), same loop: the action
  drawn from the mask, the tensor (encoded on first read, as in PettingZoo) never read;
* ``gymnasium+obs``: the same, also reading ``observation["observation"]`` every step;
* ``direct scan``: ``direct`` plus the agent's own work in the ``pettingzoo`` rows: a
  mask of the whole action space holding the legal integers (the cheapest an adapter can
  keep it, over the game's native match where it has one) scanned as those rows scan it.
  It is their ceiling: what they would run at over an adapter that cost nothing (for
  Gungi's 57,025 actions, below 0.5 of ``direct``: the goal of 0.5 cannot hold for an
  agent that scans the mask);
* ``direct copiesN``: ``direct`` plus, every N plies, the new all-zero mask and observation
  arrays that ``vectorN copy`` hands out: that row's ceiling, set by the memory written;
* ``vectorN``: :class:`~sengoku.interop.vector.VectorEnv` with N games and ``copy=False``
  (the read-only buffers), every step with the masks, the sparse legal lists and the
  observation tensors of every game, actions from ``sample_actions``; ``vectorN copy``: the
  same with ``copy=True`` (the default: a copy of both buffers every step).

Every player draws its action with the same ``random.Random.choice`` over a list of the
legal integers. Where that list comes from is the player's own: ``pettingzoo``,
``pettingzoo+obs`` and the ``gymnasium`` rows make it from the mask (``np.flatnonzero``,
the agent's work, which grows with the action space), the others are given it.

Each figure is plies per second of CPU time (``time.process_time``; on a shared machine the
wall clock also counts the time others had the core), with the ratios to ``direct`` (the
target is at least 0.5) and to python-chess, and the wall-clock ratio to ``direct`` beside
them; every player first plays a discarded warm-up turn. Then memory: the peak of Python allocations (``tracemalloc``) while each player plays
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
import functools
import importlib.util
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
from sengoku.core.game import State

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


#: A player: an endless generator of random plies (it yields the plies played since its
#: last yield: one, or a vector environment's games).
Plies = Iterator[int]


def chess_player() -> Plies:
    """python-chess random play, the reference (as benchmarks/run.py plays it)."""
    import chess

    rng = random.Random(0)
    while True:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False):
            board.push(rng.choice(list(board.legal_moves)))
            yield 1


def pyspiel_chess_player() -> Plies:
    """OpenSpiel's C++ chess through pyspiel, random play (the same draw as the others)."""
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("chess")
    rng = random.Random(0)
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            yield 1


def has_pyspiel() -> bool:
    return importlib.util.find_spec("pyspiel") is not None


def direct(name: str, options: dict[str, Any]) -> Plies:
    game = sengoku.load_game(name)
    rng = random.Random(0)
    for seed in itertools.count():
        state = game.new_state(seed=seed, **options)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            yield 1


def direct_scan(name: str, options: dict[str, Any]) -> Plies:
    """What an agent that reads the mask does on top of any adapter, over the cheapest
    adapter there is: the game's native match where it has one (what the adapters step), else
    the contract state, with a mask the size of the action space holding this ply's legal
    integers (the last ply's cleared), scanned as the ``pettingzoo`` rows scan it
    (:func:`legal_of`) and the action drawn from that list. An adapter that cost nothing
    would run the ``pettingzoo`` and ``pettingzoo+obs`` rows at this row's speed: their
    ceiling."""
    game = sengoku.load_game(name)
    rng = random.Random(0)
    mask = np.zeros(game.num_distinct_actions(**options), dtype=np.int8)
    held = np.zeros(0, dtype=np.int64)  # the entries set in the mask (a game's last ply's too)
    play = game.native_play(**game.resolve_options(**options))
    for seed in itertools.count():
        if play is not None:
            match = play.deal(seed)
            legal_ints, apply = match.legal_ints, match.apply
        else:
            state = game.new_state(seed=seed, **options)
            legal_ints = functools.partial(game.legal_action_ints, state)

            def apply(action: int, state: State = state) -> None:
                state.apply(game.int_to_action(state, action))

        while not (match.is_terminal() if play is not None else state.is_terminal()):
            mask[held] = 0
            held = np.fromiter(legal_ints(), dtype=np.int64)
            mask[held] = 1
            legal = legal_of(mask)  # as the pettingzoo rows scan it
            apply(int(legal[rng.randrange(len(legal))]))
            yield 1


def direct_copies(name: str, options: dict[str, Any], num_envs: int) -> Plies:
    """``direct``, plus what a copying ``VectorEnv`` of ``num_envs`` games hands out on top
    of its plies: every ``num_envs`` plies, a new all-zero mask (``num_envs`` x the action
    space, int8) and observation array (``num_envs`` x the encoder's shape, float32), written
    nowhere else. A ``vectorN copy`` whose stepping cost nothing would run at this row's
    speed: its ceiling, set by the memory the new arrays take."""
    from sengoku.interop.vector import VectorEnv

    shapes = VectorEnv(name, 1, **options)
    mask_shape = (num_envs, shapes.num_actions)
    planes_shape = (num_envs, *shapes.observation_shape)
    plies = 0
    for ply in direct(name, options):
        plies += ply
        if plies >= num_envs:
            plies = 0
            np.zeros(mask_shape, dtype=np.int8)
            np.zeros(planes_shape, dtype=np.float32)
        yield ply


def openspiel(name: str, options: dict[str, Any], observe: bool) -> Plies:
    from open_spiel.python.observation import make_observation  # type: ignore[import-untyped]

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
            yield 1


def pettingzoo(
    name: str,
    options: dict[str, Any],
    observe: bool = False,
    sparse: bool = False,
    mask_read: bool = False,
) -> Plies:
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
            if mask_read:
                observation["action_mask"]  # noqa: B018 - makes the mask, as an agent reading it
            if sparse or mask_read:
                env.step(rng.choice(env.legal_actions()))
            else:
                env.step(rng.choice(legal_of(observation["action_mask"]).tolist()))
            yield 1


def vector(name: str, options: dict[str, Any], num_envs: int, copy: bool) -> Plies:
    from sengoku.interop.vector import VectorEnv

    env = VectorEnv(name, num_envs, copy=copy, **options)
    env.reset(seed=0)
    while True:
        observation, *_rest = env.step(env.sample_actions())
        # Every game that was live played a ply (with autoreset, every game).
        yield int(len(observation["agent"]))


def gymnasium(name: str, options: dict[str, Any], observe: bool = False) -> Plies:
    from sengoku.interop.gymnasium import SoloEnv

    env = SoloEnv(name, **options)
    rng = random.Random(0)
    for seed in itertools.count():
        observation, _info = env.reset(seed=seed)
        done = False
        while not done:
            if observe:
                observation["observation"]  # noqa: B018 - encodes the tensor, as a learner would
            action = rng.choice(legal_of(observation["action_mask"]).tolist())
            observation, _r, terminated, truncated, _i = env.step(action)
            done = terminated or truncated
            yield 1


def measure(
    players: dict[str, Plies], seconds: float, rounds: int
) -> dict[str, tuple[float, float]]:
    """(plies per CPU second, plies per wall second) of each player, run in turns of
    ``seconds / rounds`` each, after one discarded warm-up turn each.

    Taking turns (python-chess, direct, then each adapter, again and again) spreads any
    change in the machine's load over all of them; the generators keep their games between
    turns.
    """
    plies = dict.fromkeys(players, 0)
    wall = dict.fromkeys(players, 0.0)
    cpu = dict.fromkeys(players, 0.0)
    clock, cpu_clock = time.perf_counter, time.process_time
    for turn in range(rounds + 1):
        for label, player in players.items():
            start, start_cpu = clock(), cpu_clock()
            deadline = start + seconds / rounds
            count = 0
            for played in player:
                count += played
                if clock() >= deadline:
                    break
            if turn == 0:  # the warm-up: caches, tables, first allocations
                continue
            wall[label] += clock() - start
            cpu[label] += cpu_clock() - start_cpu
            plies[label] += count
    return {label: (plies[label] / cpu[label], plies[label] / wall[label]) for label in players}


def peak_kib(player: Plies, plies: int) -> float:
    """Peak Python memory (KiB) allocated while ``player`` plays ``plies`` more plies."""
    tracemalloc.start()
    try:
        played = 0
        for count in player:
            played += count
            if played >= plies:
                break
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
        "--players",
        default="",
        help="comma-separated adapters to measure besides the references and direct (default: all)",
    )
    parser.add_argument(
        "--memory-plies", type=int, default=200, help="plies traced for the peak memory"
    )
    parser.add_argument(
        "--no-breakdown", action="store_true", help="leave out the microseconds per part"
    )
    parser.add_argument(
        "--num-envs",
        default="",
        help="comma-separated games of the vector rows, a pair of rows each (default: 256 for "
        "Gungi, 32 for the others)",
    )
    args = parser.parse_args(argv)
    wanted = {g for g in args.games.split(",") if g}
    chosen = {p for p in args.players.split(",") if p}
    spiel_chess = has_pyspiel()
    if chosen:
        chosen |= {"chess", "pyspiel chess", "direct"}
    print(
        f"{'game':<28}{'adapter':<18}{'plies/cpu-s':>12}{'x direct':>10}{'x chess':>9}"
        f"{'(wall x direct)':>17}{'peak KiB':>10}"
    )
    for name, options in CASES:
        if wanted and name not in wanted:
            continue
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        sizes = [int(k) for k in args.num_envs.split(",") if k] or [256 if name == "gungi" else 32]
        players: dict[str, Plies] = {"chess": chess_player()}
        if spiel_chess:
            players["pyspiel chess"] = pyspiel_chess_player()
        players |= {
            "direct": direct(name, options),
            "openspiel": openspiel(name, options, observe=False),
            "openspiel+obs": openspiel(name, options, observe=True),
            "pettingzoo": pettingzoo(name, options),
            "pettingzoo mask": pettingzoo(name, options, mask_read=True),
            "pettingzoo sparse": pettingzoo(name, options, sparse=True),
            "pettingzoo+obs": pettingzoo(name, options, observe=True),
        }
        if sengoku.load_game(name).new_state(**options).num_players == 1:
            players["gymnasium"] = gymnasium(name, options)
            players["gymnasium+obs"] = gymnasium(name, options, observe=True)
        players["direct scan"] = direct_scan(name, options)
        for num_envs in sizes:
            players[f"vector{num_envs}"] = vector(name, options, num_envs, copy=False)
            players[f"vector{num_envs} copy"] = vector(name, options, num_envs, copy=True)
            players[f"direct copies{num_envs}"] = direct_copies(name, options, num_envs)
        if chosen:
            players = {k: v for k, v in players.items() if k in chosen}
        rates = measure(players, args.seconds, args.rounds)
        peaks = {
            adapter: peak_kib(player, args.memory_plies)
            for adapter, player in players.items()
            if adapter not in ("chess", "pyspiel chess")
        }
        cpu_direct, wall_direct = rates["direct"]
        cpu_chess = rates["chess"][0]
        for adapter, (rate, wall_rate) in rates.items():
            peak = f"{peaks[adapter]:>10.0f}" if adapter in peaks else ""
            print(
                f"{label:<28}{adapter:<18}{rate:>12.0f}{rate / cpu_direct:>10.2f}"
                f"{rate / cpu_chess:>9.2f}{wall_rate / wall_direct:>17.2f}{peak}"
            )
    print(f"peak resident size of the process: {max_rss_mib():.0f} MiB")
    if args.no_breakdown:
        return
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
