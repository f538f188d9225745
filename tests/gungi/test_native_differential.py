"""The native core (C++) against the pure-Python engine, its oracle (issue 21).

Every check asks both engines the same question on the same position: perft in all four
modes and rule options, legal and noisy move codes and the mate test on thousands of random
positions (setup and betrayals included), whole random games played in both (identical
moves, positions and outcomes), alpha-beta (same move, value and node count), and the
batched research API (legal masks and observation planes entry for entry).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

from sengoku.ai.alphabeta import AlphaBetaAgent
from sengoku.ai.base import Budget
from sengoku.core.game import IllegalAction, InvalidOption
from sengoku.games.gungi import Gungi, GungiState, native_available, native_core
from sengoku.games.gungi import state as state_module
from sengoku.games.gungi.batch import GungiBatch
from sengoku.games.gungi.encoder import GungiEncoder
from sengoku.games.gungi.move import DONE_INT, MOVE_SPACE, Move
from sengoku.games.gungi.pieces import CAPTAIN

pytestmark = pytest.mark.skipif(
    not native_available(), reason=f"native core not in use: {native_core.UNAVAILABLE_REASON}"
)

SOAK = os.environ.get("SENGOKU_SOAK") == "1"
MODES = ("intro", "beginner", "intermediate", "advanced")
VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"self_check": "forbidden"},
    {"betrayal": "all_or_nothing"},
    {"archer_blockers": "front"},
    {"archer_blockers": "wing", "self_check": "forbidden"},
)


@contextmanager
def pure_python() -> Iterator[None]:
    """GungiState's own (Python) move generation, mate test and perft."""
    saved = state_module._NATIVE
    state_module._NATIVE = False
    try:
        yield
    finally:
        state_module._NATIVE = saved


def python_codes(state: GungiState) -> list[int]:
    with pure_python():
        fresh = state.clone()
        fresh.memo.legal = fresh.memo.pseudo = fresh.memo.noisy = None
        return list(fresh._legal_codes())


def python_noisy(state: GungiState) -> list[int]:
    with pure_python():
        fresh = state.clone()
        fresh.memo.legal = fresh.memo.pseudo = fresh.memo.noisy = None
        return list(fresh.noisy_codes())


def is_betrayal(code: int) -> bool:
    """A Captain's betrayal (a move or drop turning enemy pieces)."""
    action = code >> 14
    return action < DONE_INT and action & 3 != 0


# ---------------------------------------------------------------------- perft


def _accepted(mode: str, variant: dict[str, Any]) -> bool:
    """Whether the mode accepts the variant (an option for a piece the mode lacks is refused)."""
    try:
        Gungi().new_state(mode=mode, **variant)
    except InvalidOption:
        return False
    return True


def variant_for(mode: str, i: int) -> dict[str, Any]:
    """The ``i``-th (cyclically) of the rule variants ``mode`` accepts."""
    accepted = [v for v in VARIANTS if _accepted(mode, v)]
    return accepted[i % len(accepted)]


PERFT_CASES = [
    pytest.param(mode, variant, id=f"{','.join(variant.values()) or 'default'}-{mode}")
    for mode in MODES
    for variant in VARIANTS
    if _accepted(mode, variant)
]


@pytest.mark.parametrize(("mode", "variant"), PERFT_CASES)
def test_perft_depth_2(gungi: Gungi, mode: str, variant: dict[str, Any]) -> None:
    state = gungi.new_state(mode=mode, **variant)
    native = state.perft(2)
    with pure_python():
        assert native == gungi.new_state(mode=mode, **variant).perft(2)


def test_perft_known_counts(gungi: Gungi) -> None:
    assert gungi.new_state(mode="intro").perft(3) == 3_614_062
    assert gungi.new_state(mode="beginner").perft(3) == 6_268_315
    assert gungi.new_state(mode="intro", self_check="forbidden").perft(3) == 3_614_050


@pytest.mark.parametrize("mode", ("intermediate", "advanced"))
def test_perft_depth_3_setup_modes(gungi: Gungi, mode: str) -> None:
    native = gungi.new_state(mode=mode).perft(3)
    with pure_python():
        assert native == gungi.new_state(mode=mode).perft(3)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ("intro", "beginner"))
