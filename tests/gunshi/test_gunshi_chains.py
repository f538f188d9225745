"""Chained Commands and invasion (rulebook: The Critical Play: Chained Commands; Winning)."""

from __future__ import annotations

from tests.gunshi.helpers import battle, fence_at, legal, play, resolve, unit_at


def test_three_chained_cavalry_invading_at_once_wins() -> None:
    # rulebook: "You can win the game by moving a line of 3 Cavalry using a Chained Move
    # Command straight into the Invasion Zone, and choosing to put them all on the Invader
    # Spot."
    s = battle(
        ["R C c6 n", "R C d6 n", "R C e6 n", "R I a1 n", "B I a5 s"],
        row=(("M",), ()),
        shogun=("A", None),
    )
    resolve(s)
    play(s, "unit d6", "dir n")
    assert legal(s) == {"chain c6", "chain e6", "done"}
    play(s, "chain c6", "chain e6")
    for _ in range(3):
        assert legal(s) == {"invade", "stay"}
        play(s, "invade")
    assert s.is_terminal() and s.outcome().reason == "invasion"
    assert s.invader_spot.invaders[0] == 3


def test_chain_is_optional_and_only_for_adjacent_units_of_the_same_type() -> None:
    # rulebook: "Only Units of the same type may carry out a Chained Command"; "A Unit
    # adjacent to an adjacent Unit cannot be given a Chained Command"; "You may choose which
    # of the adjacent Units carry out the Command".
    s = battle(
        ["R I c3 n", "R I d3 n", "R A e3 n", "R I b3 n", "R I a3 n", "B I a7 s"],
        row=(("M",), ()),
    )
    resolve(s)
    play(s, "unit c3", "dir n")
    assert legal(s) == {"chain d3", "chain b3", "done"}  # not the Archer, not a3
    play(s, "chain b3", "done")
    assert unit_at(s, "c4") and unit_at(s, "b4") and unit_at(s, "d3")


def test_chained_moves_share_the_direction_and_resolve_front_first() -> None:
    # spec: "all chosen units move in the same direction, resolved front-first".
    s = battle(["R I d3 n", "R I d4 n", "R I d2 n", "B I a7 s"], row=(("M",), ()))
    resolve(s)
    play(s, "unit d3")
    assert "dir n" in legal(s)  # the unit ahead is a chain member that can clear the way
    play(s, "dir n")
    assert legal(s) == {"chain d4", "chain d2"}  # done would leave d3 blocked
    play(s, "chain d4", "chain d2")
    assert [unit_at(s, c) is not None for c in ("d2", "d3", "d4", "d5")] == [
        False,
        True,
        True,
        True,
    ]


def test_shielded_and_unshielded_infantry_chain_together() -> None:
    s = battle(["R I c3 n", "R i d3 n", "B I a7 s"], row=(("M",), ()))
    resolve(s)
    play(s, "unit c3", "dir n")
    assert "chain d3" in legal(s)


def test_chained_cavalry_choose_their_own_distance() -> None:
    # rulebook summary: "You may choose the distance that you'll move forward-facing Cavalry."
    s = battle(["R C c2 n", "R C d2 n", "B I a7 s"], row=(("M",), ()))
    resolve(s)
    play(s, "unit c2", "dir n", "chain d2", "to c4", "to d6")
    assert unit_at(s, "c4") and unit_at(s, "d6")


def test_chained_reorient_faces_the_same_way() -> None:
    # rulebook summary: "Turn the Units using this Chained Command to face the same way."
    s = battle(["R A c2 n", "R A d2 w", "R A e2 e", "B I a7 s"], row=(("Re",), ()))
    resolve(s)
    play(s, "unit d2", "face s")
    assert legal(s) == {"chain c2", "chain e2", "done"}
    play(s, "chain c2", "chain e2")
    assert {unit_at(s, c)["facing"] for c in ("c2", "d2", "e2")} == {"s"}


def test_chained_shoot_each_archer_its_own_target() -> None:
    # rulebook: "Each Archer shooting can have a different target for its attack."
    s = battle(
        ["R A c4 n", "R A d4 n", "B i c5 s", "B i d6 s", "B I a7 s"],
        row=(("Re",), ()),
        shogun=(None, "C"),
    )
    resolve(s)
    play(s, "mode shoot", "unit c4", "hit c5", "chain d4", "hit d6")
    assert unit_at(s, "c5") is None and unit_at(s, "d6") is None


def test_chained_build_fence_costs_one_point_each() -> None:
    # rulebook: "You can chain Build Fence Commands at 1 Point per Fence."
    s = battle(["R I c3 n", "R I d3 n", "B I a7 s"], row=(("F",), ()), points=(5, 18))
    resolve(s)
    play(s, "unit c3", "fence c3n", "chain d3", "fence d3n")
    assert fence_at(s, "c3n") == 0 and fence_at(s, "d3n") == 0
    assert s.logistics.points[0] == 3 and s.fences.fences_left[0] == 2


def test_invading_is_optional_and_the_shogun_cannot_invade() -> None:
    # rulebook: "having it invade ... is optional"; "The Shogun cannot move onto the Invader
    # Spot, even if it enters the Invasion Zone."
    s = battle(["R I d6 n", "R I c6 n", "B I a5 s"], row=(("M",), ()), shogun=("A", None))
    resolve(s)
    play(s, "unit d6", "dir n", "done")
    assert legal(s) == {"stay"}  # d6 holds the Shogun (A)
    play(s, "stay")
    assert unit_at(s, "d7") is not None
    s = battle(["R I d6 n", "R I a1 n", "B I a5 s"], row=(("M",), ()), shogun=("B", None))
    resolve(s)
    play(s, "unit d6", "dir n")
    assert legal(s) == {"invade", "stay"}


def test_shielded_infantry_counts_two_on_the_invader_spot() -> None:
    # rulebook: "the Shield token also counts as a Unit—together they count as 2 Units".
    s = battle(["R I d6 n", "R I a1 n", "B I a5 s"], row=(("M",), ()), shogun=("B", None))
    s.invader_spot.invaders[0] = 1
    resolve(s)
    play(s, "unit d6", "dir n", "invade")
    assert s.invader_spot.invaders[0] == 3 and s.outcome().reason == "invasion"
