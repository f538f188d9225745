"""Each rule of the rulebook (two-player game), on constructed positions."""

from __future__ import annotations

import pytest

from sengoku.core.game import IllegalAction, InvalidOption, ParseError
from sengoku.games.sashimono import Sashimono
from sengoku.games.sashimono.state import Act, SashimonoState, attack_of, defence_of

from .conftest import at_turn, card_index, give_sashimono, messages, play, slot


def fresh(game: Sashimono, seed: int = 0, **options: object) -> SashimonoState:
    st = game.new_state(seed, **options)
    assert isinstance(st, SashimonoState)
    return st


def texts(st: SashimonoState) -> list[str]:
    return [str(a) for a in st.legal_actions()]


# ---------------------------------------------------------------- setup


def test_setup_sonae_decks_and_first_player(game: Sashimono) -> None:
    # rulebook: "Two-Player Setup", steps 2-5; spec: the starting Sonae
    st = fresh(game, 5)
    for seat in (0, 1):
        s = st.sides[seat]
        # spec: [T^ Kv N^] / [Nv T^ K^] / [K^ N^ Tv]
        assert s.cells == ["T^", "Kv", "N^", "Nv", "T^", "K^", "K^", "N^", "Tv"]
        assert len(s.hand) == 3 and len(s.deck) == 6  # 18 Kumi: 9 in play, 3 drawn
        assert sorted(s.hand + s.deck) == sorted("TTTKKKNNN")
    assert st.sides[0].army == "west" and st.sides[1].army == "east"
    # setup step 4: look at the top 5 Sashimono, return 2 to the bottom, keep 3
    assert st.current_player == 0 and st.prompt["op"] == "look_bottom"
    top5 = list(st.look.cards)
    play(game, st, "bottom L2", "bottom L1")
    assert st.sides[0].shand == top5[2:]
    assert st.sides[0].sdeck[-2:] == [top5[1], top5[0]]
    assert st.current_player == 1
    play(game, st, "bottom L1", "bottom L1")
    assert len(st.sides[1].shand) == 3 and len(st.sides[1].sdeck) == 14
    # the western army takes the first turn
    assert st.current_player == 0 and texts(st) == ["action", "score"]


def test_vp_target_option(game: Sashimono) -> None:
    assert fresh(game, vp=2).target == 2
    with pytest.raises(InvalidOption):
        game.new_state(0, vp=0)
    with pytest.raises(InvalidOption):
        game.new_state(0, mode="triple")


# ---------------------------------------------------------------- the Action turn


def test_play_a_sashimono_next_to_a_line(game: Sashimono) -> None:
    # rulebook: "1. Play 1 Sashimono card" (not onto another; the opposite end is allowed)
    st = fresh(game)
    at_turn(st, 0)
    give_sashimono(st, 0, "ogawa-suketada")
    give_sashimono(st, 0, "shima-sakon")
    play(game, st, "action", "play ogawa-suketada")
    assert len(st.legal_actions()) == 12  # the 12 spaces around the Sonae
    play(game, st, "slot right-2")
    assert st.sides[0].slots[slot("right-2")] == card_index(st, "ogawa-suketada")
    assert st.ctx["line"] == 1  # row 2
    # next turn: not onto another Sashimono, but the opposite end of the same line is allowed
    play(game, st, "done") if "done" in texts(st) else None
    while st.current_player == 0:
        play(game, st, "end" if "end" in texts(st) else texts(st)[-1])
    while st.current_player == 1:
        play(game, st, texts(st)[-1])
    play(game, st, "action", "play shima-sakon")
    assert "slot right-2" not in texts(st)
    play(game, st, "slot left-2")
    assert st.ctx["line"] == 1


def test_score_turn_mandatory_without_sashimono(game: Sashimono) -> None:
    # rulebook: Score turn, "This type of turn is mandatory if you have no Sashimono in hand"
    st = fresh(game)
    at_turn(st, 0)
    st.sides[0].shand.clear()
    at_turn(st, 0)
    assert texts(st) == ["score"]


