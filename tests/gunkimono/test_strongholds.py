"""Building strongholds and the four stronghold rules (rulebook: "Building Strongholds",
"Formations with strongholds have 4 special rules", Example H; spec rulings 1, 3, 6, 7)."""

from __future__ import annotations

import pytest

from sengoku.core.game import IllegalAction
from sengoku.games.gunkimono import BuildStronghold, Score
from sengoku.games.gunkimono.data import components
from sengoku.games.gunkimono.state import REMOVED, GunkimonoState
from tests.gunkimono.helpers import act, hand, neutral, new, paint, play, sq

C = components()


def stronghold(st: GunkimonoState, seat: int, square: str) -> None:
    st.strongholds[seat].append(sq(square))
    st.sh_owner[sq(square)] = seat
    st._legal = None


def markers(st: GunkimonoState, seat: int, row: int) -> None:
    st.honor[seat] = [row] * 5


def test_build_when_all_five_markers_reach_the_row() -> None:
    # rulebook: "Once all 5 of your honor markers have reached or exceeded the row with your
    # lowest remaining stronghold, you immediately build that stronghold."
    st = neutral(new(2))
    first = C.stronghold_rows[2][0]
    st.honor[0] = [first, first, first, first, first - 1]
    play(st, "small A@b1", "vp A@b1")
    assert st.phase == "draw" or st.turn == 1  # not yet: the archer marker is short
    st = neutral(new(2))
    st.honor[0] = [first, first, first, first, first - 2]
    hand(st, 0, ["A2C1", "I2P2", "S2P2"])
    play(st, "C1@b1 A2@c1", "vp C@b1")
    assert st.phase == "score"  # the archer still to score
    play(st, "honor A@c1")
    assert st.phase == "stronghold"
    legal = st.legal_actions()
    assert all(isinstance(a, BuildStronghold) for a in legal) and len(legal) == 80
    play(st, "stronghold b1")
    assert st.strongholds[0] == [sq("b1")] and st.sh_owner[sq("b1")] == 0
    assert st.phase == "draw"
    assert st.score[0] == 1 + 1  # the cavalry's 1 VP, then the stronghold's formation of 1


def test_one_stronghold_per_turn_the_second_on_the_next_turn() -> None:
    # rulebook: "build 1 stronghold now, then build the other after scoring points on your
    # next turn."
    st = neutral(new(2))
    markers(st, 0, C.stronghold_rows[2][1])
    play(st, "small I@j8", "vp I@j8", "stronghold j8")
    assert len(st.strongholds[0]) == 1 and st.turn == 1  # small tile: no draw
    play(st, "small I@j7")
    while st.phase == "score":
        st.apply(st.legal_actions()[0])
    assert st.turn == 0
    play(st, "small S@a1", "vp S@a1")
    assert st.phase == "stronghold"
    play(st, "stronghold a1")
    assert len(st.strongholds[0]) == 2


def test_example_h_not_in_an_opponents_formation() -> None:
    # rulebook: Example H: Indira cannot build on the samurai formation Santos controls; she
    # builds in the spearman formation and now controls it.
    st = neutral(new(3))
    paint(st, {"a1": "S", "c1": "S"})  # samurai formation a1 b1 c1
    stronghold(st, 1, "b1")
    st.phase, st.turn = "stronghold", 0
    with pytest.raises(IllegalAction, match="holds no stronghold"):
        act(st, "stronghold a1")
    assert BuildStronghold(sq("c1")) not in st.legal_actions()
    act(st, "stronghold b2")  # the spearman on b2
    assert st.sh_owner[sq("b2")] == 0


def test_ruling_1_own_double_stronghold_option() -> None:
    for allowed in (False, True):
        st = neutral(new(2, own_double_stronghold=allowed))
        paint(st, {"a1": "S", "c1": "S"})
        stronghold(st, 0, "b1")
        st.phase = "stronghold"
        assert (BuildStronghold(sq("a1")) in st.legal_actions()) is allowed


def test_no_stronghold_when_every_formation_holds_one() -> None:
    # rulebook: "In the unlikely case that there are already strongholds in all existing
    # formations, you cannot build your stronghold yet. You must try again on your next turn."
    st = neutral(new(2))
    for c in range(80):
        st.top[c] = 0  # one infantry formation ...
    st.top[sq("e5")] = 1  # ... and one samurai
    stronghold(st, 1, "a1")
    markers(st, 0, C.stronghold_rows[2][0])
    play(st, "small I@e5")  # joins the controlled infantry: every formation holds one
    assert st.legal_actions() == [Score(True, 0, sq("e5"))]
    events = play(st, "honor I@e5")
    assert any(e["type"] == "stronghold_blocked" for e in events)
    assert st.strongholds[0] == [] and st.turn == 1


