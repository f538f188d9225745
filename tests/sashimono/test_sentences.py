"""Sashimono's sentences in the reader's language (issue 41, docs/i18n.md "The engines'
sentences"): every log line and illegal-move reason is a sentence (sengoku/core/sentence.py)
whose English is exactly what the engine always wrote, and which Japanese and French put into
their own words, each game word named in the language; a sentence says no more than its
English message (the same audience, no hidden card)."""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from sengoku.core.game import IllegalAction
from sengoku.core.sentence import Said
from sengoku.games.sashimono import Sashimono
from sengoku.games.sashimono.cards import KUMI_NAMES, card_set
from sengoku.games.sashimono.effects import CHOICE_LABELS
from sengoku.games.sashimono.score_turn import BONUS
from sengoku.games.sashimono.state import NUM_ACTIONS, SashimonoState
from sengoku.server import i18n

GAME = Sashimono()
CHALLENGES = (
    "challenge_corners",
    "challenge_six_sashimono",
    "challenge_abilities",
    "challenge_discard_five",
    "challenge_fewer_kumi",
    "challenge_train",
)
#: Duels and solo games, each challenge alone and all of them together.
CONFIGS: tuple[dict[str, Any], ...] = (
    {},
    {"vp": 2},
    {"vp": 5},
    {"mode": "solo"},
    {"mode": "solo", "army": "east"},
    {"mode": "solo", **dict.fromkeys(CHALLENGES, True)},
    *({"mode": "solo", c: True} for c in CHALLENGES),
)
#: The sha256 of :func:`transcript` on the engine before its sentences were made translatable
#: (commit e212d21, English f-strings): the English must not change by one character (records,
#: the command line and the tests read it).
ENGLISH_BEFORE = "e3ff594afe387547d6a472ddaf0c7693233d801d697153a8ce37ebdbd21b26f8"


def games(
    seeds: int = 25, few: int = 8
) -> Iterator[tuple[SashimonoState, random.Random, list[Any]]]:
    """Random games of every configuration: the state, the game's random choices and the
    setup's events, then the game is played by the caller."""
    for ci, config in enumerate(CONFIGS):
        for seed in range(seeds if ci < 6 else few):
            options = GAME.resolve_options(**config)
            state = SashimonoState(GAME, options, card_set(options["cards"]))
            events = state.setup(seed * 7 + ci)
            yield state, random.Random(seed + 100 * ci), events


def transcript() -> list[Any]:
    """Every event (type, audience, English message) of the random games, and every few
    decisions the reason a random action number is refused."""
    out: list[Any] = []
    for state, rng, events in games():
        out += [(ev["type"], ev["audience"], ev.get("message")) for ev in events]
        step = 0
        while not state.is_terminal() and step < 3000:
            legal = state.legal_actions()
            if step % 7 == 0:
                action = GAME.int_to_action(state, rng.randrange(NUM_ACTIONS))
                out.append(("why", state.why_illegal(action)))
            for ev in state.apply(rng.choice(legal)):
                out.append((ev["type"], ev["audience"], ev.get("message")))
            step += 1
    return out


def test_the_english_is_what_the_engine_always_wrote() -> None:
    english = json.dumps(transcript(), ensure_ascii=False).encode()
    assert hashlib.sha256(english).hexdigest() == ENGLISH_BEFORE


def played(seeds: int = 6, few: int = 2) -> Iterator[tuple[dict[str, Any], SashimonoState]]:
    """Every event of a few random games of each configuration, with the state after it."""
    for state, rng, events in games(seeds, few):
        for ev in events:
            yield ev, state
        while not state.is_terminal():
            for ev in state.apply(rng.choice(state.legal_actions())):
                yield ev, state


def parts(say: Mapping[str, Any]) -> Iterator[tuple[str, str, Any, bool]]:
    """(template, name, value, is a word) of a sentence and of every phrase inside it."""
    words = set(say.get("words") or ())
    for name, value in (say.get("args") or {}).items():
        if isinstance(value, Mapping):
            yield from parts(value)
        yield say["text"], name, value, name in words


def proper_names(state: SashimonoState) -> set[str]:
    """The names that stay as the rulebook spells them in every language (docs/i18n.md "Not
    translated yet"): the cards' and their actions' names."""
    names = {c.name for c in state.cs.cards}
    names |= {a.name for c in state.cs.cards for a in c.actions}
    names |= {a.name for a in state.cs.reference}
    return names - set(BONUS)  # the Score turn's bonus actions are named in Japanese


