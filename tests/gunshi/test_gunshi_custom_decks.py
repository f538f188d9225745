"""Custom Deck Construction: Optional Rule 2's agreed deck (any legal deck) and Optional Rule 1
combined with Rules 2 and 3."""

from __future__ import annotations

import pytest

from sengoku.core.game import InvalidOption
from sengoku.games.gunshi import GunshiState
from sengoku.games.gunshi.data import DECKS, parse_deck
from tests.gunshi.helpers import GAME, legal, play


def _agreed(deck: str, **options: object) -> GunshiState:
    return GAME.new_state(
        0, variant="custom", custom_selection="agreed", agreed_deck=deck, **options
    )


def test_agreed_deck_accepts_any_legal_deck_by_code_or_name() -> None:
    # rulebook, Optional Rule 2: "discuss which cards you both want to use this game and
    # select all 7 together": any 7 cards the deck-building rules allow, not only examples.
    s = _agreed("Move, 2x Reorient or Shoot, rapid-move, Light Infantry, Scout, EnRoute")
    assert s.options["agreed_deck"] == "M Re Re Rapid EnRoute Light Scout"
    for p in (0, 1):
        assert sorted(c[0] for c in s.cards.stock[p]) == sorted(
            ["M", "Re", "Re", "Rapid", "EnRoute", "Light", "Scout"]
        )
    assert s.phase == "formation"
    # Spaces separate codes; the canonical form round-trips through the option.
    again = _agreed(s.options["agreed_deck"])
    assert again.options["agreed_deck"] == s.options["agreed_deck"]
    assert _agreed("M M M Re Re F Rf").options["agreed_deck"] == "M M M Re Re F Rf"


@pytest.mark.parametrize("name", sorted(DECKS))
def test_the_four_examples_stay_named_shortcuts(name: str) -> None:
    s = _agreed(name)
    assert s.options["agreed_deck"] == name
    assert sorted(c[0] for c in s.cards.stock[1]) == sorted(DECKS[name])


@pytest.mark.parametrize(
    ("deck", "words"),
    [
        ("M M M M Re Re F", ["Move (M)", "4 times", "each colour owns only 3"]),
        ("M Rapid Rapid Re F Rf Scout", ["Rapid-Move (Rapid)", "2 times", "only 1"]),
        ("M Re F Rf Rapid Review", ["exactly 7", "names 6"]),
        ("M Re F Rf Rapid Review Scout Light", ["exactly 7", "names 8"]),
        ("M Re F Rf Rapid Review Katana", ["unknown Command card 'Katana'"]),
        ("", ["names 7 Command cards"]),
    ],
)
def test_agreed_deck_errors_name_the_card_and_the_rule(deck: str, words: list[str]) -> None:
    with pytest.raises(InvalidOption) as err:
        _agreed(deck)
    text = str(err.value)
    assert "agreed_deck" in text and all(w in text for w in words), text


def test_agreed_deck_must_be_a_string() -> None:
    with pytest.raises(InvalidOption, match="agreed_deck"):
        GAME.new_state(0, agreed_deck=["M"] * 7)


def test_agreed_deck_without_a_move_needs_optional_rule_1() -> None:
    # rulebook, Setup step 2: "Take 1 Basic Move Command card each"; Optional Rule 1 leaves
    # "that card up for selection as well". Rule 1 changes step 2 and Rule 2 replaces step 3,
    # so they combine: only then may the agreed deck go without a Move.
    deck = "Re Re F Rf Rapid Review Scout"
    with pytest.raises(InvalidOption, match="Optional Rule 1"):
        _agreed(deck)
    s = _agreed(deck, move_up_for_selection=True)
    assert "M" not in [c[0] for c in s.cards.stock[0]]


def test_agreed_sanryaku_cards_bring_the_promos_in() -> None:
    # Agreeing on a promo card means playing with the promo cards (as the example deck
    # "Who Dares Wins" does), whatever the sanryaku option said.
    assert _agreed("M Re F Fire Switch Trap Rapid").options["sanryaku"] is True
    assert _agreed("M Re F Fire Switch Trap Rapid", sanryaku=False).options["sanryaku"] is True
    assert GAME.new_state(0, preset="who_dares_wins", sanryaku=False).options["sanryaku"]
    assert _agreed("M Re F Rf Rapid Scout Light").options["sanryaku"] is False


def test_agreed_deck_is_public_to_both_players() -> None:
    s = _agreed("M M Re F Rf Crossbow Review")
    play(s, "place I", "at d2", "face n")
    assert s.view(1)["options"]["agreed_deck"] == "M M Re F Rf Review Crossbow"


def test_parse_deck_orders_cards_canonically() -> None:
    assert parse_deck("scout m re re f rf light") == ("M", "Re", "Re", "F", "Rf", "Light", "Scout")


def test_optional_rule_1_with_alternate_picks_is_alternate_all() -> None:
    s = GAME.new_state(0, variant="custom", move_up_for_selection=True)
    assert s.options["custom_selection"] == "alternate_all"
    assert (
        s.current_player == 1
        and len(s.deck_construction.pick_order) == 7
        and s.deck_construction.pre_taken == []
    )
    t = GAME.new_state(0, variant="custom", custom_selection="alternate_all")
    assert t.options["move_up_for_selection"] is True


def test_optional_rules_1_and_3_seven_secret_picks_without_a_forced_move() -> None:
    # Rule 1 + Rule 3: no Move is taken in step 2, so each player picks all 7 in secret and
    # may leave the Move out.
    s = GAME.new_state(0, variant="custom", custom_selection="secret", move_up_for_selection=True)
    assert s.deck_construction.pick_order == [0] * 7 + [1] * 7
    for code in ("Re", "Re", "F", "Rf", "Rapid", "Review", "Scout"):
        play(s, f"pick {code}")
    assert s.view(1)["players"][0]["picks"] == [None] * 7
    for code in ("M", "M", "M", "Re", "Re", "F", "Rf"):
        play(s, f"pick {code}")
    assert "M" not in [c[0] for c in s.cards.stock[0]] and s.phase == "formation"


def test_optional_rule_3_alone_keeps_the_step_2_move_out_of_the_copy_limit() -> None:
    # Without Rule 1 each player already holds a Move, so only 2 more can be chosen.
    s = GAME.new_state(0, variant="custom", custom_selection="secret")
    play(s, "pick M", "pick M")
    assert "pick M" not in legal(s)
