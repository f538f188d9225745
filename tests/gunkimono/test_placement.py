"""The three placement rules, rotation and the one-small-tile limit (rulebook, "1. Place Army
Tile"), each with the rulebook's example where it gives one."""

from __future__ import annotations

import pytest

from sengoku.core.game import IllegalAction
from sengoku.games.gunkimono import Place, SmallTile
from sengoku.games.gunkimono.actions import tile_name
from sengoku.games.gunkimono.state import FACE_DOWN
from tests.gunkimono.helpers import act, hand, neutral, new, paint, play, sq


def start(**options: object):  # type: ignore[no-untyped-def]
    st = neutral(new(2, **options))
    return st


def test_example_b_rotation_avoids_cavalry_on_cavalry() -> None:
    # rulebook: "Troop Duplication rule", Example B: the archer/cavalry tile may not put its
    # cavalry on a cavalry, but rotated, the archer covers the cavalry and the cavalry the
    # samurai.
    st = start()
    hand(st, 0, ["C1A1", "I1S1", "I2P2"])
    assert st.top[sq("c3")] == 1 and st.top[sq("d3")] == 2  # samurai, cavalry
    with pytest.raises(IllegalAction, match="Troop Duplication rule"):
        act(st, "A1@c3 C1@d3")
    legal = st.legal_actions()
    assert Place(8, sq("c3"), 4, sq("d3")) not in legal
    play(st, "C1@c3 A1@d3")
    assert st.top[sq("c3")] == 2 and st.top[sq("d3")] == 4
    assert st.level[sq("c3")] == st.level[sq("d3")] == 1


def test_small_tile_duplication() -> None:
    # rulebook: "Troop Duplication rule" applies to small tiles too.
    st = start()
    with pytest.raises(IllegalAction, match="Troop Duplication rule"):
        act(st, "small S@c3")
    play(st, "small A@c3")
    assert st.sym[sq("c3")] == 2 and st.level[sq("c3")] == 1


def test_example_c_level_difference() -> None:
    # rulebook: "Level Difference rule", Example C: the spearman/archer tile cannot cover
    # troops of different levels; moved over slightly, it covers two of the same level.
    st = start()
    hand(st, 0, ["P1A1", "I1S1", "I2P2"])
    paint(st, {"d4": "I"}, level=1)
    with pytest.raises(IllegalAction, match="Level Difference rule"):
        act(st, "P1@d4 A1@e4")
    play(st, "P1@e4 A1@f4")
    assert st.level[sq("e4")] == 1


def test_tiles_lie_inside_the_battlefield() -> None:
    st = start()
    hand(st, 0, ["P1A1", "I1S1", "I2P2"])
    with pytest.raises(IllegalAction, match="inside the battlefield"):
        st.apply(Place(6, sq("j1"), 9, sq("j1") + 1))


def test_example_d_support_face_down_even_same_type() -> None:
    # rulebook: "Extra Support rule", Example D: a small tile face down on the archer below
    # removes the level difference; even the small samurai may be used, because it is face
    # down, and the samurai/cavalry tile then lies half on it.
    st = start()
    hand(st, 0, ["S1C1", "I1P1", "I2P2"])
    paint(st, {"f6": "I"}, level=1)
    assert st.top[sq("e6")] == 4  # archer, level 0
    with pytest.raises(IllegalAction, match="Level Difference rule"):
        act(st, "S1@e6 C1@f6")
    play(st, "support S@e6")
    assert st.top[sq("e6")] == FACE_DOWN and st.level[sq("e6")] == 1
    assert 1 not in st.reserve[0]
    # Only large tiles over the support are legal now.
    legal = st.legal_actions()
    assert legal and all(isinstance(a, Place) and sq("e6") in (a.a, a.b) for a in legal)
    play(st, "S1@e6 C1@f6")  # samurai over the face-down samurai
    assert st.top[sq("e6")] == 1 and st.level[sq("e6")] == 2 and st.level[sq("f6")] == 2


def test_support_only_to_remove_a_level_difference() -> None:
    st = start()
    hand(st, 0, ["S1C1", "I1P1", "I2P2"])
    with pytest.raises(IllegalAction, match="Extra Support rule"):
        act(st, "support S@e6")
    assert not any(isinstance(a, SmallTile) and a.support for a in st.legal_actions())


@pytest.mark.parametrize("link_own", [False, True])
def test_support_only_where_the_large_tile_may_then_cover_it(link_own: bool) -> None:
    # Infantry c3-d3-e3 holds seat 0's two strongholds (own_double_stronghold); d4 above d3
    # is a raised infantry. A support on d3 splits the formation; the hand's one tile
    # (infantry and samurai) could then cover it only with its infantry on d3, linking the
    # two parts again: Stronghold rule 4 refuses that without link_own_formations, so the
    # support is refused too (it would leave no legal action); with it, both are allowed.
    st = neutral(new(2, own_double_stronghold=True, link_own_formations=link_own))
    paint(st, {"c3": "I", "d3": "I", "e3": "I"})
    paint(st, {"d4": "I"}, level=1)
    for square in ("c3", "e3"):
        st.fortresses.strongholds[0].append(sq(square))
        st.fortresses.sh_owner[sq(square)] = 0
    hand(st, 0, ["I1S1"])
    if link_own:
        play(st, "support A@d3", "I1@d3 S1@d4")
        return
    with pytest.raises(IllegalAction, match="Extra Support rule.*cover it"):
        act(st, "support A@d3")
    assert SmallTile(4, sq("d3"), True) not in st.legal_actions()
    play(st, "support A@c4", "I1@c4 S1@d4")  # beside the formation: it splits nothing


def test_at_most_one_small_tile_per_turn() -> None:
    # rulebook: "You may place no more than 1 small army tile per turn": no second support,
    # no small tile on top of the support.
    st = start()
    hand(st, 0, ["S1C1", "I1P1", "I2P2"])
    paint(st, {"f6": "I"}, level=1)
    play(st, "support S@e6")
    for text in ("support A@e6", "small A@e6", "small I@a1"):
        with pytest.raises(IllegalAction, match="one small tile per turn"):
            act(st, text)
    with pytest.raises(IllegalAction, match="must cover the face-down small tile"):
        act(st, "S1@a3 C1@b3")


def test_refused_placement_changes_nothing() -> None:
    st = start()
    hand(st, 0, ["C1A1", "I1S1", "I2P2"])
    before = st.to_json()
    with pytest.raises(IllegalAction):
        act(st, "A1@c3 C1@d3")
    with pytest.raises(IllegalAction, match="not in your hand"):
        act(st, "S2@a1 C2@b1")
    assert st.to_json() == before


def test_large_tile_then_draw_small_tile_no_draw() -> None:
    # rulebook: "4. Refill Your Hand": after a large tile draw one; after a small tile, none.
    st = start()
    hand(st, 0, ["C1A1", "I1S1", "I2P2"])
    play(st, "C1@c3 A1@d3", "vp C@c3", "vp A@d3")
    assert st.phase == "draw"
    row_before = list(st.row)
    take = row_before[0]

    play(st, f"take {tile_name(take)}")
    assert len(st.hands[0]) == 3 and len(st.row) == 3
    assert take in st.known[0]  # everyone saw it taken
    assert st.turn == 1
    play(st, "small A@c1")
    score_all(st)
    assert st.turn == 0 and len(st.hands[1]) == 3 and len(st.reserve[1]) == 4


def score_all(st) -> None:  # type: ignore[no-untyped-def]
    while st.phase == "score":
        st.apply(st.legal_actions()[0])
