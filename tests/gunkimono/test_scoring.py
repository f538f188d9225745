"""Step 2, "Score Points": victory points per formation, honor points per troop, never both
for one troop; war banners; step 3 "Assess Strongholds"; the final score (rulebook examples
E, F, G, I, J, K)."""

from __future__ import annotations

import pytest

from sengoku.core.game import IllegalAction
from sengoku.games.gunkimono import Score
from sengoku.games.gunkimono.data import components
from sengoku.games.gunkimono.state import REMOVED
from tests.gunkimono.helpers import act, hand, neutral, new, paint, play, sq

C = components()
INF, S, CAV, P, A = range(5)


def test_example_e_vp_for_both_troops() -> None:
    # rulebook: Example E: the archer joins a formation of 3 archers, the cavalry one of 2
    # cavalry: 3 + 2 = 5 victory points.
    st = neutral(new(2))
    paint(st, {"a2": "A"})
    hand(st, 0, ["C1A1", "I1S1", "I2P2"])
    play(st, "A1@b3 C1@c3")
    assert [p[3] for p in st.pending] == [3, 2]
    events = play(st, "vp A@b3", "vp C@c3")
    assert st.score[0] == 5
    assert [e["points"] for e in events if e["type"] == "score"] == [3, 2]


def test_single_troop_scores_one_and_printed_troops_count() -> None:
    # rulebook: a troop by itself scores 1; printed troops count in formations.
    st2 = neutral(new(2))
    play(st2, "small A@b1")  # b1 touches a1 (infantry), c1 (cavalry), b2 (spearman)
    play(st2, "vp A@b1")
    assert st2.score[0] == 1
    st3 = neutral(new(2))
    play(st3, "small A@c1")  # c1 touches the printed archer on c2
    play(st3, "vp A@c1")
    assert st3.score[0] == 2


def test_formation_counts_regardless_of_level() -> None:
    # rulebook: "connected horizontally and/or vertically ... regardless of level".
    st = neutral(new(2))
    paint(st, {"a1": "A"}, level=3)  # an archer three tiles up, next to b1
    play(st, "small A@b1")
    play(st, "vp A@b1")
    assert st.score[0] == 2


def test_example_f_honor_one_and_two() -> None:
    # rulebook: Example F: spearman (1 symbol) and infantry (2 symbols): 1 honor in the
    # spearman column, 2 in the infantry column.
    st = neutral(new(2))
    hand(st, 0, ["I2P1", "I1S1", "C2P2"])
    play(st, "P1@b1 I2@c1", "honor P@b1", "honor I@c1")
    assert st.honor[0][P] == 1 and st.honor[0][INF] == 2
    assert st.score[0] == 0


def test_example_g_mixed_choice_never_both() -> None:
    # rulebook: Example G: VP for the archer in a formation of 5, honor (2) for the lone
    # samurai; "You may never score both types of points for the same troop".
    st = neutral(new(2))
    paint(st, {"a1": "A", "a2": "A", "a4": "A"})
    hand(st, 0, ["S2A1", "I1S1", "C2P2"])
    play(st, "A1@b3 S2@b4")
    assert [p[3] for p in st.pending] == [5, 1]
    play(st, "vp A@b3")
    # The archer is scored: only the samurai can be scored now.
    assert all(isinstance(a, Score) and a.cell == sq("b4") for a in st.legal_actions())
    with pytest.raises(IllegalAction, match="score the troop just placed"):
        act(st, "honor A@b3")
    play(st, "honor S@b4")
    assert st.score[0] == 5 and st.honor[0][S] == 2 and st.honor[0][A] == 0
    assert st.phase == "draw"


def test_example_i_small_tile_claims_dragon() -> None:
    # rulebook: Example I: two spaces from the cavalry column's banner stack, Clayton plays
    # his small cavalry tile for 2 honor and claims the dragon tile; that marker leaves the
    # track and cavalry can then only score victory points.
    st = neutral(new(3))
    end = C.ending_row[3]
    st.honor[0][CAV] = end - 2
    play(st, "small C@a1")
    events = play(st, "honor C@a1")
    assert st.honor[0][CAV] == REMOVED
    assert len(st.banners[0]) == 1 and C.banner_kinds[st.banners[0][0][0]] == "dragon"
    assert 11 <= st.banners[0][0][1] <= 15
    assert [b[0] for b in st.banner_stacks[CAV]] == [2, 1]  # crane and lotus remain
    private = [e for e in events if e["type"] == "banner_value"]
    assert private and private[0]["audience"] == [0]
    public = [e for e in events if e["type"] == "banner"]
    assert public and "value" not in public[0]
    # Later, a cavalry troop of this player can only score VP.
    st.turn, st.phase = 0, "place"
    st._legal = None
    hand(st, 0, ["I1C1", "I2P2", "S2P2"])
    play(st, "C1@b1 I1@c1")
    assert st.legal_actions() == [Score(False, CAV, sq("b1"))]
    with pytest.raises(IllegalAction, match="honor marker has left the track"):
        act(st, "honor C@b1")