def test_ruling_3_removed_marker_counts_option() -> None:
    for counts in (True, False):
        st = neutral(new(2, removed_marker_counts=counts))
        markers(st, 0, C.stronghold_rows[2][0])
        st.honor[0][4] = REMOVED
        play(st, "small A@b1", "vp A@b1")
        assert (st.phase == "stronghold") is counts


def test_rule_1_no_tile_on_the_strongholds_troop() -> None:
    st = neutral(new(2))
    hand(st, 0, ["S1C1", "I1P1", "I2P2"])
    stronghold(st, 1, "c3")
    with pytest.raises(IllegalAction, match="Stronghold rule 1"):
        act(st, "small A@c3")
    with pytest.raises(IllegalAction, match="Stronghold rule 1"):
        act(st, "C1@b3 S1@c3")
    paint(st, {"d3": "I"}, level=1)
    with pytest.raises(IllegalAction, match="Stronghold rule 1"):
        act(st, "support I@c3")
    legal = st.legal_actions()
    assert not any(
        sq("c3") in (getattr(a, "a", -1), getattr(a, "b", -1), getattr(a, "cell", -1))
        for a in legal
    )


def test_rule_2_no_vp_for_joining_a_controlled_formation() -> None:
    # rulebook: rule 2: nobody, not even the owner, scores VP for a troop that joins the
    # formation; honor is still allowed. Spec ruling 7: also when it links other formations.
    for owner in (0, 1):
        st = neutral(new(2))
        paint(st, {"a1": "S", "c1": "S"})
        stronghold(st, owner, "b1")
        play(st, "small S@d1")  # d1 touches c1
        assert st.legal_actions() == [Score(True, 1, sq("d1"))]
        with pytest.raises(IllegalAction, match="Stronghold rule 2"):
            act(st, "vp S@d1")
        play(st, "honor S@d1")
        assert st.score[0] == (4 if owner == 0 else 0)  # only the owner's assessment
    st = neutral(new(2))
    paint(st, {"a1": "S", "c1": "S", "e1": "S", "f1": "S"})
    stronghold(st, 1, "b1")
    play(st, "small S@d1")  # links the free e1-f1 to the controlled a1-c1
    assert st.legal_actions() == [Score(True, 1, sq("d1"))]


def test_rule_3_shrinking_and_splitting() -> None:
    # rulebook: rule 3: a tile may shrink or divide a controlled formation; only the part
    # where the stronghold stands stays controlled.
    st = neutral(new(2))
    paint(st, {"a1": "S", "c1": "S", "d1": "S"})
    stronghold(st, 1, "a1")
    assert len(st.formation(sq("a1"))) == 4
    play(st, "small I@b1", "vp I@b1")  # seat 0 splits it: a1 | c1-d1
    assert len(st.formation(sq("a1"))) == 1
    assert st.score[1] == 0
    # seat 1's assessment counts only the part with its stronghold
    play(st, "small A@j8", "vp A@j8")
    assert st.score[1] == 1 + 1
    # the split-off part is free: seat 0 may build there
    st.phase, st.turn = "stronghold", 0
    st._legal = None
    assert BuildStronghold(sq("c1")) in st.legal_actions()
    assert BuildStronghold(sq("a1")) not in st.legal_actions()


def test_rule_4_no_linking_two_players_formations() -> None:
    # rulebook: rule 4: no tile may link two formations controlled by separate players.
    st = neutral(new(2))
    paint(st, {"a1": "S", "d1": "S"})  # samurai a1-b1 and d1
    stronghold(st, 0, "a1")
    stronghold(st, 1, "d1")
    hand(st, 0, ["S1C1", "S2P2", "I2P2"])
    with pytest.raises(IllegalAction, match="Stronghold rule 4"):
        act(st, "small S@c1")
    with pytest.raises(IllegalAction, match="Stronghold rule 4"):
        act(st, "S1@c1 C1@c2")
    assert not any(
        sq("c1") in (getattr(a, "a", None), getattr(a, "cell", None))
        and getattr(a, "troop", getattr(a, "first", 0) // 2) == 1
        for a in st.legal_actions()
    )
    act(st, "small A@c1")  # another troop between them links nothing


@pytest.mark.parametrize("allowed", [True, False])
def test_ruling_6_linking_own_formations(allowed: bool) -> None:
    st = neutral(new(2, link_own_formations=allowed))
    paint(st, {"a1": "S", "d1": "S"})
    stronghold(st, 0, "a1")
    stronghold(st, 0, "d1")
    if allowed:
        play(st, "small S@c1", "honor S@c1")
        # both strongholds now stand in one formation of 4: each scores it (spec ruling 6)
        assert st.score[0] == 8
    else:
        with pytest.raises(IllegalAction, match="Stronghold rule 4"):
            act(st, "small S@c1")
