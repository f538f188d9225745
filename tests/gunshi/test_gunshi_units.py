"""Units, movement, attacks, Shields, Fences (rulebook: Commands; Important Unit Rules)."""

from __future__ import annotations

from tests.gunshi.helpers import battle, fence_at, legal, play, resolve, unit_at


def test_infantry_moves_one_step_any_direction_and_turns_to_travel() -> None:
    # rulebook: "Infantry and Archers may move 1 space forward, backward, left, or right,
    # regardless of the direction they face" and "you must turn it to face the direction".
    s = battle(["R I d4 n", "B I a7 s"], row=(("M",), ()))
    resolve(s)
    assert legal(s) == {"unit d4"}
    play(s, "unit d4")
    assert legal(s) == {"dir n", "dir e", "dir s", "dir w"}
    play(s, "dir s")
    assert unit_at(s, "d3") == {"letter": "A", "owner": 0, "facing": "s", "shield": True}
    assert s.step == "send"  # the card is resolved
    assert s.cards.deck[0][-1][0] == "M"  # and went to the bottom of the deck


def test_cavalry_forward_any_distance_sideways_one_never_back() -> None:
    # rulebook: Cavalry "may move forward as many spaces as are open ... or 1 space to the
    # left or right ... They may not move backwards".
    s = battle(["R C d2 n", "B I a7 s"], row=(("M",), ()))
    resolve(s)
    play(s, "unit d2")
    assert legal(s) == {"dir n", "dir e", "dir w"}
    play(s, "dir n")
    assert legal(s) == {"to d3", "to d4", "to d5", "to d6", "to d7"}
    play(s, "to d5")
    assert unit_at(s, "d5")["facing"] == "n"


def test_cavalry_jumps_one_own_infantry_or_archer_only() -> None:
    # rulebook: "Cavalry may jump over 1 of your own Infantry or Archer Units"; they "cannot
    # jump your opponent's Units or Fences. Nor can they jump 2 or more of your own Units, or
    # another Cavalry Unit."
    s = battle(["R C d1 n", "R I d2 n", "R A d4 n", "B I a7 s"], row=(("M",), ()))
    resolve(s)
    play(s, "unit d1", "dir n")  # d3 is the only destination: no further decision
    assert unit_at(s, "d3")["letter"] == "K"  # jumped d2, stopped before the second own unit
    s = battle(["R C d1 n", "R I d2 n", "R C d3 n", "B I a7 s"], row=(("M",), ()))
    resolve(s)
    play(s, "unit d1")
    assert "dir n" not in legal(s)  # another Cavalry cannot be jumped
    s = battle(["R C d1 n", "B A d2 s", "B I a7 s"], row=(("M",), ()))
    resolve(s)
    play(s, "unit d1", "dir n")
    assert unit_at(s, "d2")["owner"] == 0  # attacks the enemy; cannot jump it


def test_enemy_fence_halts_cavalry_own_fence_does_not() -> None:
    # rulebook: Cavalry "must come to a stop in front of an opponent's Fence"; "Your own
    # Fences do not limit your Units' movements".
    s = battle(["R C d1 n", "B I a7 s"], ["B d3n", "R d1n"], row=(("M",), ()))
    resolve(s)
    play(s, "unit d1", "dir n")
    assert legal(s) == {"to d2", "to d3"}


def test_shield_only_hit_leaves_attacker_in_place() -> None:
    # rulebook: "If only the Shield token is removed, the attacking Unit does not move onto
    # the space still occupied by the defending Infantry."
    s = battle(["R A d4 n", "B I d5 s", "B I a7 s"], row=(("M",), ()), shogun=(None, "B"))
    resolve(s)
    play(s, "unit d4", "dir n")
    assert unit_at(s, "d4")["owner"] == 0
    assert unit_at(s, "d5") == {"letter": "A", "owner": 1, "facing": "s", "shield": False}
    # A second attack removes the Infantry, and the attacker moves in.
    s.player = 0
    s.cards.row[0] = [("M", True, True)]
    resolve(s)
    play(s, "unit d4", "dir n")
    assert unit_at(s, "d5")["owner"] == 0
    assert unit_at(s, "d4") is None