#: Words French keeps as they are: the Kumi types and the bonus actions (as the card texts
#: and the client spell them).
FRENCH_AS_IS = {*KUMI_NAMES.values(), *BONUS}


def test_every_sentence_keeps_its_english_and_names_only_what_it_shows() -> None:
    seen: set[str] = set()
    for ev, _state in played():
        assert ev.get("message"), ev
        say = ev.get("say")
        assert say is not None, f"an event without its sentence: {ev}"
        assert i18n.sentence_("en", say) == ev["message"]
        for template, name, value, _word in parts(say):
            # every value shows in the English: a sentence holds nothing its message does not
            # (a hidden card's name, a seat's secret)
            assert "{" + name + "}" in template, (template, name, ev)
            assert isinstance(value, (str, int, Mapping)), (template, name, value)
        seen.add(ev["type"])
    # the kinds of event the random games reach (the rarer are checked by test_log_words.py)
    assert {"turn", "draw", "battle", "casualty", "score", "bow", "kage_move"} <= seen


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_every_sentence_reads_in_the_language(lang: str) -> None:
    problems: set[str] = set()
    for ev, state in played():
        say = ev["say"]
        text = i18n.sentence_(lang, say)
        if re.search(r"\{\w+\}", text):
            problems.add(f"a place left: {text!r} ({ev['message']!r})")
        if text == ev["message"]:
            problems.add(f"English: {text!r}")
        names = proper_names(state)
        for template, _name, value, word in [(say["text"], "", None, False), *parts(say)]:
            if i18n.gettext_(lang, template) == template and template != "{first}, {rest}":
                problems.add(f"template untranslated: {template!r}")
            if not word or value in names or (lang == "fr" and value in FRENCH_AS_IS):
                continue
            if i18n.word_(lang, value) == value:
                problems.add(f"word untranslated: {value!r} in {template!r}")
    assert not problems, f"{lang}:\n" + "\n".join(sorted(problems))


def test_the_words_listed_for_the_catalog_are_translated() -> None:
    """The game words marked N_ (sides, Kumi, spaces, lines, choices): each one in the
    catalogs, even those random games seldom reach."""
    for lang in ("ja", "fr"):
        for word in ("the Kagemusha", "The Kagemusha", "West", "East", *CHOICE_LABELS):
            assert i18n.word_(lang, word) != word, (lang, word)
        for word in (*KUMI_NAMES.values(), *BONUS):
            assert i18n.word_(lang, word) != word or lang == "fr", (lang, word)


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_an_illegal_moves_reason_reads_in_the_language(lang: str) -> None:
    state = GAME.new_state(3)
    legal = {int(a) for a in state.legal_actions()}
    wrong = GAME.int_to_action(state, next(n for n in range(NUM_ACTIONS) if n not in legal))
    reason = state.why_illegal(wrong)
    assert isinstance(reason, Said) and reason.startswith(f"{wrong} is not legal now (")
    error = IllegalAction(reason)  # what the flow raises: it keeps the sentence
    assert error.say is not None and str(error) == reason
    text = i18n.sentence_(lang, error.say.wire())
    assert text != reason and str(wrong) in text
    # the rule asked for is named in the language too
    rule = i18n.gettext_(lang, state.prompt.rule if state.prompt else "")
    assert rule != (state.prompt.rule if state.prompt else "") and rule in text
    # a game over: no action is legal, in the language
    over = GAME.new_state(0)
    rng = random.Random(0)
    while not over.is_terminal():
        over.apply(rng.choice(over.legal_actions()))
    done = over.why_illegal(wrong)
    assert isinstance(done, Said)
    assert i18n.sentence_(lang, done.sentence.wire()) != done


def test_a_public_sentence_names_no_hidden_kumi() -> None:
    """A Hidden Kumi's types show only in the sentences its owner (or one who peeked) reads:
    a public sentence names a Hidden Kumi by its rank, never its types."""
    hidden_named = re.compile(r"Hidden (?:Teppo|Kiba|Nagae)")
    for ev, _state in played():
        if ev["audience"] is not None:
            continue
        for template, _name, _value, _word in parts(ev["say"]):
            if template in ("Your Hidden Kumi at {cell} is {kumi}.", "It is {stack}."):
                raise AssertionError(f"a private sentence in public: {ev}")
            # a Hidden Kumi's types (a casualty, a Kumi sent back to hand) stay unsaid
            assert template != "Hidden {names}", ev
        assert not hidden_named.search(ev["message"]), ev
