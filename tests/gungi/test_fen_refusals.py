"""FEN defects of the audit (issue 42): wide move numbers in both engines and the CLI, setup
positions the setup rules cannot reach, pieces a mode does not use, malformed FEN text."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sengoku.cli import main
from sengoku.core.game import SengokuError
from sengoku.games.gungi import Gungi, native_available
from sengoku.games.gungi import state as state_module
from sengoku.games.gungi.fen import FenError
from sengoku.games.gungi.pieces import MODES

ROOT = Path(__file__).resolve().parents[2]
KINGS = "4m4/9/9/9/9/9/9/9/4M4 -/- w 3 - {}"
FULL_HANDS = "M1G1I1J2W2N3R2S2F2D4C1A2K1T1/m1g1i1j2w2n3r2s2f2d4c1a2k1t1"
INTRO = MODES["intro"].setup
BEGINNER = MODES["beginner"].setup


@pytest.fixture(params=["native", "python"])
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each test runs on the native core and on the Python engine."""
    if request.param == "native" and not native_available():
        pytest.skip("native core not built")
    saved = state_module._NATIVE
    state_module._NATIVE = request.param == "native"
    try:
        yield request.param
    finally:
        state_module._NATIVE = saved


# ---------------------------------------------------------------- 1. the move number


@pytest.mark.parametrize("number", [2**31, 2**32 + 7, 10**18 - 3])
def test_a_wide_move_number_plays_in_both_engines(gungi: Gungi, engine: str, number: int) -> None:
    # The native core held the move number in a C int: 2**31 crashed its load with a TypeError.
    state = gungi.from_fen(KINGS.format(number))
    assert state.perft(1) == 5 and state.perft(2) == 25
    rng = random.Random(number)
    for _ in range(6):
        state.apply(rng.choice(state.legal_actions()))
    assert state.move_number == number + 3  # three Black moves
    assert gungi.to_fen(state).endswith(f" {number + 3}")
    assert gungi.from_fen(gungi.to_fen(state)).legal_actions() == state.legal_actions()


def test_a_stored_game_counted_past_the_fen_bound_loads(gungi: Gungi, engine: str) -> None:
    state = gungi.from_fen(KINGS.format(10**18))
    for _ in range(2):
        state.apply(state.legal_actions()[0])
    assert state.move_number == 10**18 + 1
    again = gungi.state_from_json(state.to_json())
    assert again.move_number == 10**18 + 1
    assert again.legal_actions() == state.legal_actions()
    again.apply(again.legal_actions()[0])
    with pytest.raises(FenError, match=r"move number: a whole number from 1 to 10\^18"):
        gungi.from_fen(gungi.to_fen(state))  # from_fen keeps its bound


@pytest.mark.parametrize(
    "text", [str(10**18 + 1), "0", "01", "-3", "+3", "1e9", "\uff11", "\u00b2", "3.0"]
)
def test_a_move_number_out_of_range_or_not_ascii_is_refused(gungi: Gungi, text: str) -> None:
    with pytest.raises(FenError, match="move number") as err:
        gungi.from_fen(KINGS.format(text))
    assert isinstance(err.value, SengokuError)  # and so a ValueError


