"""Piece movement: reach by tier, sliding, jumping, the height rule, capture and stacking.

Each case is one the rulebook draws in a diagram and describes in words.
"""

from __future__ import annotations

import pytest

from sengoku.games.gungi import Gungi

from .conftest import fen_of, moves_from, study, targets

# spec: "reach at tier t = base + t - 1"; counts from the centre of an empty board.
REACH = {
    "m": (8, 16, 24),
    "g": (20, 24, 28),
    "i": (20, 24, 28),
    "n": (5, 9, 13),
    "r": (6, 10, 14),
    "c": (4, 8, 11),
    "s": (8, 12, 16),
    "w": (4, 8, 12),
    "j": (6, 12, 18),
    "f": (5, 10, 15),
    "d": (2, 4, 6),
    "t": (3, 6, 9),
    "k": (3, 6, 9),
}


@pytest.mark.parametrize("letter", sorted(REACH))
@pytest.mark.parametrize("tier", [1, 2, 3])
def test_reach_on_empty_board(gungi: Gungi, letter: str, tier: int) -> None:
    # Under the piece: Pawns of its own side, so only the top piece moves.
    tower = "D" * (tier - 1) + letter.upper()
    state = study(gungi, fen_of({"5-5": tower}))
    assert len(moves_from(state, "5-5")) == REACH[letter][tier - 1]


def test_general_unlimited_lines_do_not_grow_with_tier(gungi: Gungi) -> None:
    # rulebook: the unlimited directions of 大 and 中 do not change with the height.
    state = study(gungi, fen_of({"9-9": "DDG"}))
    dests = targets(state, "9-9")
    assert "9-1-1" in dests and "1-9-1" in dests  # the whole file and rank
    assert "8-8-1" in dests and "7-7-1" in dests and "6-6-1" in dests  # diagonal 1+2
    assert "5-5-1" not in dests


def test_height_rule_pawn_cannot_touch_taller_tower(gungi: Gungi) -> None:
    # rulebook: a 1-tier pawn can neither capture nor stack a 2-tier pawn.
    state = study(gungi, fen_of({"5-5": "D", "5-4": "dd"}))
    assert targets(state, "5-5") == {"5-6-1"}


def test_tall_spear_may_capture_or_stack_pawn(gungi: Gungi) -> None:
    # rulebook diagram: a spear of height 2 or more can capture or stack on the pawn.
    state = study(gungi, fen_of({"5-5": "DN", "5-3": "d"}))
    onto = [m for m in moves_from(state, "5-5") if m.official().startswith("5-3-")]
    assert sorted((m.capture, m.tier) for m in onto) == [(False, 2), (True, 1)]


def test_capture_and_stack_are_distinct_moves(gungi: Gungi) -> None:
    state = study(gungi, fen_of({"5-5": "W", "5-4": "d"}))
    onto = [m for m in moves_from(state, "5-5") if m.official().startswith("5-4-")]
    assert {(m.capture, m.tier) for m in onto} == {(True, 1), (False, 2)}


def test_slides_stop_at_the_first_occupied_square(gungi: Gungi) -> None:
    # rulebook diagram: a 3-tier spy reaches the pawn diagonally up-right, but a pawn in
    # its path to the left blocks the pawn behind it.
    state = study(gungi, fen_of({"5-5": "DDS", "4-4": "d", "6-4": "d", "7-3": "d"}))
    dests = targets(state, "5-5")
    assert "4-4-1" in dests and "4-4-2" in dests  # capture or stack
    assert not any(d.startswith("7-3") for d in dests)
    assert not any(d.startswith(("3-3", "2-2")) for d in dests)  # the pawn stops the ray
    assert {"6-4-1", "6-4-2"} <= dests


def test_three_tier_capture_removes_every_enemy_piece(gungi: Gungi) -> None:
    # rulebook: capturing an opponent's 3-high tower (black, white, black) with a 3-high
    # spy removes the two black pieces; the spy lands on the remaining white piece.
    state = study(gungi, fen_of({"5-5": "DDS", "4-4": "dDd"}))
    capture = next(
        m for m in moves_from(state, "5-5") if m.capture and m.official().startswith("4-4")
    )
    assert capture.tier == 2
    events = state.apply(capture)
    removed = [e for e in events if e["type"] == "piece_removed"]
    assert len(removed) == 2 and all(e["seat"] == 1 for e in removed)
    assert state.board[3 * 9 + 5] == (9 * 2 + 0, 7 * 2 + 0)  # white pawn, white spy on top


def test_nothing_stacks_on_a_marshal(gungi: Gungi) -> None:
    state = study(gungi, fen_of({"5-5": "W", "5-4": "m"}))
    onto = [m for m in moves_from(state, "5-5") if m.official().startswith("5-4")]
    assert [(m.capture, m.tier) for m in onto] == [(True, 1)]


