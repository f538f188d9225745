"""gungi.js / gungi.io move text and PGN: import, export, and what does not map.

The example strings (moves, FENs, PGN) are copied from gungi.js's README
(https://github.com/jwyce/gungi.js, README.md, version 3.4.11): the facts its own
documentation states about its formats.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from sengoku.core.record import GameRecord
from sengoku.games.gungi import Gungi
from sengoku.games.gungi.gungijs import (
    ADVANCED_POSITION,
    BEGINNER_POSITION,
    INTRO_POSITION,
    GungiJsError,
    dump_pgn,
    export_moves,
    find_move,
    import_moves,
    load_pgn,
    parse_gungijs_move,
    split_pgn,
    to_gungijs_move,
)
from sengoku.games.gungi.move import DONE
from sengoku.games.gungi.pieces import BLACK, WHITE

GAME = Gungi()

# README, ".history({ verbose: true })" (the first move is from its ".get" example): each
# move with the FEN before and after it.
HISTORY = [
    (
        "3img3/1s2n2s1/d1fwdwf1d/9/9/9/D1FWDWF1D/1S2N2S1/3GMI3 J2N2R2D1/j2n2r2d1 w 0 - 1",
        "砦(7-3-1)(7-4-2)付",
        "3img3/1s2n2s1/d1fwdwf1d/9/9/9/D1FWD|W:F|2D/1S2N2S1/3GMI3 J2N2R2D1/j2n2r2d1 b 0 - 1",
    ),
    (
        "3img3/1s2n2s1/d1fwdwf1d/9/9/9/D1FWDWF1D/1S2N2S1/3GMI3 J2N2R2D1/j2n2r2d1 w 0 - 1",
        "新小(7-5-2)付",
        "3img3/1s2n2s1/d1fwdwf1d/9/9/9/D1FW|D:J|WF1D/1S2N2S1/3GMI3 J1N2R2D1/j2n2r2d1 b 0 - 1",
    ),
    (
        "3img3/1s2n2s1/d1fwdwf1d/9/9/9/D1FW|D:J|WF1D/1S2N2S1/3GMI3 J1N2R2D1/j2n2r2d1 b 0 - 1",
        "兵(3-5-1)(4-5-1)",
        "3img3/1s2n2s1/d1fw1wf1d/4d4/9/9/D1FW|D:J|WF1D/1S2N2S1/3GMI3 J1N2R2D1/j2n2r2d1 w 0 - 2",
    ),
    (
        "3img3/1s2n2s1/d1fw1wf1d/4d4/9/9/D1FW|D:J|WF1D/1S2N2S1/3GMI3 J1N2R2D1/j2n2r2d1 w 0 - 2",
        "新槍(7-4-2)付",
        "3img3/1s2n2s1/d1fw1wf1d/4d4/9/9/D1FW|D:J||W:N|F1D/1S2N2S1/3GMI3 J1N1R2D1/j2n2r2d1 b 0 - 2",
    ),
    (
        "3img3/1s2n2s1/d1fw1wf1d/4d4/9/9/D1FW|D:J||W:N|F1D/1S2N2S1/3GMI3 J1N1R2D1/j2n2r2d1 b 0 - 2",
        "兵(4-5-1)(5-5-1)",
        "3img3/1s2n2s1/d1fw1wf1d/9/4d4/9/D1FW|D:J||W:N|F1D/1S2N2S1/3GMI3 J1N1R2D1/j2n2r2d1 w 0 - 3",
    ),
    (
        "3img3/1s2n2s1/d1fw1wf1d/9/4d4/9/D1FW|D:J||W:N|F1D/1S2N2S1/3GMI3 J1N1R2D1/j2n2r2d1 w 0 - 3",
        "小(7-5-2)取(5-5-1)",
        "3img3/1s2n2s1/d1fw1wf1d/9/4J4/9/D1FWD|W:N|F1D/1S2N2S1/3GMI3 J1N1R2D1/j2n2r2d1 b 0 - 3",
    ),
    # README, ".move()": the Soldier's first step.
    (
        INTRO_POSITION,
        "兵(7-1-1)(6-1-1)",
        "3img3/1s2n2s1/d1fwdwf1d/9/9/8D/D1FWDWF2/1S2N2S1/3GMI3 J2N2R2D1/j2n2r2d1 b 0 - 1",
    ),
]

# README, ".loadPgn()": a whole Advanced opening, setup included.
README_PGN = "\n".join(
    [
        "1.新帥(7-9-1)終 新帥(1-5-1) 新小(2-8-1) 新謀(1-2-1) 新馬(2-8-2)付 新大(3-4-1)終",
        "2.帥(7-9-1)(8-8-1) 新砦(3-2-1) 3.新謀(8-2-1) 新弓(1-8-1) 4.新弓(9-9-1) 新馬(1-3-1)",
        "5.新筒(9-5-1) 新弓(1-8-2)付 6.新兵(8-5-1) 新砦(3-6-1) 7.新大(8-9-1) 砦(3-6-1)(2-5-1)",
        "8.新小(8-9-2)付 新小(1-7-1) 9.新槍(8-2-2)付 新侍(1-2-2)付 10.新兵(9-8-1) 小(1-7-1)(2-7-1)",
        "11.新槍(8-6-1) 新侍(2-4-1) 12.新砦(9-9-2)付 侍(2-4-1)(3-3-1) 13.小(8-9-2)(7-8-1) 新兵(1-4-1)",
    ]
)
# ... and the board its .print() shows after it (rank 1 first, file 9 on the left).
README_BOARD = [
    "・弓・・帥兵馬侍・",
    "・馬小・砦・・・・",
    "・・・・・大侍砦・",
    "・・・・・・・・・",
    "・・・・・・・・・",
    "・・・・・・・・・",
    "・小・・・・・・・",
    "大帥・槍兵・・槍・",
    "砦兵・・筒・・・・",
]


def _tops(state: object) -> list[str]:
    from sengoku.games.gungi.pieces import PIECES

    board = state.board  # type: ignore[attr-defined]
    rows = []
    for rank in range(9):
        rows.append(
            "".join(
                PIECES[t[-1] >> 1].kanji if (t := board[rank * 9 + i]) else "・" for i in range(9)
            )
        )
    return rows


@pytest.mark.parametrize(("before", "san", "after"), HISTORY)
def test_readme_history_moves_import_and_export(before: str, san: str, after: str) -> None:
    state = GAME.from_fen(before)
    move = find_move(state, san)
    assert to_gungijs_move(state, move) == san
    state.apply(move)
    assert GAME.to_fen(state) == after


def test_readme_intro_move_list_maps_one_to_one() -> None:
    # README ".moves()": 100 moves listed, "... 57 more items"; ".moves({ square: '8-5' })".
    # The list is older than gungi.js's code (3.4.11), which, like our rules, keeps the
    # Marshal from stacking in Intro: those three moves of the list are not ours.
    listed = "兵(7-1-1)(6-1-1) 兵(7-1-1)(8-1-1) 砦(7-3-1)(6-3-1) 砦(7-3-1)(7-4-2)付 侍(7-4-1)(6-5-1) 兵(7-5-1)(8-5-2)付 忍(8-2-1)(7-3-2)付 忍(8-8-1)(9-9-1) 中(9-4-1)(8-5-2)付 大(9-6-1)(7-6-2)付 新小(9-4-2)付 新小(7-9-2)付 新槍(7-4-2)付".split()
    marshal_stacks = ["帥(9-5-1)(8-5-2)付", "帥(9-5-1)(9-6-2)付", "帥(9-5-1)(9-4-2)付"]
    state = GAME.from_fen(INTRO_POSITION)
    texts = {to_gungijs_move(state, m) for m in state.legal_actions()}
    assert len(texts) == len(state.legal_actions()) == 157 - len(marshal_stacks)
    assert set(listed) <= texts
    for text in marshal_stacks:
        with pytest.raises(GungiJsError, match="in intro the Marshal never stacks"):
            find_move(state, text)
    spear = {t for t in texts if t.startswith("槍(8-5-1)")}
    assert spear == {"槍(8-5-1)(7-6-2)付", "槍(8-5-1)(7-5-2)付", "槍(8-5-1)(7-4-2)付"}
    drops = [t for t in texts if t.startswith("新小")]
    assert len(drops) == 26  # README ".moves({ arata: ... })"


def test_readme_pgn_loads_to_its_board_and_round_trips() -> None:
    game = load_pgn(README_PGN)
    state = game.record.replay()
    assert _tops(state) == README_BOARD
    assert state.to_move == WHITE and state.move_number == 14
    # Done is ours alone: White's 終 became a Done at White's next turn, Black's at once.
    assert game.record.actions[:3] == ["9-7-1 帥新", "5-1-1 帥新", "済み"]
    assert game.record.actions[7] == "済み"
    # Exported: gungi.js's own layout (six moves a line), the same moves as the input.
    out = dump_pgn(game.record)
    assert split_pgn(out)[0] == split_pgn(README_PGN)[0]
    assert out.splitlines()[0] == (
        "1. 新帥(7-9-1)終 新帥(1-5-1) 新小(2-8-1) 新謀(1-2-1) 新馬(2-8-2)付 新大(3-4-1)終 "
    )
    assert dump_pgn(load_pgn(out).record) == out


@pytest.mark.parametrize(
    ("pgn", "newline", "width", "with_comments"),
    [
        # README ".pgn()": pgn({ maxWidth: 2, newline: '<br />' }) and pgn({ withComments: true })
        ("1. 槍(8-5-1)(7-5-2)付 新馬(1-7-1) <br />2. 新忍(8-7-2)付", "<br />", 2, False),
        ("1. 槍(8-5-1)(7-5-2)付 {Great opening move!} 新馬(1-7-1) 2. 新忍(8-7-2)付", "\n", 6, True),
    ],
)
def test_readme_pgn_output_round_trips_exactly(
    pgn: str, newline: str, width: int, with_comments: bool
) -> None:
    game = load_pgn(pgn, BEGINNER_POSITION, newline)
    assert GAME.to_fen(game.record.replay()) == (
        # README ".fen()" after the same three moves
        "2rimg3/1ra1n1as1/d1fwdwf1d/9/9/9/D1FW|D:N|WF1D/1S|A:S|3AR1/3GMI3 J2N2R1D1/j2n2s1d1 b 1 - 2"
    )
    comments = game.comments if with_comments else None
    assert dump_pgn(game.record, max_width=width, newline=newline, comments=comments) == pgn


def test_readme_fourfold_repetition_marks_the_last_move_a_draw() -> None:
    cycle = ["兵(7-1-1)(6-1-1)", "侍(3-4-1)(4-4-1)", "兵(6-1-1)(7-1-1)", "侍(4-4-1)(3-4-1)"]
    game = load_pgn(" ".join(cycle * 3), INTRO_POSITION)
    state = game.record.replay()
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "repetition"
    moves = split_pgn(dump_pgn(game.record))[0]
    assert moves[-1] == "侍(4-4-1)(3-4-1)=" and moves[:-1] == (cycle * 3)[:-1]


def test_readme_endings_and_where_the_rules_differ() -> None:
    # README ".isCheckmate()": Black is in check with no escape: we call it mate too.
    mated = GAME.from_fen(
        "3img3/1ra1|n:G|1as1/d1fwdwf2/9/8d/9/D1FWDWF1D/1SA1N1AR1/4MI3 J2N2S1R1D1/j2n2s1r1d1 b 1 - 3"
    )
    assert mated.outcome() is not None and mated.outcome().reason == "mate"  # type: ignore[union-attr]
    # README ".isStalemate()": not in check, every move into check. gungi.js: a draw; our
    # rules (docs/rules/gungi.md, "The end"): mate, the player to move loses.
    stale = GAME.from_fen("8m/9/7DD/7C1/9/9/9/9/M8 -/- b 3 - 1")
    outcome = stale.outcome()
    assert outcome is not None and outcome.reason == "mate" and outcome.winners == (WHITE,)


def test_export_marks_a_marshal_capture_and_refuses_play_after_gungijs_ends() -> None:
    # README ".isInsufficientMaterial()": gungi.js ends the game; we play on, so a record
    # that goes on cannot be written for gungi.js.
    bare = GAME.from_fen("m8/9/9/9/9/9/9/9/8M -/- w 3 - 1")
    assert not bare.is_terminal()
    step = bare.legal_actions()[0]
    after = bare.clone()
    after.apply(step)
    with pytest.raises(GungiJsError, match=r"move 2 .*gungi.js ended the game before it"):
        export_moves(bare, [step, after.legal_actions()[0]])
    assert export_moves(bare, [step])[0].text.endswith("=")


def test_export_refuses_what_gungijs_cannot_say() -> None:
    record, state = GameRecord.start(GAME, 0, None, mode="advanced", first_player="black")
    with pytest.raises(GungiJsError, match="White always does"):
        dump_pgn(record)
    record, state = GameRecord.start(GAME, 0, None, mode="intro", self_check="forbidden")
    with pytest.raises(GungiJsError, match="option self_check='forbidden'"):
        dump_pgn(record)
    # Black's Done after a White placement that followed Black's last placement: in gungi.js
    # Black's final placement (終) would have ended the setup before White's.
    record, state = GameRecord.start(GAME, 0, None, mode="advanced")
    for text in ["9-7-1 帥新", "5-1-1 帥新", "8-7-1 兵新", "済み"]:
        record.play(state, GAME.parse_action(state, text))
    with pytest.raises(GungiJsError, match=r"move 3 .*setup is over here"):
        dump_pgn(record)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("兵(7-1-1)", "a move on the board must"),
        ("7-6-1 兵(7-7)", "not gungi.js move text"),
        ("新兵(7-1-1)(6-1-1)", "names no origin"),
        ("兵(7-1-1)(5-1-1)", "refuse it: the piece cannot reach"),
        ("兵(7-1-2)(6-1-1)", "is 1 high, not 2"),
        ("新砲(7-1-2)付", "no Cannon in hand"),
    ],
)
def test_bad_or_unmapped_moves_are_refused_naming_the_move(text: str, message: str) -> None:
    state = GAME.from_fen(INTRO_POSITION)
    before = GAME.to_fen(state)
    with pytest.raises(GungiJsError, match=message):
        import_moves(state, [text])
    assert GAME.to_fen(state) == before


def test_import_names_the_move_number() -> None:
    with pytest.raises(GungiJsError, match=r"gungi.js move 2: '兵\(3-5-1\)\(2-5-1\)'"):
        load_pgn("1. 兵(7-1-1)(6-1-1) 兵(3-5-1)(2-5-1)", INTRO_POSITION)
    # README ".undo()": the Beginner position after one move is no mode's start.
    after_one = (
        "3img3/1ra1n1as1/d1fwdwf1d/9/9/8D/D1FWDWF2/1SA1N1AR1/3GMI3 J2N2S1R1D1/j2n2s1r1d1 b 1 - 1"
    )
    with pytest.raises(GungiJsError, match="is not beginner's"):
        load_pgn("", after_one)
    assert parse_gungijs_move("帥(7-9-1)(8-8-1)#").end == "#"


def _random_game(mode: str, seed: int, plies: int) -> GameRecord:
    """A random game whose setup gungi.js can write: Black declares Done only once White is
    done (gungi.js ends the setup with Black's final placement)."""
    rng = random.Random(seed)
    record, state = GameRecord.start(GAME, seed, None, mode=mode)
    while not state.is_terminal() and len(record.actions) < plies:
        legal = state.legal_actions()
        if state.to_move == BLACK and state.drafting[WHITE] and len(legal) > 1:
            legal = [m for m in legal if m != DONE]
        record.play(state, rng.choice(legal))
    return record


@pytest.mark.parametrize(("mode", "seed"), [("advanced", 1), ("advanced", 2), ("beginner", 3)])
def test_a_game_played_here_exports_and_reimports_the_same(mode: str, seed: int) -> None:
    record = _random_game(mode, seed, 160)
    pgn = dump_pgn(record)
    start = {"advanced": ADVANCED_POSITION, "beginner": BEGINNER_POSITION}[mode]
    again = load_pgn(pgn, start).record
    assert again.actions == record.actions
    assert GAME.to_fen(again.replay()) == GAME.to_fen(record.replay())
    assert dump_pgn(again) == pgn


def test_convert_command_both_ways(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    (folder / "game.pgn").write_text(README_PGN, encoding="utf-8")
    run = [sys.executable, "-m", "sengoku", "convert"]
    done = subprocess.run(
        [*run, str(folder / "game.pgn"), str(folder / "game.json")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    record = json.loads((folder / "game.json").read_text(encoding="utf-8"))
    assert record["game"] == "gungi" and record["options"]["mode"] == "advanced"
    back = subprocess.run(
        [*run, str(folder / "game.json"), "-", "--to", "gungijs"], capture_output=True, text=True
    )
    assert back.returncode == 0, back.stderr
    assert split_pgn(back.stdout)[0] == split_pgn(README_PGN)[0]
    bad = subprocess.run(
        [*run, "-", "-", "--from", "gungijs", "--to", "sengoku"],
        input="1. 兵(7-1-1)(5-1-1)",
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "gungi.js move 1" in bad.stderr, bad.stderr
