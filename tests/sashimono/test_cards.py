"""The card language: validation errors, the condition functions, and every card of our set
in play (each action performed, its condition both true and false)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from sengoku.games.sashimono import Sashimono
from sengoku.games.sashimono.cards import CardError, card_set, load_cards, register_card_file
from sengoku.games.sashimono.state import SashimonoState

from .conftest import at_turn, give_sashimono, play, slot

GOOD = """
[[card]]
id = "test-card"
name = "Test Card"
army = "west"
score = "count(own, type='T') >= 2 and hand(own) >= 5"
action = [
  { name = "Gennin", requires = ["gunbai"], effect = [{ op = "draw" }] },
  { name = "Hoshi", requires = ["TT"], effect = [{ op = "battle", attack = 1 }] },
]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('op = "draw"', 'op = "teleport"', "card 'test-card'.*unknown op 'teleport'"),
        ('["TT"]', '["TTT"]', r"field 'requires': unknown icon 'TTT'"),
        ('army = "west"', 'army = "north"', "field 'army' must be one of west, east, dual"),
        ("count(own, type='T') >= 2", "cnt(own) > 1", "field 'score': unknown function 'cnt'"),
        ("count(own, type='T') >= 2", "count(own, type='X') > 1", r"count\(type='X'\)"),
        ("count(own, type='T') >= 2", "count(mine) > 1", "takes 'own' or 'enemy'"),
        ("count(own, type='T') >= 2", "count(own) >>", "field 'score': not an expression"),
        ("count(own, type='T') >= 2", "__import__('os')", "unknown function '__import__'"),
        ('name = "Test Card"', "", "field 'name' must be a non-empty string"),
        ('{ op = "draw" }', '{ op = "flip", side = "enemy", where = "line" }', "use side='own'"),
        ('{ op = "draw" }', '{ op = "draw", colour = "red" }', "has no parameter 'colour'"),
        ('{ op = "draw" }', '{ op = "draw", count = 9 }', "'count' must be an integer"),
        ('{ op = "draw" }', '{ op = "choose", options = [] }', "'choose' needs 'options'"),
        ('name = "Hoshi"', 'name = "Utsu"', "different from the reference card's"),
        ('id = "test-card"', 'id = "test card!"', "field 'id' must be letters"),
        ("[[card]]", "[[card]]\nflavour = 1", "unknown field 'flavour'"),
        (
            'army = "west"',
            'army = "west"\nongoing = { modifier = "speed" }',
            "'modifier' must be 'attack' or 'defence'",
        ),
        (
            'army = "west"',
            'army = "west"\nongoing = { trigger = "dawn", effect = [] }',
            "'trigger' must be 'battle_won' or 'casualty'",
        ),
    ],
)
def test_validation_errors_name_file_card_and_field(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(CardError, match=message) as info:
        load_cards([path])
    assert str(path) in str(info.value) or "card 'test-card'" in str(info.value)


def test_invalid_toml_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CardError, match="not valid TOML"):
        load_cards([write(tmp_path, "[[card]\nid=")])
    with pytest.raises(CardError, match="no such card file"):
        load_cards([tmp_path / "nothing.toml"])


def test_duplicate_ids_and_small_decks(tmp_path: Path) -> None:
    with pytest.raises(CardError, match="defined twice"):
        load_cards([write(tmp_path, GOOD + GOOD)])
    with pytest.raises(CardError, match="the west deck needs at least 8"):
        load_cards([write(tmp_path, GOOD)])


def test_our_set_shape() -> None:
    cs = card_set()
    assert len(cs.cards) == 34
    west, east = cs.deck("west"), cs.deck("east")
    assert len(west) == 17 and len(east) == 17
    duals = [cs.cards[i].id for i in west if cs.cards[i].army == "dual"]
    assert sorted(duals) == sorted(
        ["kobayakawa-hideaki", "wakisaka-yasuharu", "kutsuki-mototsuna", "ogawa-suketada",
         "akaza-naoyasu"]
    )  # fmt: skip
    icons = {i for c in cs.cards for a in c.actions for i in a.requires}
    assert icons == {"T", "K", "N", "TT", "KK", "NN", "TKN", "hidden", "gunbai"}
    assert {i for a in cs.reference for i in a.requires} == {"pair"}
    ops = {e["op"] for c in cs.cards for a in c.actions for e in a.effect}
    assert ops == {
        "flip", "draw", "look", "battle", "train", "rearrange", "swap", "return", "discard",
        "play_kumi", "bury", "peek", "choose",
    }  # fmt: skip
    for c in cs.cards:
        assert 2 <= len(c.actions) <= 3, c.id
    assert sum(1 for c in cs.cards if c.ongoing) >= 4


