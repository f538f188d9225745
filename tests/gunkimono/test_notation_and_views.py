"""Notation, the integer action mapping, views and determinization (hidden information)."""

from __future__ import annotations

import json
import random

import pytest

from sengoku.core.game import ParseError
from sengoku.core.record import GameRecord
from sengoku.core.registry import load_game
from sengoku.games.gunkimono import BuildStronghold, Draw, Place, Score, SmallTile
from sengoku.games.gunkimono.actions import NUM_ACTIONS, tile_name
from sengoku.games.gunkimono.state import GunkimonoState
from tests.gunkimono.helpers import GAME, hand, neutral, new, play, sq


def test_registered() -> None:
    game = load_game("gunkimono")
    assert game.name == "gunkimono" and (
        game.game_type.min_players,
        game.game_type.max_players,
    ) == (2, 5)
    assert {p["players"] for p in game.game_type.bench_presets} == {2, 3, 4, 5}
    assert game.num_distinct_actions() == NUM_ACTIONS


def test_canonical_and_short_notation() -> None:
    st = neutral(new(2))
    hand(st, 0, ["C1A1", "C2A1", "I2P2"])
    a = Place(4, sq("c3"), 8, sq("d3"))
    assert str(a) == "C1@c3 A1@d3"
    # C1A1 and C2A1 both fit "Cc3 Ad3": the short form must name the symbols
    assert GAME.format_action(st, a) == "C1@c3 A1@d3"
    with pytest.raises(ParseError, match="ambiguous"):
        GAME.parse_action(st, "Cc3 Ad3")
    b = Place(7, sq("d2"), 1, sq("e2"))  # P2 on d2, I2 on e2
    assert GAME.format_action(st, b) == "Pd2 Ie2"
    for text in ("P2@d2 I2@e2", "p2d2 i2e2", "Pd2 Ie2", "  P2 @ d2   I2@e2 ", "I2@e2 P2@d2"):
        assert GAME.parse_action(st, text) == b
    assert GAME.parse_action(st, "sA c1") == SmallTile(4, sq("c1"), False)
    assert str(SmallTile(4, sq("c1"), True)) == "support A@c1"
    assert str(Score(True, 4, sq("c1"))) == "honor A@c1"
    assert str(BuildStronghold(sq("j8"))) == "stronghold j8"
    assert str(Draw(None)) == "draw stack"
    assert str(Draw(13)) == f"take {tile_name(13)}"


def test_bad_text_is_refused_with_the_reason() -> None:
    st = neutral(new(2))
    with pytest.raises(ParseError, match="names no legal action"):
        GAME.parse_action(st, "castle e4")
    with pytest.raises(ParseError, match="Troop Duplication rule"):
        GAME.parse_action(st, "small S@c3")
    with pytest.raises(ParseError, match="drawn in step 4"):
        GAME.parse_action(st, "draw stack")
    with pytest.raises(ParseError, match="Troop Duplication rule"):
        GAME.parse_action(st, "sS c3")  # the short form is explained too
    with pytest.raises(ParseError, match="no stronghold to build now"):
        GAME.parse_action(st, "c3")


def test_every_action_has_a_number_and_back() -> None:
    st = new(4, seed=3)
    rng = random.Random(0)
    seen = 0
    while not st.is_terminal() and seen < 300:
        legal = st.legal_actions()
        for a in legal:
            n = GAME.action_to_int(st, a)
            assert 0 <= n < NUM_ACTIONS and GAME.int_to_action(st, n) == a
        for a in rng.sample(legal, min(3, len(legal))):
            assert GAME.parse_action(st, str(a)) == a
        st.apply(rng.choice(st.legal_actions()))
        seen += 1
    with pytest.raises(ValueError):
        GAME.int_to_action(st, NUM_ACTIONS)


def test_record_replays_exactly() -> None:
    record, st = GameRecord.start(GAME, 5, players=3)
    rng = random.Random(5)
    while not st.is_terminal():
        record.play(st, rng.choice(st.legal_actions()))
    again = GameRecord.loads(record.dumps()).replay()
    assert again.to_json() == st.to_json()


def hidden_free(view: dict[str, object]) -> str:
    return json.dumps(view, sort_keys=True)


