"""Each decided reading's option, and the rulebook's tips and remaining worked statements."""

from __future__ import annotations

from tests.gunshi.helpers import GAME, battle, fence_at, legal, play, resolve, unit_at


def test_move_twice_with_lightning_breaks_a_fence_and_strikes_behind_it() -> None:
    # rulebook, Game Tips 4: "Move twice with Cavalry to remove a Unit behind a Fence";
    # "If you move your Cavalry twice, no Fence can stop them!"
    s = battle(
        ["R C d2 n", "B A d5 s", "B I a7 s"], ["B d4n"], row=(("M",), ()), shogun=(None, "A")
    )
    s.cards.lightning[0] = ("M", True, True)
    resolve(s)
    play(s, "unit d2", "dir n")
    assert legal(s) == {"to d3", "to d4"}
    play(s, "to d4")
    assert fence_at(s, "d4n") == -1  # destroyed on arrival next to it
    play(s, "unit d4", "dir n")
    assert unit_at(s, "d5")["owner"] == 0


def test_one_unit_per_reinforce_card() -> None:
    # rulebook: "You may only ever gain up to 1 Unit from a Reinforce card."
    s = battle(["R I a1 n", "B I a7 s"], row=(("Rf",), ()), points=(8, 18))
    resolve(s)
    play(s, "place C", "at d1", "face n")
    assert s.orders.cmd is None and s.logistics.points[0] == 4 and s.step == "send"


def test_invasion_zone_centre_three_option() -> None:
    s = battle(
        ["R I a6 n", "R I d1 n", "B I g5 s"],
        row=(("M",), ()),
        shogun=("B", None),
        invasion_zone="centre_three",
    )
    resolve(s)
    play(s, "unit a6", "dir n")
    assert (
        s.orders.cmd is None and s.invader_spot.invaders[0] == 0
    )  # a7 is not in the zone with this option


def test_formation_fences_inside_home_option() -> None:
    s = GAME.new_state(0, formation_fences="inside_home")
    play(s, "place F")
    edges = {a.removeprefix("fence ") for a in legal(s)}
    assert "d2n" in edges and "d3n" not in edges and "b2n" not in edges


def test_shoot_block_any_crossed_option() -> None:
    units = ["R A d4 n", "B i c4 s", "B I a7 s"]
    s = battle(units, ["B c4e"], row=(("Re",), ()), shogun=(None, "B"))
    resolve(s)
    assert "mode shoot" in legal(s)  # side shots are not head-on (spec)
    s = battle(units, ["B c4e"], row=(("Re",), ()), shogun=(None, "B"), shoot_block="any_crossed")
    resolve(s)
    assert s.orders.cmd.type == "reorient"  # the only Archer has no target any more


def test_shield_hit_options() -> None:
    units = ["R I d4 n", "B I d3 s", "B I a7 s"]
    s = battle(units, ["B d4e"], row=(("M",), ()), shogun=(None, "C"))
    resolve(s)
    play(s, "unit d4", "dir s")
    assert unit_at(s, "d4")["facing"] == "s" and fence_at(s, "d4e") == 1
    s = battle(
        units,
        ["B d4e"],
        row=(("M",), ()),
        shogun=(None, "C"),
        shield_hit_facing="keep",
        shield_hit_breaks_fences=True,
    )
    resolve(s)
    play(s, "unit d4", "dir s")
    assert unit_at(s, "d4")["facing"] == "n" and fence_at(s, "d4e") == -1


def test_lightning_alone_resupply_option() -> None:
    for value, gain in ((0, 0), (1, 1)):
        s = battle(["R I a1 n", "B I a7 s"], points=(6, 18), lightning_alone_resupply=value)
        play(s, "send M", "lightning")
        assert s.logistics.points[0] == gain


def test_modification_3_pool_copies_can_both_be_taken() -> None:
    s = battle(
        ["R I d6 n", "R I a1 n", "B I a5 s"],
        row=(("M",), ()),
        shogun=("B", None),
        variant="inspiration",
        modification=3,
    )
    s.inspiration.pool = ["Rapid", "Rapid"]
    resolve(s)
    play(s, "unit d6", "dir n", "invade", "take Rapid")
    assert s.inspiration.pool == ["Rapid"]
    events = play(s, "remove M")
    assert s.inspiration.swap_done[0] and any(e["type"] == "removed" for e in events)
