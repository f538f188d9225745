"""The solo mode: the Kagemusha's setup, turn, choices, win conditions and the six challenges."""

from __future__ import annotations

from typing import Any

from sengoku.games.sashimono import Sashimono
from sengoku.games.sashimono.state import KAGE, SashimonoState

from .conftest import at_turn, card_index, give_sashimono, messages, play, slot


def solo(game: Sashimono, seed: int = 0, **options: Any) -> SashimonoState:
    st = game.new_state(seed, mode="solo", **options)
    assert isinstance(st, SashimonoState)
    return st


def kage_turn(st: SashimonoState, answer: bool = True) -> list[dict[str, Any]]:
    """Run a Kagemusha turn now; with ``answer``, you answer its battles plainly (no ante,
    the first casualty offered) until your next turn."""
    st.prompt = None
    st.tasks = [{"t": "turn", "seat": KAGE}]
    st.drop_events()
    st._rebow()
    events = st._run()
    while answer and st.prompt is not None and st.prompt["op"] in ("ante", "casualty"):
        names = [str(a) for a in st.legal_actions()]
        pick = "ante done" if "ante done" in names else names[0]
        events += st.apply(st.legal_actions()[names.index(pick)])
    return events


def quiet_traps(st: SashimonoState, n: int = 3, ids: list[str] | None = None) -> None:
    """Give the Kagemusha traps that your starting Sonae does not spring."""
    k = st.sides[KAGE]
    ids = ids or ["ii-naomasa", "fukushima-masanori", "kato-yoshiaki", "honda-tadakatsu",
                  "hosokawa-tadaoki", "todo-takatora"][:n]  # fmt: skip
    n = len(ids)
    cards = [card_index(st, i) for i in ids]
    k.sdeck = [c for c in k.sdeck + k.sline if c not in cards]
    k.sline = cards
    k.sbowed = [False] * n


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def test_solo_setup(game: Sashimono) -> None:
    st = solo(game, 3)
    assert st.num_players == 1 and st.current_player == 0
    k = st.sides[KAGE]
    assert k.army == "east" and st.sides[0].army == "west"
    assert k.cells == ["T^", "K^", "N^"]  # one face-up Kumi of each type (spec)
    assert len(k.deck) == 15 and sorted(k.deck) == sorted("TTTTTKKKKKNNNNN")
    assert len(k.sline) == 3 and len(k.sdeck) == 13 and k.marker is not None
    assert k.army_pos == 0  # the Army starts at position 1, above the left column
    st2 = solo(game, 3, challenge_discard_five=True)
    assert len(st2.sides[KAGE].deck) == 10 and len(st2.sides[KAGE].discard) == 5
    # the player is West: the player takes the first turn
    at_turn(st, 0)
    assert st.prompt["op"] == "turn"
    # as East, the Kagemusha (West) plays first, inside the setup
    st3 = solo(game, 3, army="east")
    events = play(game, st3, "bottom L1", "bottom L1")
    assert "The Kagemusha's turn." in messages(events)
    assert st3.sides[KAGE].army == "west"


def test_cannot_play_on_the_army(game: Sashimono) -> None:
    st = solo(game, 1)
    at_turn(st, 0)
    play(game, st, "action")
    play(game, st, str(st.legal_actions()[0]))
    names = [str(a) for a in st.legal_actions()]
    assert "slot top-a" not in names and len(names) == 11