def test_each_action_once_in_any_order_and_basic_actions(game: Sashimono) -> None:
    # rulebook: "2. Take Actions" (each action at most once, any order, basic actions too)
    st = fresh(game)
    at_turn(st, 0)
    give_sashimono(st, 0, "ogawa-suketada")
    s = st.sides[0]
    s.cells[3:6] = ["K^", "Tv", "TN^"]
    play(game, st, "action", "play ogawa-suketada", "slot right-2")
    # Nawabari (Hidden), Gennin (Gunbai) and the reference card's Utsu? Utsu needs two
    # matching icons: T (from the TN stack) only once before the flip.
    assert texts(st) == ["do Nawabari", "do Gennin", "done"]
    play(game, st, "do Gennin", "gunbai b2")
    # after the flip: T twice -> Utsu is available; Gennin is used up
    assert "do Gennin" not in texts(st) and "do Utsu" in texts(st)
    # Nawabari needs a Hidden Kumi in the line: none left now
    assert "do Nawabari" not in texts(st)


def test_requirement_icons(game: Sashimono) -> None:
    # rulebook: the icon pages; spec: "Requirement icons"
    st = fresh(game)
    s = st.sides[0]
    cases = [
        (["T^", "N^", "K^"], ("T",), True),
        (["T^", "N^", "K^"], ("TT",), False),
        (["T^", "TN^", "K^"], ("TT",), True),  # a stack supplies each type it holds
        (["T^", "N^", "K^"], ("TKN",), True),
        (["T^", "Nv", "K^"], ("TKN",), False),  # a Hidden Kumi has no type
        (["T^", "Nv", "K^"], ("hidden",), True),
        (["T^", "N^", "K^"], ("hidden",), False),
        (["K^", "N^", "KT^"], ("pair",), True),
        (["K^", "N^", "T^"], ("pair",), False),
        (["K^", "N^", "T^"], ("T", "K"), True),
        (["K^", None, "T^"], ("N",), False),
    ]
    for line, reqs, ok in cases:
        s.cells[0:3] = line
        assert st.reqs_ok(0, 0, reqs) is ok, (line, reqs)
    # Gunbai: flip a Kumi in the line first, then the other requirements are checked
    s.cells[0:3] = ["Tv", "N^", "K^"]
    assert st.action_ready(0, 0, ("gunbai", "T")) == [0]
    assert st.action_ready(0, 0, ("gunbai",)) == [0, 1, 2]
    s.cells[0:3] = [None, None, None]
    assert st.action_ready(0, 0, ("gunbai",)) == []


# ---------------------------------------------------------------- the Score turn


def _bowed_position(game: Sashimono, st: SashimonoState, card_id: str, slot_name: str) -> None:
    c = card_index(st, card_id)
    give_sashimono(st, 0, card_id)
    st.sides[0].shand.remove(c)
    st.sides[0].slots[slot(slot_name)] = c


def test_score_turn_scores_replaces_and_returns(game: Sashimono) -> None:
    # rulebook: Score turn, steps 1a-1c
    st = fresh(game)
    at_turn(st, 0)
    s = st.sides[0]
    # Shima Sakon: 4 face-up Teppo-Gumi; Otani Yoshitsugu: 4 Hidden (not met)
    _bowed_position(game, st, "shima-sakon", "top-a")
    _bowed_position(game, st, "otani-yoshitsugu", "top-b")
    s.cells = ["T^", "T^", "T^", "T^", "K^", "N^", "K^", "N^", "K^"]
    at_turn(st, 0)
    assert s.bowed[slot("top-a")] and not s.bowed[slot("top-b")]
    hand_before = list(s.shand)
    top2 = s.sdeck[:2]
    events = play(game, st, "score")
    assert s.vp == 1 and s.scored == [card_index(st, "shima-sakon")]
    assert any("scores Shima Sakon" in m for m in messages(events))
    # replace: N = 1 scored -> look at the top 2, keep 1, the other to the bottom
    assert st.look.cards == top2
    play(game, st, "bottom L1")
    assert s.shand == hand_before + [top2[1]] and s.sdeck[-1] == top2[0]
    # return un-scored Sashimono: any number, then keep
    assert texts(st) == ["return top-b", "keep"]
    play(game, st, "return top-b")
    assert card_index(st, "otani-yoshitsugu") in s.shand
    assert st.prompt["op"] == "bonus"


