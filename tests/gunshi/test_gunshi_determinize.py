"""determinize(seat, rng) resamples exactly what the seat cannot know.

Statistical where needed: over many seeds, every hidden card consistent with what the seat saw
comes out somewhere, and no inconsistent one ever does.
"""

from __future__ import annotations

import random
from collections import Counter

from sengoku.games.gunshi import GunshiState
from sengoku.games.gunshi.data import CARDS, LETTERS, advanced_codes
from tests.gunshi.helpers import battle, play, resolve, unit_at

SEEDS = range(300)
BASIC = ["M", "M", "M", "Re", "Re", "F", "Rf"]


def _codes(cards: list) -> list[str]:  # type: ignore[type-arg]
    return [c[0] for c in cards]


def _all_cards(s: GunshiState, p: int) -> Counter[str]:
    cards = s.hand[p] + s.deck[p] + s.row[p] + ([s.lightning[p]] if s.lightning[p] else [])
    return Counter(_codes(cards)) + Counter(s.removed[p])


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
    s.hand[1] = [("F", True, False), ("M", False, False), ("Re", False, False)]
    s.deck[1] = [
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
        deck_codes.update(_codes(det.deck[1]))
        if "F" in _codes(det.hand[1]):
            where["hand"] += 1
        if det.row[1][0][0] == "F":
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
    s.prepared[0] = ["Rapid", "Scout", "Light"]
    s.unused[0] = [c for c in adv if c not in s.prepared[0]]
    resolve(s)
    play(s, "unit d6", "dir n", "invade", "take Scout", "remove Re")
    assert s.view(1)["players"][0]["prepared"] == [None, None]
    _check_contract(s, 1)
    taken: Counter[str] = Counter()
    removed: Counter[str] = Counter()
    for k in SEEDS:
        det = s.determinize(1, random.Random(k))
        in_play = [c for c in _codes(det.hand[0]) + det.removed[0] if c in adv]
        assert len(in_play) == 1, in_play
        assert sorted(det.prepared[0] + det.unused[0] + in_play) == sorted(adv)
        assert not any(c in adv for c in _codes(det.deck[0]))
        taken[in_play[0]] += 1
        removed[det.removed[0][0]] += 1
        # The helper's cards: hand M Re F, deck M Re M Rf, the resolved M: 8 basic cards.
        basic = Counter(BASIC) + Counter(["M"])
        assert _all_cards(det, 0) == basic + Counter(["Scout"]) - Counter(["Re"]) or (
            _all_cards(det, 0) - Counter(in_play) + Counter(det.removed[0]) - Counter(in_play)
        )
    assert set(taken) == set(adv)
    assert {"M", "Re", "F", "Rf"} | set(adv) == set(removed)


def test_modification_1_nobody_knows_the_prepared_cards_not_even_their_owner() -> None:
    s = battle(["R I a1 n", "B I a7 s"], variant="inspiration", modification=1)
    adv = sorted(advanced_codes(False))
    seen: Counter[str] = Counter()
    for k in range(60):
        det = s.determinize(0, random.Random(k))
        for p in (0, 1):
            assert sorted(det.prepared[p] + det.unused[p]) == adv
        seen.update(det.prepared[0])
    assert set(seen) == set(adv)


def test_secret_deck_keeps_every_seen_card_and_respects_copy_limits() -> None:
    # Optional Rule 3: Red knows only Blue's step 2 Move, the copy limits and the cards it
    # has seen. A seen Rapid-Move mixed back into Blue's hand stays among the hand and the
    # new row card; no card exceeds one colour's copies; every other card can come out.
    s = battle(["R I a1 n", "B I a7 s"], to_act=1, variant="custom", custom_selection="secret")
    s.hand[1] = [("Rapid", True, False), ("Scout", False, False), ("Re", False, False)]
    s.deck[1] = [
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
        assert "Rapid" in _codes(det.hand[1]) + _codes(det.row[1])
        assert "Rapid" not in _codes(det.deck[1])
        seen.update(_codes(det.deck[1]))
    assert set(seen) == pool - {"Rapid"}


def test_face_down_row_card_sent_before_a_known_draw_cannot_be_that_card() -> None:
    # Blue sends a card face down, then draws a known Reinforce (seen resolving) and sends
    # another face down: the first row card came from the earlier hand, so it is never that
    # Reinforce; the second one may be.
    s = battle(["R I a1 n", "B I a7 s"], to_act=1, points=(18, 18))
    s.hand[1] = [("M", False, False), ("Re", False, False), ("F", False, False)]
    s.deck[1] = [("Rf", True, False), ("M", False, False), ("Re", False, False)]
    s.row[1] = []
    s.reset_knowledge(1)
    play(s, "send M", "end")  # face down; draws the known Reinforce
    assert s.view(0)["players"][1]["hand"] == [None, None, "Rf"]
    s.player = 1
    s.step = "send"
    s.sent = 0
    play(s, "send Re")  # face up (the alternation continues)
    play(s, "send Rf")  # face down again: the hand is mixed with the known Reinforce
    first: Counter[str] = Counter()
    second: Counter[str] = Counter()
    for k in SEEDS:
        det = s.determinize(0, random.Random(k))
        first[det.row[1][0][0]] += 1
        second[det.row[1][2][0]] += 1
        assert Counter(_codes(det.deck[1])) + Counter(_codes(det.hand[1])) + Counter(
            _codes(det.row[1])
        ) == Counter(["M", "Re", "F", "Rf", "M", "Re"])
    assert "Rf" not in first and set(first) == {"M", "Re", "F"}
    assert "Rf" in second


def test_revealed_card_is_traced_back_through_a_mixed_hand() -> None:
    # After the mixing above, the first face-down card resolves as Build Fence: it is gone
    # from what Blue may hold, and the rest still respects where each card could be.
    s = battle(["R I a1 n", "B I a7 s"], to_act=1)
    s.hand[1] = [("M", False, False), ("Re", False, False), ("F", False, False)]
    s.deck[1] = [("Rf", True, False), ("M", False, False)]
    s.reset_knowledge(1)
    play(s, "send F", "end")  # Blue: face down, draws the known Reinforce
    play(s, "send M", "end")  # Red
    resolve(s)  # Blue's turn: the face-down card resolves (Build Fence: no Infantry room)
    for k in SEEDS:
        det = s.determinize(0, random.Random(k))
        hidden = Counter(_codes(det.hand[1]) + _codes(det.deck[1]))
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
    b.shogun[1] = a.candidates[1][1]
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
    s.candidates[1].remove(LETTERS.index(cavalry))  # as if placed later by a Reinforce
    shoguns: Counter[str] = Counter()
    for k in SEEDS:
        shoguns[LETTERS[s.determinize(0, random.Random(k)).shogun[1]]] += 1
    assert asked not in shoguns and cavalry not in shoguns
    assert set(shoguns) == {LETTERS[u] for u in s.candidates[1]} and len(shoguns) == 2
