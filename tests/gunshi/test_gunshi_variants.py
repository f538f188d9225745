"""Advanced Variants, presets and the tournament clock (rulebook: Advanced Variant 1 and 2;
Official Tournament-Style Games; Initial Formations; Custom Deck Construction Examples)."""

from __future__ import annotations

import random

import pytest

import sengoku.games.gunshi.battle as gunshi_battle
from sengoku.core.game import InvalidOption
from sengoku.games.gunshi import GunshiState
from sengoku.games.gunshi.data import DECKS
from tests.gunshi.helpers import GAME, battle, legal, play, resolve


def _finish_formation(s, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    while s.phase == "formation":
        s.apply(rng.choice(s.legal_actions()))


def test_modification_1_three_random_cards_nobody_sees() -> None:
    # rulebook: Modification 1: "choose 3 of their Advanced Command cards randomly ... face
    # down. Neither player may look at the cards that were chosen."
    s = GAME.new_state(4, variant="inspiration", modification=1)
    assert len(s.inspiration.prepared[0]) == 3 and len(s.inspiration.prepared[1]) == 3
    for seat in (0, 1):
        assert s.view(seat)["players"][seat]["prepared"] == [None, None, None]
    assert s.phase == "formation"


def test_modification_2_chosen_cards_owner_sees() -> None:
    # rulebook: Modification 2: "choose whichever 3 ... You may not look at your opponent's
    # cards, but you may check which cards you chose at any time".
    s = GAME.new_state(0, variant="inspiration", modification=2)
    assert s.phase == "prepare" and s.view(0)["clock"]["running"] is None
    play(s, "pick Rapid", "pick Scout", "pick Light")
    assert s.current_player == 1
    assert s.view(1)["players"][0]["prepared"] == [None, None, None]
    assert s.view(0)["players"][0]["prepared"] == ["Rapid", "Scout", "Light"]
    play(s, "pick Rapid", "pick Review", "pick EnRoute")
    assert s.phase == "formation" and s.current_player == 0


def test_modification_3_duplicates_cancel_and_the_rest_is_shared() -> None:
    # rulebook: Modification 3: "If any of the revealed cards have the same name, return
    # those cards to the box ... You can now choose any of these cards (regardless of color)".
    s = GAME.new_state(0, variant="inspiration", modification=3)
    _finish_formation(s, random.Random(1))
    assert s.phase == "mod3"
    play(s, "pick Rapid", "pick Scout")
    assert s.view(1)["players"][0]["mod3_choices"] == [None, None]
    play(s, "pick Scout", "pick Light")
    assert sorted(set(s.inspiration.pool)) == ["Light", "Rapid"] and len(s.inspiration.pool) == 4
    assert s.phase == "secret"


def test_inspiration_swap_after_the_first_invasion_only() -> None:
    # rulebook: "The first time you move a Unit into your opponent's Invader Spot ... Choose
    # 1 of the Advanced Command cards that you prepared ... add it to your hand. Then, choose
    # 1 of the Command cards in your hand and remove it from the game"; after Units Follow
    # Orders, before Send New Commands.
    s = battle(
        ["R I d6 n", "R I a1 n", "B I a5 s"],
        row=(("M",), ()),
        shogun=("B", None),
        variant="inspiration",
        modification=2,
    )
    s.inspiration.prepared[0] = ["Rapid", "Scout", "Light"]
    resolve(s)
    play(s, "unit d6", "dir n", "invade")
    assert legal(s) == {"take Rapid", "take Scout", "take Light"}
    events = play(s, "take Scout")
    assert all(e.get("card") != "Scout" for e in events if e["audience"] != [0])
    assert legal(s) == {"remove M", "remove Re", "remove F", "remove Scout"}
    play(s, "remove F")
    assert s.inspiration.removed[0] == ["F"] and s.inspiration.swap_done[0]
    assert legal(s) == {"send M", "send Re", "send Scout"}
    assert s.view(1)["players"][0]["hand"] == [None, None, None]
    # A second invasion later brings no second card.
    s.invader_spot.invaded_turn = True
    s.step = "send"
    s.battle.sent = 0
    gunshi_battle.continue_turn(s)
    assert s.step == "send"


def test_inspiration_modification_1_takes_blind() -> None:
    s = battle(
        ["R I d6 n", "R I a1 n", "B I a5 s"],
        row=(("M",), ()),
        shogun=("B", None),
        variant="inspiration",
        modification=1,
    )
    resolve(s)
    play(s, "unit d6", "dir n", "invade")
    assert legal(s) == {"blind 1", "blind 2", "blind 3"}


def test_custom_deck_alternate_selection() -> None:
    # rulebook: Custom Deck Construction: one Move each, then 3 picks each, Red first; both
    # decks are those 7 cards.
    s = GAME.new_state(0, variant="custom")
    assert s.phase == "build" and s.current_player == 0
    play(s, "pick Rapid")
    assert s.current_player == 1 and "pick Rapid" not in legal(s)
    play(s, "pick M", "pick M")
    assert "pick M" not in legal(s)  # one colour owns only 3 Move cards
    play(s, "pick Re", "pick Scout", "pick Light")
    deck = sorted(c[0] for c in s.cards.stock[0])
    assert deck == sorted(["M", "M", "M", "Rapid", "Re", "Scout", "Light"])
    assert deck == sorted(c[0] for c in s.cards.stock[1])
    assert s.phase == "formation"


def test_custom_deck_optional_rule_1_blue_first_seven_picks() -> None:
    s = GAME.new_state(0, variant="custom", custom_selection="alternate_all")
    assert s.current_player == 1
    for code in ("Rapid", "Review", "Crossbow", "EnRoute", "Light", "Scout", "M"):
        play(s, f"pick {code}")
    assert len(s.cards.stock[0]) == 7 and s.phase == "formation"


def test_custom_deck_optional_rule_3_secret_decks_may_differ() -> None:
    # rulebook: Optional Rule 3 replaces the alternating selection of step 3; step 2 (one
    # Move each) still stands, so each player chooses the other 6 cards in secret.
    s = GAME.new_state(0, variant="custom", custom_selection="secret")
    for code in ("M", "M", "Re", "Re", "F", "Rf"):
        play(s, f"pick {code}")
    assert s.view(1)["players"][0]["picks"] == [None] * 6
    for code in ("F", "Rapid", "Review", "Crossbow", "EnRoute", "Light"):
        play(s, f"pick {code}")
    assert sorted(c[0] for c in s.cards.stock[0]) == sorted(["M", "M", "M", "Re", "Re", "F", "Rf"])
    assert sorted(c[0] for c in s.cards.stock[1]) != sorted(c[0] for c in s.cards.stock[0])
    assert sum(c[0] == "M" for c in s.cards.stock[1]) == 1


@pytest.mark.parametrize("name", sorted(DECKS))
def test_custom_deck_examples(name: str) -> None:
    s = GAME.new_state(0, preset=name)
    assert s.options["variant"] == "custom" and s.phase == "formation"
    assert sorted(c[0] for c in s.cards.stock[0]) == sorted(DECKS[name])


def test_who_dares_wins_uses_sanryaku() -> None:
    assert GAME.new_state(0, preset="who_dares_wins").options["sanryaku"] is True


def test_formation_presets_need_the_basic_rules() -> None:
    with pytest.raises(InvalidOption):
        GAME.new_state(0, preset="advanced_1", variant="inspiration")


def test_first_battle_guide_card_order_and_shogun_choice() -> None:
    # rulebook: First Battle Guide: hands and decks given; "choice of Shogun is left up to you".
    s = GAME.new_state(0, preset="first_battle")
    assert s.phase == "secret" and {a.kind for a in s.legal_actions()} == {"shogun"}
    assert [c[0] for c in s.cards.hand[0]] == ["M", "Re", "F"]
    assert [c[0] for c in s.cards.deck[1]] == ["M", "Re", "M", "F"]
    # The guide prints both sides' hands and decks for both players to read: public, as the
    # Advanced formations' are (and a determinized world keeps them: tests/contract).
    assert s.view(1)["players"][0]["hand"] == ["M", "Re", "F"]
    assert s.view(0)["players"][1]["deck"] == ["M", "Re", "M", "F"]
    play(s, "shogun A", "shogun K")
    assert s.phase == "battle" and s.current_player == 0


def test_advanced_formations_make_both_card_orders_public() -> None:
    # rulebook: "You and your opponent will know each other's card order."
    s = GAME.new_state(0, preset="advanced_2")
    assert s.view(1)["players"][0]["hand"] == ["M", "M", "Re"]
    assert s.view(0)["players"][1]["deck"] == ["M", "Re", "M", "Rf"]


def test_over_cost_formation_starts_at_zero() -> None:
    s = GAME.new_state(0, preset="advanced_3")
    assert s.logistics.points == [0, 0]


def test_tournament_clock_runs_as_the_rulebook_says() -> None:
    # rulebook: "The clock starts after the red player places their first piece—time control
    # begins with the blue player"; then each player's clock runs while they place, choose
    # their Shogun and card order, and play their turn; "Do not run the clock while choosing
    # your Advanced Command cards."
    s = GAME.new_state(0, time_control="tournament", variant="inspiration", modification=2)
    assert s.clock_seat is None
    for code in ("Rapid", "Scout", "Light", "Rapid", "Scout", "Light"):
        play(s, f"pick {code}")
    assert s.phase == "formation" and s.clock_seat is None
    play(s, "place C", "at d2")
    assert s.clock_seat is None
    play(s, "face n")
    assert s.clock_seat == 1
    rng = random.Random(0)
    while s.phase != "battle":
        assert s.clock_seat == s.current_player
        s.apply(rng.choice(s.legal_actions()))
    assert s.clock_seat == 0 and s.view(None)["clock"]["seconds_each"] == 1200
    assert s.view(None)["clock"]["running"] == 0


def test_without_the_tournament_rules_every_decision_is_timed() -> None:
    # A server's Fischer, byo-yomi or sudden-death clock plays with time_control=none: the
    # seat to act's clock runs in every phase, Advanced card choices included, so no phase
    # lets a player hold the game without their clock running.
    s = GAME.new_state(0, variant="inspiration", modification=3)
    rng = random.Random(1)
    phases = set()
    while not s.is_terminal() and len(phases) < 4:
        phases.add(s.phase)
        assert s.clock_seat == s.current_player, s.phase
        assert s.view(None)["clock"]["running"] is None  # no tournament clock to show
        s.apply(rng.choice(s.legal_actions()))
    assert phases == {"formation", "mod3", "secret", "battle"}


def _inspired(units: list[str], shogun: str, row: tuple[str, ...]) -> GunshiState:
    s = battle(units, row=(row, ()), shogun=(shogun, None), variant="inspiration", modification=2)
    s.inspiration.prepared[0] = ["Rapid", "Scout", "Light"]
    return s


def test_inspiration_waits_for_every_invasion_decision_of_a_chain() -> None:
    # rulebook, The Gunshi's Inspiration, Note 1: "If you have several Units that might
    # invade, decide whether or not they will invade before carrying out steps a and b."
    s = _inspired(["R A c6 n", "R A d6 n", "R I a1 n", "B I a5 s"], "C", ("M",))
    resolve(s)
    play(s, "unit d6", "dir n", "chain c6")
    assert legal(s) == {"invade", "stay"}
    play(s, "invade")
    assert legal(s) == {"invade", "stay"}  # the chained Archer decides too, before the swap
    play(s, "stay")
    assert s.invader_spot.invaders[0] == 1
    assert legal(s) == {"take Rapid", "take Scout", "take Light"}


def test_inspiration_waits_for_both_cards_of_a_lightning_turn() -> None:
    # rulebook, Note 2: "If you have multiple Command cards to resolve due to a Lightning
    # Command, finish resolving both of your cards before carrying out steps a and b."
    s = _inspired(["R I d6 n", "R I a1 n", "B I a5 s"], "B", ("Re",))
    s.cards.lightning[0] = ("M", True, True)
    resolve(s)
    play(s, "unit d6", "dir n", "invade")
    assert s.orders.cmd is not None and s.orders.cmd.card == "Re"  # the 1st position still resolves
    assert legal(s) == {"unit a1"}
    play(s, "unit a1", "face e")
    assert legal(s) == {"take Rapid", "take Scout", "take Light"}