def test_banners_go_dragon_crane_lotus_then_none() -> None:
    # rulebook: stacks are dragon over crane over lotus; spec ruling 2: a marker reaching an
    # empty stack is removed without a tile (option empty_banner_stack).
    for option, expect in (("remove", REMOVED), ("stay", C.ending_row[4])):
        st = new(4, empty_banner_stack=option)
        end = C.ending_row[4]
        kinds = []
        for seat in range(4):
            st.honor[seat][A] = end - 1
            st._advance_honor(seat, A, 1, [])
            kinds.append([C.banner_kinds[b[0]] for b in st.banners[seat]])
        assert kinds == [["dragon"], ["crane"], ["lotus"], []]
        assert st.honor[3][A] == expect


def test_two_player_game_has_no_lotus() -> None:
    st = new(2)
    assert all(len(s) == 2 for s in st.banner_stacks)
    assert {C.banner_kinds[b[0]] for s in st.banner_stacks for b in s} == {"dragon", "crane"}


def test_honor_beyond_the_banner_row_is_lost() -> None:
    # spec ruling 4.
    st = new(2)
    end = C.ending_row[2]
    st.honor[0][INF] = end - 1
    events: list[dict[str, object]] = []
    st._advance_honor(0, INF, 2, events)
    assert st.honor[0][INF] == REMOVED and len(st.banners[0]) == 1


def test_vp_track_wraps_at_100_as_plain_integer() -> None:
    # rulebook: passing 100 flips the daimyo tile; spec ruling 10: the engine keeps integers.
    st = neutral(new(2))
    st.score[0] = 99
    play(st, "small A@c1", "vp A@c1")
    assert st.score[0] == 101


def test_example_j_assess_strongholds_4_plus_3() -> None:
    # rulebook: Example J: Renee built her second stronghold this turn and scores 4 for the
    # samurai formation and 3 for the archer formation.
    st = neutral(new(2))
    paint(st, {"a1": "S", "c1": "S", "d1": "S", "h1": "A", "i2": "A"})
    assert len(st.formation(sq("b1"))) == 4 and len(st.formation(sq("h2"))) == 3
    st.strongholds[0] = [sq("b1")]
    st.sh_owner[sq("b1")] = 0
    st.honor[0] = [C.stronghold_rows[2][1]] * 5
    play(st, "small I@j8", "vp I@j8")
    assert st.phase == "stronghold"
    events = play(st, "stronghold h2")
    assess = [e for e in events if e["type"] == "assess"]
    assert assess[0]["points"] == 7
    assert st.score[0] == 1 + 7


def test_strongholds_score_every_turn_even_without_joining() -> None:
    st = neutral(new(2))
    paint(st, {"a1": "S", "c1": "S"})
    st.strongholds[0] = [sq("b1")]
    st.sh_owner[sq("b1")] = 0
    play(st, "small I@j8", "vp I@j8")
    assert st.score[0] == 1 + 3


def test_example_k_final_score_125() -> None:
    # rulebook: Example K: 95 on the track plus banners 12 + 7 + 6 + 5 = 125.
    st = new(3)
    st.score = [95, 100, 20]
    st.banners[0] = [[0, 12, 0], [1, 7, 1], [1, 6, 2], [2, 5, 3]]
    events: list[dict[str, object]] = []
    st._finish("end_of_game", events)
    out = st.outcome()
    assert out is not None
    assert out.scores == (125.0, 100.0, 20.0)
    assert out.winners == (0,) and out.returns == (1.0, 0.0, -1.0)
    reveal = events[-1]["banners"]
    assert isinstance(reveal, dict) and reveal["0"] == [
        ["dragon", 12],
        ["crane", 7],
        ["crane", 6],
        ["lotus", 5],
    ]


def test_tie_break_most_troops_in_owned_formations() -> None:
    # rulebook: "In the case of a tie, the tied player with the most total troops in their
    # owned formations wins."
    st = neutral(new(3))
    st.score = [50, 50, 10]
    paint(st, {"a1": "S", "c1": "S"})
    st.strongholds[1] = [sq("b1")]  # formation of 3
    st.sh_owner[sq("b1")] = 1
    st.strongholds[0] = [sq("j8")]  # formation of 1
    st.sh_owner[sq("j8")] = 0
    st._finish("end_of_game", [])
    out = st.outcome()
    assert out is not None and out.winners == (1,)
    assert out.returns == (0.0, 1.0, -1.0)
    st.strongholds[0] = []
    st.sh_owner[sq("j8")] = -1
    st.strongholds[1] = []
    st.sh_owner[sq("b1")] = -1
    out = st.outcome()
    assert out is not None and out.winners == (0, 1)  # still tied: they share the rank