def test_a_users_card_file_plays(tmp_path: Path) -> None:
    cards = []
    for army in ("west", "east"):
        for n in range(8):
            cards.append(
                GOOD.replace("test-card", f"{army}-{n}").replace(
                    'army = "west"', f'army = "{army}"'
                )
            )
    path = write(tmp_path, "\n".join(cards))
    game = Sashimono()
    name = register_card_file(path)
    st = game.new_state(1, cards=name)
    rng = random.Random(1)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    with pytest.raises(CardError, match="no such card file"):
        register_card_file(tmp_path / "missing.toml")


# ---------------------------------------------------------------- condition functions


def _cond(src: str) -> Any:
    from sengoku.games.sashimono.cards import compile_condition

    return compile_condition(src, "test")


def test_condition_functions(game: Sashimono) -> None:
    st = game.new_state(0)
    assert isinstance(st, SashimonoState)
    w, e = st.sides[0], st.sides[1]
    w.cells = ["T^", "Kv", "N^", "TN^", "T^", "K^", None, "N^", "TKNv"]
    e.cells = ["T^", "Kv", "N^", "Nv", "T^", "K^", "K^", "N^", "Tv"]
    w.hand, e.hand = ["T", "K"], ["N"]
    cases = {
        "count(own)": 8,
        "count(own, face='hidden')": 2,
        "count(own, type='T')": 3,  # a stack counts for each type it shows
        "count(own, type='teppo', face='up')": 3,
        "count(own, min_rank=2)": 2,
        "count(own, rank=3)": 1,
        "count(own, line='row2')": 3,
        "count(own, line='cola')": 2,
        "count(own, position='corner')": 3,
        "count(own, position='edge')": 4,
        "count(own, position='center')": 1,
        "count(own, position='c3')": 1,
        "power(own)": 2 + 1 + 0 + 2 + 2 + 2 + 0 + 3,
        "power(own, stat='defence', line='row2')": 2 + 0 + 2,
        "lines(own, distinct=3)": 1,  # row 2: T+N, T, K
        "lines(own, axis='column', type='T', at_least=2)": 1,  # column a: T, T+N
        "lines(own, type='N', at_least=2)": 2,  # row 1 and column c? (N^, K^...) see below
        "types(own)": 3,
        "types(own, line='row1')": 2,
        "hand(own)": 2,
        "hand(enemy)": 1,
        "empty(own)": 1,
        "vp(own)": 0,
        "count(enemy, face='hidden')": 3,
        "count(own) - count(enemy) + 2 * 3": 8 - 9 + 6,
        "min(hand(own), 5) + max(1, 2) + abs(0 - 3)": 2 + 2 + 3,
    }
    # lines with at least 2 Nagae icons: row 1 (N only once)... computed by hand:
    # row1 T,Kv,N -> 1; row2 TN,T,K -> 1; row3 -,N,TKNv -> 1 (hidden: no type);
    # cola T,TN,- -> 1; colb Kv,T,N -> 1; colc N,K,TKNv -> 1  => 0 lines
    cases["lines(own, type='N', at_least=2)"] = 0
    for src, want in cases.items():
        assert _cond(src)(st, 0, 1) == want, src
    assert _cond("count(own) >= 8 and not count(enemy) < 9")(st, 0, 1) is True
    assert _cond("any(count(own) > 10, hand(own) == 2)")(st, 0, 1) is True
    assert _cond("all(count(own) > 10, hand(own) == 2)")(st, 0, 1) is False
    assert _cond("1 < hand(own) <= 2")(st, 0, 1) is True


def test_condition_sashimono_counts_defectors_as_both_armies(game: Sashimono) -> None:
    st = game.new_state(0)
    assert isinstance(st, SashimonoState)
    w = st.sides[0]
    w.slots[0] = st.cs.index["kobayakawa-hideaki"]
    w.slots[1] = st.cs.index["ogawa-suketada"]
    w.slots[2] = st.cs.index["ishida-mitsunari"]
    assert _cond("sashimono(own, army='east')")(st, 0, 1) == 2
    assert _cond("sashimono(own, army='west')")(st, 0, 1) == 3
    st._rebow()
    assert w.bowed[0]  # Kobayakawa Hideaki: 2 that can serve the East


# ---------------------------------------------------------------- every card in play

