"""determinize(seat, rng) resamples exactly what the seat cannot know.

Statistical where needed: over many seeds, every hidden card consistent with what the seat saw
comes out somewhere, and no inconsistent one ever does.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, permutations

import pytest

from sengoku.games.gunshi import GunshiState
from sengoku.games.gunshi.actions import A, GunshiAction
from sengoku.games.gunshi.data import CARDS, LETTERS, advanced_codes
from tests.gunshi.helpers import GAME, battle, play, resolve, unit_at

SEEDS = range(300)
BASIC = ["M", "M", "M", "Re", "Re", "F", "Rf"]


def _codes(cards: list) -> list[str]:  # type: ignore[type-arg]
    return [c[0] for c in cards]


def _all_cards(s: GunshiState, p: int) -> Counter[str]:
    cards = (
        s.cards.hand[p]
        + s.cards.deck[p]
        + s.cards.row[p]
        + ([s.cards.lightning[p]] if s.cards.lightning[p] else [])
    )
    return Counter(_codes(cards)) + Counter(s.inspiration.removed[p])


def _check_contract(s: GunshiState, seat: int) -> None:
    view = s.view(seat)
    for k in range(5):
        det = s.determinize(seat, random.Random(k))
        assert det.view(seat) == view
        assert det.to_json() == s.determinize(seat, random.Random(k)).to_json()


def test_known_card_mixed_into_the_hand_never_lands_in_the_deck() -> None:
    # Blue holds a known Build Fence (seen resolving, drawn back) and sends a card face down:
    # Red no longer knows where the Fence is among Blue's hand and the new row card, but it
    # is certainly not in Blue's deck, whose cards Blue has never shown.
    s = battle(["R I a1 n", "B I a7 s"], to_act=1)
    s.cards.hand[1] = [("F", True, False), ("M", False, False), ("Re", False, False)]
    s.cards.deck[1] = [
        ("M", False, False),
        ("Re", False, False),
        ("M", False, False),
        ("Rf", False, False),
    ]
    s.reset_knowledge(1)
    play(s, "send F")
    assert s.view(0)["players"][1]["hand"] == [None, None]
    _check_contract(s, 0)
    where: Counter[str] = Counter()
    deck_codes: Counter[str] = Counter()
    for k in SEEDS:
        det = s.determinize(0, random.Random(k))
        assert _all_cards(det, 1) == Counter(BASIC)
        deck_codes.update(_codes(det.cards.deck[1]))
        if "F" in _codes(det.cards.hand[1]):
            where["hand"] += 1
        if det.cards.row[1][0][0] == "F":
            where["row"] += 1
    assert deck_codes["F"] == 0
    assert set(deck_codes) == {"M", "Re", "Rf"}
    assert where["hand"] > 0 and where["row"] > 0


def test_inspiration_taken_and_removed_cards_are_resampled_from_the_box() -> None:
    # Modification 2: Red prepared 3 cards Blue never saw, takes one after invading and removes
    # a hand card. For Blue the taken card is any Advanced card (drawn from the same box as
    # the prepared and unused ones, so never twice), the removed card any card of that hand.
    s = battle(
        ["R I d6 n", "R I a1 n", "B I a5 s"],
        row=(("M",), ()),
        shogun=("B", None),
        variant="inspiration",
        modification=2,
    )
    adv = list(advanced_codes(False))
    s.inspiration.prepared[0] = ["Rapid", "Scout", "Light"]
    s.inspiration.unused[0] = [c for c in adv if c not in s.inspiration.prepared[0]]
    resolve(s)
    play(s, "unit d6", "dir n", "invade", "take Scout", "remove Re")
    assert s.view(1)["players"][0]["prepared"] == [None, None]
    _check_contract(s, 1)
    taken: Counter[str] = Counter()
    removed: Counter[str] = Counter()
    for k in SEEDS:
        det = s.determinize(1, random.Random(k))
        in_play = [c for c in _codes(det.cards.hand[0]) + det.inspiration.removed[0] if c in adv]
        assert len(in_play) == 1, in_play
        assert sorted(det.inspiration.prepared[0] + det.inspiration.unused[0] + in_play) == sorted(
            adv
        )
        assert not any(c in adv for c in _codes(det.cards.deck[0]))
        taken[in_play[0]] += 1
        removed[det.inspiration.removed[0][0]] += 1
        # The helper's cards: hand M Re F, deck M Re M Rf, the resolved M: 8 basic cards.
        basic = Counter(BASIC) + Counter(["M"])
        assert _all_cards(det, 0) == basic + Counter(in_play)  # nothing lost, nothing made
    assert set(taken) == set(adv)
    assert {"M", "Re", "F", "Rf"} | set(adv) == set(removed)


def test_modification_1_nobody_knows_the_prepared_cards_not_even_their_owner() -> None:
    s = battle(["R I a1 n", "B I a7 s"], variant="inspiration", modification=1)
    adv = sorted(advanced_codes(False))
    seen: Counter[str] = Counter()
    for k in range(60):
        det = s.determinize(0, random.Random(k))
        for p in (0, 1):
            assert sorted(det.inspiration.prepared[p] + det.inspiration.unused[p]) == adv
        seen.update(det.inspiration.prepared[0])
    assert set(seen) == set(adv)


def test_secret_deck_keeps_every_seen_card_and_respects_copy_limits() -> None:
    # Optional Rule 3: Red knows only Blue's step 2 Move, the copy limits and the cards it
    # has seen. A seen Rapid-Move mixed back into Blue's hand stays among the hand and the
    # new row card; no card exceeds one colour's copies; every other card can come out.
    s = battle(["R I a1 n", "B I a7 s"], to_act=1, variant="custom", custom_selection="secret")
    s.cards.hand[1] = [("Rapid", True, False), ("Scout", False, False), ("Re", False, False)]
    s.cards.deck[1] = [
        ("M", False, False),
        ("Light", False, False),
        ("EnRoute", False, False),
        ("F", False, False),
    ]
    s.reset_knowledge(1)
    play(s, "send Scout")
    _check_contract(s, 0)
    pool = {c for c, spec in CARDS.items() if spec.set != "sanryaku"}
    seen: Counter[str] = Counter()
    for k in SEEDS:
        det = s.determinize(0, random.Random(k))
        cards = _all_cards(det, 1)
        assert sum(cards.values()) == 7 and cards["M"] >= 1
        assert all(n <= CARDS[c].copies for c, n in cards.items()), cards
        assert set(cards) <= pool
        assert "Rapid" in _codes(det.cards.hand[1]) + _codes(det.cards.row[1])
        assert "Rapid" not in _codes(det.cards.deck[1])
        seen.update(_codes(det.cards.deck[1]))
    assert set(seen) == pool - {"Rapid"}


def test_face_down_row_card_sent_before_a_known_draw_cannot_be_that_card() -> None:
    # Blue sends a card face down, then draws a known Reinforce (seen resolving) and sends
    # another face down: the first row card came from the earlier hand, so it is never that
    # Reinforce; the second one may be.
    s = battle(["R I a1 n", "B I a7 s"], to_act=1, points=(18, 18))
    s.cards.hand[1] = [("M", False, False), ("Re", False, False), ("F", False, False)]
    s.cards.deck[1] = [("Rf", True, False), ("M", False, False), ("Re", False, False)]
    s.cards.row[1] = []
    s.reset_knowledge(1)
    play(s, "send M", "end")  # face down; draws the known Reinforce
    assert s.view(0)["players"][1]["hand"] == [None, None, "Rf"]
    s.player = 1
    s.step = "send"
    s.battle.sent = 0
    play(s, "send Re")  # face up (the alternation continues)
    play(s, "send Rf")  # face down again: the hand is mixed with the known Reinforce
    first: Counter[str] = Counter()
    second: Counter[str] = Counter()
    for k in SEEDS:
        det = s.determinize(0, random.Random(k))
        first[det.cards.row[1][0][0]] += 1
        second[det.cards.row[1][2][0]] += 1
        assert Counter(_codes(det.cards.deck[1])) + Counter(_codes(det.cards.hand[1])) + Counter(
            _codes(det.cards.row[1])
        ) == Counter(["M", "Re", "F", "Rf", "M", "Re"])
    assert "Rf" not in first and set(first) == {"M", "Re", "F"}
    assert "Rf" in second


def test_revealed_card_is_traced_back_through_a_mixed_hand() -> None:
    # After the mixing above, the first face-down card resolves as Build Fence: it is gone
    # from what Blue may hold, and the rest still respects where each card could be.
    s = battle(["R I a1 n", "B I a7 s"], to_act=1)
    s.cards.hand[1] = [("M", False, False), ("Re", False, False), ("F", False, False)]
    s.cards.deck[1] = [("Rf", True, False), ("M", False, False)]
    s.reset_knowledge(1)
    play(s, "send F", "end")  # Blue: face down, draws the known Reinforce
    play(s, "send M", "end")  # Red
    resolve(s)  # Blue's turn: the face-down card resolves (Build Fence: no Infantry room)
    for k in SEEDS:
        det = s.determinize(0, random.Random(k))
        hidden = Counter(_codes(det.cards.hand[1]) + _codes(det.cards.deck[1]))
        assert hidden == Counter(["M", "Re", "Rf", "M"]), hidden


def test_equal_views_give_equal_determinizations() -> None:
    # Two games that differ only in what Red cannot see: Blue's Shogun and card places.
    a = battle(["R I a1 n", "B I a7 s", "B A b7 s"], to_act=1, shogun=(None, LETTERS[0]))
    b = battle(
        ["R I a1 n", "B I a7 s", "B A b7 s"],
        to_act=1,
        hand=(("M", "Re", "F"), ("M", "F", "Rf")),
        deck=(("M", "Re", "M", "Rf"), ("Re", "Re", "M", "M")),
    )
    b.shoguns.shogun[1] = a.shoguns.candidates[1][1]
    for s in (a, b):
        play(s, "send M", "send F", "end")
    assert a.view(0) == b.view(0)
    for k in range(20):
        da = a.determinize(0, random.Random(k))
        db = b.determinize(0, random.Random(k))
        assert da.to_json() == db.to_json()


def test_shogun_is_resampled_among_consistent_candidates_only() -> None:
    s = battle(
        ["R I a1 n", "R A c4 n", "B I d5 s", "B A b7 s", "B C f7 s", "B I g7 s"],
        row=(("Scout",), ()),
        points=(18, 18),
        shogun=(None, "C"),
    )
    resolve(s)
    play(s, "ask d5")  # no Blue row card to scout: Scout the Shogun; "No"
    asked = unit_at(s, "d5")["letter"]  # type: ignore[index]
    cavalry = unit_at(s, "f7")["letter"]  # type: ignore[index]
    s.shoguns.candidates[1].remove(LETTERS.index(cavalry))  # as if placed later by a Reinforce
    shoguns: Counter[str] = Counter()
    for k in SEEDS:
        shoguns[LETTERS[s.determinize(0, random.Random(k)).shoguns.shogun[1]]] += 1
    assert asked not in shoguns and cavalry not in shoguns
    assert set(shoguns) == {LETTERS[u] for u in s.shoguns.candidates[1]} and len(shoguns) == 2


# ---------------------------------------------------------------- brute-force reference
# Every world the seat cannot tell apart from the real one is found by replaying the game
# from every arrangement of the opponent's 7 cards and every choice of face-down card, keeping
# those whose views for the seat match the real views at every step. determinize must draw
# exactly from those worlds.

_UNITS = ["R I c2 n", "R A d2 n", "R C e2 n", "R I d3 n", "B I c6 s", "B A d6 s", "B C e6 s"]


def _start(o: int, o_hand: tuple[str, ...], o_deck: tuple[str, ...]) -> GunshiState:
    hand = [("M", "Re", "F"), ("M", "Re", "F")]
    deck = [("M", "Re", "M", "Rf"), ("M", "Re", "M", "Rf")]
    hand[o], deck[o] = o_hand, o_deck
    return battle([*_UNITS, "B I d5 s"], hand=hand, deck=deck)


def _hidden(s: GunshiState, o: int) -> tuple[object, ...]:
    lt = s.cards.lightning[o]
    return (
        tuple(sorted(c[0] for c in s.cards.hand[o] if not c[1])),  # a hand has no order
        tuple(c[0] for c in s.cards.deck[o] if not c[1]),
        tuple(c[0] for c in s.cards.row[o] if not (c[1] or c[2])),
        lt[0] if lt is not None and not (lt[1] or lt[2]) else None,
    )


def _worlds(seed: int, seat: int, plies: int) -> tuple[set[tuple[object, ...]], GunshiState]:
    o = 1 - seat
    rng = random.Random(seed)
    real = _start(o, ("M", "Re", "F"), ("M", "Re", "M", "Rf"))
    actions: list[tuple[int, GunshiAction]] = []
    views = [real.view(seat)]
    while len(actions) < plies and not real.is_terminal():
        a = rng.choice(real.legal_actions())
        actions.append((real.current_player, a))
        real.apply(a)
        views.append(real.view(seat))
    found: set[tuple[object, ...]] = set()

    def replay(s: GunshiState, i: int) -> None:
        if i == len(actions):
            found.add(_hidden(s, o))
            return
        actor, a = actions[i]
        options = [a]
        if actor == o and a.kind == "send" and s.cards.face_down_next[o]:
            options = [A("send", c) for c in sorted({c[0] for c in s.cards.hand[o]})]
        for b in options:
            if b in s.legal_actions():
                t = s.clone()
                t.apply(b)
                if t.view(seat) == views[i + 1]:
                    replay(t, i + 1)

    arrangements = {(tuple(sorted(p[:3])), p[3:]) for p in permutations(BASIC)}
    for hand, deck in sorted(arrangements):
        replay(_start(o, hand, deck), 0)
    return found, real


@pytest.mark.parametrize(("seed", "seat", "plies"), [(77, 0, 14), (91, 1, 22), (3, 0, 40)])
def test_determinize_draws_exactly_the_worlds_the_seat_cannot_rule_out(
    seed: int, seat: int, plies: int
) -> None:
    found, real = _worlds(seed, seat, plies)
    assert _hidden(real, 1 - seat) in found
    drawn = {_hidden(real.determinize(seat, random.Random(k)), 1 - seat) for k in range(1500)}
    assert drawn <= found  # nothing the seat could rule out
    assert found <= drawn  # everything it could not


_INSPIRED = ["R I d6 n", "R I a1 n", "R A c2 n", "R I d2 n", "B I a5 s", "B A d5 s", "B I f6 s"]


def _inspired_start(hand: tuple[str, ...], deck: tuple[str, ...]) -> GunshiState:
    # Red prepared some 3 of its Advanced cards; which ones matters only when Red takes one,
    # so the replay lets Red take any of them and splits the rest afterwards.
    s = battle(
        _INSPIRED,
        row=(("M",), ()),
        shogun=("B", None),
        variant="inspiration",
        modification=2,
        hand=(hand, ("M", "Re", "F")),
        deck=(deck, ("M", "Re", "M", "Rf")),
    )
    s.inspiration.prepared[0] = list(advanced_codes(False))
    s.inspiration.unused[0] = []
    resolve(s)
    return s


def _blue_view(s: GunshiState) -> dict[str, object]:
    view = s.view(1)
    view["players"][0]["prepared"] = None  # the replay's box is split afterwards
    return view


@pytest.mark.parametrize(("seed", "plies"), [(12, 14), (8, 12)])
def test_determinize_after_the_inspiration_matches_brute_force_worlds(
    seed: int, plies: int
) -> None:
    # The Gunshi's Inspiration, Modification 2: Red invades, takes a prepared card and removes
    # one; Blue never sees which. Worlds: every arrangement of Red's 7 cards, every prepared
    # set, every card taken, removed or sent face down that gives Blue the same views.
    rng = random.Random(seed)
    adv = list(advanced_codes(False))
    real = _inspired_start(("M", "Re", "F"), ("M", "Re", "M", "Rf"))
    real.inspiration.prepared[0], real.inspiration.unused[0] = (
        ["Rapid", "Scout", "Light"],
        ["Review", "Crossbow", "EnRoute"],
    )
    script = [A("unit", "d6"), A("dir", "n"), A("invade")]
    actions: list[tuple[int, GunshiAction]] = []
    views = [_blue_view(real)]
    while len(actions) < plies and not real.is_terminal():
        a = script.pop(0) if script else rng.choice(real.legal_actions())
        actions.append((real.current_player, a))
        real.apply(a)
        views.append(_blue_view(real))
    assert real.inspiration.swap_done[0]

    def full(s: GunshiState) -> tuple[object, ...]:
        return (*_hidden(s, 0), tuple(s.inspiration.removed[0]))

    found: set[tuple[object, ...]] = set()

    def replay(s: GunshiState, i: int) -> None:
        if i == len(actions):
            rest = sorted(s.inspiration.prepared[0])  # the 5 not taken: any 2 were prepared
            for prep in combinations(rest, len(real.inspiration.prepared[0])):
                unused = tuple(sorted(set(rest) - set(prep)))
                found.add((*full(s), tuple(sorted(prep)), unused))
            return
        actor, a = actions[i]
        options = [a]
        hidden_kind = a.kind in ("take", "remove") or (
            a.kind == "send" and s.cards.face_down_next[0]
        )
        if actor == 0 and hidden_kind:
            options = sorted({b for b in s.legal_actions() if b.kind == a.kind}, key=str)
        for b in options:
            if b in s.legal_actions():
                t = s.clone()
                t.apply(b)
                if _blue_view(t) == views[i + 1]:
                    replay(t, i + 1)

    for hand, deck in sorted({(tuple(sorted(p[:3])), p[3:]) for p in permutations(BASIC)}):
        replay(_inspired_start(hand, deck), 0)
    truth = (
        *full(real),
        tuple(sorted(real.inspiration.prepared[0])),
        tuple(sorted(real.inspiration.unused[0])),
    )
    assert truth in found
    drawn = set()
    for k in range(1500):
        det = real.determinize(1, random.Random(k))
        cards = [
            c[0] for c in det.cards.hand[0] + det.cards.row[0] + det.cards.deck[0]
        ] + det.inspiration.removed[0]
        cards += [c[0] for c in (det.cards.lightning[0], det.battle.cur) if c is not None]
        in_play = [c for c in cards if c in adv]
        assert sorted(det.inspiration.prepared[0] + det.inspiration.unused[0] + in_play) == sorted(
            adv
        )
        drawn.add(
            (
                *full(det),
                tuple(sorted(det.inspiration.prepared[0])),
                tuple(sorted(det.inspiration.unused[0])),
            )
        )
    assert drawn <= found  # nothing Blue could rule out
    missing = {w[:5] for w in found} - {w[:5] for w in drawn}
    assert not missing, (len(found), len({w[:5] for w in found}), sorted(missing)[:4])


def test_states_saved_without_knowledge_load_with_it() -> None:
    s = battle(["R I a1 n", "B I a7 s"])
    data = s.to_json()
    for key in ("bags", "next_bag", "removed_bag", "box_bag"):
        del data[key]
    data["hand"] = [[list(c[:3]) for c in z] for z in data["hand"]]
    data["deck"] = [[list(c[:3]) for c in z] for z in data["deck"]]
    loaded = GAME.state_from_json(data)
    assert loaded.view(0) == s.view(0)
    det = loaded.determinize(0, random.Random(1))
    assert det.view(0) == s.view(0)
    assert any(
        [c[0] for c in loaded.determinize(0, random.Random(k)).cards.deck[1]]
        != _codes(s.cards.deck[1])
        for k in range(10)
    )
