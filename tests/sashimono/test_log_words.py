"""Sashimono's events as the game log reads them (issue 17): a sentence in the rulebook's
words for every kind of event (no seat numbers, space or line codes), the ply of each, a
heading event per turn, and no line another seat reads that names a hidden card."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from sengoku.core.registry import load_game
from sengoku.games.sashimono.cards import KUMI_NAMES

GAME = load_game("sashimono")

#: What the log must never show: seat numbers, notation of spaces and lines, identifiers.
CODE = re.compile(
    r"\(seat \d\)"
    r"|\b(?:top|bottom|left|right)-[a-c1-3]\b"  # a space in notation (top-a)
    r"|\b(?:row|col)[a-c1-3]\b"  # a line in notation (row2, colc)
    r"|\bk\d\b"  # a space of the Kagemusha's line in notation
    r"|\b(?:[a-c][1-3]){2,}\b"  # an order in notation (c2c3c1)
    r"|\b[a-z]+_[a-z_]+\b"  # snake_case
    r"|[\[\]{}:]\s*$|[\[\]{}]"
    r"|'s an? "  # "West's a Hidden Kumi"
    r"|\(VP \d+\)|card\(s\)"
)
CONFIGS: tuple[dict[str, Any], ...] = ({}, {"mode": "solo"})


def games(seeds: range = range(4)) -> Iterator[list[tuple[int, int, dict[str, Any]]]]:
    """Random games (fixed seeds): (mover, ply, event) of every event."""
    for config in CONFIGS:
        for seed in seeds:
            state = GAME.new_state(seed, **config)
            rng = random.Random(seed)
            out: list[tuple[int, int, dict[str, Any]]] = []
            ply = 0
            while not state.is_terminal() and ply < 600:
                mover = state.current_player
                events = state.apply(rng.choice(state.legal_actions()))
                ply += 1
                out.extend((mover, ply, e) for e in events)
            yield out


def test_every_event_is_a_sentence_in_words_with_its_ply() -> None:
    kinds: set[str] = set()
    for events in games():
        for _mover, ply, e in events:
            kinds.add(e["type"])
            message = e["message"]
            assert message[0].isupper() and message.endswith((".", "!")), e
            assert not CODE.search(message), (CODE.search(message), e)
            if e["type"] != "game_over" or "ply" in e:
                assert e["ply"] == ply, e
    assert {"turn", "play", "draw", "place", "battle", "casualty", "flip", "bow"} <= kinds, kinds
    assert {"rearrange", "train", "kage_move", "score"} <= kinds, kinds


def test_a_heading_event_opens_each_turn() -> None:
    for events in games(range(2)):
        turns = [e for _mover, _ply, e in events if e["type"] == "turn"]
        assert len(turns) > 4
        assert [t["turn"] for t in turns] == list(range(1, len(turns) + 1))
        for t in turns:
            assert t["audience"] is None and t["name"] in ("West", "East", "The Kagemusha")


#: Public events that stand for a hidden card: they tell that it happened, never which.
COVERS = {"ante", "bottom", "keep", "look", "draw"}


def test_no_line_another_seat_reads_names_a_hidden_card() -> None:
    card_names = [c.name for c in GAME.new_state(0).cs.cards]
    for events in games():
        for _mover, _ply, e in events:
            if e["audience"] is not None:
                continue
            message = e["message"]
            hidden_place = e["type"] == "place" and "Hidden Kumi" in message
            hand_bury = e["type"] == "bury" and "from hand" in message
            if e["type"] in COVERS or hidden_place or hand_bury:
                named = [n for n in [*KUMI_NAMES.values(), *card_names] if n in message]
                assert not named, (named, e)
            if hidden_place:
                assert "kumi" not in e, e


def test_the_owner_reads_what_its_hidden_kumi_is() -> None:
    state = GAME.new_state(3)
    rng = random.Random(3)
    found = []
    for _ in range(300):
        if state.is_terminal():
            break
        mover = state.current_player
        events = state.apply(rng.choice(state.legal_actions()))
        for e in events:
            if e["type"] == "place" and e["audience"] == [mover]:
                found.append(e["message"])
    assert found
    assert all(re.fullmatch(r"Your Hidden Kumi at [a-c][1-3] is [A-Za-z-]+\.", m) for m in found)