def test_kagemusha_turn_order_of_actions(game: Sashimono) -> None:
    st = solo(game, 2)
    at_turn(st, 0)
    k, me = st.sides[KAGE], st.sides[0]
    k.cells = ["T^", "K^", "N^"]
    k.deck = ["K", "T", "N", "N", "T"]
    me.hand = []
    me.cells = ["N^", "N^", "N^", "N^", "N^", "N^", "N^", "N^", "N^"]
    events = kage_turn(st, answer=False)
    # Teppo: battle the nearest column to the Army (position 1: column a)
    battles = [e for e in events if e["type"] == "battle"]
    assert battles[0]["defence_line"] == "cola"
    # the Kagemusha's attack: T 2 + K 2 + N 0 = 4 vs defence 6: it loses by 2 -> you choose
    assert st.current_player == 0 and st.prompt["op"] == "casualty"
    assert [str(a) for a in st.legal_actions()] == [
        "casualty enemy k1", "casualty enemy k2", "casualty enemy k3"
    ]  # fmt: skip
    events = play(game, st, "casualty enemy k3")
    assert k.discard == ["N"]  # Kagemusha casualties are discarded for good
    # Kiba: place the top Kumi; Nagae: none left; then draw and check, then move
    t = types(events)
    assert t.index("kage_draw") < t.index("kage_move")
    assert k.cells[:2] == ["T^", "K^"] and k.cells[2] == "K^"
    assert k.army_pos == 1
    assert st.current_player == 0 and st.prompt["op"] == "turn"


def test_kagemusha_wins_a_battle_and_chooses_closest_to_the_army(game: Sashimono) -> None:
    st = solo(game, 2)
    at_turn(st, 0)
    k, me = st.sides[KAGE], st.sides[0]
    k.cells = ["T^", "T^", "K^"]  # attack 6
    k.deck = ["K", "K", "K", "N"]
    me.hand = []
    me.cells = ["T^", "T^", "T^", "T^", "T^", "T^", "T^", "T^", "T^"]  # defence 0
    kage_turn(st)
    # it won by 6 in column a: it takes the Kumi closest to its Army (position 1, above a1)
    assert me.cells[0] is None and me.deck[-1] == "T"


def test_your_casualty_when_beaten_by_one(game: Sashimono) -> None:
    st = solo(game, 2)
    at_turn(st, 0)
    k, me = st.sides[KAGE], st.sides[0]
    k.cells = ["T^", "N^", "N^"]  # attack 2; then two row battles
    k.deck = ["N", "N", "N", "N", "N", "N"]
    me.hand = []
    me.cells = ["Tv", "T^", "T^", "T^", "T^", "T^", "T^", "T^", "T^"]  # column a: 1 + 0 + 0
    kage_turn(st, answer=False)
    # beaten by 1: you choose your casualty (you may first flip your Hidden Kumi: no ante hand)
    assert st.prompt["op"] == "ante"
    play(game, st, "ante done")
    assert st.prompt["op"] == "casualty"
    play(game, st, "casualty a2")
    assert me.cells[3] is None


def test_army_moves_clockwise_skipping_your_sashimono(game: Sashimono) -> None:
    st = solo(game, 4)
    at_turn(st, 0)
    k, me = st.sides[KAGE], st.sides[0]
    k.cells = []
    k.deck = ["T", "K", "N", "T", "K", "N"]
    me.slots[slot("top-b")] = card_index(st, "shima-sakon")
    me.slots[slot("top-c")] = card_index(st, "ukita-hideie")
    events = kage_turn(st)
    assert k.army_pos == slot("right-1")  # position 4: positions 2 and 3 were occupied
    assert any("position 4" in m for m in messages(events))
    # the Kagemusha's nearest row/column follow the Army
    assert st.nearest_line("column") == 5 and st.nearest_line("row") == 0
    k.army_pos = slot("bottom-a")  # position 9: below the left column
    assert st.nearest_line("column") == 3 and st.nearest_line("row") == 2
    k.army_pos = slot("left-2")  # position 11
    assert st.nearest_line("column") == 3 and st.nearest_line("row") == 1


def test_draw_and_check_matching_kumi(game: Sashimono) -> None:
    st = solo(game, 5)
    at_turn(st, 0)
    k = st.sides[KAGE]
    k.cells = []
    k.deck = ["K", "K", "K", "T", "T"]
    quiet_traps(st, 1)
    sdeck = list(k.sdeck)
    kage_turn(st)
    # draws one, then up to 3 in line: K K K -> 3 matching: the leftmost discarded, 2 remain,
    # and a Sashimono drawn for it
    assert [c for c in k.cells if "K" in c] == ["K^", "K^"]
    assert k.discard == ["K"] and k.sline[-1] == sdeck[0]