def test_marshal_may_not_stack_in_intro(gungi: Gungi) -> None:
    intro = study(gungi, fen_of({"5-5": "M", "5-4": "D"}, mode=0))
    assert "5-4-2" not in targets(intro, "5-5")
    advanced = study(gungi, fen_of({"5-5": "M", "5-4": "D"}, mode=3))
    assert "5-4-2" in targets(advanced, "5-5")


def test_stack_limit(gungi: Gungi) -> None:
    intermediate = study(gungi, fen_of({"5-5": "DW", "5-4": "dd"}, mode=2))
    assert [
        m.capture for m in moves_from(intermediate, "5-5") if m.official().startswith("5-4")
    ] == [True]
    advanced = study(gungi, fen_of({"5-5": "DW", "5-4": "dd"}, mode=3))
    onto = {m.tier for m in moves_from(advanced, "5-5") if m.official().startswith("5-4")}
    assert onto == {1, 3}


def test_only_the_top_piece_moves(gungi: Gungi) -> None:
    state = study(gungi, fen_of({"5-5": "GD"}))
    assert {m.kind for m in moves_from(state, "5-5")} == {9}  # the pawn on top


class TestJumpers:
    def test_musketeer_jumps_a_piece_of_equal_height(self, gungi: Gungi) -> None:
        # rulebook: a knight in front of the musketeer, same height: it can jump over.
        state = study(gungi, fen_of({"5-5": "K", "5-4": "R"}))
        assert "5-3-1" in targets(state, "5-5")

    def test_archer_cannot_jump_a_taller_stack(self, gungi: Gungi) -> None:
        # rulebook: a stack of 2 in front of a height-1 archer: it cannot jump over.
        state = study(gungi, fen_of({"5-5": "A", "5-4": "DD"}))
        assert not any(t.startswith("5-3") for t in targets(state, "5-5"))

    def test_cannon_of_height_three_jumps_tall_stacks(self, gungi: Gungi) -> None:
        # rulebook: stacks of 2 (侍) and 3 (小) in front of a 3-high cannon: it jumps them,
        # and may capture the 3-high piece since it is no taller.
        state = study(gungi, fen_of({"5-7": "DDC", "5-6": "ww", "5-5": "ddd"}))
        dests = targets(state, "5-7")
        assert {"5-4-1", "5-3-1", "5-2-1"} <= dests  # lands 3..5 ahead
        assert "5-5-1" not in dests  # 2 ahead is not a cannon landing
        state2 = study(gungi, fen_of({"5-7": "DDC", "5-6": "ww", "5-4": "ddd"}))
        assert "5-4-1" in targets(state2, "5-7")  # capture of the 3-high tower

    def test_taller_tower_blocks_jump_and_beyond(self, gungi: Gungi) -> None:
        state = study(gungi, fen_of({"5-7": "C", "5-5": "DD"}))
        assert not any(t.startswith(("5-4", "5-3")) for t in targets(state, "5-7"))

    def test_cannon_reach_by_tier(self, gungi: Gungi) -> None:
        # rulebook: at level 1 it lands 3 ahead, level 2 up to 4, level 3 up to 5.
        for tier, far in ((1, "5-4"), (2, "5-3"), (3, "5-2")):
            state = study(gungi, fen_of({"5-7": "D" * (tier - 1) + "C"}))
            forward = {t for t in targets(state, "5-7") if t[0] == "5" and int(t[2]) < 7}
            assert forward == {f"5-{r}-1" for r in range(4, 7 - 2) if r >= int(far[2])} | {
                f"5-{r}-1" for r in range(int(far[2]), 5)
            }

    def test_archer_diagonal_blocked_by_wing(self, gungi: Gungi) -> None:
        # rulebook diagram: a 2-high archer jumps the knight in front and reaches the pawn
        # up-right, but not the pawn up-left: a 3-high tower stands in that path.
        state = study(
            gungi, fen_of({"5-7": "DA", "5-6": "R", "4-5": "d", "6-5": "d", "6-6": "DDD"})
        )
        dests = targets(state, "5-7")
        assert {"4-5-1", "4-5-2"} <= dests
        assert not any(t.startswith("6-5") for t in dests)

    def test_archer_blockers_option(self, gungi: Gungi) -> None:
        towers = {"5-7": "A", "5-6": "DD", "4-5": "d"}
        front_wing = study(gungi, fen_of(towers))
        assert not any(t.startswith("4-5") for t in targets(front_wing, "5-7"))
        wing_only = study(gungi, fen_of(towers), archer_blockers="wing")
        assert "4-5-1" in targets(wing_only, "5-7")