def test_cavalry_removes_shielded_infantry_in_one_attack() -> None:
    # rulebook: "If your Cavalry moves onto an opponent's Infantry, remove both the Shield
    # token and the Infantry Unit at the same time."
    s = battle(["R C d2 n", "B I d5 s", "B I a7 s"], row=(("M",), ()), shogun=(None, "B"))
    resolve(s)
    play(s, "unit d2", "dir n", "to d5")
    assert unit_at(s, "d5")["owner"] == 0
    assert s.field.uloc[0] == -1  # Infantry A is back in the Reserve


def test_moving_next_to_enemy_fences_destroys_them_and_returns_them() -> None:
    # rulebook: "When you move a Unit onto a space with enemy Fences adjacent, remove those
    # Fences. Destroyed Fences return to their owner".
    s = battle(["R I d4 n", "B I a7 s"], ["B d5n", "B d5e", "R c5e"], row=(("M",), ()))
    s.fences.fences_left = [3, 2]
    resolve(s)
    play(s, "unit d4", "dir n")
    assert fence_at(s, "d5n") == -1 and fence_at(s, "d5e") == -1
    assert fence_at(s, "c5e") == 0  # own fences stay
    assert s.fences.fences_left == [3, 4]


def test_enemy_fence_blocks_a_step_own_fence_does_not() -> None:
    s = battle(["R I d4 n", "B I a7 s"], ["B d4n", "R d4e"], row=(("M",), ()))
    resolve(s)
    play(s, "unit d4")
    assert "dir n" not in legal(s) and "dir e" in legal(s)


def test_archer_shooting_range() -> None:
    # rulebook: Archers "may target either of the 2 spaces directly in front of themselves,
    # diagonally forward to the left or right, or the spaces on either side."
    targets = ["B i d5 s", "B i d6 s", "B i c5 s", "B i e5 s", "B i c4 s", "B i e4 s"]
    others = ["B i d3 s", "B i c3 s", "B i d7 s", "B i a7 s"]
    s = battle(["R A d4 n", *targets, *others], row=(("Re",), ()), shogun=(None, "B"))
    resolve(s)
    assert legal(s) == {"mode reorient", "mode shoot"}
    play(s, "mode shoot", "unit d4")
    assert legal(s) == {"hit d5", "hit d6", "hit c5", "hit e5", "hit c4", "hit e4"}
    play(s, "hit d6")
    assert unit_at(s, "d6") is None and unit_at(s, "d4")["owner"] == 0


def test_archer_facing_enemy_fence_head_on_cannot_shoot_through() -> None:
    # rulebook: "Archers cannot shoot enemy Units that are behind an opponent's Fence.
    # However, this only applies if the Archer faces the Fence head on."
    s = battle(
        ["R A d4 n", "B i d5 s", "B i d6 s", "B i c4 s", "B I a7 s"],
        ["B d4n", "B c4e"],
        row=(("Re",), ()),
        shogun=(None, "D"),
    )
    resolve(s)
    play(s, "mode shoot", "unit d4")
    assert legal(s) == {"hit c4"}  # the side shot is not head-on
    s = battle(
        ["R A d4 n", "B i d6 s", "B I a7 s"], ["B d5n"], row=(("Re",), ()), shogun=(None, "B")
    )
    resolve(s)
    assert legal(s) == {"unit d4", "unit a7"} or "mode shoot" not in legal(s)


def test_shot_at_shielded_infantry_removes_only_the_shield() -> None:
    s = battle(["R A d4 n", "B I d5 s", "B I a7 s"], row=(("Re",), ()), shogun=(None, "B"))
    resolve(s)
    play(s, "mode shoot", "unit d4", "hit d5")
    assert unit_at(s, "d5")["shield"] is False


def test_reorient_turns_90_or_180_never_stays() -> None:
    s = battle(["R C d4 n", "B I a7 s"], row=(("Re",), ()))
    resolve(s)
    assert legal(s) == {"unit d4"}  # no Archer can shoot: Reorient is the only choice
    play(s, "unit d4")
    assert legal(s) == {"face e", "face s", "face w"}
    play(s, "face s")
    assert unit_at(s, "d4")["facing"] == "s"