def test_cli_perft_reads_a_wide_move_number(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "gungi", "--fen", KINGS.format(2**31), "--depth", "1"]) == 0
    assert capsys.readouterr().out.strip() == "5"
    assert main(["perft", "gungi", "--fen", KINGS.format(10**19), "--depth", "1"]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "FEN move number" in lines[0], captured.err
    assert "Traceback" not in captured.err


@pytest.mark.parametrize("pure", ["0", "1"])
def test_cli_process_in_each_engine(pure: str) -> None:
    env = {**os.environ, "SENGOKU_PURE_PYTHON": pure, "PYTHONPATH": str(ROOT)}
    for number, code in ((2**31, 0), (10**19, 2)):
        run = subprocess.run(
            [sys.executable, "-m", "sengoku", "perft", "gungi", "--depth", "1", "--fen"]
            + [KINGS.format(number)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
        assert run.returncode == code, run.stderr
        assert "Traceback" not in run.stderr, run.stderr
        if code == 0:
            assert run.stdout.splitlines()[0] == "5", run.stdout
        else:
            assert [line for line in run.stderr.splitlines() if line] == [
                "sengoku: FEN move number: a whole number from 1 to 10^18, in ASCII digits "
                "without leading zeros; got '10000000000000000000'"
            ], run.stderr


# ---------------------------------------------------------------- 2. FEN


@pytest.mark.parametrize(
    ("fen", "problem"),
    [
        # rulebook: "players alternately place one piece at a time within their first three
        # rows" and the setup starts with the Marshal: a side that has finished (Done) has it
        # on the board.
        (
            "9/9/9/9/9/9/9/9/9 M1/m1 w 3 w 1",
            r"drafting 'w': Black has finished its setup, but its Marshal is not on the board",
        ),
        (
            f"9/9/9/9/9/9/9/9/9 {FULL_HANDS} w 3 w 1",
            r"Black has finished its setup, but its Marshal is not on the board",
        ),
        (
            f"4m4/9/9/9/9/9/9/9/9 {FULL_HANDS.replace('m1', '')} b 3 b 1",
            r"drafting 'b': White has finished its setup, but its Marshal is not on the board",
        ),
        (
            f"9/9/9/9/9/9/9/9/4D4 {FULL_HANDS.replace('D4', 'D3')} b 3 wb 1",
            r"White has placed 1 piece\(s\) but not its Marshal.*starts with the Marshal",
        ),
        (
            f"4m4/9/9/9/4M4/9/9/9/9 {FULL_HANDS.replace('M1', '').replace('m1', '')} w 3 wb 1",
            r"rank 5: a White Marshal \(帥\) outside White's three rows \(7-9\)",
        ),
        (
            "4m4/9/9/9/9/9/9/9/|D:M|8 G1I1J2W2N3R2S2F2D3C1A2K1T1/g1i1j2w2n3r2s2f2d4c1a2k1t1 b 3 "
            "wb 1",
            r"rank 9: White's Marshal is not alone at tier 1 during the setup",
        ),
        (
            f"4m4/9/9/9/9/9/9/9/4M4 {FULL_HANDS.replace('M1', '').replace('m1', '')} b 3 w 1",
            r"side to move: b, but Black has finished its setup",
        ),
        (
            "4m4/9/9/9/9/9/9/9/2DDMD3 G1I1J2W2N3R2S2F2D1C1A2K1T1/g1i1j2w2n3r2s2f2d4c1a2k1t1 b 3 "
            "wb 1",
            r"White has placed 4 piece\(s\) and Black 1.*placements alternate",
        ),
        ("9/9/9/9/9/9/9/9/9 M1/m1 w 3 wb 1", r"White lacks 1 General \(大\).*during the setup"),
        # rulebook: "Introduction ... Special Pieces: None"; "Beginner ... Archers Only".
        (
            INTRO.replace("J2N2R2D1/", "J2N2R2D1A1/"),
            r"White has 1 Archer \(弓\), a piece mode 0 \(intro\) does not use",
        ),
        (
            BEGINNER.replace("/j2n2s1r1d1", "/j2n2s1r1d1c1"),
            r"Black has 1 Cannon \(砲\), a piece mode 1 \(beginner\) does not use",
        ),
        (INTRO.replace("D1FWDWF1D", "D1FWDWF1|D:A|"), r"Archer \(弓\), a piece mode 0"),
        (INTRO.replace(" w 0 - 1", " w 0 wb 1"), r"mode 0 \(intro\) starts from a fixed setup"),
        (INTRO.replace("J2N2R2D1/", "J2N3R2D1/"), r"more than 3, the number in mode 0"),
        # gungi.js writes one digit per run of empty squares: '44M' is no rank.
        ("44M/9/9/9/9/9/9/9/4m4 -/- w 3 - 1", r"rank 1: two digits in a row in '44M'.*'8'"),
        ("4M0/9/9/9/9/9/9/9/4m4 -/- w 3 - 1", r"rank 1: '4M0' has a '0'"),
        (KINGS.format(1).replace(" ", "\t", 1), r"'\\t' at position 21.*single spaces"),
        (KINGS.format(1).replace(" ", "\n", 1), r"'\\n' at position 21.*single spaces"),
        (KINGS.format(1).replace(" ", "  ", 1), r"single spaces"),
        (KINGS.format(1) + " ", r"none before the first field or after the last"),
        (KINGS.format(1).replace("-/-", "-/m\uff11"), r"FEN hands: cannot read"),
        ("4m4/9/9/9/9/9/9/9/4M4 D01/- w 3 - 1", r"FEN hands: 'D'.*leading zero"),
    ],
)
def test_unreachable_or_malformed_fen_is_refused(gungi: Gungi, fen: str, problem: str) -> None:
    with pytest.raises(FenError, match=problem):
        gungi.from_fen(fen)
    with pytest.raises(FenError, match=problem):
        gungi.from_fen(fen, study=True)  # study lifts the Marshal-in-play rule only


def test_setup_positions_of_random_setups_round_trip(gungi: Gungi, engine: str) -> None:
    """Every position the setup reaches (either side first, Done at any time) loads again,
    as the same position with the same legal actions, in both engines."""
    rng = random.Random(42)
    for game in range(16):
        mode = ("intermediate", "advanced")[game % 2]
        state = gungi.new_state(mode=mode, first_player=("white", "black")[game // 2 % 2])
        while state.phase == "setup":
            fen = gungi.to_fen(state)
            again = gungi.from_fen(fen)
            assert gungi.to_fen(again) == fen
            assert again.legal_actions() == state.legal_actions(), fen
            legal = state.legal_actions()
            done = [m for m in legal if m.is_done]
            placements = [m for m in legal if not m.is_done]
            if done and (not placements or rng.random() < 0.06):
                state.apply(done[0])
            else:
                state.apply(rng.choice(placements))
        fen = gungi.to_fen(state)
        assert gungi.to_fen(gungi.from_fen(fen)) == fen
