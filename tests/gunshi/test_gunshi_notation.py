"""Notation, integer mapping, records, options and the terminal."""

from __future__ import annotations

import io
import random

import pytest

from sengoku.core.game import InvalidOption, ParseError, SengokuError
from sengoku.core.record import GameRecord
from sengoku.games.gunshi import GunshiAction
from sengoku.games.gunshi.actions import NUM_ACTIONS, A, sorted_unique
from sengoku.terminal import play_terminal
from tests.gunshi.helpers import GAME, battle, play, resolve


def test_every_action_int_round_trips() -> None:
    s = GAME.new_state(0)
    assert GAME.num_distinct_actions() == NUM_ACTIONS
    for n in range(NUM_ACTIONS):
        a = GAME.int_to_action(s, n)
        assert GAME.action_to_int(s, a) == n
        assert GunshiAction(*str(a).split(" ", 1)) == a if " " in str(a) else True
    with pytest.raises(ParseError):
        GAME.int_to_action(s, NUM_ACTIONS)


def test_short_forms_and_edge_spellings() -> None:
    s = battle(["R I d4 n", "B I a7 s"], row=(("F",), ()))
    resolve(s)
    assert GAME.parse_action(s, "d4") == GunshiAction("unit", "d4")
    assert GAME.format_action(s, GunshiAction("unit", "d4")) == "d4"
    play(s, "d4")
    assert GAME.parse_action(s, "fence d5s") == GunshiAction("fence", "d4n")
    assert GAME.parse_action(s, "D4N") == GunshiAction("fence", "d4n")
    with pytest.raises(ParseError, match="names no legal action"):
        GAME.parse_action(s, "fence a1n")


def test_record_replays_exactly() -> None:
    record, state = GameRecord.start(GAME, 11, variant="inspiration", modification=1)
    rng = random.Random(11)
    while not state.is_terminal():
        record.play(state, rng.choice(state.legal_actions()))
    again = GameRecord.from_json(record.to_json()).replay()
    assert again.to_json() == state.to_json()


def test_unknown_options_and_values_are_refused() -> None:
    with pytest.raises(InvalidOption, match="variant"):
        GAME.new_state(0, variant="chess")
    with pytest.raises(InvalidOption, match="logistics_cap"):
        GAME.new_state(0, logistics_cap=5)
    assert GAME.new_state(0, logistics_cap=None).options["logistics_cap"] is None


def test_logistics_cap_limits_gains() -> None:
    s = battle(["R I a1 n", "B I a7 s"], row=(("Review",), ()), points=(19, 18), logistics_cap=20)
    resolve(s)
    assert s.logistics.points[0] == 20


def test_terminal_game_against_random() -> None:
    lines = iter(["moves", "place C", "d2", "n", "quit"])
    out = io.StringIO()
    record = play_terminal(GAME, {}, {0}, read=lambda _prompt: next(lines), out=out)
    text = out.getvalue()
    assert "Creating Your Battle Formation" in text and "RCK^" in text  # Cavalry K
    assert record.actions[:3] == ["place C", "at d2", "face n"]


def test_position_string_round_trip_and_errors() -> None:
    s = battle(
        ["R C d2 n", "R i c3 e", "B A d6 s", "B I a7 s"],
        ["R d3n", "B d5n"],
        row=(("M", "Re"), ()),
        points=(7, 12),
        fences_left=(3, 3),
    )
    s.cards.row[0] = [("M", False, False), ("Re", True, True)]
    text = GAME.position(s)
    # Red is sending new commands (the cards of this turn are resolved): stage "send".
    assert text == "bs6/3qs3/7/7/2Ae-4/3Kn3/7 R:d3n,B:d5n r 7,12 3,3 0,0 ?.Re/- send,0,dd"
    again = GAME.from_fen(text)
    assert again.phase == "battle" and again.orders.cmd is None
    assert GAME.position(again) == text
    # Without the stage (the older 7 fields) the turn starts: Red's Move resolves.
    legacy = GAME.from_fen(text.rsplit(" ", 1)[0])
    assert legacy.orders.cmd is not None and legacy.battle.cur is not None
    for bad, field in [
        ("7/7 - r", "8 fields"),
        ("7/7 - r 1,1 4,4 0,0 -/-", "7 ranks"),
        (text.replace(" r ", " x "), "to act"),
    ]:
        with pytest.raises(SengokuError, match=field):
            GAME.from_fen(bad)


def test_sorted_unique_orders_and_deduplicates_the_engine_actions() -> None:
    """The legal list's sort (``actions.sorted_unique``): in action-number order, each once,
    whether the rules generated them in order (the usual case, returned as a copy) or not."""
    rng = random.Random(4)
    interned = [A("at", f"{c}{r}") for c in "abcdefg" for r in "1234567"]
    in_order = sorted(interned, key=GunshiAction.to_int)
    same = sorted_unique(in_order)
    assert same == in_order and same is not in_order
    for _ in range(20):
        mixed = rng.sample(interned, 12) * 2
        rng.shuffle(mixed)
        assert sorted_unique(mixed) == sorted(set(mixed), key=GunshiAction.to_int)
    # A repeated action right after itself is a duplicate, not an ordered list.
    assert sorted_unique([in_order[0], in_order[0]]) == [in_order[0]]
    # An action not interned (never the engine's) goes the plain way.
    plain = [GunshiAction("at", "b2"), GunshiAction("at", "a1")]
    assert sorted_unique(plain) == [GunshiAction("at", "a1"), GunshiAction("at", "b2")]
