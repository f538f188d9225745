"""One arena game, as a pure function of a picklable task (run in any process or Ray task).

A task names the game by ``module:Class`` so that a worker builds it without the registry;
the opening (a few random plies drawn from the task's opening seed) and the game seed are
the same for every game of a block, so each agent meets the same positions from each seat.
"""

from __future__ import annotations

import importlib
import random
import time
from typing import Any

from sengoku.ai import make_agent, parse_spec
from sengoku.core.game import Game, Outcome, SengokuError
from sengoku.core.record import GameRecord

_GAMES: dict[str, Game] = {}


def game_ref(game: Game) -> str:
    """``module:Class`` of a game, importable by a worker process."""
    cls = type(game)
    return f"{cls.__module__}:{cls.__qualname__}"


def game_from_ref(ref: str) -> Game:
    if ref not in _GAMES:
        module_name, _, class_name = ref.partition(":")
        try:
            cls = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError) as exc:
            raise SengokuError(f"arena worker cannot import the game {ref!r}: {exc}") from None
        _GAMES[ref] = cls()
    return _GAMES[ref]


def agent_seed(base: int, index: int, seat: int) -> int:
    """A seed per game and seat, stable across backends and worker counts."""
    return (base * 1_000_003 + index * 101 + seat) % (2**31)


def play_game(task: dict[str, Any]) -> dict[str, Any]:
    """Play the game a task describes; its result, with the full record.

    Task fields: ``index``, ``block``, ``game_ref``, ``options``, ``game_seed``,
    ``opening_seed``, ``opening_plies``, ``seats`` (agent spec per seat), ``seed`` (the
    arena's seed, for the agents' seeds), ``defaults`` (default agent options, such as a
    budget, applied to specs that do not set them) and ``max_plies`` (optional: a game still
    running after that many plies, the opening included, is adjudicated a draw, reason
    ``adjudicated``, as tournament managers such as cutechess-cli's ``-maxmoves`` do).
    """
    game = game_from_ref(task["game_ref"])
    seats: list[str] = list(task["seats"])
    # Not GameRecord.start: its ``players`` parameter would swallow a game's ``players`` option.
    state = game.new_state(task["game_seed"], **task["options"])
    record = GameRecord(game.name, game.version, dict(state.options), task["game_seed"], seats)
    if state.num_players != len(seats):
        raise SengokuError(f"the game has {state.num_players} seats but {len(seats)} agents")
    opening_rng = random.Random(task["opening_seed"])
    opening = 0
    for _ in range(int(task["opening_plies"])):
        if state.is_terminal():
            break
        record.play(state, opening_rng.choice(state.legal_actions()))
        opening += 1
    agents = []
    for seat, spec in enumerate(seats):
        name, spec_options = parse_spec(spec)
        # Arena-wide defaults (a budget) fill in only what a spec leaves open; a level
        # keeps its own budget.
        defaults = dict(task.get("defaults") or {})
        if name.startswith("level") or {"iterations", "seconds"} & spec_options.keys():
            defaults = {}
        agents.append(
            make_agent(game, spec, seed=agent_seed(task["seed"], task["index"], seat), **defaults)
        )
    thinking = [0.0] * len(seats)
    moves = [0] * len(seats)
    limit = game.max_game_length(**state.options) + 1
    max_plies = task.get("max_plies")
    plies = opening
    adjudicated = False
    while not state.is_terminal():
        if max_plies is not None and plies >= max_plies:
            adjudicated = True
            break
        seat = state.current_player
        start = time.perf_counter()
        action = agents[seat].choose(state, seat)
        thinking[seat] += time.perf_counter() - start
        moves[seat] += 1
        record.play(state, action)
        plies += 1
        if plies > limit:
            raise SengokuError(
                f"{game.name} did not end within max_game_length ({limit - 1}) decisions"
            )
    outcome = (
        Outcome.no_winner(state.num_players, "adjudicated") if adjudicated else state.outcome()
    )
    assert outcome is not None
    return {
        "index": task["index"],
        "block": task["block"],
        "seats": seats,
        "game_seed": task["game_seed"],
        "opening_plies": opening,
        "plies": plies,
        "outcome": outcome.to_json(),
        "seconds_per_move": [
            round(t / m, 6) if m else 0.0 for t, m in zip(thinking, moves, strict=True)
        ],
        "moves": moves,
        "record": record.to_json(),
    }
