"""Phases and turn structure (rulebook: Playing the Game, Phases 1-3; Important Things)."""

from __future__ import annotations

import pytest

from sengoku.core.game import IllegalAction
from tests.gunshi.helpers import GAME, battle, legal, play, resolve


def test_setup_red_starts_with_18_points_and_4_fences() -> None:
    s = GAME.new_state(0)
    assert s.current_player == 0 and s.phase == "formation"
    assert s.logistics.points == [18, 18] and s.fences.fences_left == [4, 4]
    assert legal(s) == {"place I", "place A", "place C", "place F"}


def test_formation_alternates_and_places_in_home_territory_only() -> None:
    # rulebook: "Starting with the red player, you'll each take turns placing one Unit or
    # Fence at a time"; Home Territory = first 2 rows plus 3 centre cells of the third.
    s = GAME.new_state(0)
    play(s, "place C")
    cells = {a.removeprefix("at ") for a in legal(s)}
    assert len(cells) == 17 and "c3" in cells and "b3" not in cells and "d4" not in cells
    play(s, "at d2", "face n")
    assert s.logistics.points[0] == 14 and s.current_player == 1
    play(s, "place F")
    fences = {a.removeprefix("fence ") for a in legal(s)}
    assert "d4n" in fences  # between d4 and d5: touches Blue's Home Territory
    assert "d3n" not in fences and "a4n" not in fences
    play(s, "fence d4n")
    assert s.logistics.points[1] == 17 and s.fences.fences_left[1] == 3 and s.current_player == 0


def test_formation_cost_example() -> None:
    # rulebook: "You have 18 Military Logistics Points and you spend 2 to place an Infantry
    # Unit on the board. You have 16 Points left."
    s = GAME.new_state(0)
    play(s, "place I", "at d1", "face n")
    assert s.logistics.points[0] == 16 and s.field.ushield[0] is True  # Infantry stand on a Shield


def test_formation_must_spend_and_ends_when_nobody_can() -> None:
    # rulebook: "Both players must use as many of their available Military Logistics Points
    # as they possibly can"; "If one player uses their points up first, the other player
    # continues"; "You may only begin the battle with 1 Point remaining if you have no Fences
    # left to place."
    s = GAME.new_state(0)
    rng_moves = 0
    while s.phase == "formation":
        acts = s.legal_actions()
        assert "end" not in {str(a) for a in acts}  # there is no pass
        s.apply(acts[0])
        rng_moves += 1
    assert s.phase == "secret"
    for p in (0, 1):
        assert s.logistics.points[p] == 0 or (
            s.logistics.points[p] == 1 and s.fences.fences_left[p] == 0
        )


def test_phase_two_secret_shogun_hand_and_deck_order() -> None:
    # rulebook: "Secretly choose a Unit in your formation ... Choose 3 of your 7 Command
    # cards to keep as your first hand. Then, stack the remaining 4 cards in any order".
    s = GAME.new_state(0, preset="first_battle")
    s.cards.hand = [[], []]
    s.cards.deck = [[], []]
    s.cards.stock = [
        [(c, False, False) for c in ("M", "M", "M", "Re", "Re", "F", "Rf")] for _ in "rb"
    ]
    letters = {a.removeprefix("shogun ") for a in legal(s)}
    assert letters == {"A", "B", "C", "Q", "R", "S"}  # Red's own formation units only
    play(s, "shogun R")
    assert s.view(1)["players"][0]["shogun"] is None
    assert s.view(0)["players"][0]["shogun"] == "R"
    play(s, "hand M", "hand Re", "hand F")
    assert legal(s) == {"deck M", "deck Re", "deck Rf"}
    play(s, "deck Rf", "deck M", "deck Re")  # the last card (M) is forced
    assert [c[0] for c in s.cards.deck[0]] == ["Rf", "M", "Re", "M"]
    assert s.current_player == 1 and s.view(1)["players"][0]["hand"] == [None, None, None]


