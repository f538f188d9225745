"""Sentences kept translatable (sengoku/core/sentence.py): the English text for records and
the CLI, the parts for a reader's language, through events and errors alike."""

from __future__ import annotations

import copy
import json
import pickle

from sengoku.core.game import IllegalAction, event
from sengoku.core.sentence import Word, said, say


def test_an_event_keeps_the_english_and_the_parts() -> None:
    ev = event(
        "draw",
        [1],
        message=say(
            "{colour} draws {card} on {square}.", colour=Word("Red"), card=Word("Bow"), square="a1"
        ),
        card=7,
    )
    assert ev["message"] == "Red draws Bow on a1."
    assert ev["say"] == {
        "text": "{colour} draws {card} on {square}.",
        "args": {"colour": "Red", "card": "Bow", "square": "a1"},
        "words": ["colour", "card"],
    }
    assert ev["audience"] == [1] and ev["card"] == 7
    assert json.loads(json.dumps(ev)) == ev  # JSON-ready


def test_plain_text_stays_plain() -> None:
    ev = event("note", None, message="The decks are built.")
    assert ev["message"] == "The decks are built." and "say" not in ev


def test_numbers_stay_numbers_and_words_are_only_the_marked_ones() -> None:
    wire = say("{n} VP for {troop}", n=3, troop=Word("Cavalry")).wire()
    assert wire["args"] == {"n": 3, "troop": "Cavalry"} and wire["words"] == ["troop"]
    assert "words" not in say("{n} left", n=2).wire()


def test_an_error_raised_with_a_sentence_keeps_it() -> None:
    exc = IllegalAction(say("tile {tile} is not in your hand", tile="S2C1"))
    assert str(exc) == "tile S2C1 is not in your hand"
    assert exc.say is not None and exc.say.wire()["text"] == "tile {tile} is not in your hand"
    # a reason returned as text (why_illegal's contract) still knows its sentence
    reason = said(say("{unit} cannot move", unit=Word("Archer")))
    assert reason == "Archer cannot move" and isinstance(reason, str)
    again = IllegalAction(reason)
    assert again.say is not None and again.say.wire()["words"] == ["unit"]
    # plain text: no sentence; errors still cross process boundaries as text
    assert IllegalAction("no such square").say is None
    assert str(pickle.loads(pickle.dumps(exc))) == "tile S2C1 is not in your hand"


def test_a_sentence_pickles_and_copies_compiled_or_not() -> None:
    """The server keeps errors and copies states that hold sentences; the compiled class
    (mypyc, docs/architecture.md "The core compiled") cannot be rebuilt by the default
    protocol, whose empty object its constructor refuses."""
    sentence = say(
        "{unit} takes {n} in {place}", unit=Word("Archer"), n=2, place=say("{s}", s="B2")
    )
    for copied in (
        pickle.loads(pickle.dumps(sentence)),
        copy.deepcopy(sentence),
        copy.copy(sentence),
    ):
        assert copied == sentence and copied is not sentence
        assert str(copied) == "Archer takes 2 in B2" and copied.wire() == sentence.wire()
        assert isinstance(copied.args["unit"], Word)


def test_a_phrase_inside_a_sentence_is_a_sentence_too() -> None:
    """A value may be a sentence of its own (a Kumi's place, a list of cards): its English
    inside the English, its own template and words in the wire form, for the reader's
    language to translate as a whole (sengoku/server/i18n.py sentence_, i18n.js said)."""
    place = say("{side}'s Kumi at {cell}", side=Word("West"), cell="b2")
    ev = event("peek", None, message=say("{who} peeks at {kumi}.", who=Word("East"), kumi=place))
    assert ev["message"] == "East peeks at West's Kumi at b2."
    assert ev["say"]["args"]["kumi"] == {
        "text": "{side}'s Kumi at {cell}",
        "args": {"side": "West", "cell": "b2"},
        "words": ["side"],
    }
    assert ev["say"]["words"] == ["who"]  # the phrase is no word: it is translated as a sentence


def test_a_sentence_inside_a_sentence_is_translated_as_a_whole() -> None:
    """A reason inside "{move} is not legal here: {reason}" (Gungi's refusals): its own
    template and words, translated where shown; English as one text."""
    from sengoku.server import i18n

    reason = said(say("no {piece} in hand", piece=Word("Cannon")))
    outer = say("{move} is not legal here: {reason}", move="5-5-1 砲新", reason=reason)
    assert str(outer) == "5-5-1 砲新 is not legal here: no Cannon in hand"
    wire = outer.wire()
    assert wire["args"]["reason"] == {
        "text": "no {piece} in hand",
        "args": {"piece": "Cannon"},
        "words": ["piece"],
    }
    assert json.loads(json.dumps(wire)) == wire
    assert IllegalAction(said(outer)).say == outer
    assert i18n.sentence_("fr", wire) == "5-5-1 砲新 n’est pas permis ici : pas de Canon en main"
    assert i18n.sentence_("en", wire) == str(outer)
    # a broken outer translation falls back to the English, the inner one in English too
    assert i18n.sentence_("fr", {**wire, "text": "{nope}"}) == "{nope}"
