"""The arena on the test games: schedule, tallies, determinism, records, backends, CLI."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from sengoku.arena import SPRT, ArenaConfig, LocalBackend, arena, run_arena, schedule
from sengoku.cli import main
from sengoku.core.game import SengokuError
from sengoku.core.record import GameRecord
from tests.toygames import HighTrick, TicTacToe

TTT = TicTacToe()
HT = HighTrick()


def stable(report: dict[str, Any]) -> dict[str, Any]:
    """The report without timings and backend (which differ from run to run)."""
    out = json.loads(json.dumps(report))
    out.pop("backend")
    for agent in out["agents"].values():
        agent.pop("seconds_per_move")
    return out


def test_blocks_rotate_seats_over_the_same_opening() -> None:
    tasks = list(schedule(ArenaConfig(TTT, ["mcts", "random"], 5, seed=3), 2))
    assert len(tasks) == 6  # rounded up to whole pairs
    for a, b in zip(tasks[::2], tasks[1::2], strict=True):
        assert a["game_seed"] == b["game_seed"] and a["opening_seed"] == b["opening_seed"]
        assert a["seats"] == ["mcts", "random"] and b["seats"] == ["random", "mcts"]
    assert len({t["opening_seed"] for t in tasks}) == 3
    three = list(schedule(ArenaConfig(HT, ["a", "b", "c"], 3), 3))
    assert [t["seats"] for t in three] == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    robin = list(schedule(ArenaConfig(TTT, ["a", "b", "c"], 1), 2))
    assert [t["seats"] for t in robin] == [
        ["a", "b"], ["b", "a"], ["a", "c"], ["c", "a"], ["b", "c"], ["c", "b"],
    ]  # fmt: skip
    with pytest.raises(SengokuError, match="one agent per seat"):
        list(schedule(ArenaConfig(HT, ["a", "b"], 1), 3))


def test_mcts_beats_random_and_the_report_adds_up() -> None:
    report = arena(TTT, ["mcts:iterations=200", "random"], 20, seed=1, opening_plies=1)
    mcts, rnd = report["agents"]["mcts:iterations=200"], report["agents"]["random"]
    assert report["games"] == 20 and mcts["games"] == rnd["games"] == 20
    assert mcts["wins"] == rnd["losses"] and mcts["draws"] == rnd["draws"]
    assert mcts["wins"] + mcts["draws"] + mcts["losses"] == 20
    assert mcts["score"] == pytest.approx((mcts["wins"] + 0.5 * mcts["draws"]) / 20)
    assert mcts["losses"] <= 1 and mcts["wins"] >= 12
    assert (mcts["rank"], rnd["rank"]) == (1, 2)
    assert report["ranking"] == ["mcts:iterations=200", "random"]
    (pair,) = report["elo"]
    assert pair["a"] == "mcts:iterations=200" and pair["elo"] is None or pair["elo"] > 100
    assert pair["score_ci95"][0] > 0.5
    assert sum(report["seat_wins"]) == mcts["wins"] + rnd["wins"]


def test_same_seed_same_report_on_any_number_of_workers(tmp_path: Path) -> None:
    agents = ["mcts:iterations=40", "greedy"]
    one = arena(TTT, agents, 8, seed=5)
    again = arena(TTT, agents, 8, seed=5)
    pooled = arena(TTT, agents, 8, seed=5, workers=2)
    assert stable(one) == stable(again) == stable(pooled)
    assert pooled["backend"] == {"name": "local", "workers": 2}


def test_json_lines_carry_each_game_and_its_record_replays(toys: None, tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    report = arena("hightrick", ["ismcts:iterations=30", "random"], 6, seed=2, jsonl_path=out)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["type"] for line in lines] == ["game"] * 6 + ["summary"]
    assert lines[-1]["agents"] == report["agents"]
    for line in lines[:-1]:
        record = GameRecord.from_json(line["record"])
        assert record.players == line["seats"]
        state = record.replay()
        assert state.outcome() is not None
        assert state.outcome().to_json() == line["outcome"]  # type: ignore[union-attr]
    assert [line["index"] for line in lines[:-1]] == list(range(6))


class Interrupted(LocalBackend):
    """Plays ``stop_after`` games, noting what the JSON lines file holds on disk before each
    next result, then stops the match as Ctrl-C or a time limit would."""

    def __init__(self, path: Path, stop_after: int) -> None:
        super().__init__(1)
        self.path, self.stop_after = path, stop_after
        self.on_disk: list[int] = []

    def run(self, tasks: Any) -> Any:
        for n, result in enumerate(super().run(tasks)):
            self.on_disk.append(len(self.path.read_text().splitlines()))
            if n == self.stop_after:
                raise KeyboardInterrupt
            yield result


def test_a_stopped_match_keeps_the_games_it_counted(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    backend = Interrupted(out, stop_after=3)
    with pytest.raises(KeyboardInterrupt):
        arena(TTT, ["mcts:iterations=20", "random"], 8, seed=1, backend=backend, jsonl_path=out)
    # Each counted game was on disk before the next one came back, not held in a buffer.
    assert backend.on_disk == [0, 1, 2, 3]
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(line["type"], line["index"]) for line in lines] == [("game", i) for i in range(3)]


def test_max_plies_adjudicates_long_games_as_draws(tmp_path: Path) -> None:
    agents = ["mcts:iterations=20", "random"]
    out = tmp_path / "games.jsonl"
    # Tic-tac-toe cannot end before its fifth ply, so every game is cut at the third.
    report = arena(TTT, agents, 4, seed=1, max_plies=3, jsonl_path=out)
    assert report["max_plies"] == 3
    assert report["agents"]["random"]["draws"] == 4 and report["mean_plies"] == 3
    games = [json.loads(line) for line in out.read_text().splitlines()][:-1]
    for game in games:
        assert game["outcome"] == {
            "reason": "adjudicated",
            "winners": [],
            "scores": [0.0, 0.0],
            "returns": [0.0, 0.0],
        }
        assert len(game["record"]["actions"]) == 3
    # A limit no game reaches changes nothing: the board fills at the ninth ply.
    unlimited = stable(arena(TTT, agents, 4, seed=1))
    limited = stable(arena(TTT, agents, 4, seed=1, max_plies=9))
    assert limited.pop("max_plies") == 9 and unlimited.pop("max_plies") is None
    assert limited == unlimited
    with pytest.raises(SengokuError, match="max_plies must be at least 1"):
        arena(TTT, agents, 2, max_plies=0)


def test_openskill_for_more_than_two_players() -> None:
    report = arena(HT, ["ismcts:iterations=40", "random", "random"], 9, options={"players": 3})
    assert set(report["openskill"]) == {"ismcts:iterations=40", "random"}
    assert "elo" not in report
    assert report["agents"]["random"]["games"] == 18
    assert report["agents"]["ismcts:iterations=40"]["games"] == 9
    skill = report["openskill"]
    assert skill["ismcts:iterations=40"]["mu"] > skill["random"]["mu"]


def test_sprt_stops_early_between_blocks() -> None:
    config = ArenaConfig(TTT, ["mcts:iterations=150", "random"], 200, seed=4, sprt=SPRT(0, 150))
    report = run_arena(config)
    assert report["sprt"]["decision"] == "H1" and report["sprt"]["stopped_early"]
    assert report["games"] < 200 and report["games"] % 2 == 0
    with pytest.raises(SengokuError, match="exactly two agents"):
        run_arena(ArenaConfig(TTT, ["mcts", "greedy", "random"], 2, sprt=SPRT(0, 10)))


def test_progress_bar_goes_to_the_given_stream() -> None:
    err = io.StringIO()
    arena(TTT, ["random", "random:iterations=1"], 4, progress=err)
    text = err.getvalue()
    assert "4/4 games" in text and text.endswith("\n") and "[" in text


def test_bad_requests_are_refused_clearly() -> None:
    with pytest.raises(SengokuError, match="unknown agent 'nope'"):
        arena(TTT, ["nope", "random"], 2)
    with pytest.raises(SengokuError, match="at least 1"):
        arena(TTT, ["random", "random"], 0)
    with pytest.raises(SengokuError, match="unknown backend"):
        arena(TTT, ["random", "random"], 2, backend="cloud")
    with pytest.raises(SengokuError, match="workers must be at least 1"):
        LocalBackend(0)


@pytest.mark.ray
def test_ray_backend_plays_the_same_games(toys: None) -> None:
    import ray

    from sengoku.arena import RayBackend

    local = arena(TTT, ["mcts:iterations=30", "random"], 4, seed=9)
    ray.init(
        num_cpus=1,
        include_dashboard=False,
        log_to_driver=False,
        # the workers import the test games from tests/toygames.py
        runtime_env={"env_vars": {"PYTHONPATH": str(Path(__file__).parents[2])}},
    )
    try:
        remote = arena(TTT, ["mcts:iterations=30", "random"], 4, seed=9, backend=RayBackend())
    finally:
        ray.shutdown()
    assert remote["backend"]["name"] == "ray"
    assert stable(remote) == stable(local)


def test_cli_arena_json_and_table(toys: None, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "tictactoe", "--agents", "mcts,random", "--games", "4", "--iterations"]
    assert main([*argv, "50", "--json", "--quiet"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["agents"]) == {"mcts", "random"}
    for entry in report["agents"].values():
        assert {"games", "wins", "draws", "score"} <= set(entry)
    assert report["agent_defaults"] == {"iterations": 50}
    assert main([*argv, "50"]) == 0
    captured = capsys.readouterr()
    assert "rank  agent" in captured.out and "4/4 games" in captured.err
    assert main([*argv, "50", "--max-plies", "2", "--json", "--quiet"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["max_plies"] == 2 and report["agents"]["mcts"]["draws"] == 4
    assert main([*argv, "50", "--sprt", "0,100"]) == 0
    assert "SPRT elo0=0.0 elo1=100.0" in capsys.readouterr().out
    assert main(["arena", "tictactoe", "--agents", "mcts,zzz", "--games", "2"]) == 2
    assert "unknown agent 'zzz'" in capsys.readouterr().err
    assert main(["arena", "tictactoe", "--agents", "a,b", "--sprt", "x"]) == 2


def test_cli_bench_ai(toys: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ai", "--game", "tictactoe", "--seconds", "0.3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "tictactoe"
    assert result["mcts_iterations_per_second"] > 0
    assert result["alphabeta_nodes_per_second"] > 0
    assert result["random_plies_per_second"] > 0
    assert main(["bench", "ai", "--seconds", "0.1"]) == 2


def test_cli_arena_options(toys: None, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["arena", "hightrick", "--agents", "ismcts,random,random", "--games", "3", "--quiet"]
    assert main([*base, "--iterations", "10", "--options", "players=3,hand=2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["options"] == {"players": 3, "hand": 2} and "openskill" in report
    assert main([*base, "--options", '{"players": 3}', "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["options"]["players"] == 3
    assert main([*base, "--options", "players"]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err
    assert main([*base, "--options", '{"players": 9}']) == 2
    assert "players" in capsys.readouterr().err