def test_check_sashimono_limit_draws_kumi(game: Sashimono) -> None:
    st = solo(game, 5)
    at_turn(st, 0)
    k = st.sides[KAGE]
    k.cells = []
    k.deck = ["T", "K", "N", "T", "K", "N", "T"]
    quiet_traps(st)
    extra = [k.sdeck.pop(0), k.sdeck.pop(0)]
    first = k.sline[0]
    k.sline += extra
    k.sbowed += [False, False]
    kage_turn(st)
    # 5 Sashimono: discard the leftmost until 3 remain, and draw a Kumi for each
    assert len(k.sline) == 3 and first not in k.sline and k.sdeck[-2] == first
    assert len(k.cells) == 3 + 2


def test_kagemusha_wins_by_vp(game: Sashimono) -> None:
    st = solo(game, 6, vp=2)
    at_turn(st, 0)
    k = st.sides[KAGE]
    k.vp = 1
    # a trap: Otani Yoshitsugu bows when YOUR Sonae has 4 Hidden Kumi
    trap = give_sashimono(st, 0, "otani-yoshitsugu")
    st.sides[0].shand.remove(trap)
    k.sline[0] = trap
    st.sides[0].cells = ["Tv", "Kv", "Nv", "Tv", "T^", "K^", "K^", "N^", "N^"]
    events = kage_turn(st)
    assert any("scores Otani Yoshitsugu" in m for m in messages(events))
    out = st.outcome()
    assert out is not None and out.reason == "kagemusha_vp" and out.winners == ()
    assert out.returns == (-1.0,)


def test_kagemusha_wins_when_its_deck_runs_out(game: Sashimono) -> None:
    st = solo(game, 6)
    at_turn(st, 0)
    k = st.sides[KAGE]
    k.cells = ["N^"]
    k.deck = []
    kage_turn(st)
    out = st.outcome()
    assert out is not None and out.reason == "kagemusha_deck" and st.legal_actions() == []


def test_you_win_at_the_target(game: Sashimono) -> None:
    st = solo(game, 7, vp=1)
    at_turn(st, 0)
    me = st.sides[0]
    c = give_sashimono(st, 0, "shima-sakon")
    me.shand.remove(c)
    me.slots[slot("right-1")] = c
    me.cells = ["T^", "T^", "T^", "T^", "K^", "N^", "K^", "N^", "K^"]
    at_turn(st, 0)
    play(game, st, "score")
    out = st.outcome()
    assert out is not None and out.winners == (0,) and out.scores == (1.0,)


# ---------------------------------------------------------------- the six challenges


def test_challenge_corners(game: Sashimono) -> None:
    st = solo(game, 8, challenge_corners=True)
    at_turn(st, 0)
    k = st.sides[KAGE]
    k.cells, k.deck = [], ["T", "K", "N", "T"]
    k.army_pos = slot("right-3")  # position 6: the next move rounds the bottom right corner
    top = k.sdeck[0]
    kage_turn(st)
    assert k.army_pos == slot("bottom-c") and top in k.sline
    st2 = solo(game, 8)
    at_turn(st2, 0)
    k2 = st2.sides[KAGE]
    k2.cells, k2.deck = [], ["T", "K", "N", "T"]
    k2.army_pos = slot("right-3")
    top2 = k2.sdeck[0]
    kage_turn(st2)
    assert top2 not in k2.sline


def test_challenge_six_sashimono(game: Sashimono) -> None:
    st = solo(game, 9, challenge_six_sashimono=True)
    at_turn(st, 0)
    k = st.sides[KAGE]
    quiet_traps(st, 6)
    first = k.sline[0]
    k.cells = ["K^", "K^"]
    k.deck = ["K", "T", "N", "T"]
    kage_turn(st)
    # the check discards a Kiba-Tai and draws a 7th Sashimono: it scores its first instead
    assert k.vp == 1 and k.scored == [first] and len(k.sline) == 6


