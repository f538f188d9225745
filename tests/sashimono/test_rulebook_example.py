"""The rulebook's Action Turn Example, recreated with our own Ogawa Suketada card.

rulebook: "Action Turn Example" (steps 1-9). Ogawa Suketada carries the example's two
actions: Nawabari (needs a Hidden Kumi in the line: flip a Kumi of your Sonae) and Gennin
(Gunbai: flip a Kumi in the line, then draw a Kumi).
"""

from __future__ import annotations

from sengoku.games.sashimono import Sashimono

from .conftest import at_turn, give_sashimono, messages, play, slot


def test_action_turn_example(game: Sashimono) -> None:
    st = game.new_state(11)
    at_turn(st, 0)
    w, e = st.sides[0], st.sides[1]
    give_sashimono(st, 0, "ogawa-suketada")
    # The row: a Kiba-Tai, a Hidden Teppo-Gumi, and a Rank 2 Kumi on the right (Teppo+Nagae).
    w.cells = ["T^", "Kv", "N^", "K^", "Tv", "TN^", "K^", "N^", "Tv"]
    w.hand = ["N", "K"]
    # The target column of the enemy: Teppo-Gumi, a Hidden Nagae-Gumi, Kiba-Tai.
    e.cells = ["T^", "K^", "N^", "Nv", "T^", "K^", "K^", "N^", "T^"]
    e.hand = ["T", "K", "N"]
    at_turn(st, 0)

    # 1. Ogawa Suketada goes to the right of the row.
    play(game, st, "action", "play ogawa-suketada", "slot right-2")
    assert st.ctx["line"] == 1
    # 2. With a Hidden Kumi in the line, Nawabari: flip a card elsewhere in the Sonae.
    play(game, st, "do Nawabari", "flip b1")
    assert w.cells[1] == "K^"
    # 3. Gennin: the Gunbai flips the Hidden Teppo-Gumi face up, then a Kumi is drawn.
    hand = len(w.hand)
    play(game, st, "do Gennin", "gunbai b2")
    assert w.cells[4] == "T^" and len(w.hand) == hand + 1
    # 4. Two Teppo-Gumi icons now (the Rank 2 Kumi and the flipped one): the basic action.
    assert "do Utsu" in [str(a) for a in st.legal_actions()]
    play(game, st, "do Utsu")
    # 5. The target: a column.
    play(game, st, "battle cola")
    # 6. The attacker antes one card from hand, face down.
    play(game, st, "ante h1", "ante done")
    # 7. The defender flips the surprise Hidden Nagae-Gumi and adds two cards from hand.
    assert st.current_player == 1
    result_events = play(game, st, "reveal a2", "ante h1", "ante h1", "ante done")
    assert any("Attack 7, defence 6" in m for m in messages(result_events))
    b = st.battle
    assert b is not None
    # attack 7: 4 from the two Teppo-Gumi, 0 from the Nagae-Gumi, 2 from the Kiba-Tai, 1 ante
    assert b["attack"] == 7
    # defence 6: 0 from the Teppo-Gumi, 2 from the Nagae-Gumi, 2 from the Kiba-Tai, 2 antes
    assert b["defence"] == 6
    # 8. The defender loses by only 1 power, so the defender picks the casualty.
    assert b["winner"] == 0 and b["margin"] == 1 and st.current_player == 1
    deck = list(e.deck)
    hand = len(w.hand)
    play(game, st, "casualty a1")
    assert e.cells[0] is None
    assert e.deck[: len(deck)] == deck and e.deck[len(deck)] == "T"  # to the bottom
    assert len(e.deck) == len(deck) + 3  # the casualty and the two antes
    # 9. No more actions: draw a Kumi (K = 0 empty spaces: draw 1); the Sonae is full.
    # (every action is used, so the action step ends by itself)
    assert len(w.hand) == hand + 1
    assert st.current_player == 1 and st.prompt["op"] == "turn"
    assert w.slots[slot("right-2")] is not None