def test_score_reaching_the_target_wins_at_once(game: Sashimono) -> None:
    # rulebook: "If you scored enough VP to win, the game ends immediately"
    st = fresh(game, vp=2)
    at_turn(st, 0)
    s = st.sides[0]
    _bowed_position(game, st, "shima-sakon", "top-a")
    _bowed_position(game, st, "natsuka-masaie", "top-b")
    s.cells = ["T^", "T^", "T^", "T^", "K^", "K^", "K^", "K^", "N^"]
    at_turn(st, 0)
    events = play(game, st, "score")
    out = st.outcome()
    assert out is not None and out.winners == (0,) and out.reason == "vp"
    assert out.scores == (2.0, 0.0) and out.returns == (1.0, -1.0)
    assert st.legal_actions() == [] and events[-1]["type"] == "game_over"


def test_bonus_actions(game: Sashimono) -> None:
    # rulebook: Score turn, "2. Bonus Action" (Bakufu, Dojo, Gennin, Gyorin)
    st = fresh(game)
    at_turn(st, 0)
    s = st.sides[0]
    s.hand = ["K", "N"]
    play(game, st, "score")
    assert texts(st) == [
        "bonus Bakufu", "bonus Dojo", "bonus Gennin", "bonus Gyorin", "no bonus"
    ]  # fmt: skip
    # Dojo: any face-up Kumi of the Sonae may be trained (here a1, Teppo-Gumi)
    play(game, st, "bonus Dojo", "train a1", "with h1")
    assert s.cells[0] == "TK^" and s.hand[0] == "N" and len(s.hand) == 2  # + the K+1 draw
    # Gennin: flip a Kumi, then draw one
    st2 = fresh(game)
    at_turn(st2, 0)
    hand = len(st2.sides[0].hand)
    play(game, st2, "score", "bonus Gennin", "flip b1")
    assert st2.sides[0].cells[1] == "K^"
    assert len(st2.sides[0].hand) == hand + 1 + 1  # Gennin's draw, then the K+1 draw
    # Gyorin: rearrange one line
    st3 = fresh(game)
    at_turn(st3, 0)
    play(game, st3, "score", "bonus Gyorin", "rearrange row1", "order c1b1a1")
    assert st3.sides[0].cells[0:3] == ["N^", "Kv", "T^"]
    # Bakufu: draw a Sashimono, then one from hand or play goes to the bottom
    st4 = fresh(game)
    at_turn(st4, 0)
    s4 = st4.sides[0]
    top = s4.sdeck[0]
    play(game, st4, "score", "bonus Bakufu")
    assert top in s4.shand
    play(game, st4, "bury h1")
    assert s4.sdeck[-1] not in s4.shand and len(s4.shand) == 3


def test_draw_k_plus_one_and_play_kumi_face_up_or_hidden(game: Sashimono) -> None:
    # rulebook: "3. Draw Kumi Cards" (K+1) and "4. Play Kumi Cards" (face up or Hidden)
    st = fresh(game)
    at_turn(st, 0)
    s = st.sides[0]
    s.cells[0] = None
    s.cells[4] = None
    hand = len(s.hand)
    play(game, st, "score", "no bonus")
    assert len(s.hand) == hand + 3  # K = 2 empty spaces: draw K+1
    first, second = s.hand[0], s.hand[1]
    events = play(game, st, "kumi h1", "to a1 hidden")
    assert s.cells[0] == first + "v"
    public = [e for e in events if e["audience"] is None]
    assert all(first not in (e.get("kumi") or "") for e in public)
    play(game, st, "kumi h1", "to b2 up")
    assert s.cells[4] == second + "^"
    # the Sonae is full: the turn passes
    assert st.current_player == 1


# ---------------------------------------------------------------- bowing