def test_challenge_abilities(game: Sashimono) -> None:
    st = solo(game, 10, challenge_abilities=True)
    at_turn(st, 0)
    k, me = st.sides[KAGE], st.sides[0]
    ii = give_sashimono(st, 0, "ii-naomasa")  # ongoing: +1 attack
    me.shand.remove(ii)
    k.sline = [ii]
    k.sbowed = [False]
    k.cells = ["T^"]
    k.deck = ["N", "N", "T", "K"]
    me.hand = []
    me.cells = ["N^", "T^", "T^", "T^", "T^", "T^", "T^", "T^", "T^"]  # column a: 2
    kage_turn(st, answer=False)
    # attack 2 + 1 (the ongoing effect) beats defence 2 by 1: you choose your casualty
    assert st.prompt["op"] == "casualty" and st.current_player == 0
    st2 = solo(game, 10)
    at_turn(st2, 0)
    k2, me2 = st2.sides[KAGE], st2.sides[0]
    k2.sline, k2.sbowed, k2.cells = [ii], [False], ["T^"]
    k2.deck = ["N", "N", "T", "K"]
    me2.hand = []
    me2.cells = list(me.cells)
    events = kage_turn(st2, answer=False)
    # basic mode: the abilities are blank: attack 2 against defence 2
    result = [e for e in events if e["type"] == "battle_result"]
    assert (result[0]["attack"], result[0]["defence"]) == (2, 2)


def test_challenge_fewer_kumi(game: Sashimono) -> None:
    st = solo(game, 11, challenge_fewer_kumi=True)
    at_turn(st, 0)
    me = st.sides[0]
    hand = len(me.hand)
    play(game, st, "score", "no bonus")
    assert len(me.hand) == hand  # K + 1 - 1 with a full Sonae: none


def test_challenge_train(game: Sashimono) -> None:
    st = solo(game, 12, challenge_train=True)
    at_turn(st, 0)
    k = st.sides[KAGE]
    quiet_traps(st, ids=["ii-naomasa", "kato-yoshiaki", "hosokawa-tadaoki"])
    k.cells = ["T^", "T^", "N^"]  # attack 4: it wins its battles against your Teppo-Gumi
    k.deck = ["T", "K", "K", "N"]
    st.sides[0].hand = []
    st.sides[0].cells = ["T^"] * 9
    kage_turn(st)
    # 3 Teppo-Gumi at the check: the leftmost goes onto the rightmost legal Kumi as training
    # [T T N] + drawn T: the leftmost T trains the Nagae-Gumi; the Sashimono it draws makes 4
    # in its line, so one is discarded at step 4 and a Kumi (K) drawn for it
    assert k.cells == ["T^", "NT^", "T^", "K^"]
    assert k.discard == []


def test_kagemusha_breaks_ties_towards_its_next_position(game: Sashimono) -> None:
    # rulebook: "they will choose a legal target closest to the Kagemusha's Army. If there is
    # ambiguity, they will choose a legal target nearest to where they will move to next."
    st = solo(game, 13)
    at_turn(st, 0)
    k, me = st.sides[KAGE], st.sides[0]
    quiet_traps(st, ids=["ii-naomasa", "kato-yoshiaki", "hosokawa-tadaoki"])
    k.army_pos = slot("right-2")  # beside row 2: c1 and c3 are equally close, c2 is empty
    k.cells = ["T^"]  # one Teppo-Gumi: one battle against the nearest column (c)
    k.deck = ["K", "N", "T", "K"]
    me.hand = []
    me.cells = ["T^", "T^", "T^", "T^", "T^", None, "T^", "T^", "T^"]
    events = kage_turn(st)
    casualties = [e for e in events if e["type"] == "casualty"]
    assert casualties[0]["cell"] == "c3"  # the Army moves next to right-3, beside c3
