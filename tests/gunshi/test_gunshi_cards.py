"""Advanced Command cards: six Rikutoh and three Sanryaku (rulebook: Advanced Card Effects
and Clarifications)."""

from __future__ import annotations

from sengoku.games.gunshi.data import LETTERS
from tests.gunshi.helpers import battle, fence_at, legal, play, resolve, unit_at


def test_rapid_move_move_then_reorient_costs_two() -> None:
    # rulebook: Rapid-Move: "carry out both a Move and a Reorient Command in any order".
    s = battle(["R I d2 n", "B I a7 s"], row=(("Rapid",), ()))
    resolve(s)
    play(s, "unit d2")
    assert s.logistics.points[0] == 16
    assert {"dir n", "face e", "face s", "face w"} <= legal(s)
    play(s, "dir n")
    assert legal(s) == {"face e", "face s", "face w"}
    play(s, "face w")
    assert unit_at(s, "d3")["facing"] == "w" and s.orders.cmd is None


def test_rapid_move_reorient_first_opens_a_cavalry_charge() -> None:
    s = battle(["R C d2 s", "B I a7 s"], ["B d2e", "B c2e"], row=(("Rapid",), ()))
    resolve(s)
    play(s, "unit d2")
    assert "face n" in legal(s)
    play(s, "face n", "dir n", "to d6")
    assert unit_at(s, "d6")["facing"] == "n"


def test_rapid_move_may_invade_and_needs_two_points() -> None:
    # rulebook: "You may choose to invade when moving with this card's effect."
    s = battle(["R I d6 n", "R I a1 n", "B I a5 s"], row=(("Rapid",), ()), shogun=("B", None))
    resolve(s)
    play(s, "unit d6", "dir n")
    assert legal(s) == {"invade", "stay"}
    play(s, "invade")
    assert s.invader_spot.invaders[0] == 2 and s.orders.cmd is None
    s = battle(["R I d2 n", "B I a7 s"], row=(("Rapid",), ()), points=(1, 18))
    resolve(s)
    assert s.orders.cmd is None and s.logistics.points[0] == 1


def test_logistical_review_gains_two() -> None:
    s = battle(["R I a1 n", "B I a7 s"], row=(("Review",), ()), points=(3, 18))
    resolve(s)
    assert s.logistics.points[0] == 5


def test_crossbow_range_and_fence_rule() -> None:
    # rulebook: "the Crossbow can target 1 space either side or any of the 3 to the front.
    # The diagonally forward spaces are no longer within range." and it "may still target
    # enemy Units even if there is a Fence in the line of sight, so long as the Fence isn't
    # directly adjacent to the target Unit's space".
    units = ["R A d2 n", "B i d3 s", "B i d4 s", "B i d5 s", "B i c3 s", "B i c2 s"]
    s = battle([*units, "B i e2 s", "B I a7 s"], row=(("Crossbow",), ()), shogun=(None, "G"))
    resolve(s)
    assert legal(s) == {"mode reorient", "mode crossbow"}
    play(s, "mode crossbow", "unit d2")
    assert legal(s) == {"hit d3", "hit d4", "hit d5", "hit c2", "hit e2"}
    s = battle(
        ["R A d2 n", "B i d4 s", "B i d5 s", "B I a7 s"],
        ["B d2n", "B d4n"],
        row=(("Crossbow",), ()),
        shogun=(None, "C"),
    )
    resolve(s)
    play(s, "mode crossbow", "unit d2")
    assert legal(s) == {"hit d4"}  # d2n is not next to d4; d4n guards d5


def test_reinforce_en_route_placement_and_costs() -> None:
    # rulebook: Reinforce en Route: next to one of your Infantry or Archers (not Cavalry),
    # outside your Home Territory, Infantry 4 / Archer 5 / Cavalry 6; "If your opponent has
    # Fences on the space you place a new Unit, remove those Fences."
    s = battle(["R I d3 n", "R C d4 n", "B I a7 s"], row=(("EnRoute",), ()))
    resolve(s)
    assert s.orders.cmd is None  # d3's free neighbours are all Home Territory; d4 is Cavalry
    s = battle(["R I d4 n", "R C d5 n", "B I a7 s"], ["B e4n", "B e4w"], row=(("EnRoute",), ()))
    resolve(s)
    assert legal(s) == {"unit d4"}
    play(s, "unit d4")
    assert legal(s) == {"place I", "place A", "place C"}
    play(s, "place C")
    assert legal(s) == {"at c4", "at e4"}  # not d3: Home Territory
    play(s, "at e4", "face n")
    assert s.logistics.points[0] == 12 and unit_at(s, "e4") is not None
    assert fence_at(s, "e4n") == -1 and fence_at(s, "d4e") == -1


