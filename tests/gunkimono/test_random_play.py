"""Random-play invariants of Gunkimono for 2-5 players (hundreds of games; thousands with
SENGOKU_SOAK=1).

Checked along every game: tiles conserved (after every kind of decision, and in determinized
states), the rule checks that explain refusals agree with the legal list, draws are told
only to the drawer, the outcome's scores are the final scores. The invariants every game
keeps (JSON and record round trips, refused actions, clones, views, determinize) are checked
by the contract suite, ``tests/contract``.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from sengoku.games.gunkimono import Place, SmallTile
from sengoku.games.gunkimono.data import components, tile_troops
from sengoku.games.gunkimono.state import CELLS, END_TILE, PAIRS, GunkimonoState
from tests.gunkimono.helpers import GAME

SOAK = bool(os.environ.get("SENGOKU_SOAK"))
GAMES_PER_COUNT = 1000 if SOAK else 50
ALL_TILES = Counter(components().large_tiles)


def check_conservation(st: GunkimonoState) -> None:
    where = Counter(st.placed) + Counter(st.row) + Counter(st.removed)
    for h in st.hands:
        where += Counter(h)
    piles = Counter(st.stack) + Counter(st.end_stack)
    end_tiles = piles.pop(END_TILE, 0)
    where += piles
    assert where == ALL_TILES
    assert end_tiles == (0 if st.end_triggered else 1)
    for seat in range(st.num_players):
        used = sum(1 for s, _t, _u in st.placed_small if s == seat)
        assert used + len(st.reserve[seat]) == 5
    for known, hand in zip(st.known, st.hands, strict=True):
        assert not Counter(known) - Counter(hand)


def deep_checks(st: GunkimonoState, rng: random.Random) -> None:
    snapshot = st.to_json()
    legal = st.legal_actions()
    # The rule checks that explain refusals agree with the legal list, tile by tile, where
    # the stronghold rules make it subtle.
    if st.phase == "place" and sum(len(x) for x in st.strongholds) >= 2:
        candidates: list[object] = [
            SmallTile(t, c, sup)
            for t in st.reserve[st.turn]
            for c in range(CELLS)
            for sup in (0, 1)
        ]
        for code in set(st.hands[st.turn]):
            (t1, s1), (t2, s2) = tile_troops(code)
            c1, c2 = t1 * 2 + s1 - 1, t2 * 2 + s2 - 1
            for a, b in PAIRS:
                candidates += [Place(c1, a, c2, b), Place(c2, a, c1, b)]
        legal_objects = set(legal)
        for a in rng.sample(candidates, min(100, len(candidates))):
            assert (st.why_illegal(a) is None) == (a in legal_objects), a
    # Every legal action keeps the tiles where they can be (a sample, on clones).
    for a in rng.sample(legal, min(6, len(legal))):
        c = st.clone()
        c.apply(a)
        check_conservation(c)
        assert st.to_json() == snapshot
    # A determinized state keeps the tiles too.
    for seat in range(st.num_players):
        check_conservation(st.determinize(seat, random.Random(7)))


@pytest.mark.soak
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games(players: int) -> None:
    rng = random.Random(players)
    lengths = []
    for g in range(GAMES_PER_COUNT):
        st = GAME.new_state(seed=1000 * players + g, players=players)
        deep_every = 9 if g < 8 else 60
        while not st.is_terminal():
            legal = st.legal_actions()
            assert legal, "a live state always has a legal action"
            assert st.current_player == st.turn
            if st.decisions % deep_every == 0:
                deep_checks(st, rng)
            action = rng.choice(legal)
            actor = st.current_player
            events = st.apply(action)
            for ev in events:
                if ev["type"] in ("drawn", "banner_value"):  # private to the one who drew
                    assert ev["audience"] == [actor]
                assert "message" in ev
            if st.decisions % 5 == 0:
                check_conservation(st)
        assert st.legal_actions() == []
        assert st.current_player == -1
        out = st.outcome()
        assert out is not None and out.reason in ("end_of_game", "no_placement")
        assert len(out.scores) == players and -1 <= min(out.returns) <= max(out.returns) <= 1
        assert out.scores == tuple(float(x) for x in st.final_scores())
        assert GAME.state_from_json(st.to_json()).to_json() == st.to_json()
        check_conservation(st)
        lengths.append(st.decisions)
    assert max(lengths) < GAME.max_game_length(players=players)
