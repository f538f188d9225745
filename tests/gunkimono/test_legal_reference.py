"""The fast legal-action generator agrees with a brute-force reference built from the rule
checks (``why_illegal``), in positions with strongholds, supports and every phase."""

from __future__ import annotations

import random

import pytest

from sengoku.games.gunkimono import BuildStronghold, Draw, Place, Score, SmallTile
from sengoku.games.gunkimono.data import tile_troops
from sengoku.games.gunkimono.selfplay import balanced_choice
from sengoku.games.gunkimono.state import CELLS, PAIRS, GunkimonoState
from tests.gunkimono.helpers import GAME

RULE4 = [0]


def reference(st: GunkimonoState) -> list[object]:
    seat = st.turn
    candidates: list[object] = []
    for code in set(st.hands[seat]):
        (t1, s1), (t2, s2) = tile_troops(code)
        c1, c2 = t1 * 2 + s1 - 1, t2 * 2 + s2 - 1
        for a, b in PAIRS:
            candidates += [Place(c1, a, c2, b), Place(c2, a, c1, b)]
    for t in range(5):
        for c in range(CELLS):
            candidates += [SmallTile(t, c, False), SmallTile(t, c, True)]
            candidates += [Score(False, t, c), Score(True, t, c)]
    candidates += [BuildStronghold(c) for c in range(CELLS)]
    candidates += [Draw(None)] + [Draw(t) for t in range(100)]
    why = [st.why_illegal(a) for a in candidates]
    RULE4[0] += sum(1 for w in why if w and "Stronghold rule 4" in w)
    legal = [a for a, w in zip(candidates, why, strict=True) if w is None]
    return sorted(set(legal), key=lambda a: GAME.action_to_int(st, a))  # type: ignore[arg-type]


def test_generator_matches_reference() -> None:
    checked = 0
    phases: set[str] = set()
    for seed in range(6):
        players = 2 + seed % 4
        st = GAME.new_state(seed, players=players, own_double_stronghold=seed % 2 == 1)
        rng = random.Random(seed)
        while not st.is_terminal():
            if st.decisions % 7 == 0 or st.phase in ("support", "stronghold"):
                assert st.legal_actions() == reference(st), (seed, st.decisions)
                checked += 1
                phases.add(st.phase)
            supports = [a for a in st.legal_actions() if isinstance(a, SmallTile) and a.support]
            if supports and rng.random() < 0.3:
                st.apply(rng.choice(supports))
            else:
                st.apply(balanced_choice(st, rng))
    assert checked > 100
    assert RULE4[0] > 0  # positions where linking two players' formations was refused
    assert phases >= {"place", "support", "score", "stronghold", "draw"}


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "link_own_formations": False, "own_double_stronghold": True},
        {"players": 4, "link_own_formations": False},
        {"players": 3, "end_tile_replacement": False, "removed_marker_counts": False},
        {"players": 5, "empty_banner_stack": "stay", "own_double_stronghold": True},
    ],
    ids=lambda o: "-".join(f"{k}={v}" for k, v in sorted(o.items())),
)
def test_step_1_matches_reference_under_every_ruling(options: dict[str, object]) -> None:
    # Step 1's generator (one pass over the places, per-side byte tables, rule 4 asked only
    # next to two controlled formations) against the rules' own checks, in every placement
    # of games that reach strongholds: with link_own_formations off, rule 4 also refuses
    # linking one player's own two formations.
    refused_before = RULE4[0]
    checked = 0
    for seed in range(3):
        st = GAME.new_state(seed, **options)
        if seed == 1:
            # A search's state (muted) keeps each tile side's and troop type's list with
            # the board's scan; a state that tells builds its list in one go: both checked.
            st.mute()
        rng = random.Random(100 + seed)
        while not st.is_terminal():
            late = sum(len(s) for s in st.fortresses.strongholds) >= 2
            if st.phase in ("place", "support") and (late or st.decisions % 5 == 0):
                assert st.legal_actions() == reference(st), (options, seed, st.decisions)
                checked += 1
            supports = [a for a in st.legal_actions() if isinstance(a, SmallTile) and a.support]
            if supports and rng.random() < 0.2:
                st.apply(rng.choice(supports))
            else:
                st.apply(balanced_choice(st, rng))
    assert checked > 30
    if options.get("link_own_formations") is False:
        assert RULE4[0] > refused_before  # rule 4 refused some placement here


@pytest.mark.parametrize("muted", [True, False], ids=["muted", "telling"])
def test_the_places_scan_worked_out_again_where_the_board_changed_equals_a_fresh_one(
    muted: bool,
) -> None:
    # ``placement.place_scan`` keeps the last board's scan (and, for a search's muted
    # states, the tile sides' and small tiles' legal lists asked on it) and works out again
    # only the places over the squares that changed (those the turn record names, checked,
    # else found square by square): after every decision of random games (tiles,
    # supports, strongholds; clones and determinizations sharing the cache), it must equal
    # the scan of the same board made from scratch.
    from sengoku.games.gunkimono.placement import _full_scan, place_scan

    compared = reused = 0
    for seed, players in ((4, 2), (5, 3), (6, 5)):
        st = GAME.new_state(seed, players=players)
        if muted:
            st.mute()
        rng = random.Random(seed)
        while not st.is_terminal():
            scan = place_scan(st)
            field, sh = st.battlefield, st.fortresses.sh_owner
            fresh = _full_scan(field.top, field.level, sh)
            assert (scan.codes, scan.lower) == (fresh.codes, fresh.lower), (seed, st.decisions)
            assert (scan.top, scan.level, scan.sh_owner) == (field.top, field.level, sh)
            compared += 1
            if st.decisions % 9 == 0:  # a determinization shares the cache, then moves on
                other = st.determinize((st.current_player + 1) % players, rng)
                if muted:
                    other.mute()  # as a search's iteration does
                if other.phase in ("place", "support"):
                    # Other hands on the same board: the scan's kept tile sides and small
                    # tiles are reused where the hands share a side.
                    other.forget_legal_actions()
                    assert other.legal_actions() == reference(other), (seed, st.decisions)
                    reused += 1
                if not other.is_terminal():
                    other.apply(balanced_choice(other, rng))
                    place_scan(other)
            supports = [a for a in st.legal_actions() if isinstance(a, SmallTile) and a.support]
            if supports and rng.random() < 0.2:
                st.apply(rng.choice(supports))
            else:
                st.apply(balanced_choice(st, rng))
    assert compared > 300
    assert reused > 10