def test_perft_depth_3_against_python(gungi: Gungi, mode: str) -> None:
    native = gungi.new_state(mode=mode).perft(3)
    with pure_python():
        assert native == gungi.new_state(mode=mode).perft(3)


def _midgame(gungi: Gungi, mode: str, seed: int, plies: int, **options: Any) -> GungiState:
    rng = random.Random(seed)
    state = gungi.new_state(mode=mode, **options)
    with pure_python():
        for _ in range(plies):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
    return state


def test_perft_depth_2_from_random_positions(gungi: Gungi) -> None:
    checked = 0
    for seed in range(12):
        mode = MODES[seed % 4]
        state = _midgame(gungi, mode, seed, 30 + seed * 7, **variant_for(mode, seed))
        if state.is_terminal():
            continue
        native = state.perft(2)
        with pure_python():
            assert native == state.clone().perft(2), (mode, seed, state.fen())
        checked += 1
    assert checked >= 8


# ---------------------------------------------------------------------- random positions


def pick(state: GungiState, codes: list[int], rng: random.Random) -> int:
    """A random move that keeps betrayals coming: uniform play empties the hands within a few
    moves (captured pieces never return to a hand), and a betrayal needs a hand piece of the
    kind it turns. So: a betrayal half of the time when there is one, and in play mostly
    board moves, half of them the Captain's."""
    betrayals = [c for c in codes if is_betrayal(c)]
    if betrayals and rng.random() < 0.5:
        return rng.choice(betrayals)
    if state.phase == "play" and rng.random() < 0.9:
        board = [c for c in codes if c >> 14 < MOVE_SPACE]
        captain = [c for c in board if (c >> 2) & 15 == CAPTAIN]
        return rng.choice(captain if captain and rng.random() < 0.5 else board or codes)
    return rng.choice(codes)


