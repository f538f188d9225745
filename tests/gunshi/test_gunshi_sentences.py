"""Gunshi's sentences kept translatable (issue 41, docs/i18n.md "The engines' sentences"):
every log line and illegal-move reason is a ``say`` sentence whose English is the message the
engine wrote before (records, the CLI and the tests read it), whose words the catalogs name in
Japanese and French, and which names nothing its audience may not see."""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from sengoku.core.game import IllegalAction
from sengoku.core.registry import load_game
from sengoku.core.sentence import Said
from sengoku.games.gunshi.actions import NUM_ACTIONS, GunshiAction
from sengoku.games.gunshi.state import GunshiState
from sengoku.server import i18n

GAME = load_game("gunshi")

#: The variants and options whose sentences differ: the three Modifications of The Gunshi's
#: Inspiration, the Custom Deck Construction's four ways of choosing (and Optional Rule 1),
#: the Sanryaku cards (Rapid Fire, Strategic Switch, Chain Trap), the starter formations.
CONFIGS: tuple[dict[str, Any], ...] = (
    {},
    {"variant": "inspiration", "modification": 1, "sanryaku": True},
    {"variant": "inspiration", "modification": 2},
    {"variant": "inspiration", "modification": 3, "sanryaku": True},
    {"variant": "custom", "sanryaku": True},
    {"variant": "custom", "custom_selection": "alternate_all", "sanryaku": True},
    {"variant": "custom", "custom_selection": "secret"},
    {"variant": "custom", "custom_selection": "agreed", "move_up_for_selection": True},
    {"preset": "first_battle"},
    {"preset": "advanced_2"},
)
SEEDS = range(3)


@cache
def played() -> list[tuple[list[dict[str, Any]], list[str]]]:
    """Random games (fixed seeds) over ``CONFIGS``: the events of each, and the reasons
    ``why_illegal`` gives for one action not legal at every decision (and once the game is
    over). Played once for all the tests here (they only read them)."""
    return list(_play())


def _play() -> Iterator[tuple[list[dict[str, Any]], list[str]]]:
    for config in CONFIGS:
        for seed in SEEDS:
            state = GAME.new_state(seed, **config)
            assert isinstance(state, GunshiState)
            rng = random.Random(seed)
            events: list[dict[str, Any]] = []
            reasons: list[str] = []
            ply = 0
            while ply < 900:
                legal = state.legal_actions()
                taken = {a.to_int() for a in legal}
                other = rng.choice([n for n in range(NUM_ACTIONS) if n not in taken])
                reason = state.why_illegal(GunshiAction.from_int(other))
                assert reason is not None
                reasons.append(reason)
                if state.is_terminal():
                    break
                events.extend(state.apply(rng.choice(legal)))
                ply += 1
            yield events, reasons


#: sha256 of every event's type, audience and message and every reason of ``played()``, one
#: a line, computed on the engine before its sentences were made translatable (commit
#: e212d21, where each message was an f-string): the English stays exactly what it was.
ENGLISH_SHA256 = "ae7e4693d440980c26a080a50611cd0a23d66e7b5edc06c29e6462da4fb59242"


def english_lines() -> list[str]:
    lines: list[str] = []
    for events, reasons in played():
        lines.extend(f"{e['type']}|{e['audience']}|{e['message']}" for e in events)
        lines.extend(f"reason|{r}" for r in reasons)
    return lines


def test_the_english_is_unchanged() -> None:
    digest = hashlib.sha256("\n".join(english_lines()).encode()).hexdigest()
    assert digest == ENGLISH_SHA256


