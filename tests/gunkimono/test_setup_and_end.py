"""Setup for 2-5 players and the end of the game (rulebook: "Setting Up the Game", "End of
the Game"; spec ruling 5 and 8)."""

from __future__ import annotations

import random

import pytest

from sengoku.core.game import InvalidOption
from sengoku.games.gunkimono import Draw
from sengoku.games.gunkimono.data import components
from sengoku.games.gunkimono.state import END_TILE, GunkimonoState
from tests.gunkimono.helpers import GAME, new

C = components()


@pytest.mark.parametrize(
    ("players", "removed", "stack", "banners"),
    [(2, 20, 26, 2), (3, 10, 33, 3), (4, 0, 40, 3), (5, 0, 37, 3)],
)
def test_setup_sizes(players: int, removed: int, stack: int, banners: int) -> None:
    # rulebook: 4-5 players use all 60 tiles, 3 players remove 10 and 2 players 20 at random;
    # 5 tiles + the end-of-game tile form the end-game stack; 3 face up; hands of 3;
    # reserves of the 5 small tiles; banner stacks (no lotus with 2 players).
    st = new(players, seed=players)
    assert len(st.removed) == removed
    assert len(st.end_stack) == 6 and st.end_stack.count(END_TILE) == 1
    assert not st.end_stack_in_play
    assert len(st.row) == 3
    assert [len(h) for h in st.hands] == [3] * players
    assert all(sorted(r) == [0, 1, 2, 3, 4] for r in st.reserve)
    assert len(st.stack) == stack
    assert all(len(s) == banners for s in st.banner_stacks)
    assert [C.banner_kinds[k] for k, _v in reversed(st.banner_stacks[0])][:2] == [
        "dragon",
        "crane",
    ]
    assert st.honor == [[0] * 5 for _ in range(players)]
    assert st.current_player == 0 and st.phase == "place"
    assert len(st.removed) + len(st.end_stack) - 1 + 3 + 3 * players + len(st.stack) == 60


def test_players_option_checked() -> None:
    for bad in (1, 6, "4"):
        with pytest.raises(InvalidOption, match="players"):
            GAME.new_state(0, players=bad)
    with pytest.raises(InvalidOption, match="unknown option"):
        GAME.new_state(0, colour="red")


def test_same_seed_same_shuffles() -> None:
    assert new(4, seed=9).to_json() == new(4, seed=9).to_json()
    assert new(4, seed=9).to_json() != new(4, seed=10).to_json()


def to_draw_phase(st: GunkimonoState, seat: int) -> None:
    """Play random legal actions until ``seat`` is to draw after a large tile."""
    rng = random.Random(seat)
    while not (st.turn == seat and st.phase == "draw"):
        legal = st.legal_actions()
        if st.turn == seat and st.phase == "place":
            legal = [a for a in legal if type(a).__name__ == "Place"] or legal
        st.apply(rng.choice(legal))


def end_tile_on_top(st: GunkimonoState) -> None:
    """Use up the main stacks (moving their tiles aside) and put the end tile on top."""
    st.removed.extend(st.stack)
    st.stack = []
    st._bring_end_stack([])
    st.stack.remove(END_TILE)
    st.stack.append(END_TILE)
    st._legal = None


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_end_game_sequence_for_each_seat(players: int) -> None:
    # rulebook: "Play continues until the last player in turn order ... has finished their
    # turn. If the last player in turn order draws the end-of-game tile, the game ends
    # immediately."
    for seat in range(players):
        st = new(players, seed=seat)
        to_draw_phase(st, seat)
        end_tile_on_top(st)
        events = st.apply(Draw(None))
        assert st.end_triggered
        assert any(e["type"] == "end_triggered" for e in events)
        assert len(st.hands[seat]) == 3  # spec ruling 5: a replacement is drawn
        if seat == players - 1:
            assert st.is_terminal()
            continue
        turns = []
        rng = random.Random(1)
        while not st.is_terminal():
            if st.phase == "place":
                turns.append(st.turn)
            st.apply(rng.choice(st.legal_actions()))
        assert turns == list(range(seat + 1, players))
        out = st.outcome()
        assert out is not None and out.reason == "end_of_game"


def test_end_tile_revealed_into_the_row() -> None:
    # rulebook: the end is also triggered when the tile is revealed to refill the face-up row.
    st = new(3)
    to_draw_phase(st, 0)
    end_tile_on_top(st)
    st.apply(Draw(st.row[0]))
    assert st.end_triggered and len(st.row) == 3 and END_TILE not in st.row
    assert not st.is_terminal()


def test_ruling_5_no_replacement_option() -> None:
    st = new(3, end_tile_replacement=False)
    to_draw_phase(st, 0)
    end_tile_on_top(st)
    st.apply(Draw(None))
    assert st.end_triggered and len(st.hands[0]) == 2


def test_end_game_stack_comes_into_play() -> None:
    # rulebook: "As soon as a player has drawn the last large army tile from the main
    # stacks, bring the end-game stack into play and remove the cover tile."
    st = new(2)
    to_draw_phase(st, 0)
    st.removed.extend(st.stack[:-1])
    del st.stack[:-1]
    end_stack = list(st.end_stack)
    events = st.apply(Draw(None))
    assert st.end_stack_in_play and st.end_stack == []
    assert any(e["type"] == "end_stack" for e in events)
    assert sorted(st.stack) == sorted(end_stack)


def test_ruling_8_no_placement_passes_and_a_stalled_round_ends() -> None:
    st = new(2)
    st.hands = [[], []]
    st.stack = []
    st.row = []
    st.end_stack = []
    st.reserve = [[], [0]]
    st.removed = []
    st.phase = "draw"
    st.turn = 0
    events: list[dict[str, object]] = []
    st.end_turn(events)
    # seat 1 still has a small tile to place
    assert st.turn == 1 and not st.is_terminal()
    events += st.apply(st.legal_actions()[0])
    while st.phase == "score":
        events += st.apply(st.legal_actions()[0])
    # then seat 0 and seat 1 both cannot place: a whole round of passes ends the game
    assert st.is_terminal() and st.reason == "no_placement"
    assert [e["seat"] for e in events if e["type"] == "pass"] == [0, 1]
    assert st.outcome() is not None
