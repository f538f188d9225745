"""Gunkimono's sentences for players (log lines, illegal moves' reasons) are kept translatable
(docs/i18n.md "The engines' sentences"): every event's message carries its ``say``, whose
English is the message itself, and Japanese and French read them whole.

The English stays exactly as it was: records, the CLI and the tests compare ``message``. The
digest below was taken from the transcript of random games on the code before the sentences
were made translatable.

A sentence has its event's audience and holds nothing its English does not: no public
sentence names a tile drawn from the stack or a banner's value.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from sengoku.core.game import IllegalAction, ParseError, SengokuError
from sengoku.core.sentence import Said
from sengoku.games.gunkimono import GunkimonoState
from sengoku.games.gunkimono.actions import (
    DRAW_BASE,
    NUM_ACTIONS,
    PLACE_BASE,
    SCORE_BASE,
    SMALL_BASE,
    STRONGHOLD_BASE,
    SUPPORT_BASE,
    int_to_action,
)
from sengoku.games.gunkimono.data import components
from sengoku.games.gunkimono.state import CELLS
from sengoku.server import i18n
from tests.gunkimono.helpers import GAME, neutral, new, play, sq

C = components()
#: Every kind of event the engine says something in (all of them but the turn's own).
SAID_TYPES = {
    "assess",
    "banner",
    "banner_value",
    "draw",
    "drawn",
    "end_stack",
    "end_triggered",
    "game_over",
    "pass",
    "place",
    "reveal",
    "score",
    "stronghold",
    "stronghold_blocked",
    "support",
}

#: (players, options) of the games played: every player count, and the options that change
#: what is said (an empty banner stack, the end tile's replacement).
SETUPS: tuple[tuple[int, dict[str, object]], ...] = (
    (2, {}),
    (3, {"empty_banner_stack": "stay"}),
    (4, {"end_tile_replacement": False, "own_double_stronghold": True}),
    (5, {"removed_marker_counts": False, "link_own_formations": False}),
    (2, {"empty_banner_stack": "stay", "end_tile_replacement": False}),
    (3, {}),
    (4, {"empty_banner_stack": "stay"}),
    (5, {}),
    (2, {"own_double_stronghold": True, "removed_marker_counts": False}),
    (4, {"link_own_formations": False, "end_tile_replacement": False}),
    (5, {"empty_banner_stack": "stay", "own_double_stronghold": True}),
    (3, {"end_tile_replacement": False}),
)

#: The action numbers' blocks, one kind of action each (actions.py).
BLOCKS = (
    (PLACE_BASE, SMALL_BASE),
    (SMALL_BASE, SUPPORT_BASE),
    (SUPPORT_BASE, SCORE_BASE),
    (SCORE_BASE, STRONGHOLD_BASE),
    (STRONGHOLD_BASE, DRAW_BASE),
    (DRAW_BASE, NUM_ACTIONS),
)

#: sha256 of :func:`transcript`'s JSON lines, taken on the code before ``say``; taken again
#: when the Extra Support rule's refusal added ", and that tile must then be able to cover
#: it" (that phrase removed from the new transcript, its digest was the old one).
ENGLISH_DIGEST = "c28fb288110e3133d4aabe43dc5342a6d2438c483daa0dca698ebfc893711818"


def played(index: int) -> Iterator[tuple[GunkimonoState, list[dict[str, Any]]]]:
    """A random game of ``SETUPS[index]``: each state before a decision, and its events."""
    players, options = SETUPS[index]
    rng = random.Random(4100 + index)
    st = GAME.new_state(seed=900 + index, players=players, **options)
    while not st.is_terminal():
        action = rng.choice(st.legal_actions())
        before = st.clone()
        events = st.apply(action)
        yield before, events
    yield st, []


def refusals(st: GunkimonoState, rng: random.Random) -> Iterator[str]:
    """What a player is told for illegal moves here: reasons, refused notation, errors."""
    numbers = [n for low, high in BLOCKS for n in rng.sample(range(low, high), 5)]
    for n in numbers:
        action = int_to_action(n)
        why = st.why_illegal(action)
        if why is not None:
            yield f"why {action}: {why}"
            try:
                st.clone().apply(action)
            except SengokuError as exc:
                yield f"apply {action}: {exc}"
            try:
                GAME.parse_action(st, str(action))
            except SengokuError as exc:
                yield f"parse {action}: {exc}"
            short = getattr(action, "short", None)
            if short is not None:
                try:
                    GAME.parse_action(st, short())
                except SengokuError as exc:
                    yield f"parse short {action}: {exc}"


def transcript(index: int) -> Iterator[str]:
    """Every event's message (with its type and audience) of a random game, and, every few
    decisions, the reasons given for refused moves."""
    rng = random.Random(index)
    for decision, (before, events) in enumerate(played(index)):
        if decision % 7 == 0:
            yield from refusals(before, rng)
        for ev in events:
            yield json.dumps([ev["type"], ev["audience"], ev.get("message")])


def test_the_english_is_unchanged() -> None:
    digest = hashlib.sha256()
    for index in range(len(SETUPS)):
        for line in transcript(index):
            digest.update(line.encode() + b"\n")
    assert digest.hexdigest() == ENGLISH_DIGEST


def all_events() -> Iterator[tuple[GunkimonoState, list[dict[str, Any]]]]:
    """The random games' events, decision by decision, and the rare ones set up by hand."""
    for index in range(len(SETUPS)):
        yield from played(index)
    yield new(2), rare_events()