EXPECT = {
    "flip": "flip", "draw": "draw", "look": "keep", "battle": "battle_result", "train": "train",
    "rearrange": "rearrange", "swap": "swap", "return": "return", "discard": "discard",
    "play_kumi": "place", "bury": "bury", "peek": "peek", "choose": "choose",
}  # fmt: skip
CARDS = [c.id for c in card_set().cards]


def _scenario(game: Sashimono, card_id: str) -> tuple[SashimonoState, int]:
    st = game.new_state(2)
    assert isinstance(st, SashimonoState)
    card = st.cs.cards[st.cs.index[card_id]]
    seat = 0 if card.army in ("west", "dual") else 1
    at_turn(st, seat)
    me, foe = st.sides[seat], st.sides[1 - seat]
    # row 2 supplies every requirement: T, K, N twice each, all three types, a Hidden Kumi
    me.cells = ["T^", "Kv", "N^", "TKN^", "TKN^", "KTv", None, "N^", "K^"]
    me.hand = ["T", "K", "N", "T"]
    other = "shima-sakon" if card_id != "shima-sakon" else "ii-naomasa"
    give_sashimono(st, seat, card_id)
    give_sashimono(st, seat, other)
    foe.hand = ["T", "N"]
    at_turn(st, seat)
    play(game, st, "action", f"play {card_id}", "slot right-2")
    return st, seat