def test_send_new_commands_alternates_face_down_up_across_turns() -> None:
    # rulebook: "The first card you place ... should go face down. Then, continue to place
    # cards facing up, down, up, etc. throughout."
    s = battle(["R I a1 n", "B I a7 s"], hand=(("M", "Re", "F"), ("M", "Re", "F")))
    assert legal(s) == {"send M", "send Re", "send F"}  # at least one card must be sent
    play(s, "send M")
    assert s.cards.row[0][0][2] is False  # face down
    assert legal(s) == {"send Re", "send F", "end", "lightning"}
    play(s, "send Re", "end")
    assert [c[2] for c in s.cards.row[0]] == [False, True]
    assert s.cards.face_down_next[0] is True
    assert s.view(1)["players"][0]["row"][0] == {"card": None, "face_up": False}


def test_row_holds_at_most_four_cards_including_lightning() -> None:
    # rulebook: "Your Command Row may only contain up to 4 cards, including the Lightning
    # Command position."
    s = battle(["R I a1 n", "B I a7 s"], row=(("M", "M", "Re"), ()))
    play(s, "send F")
    assert legal(s) == {"end", "lightning"}
    with pytest.raises(IllegalAction):
        s.apply(GAME.parse_action(s, "end").__class__("send", "M"))


def test_lightning_command_costs_six_and_resolves_first() -> None:
    # rulebook: "Pay 6 Military Logistics Points. Move the card in 1st to the Lightning
    # Command position"; "resolve the Lightning Order position card first"; "return them to
    # the bottom of the deck in the order resolved".
    s = battle(["R I d2 n", "B I a7 s"], row=(("M",), ()), hand=(("Re", "F", "Rf"), ("M",) * 3))
    s.cards.deck = [[], [("M", False, False)] * 4]
    play(s, "send Re", "lightning")
    assert s.logistics.points[0] == 12 + 1  # paid 6, then Re-Supply for position 1
    assert s.cards.lightning[0][0] == "M" and [c[0] for c in s.cards.row[0]] == ["Re"]
    s.player = 0
    resolve(s)
    play(s, "unit d2", "dir n")  # the Lightning card (Move) first
    assert s.orders.cmd is not None and s.orders.cmd.card == "Re"  # then the 1st card
    play(s, "unit d3", "face e")
    assert [c[0] for c in s.cards.deck[0]] == ["M", "Re"]


def test_lightning_needs_six_points() -> None:
    s = battle(["R I a1 n", "B I a7 s"], points=(5, 18))
    play(s, "send M")
    assert "lightning" not in legal(s)


def test_resupply_gains_last_position_and_draws_to_three() -> None:
    # rulebook: "if you have Command cards up to the 3rd position ... increase your Military
    # Logistics points by 3. Then, draw cards from the top of your deck until you have 3".
    s = battle(["R I a1 n", "B I a7 s"], row=(("M", "Re"), ()), points=(4, 18))
    play(s, "send F", "end")
    assert s.logistics.points[0] == 7
    assert [c[0] for c in s.cards.hand[0]] == ["M", "Re", "M"]  # drew the top card of the deck
    assert [c[0] for c in s.cards.deck[0]] == ["Re", "M", "Rf"]
    assert s.current_player == 1


def test_compulsory_move_and_nothing_when_unable() -> None:
    # rulebook: "you cannot refrain from moving a Unit when the next card in your row is a
    # Move Command"; when unable "nothing happens".
    s = battle(["R I a1 n", "B I a7 s"], row=(("M",), ()))
    resolve(s)
    assert "end" not in legal(s) and "send M" not in legal(s)
    s = battle(["R C a1 s", "B I a7 s"], ["B a1e"], row=(("M",), ()))
    events = resolve(s)
    assert any(e["type"] == "no_effect" for e in events) and s.step == "send"


def test_deck_is_never_shuffled_cards_go_to_the_bottom_in_order() -> None:
    # rulebook: "place the card at the bottom of your deck ... the deck is never shuffled."
    s = battle(["R I d2 n", "B I a7 s"], row=(("Re", "M"), ()))
    s.cards.lightning[0] = ("M", True, True)
    s.cards.row[0] = [("Re", True, True)]
    before = [c[0] for c in s.cards.deck[0]]
    resolve(s)
    play(s, "unit d2", "dir n", "unit d3", "face e")
    assert [c[0] for c in s.cards.deck[0]] == before + ["M", "Re"]


def test_surrender_ends_the_game() -> None:
    s = battle(["R I a1 n", "B I a7 s"])
    events = s.concede(1)
    assert s.outcome().winners == (0,) and events[0]["type"] == "game_over"
    assert s.legal_actions() == []