def test_bowing_and_unbowing_for_both_players(game: Sashimono) -> None:
    # rulebook: "Goal of the Game" (bow; un-bow immediately); spec: after every change
    st = fresh(game)
    at_turn(st, 0)
    # Tanaka Yoshimasa (East) bows when a line of West's Sonae is all Hidden (row 2 here)
    c = card_index(st, "tanaka-yoshimasa")
    st.sides[1].slots[slot("top-a")] = c
    w = st.sides[0]
    w.cells = ["T^", "Kv", "N^", "Nv", "Tv", "Kv", "K^", "N^", "Tv"]
    at_turn(st, 0)
    assert st.sides[1].bowed[slot("top-a")]
    # West flips one face up on its own turn (Gennin bonus): East's card un-bows at once
    events = play(game, st, "score", "bonus Gennin", "flip b2")
    assert not st.sides[1].bowed[slot("top-a")]
    assert any("Tanaka Yoshimasa (East) un-bows" in m for m in messages(events))
    # and bows again as soon as the condition holds again
    w.cells[4] = "Tv"
    at_turn(st, 1)
    assert st.sides[1].bowed[slot("top-a")]


# ---------------------------------------------------------------- battle


def _battle_position(game: Sashimono, seed: int = 0) -> SashimonoState:
    st = fresh(game, seed)
    at_turn(st, 0)
    give_sashimono(st, 0, "shima-sakon")  # Tanegashima: TT -> battle any line, +1 attack
    return st


def test_battle_tie_goes_to_the_attacker_and_loser_picks(game: Sashimono) -> None:
    # rulebook: "Battle", steps 3-5 ("The attacker wins ties"; beaten by 0 or 1)
    st2 = _battle_position(game)
    w, e = st2.sides[0], st2.sides[1]
    w.cells[0:3] = ["T^", "T^", "N^"]  # attack 4 (+1 Tanegashima) = 5
    e.cells[0:3] = ["K^", "N^", "T^"]  # defence 2 + 2 + 0 = 4, + 1 ante = 5
    w.hand, e.hand = [], ["K"]
    play(game, st2, "action", "play shima-sakon", "slot right-1", "do Tanegashima", "battle row1")
    assert st2.current_player == 1  # the attacker had nothing to ante; the defender antes
    assert texts(st2) == ["ante h1", "ante done"]
    play(game, st2, "ante h1")  # nothing left to ante: the ante ends by itself
    b = st2.battle
    assert b is not None and b["attack"] == 5 and b["defence"] == 5
    assert b["winner"] == 0  # the attacker wins ties
    # beaten by 0: the loser (East) chooses its casualty
    assert st2.current_player == 1 and texts(st2) == ["casualty a1", "casualty b1", "casualty c1"]
    play(game, st2, "casualty c1")
    assert e.cells[2] is None and e.deck[-2:] == ["T", "K"]  # casualty, then the ante


def test_battle_margin_two_winner_chooses(game: Sashimono) -> None:
    # rulebook: "Battle", step 5 ("beaten by 2 or more ... the winning player chooses")
    st = _battle_position(game)
    w, e = st.sides[0], st.sides[1]
    w.cells[0:3] = ["T^", "T^", "K^"]  # 6 + 1
    e.cells[0:3] = ["T^", "Nv", "T^"]  # 0 + 1 + 0
    w.hand, e.hand = [], []
    play(game, st, "action", "play shima-sakon", "slot right-1", "do Tanegashima", "battle row1")
    # the defender may still flip its Hidden Kumi up (ante): N face up defends 2
    assert texts(st) == ["reveal b1", "ante done"]
    play(game, st, "ante done")
    assert st.battle["margin"] == 6
    # beaten by 2 or more: the winner chooses among the loser's line
    assert st.current_player == 0
    assert texts(st) == ["casualty enemy a1", "casualty enemy b1", "casualty enemy c1"]
    play(game, st, "casualty enemy b1")
    assert e.cells[1] is None and e.deck[-1] == "N"