def test_view_hides_hands_banners_stacks_removed() -> None:
    st = new(3, seed=1)
    rng = random.Random(2)
    while st.turns < 25:
        st.apply(rng.choice(st.legal_actions()))
    st.banners[0].append([0, 13, 2])
    st.banners[1].append([1, 8, 3])
    v1 = st.view(1)
    players = v1["players"]
    assert isinstance(players, list)
    assert players[0]["hand"] is None and players[1]["hand"] == [tile_name(t) for t in st.hands[1]]
    assert players[0]["banners"] == [{"kind": "dragon", "column": "cavalry", "value": None}]
    assert players[1]["banners"][0]["value"] == 8
    text = hidden_free(v1)
    assert "stack" not in v1 or isinstance(v1.get("stack_size"), int)
    assert "removed" not in v1 and v1["removed_count"] == len(st.removed)
    spectator = st.view(None)
    assert all(p["hand"] is None for p in spectator["players"])  # type: ignore[union-attr]
    assert "13" not in json.dumps(spectator["players"][0]["banners"])  # type: ignore[index]
    # Changing what seat 1 cannot see does not change its view.
    other = st.clone()
    other.hands[0], other.stack[:3] = other.stack[:3], other.hands[0]
    other.banners[0][0][1] = 11
    other.stack.reverse()
    other.removed, other.stack[: len(other.removed)] = (
        other.stack[: len(other.removed)],
        other.removed,
    )
    assert hidden_free(other.view(1)) == text
    # The seat's own render shows its hand, not others'.
    drawing = GAME.render_text(st, 1)
    assert " ".join(tile_name(t) for t in st.hands[1]) in drawing
    assert "banners: dragon |" in drawing or "banners: dragon" in drawing


def test_tiles_taken_from_the_row_stay_known() -> None:
    st = new(2, seed=4)
    rng = random.Random(4)
    while not (st.turn == 0 and st.phase == "draw"):
        st.apply(rng.choice(st.legal_actions()))
    taken = st.row[1]
    st.apply(Draw(taken))
    assert st.view(1)["players"][0]["hand_known"] == [tile_name(taken)]  # type: ignore[index]
    for seed in range(5):
        d = st.determinize(1, random.Random(seed))
        assert taken in d.hands[0]


def test_determinize_keeps_the_view_and_is_reproducible() -> None:
    st = new(4, seed=8)
    rng = random.Random(8)
    while st.turns < 30:
        st.apply(rng.choice(st.legal_actions()))
    for seat in range(4):
        d1 = st.determinize(seat, random.Random(1))
        assert d1.view(seat) == st.view(seat)
        assert d1.hands[seat] == st.hands[seat]
        d2 = st.determinize(seat, random.Random(2))
        assert d2.view(seat) == st.view(seat)
        assert d1.to_json() != d2.to_json()  # something really was resampled
        # equal views + equal rng seed -> equal results
        assert d1.determinize(seat, random.Random(3)).to_json() == (
            st.determinize(seat, random.Random(3)).to_json()
        )
        d1.apply(random.Random(0).choice(d1.legal_actions()))  # a playable state


def test_json_round_trip_and_bad_json() -> None:
    st = new(5, seed=2)
    data = st.to_json()
    back = GAME.state_from_json(json.loads(json.dumps(data)))
    assert isinstance(back, GunkimonoState) and back.to_json() == data
    with pytest.raises(ValueError, match="not a gunkimono state"):
        GAME.state_from_json({"game": "gungi"})
    broken = dict(data)
    del broken["hands"]
    with pytest.raises(ValueError, match="missing or bad field"):
        GAME.state_from_json(broken)


def test_concede() -> None:
    st = new(3)
    st.concede(1)
    out = st.outcome()
    assert out is not None and out.reason == "resignation" and 1 not in out.winners
    assert st.legal_actions() == [] and st.current_player == -1


def test_render_text_shows_board_levels_honor_and_scores() -> None:
    st = neutral(new(2))
    play(st, "small A@b1", "vp A@b1")
    text = GAME.render_text(st, 0)
    assert "A:1" in text  # the archer at level 1
    assert "Honor track" in text and "stronghold row (first)" in text
    assert "seat 0: 1 VP" in text


def test_declares_imperfect_information() -> None:
    # the terminal hides the screen between hot-seat players when this is false
    assert GAME.game_type.perfect_information is False
