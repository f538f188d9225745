"""The remaining clarifications of the Advanced cards (rulebook: Advanced Card Effects and
Clarifications), one test each, quoting the rulebook. The others live in test_gunshi_cards.py.
"""

from __future__ import annotations

from sengoku.games.gunshi import GunshiState
from tests.gunshi.helpers import battle, legal, play, resolve, unit_at


def test_crossbow_is_chainable_each_archer_picks_its_own_target() -> None:
    # rulebook: Crossbow "Chainable: yes"; chained Archers shoot within the Crossbow range.
    s = battle(
        ["R A d2 n", "R A e2 n", "B i d4 s", "B i e5 s", "B I a7 s"],
        row=(("Crossbow",), ()),
        shogun=(None, "C"),
    )
    resolve(s)
    play(s, "mode crossbow", "unit d2", "hit d4")
    assert legal(s) == {"chain e2", "done"}
    play(s, "chain e2")
    assert legal(s) == {"hit e5"}  # 3 ahead of e2: in Crossbow range
    play(s, "hit e5")
    assert unit_at(s, "d4") is None and unit_at(s, "e5") is None and s.orders.cmd is None


def test_crossbow_or_reorient_may_turn_by_any_interval() -> None:
    # rulebook: Reorient "Change the direction your Unit faces. You may turn it by any
    # interval of 90 degrees."
    s = battle(["R A d2 n", "B I a7 s"], row=(("Crossbow",), ()))
    resolve(s)
    play(s, "unit d2")
    assert legal(s) == {"face e", "face s", "face w"}


def test_reinforce_en_route_in_the_opponents_home_territory_not_on_units() -> None:
    # rulebook: "You may place your new Unit in your opponent's Home Territory, as long as it
    # is adjacent to one of your Infantry or Archer Units." "You cannot place the new Unit in
    # a space already occupied by another friendly or enemy Unit."
    s = battle(["R A d5 n", "R I d4 n", "B I d6 s", "B I a7 s"], row=(("EnRoute",), ()))
    resolve(s)
    play(s, "unit d5", "place C")
    assert legal(s) == {"at c5", "at e5"}  # Blue's Home Territory; d4 and d6 are occupied
    play(s, "at c5", "face n")
    assert unit_at(s, "c5")["owner"] == 0 and s.logistics.points[0] == 12


def test_scout_with_only_face_up_cards_still_offers_both_effects() -> None:
    # rulebook: "even if your opponent has no face down cards in their Command Row, you must
    # still resolve one of the following effects: 1. Pay 2 ... look at a card that is
    # already face up. 2. Pay 5 ... Scout the Shogun."
    s = battle(["R I a1 n", "B I a7 s"], row=(("Scout",), ("M",)), points=(5, 18))
    resolve(s)
    assert legal(s) == {"mode commands", "mode shogun"}
    play(s, "mode shogun", "ask a7")
    assert s.logistics.points[0] == 0


def test_scout_unaffordable_does_nothing_and_costs_nothing() -> None:
    # rulebook: "if you do not have the required Military Logistics Points available to
    # resolve a card, you do not resolve the card ... leave your Military Logistics Points
    # as they are."
    s = battle(["R I a1 n", "B I a7 s"], row=(("Scout",), ("M",)), points=(1, 18))
    resolve(s)
    assert s.orders.cmd is None and s.logistics.points[0] == 1 and s.step == "send"


def test_rapid_fire_uses_the_basic_shoot_range() -> None:
    # rulebook: Rapid Fire: "Choose 1 Archer Unit and perform 2 Basic Shoot Command actions.
    # The range for the attack is the same as the Basic Command range." (so the diagonal is in
    # range and the Crossbow's third space ahead is not)
    s = battle(
        ["R A d4 n", "B i c5 s", "B i d7 s", "B i e4 s", "B I a7 s"],
        row=(("Fire",), ()),
        shogun=(None, "E"),
    )
    resolve(s)
    play(s, "unit d4")
    assert legal(s) == {"hit c5", "hit e4"}
    play(s, "hit c5", "hit e4")
    assert unit_at(s, "c5") is None and unit_at(s, "e4") is None and s.logistics.points[0] == 18


def test_strategic_switch_is_compulsory_and_never_invades() -> None:
    # rulebook: "if you have 2 or more Military Logistics Points and there are 2 Units whose
    # positions can be switched, you must switch them." "As this is not a Move Command, if
    # you use this on Units in the Invasion Zone, they may not invade after switching."
    s = battle(
        ["R I d6 n", "R C d7 n", "R I a1 n", "B I a5 s"],
        row=(("Switch",), ()),
        shogun=("C", None),
    )
    resolve(s)
    assert s.orders.cmd is not None and legal(s) == {"unit d6", "unit d7"}  # no way to skip
    play(s, "unit d6", "swap d7")
    assert unit_at(s, "d7")["letter"] == "A"
    assert s.invader_spot.invaders[0] == 0 and s.orders.cmd is None and s.step == "send"


def _trapped(card: str) -> GunshiState:
    s = battle(
        ["R I a1 n", "B I d5 s", "B A e5 s", "B I a7 s"],
        to_act=1,
        row=((), (card,)),
        shogun=(None, "C"),
    )
    s.cards.beside[0] = ("Trap", True, False)
    resolve(s)
    return s


def test_chain_trap_lies_face_up_for_both_players_and_costs_two() -> None:
    # rulebook: "Place this card face up next to the board, so it is visible to both
    # players." Point cost 2; without 2 points the card is not resolved.
    s = battle(["R I a1 n", "B I a7 s"], row=(("Trap",), ()))
    resolve(s)
    assert s.view(1)["players"][0]["chain_trap_beside"] is True and s.logistics.points[0] == 16
    s = battle(["R I a1 n", "B I a7 s"], row=(("Trap",), ()), points=(1, 18))
    resolve(s)
    assert (
        s.cards.beside[0] is None
        and s.logistics.points[0] == 1
        and s.cards.deck[0][-1][0] == "Trap"
    )


def test_chain_trap_springs_on_rapid_move_and_one_step_light_infantry() -> None:
    # rulebook: "'Moves a Unit exactly 1 space via a Command card,' refers to the movements
    # from the Move, Rapid-Move, and Light Infantry cards."
    s = _trapped("Rapid")
    play(s, "unit d5", "dir s", "face n")
    assert s.cards.beside[0] is None and unit_at(s, "e4") is not None
    s = _trapped("Light")
    play(s, "unit d5", "dir s", "to d4")
    assert s.cards.beside[0] is None and unit_at(s, "e4") is not None


def test_chain_trap_waits_through_two_space_moves_and_strategic_switch() -> None:
    # rulebook: "the Light Infantry card sending an Infantry Unit 2 spaces forward does not
    # cause this effect to activate. Strategic Switch is not considered a Move Command ...
    # Leave it where it is at the side of the board".
    s = _trapped("Light")
    play(s, "unit d5", "dir s", "to d3")
    assert s.cards.beside[0] is not None and unit_at(s, "e5") is not None
    s = _trapped("Switch")
    play(s, "unit d5", "swap e5")
    assert s.cards.beside[0] is not None
    assert unit_at(s, "d4") is None and unit_at(s, "e4") is None
