"""Records replay exactly; the CLI's perft, play and bench work for a real user."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from sengoku.cli import main
from sengoku.core.record import GameRecord, InvalidRecord
from sengoku.games.gungi import Gungi
from sengoku.terminal import play_terminal


def random_record(gungi: Gungi, seed: int, mode: str = "advanced") -> tuple[GameRecord, str]:
    record, state = GameRecord.start(gungi, seed, ["A", "B"], mode=mode)
    rng = random.Random(seed)
    while not state.is_terminal():
        record.play(state, rng.choice(state.legal_actions()))
    return record, gungi.to_fen(state)


def test_record_round_trip_and_replay(gungi: Gungi, tmp_path: Path) -> None:
    record, fen = random_record(gungi, 7)
    path = tmp_path / "game.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record
    state = loaded.replay()
    assert gungi.to_fen(state) == fen
    assert state.outcome() is not None and state.outcome().to_json() == record.result


def test_record_in_official_short_form_replays(gungi: Gungi) -> None:
    record, state = GameRecord.start(gungi, 0)
    texts = []
    rng = random.Random(1)
    for _ in range(40):
        move = rng.choice(state.legal_actions())
        texts.append(gungi.format_action(state, move))
        record.play(state, move)
    short = GameRecord(record.game, record.version, record.options, 0, [], texts)
    assert gungi.to_fen(short.replay()) == gungi.to_fen(state)


def test_bad_record_names_the_move(gungi: Gungi) -> None:
    record, _ = random_record(gungi, 3, mode="intro")
    record.actions[5] = "5-5-3 帥"
    record.result = None
    with pytest.raises(InvalidRecord, match=r"move 6 \('5-5-3 帥'\)"):
        record.replay()


def test_record_of_another_rules_version_is_refused(gungi: Gungi) -> None:
    record, _ = random_record(gungi, 3, mode="intro")
    record.version = gungi.version + 1
    with pytest.raises(InvalidRecord, match="rules version"):
        record.replay()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "JSON object"),
        ({"game": "gungi", "version": 1, "options": {}}, "'actions' is missing"),
        ({"game": "gungi", "version": "1", "options": {}, "actions": []}, "'version'"),
        ({"game": "gungi", "version": 1, "options": {}, "actions": [1]}, "list of strings"),
        ({"game": "chess", "version": 1, "options": {}, "actions": []}, "unknown game"),
        ({"game": "gungi", "version": 1, "options": {"mode": "expert"}, "actions": []}, "mode"),
    ],
)
def test_malformed_records(data: object, field: str) -> None:
    with pytest.raises(InvalidRecord, match=field):
        GameRecord.from_json(data).replay()


def conceding(concessions: list[dict[str, object]], actions: int = 0) -> dict[str, object]:
    return {
        "game": "gungi",
        "version": 1,
        "options": {},
        "actions": ["x"] * actions,
        "concessions": concessions,
    }


@pytest.mark.parametrize(
    ("data", "words"),
    [
        # the import that froze the server held 80,000 copies of one concession
        (conceding([{"ply": 0, "seat": 0}] * 80_000), "holds 80000"),
        (conceding([{"ply": 0, "seat": 0}, {"ply": 0, "seat": 0}]), "more than once"),
        (conceding([{"ply": 3, "seat": 0}], actions=2), "outside the record's 0-2"),
        (conceding([{"ply": -1, "seat": 0}]), "outside"),
        (conceding([{"ply": 0, "seat": -2}]), "is not a seat"),
        (conceding([{"ply": 0, "seat": 0, "reason": "x" * 65}]), "at most 64"),
        (conceding([{"ply": 0, "seat": 0, "reason": 7}]), "at most 64"),
    ],
)
def test_concessions_are_bounded_and_each_seat_concedes_once(
    data: dict[str, object], words: str
) -> None:
    with pytest.raises(InvalidRecord, match=f"'concessions'.*{words}"):
        GameRecord.from_json(data)


def test_a_concession_by_a_seat_the_game_lacks_is_refused() -> None:
    with pytest.raises(InvalidRecord, match="seat 2 is not one of the game's 2 seats"):
        GameRecord.from_json(conceding([{"ply": 0, "seat": 2}])).replay()


def test_concession_is_recorded(gungi: Gungi) -> None:
    record, state = GameRecord.start(gungi, 0)
    record.play(state, state.legal_actions()[0])
    record.concede(state, 1)
    replayed = GameRecord.loads(record.dumps()).replay()
    assert replayed.outcome() is not None and replayed.outcome().winners == (0,)


def test_cli_perft(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "gungi", "--mode", "beginner", "--depth", "2"]) == 0
    assert capsys.readouterr().out.strip() == "34969"
    fen = "4m4/9/9/9/9/9/9/9/4M4 -/- w 3 - 1"
    assert main(["perft", "gungi", "--fen", fen, "--depth", "1", "--divide"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == "5" and "4-9-1 帥(5-9): 1" in out


def test_cli_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "gungi", "--seconds", "0.4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["plies_per_second"] > 0 and len(data["runs"]) == 2
    assert all(r["peak_memory_bytes"] > 0 for r in data["runs"])


def test_cli_reports_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "gungi", "--mode", "expert", "--depth", "1"]) == 2
    assert "allowed: 'intro', 'beginner', 'intermediate', 'advanced'" in capsys.readouterr().err


def test_terminal_game_rejects_bad_input_and_saves(gungi: Gungi, tmp_path: Path) -> None:
    save = tmp_path / "t.json"
    inputs = iter(["moves", "5-5-5 帥", "5-6-1 侍", "9-6-1 兵", f"save {save}", "resign"])
    out = io.StringIO()
    record = play_terminal(gungi, {"mode": "intro"}, {0}, read=lambda _: next(inputs), out=out)
    text = out.getvalue()
    assert "154 legal:" in text
    assert "Not played: '5-5-5 帥': tier 5: towers are at most 2 high in this mode" in text
    assert "ambiguous" in text  # both Samurai can reach 5-6
    assert "Black plays" in text  # the computer answered
    assert record.actions[0] == "9-6-1 兵(9-7)"
    assert GameRecord.load(save).actions == record.actions[: len(GameRecord.load(save).actions)]
    assert "Game over (resignation)" in text


def test_python_dash_m_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "sengoku", "games"], capture_output=True, text=True, check=True
    ).stdout
    assert "gungi" in out and "self_check" in out