def rare_events() -> list[dict[str, Any]]:
    """Events random games seldom reach: a marker at an empty banner stack, a stronghold
    that cannot be built, a turn passed for want of a placement."""
    events: list[dict[str, Any]] = []
    st = new(4, empty_banner_stack="remove")
    for seat in range(4):  # dragon, crane, lotus, then the archer column's stack is empty
        st.honor[seat][4] = C.ending_row[4] - 1
        st._advance_honor(seat, 4, 1, events)
    st = neutral(new(2))
    for c in range(CELLS):
        st.top[c] = 0  # one infantry formation ...
    st.top[sq("e5")] = 1  # ... and one samurai
    st.strongholds[1].append(sq("a1"))
    st.sh_owner[sq("a1")] = 1
    st.honor[0] = [C.stronghold_rows[2][0]] * 5
    st._legal = None
    events += play(st, "small I@e5", "honor I@e5")
    st = new(2)
    st.hands = [[], []]
    st.stack, st.row, st.end_stack, st.removed = [], [], [], []
    st.reserve = [[], []]
    st.phase = "draw"
    st.end_turn(events)
    return events


def wording(say: dict[str, Any], lang: str) -> str:
    return i18n.sentence_(lang, say)


def assert_translated(say: dict[str, Any], lang: str) -> None:
    """``say`` reads whole in ``lang``: its template translated, no place left unfilled, each
    of its game words named by the language's catalogs."""
    english = say["text"].format_map(say["args"])
    text = wording(say, lang)
    assert not re.search(r"\{\w+\}", text), (lang, say, text)
    assert text != english, (lang, say)
    assert i18n.gettext_(lang, say["text"]) != say["text"], (lang, say["text"])
    for name in say.get("words", ()):
        word = say["args"][name]
        entry = i18n.catalog(lang).get(word)
        assert (entry is not None and entry.string) or word in i18n.game_words(lang), (
            lang,
            name,
            word,
        )


def test_every_event_says_its_message() -> None:
    seen: set[str] = set()
    for _before, events in all_events():
        drawn = {ev["tile"] for ev in events if ev["type"] == "drawn"}
        for ev in events:
            if "message" not in ev:
                continue
            seen.add(ev["type"])
            say = ev["say"]
            # The English is the sentence's, and the sentence holds nothing more.
            assert say["text"].format_map(say["args"]) == ev["message"], ev
            assert all(str(v) in ev["message"] for v in say["args"].values()), ev
            if ev["audience"] is None:
                # A public sentence names no tile drawn from the stack, no banner's value.
                assert not {v for v in say["args"].values() if v in drawn}, ev
                assert "value" not in say["args"], ev
            assert json.loads(json.dumps(say)) == say  # sent as it is
    assert seen == SAID_TYPES


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_every_sentence_reads_in_the_language(lang: str) -> None:
    said_templates: set[str] = set()
    for _before, events in all_events():
        for ev in events:
            if "say" in ev and ev["say"]["text"] not in said_templates:
                said_templates.add(ev["say"]["text"])
                assert_translated(ev["say"], lang)
    assert len(said_templates) > 20


def refusal_sentences() -> Iterator[tuple[str, Any]]:
    """Each refused action of the random games: (the English reason, its sentence)."""
    for index in range(0, len(SETUPS), 2):
        rng = random.Random(index)
        for decision, (before, _events) in enumerate(played(index)):
            if decision % 5:
                continue
            for low, high in BLOCKS:
                for n in rng.sample(range(low, high), 3):
                    action = int_to_action(n)
                    why = before.why_illegal(action)
                    if why is None:
                        continue
                    assert isinstance(why, Said), (action, why)
                    with pytest.raises(IllegalAction) as refused:
                        before.clone().apply(action)
                    assert refused.value.say == why.sentence
                    assert str(refused.value) == why
                    yield why, why.sentence.wire()


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_every_refusal_reads_in_the_language(lang: str) -> None:
    templates: set[str] = set()
    for why, say in refusal_sentences():
        assert say["text"].format_map(say["args"]) == why
        if say["text"] not in templates:
            templates.add(say["text"])
            assert_translated(say, lang)
    assert len(templates) > 10


def test_refused_notation_keeps_its_sentence() -> None:
    st = new(2)
    with pytest.raises(ParseError) as refused:
        GAME.parse_action(st, "stronghold c3")
    assert refused.value.say is not None
    say = refused.value.say.wire()
    assert say["text"] == "{notation} is not legal here: {reason}"
    assert str(refused.value) == (
        "'stronghold c3' is not legal here: no stronghold to build now; now: place a tile"
    )
    assert i18n.sentence_("fr", say).startswith("'stronghold c3' n’est pas légal ici : ")
    # the rule's own sentence is a phrase of the refusal: it reads in the language too
    assert isinstance(say["args"]["reason"], dict)
    reason = i18n.sentence_("fr", say["args"]["reason"])
    assert reason != "no stronghold to build now; now: place a tile"
    assert i18n.sentence_("fr", say).endswith(reason)
