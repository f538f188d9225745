"""The adapters' benchmark (``benchmarks/interop.py``) runs and prints a row per player: a
short run, read for its rows, not for its speeds (those are the benchmark's to measure)."""

from __future__ import annotations

import json

import pytest

from tests.benchmarks.modules import load_benchmark

bench = load_benchmark("interop.py", "interop_bench_under_test")

PETTINGZOO_ROWS = ("pettingzoo", "pettingzoo mask", "pettingzoo sparse", "pettingzoo+obs")


def test_each_pettingzoo_player_plays_the_same_games() -> None:
    """The four PettingZoo players draw with the same generator from the same legal
    integers, whether they read them off the mask or take the list: the same plies."""
    options = {"mode": "duel"}
    players = {
        "pettingzoo": bench.pettingzoo("sashimono", options),
        "pettingzoo mask": bench.pettingzoo("sashimono", options, mask_read=True),
        "pettingzoo sparse": bench.pettingzoo("sashimono", options, sparse=True),
        "pettingzoo+obs": bench.pettingzoo("sashimono", options, observe=True),
    }
    for player in players.values():
        assert sum(next(player) for _ in range(300)) == 300
    # The same draws: each player's environment is at the same point of the same game.
    frames = [p.gi_frame for p in players.values()]
    assert all(frame is not None for frame in frames)
    states = [frame.f_locals["env"].unwrapped.sengoku_state for frame in frames]  # type: ignore[union-attr]
    records = {json.dumps(state.to_json(), sort_keys=True) for state in states}
    assert len(records) == 1


def short_run(capsys: pytest.CaptureFixture[str], *arguments: str) -> list[str]:
    """The lines a short run of the benchmark on Sashimono prints, with ``arguments``."""
    bench.main(
        ["--games", "sashimono", "--seconds", "0.2", "--rounds", "1", "--memory-plies", "5",
         "--no-breakdown", *arguments]
    )  # fmt: skip
    return capsys.readouterr().out.splitlines()


def test_the_benchmark_prints_a_row_per_player(capsys: pytest.CaptureFixture[str]) -> None:
    lines = short_run(capsys, "--players", ",".join(PETTINGZOO_ROWS))
    for mode in ("duel", "solo"):
        rows = {
            line[28:46].strip(): line[46:].split()
            for line in lines
            if line.startswith(f"sashimono mode={mode}")
        }
        assert set(rows) == {"chess", "direct", *PETTINGZOO_ROWS} | (
            {"pyspiel chess"} if bench.has_pyspiel() else set()
        )
        assert rows["direct"][1] == "1.00"  # the ratio to direct play of direct play
        for adapter in PETTINGZOO_ROWS:
            rate, to_direct, to_chess, wall, peak = map(float, rows[adapter])
            assert rate > 0 and to_direct > 0 and to_chess > 0 and wall > 0 and peak >= 0


def test_the_vector_rows_come_one_pair_per_size(capsys: pytest.CaptureFixture[str]) -> None:
    """``--num-envs 2,3`` measures a ``VectorEnv`` of 2 games and one of 3 in the same run
    (the same references), each with and without copies."""
    lines = short_run(capsys, "--players", "vector2,vector3,vector3 copy", "--num-envs", "2,3")
    rows = {line[28:46].strip() for line in lines if line.startswith("sashimono mode=duel")}
    assert {"vector2", "vector3", "vector3 copy"} <= rows
    assert "vector2 copy" not in rows  # not asked for


@pytest.mark.parametrize(("game", "options"), [("sashimono", {"mode": "duel"}), ("gungi", {})])
def test_the_scan_ceiling_keeps_only_the_plys_legal_entries(
    game: str, options: dict[str, object]
) -> None:
    """``direct scan`` (the ceiling of the rows whose agent scans the mask) scans a mask
    holding exactly the legal integers of the ply it played from, through the end of a game
    into the next (a game's last entries cleared too)."""
    player = bench.direct_scan(game, options)
    frame = None
    for _ in range(400):
        assert next(player) == 1
        frame = player.gi_frame
        assert frame is not None
        mask, held = frame.f_locals["mask"], frame.f_locals["held"]
        assert len(held) > 0
        assert bench.legal_of(mask).tolist() == sorted(held.tolist())
    assert frame is not None and frame.f_locals["seed"] >= 1, "no game ended"


def test_the_ceiling_rows_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    lines = short_run(capsys, "--players", "direct scan,direct copies3", "--num-envs", "3")
    rows = {line[28:46].strip() for line in lines if line.startswith("sashimono mode=solo")}
    assert {"direct scan", "direct copies3"} <= rows