def _random_positions(gungi: Gungi, games: int, seed: int) -> Iterator[GungiState]:
    """Positions of random games from random seeds, played by the Python engine: whole games
    in the modes with a setup and Captains (betrayals come late), openings in the others."""
    rng = random.Random(seed)
    for g in range(games):
        mode = ("intermediate", "advanced", "intermediate", "advanced", "intro", "beginner")[g % 6]
        plies = 400 if mode in ("intermediate", "advanced") else 80
        variant = variant_for(mode, g // 6)
        state = gungi.new_state(mode=mode, seed=rng.randrange(2**31), **variant)
        while not state.is_terminal() and state.ply < plies:
            yield state
            with pure_python():
                state.apply(Move(pick(state, state.legal_codes(), rng)))
        if state.is_terminal():
            yield state  # the final position too: the mate test's True answers are here


def test_move_sets_on_random_positions(gungi: Gungi) -> None:
    positions = setups = mates = 0
    betrayal_positions = 0
    for state in _random_positions(gungi, 18 if not SOAK else 300, seed=21):
        if state.is_terminal():
            outcome = state.outcome()
            assert outcome is not None
            if outcome.reason == "mate":
                assert native_core.is_mate(state, state.to_move)
                mates += 1
            continue
        expected = python_codes(state)
        assert native_core.legal_codes(state) == expected, state.fen()
        assert native_core.noisy_codes(state) == python_noisy(state), state.fen()
        if state.phase == "play":
            with pure_python():
                mate = state.is_mate(state.to_move)
                flags = [state.marshal_capturable(c) for c in (0, 1)]
            assert native_core.is_mate(state, state.to_move) == mate, state.fen()
            position = native_core.scratch(state)
            assert [position.marshal_capturable(c) for c in (0, 1)] == flags
            assert not mate  # a mated side has lost: the game is over
        else:
            setups += 1
        positions += 1
        betrayal_positions += any(is_betrayal(c) for c in expected)
    # The sample covers what the rules make rare.
    assert positions >= 2000
    assert setups >= 200
    assert betrayal_positions >= 10
    assert mates >= 1


def test_random_games_betray_and_end_alike(gungi: Gungi) -> None:
    """Whole games: the same seeded choices in the Python engine and the native core's
    batch give the same positions after every move and the same outcome."""
    reasons: set[str] = set()
    betrayals = 0
    for seed in range(24):
        mode = MODES[seed % 4]
        variant = variant_for(mode, seed)
        rng = random.Random(seed)
        state = gungi.new_state(mode=mode, seed=seed, **variant)
        batch = GungiBatch(native=True, mode=mode, **variant)
        batch.reset(1, seed=seed)
        while not state.is_terminal():
            with pure_python():
                codes = state.legal_codes()
            assert batch.legal_actions(0) == [c >> 14 for c in codes]
            code = pick(state, codes, rng)
            betrayals += is_betrayal(code)
            with pure_python():
                state.apply(Move(code))
            batch.step(np.array([code >> 14]))
            native = batch.position(0)
            assert native["hash"] == state.hash
            assert native["ply"] == state.ply
            assert native["to_move"] == state.to_move
            assert [list(t) for t in native["board"]] == [list(t) for t in state.board]
            assert native["hands"] == state.hands
        result = state.outcome()
        assert result is not None
        assert batch.outcome(0) == result
        reasons.add(result.reason)
    assert betrayals >= 5
    assert {"marshal_captured", "mate"} <= reasons


def test_identical_random_games_through_the_contract(gungi: Gungi) -> None:
    """One seed, one game: the contract with the native hook plays what pure Python plays."""
    for seed, mode in enumerate(MODES):
        records = []
        for native in (True, False):
            saved = state_module._NATIVE
            state_module._NATIVE = native
            try:
                rng = random.Random(seed)
                state = gungi.new_state(mode=mode, seed=seed)
                moves = []
                while not state.is_terminal():
                    move = rng.choice(state.legal_actions())
                    moves.append(str(move))
                    state.apply(move)
                records.append((moves, state.outcome(), state.fen()))
            finally:
                state_module._NATIVE = saved
        assert records[0] == records[1]


def _whole(state: GungiState) -> tuple[Any, ...]:
    """Everything a GungiState keeps about its position and history."""
    return (
        list(state.board),
        [list(h) for h in state.hands],
        state.to_move,
        state.phase,
        list(state.drafting),
        state.move_number,
        state.ply,
        state.hash,
        dict(state.seen),
        list(state.marshal_at),
        state.outcome(),
        state.fen(),
    )


def _engine(native: bool) -> Any:
    saved = state_module._NATIVE

    @contextmanager
    def switch() -> Iterator[None]:
        state_module._NATIVE = native and saved
        try:
            yield
        finally:
            state_module._NATIVE = saved

    return switch()


def test_contract_apply_matches_python_move_by_move(gungi: Gungi) -> None:
    """The native apply (the core changes the state's lists in place and judges) against the
    Python apply: the same legal actions, events, fields and history after every move, in
    every mode and rule variant, with clones taken and played on the way (the scratch
    position follows one state, then reloads for another) and illegal actions refused."""
    reasons: set[str] = set()
    for seed in range(16):
        mode = MODES[seed % 4]
        variant = variant_for(mode, seed // 4)
        rng = random.Random(seed)
        native = gungi.new_state(mode=mode, seed=seed, **variant)
        python = gungi.new_state(mode=mode, seed=seed, **variant)
        side: tuple[GungiState, GungiState] | None = None
        while not python.is_terminal():
            with _engine(True):
                moves = native.legal_actions()
            with _engine(False):
                assert python.legal_actions() == moves
            # The core's Moves are the interned ones, as Move(code) gives them.
            assert all(move is Move(move.code) for move in moves)
            if seed % 2 and rng.random() < 0.05:
                illegal = Move(DONE_INT << 14) if python.phase == "play" else None
                if illegal is not None:
                    for state, on in ((native, True), (python, False)):
                        with _engine(on), pytest.raises(IllegalAction):
                            state.apply(illegal)
            move = rng.choice(moves)
            if side is None and rng.random() < 0.03:
                side = (native.clone(), python.clone())
            with _engine(True):
                native_events = native.apply(move)
            with _engine(False):
                python_events = python.apply(move)
            assert native_events == python_events
            assert _whole(native) == _whole(python)
            if side is not None and not side[1].is_terminal():
                with _engine(False):
                    other = rng.choice(side[1].legal_actions())
                    side[1].apply(other)
                with _engine(True):
                    side[0].apply(other)
                assert _whole(side[0]) == _whole(side[1])
        result = python.outcome()
        assert result is not None
        reasons.add(result.reason)
    assert {"marshal_captured", "mate"} <= reasons


def test_threads_do_not_share_a_scratch_position(gungi: Gungi) -> None:
    """Games played in several threads at once get their own legal lists (a smoke test: the
    scratch positions are per thread, and a race would need a switch between two calls)."""
    import threading

    logs: dict[int, list[list[int]]] = {}

    def play(seed: int) -> None:
        rng = random.Random(seed)
        log = logs[seed] = []
        for _ in range(3):
            state = gungi.new_state(mode=MODES[seed % 4], seed=seed)
            while not state.is_terminal() and state.ply < 150:
                codes = list(state.legal_codes())
                log.append(codes)
                state.apply(Move(rng.choice(codes)))

    threads = [threading.Thread(target=play, args=(seed,)) for seed in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    for seed in range(4):  # the same games again, one thread, pure Python
        rng = random.Random(seed)
        log = iter(logs[seed])
        with pure_python():
            for _ in range(3):
                state = gungi.new_state(mode=MODES[seed % 4], seed=seed)
                while not state.is_terminal() and state.ply < 150:
                    codes = state.legal_codes()
                    assert next(log) == codes
                    state.apply(Move(rng.choice(codes)))


# ---------------------------------------------------------------------- search


def test_scratch_position_keeps_moves_through_every_change(gungi: Gungi) -> None:
    """The contract's scratch position keeps its pieces' moves from one turn of a side to its
    next (``BoardCache``, as a batch's game): each way it changes either marks the squares a
    move changed or forgets what it kept. Through a move applied (``apply_to``), a code
    advanced or played, another position loaded over it and a search run from it, its legal
    codes stay those the Python engine generates, move by move, in every mode and variant."""
    changes: set[str] = set()
    for seed in range(8):
        mode = MODES[seed % 4]
        variant = variant_for(mode, seed // 4 + 1)
        rng = random.Random(seed)
        state = gungi.new_state(mode=mode, seed=seed, **variant)
        other = gungi.new_state(mode=mode, seed=seed + 50, **variant)
        position = native_core.new_position(state)
        native_core.load(position, state)
        while not state.is_terminal() and state.ply < 160:
            assert position.legal_codes() == python_codes(state), f"seed {seed}, ply {state.ply}"
            code = pick(state, state.legal_codes(), rng)
            way = ("apply_to", "advance", "play", "load", "search")[rng.randrange(5)]
            changes.add(way)
            reload = way == "load"
            if way == "apply_to":
                board, hands = list(state.board), [list(h) for h in state.hands]
                played = position.apply_to(
                    code, board, hands, list(state.drafting), list(state.marshal_at), {}
                )
                assert played is not None
            elif way == "advance":
                position.advance(code)
            elif way == "play":
                outcome, _reason = position.play(code)
                # The scratch judges by the positions it saw itself: one it calls over
                # (a repetition since its last load) follows the state again from a load.
                reload = outcome >= 0
            elif way == "search":
                # A search makes and unmakes: what was kept is forgotten all the same.
                position.search(position.legal_codes(), 1, 0, 1 << 10, 50, 1.0)
                position.advance(code)
            else:
                # Another game's position, then this one's again: nothing kept carries over.
                native_core.load(position, other)
                assert position.legal_codes() == python_codes(other)
                if not other.is_terminal():
                    other.apply(rng.choice(other.legal_actions()))
            state.apply(Move(code))
            if reload:
                native_core.load(position, state)
    assert changes == {"apply_to", "advance", "play", "load", "search"}


@pytest.mark.parametrize("evaluation", ["default", "learned"])
def test_alphabeta_native_matches_python(gungi: Gungi, evaluation: str) -> None:
    # ``learned``: the tuned tables (sengoku/games/gungi/data/weights/gungi_eval.json) in both searches.
    checked = 0
    for seed in range(8):
        mode = ("intro", "beginner", "advanced", "intermediate")[seed % 4]
        state = _midgame(gungi, mode, seed, 10 + seed * 9)
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        with pure_python():
            python = AlphaBetaAgent(gungi, seed=seed, max_depth=2, eval=evaluation)
            expected = python.choose(state.clone(), state.current_player, Budget(iterations=2500))
        native = AlphaBetaAgent(gungi, seed=seed, max_depth=2, native=1, eval=evaluation)
        got = native.choose(state.clone(), state.current_player, Budget(iterations=2500))
        assert got in state.legal_actions()
        assert got == expected, state.fen()
        assert native.last_stats["value"] == python.last_stats["value"]
        assert native.last_stats["nodes"] == python.last_stats["nodes"]
        assert native.last_stats["depth"] == python.last_stats["depth"]
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("evaluation", ["default", "learned"])
@pytest.mark.parametrize(
    "budget", [3000, pytest.param(30_000, marks=pytest.mark.slow)], ids=["3k", "30k"]
)
def test_alphabeta_native_matches_python_when_the_budget_ends_mid_depth(
    gungi: Gungi, budget: int, evaluation: str
) -> None:
    # Deeper: the table, killers and the best move of an unfinished depth all take part.
    for seed in range(3):
        state = _midgame(gungi, ("intro", "advanced", "beginner")[seed], 40 + seed, 16 + seed * 20)
        if state.is_terminal():
            continue
        with pure_python():
            python = AlphaBetaAgent(gungi, seed=seed, eval=evaluation)
            expected = python.choose(state.clone(), state.current_player, Budget(iterations=budget))
        native = AlphaBetaAgent(gungi, seed=seed, native=1, eval=evaluation)
        got = native.choose(state.clone(), state.current_player, Budget(iterations=budget))
        assert got == expected, state.fen()
        assert native.last_stats["value"] == python.last_stats["value"]
        assert native.last_stats["nodes"] == python.last_stats["nodes"]
        assert native.last_stats["depth"] == python.last_stats["depth"]


def test_native_search_under_time_plays_legal_moves(gungi: Gungi) -> None:
    state = _midgame(gungi, "intro", 3, 20)
    agent = AlphaBetaAgent(gungi, seed=1, native=1)
    move = agent.choose(state, state.current_player, Budget(seconds=0.05))
    assert move in state.legal_actions()
    assert agent.last_stats["nodes"] > 0 and agent.last_stats["native"]


# ---------------------------------------------------------------------- batch API


@pytest.mark.parametrize("mode", ("intro", "advanced"))
def test_batch_masks_and_observations_match_the_encoder(gungi: Gungi, mode: str) -> None:
    native = GungiBatch(native=True, mode=mode)
    python = GungiBatch(native=False, mode=mode)
    n = 6
    obs_native = native.reset(n, seed=7)
    obs_python = python.reset(n, seed=7)
    encoder = GungiEncoder(gungi.max_game_length())
    rng = np.random.default_rng(7)
    for _ in range(120):
        assert np.array_equal(obs_native, obs_python)
        mask = native.legal_mask()
        assert np.array_equal(mask, python.legal_mask())
        # The integers are Gungi.action_to_int of the legal actions.
        for i, state in enumerate(python._states):
            ints = sorted(gungi.action_to_int(state, a) for a in state.legal_actions())
            assert np.flatnonzero(mask[i]).tolist() == ints
            for seat in (0, 1):
                planes = native.observations(np.full(n, seat))[i]
                assert np.array_equal(planes, encoder.encode(state.view(seat), seat))
        if native.done().all():
            break
        actions = np.array(
            [rng.choice(np.flatnonzero(row)) if row.any() else -1 for row in mask], dtype=np.int64
        )
        assert np.array_equal(native.step(actions), python.step(actions))
        obs_native, obs_python = native.observations(), python.observations()
    assert np.array_equal(native.returns(), python.returns())


@pytest.mark.parametrize("mode", MODES)
def test_batch_kept_moves_are_the_generated_moves(gungi: Gungi, mode: str) -> None:
    """A batch keeps each game's pieces' moves from one turn of a side to its next and
    generates again only those of the pieces whose squares changed (``BoardCache``): move
    by move, through captures, stacks, betrayals (the Captain's depend on the hand), drops,
    the setup and restarts (``step_observed``'s and ``reset_game``'s), every game's legal
    actions are those of the same position played through the contract (whose scratch
    position keeps moves of its own: the test above) and, every 25 plies, of the Python
    engine (which generates every piece's moves each time)."""
    n = 6
    betrayals = stacked = restarts = 0
    for k, variant in enumerate((variant_for(mode, 0), variant_for(mode, 1))):
        batch = GungiBatch(native=True, mode=mode, **variant)
        batch.reset(n, seed=40 + k)
        states = [gungi.new_state(seed=40 + k + i, mode=mode, **variant) for i in range(n)]
        fused = batch.fuses_steps(True)
        mask = np.zeros((n, batch.num_actions), dtype=np.int8)
        out = np.zeros((n, *batch.shape), dtype=np.float32)
        rng = random.Random(k)
        for ply in range(400):
            for i, state in enumerate(states):
                expected = [m.action_int for m in state.legal_actions()]
                assert batch.legal_actions(i) == expected, f"game {i}, ply {ply}"
                betrayals += sum(is_betrayal(a << 14) for a in expected)
                if ply % 25 == 0:
                    assert [c >> 14 for c in python_codes(state)] == expected
            # Moves that keep betrayals coming (pick).
            actions = np.array([pick(s, s.legal_codes(), rng) >> 14 for s in states])
            # Half the turns through the one-pass step (which restarts a finished game
            # itself where the start is fixed), the others through step and reset_game.
            if fused and ply % 2:
                ints, offsets, finished = batch.step_observed(actions, mask, out, True)
                for i in range(n):
                    state = states[i]
                    state.apply(gungi.int_to_action(state, int(actions[i])))
                    assert (finished[i, 0] >= 0) == (state.outcome() is not None)
                    if finished[i, 0] >= 0:
                        restarts += 1
                        states[i] = gungi.new_state(seed=0, mode=mode, **variant)
                    live = ints[offsets[i] : offsets[i + 1]].tolist()
                    assert live == [m.action_int for m in states[i].legal_actions()]
            else:
                batch.step(actions)
                for i in range(n):
                    state = states[i]
                    state.apply(gungi.int_to_action(state, int(actions[i])))
                    if state.outcome() is not None:
                        restarts += 1
                        seed = 900 + restarts
                        batch.reset_game(i, seed)
                        states[i] = gungi.new_state(seed=seed, mode=mode, **variant)
            stacked += sum(1 for state in states for tower in state.board if len(tower) >= 2)
    assert restarts >= 2
    assert stacked > 0
    if mode in ("intermediate", "advanced"):  # the modes with a Captain
        assert betrayals >= 1


def test_batch_mask_fills_a_given_array() -> None:
    batch = GungiBatch(native=True, mode="beginner")
    batch.reset(3, seed=2)
    buffer = np.ones((3, batch.num_actions), dtype=bool)  # stale entries are cleared
    assert batch.legal_mask(buffer) is buffer
    assert np.array_equal(buffer, batch.legal_mask())
    with pytest.raises(ValueError, match="C-contiguous bool array of shape"):
        batch.legal_mask(np.zeros((2, batch.num_actions), dtype=bool))


def test_level_5_searches_natively(gungi: Gungi) -> None:
    from sengoku.ai import load_agent

    agent = load_agent(gungi, 5, seed=0)
    assert agent.options["native"] == 1
    state = _midgame(gungi, "intro", 5, 14)
    move = agent.choose(state, state.current_player, Budget(seconds=0.05))
    assert move in state.legal_actions() and agent.last_stats["native"]


def test_batch_refuses_an_illegal_action() -> None:
    batch = GungiBatch(native=True, mode="intro")
    batch.reset(2, seed=0)
    with pytest.raises(ValueError, match="game 0: action 0 is not legal"):
        batch.step(np.array([0, -1]))


# ---------------------------------------------------------------------- fallback


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
        check=False,
    )


def test_pure_python_forced_by_environment() -> None:
    result = _run(
        "import sengoku; from sengoku.games.gungi import native_available\n"
        "assert not native_available()\n"
        "print(sengoku.load_game('gungi').new_state(mode='intro').perft(2))",
        SENGOKU_PURE_PYTHON="1",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "23716"
    assert "native core" not in result.stderr  # asked for: no warning


def test_missing_extension_warns_and_falls_back() -> None:
    result = _run(
        "import sys, warnings\n"
        "sys.modules['sengoku.games.gungi._gungi_native'] = None  # as if never built\n"
        "warnings.simplefilter('always')\n"
        "import sengoku\n"
        "from sengoku.games.gungi import native_available\n"
        "assert not native_available()\n"
        "print(sengoku.load_game('gungi').new_state(mode='beginner').perft(2))"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "34969"
    assert result.stderr.count("Gungi's native core is not available") == 1


def test_a_natively_played_state_copies_and_pickles(gungi: Gungi) -> None:
    """The scratch entry a state keeps (a native position) is not copied: a deep copy or a
    pickle of the state finds its own and plays on as the original does."""
    import copy
    import pickle

    state = gungi.new_state(mode="advanced", seed=3)
    rng = random.Random(3)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    assert state.memo.native is not None
    for other in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert other.memo.native is None
        assert other.fen() == state.fen() and other.seen == state.seen
        original = state.clone()
        play = random.Random(7)
        for _ in range(20):
            if original.is_terminal():
                break
            assert other.legal_actions() == original.legal_actions()
            move = play.choice(original.legal_actions())
            assert other.apply(move) == original.apply(move)
            assert other.fen() == original.fen() and other.seen == original.seen


def test_the_plys_core_calls_check_their_arguments_and_change_nothing(gungi: Gungi) -> None:
    """``legal_moves`` and ``apply_to`` are plain CPython methods of the core's Position
    (not pybind11's dispatcher): a wrong argument is a TypeError or OverflowError, as
    pybind11's signature made it, an illegal code is None, and none changes the state."""
    state = gungi.new_state(mode="intro", seed=3)
    rng = random.Random(3)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    entry, _ = native_core.apply_to(state, 0)  # loads the scratch position; 0 is no code
    position = entry[0]
    lists = (state.board, state.hands, state.drafting, state.marshal_at, state.seen)
    before = _whole(state)
    legal = [move.code for move in position.legal_moves()]
    assert legal == native_core.legal_codes(state)
    with pytest.raises(TypeError, match="no arguments"):
        position.legal_moves(1)
    for bad in [("1", *lists), (legal[0], *lists[:4]), (legal[0], tuple(state.board), *lists[1:])]:
        with pytest.raises(TypeError, match="apply_to"):
            position.apply_to(*bad)
    for big in (-1, 2**40):
        with pytest.raises(OverflowError):
            position.apply_to(big, *lists)
    with pytest.raises(TypeError):
        type(position).apply_to(object(), legal[0], *lists)
    codes = set(legal)
    illegal = next(code for code in range(1, 1 << 20) if code not in codes)
    assert position.apply_to(illegal, *lists) is None
    assert _whole(state) == before


@pytest.mark.parametrize("self_check", ["allowed", "forbidden"])
def test_batch_moves_end_games_as_the_contract_does(gungi: Gungi, self_check: str) -> None:
    """The batch plays a move and makes the next legal list in one go
    (``Position::play_listed``), and its mate test reads that list (``mate_among``) instead
    of generating moves itself (``is_mate``, which the contract's moves use): game by game,
    move by move, the legal actions, whose turn it is and every ending (mates included, with
    ``self_check`` allowed, where the list keeps moves that leave the Marshal capturable, and
    forbidden, where it is empty exactly at mate) are the contract's."""
    # rulebook: "when every move of the player to move would leave their Marshal capturable
    # by the opponent's next move ... that player loses" (mate.py)
    n = 16
    batch = GungiBatch(native=True, mode="intro", self_check=self_check)
    batch.reset(n, seed=30)
    states = [gungi.new_state(seed=30 + i, mode="intro", self_check=self_check) for i in range(n)]
    reasons: dict[str, int] = {}
    restarts = 0
    for _ply in range(1500):
        for i, state in enumerate(states):
            assert batch.legal_actions(i) == [m.action_int for m in state.legal_actions()]
        actions = batch.random_actions()
        batch.step(actions)
        for i, state in enumerate(states):
            state.apply(gungi.int_to_action(state, int(actions[i])))
            result = state.outcome()
            assert batch.outcome(i) == result, f"game {i}"
            if result is not None:
                reasons[result.reason] = reasons.get(result.reason, 0) + 1
                restarts += 1
                seed = 1000 + restarts
                batch.reset_game(i, seed)
                states[i] = gungi.new_state(seed=seed, mode="intro", self_check=self_check)
        if reasons.get("mate", 0) >= 2:
            break
    assert reasons.get("mate", 0) >= 2, reasons
