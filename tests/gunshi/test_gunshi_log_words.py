"""Gunshi's events as the game log reads them (issue 17): a sentence in the rulebook's words
for every kind of event, no engine codes, the ply of each, a heading event per battle turn,
and no line another seat reads that names what is hidden from it."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from sengoku.core.registry import load_game
from sengoku.games.gunshi.data import CARDS, LETTERS, unit_words

GAME = load_game("gunshi")

#: What the log must never show: notation (facings, edges), identifiers, data structures.
CODE = re.compile(
    r"\b[a-g][1-7][nesw]\b"  # an edge in notation (d3n)
    r"|\bfac(?:e|es|ing) [nesw]\b|\bmoves? [nesw]\b"  # a facing letter
    r"|\b[a-g][1-7]-[a-g][1-7]\b"  # a step in notation (e5-e4)
    r"|\b[a-z]+_[a-z_]+\b"  # snake_case
    r"|[\[\]{}]|'[A-Za-z]+'"  # a list or a dict written out
    r"|\b1 (?:points|cards)\b"
    r"|\bposition L\b|\bPosition L\b"
)
#: The variants and options whose events differ.
CONFIGS: tuple[dict[str, Any], ...] = (
    {},
    {"variant": "inspiration", "modification": 1},
    {"variant": "inspiration", "modification": 2},
    {"variant": "inspiration", "modification": 3},
    {"variant": "custom"},
    {"variant": "custom", "custom_selection": "secret"},
    {"preset": "first_battle"},
)


def games(seeds: range = range(3)) -> Iterator[tuple[int, list[tuple[int, int, dict[str, Any]]]]]:
    """Random games (fixed seeds): for each, (mover, ply, event) of every event."""
    for config in CONFIGS:
        for seed in seeds:
            state = GAME.new_state(seed, **config)
            rng = random.Random(seed)
            out: list[tuple[int, int, dict[str, Any]]] = []
            ply = 0
            while not state.is_terminal() and ply < 900:
                mover = state.current_player
                events = state.apply(rng.choice(state.legal_actions()))
                ply += 1
                out.extend((mover, ply, e) for e in events)
            yield seed, out


def test_every_event_is_a_sentence_in_words_with_its_ply() -> None:
    kinds: set[str] = set()
    for _seed, events in games():
        for _mover, ply, e in events:
            kinds.add(e["type"])
            message = e["message"]
            assert message[0].isupper() and message.endswith((".", "!")), e
            assert not CODE.search(message), (CODE.search(message), e)
            assert "  " not in message, e
            if e["type"] == "game_over":
                continue  # the length guard's own event, if any, comes from the core
            assert e["ply"] == ply, e
    # The kinds of events these games reach (each kind's words are checked above).
    assert {"place", "fence", "send", "resolve", "move", "resupply", "turn"} <= kinds, kinds
    assert {"capture", "reorient", "shogun", "hand", "deck", "draw", "m3_reveal"} <= kinds, kinds


def test_a_heading_event_opens_each_battle_turn() -> None:
    for _seed, events in games(range(1)):
        turns = [e for _mover, _ply, e in events if e["type"] == "turn"]
        assert turns, "no battle turn"
        assert [t["turn"] for t in turns] == list(range(1, len(turns) + 1))
        for t in turns:
            assert t["audience"] is None
            assert t["name"] == ("Red", "Blue")[t["seat"]]
            assert t["message"] == f"{t['name']}'s turn {t['turn']}."


#: Public events that stand for a hidden choice: they tell that it happened, never what.
COVERS = {"shogun_chosen", "pick_made", "prepared", "m3_chosen", "removed", "ready", "resupply"}
NAMES = [c.name for c in CARDS.values()] + [unit_words(u) for u in range(len(LETTERS))]


def test_no_line_another_seat_reads_names_a_hidden_card_or_the_shogun() -> None:
    for _seed, events in games():
        for _mover, _ply, e in events:
            audience = e["audience"]
            if audience is not None:
                # A line about a hidden choice goes to the one seat that made or saw it.
                assert len(audience) == 1, e
                continue
            covers = e["type"] in COVERS or (
                e["type"] == "taken" and "Advanced card" in e["message"]
            )
            if covers:
                named = [n for n in NAMES if n in e["message"]]
                assert not named, (named, e)
        # The face-down send the other seat reads names the position only.
        face_down = [
            e for mover, _ply, e in events if e["type"] == "send" and e["audience"] == [1 - mover]
        ]
        for e in face_down:
            assert "card" not in e and re.fullmatch(
                r"(Red|Blue) sends a card face down to position \d\.", e["message"]
            ), e


def test_the_private_line_names_the_card_for_its_owner_only() -> None:
    state = GAME.new_state(5, preset="first_battle")
    rng = random.Random(5)
    seen = 0
    while not state.is_terminal() and seen < 6:
        mover = state.current_player
        events = state.apply(rng.choice(state.legal_actions()))
        for e in events:
            if e["type"] == "send" and e["audience"] == [mover]:
                name = CARDS[e["card"]].name
                assert e["message"] == f"You send {name} face down."
                other = [x for x in events if x["audience"] in (None, [1 - mover])]
                assert other and all(
                    name not in x["message"]
                    for x in other
                    if x["ply"] == e["ply"] and x["type"] == "send"
                )
                seen += 1
    assert seen