def test_reinforce_en_route_with_three_points_does_nothing() -> None:
    # rulebook: "If you only have 3 Military Logistics Points available, you cannot afford
    # to place a new Unit so you cannot resolve this Command."
    s = battle(["R I d4 n", "B I a7 s"], row=(("EnRoute",), ()), points=(3, 18))
    resolve(s)
    assert s.orders.cmd is None and s.logistics.points[0] == 3


def test_reinforce_en_route_into_the_invasion_zone_without_invading() -> None:
    s = battle(["R A d6 n", "B I a5 s"], ["B d7e"], row=(("EnRoute",), ()))
    resolve(s)
    play(s, "unit d6", "place I")
    assert "at d7" in legal(s)
    play(s, "at d7", "face n")
    assert s.invader_spot.invaders[0] == 0 and s.orders.cmd is None
    assert fence_at(s, "d7e") == -1  # enemy Fence on the new unit's space removed


def test_light_infantry_drops_shield_and_moves_two_forward_past_units() -> None:
    # rulebook: Light Infantry "must remove the token prior to moving"; "move up to 2
    # spaces forward"; "may pass through other Infantry, Archers, and Cavalry".
    s = battle(["R I d2 n", "R A d3 n", "B I a7 s"], row=(("Light",), ()))
    resolve(s)
    play(s, "unit d2", "dir n")
    assert unit_at(s, "d4") == {"letter": "A", "owner": 0, "facing": "n", "shield": False}


def test_light_infantry_stops_in_front_of_enemy_fence_and_may_invade() -> None:
    s = battle(["R I d4 n", "B I a7 s"], ["B d5n"], row=(("Light",), ()))
    resolve(s)
    play(s, "unit d4", "dir n")
    assert unit_at(s, "d5") is not None
    s = battle(["R I d5 n", "R I a1 n", "B I a5 s"], row=(("Light",), ()), shogun=("B", None))
    resolve(s)
    play(s, "unit d5", "dir n", "to d7")
    assert legal(s) == {"invade", "stay"}
    play(s, "invade")
    assert s.invader_spot.invaders[0] == 1  # the Shield came off before moving


def test_scout_commands_reveals_to_the_scout_only() -> None:
    # rulebook: Scout Commands: "Look at 1 Command card in your opponent's Command Row."
    s = battle(["R I a1 n", "B I a7 s"], row=(("Scout",), ("M", "Re")), points=(4, 18))
    s.cards.row[1] = [("M", False, False), ("Re", True, True)]
    events = resolve(s)
    assert legal(s) == {"look 1", "look 2"}  # 4 points: Scout the Shogun is unaffordable
    events = play(s, "look 1")
    private = [e for e in events if e["type"] == "scout"]
    assert private[0]["audience"] == [0] and private[0]["card"] == "M"
    assert s.view(0)["players"][1]["row"][0]["card"] == "M"
    assert s.view(None)["players"][1]["row"][0]["card"] is None  # spectators did not scout
    assert s.logistics.points[0] == 2


def test_scout_the_shogun_yes_reveals_no_rules_out() -> None:
    # rulebook: "If your opponent answers "Yes," ... turn over their Shogun Marker".
    s = battle(
        ["R I a1 n", "B I a7 s", "B A b7 s"],
        row=(("Scout",), ()),
        shogun=(None, "Q"),
        points=(5, 18),
    )
    resolve(s)  # no cards in Blue's row: only Scout the Shogun is possible
    play(s, "ask a7")
    assert [LETTERS[u] for u in s.shoguns.candidates[1]] == ["Q"]  # only the Archer on b7 remains
    assert s.view(0)["players"][1]["shogun"] is None and s.logistics.points[0] == 0
    s = battle(
        ["R I a1 n", "B I a7 s", "B A b7 s"],
        row=(("Scout",), ()),
        shogun=(None, "Q"),
        points=(5, 18),
    )
    resolve(s)
    play(s, "ask b7")
    assert s.view(0)["players"][1]["shogun"] == "Q"