def sentences() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every event's and every reason's sentence of ``played()``: its English and its parts
    (the ``say`` an event carries, the wire form of a reason's sentence)."""
    for events, reasons in played():
        for e in events:
            assert "say" in e, e
            yield e["message"], e["say"]
        for r in reasons:
            assert isinstance(r, Said), r
            yield r, r.sentence.wire()


def test_every_event_and_reason_is_a_sentence_whose_english_is_the_message() -> None:
    for events, reasons in played():
        for e in events:
            say_ = e["say"]
            assert say_["text"].format_map(say_["args"]) == e["message"], e
            # the sentence holds nothing the English does not: every value has its place
            assert all("{" + name + "}" in say_["text"] for name in say_["args"]), e
            assert set(say_.get("words", ())) <= set(say_["args"]), e
        for r in reasons:
            assert isinstance(r, Said) and str(r.sentence) == r, r


def test_an_illegal_move_keeps_its_sentence() -> None:
    state = GAME.new_state(0)
    legal = {a.to_int() for a in state.legal_actions()}
    other = GunshiAction.from_int(next(n for n in range(NUM_ACTIONS) if n not in legal))
    with pytest.raises(IllegalAction) as caught:
        state.apply(other)
    assert caught.value.say is not None
    assert str(caught.value.say) == str(caught.value)
    fr = i18n.sentence_("fr", caught.value.say.wire())
    assert fr.startswith(f"{other} n’est pas permis maintenant (Phase 1, "), fr


def translated_word(lang: str, word: str) -> bool:
    """Whether a catalog names ``word`` in ``lang`` (French keeps "Archer", "Shogun")."""
    return word in i18n.game_words(lang) or bool(i18n.gettext_(lang, word) != word)


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_every_sentence_reads_in_the_language(lang: str) -> None:
    templates: set[str] = set()
    for english, wire in sentences():
        text = i18n.sentence_(lang, wire)
        assert "{" not in text and "}" not in text, (text, wire)
        assert text != english, (lang, wire)  # the catalog translates the template
        for name in wire.get("words", ()):
            word = wire["args"][name]
            assert translated_word(lang, word), (lang, word, wire)
            assert str(word) not in text or i18n.word_(lang, word) == word, (text, wire)
        templates.add(wire["text"])
        if lang == "ja":
            # Japanese words only, beside the values shown as they are (squares, unit
            # letters, notation): no English word left
            rest = text
            shown = [str(v) for k, v in wire["args"].items() if k not in wire.get("words", ())]
            for value in sorted(shown, key=len, reverse=True):
                rest = rest.replace(value, "")
            assert not re.search("[A-Za-z]", rest), (text, wire)
    assert len(templates) > 60, len(templates)


def test_the_words_of_gunshi_are_named_in_both_languages() -> None:
    """The phases' names and the reasons a command does nothing are words of the catalog;
    a card's own name comes before the catalog's word ("Move", Gunshi's card, is not a move
    of a game)."""
    from sengoku.games.gunshi import words
    from sengoku.games.gunshi.state import PHASES

    assert {p.name for p in PHASES.values()} == set(words.PHASE_NAMES)
    for lang in ("ja", "fr"):
        for word in (*words.WORDS, *words.PHASE_NAMES):
            assert i18n.word_(lang, word) != word, (lang, word)
        assert i18n.word_(lang, "Move") == i18n.game_words(lang)["Move"]
    assert i18n.word_("fr", "Move") == "Déplacement"
    assert i18n.word_("ja", "Move") == "移動"


def test_a_public_sentence_names_no_hidden_card() -> None:
    """A sentence has its event's audience: a public one names a card only when the card
    is shown to everyone (resolved, sent face up, picked in the open, taken from the shared
    pool, revealed), and the Shogun only in its owner's own line."""
    from sengoku.games.gunshi.data import CARDS

    names = {c.name for c in CARDS.values()}
    shown = {"resolve", "send", "taken", "pick", "m3_reveal"}
    seen: set[str] = set()
    for events, _reasons in played():
        for e in events:
            named = {v for v in e["say"]["args"].values() if v in names}
            if e["audience"] is None and named:
                seen.add(e["type"])
                assert e["type"] in shown, e
                if e["type"] == "send":
                    assert (
                        e["say"]["text"] == "{colour} sends {card} face up to position {position}."
                    )
                if e["type"] == "pick":
                    assert e["say"]["text"] == "{colour} chooses {card}.", e
            if e["type"] in {
                "shogun",
                "draw",
                "prepare",
                "m3_choice",
                "remove",
                "take",
                "hand",
                "deck",
            }:
                assert e["audience"] is not None and len(e["audience"]) == 1, e
    assert seen == shown, seen