def test_build_fence_range_cost_and_enemy_adjacency() -> None:
    # rulebook: Fences go "on the lines directly in front, diagonally left or right, or
    # directly left or right of the Infantry Unit placing it. You cannot place a Fence on a
    # line adjacent to an opponent's Unit." Spec: diagonal = front edges of the neighbours.
    s = battle(["R I d4 n", "B I e5 s", "B I a7 s"], row=(("F",), ()))
    resolve(s)
    play(s, "unit d4")
    # e4n lies next to the enemy on e5; d4e (between d4 and e4) does not.
    assert legal(s) == {"fence d4n", "fence c4e", "fence d4e", "fence c4n"}
    play(s, "fence c4n")
    assert fence_at(s, "c4n") == 0
    assert s.logistics.points[0] == 17 and s.fences.fences_left[0] == 3


def test_build_fence_front_cell_sides_option() -> None:
    s = battle(["R I d4 n", "B I a7 s"], row=(("F",), ()), fence_diagonal="front_cell_sides")
    resolve(s)
    play(s, "unit d4")
    assert legal(s) == {"fence d4n", "fence c4e", "fence d4e", "fence c5e", "fence d5e"}


def test_build_fence_without_fences_or_points_does_nothing() -> None:
    # rulebook: "If you do not have the available Fences, Points, and Infantry, nothing
    # happens."
    s = battle(["R I d4 n", "B I a7 s"], row=(("F",), ()), fences_left=(0, 4))
    events = resolve(s)
    assert any(e["type"] == "no_effect" for e in events)
    assert s.logistics.points[0] == 18 and s.step == "send"
    s = battle(["R I d4 n", "B I a7 s"], row=(("F",), ()), points=(0, 18))
    resolve(s)
    assert s.step == "send" and s.orders.cmd is None


def test_reinforce_costs_home_territory_and_fence_removal() -> None:
    # rulebook: Reinforce: Infantry 2, Archers 3, Cavalry 4; "any open space within your
    # Home Territory, facing any direction"; enemy Fences next to it are removed.
    s = battle(["R I a1 n", "B I a7 s"], ["B d3n"], row=(("Rf",), ()), points=(3, 18))
    resolve(s)
    assert legal(s) == {"place I", "place A"}
    play(s, "place A")
    assert "at d3" in legal(s) and "at d4" not in legal(s) and "at a1" not in legal(s)
    play(s, "at d3", "face e")
    assert unit_at(s, "d3")["facing"] == "e"
    assert s.logistics.points[0] == 0
    assert fence_at(s, "d3n") == -1


def test_reinforce_with_fewer_than_two_points_does_nothing() -> None:
    # rulebook: "If you have less than 2 Military Logistics points, do not resolve this
    # Command."
    s = battle(["R I a1 n", "B I a7 s"], row=(("Rf",), ()), points=(1, 18))
    resolve(s)
    assert s.orders.cmd is None and s.logistics.points[0] == 1 and s.step == "send"


def test_reserve_limits_are_shared() -> None:
    # rulebook: "there will only ever be 6 Cavalry Units available between both players."
    cav = [f"R C {c}1 n" for c in "abc"] + [f"B C {c}7 s" for c in "abc"]
    s = battle([*cav, "R I d1 n", "B I d7 s"], row=(("Rf",), ()), points=(10, 18))
    resolve(s)
    assert legal(s) == {"place I", "place A"}


def test_shogun_capture_wins() -> None:
    # rulebook: "A player removes their opponent's Shogun Unit from the board."
    s = battle(["R C d2 n", "B A d6 s", "B I a7 s"], row=(("M",), ()), shogun=(None, "Q"))
    resolve(s)
    play(s, "unit d2", "dir n", "to d6")
    assert s.is_terminal()
    assert s.outcome().reason == "shogun_captured" and s.outcome().winners == (0,)
    assert s.legal_actions() == []