def test_scout_commands_must_resolve_even_if_all_face_up() -> None:
    s = battle(["R I a1 n", "B I a7 s"], row=(("Scout",), ("M",)), points=(2, 18))
    resolve(s)
    assert legal(s) == {"look 1"}


def test_rapid_fire_two_shots_same_target_allowed() -> None:
    # rulebook: "You may choose the same enemy Unit for both of the Shoot Commands."
    s = battle(["R A d4 n", "B I d5 s", "B I a7 s"], row=(("Fire",), ()), shogun=(None, "B"))
    resolve(s)
    play(s, "unit d4", "hit d5")
    assert legal(s) == {"hit d5"}
    play(s, "hit d5")
    assert unit_at(s, "d5") is None


def test_strategic_switch_swaps_without_turning() -> None:
    s = battle(["R I d2 n", "R C e2 w", "B I a7 s"], row=(("Switch",), ()))
    resolve(s)
    play(s, "unit d2", "swap e2")
    assert unit_at(s, "e2")["letter"] == "A" and unit_at(s, "e2")["facing"] == "n"
    assert unit_at(s, "d2")["facing"] == "w" and s.logistics.points[0] == 16


def test_strategic_switch_without_a_pair_does_nothing_and_costs_nothing() -> None:
    s = battle(["R I d2 n", "R C f2 w", "B I a7 s"], row=(("Switch",), ()))
    resolve(s)
    assert s.orders.cmd is None and s.logistics.points[0] == 18


def test_chain_trap_drags_adjacent_units_of_any_type() -> None:
    # rulebook: Chain Trap: "if your opponent moves a Unit exactly 1 space via a Command
    # card, they must also move all of their orthogonally adjacent Units (regardless of
    # type) one space in the same direction. Then, return this card to the bottom of your
    # deck." "If your own pieces are blocking the movement of any of the enemy Units, those
    # Units are not moved."
    s = battle(
        ["R I a1 n", "R I c4 n", "B I d5 s", "B C c5 n", "B A e5 w", "B I d6 s"],
        row=(("Trap",), ("M",)),
        shogun=(None, "C"),
    )
    resolve(s)
    assert s.cards.beside[0] is not None and s.logistics.points[0] == 16
    play(s, "send M", "end")  # Blue's turn starts: Units Follow Orders (Move)
    play(s, "unit d5", "dir s", "done")
    assert unit_at(s, "d4")["letter"] == "C"
    assert unit_at(s, "e4")["facing"] == "s"  # the Archer was dragged along and turned
    assert unit_at(s, "d5") is not None  # the Infantry behind followed
    assert unit_at(s, "c5") is not None  # the Cavalry is blocked by Red's Infantry on c4
    assert s.cards.beside[0] is None and s.cards.deck[0][-1][0] == "Trap"


def test_chain_trap_beside_the_board_reduces_the_draw() -> None:
    # rulebook: "if you've placed 4 cards in your Command Row ... you will temporarily only
    # be able to draw 2 cards".
    s = battle(["R I a1 n", "B I a7 s"], row=(("M", "M", "Re"), ()))
    s.cards.beside[0] = ("Trap", True, False)
    s.cards.hand[0] = [("F", False, False)]
    s.cards.deck[0] = [("Rf", False, False), ("Re", False, False)]
    play(s, "send F", "end")
    assert len(s.cards.hand[0]) == 2 and s.cards.deck[0] == []


def test_chain_trap_not_triggered_by_two_space_moves() -> None:
    s = battle(["R I a1 n", "B C d7 s", "B I c7 s", "B I a5 s"], to_act=1, row=((), ("M",)))
    s.cards.beside[0] = ("Trap", True, False)
    resolve(s)
    play(s, "unit d7", "dir s", "to d5")
    assert s.cards.beside[0] is not None and unit_at(s, "c7") is not None


def test_light_infantry_chain_all_movers_drop_their_shields() -> None:
    # rulebook: "You may use a Chained Command to have Infantry with or without Shields move,
    # but all the Infantry Units you choose to move must have their Shield token removed".
    s = battle(["R I c3 n", "R I d3 n", "R I e3 n", "B I a7 s"], row=(("Light",), ()))
    resolve(s)
    play(s, "unit d3", "dir n", "chain c3", "done", "to d5", "to c4")
    assert unit_at(s, "d5")["shield"] is False and unit_at(s, "c4")["shield"] is False
    assert unit_at(s, "e3")["shield"] is True  # did not move, keeps its Shield