def test_attacker_can_lose_and_antes_hidden_flips(game: Sashimono) -> None:
    # rulebook: "Battle", step 2 (the attacker flips Hidden Kumi and adds cards from hand)
    st = _battle_position(game)
    w, e = st.sides[0], st.sides[1]
    w.cells[0:3] = ["T^", "T^", "Kv"]
    e.cells[0:3] = ["N^", "NK^", "N^"]  # defence 2 + 4 + 2 = 8
    w.hand, e.hand = ["N", "N"], []
    play(game, st, "action", "play shima-sakon", "slot right-1", "do Tanegashima", "battle row1")
    assert texts(st) == ["reveal c1", "ante h1", "ante h2", "ante done"]
    play(game, st, "reveal c1", "ante h1", "ante done")
    # attack: T 2 + T 2 + K 2 + 1 ante + 1 Tanegashima = 8 = defence 8: the attacker wins ties
    assert st.battle["attack"] == 8 and st.battle["winner"] == 0
    assert w.deck[-1] != "" and st.current_player == 1


# ---------------------------------------------------------------- training and rank


def test_training_rules(game: Sashimono) -> None:
    # rulebook: "Training and Rank" (Hidden, same line, distinct types, Rank power)
    st = fresh(game)
    at_turn(st, 0)
    give_sashimono(st, 0, "ukita-hideie")  # Dojo [K]: train, not in the played line
    s = st.sides[0]
    s.cells = ["T^", "Kv", "N^", "Nv", "T^", "K^", "K^", "N^", "TKN^"]
    s.hand = ["T", "K"]
    play(game, st, "action", "play ukita-hideie", "slot right-2", "do Dojo")
    # not Hidden (b1, a2), not in row 2 (the played line), not rank 3 (c3); may decline
    assert texts(st) == ["train a1", "train c1", "train a3", "train b3", "no training"]
    play(game, st, "train a1")
    # the stacked types must differ: only the Kiba-Tai in hand may go on a Teppo-Gumi
    assert texts(st) == ["with h2"]
    play(game, st, "with h2")
    assert s.cells[0] == "TK^"
    # combined power; Hidden power equals rank
    assert (attack_of("TKN^"), defence_of("TKN^")) == (4, 4)
    assert (attack_of("TKNv"), defence_of("TKNv")) == (3, 3)


def test_stacks_move_as_one_kumi(game: Sashimono) -> None:
    # rulebook: "Training and Rank" (a stack is one Kumi for casualties and flips)
    st = fresh(game)
    at_turn(st, 0)
    give_sashimono(st, 0, "shima-sakon")
    w, e = st.sides[0], st.sides[1]
    w.cells[0:3] = ["T^", "T^", "K^"]
    e.cells[0:3] = ["TK^", None, None]
    w.hand, e.hand = [], []
    play(game, st, "action", "play shima-sakon", "slot right-1", "do Tanegashima", "battle row1")
    play(game, st, "casualty enemy a1")
    assert e.cells[0] is None and e.deck[-2:] == ["T", "K"]  # the whole stack, face down
    # a flip turns the whole stack
    st.sides[0].cells[4] = "TN^"
    st._flip(0, 0, 4)
    assert st.sides[0].cells[4] == "TNv"


# ---------------------------------------------------------------- notation and errors


def test_notation_parse_and_illegal(game: Sashimono) -> None:
    st = fresh(game)
    at_turn(st, 0)
    before = st.to_json()
    with pytest.raises(ParseError, match="names no legal action"):
        game.parse_action(st, "fly away")
    with pytest.raises(IllegalAction, match="Action turn or a Score turn"):
        st.apply(Act(3, 0, "do Nawabari"))
    assert st.to_json() == before
    a = game.parse_action(st, "  SCORE ")
    assert str(a) == "score" and game.format_action(st, a) == "s"
    assert game.parse_action(st, "a") == game.parse_action(st, "action")


def test_concede(game: Sashimono) -> None:
    st = fresh(game)
    st.concede(1)
    out = st.outcome()
    assert out is not None and out.winners == (0,) and out.reason == "resignation"
    assert st.legal_actions() == []
