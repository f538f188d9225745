"""The effect operations of the card language, each on a constructed position."""

from __future__ import annotations

from typing import Any

from sengoku.games.sashimono import Sashimono
from sengoku.games.sashimono.state import SashimonoState

from .conftest import at_turn, give_sashimono, play, slot


def played(game: Sashimono, card_id: str, seed: int = 3) -> tuple[SashimonoState, int]:
    """``card_id`` just played at right-2 (row 2 supplies every requirement)."""
    st = game.new_state(seed)
    assert isinstance(st, SashimonoState)
    card = st.cs.cards[st.cs.index[card_id]]
    seat = 0 if card.army in ("west", "dual") else 1
    at_turn(st, seat)
    me, foe = st.sides[seat], st.sides[1 - seat]
    me.cells = ["T^", "Kv", "N^", "TKN^", "TKN^", "KTv", None, "N^", "K^"]
    me.hand = ["T", "K", "N"]
    foe.hand = ["T", "N"]
    give_sashimono(st, seat, card_id)
    at_turn(st, seat)
    play(game, st, "action", f"play {card_id}", "slot right-2")
    return st, seat


def names(st: SashimonoState) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def test_look_and_keep(game: Sashimono) -> None:
    st, seat = played(game, "mori-terumoto")
    me = st.sides[seat]
    top3 = me.deck[:3]
    hand = list(me.hand)
    play(game, st, "do Konidatai")
    assert names(st) == ["keep L1", "keep L2", "keep L3"]
    view = st.view(seat)
    assert view["looking"]["cards"] == top3
    assert st.view(1 - seat)["looking"]["cards"] is None
    play(game, st, "keep L3", "keep L1")
    assert me.hand == hand + [top3[2], top3[0]] and me.deck[-1] == top3[1]


def test_opponent_discards_by_their_own_choice(game: Sashimono) -> None:
    st, seat = played(game, "mori-terumoto")
    foe = st.sides[1 - seat]
    play(game, st, "do Nengu")
    assert st.current_player == 1 - seat and names(st) == ["discard h1", "discard h2"]
    play(game, st, "discard h2")
    assert foe.hand == ["T"] and foe.deck[-1] == "N"
    assert st.current_player == seat


def test_return_an_enemy_hidden_kumi(game: Sashimono) -> None:
    st, seat = played(game, "tanaka-yoshimasa")
    foe = st.sides[1 - seat]
    foe.cells[3] = "NKv"
    play(game, st, "do Kuchitori")
    assert "return enemy a2" in names(st) and "return enemy a1" not in names(st)
    events = play(game, st, "return enemy a2")
    assert foe.cells[3] is None and foe.hand[-2:] == ["N", "K"]
    public = [e for e in events if e["audience"] is None]
    assert all("Nagae" not in e["message"] for e in public)


def test_peek_is_told_only_to_the_peeker(game: Sashimono) -> None:
    st, seat = played(game, "chosokabe-morichika")
    play(game, st, "do Rappa")
    events = play(game, st, "peek enemy b1")
    private = [e for e in events if e["type"] == "peek" and e["audience"] == [seat]]
    assert private and private[0]["types"] == "K"
    assert all("types" not in e for e in events if e["audience"] is None)


def test_swap_adjacent(game: Sashimono) -> None:
    st, seat = played(game, "konishi-yukinaga")
    me = st.sides[seat]
    play(game, st, "do Shijo", "swap a1")
    assert names(st) == ["with b1", "with a2"]  # orthogonal neighbours holding a Kumi
    play(game, st, "with a2")
    assert me.cells[0] == "TKN^" and me.cells[3] == "T^"


def test_bury_draws_then_buries(game: Sashimono) -> None:
    st, seat = played(game, "kobayakawa-hideaki")
    me = st.sides[seat]
    top = me.sdeck[0]
    n = len(me.shand)
    play(game, st, "do Bakufu")
    assert top in me.shand and len(me.shand) == n + 1
    play(game, st, "bury h1")
    assert len(me.shand) == n and me.sdeck[-1] not in me.shand


def test_choose_between_effects(game: Sashimono) -> None:
    st, seat = played(game, "ankokuji-ekei")
    me = st.sides[seat]
    play(game, st, "do Chado")
    assert names(st) == ["choose draw", "choose flip"]
    hand = len(me.hand)
    play(game, st, "choose draw")
    assert len(me.hand) == hand + 1


def test_play_kumi_effect(game: Sashimono) -> None:
    st, seat = played(game, "otani-yoshitsugu")
    me = st.sides[seat]
    play(game, st, "do Ishigaki", "kumi h2", "to a3 hidden")
    assert me.cells[6] == "Kv"


def test_casualty_trigger_draws(game: Sashimono) -> None:
    st = game.new_state(5)
    assert isinstance(st, SashimonoState)
    at_turn(st, 0)
    w, e = st.sides[0], st.sides[1]
    c = st.cs.index["terazawa-hirotaka"]  # ongoing: when you lose a casualty, draw a Kumi
    give_sashimono(st, 1, "terazawa-hirotaka")
    e.shand.remove(c)
    e.slots[slot("top-a")] = c
    give_sashimono(st, 0, "shima-sakon")
    w.cells[0:3] = ["T^", "T^", "K^"]
    e.cells[0:3] = ["T^", "T^", "T^"]
    w.hand, e.hand = [], []
    at_turn(st, 0)
    play(game, st, "action", "play shima-sakon", "slot right-1", "do Tanegashima", "battle row1")
    events: list[dict[str, Any]] = play(game, st, "casualty enemy a1")
    assert any(ev["type"] == "trigger" for ev in events) and len(e.hand) == 1
