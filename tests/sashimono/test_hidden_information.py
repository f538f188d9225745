"""Hidden information: views, events and determinize (the same test as in the other games)."""

from __future__ import annotations

import random

from sengoku.games.sashimono import Sashimono
from sengoku.games.sashimono.state import SashimonoState

PRIVATE_FIELDS = ("cards", "types")


def test_views_events_and_determinize_over_random_states(game: Sashimono) -> None:
    changed_hand = changed_hidden = changed_deck = 0
    for seed in range(30):
        rng = random.Random(seed)
        options = {"mode": "solo"} if seed % 3 == 0 else {}
        st = game.new_state(seed, **options)
        assert isinstance(st, SashimonoState)
        target = rng.randrange(20, 200)
        for _ in range(target):
            if st.is_terminal():
                break
            for ev in st.apply(rng.choice(st.legal_actions())):
                if ev["audience"] is None:
                    # what is only for one seat never goes to everyone
                    assert not any(f in ev for f in PRIVATE_FIELDS), ev
                    if ev["type"] == "place" and "Hidden" in ev["message"]:
                        assert "kumi" not in ev
        if st.is_terminal():
            continue
        for seat in range(st.num_players):
            view = st.view(seat)
            d = st.determinize(seat, random.Random(seed))
            assert d.view(seat) == view
            me, d_me = st.sides[seat], d.sides[seat]
            # what the seat knows stays: its hand, its Hidden Kumi, its Sashimono hand
            assert d_me.hand == me.hand and d_me.cells == me.cells and d_me.shand == me.shand
            assert sorted(d_me.deck) == sorted(me.deck)
            changed_deck += d_me.deck != me.deck
            if st.num_players == 2:
                foe, d_foe = st.sides[1 - seat], d.sides[1 - seat]
                assert view["sides"][1 - seat]["hand"] is None
                assert view["sides"][1 - seat]["sashimono_hand"] is None
                changed_hand += d_foe.hand != foe.hand or d_foe.shand != foe.shand
                changed_hidden += d_foe.cells != foe.cells
                # public parts of the opponent are kept
                for a, b in zip(foe.cells, d_foe.cells, strict=True):
                    assert (a is None) == (b is None)
                    if a is not None:
                        assert a[-1] == b[-1] and len(a) == len(b)
                        if a[-1] == "^":
                            assert a == b
    assert changed_hand > 5 and changed_hidden > 5 and changed_deck > 5


def test_spectator_sees_no_hand(game: Sashimono) -> None:
    st = game.new_state(1)
    view = st.view(None)
    for side in view["sides"]:
        assert side["hand"] is None and side["sashimono_hand"] is None
        for cell in side["sonae"]:
            if cell and cell["face"] == "hidden":
                assert cell["types"] is None
    assert view["looking"]["cards"] is None and view["prompt"]["options"] is None
