"""The native core's encoding of a snapshot (``encode_snapshot``) writes the planes that
:class:`GungiEncoder` writes in Python, and that the whole view encodes to, entry for entry;
a malformed snapshot or tensor is refused and nothing is written."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from sengoku.games.gungi import Gungi, native_core
from sengoku.games.gungi import encoder as encoder_module
from sengoku.games.gungi.encoder import GungiEncoder, GungiSnapshot
from sengoku.games.gungi.pieces import ARCHER_BLOCKERS

native_encode = native_core.native_function("encode_snapshot")

pytestmark = pytest.mark.skipif(
    native_encode is None,
    reason=f"native core without encode_snapshot: {native_core.UNAVAILABLE_REASON}",
)


def python_planes(encoder: GungiEncoder, snapshot: GungiSnapshot, seat: int | None) -> np.ndarray:
    out = np.zeros(encoder.shape, np.float32)
    encoder._encode_snapshot_in_python(snapshot, 1 if seat == 1 else 0, out)
    return out


def native_planes(encoder: GungiEncoder, snapshot: GungiSnapshot, seat: int | None) -> np.ndarray:
    out = np.zeros(encoder.shape, np.float32)
    me = 1 if seat == 1 else 0
    native_encode(native_core.tables(snapshot.blockers), snapshot, me, out, encoder.max_game_length)
    return out


def assert_same(encoder: GungiEncoder, snapshot: GungiSnapshot, seat: int | None) -> None:
    native = native_planes(encoder, snapshot, seat)
    python = python_planes(encoder, snapshot, seat)
    differ = np.argwhere(native != python)
    assert not len(differ), f"planes differ at {differ[:5].tolist()} for seat {seat}"
    # The encoder's own path (native where the core is built) gives the same tensor.
    assert (encoder.encode(snapshot, seat) == native).all()


# Every mode; the archer_blockers option where the mode has Archers (intro has none, and
# refuses the option).
CASES = [("intro", "front_and_wing")] + [
    (mode, blockers)
    for mode in ("beginner", "intermediate", "advanced")
    for blockers in ARCHER_BLOCKERS
]


@pytest.mark.parametrize(("mode", "blockers"), CASES)
def test_native_planes_are_the_python_planes_and_the_views(mode: str, blockers: str) -> None:
    gungi = Gungi()
    rng = random.Random(f"encode-{mode}-{blockers}")
    plies = 0
    for seed in range(4):
        # A short length guard in one game: the ply plane's fraction reaches 1.
        options: dict[str, Any] = {"mode": mode, "archer_blockers": blockers}
        state = gungi.new_state(seed=seed, **options)
        encoder = GungiEncoder(60 if seed == 3 else gungi.max_game_length())
        while plies < 400 * (seed + 1):
            for seat in (0, 1, None):
                snapshot = encoder.capture(state, seat)
                assert_same(encoder, snapshot, seat)
                # ... and the view's tensor (the snapshot's capturable worked out when encoded)
                view_planes = encoder.encode(state.view(seat), seat)
                assert (native_planes(encoder, snapshot, seat) == view_planes).all()
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
            plies += 1
    assert plies > 300


def test_capturable_given_in_the_snapshot_is_written_as_given() -> None:
    gungi = Gungi()
    state = gungi.new_state(seed=1, mode="beginner")
    encoder = GungiEncoder(gungi.max_game_length())
    base = encoder.capture(state, 0)
    for flags in ((True, False), (False, True), (True, True), (False, False)):
        snapshot = base._replace(capturable=flags)
        for seat in (0, 1, None):
            assert_same(encoder, snapshot, seat)
            planes = native_planes(encoder, snapshot, seat)
            me = 1 if seat == 1 else 0
            f = encoder.flags_base
            assert planes[f + 4, 0, 0] == float(flags[me])
            assert planes[f + 5, 0, 0] == float(flags[1 - me])


def bad_snapshots(snapshot: GungiSnapshot) -> list[tuple[str, GungiSnapshot]]:
    board = list(snapshot.board)
    return [
        ("80 towers", snapshot._replace(board=tuple(board[:80]))),
        ("a piece out of range", snapshot._replace(board=((99,), *board[1:]))),
        ("a negative piece", snapshot._replace(board=((-1,), *board[1:]))),
        ("a tower of four", snapshot._replace(board=((0, 2, 4, 6), *board[1:]))),
        ("a tower not a sequence", snapshot._replace(board=(5, *board[1:]))),
        (
            "a hand short of a kind",
            snapshot._replace(hands=(snapshot.hands[0][:3], snapshot.hands[1])),
        ),
        ("one hand", snapshot._replace(hands=(snapshot.hands[0],))),
        ("a Marshal off the board", snapshot._replace(marshal_at=(81, -1), capturable=None)),
        ("capturable not a pair", snapshot._replace(capturable=(True,))),
        ("a ply not a number", snapshot._replace(ply="ten")),
    ]


def test_a_malformed_snapshot_or_tensor_is_refused_and_nothing_is_written() -> None:
    gungi = Gungi()
    state = gungi.new_state(seed=2, mode="intro")
    rng = random.Random(2)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    encoder = GungiEncoder(gungi.max_game_length())
    snapshot = encoder.capture(state, 0)
    tables = native_core.tables(snapshot.blockers)
    for what, bad in bad_snapshots(snapshot):
        out = np.zeros(encoder.shape, np.float32)
        with pytest.raises((ValueError, TypeError)):
            native_encode(tables, bad, 0, out, encoder.max_game_length)
        assert not out.any(), what
    out = np.zeros(encoder.shape, np.float32)
    for args in (
        (tables, snapshot, 2, out, 100),  # no such colour
        (tables, snapshot, 0, out, 0),  # no length guard
        (tables, tuple(snapshot)[:9], 0, out, 100),  # not a snapshot
        ("tables", snapshot, 0, out, 100),  # not the core's tables
        (tables, snapshot, 0, np.zeros(encoder.shape, np.float64), 100),
        (tables, snapshot, 0, np.zeros((119, 9, 9), np.float32), 100),
        (tables, snapshot, 0, np.zeros(encoder.shape, np.float32)[:, ::-1], 100),
        (tables, snapshot, 0, bytes(120 * 81 * 4), 100),  # read-only
    ):
        with pytest.raises((ValueError, TypeError, RuntimeError, BufferError)):
            native_encode(*args)
    assert not out.any()


def test_the_encoder_falls_back_to_python_without_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    gungi = Gungi()
    state = gungi.new_state(seed=3, mode="advanced")
    rng = random.Random(3)
    encoder = GungiEncoder(gungi.max_game_length())
    for _ in range(60):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    snapshot = encoder.capture(state, 1)
    native = encoder.encode(snapshot, 1)
    monkeypatch.setattr(encoder_module, "_native_encode", None)
    assert (encoder.encode(snapshot, 1) == native).all()
