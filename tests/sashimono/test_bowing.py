"""Bowing holds after every decision, mid-look included (issue 42, item 2).

rulebook: "While any Sashimono is face-up in play, when you achieve the score conditions
described on the Sashimono card, Bow that Sashimono"; spec: "Bowing is recomputed after
every change of state, for every Sashimono in play."
"""

from __future__ import annotations

import random

import pytest

from sengoku.games.sashimono import Sashimono, bowing
from sengoku.games.sashimono.decisions import Question
from sengoku.games.sashimono.state import SashimonoState


def bowed(st: SashimonoState) -> list[list[bool]]:
    """Every seat's bowed Sashimono in play, and the Kagemusha's line in solo games."""
    return [list(s.bowed) + list(s.sbowed) for s in st.sides]


def from_scratch(st: SashimonoState) -> list[list[bool]]:
    """The bowing of ``st`` computed anew: every Sashimono upright, then bowed where its
    scoring condition holds."""
    c = st.clone()
    for s in c.sides:
        s.bowed = [False] * len(s.bowed)
        s.sbowed = [False] * len(s.sbowed)
    c.bow_memo.key = None
    bowing.rebow(c)
    return bowed(c)


def test_mori_terumoto_bows_with_eight_kumi_after_the_first_keep() -> None:
    # Duel seed 70198, random choices from random.Random(256): West's Mori Terumoto ("At
    # least 8 Kumi in your hand") is in play when West's Konidatai looks at 3 Kumi and keeps
    # 2. The first Kumi kept makes 8 in hand: Mori Terumoto bows then, before the second.
    game = Sashimono()
    st = game.new_state(70198)
    rng = random.Random(256)
    mori = st.cs.index["mori-terumoto"]
    while not st.is_terminal():
        prompt = st.prompt
        assert prompt is not None
        west = st.sides[0]
        if prompt.kind is Question.KEEP and mori in west.slots and len(west.hand) >= 8:
            break
        st.apply(rng.choice(st.legal_actions()))
    else:
        pytest.fail("the game no longer reaches Mori Terumoto's look; choose the seed anew")
    assert st.decisions == 29  # the ply found by replaying this game
    assert west.bowed[west.slots.index(mori)], "Mori Terumoto with 8 Kumi in hand is bowed"
    assert bowed(st) == from_scratch(st)


@pytest.mark.parametrize("mode", ["duel", "solo"])
def test_bowing_equals_a_recomputation_after_every_decision(mode: str) -> None:
    game = Sashimono()
    looks = 0
    for seed in range(200 if mode == "duel" else 60):  # duel seed 184 looks mid-bowing
        rng = random.Random(seed)
        st = game.new_state(seed, mode=mode)
        while True:
            assert bowed(st) == from_scratch(st), f"seed {seed}, decision {st.decisions}"
            if st.is_terminal():
                break
            prompt = st.prompt
            assert prompt is not None
            looks += prompt.kind is Question.KEEP
            st.apply(rng.choice(st.legal_actions()))
    assert looks  # decisions mid-look were checked too
