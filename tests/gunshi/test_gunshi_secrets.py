"""Hidden information: what a Gunshi seat can tell about the other seat's secrets (issue 15).

A seat may learn nothing from the shape of the game (how many decisions the opponent makes,
the ply count) or from a world built for it by ``determinize`` (its seed).
"""

from __future__ import annotations

import random

import pytest

from sengoku.games.gunshi import GunshiState
from tests.gunshi.helpers import GAME, battle, play


def _to_phase_two(**options: object) -> GunshiState:
    s = GAME.new_state(0, **options)
    while s.phase != "secret":
        s.apply(s.legal_actions()[0])
    return s


def test_determinize_never_carries_the_true_seed() -> None:
    # Modification 1: the seed draws each side's 3 prepared Advanced cards, which nobody sees.
    # A world that kept the true seed would rebuild them with new_state(world.seed).
    true = GAME.new_state(12345, variant="inspiration", modification=1)
    secret = true.inspiration.prepared[1]
    rebuilt = []
    for k in range(20):
        world = true.determinize(0, random.Random(k))
        assert world.seed != true.seed
        again = GAME.new_state(world.seed, variant="inspiration", modification=1)
        rebuilt.append(again.inspiration.prepared[1] == secret)
    assert not all(rebuilt)
    # The world's seed comes from the rng: the same rng gives the same world.
    w1 = true.determinize(0, random.Random(7))
    w2 = true.determinize(0, random.Random(7))
    assert w1.seed == w2.seed and w1.to_json() == w2.to_json()


def test_phase_two_decision_count_does_not_depend_on_the_secret_card_order() -> None:
    # Red keeps Re Re F in hand; the deck is then M M M Rf. Whether Rf goes on top or at the
    # bottom, Blue must see the same views after every decision, "ply" included.
    a = _to_phase_two()
    b = a.clone()
    for s in (a, b):
        play(s, "shogun " + s.legal_actions()[0].arg, "hand Re", "hand Re", "hand F")
    assert a.view(1) == b.view(1)
    orders = (["deck Rf", "deck M", "deck M"], ["deck M", "deck M", "deck M"])
    for ta, tb in zip(*orders, strict=True):
        play(a, ta)
        play(b, tb)
        assert a.view(1) == b.view(1)
    assert a.current_player == b.current_player == 1
    assert [c[0] for c in a.cards.deck[0]] == ["Rf", "M", "M", "M"]
    assert [c[0] for c in b.cards.deck[0]] == ["M", "M", "M", "Rf"]
    # Blue's choices, then Red's first Send New Commands: the same public game in both.
    for _ in range(200):
        if a.phase == "battle" and a.current_player == 1:
            break  # Red's first turn is over
        action = a.legal_actions()[0]
        assert action in b.legal_actions()
        a.apply(action)
        b.apply(action)
        assert a.view(1) == b.view(1)
    assert a.phase == b.phase == "battle"


def test_every_phase_two_ordering_takes_the_same_number_of_decisions() -> None:
    start = _to_phase_two()
    counts = set()
    for k in range(40):
        rng = random.Random(k)
        s = start.clone()
        n = 0
        while s.current_player == 0:
            s.apply(rng.choice(s.legal_actions()))
            n += 1
        counts.add(n)
    # The Shogun, 3 cards for the hand, then the deck order of 4 cards less the forced last.
    assert counts == {1 + 3 + 3}


def test_last_deck_card_is_forced_but_a_run_of_one_kind_is_still_chosen() -> None:
    s = battle(["R I a1 n", "B I a7 s"])  # any position; Phase 2 is set up by hand below
    s.phase, s.step, s.player = "secret", "shogun", 0
    s.cards.hand = [[], s.cards.hand[1]]
    s.cards.deck = [[], s.cards.deck[1]]
    s.cards.stock[0] = [(c, False, False) for c in ("M", "M", "M", "Re", "Re", "F", "Rf")]
    s.forget_legal_actions()
    play(s, "shogun A", "hand Re", "hand Re", "hand F", "deck Rf")
    assert s.current_player == 0 and {str(a) for a in s.legal_actions()} == {"deck M"}
    play(s, "deck M", "deck M")
    assert s.current_player == 1  # the last M went to the deck by itself
    assert [c[0] for c in s.cards.deck[0]] == ["Rf", "M", "M", "M"]


def test_records_of_the_old_phase_two_are_refused_by_version() -> None:
    # Version 1 filled in a run of one kind by itself: its records lack those decisions.
    from sengoku.core.record import GameRecord, InvalidRecord

    record, state = GameRecord.start(GAME, 0)
    while state.phase != "battle":
        record.play(state, state.legal_actions()[0])
    old = GameRecord.from_json({**record.to_json(), "version": 1})
    with pytest.raises(InvalidRecord, match="version 1"):
        old.replay()
    assert GameRecord.from_json(record.to_json()).replay().to_json() == state.to_json()
