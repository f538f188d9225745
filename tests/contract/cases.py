"""What the contract suite runs on, and the small tools its tests share.

Every registered game (``sengoku.list_games()``), each with the option sets it declares
for benchmarks (``GameType.bench_presets``) plus, for the games registered today, a few more
option sets worth playing (the variants whose hidden information works differently). A game
added to the registry is covered without touching this file.

``SENGOKU_SOAK=1`` (``make soak``) multiplies every count by :data:`SCALE` (100).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from sengoku.core.game import Game, SengokuError, State
from sengoku.core.registry import list_games, load_game

SOAK = os.environ.get("SENGOKU_SOAK") == "1"
#: How many times more games ``make soak`` plays than ``make test``.
SCALE = 100 if SOAK else 1

#: Option sets played besides a game's ``bench_presets`` (none needed for a new game).
EXTRA_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "gungi": [
        {"mode": "beginner", "first_player": "random"},
    ],
    "gunshi": [
        # The Advanced cards are dealt from the seed, hidden even from their owner.
        {"variant": "inspiration", "modification": 1},
        {"variant": "inspiration", "modification": 3, "sanryaku": True},
        {"variant": "custom", "custom_selection": "secret"},
    ],
    "sashimono": [
        {"mode": "solo", "army": "east", "challenge_corners": True, "challenge_train": True},
    ],
}


def _label(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "default"


def all_cases() -> list[tuple[str, dict[str, Any]]]:
    """(game name, options) for every registered game and its main option sets."""
    cases: list[tuple[str, dict[str, Any]]] = []
    for name in list_games():
        game = load_game(name)
        seen: list[dict[str, Any]] = []
        for options in [*map(dict, game.game_type.bench_presets), *EXTRA_OPTIONS.get(name, [])]:
            try:
                resolved = game.resolve_options(**options)
            except SengokuError:  # reported by the tests that play it, not at collection
                resolved = dict(options)
            if resolved not in seen:
                seen.append(resolved)
                cases.append((name, dict(options)))
    return cases


CASES = all_cases()
#: The parametrization every contract test uses: ids like ``gunshi[variant=custom]``.
PARAMS = [pytest.param(name, options, id=f"{name}[{_label(options)}]") for name, options in CASES]
HIDDEN_PARAMS = [
    p
    for p in PARAMS
    if not load_game(p.values[0]).game_type.perfect_information  # type: ignore[arg-type]
]


def pair_seeds(game: Game, found: list[int]) -> Iterator[int]:
    """Seeds 0, 1, ...: :data:`SCALE` of them, and more (up to 10) while ``found[0]`` (the
    caller's count of pairs) is 0 in a game with hidden information, so that a test of
    pairs never passes on none."""
    seed = 0
    while seed < SCALE or (
        not game.game_type.perfect_information and found[0] == 0 and seed < SCALE + 10
    ):
        yield seed
        seed += 1


def fingerprint(state: State) -> str:
    """Everything observable about a state, as one string: its full JSON, every seat's and
    the spectator's view, whose turn, the legal actions and the outcome. Two states with
    the same fingerprint cannot be told apart through the contract."""
    outcome = state.outcome()
    return json.dumps(
        {
            "json": state.to_json(),
            "views": [state.view(s) for s in [*range(state.num_players), None]],
            "to_act": state.current_player,
            "terminal": state.is_terminal(),
            "legal": [str(a) for a in state.legal_actions()],
            "outcome": outcome.to_json() if outcome else None,
        },
        sort_keys=True,
        ensure_ascii=False,
    )


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def view_key(state: State, seat: int) -> str:
    return canonical(state.view(seat))


def random_positions(
    game: Game, options: dict[str, Any], seed: int, every: int, limit: int = 10**9
) -> Iterator[State]:
    """Copies of the positions of one random game from ``seed``: the start, every
    ``every``-th decision (the offset drawn from the seed, so mid-turn decisions come up)
    and the end; at most ``limit`` decisions are played."""
    rng = random.Random(f"positions-{seed}")
    state = game.new_state(seed, **options)
    offset = rng.randrange(every)
    ply = 0
    yield state.clone()
    while not state.is_terminal() and ply < limit:
        state.apply(rng.choice(state.legal_actions()))
        ply += 1
        if ply % every == offset or state.is_terminal():
            yield state.clone()


def sample_positions(game: Game, options: dict[str, Any], seed: int, count: int) -> list[State]:
    """``count`` positions of one random game from ``seed``, half of them (where there are
    enough) mid-turn: the seat to act also took the decision before. The end is added."""
    rng = random.Random(f"sample-{seed}")
    state = game.new_state(seed, **options)
    mid: list[State] = []
    other: list[State] = [state.clone()]
    while not state.is_terminal():
        actor = state.current_player
        state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal() or rng.random() > 0.2:
            continue
        (mid if state.current_player == actor else other).append(state.clone())
    half = min(len(mid), count // 2)
    chosen = rng.sample(mid, half) + rng.sample(other, min(len(other), count - half))
    return [*chosen, state]


def play_out(state: State, rng: random.Random, limit: int | None = None) -> int:
    """Random legal decisions until the end (or ``limit`` decisions); the number played."""
    n = 0
    while not state.is_terminal() and (limit is None or n < limit):
        legal = state.legal_actions()
        assert legal, f"{state.game.name}: a live state has no legal action"
        state.apply(rng.choice(legal))
        n += 1
    return n