def _finish_action(game: Sashimono, st: SashimonoState, seat: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for _ in range(40):
        if st.is_terminal() or (st.current_player == seat and st.prompt["op"] == "do"):
            break
        if st.prompt["op"] == "turn" or (st.prompt["op"] == "place" and st.prompt["n"] < 0):
            break
        if st.turn_order.seat != seat:
            break
        names = [str(a) for a in st.legal_actions()]
        pick = "ante done" if "ante done" in names else names[0]
        events += st.apply(st.legal_actions()[names.index(pick)])
    return events


@pytest.mark.parametrize("card_id", CARDS)
def test_every_card_action_in_play(game: Sashimono, card_id: str) -> None:
    st, seat = _scenario(game, card_id)
    card = st.cs.cards[st.cs.index[card_id]]
    offered = [str(a) for a in st.legal_actions()]
    for action in card.actions:
        assert f"do {action.name}" in offered, (card_id, action.name, offered)
        trial = st.clone()
        events = play(game, trial, f"do {action.name}")
        events += _finish_action(game, trial, seat)
        kinds = {e["type"] for e in events}
        assert "action" in kinds
        first = action.effect[0]["op"]
        assert EXPECT[first] in kinds or "no_effect" in kinds, (card_id, action.name, kinds)
        assert action.name not in [
            str(a)[3:] for a in trial.legal_actions() if str(a).startswith("do ")
        ]


def _random_position(st: SashimonoState, rng: random.Random) -> None:
    for seat in (0, 1):
        s = st.sides[seat]
        cells: list[str | None] = []
        for _ in range(9):
            roll = rng.random()
            if roll < 0.1:
                cells.append(None)
                continue
            r = 1 if roll < 0.7 else (2 if roll < 0.9 else 3)
            kinds = "".join(rng.sample("TKN", r))
            cells.append(kinds + ("^" if rng.random() < 0.65 else "v"))
        s.cells = cells
        s.hand = [rng.choice("TKN") for _ in range(rng.randrange(10))]
        pool = st.cs.deck(s.army)
        rng.shuffle(pool)
        s.shand = pool[: rng.randrange(6)]
        s.slots = [None] * 12
        for p, c in enumerate(pool[6 : 6 + rng.randrange(5)]):
            s.slots[p] = c
        s.vp = rng.randrange(3)


def test_every_condition_can_be_true_and_false(game: Sashimono) -> None:
    st = game.new_state(0)
    assert isinstance(st, SashimonoState)
    rng = random.Random(5)
    seen: dict[str, set[bool]] = {c.id: set() for c in st.cs.cards}
    for _ in range(600):
        _random_position(st, rng)
        for c in st.cs.cards:
            seen[c.id].add(bool(c.score(st, 0, 1)))
    missing = {cid: v for cid, v in seen.items() if v != {True, False}}
    assert not missing


def test_named_conditions_true_and_false(game: Sashimono) -> None:
    st = game.new_state(0)
    assert isinstance(st, SashimonoState)
    w = st.sides[0]
    card = st.cs.cards[st.cs.index["ishida-mitsunari"]]
    w.cells = ["T^", "K^", "N^", "T^", "K^", "N^", "T^", "K^", "N^"]
    assert card.score(st, 0, 1)  # every row shows all three types
    w.cells[1] = "Kv"
    assert card.score(st, 0, 1)  # rows 2 and 3 still do
    w.cells[4] = "Kv"
    assert not card.score(st, 0, 1)  # row 2 lost its Kiba-Tai icon to a flip
    ogawa = st.cs.cards[st.cs.index["ogawa-suketada"]]
    w.cells = ["T^"] * 9
    assert ogawa.score(st, 0, 1)
    w.cells[8] = "Tv"
    assert ogawa.score(st, 0, 1)  # one Hidden Kumi is allowed
    w.cells[7] = "Tv"
    assert not ogawa.score(st, 0, 1)
    w.cells[7] = None
    assert ogawa.score(st, 0, 1)
    w.cells[6] = None
    assert not ogawa.score(st, 0, 1)  # and 8 Kumi are needed
    akaza = st.cs.cards[st.cs.index["akaza-naoyasu"]]
    w.cells[0:3] = ["T^", "K^", "T^"]
    assert akaza.score(st, 0, 1)
    w.cells[2] = "N^"
    assert not akaza.score(st, 0, 1)


# ---------------------------------------------------------------- ongoing effects


def test_ongoing_defence_modifier_and_triggers(game: Sashimono) -> None:
    st = game.new_state(4)
    assert isinstance(st, SashimonoState)
    at_turn(st, 1)
    east, west = st.sides[1], st.sides[0]
    give_sashimono(st, 1, "ii-naomasa")  # Hoshi: KK -> battle +1; ongoing: +1 attack, line
    # West: Otani Yoshitsugu at right-1 (row 1): +1 defence there; Shimazu: draw on a win
    for cid, where in (("otani-yoshitsugu", "right-1"), ("shimazu-yoshihiro", "left-3")):
        c = st.cs.index[cid]
        give_sashimono(st, 0, cid)
        west.shand.remove(c)
        west.slots[slot(where)] = c
    east.cells[0:3] = ["K^", "K^", "T^"]  # attack 6 (+1 Hoshi, +1 Ii Naomasa) = 8
    west.cells[0:3] = ["N^", "N^", "K^"]  # defence 6 (+1 Otani, row 1) = 7
    east.hand, west.hand = [], []
    at_turn(st, 1)
    play(game, st, "action", "play ii-naomasa", "slot right-1", "do Hoshi", "battle row1")
    b = st.battle
    assert b is not None and (b["attack"], b["defence"]) == (8, 7)
    # Terazawa-like casualty trigger: West has none; Shimazu triggers only on a West win
    hand = len(west.hand)
    play(game, st, "casualty a1")
    assert len(west.hand) == hand
    # now West defends a row it wins: Shimazu's trigger draws a Kumi
    st2 = game.new_state(4)
    assert isinstance(st2, SashimonoState)
    at_turn(st2, 1)
    e2, w2 = st2.sides[1], st2.sides[0]
    give_sashimono(st2, 1, "ii-naomasa")
    c = st2.cs.index["shimazu-yoshihiro"]
    give_sashimono(st2, 0, "shimazu-yoshihiro")
    w2.shand.remove(c)
    w2.slots[slot("left-3")] = c
    e2.cells[0:3] = ["K^", "K^", "N^"]  # 4 + 1 + 1 = 6
    w2.cells[6:9] = ["K^", "N^", "NK^"]  # 2 + 2 + 4 = 8
    e2.hand, w2.hand = [], []
    at_turn(st2, 1)
    play(game, st2, "action", "play ii-naomasa", "slot right-1", "do Hoshi")
    play(game, st2, "battle row3")
    assert st2.battle is not None and st2.battle["winner"] == 0 and st2.current_player == 0
    events = play(game, st2, "casualty enemy a1")
    assert any(e["type"] == "trigger" for e in events)
    assert len(w2.hand) == 1  # Shimazu Yoshihiro: win a battle, draw a Kumi


def test_effects_read_in_english() -> None:
    from sengoku.games.sashimono.cards import describe_effect

    cs = card_set()
    for c in cs.cards:
        for a in c.actions:
            assert describe_effect(a.effect)
    akaza = cs.cards[cs.index["akaza-naoyasu"]]
    assert describe_effect(akaza.actions[0].effect) == (
        "battle a column (+1 attack), the defender adds no cards"
    )
    tanaka = cs.cards[cs.index["tanaka-yoshimasa"]]
    assert describe_effect(tanaka.actions[1].effect) == (
        "return an enemy Hidden Kumi to its owner's hand"
    )
