"""The engine's fast paths give what the general code gives.

``words.english`` (an event's English text from the template's pieces) must be
``str(sentence)`` for every kind of value a sentence holds; ``sorted_unique`` (the legal
list's order check over the actions' kept numbers) must be ``sorted(set(...), key=to_int)``;
the number kept on an action is its ``to_int``, and is no part of its identity.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from types import MappingProxyType

import pytest

from sengoku.core.sentence import Sentence, Word, said, say
from sengoku.games.gunshi.actions import (
    INDEX,
    OFFSET,
    VOCABULARY,
    A,
    GunshiAction,
    sorted_unique,
)
from sengoku.games.gunshi.words import card, colour, english, told


@pytest.mark.parametrize(
    "sentence",
    [
        say("{colour} draws {card}.", colour=colour(0), card=card("M")),
        say("{colour} pays {cost} points.", colour=colour(1), cost=6),
        say(
            "Position {position}: {flag} {ratio} {nothing}",
            position=3,
            flag=True,
            ratio=0.5,
            nothing=None,
        ),
        say("{a}{b}", a="plain", b=Word("word")),
        say(
            "Nothing happens: {why}.",
            why=say("{unit} cannot {verb}", unit=Word("Cavalry"), verb="move"),
        ),
        say("{move} is not legal here: {reason}", move="send M", reason=said(say("{n} left", n=2))),
        say("Braces {{kept}} around {x}, and none at all", x=1),
        say("no places at all"),
        say("{n:>4}|{w!r}", n=7, w="x"),  # a format spec and a conversion: the general way
        say("{x.real} and {x[0]}", x=3),  # an attribute and an index: the general way
        say("{0} and {x}", x=3),  # a positional place: the general way
        say("{big} {negative}", big=10**30, negative=-5),
        say("{w} {s} {n} {f} {b} {z}", w=Word("Red"), s="d4", n=0, f=2.0, b=False, z=None),
        say(
            "{said} {nested}",
            said=said(say("{x} {y}", x=Word("Blue"), y=1)),
            nested=say("{c}", c=card("M")),
        ),
    ],
)
def test_english_is_the_sentences_text(sentence: Sentence) -> None:
    try:
        expected = str(sentence)
    except (IndexError, KeyError, TypeError, ValueError) as error:
        with pytest.raises(type(error)):
            english(sentence)
        return
    assert english(sentence) == expected
    assert english(sentence) == expected  # the second time from the parsed pieces
    text, wire = told(sentence)
    assert text == expected
    assert json.dumps(wire) == json.dumps(sentence.wire())  # the same, key order and all
    for name, value in sentence.args.items():  # the same types (1 and 1.0, True and "True")
        assert type(wire["args"][name]) is type(sentence.wire()["args"][name]), (name, value)


def test_told_of_values_that_are_not_a_dict_is_the_sentences() -> None:
    sentence = Sentence("{a} and {b}", MappingProxyType({"a": colour(0), "b": 2}))
    assert told(sentence) == (str(sentence), sentence.wire())


def test_english_names_a_missing_value_as_format_map_does() -> None:
    with pytest.raises(KeyError):
        english(say("{colour} draws {card}.", colour=colour(0)))


def test_shared_words_are_the_words() -> None:
    assert colour(0) == "Red" and colour(1) == "Blue" and type(colour(0)) is Word
    assert card("M") == "Move" and type(card("M")) is Word
    with pytest.raises(KeyError):
        card("nothing")


def test_the_kept_number_is_to_int_and_no_part_of_the_action() -> None:
    for kind, vocab in VOCABULARY.items():
        for arg in vocab:
            made = GunshiAction(kind, arg)
            assert made.number == OFFSET[kind] + INDEX[kind][arg] == made.to_int()
            assert made == A(kind, arg) and hash(made) == hash(A(kind, arg))
            assert GunshiAction.from_int(made.number) == made
    action = A("send", "M")
    assert repr(action) == "GunshiAction('send', 'M')" and str(action) == "send M"
    assert pickle.loads(pickle.dumps(action)) is action
    assert copy.deepcopy(action) is action
    with pytest.raises(TypeError):
        GunshiAction("send", "M", 3)  # type: ignore[call-arg]  # not an argument


def test_sorted_unique_is_sorted_set_by_number() -> None:
    rng = random.Random(5)
    interned = [A(kind, arg) for kind, vocab in VOCABULARY.items() for arg in vocab]
    for _ in range(300):
        actions = rng.sample(interned, rng.randint(0, 12))
        if rng.random() < 0.5:
            actions.sort(key=GunshiAction.to_int)  # the usual case: in order already
        if actions and rng.random() < 0.3:
            actions.append(rng.choice(actions))  # a duplicate
        if actions and rng.random() < 0.3:
            # an equal action that is not the interned one
            twin = rng.choice(actions)
            actions.insert(rng.randrange(len(actions) + 1), GunshiAction(twin.kind, twin.arg))
        got = sorted_unique(actions)
        assert got == sorted(set(actions), key=GunshiAction.to_int)
        assert got is not actions  # a list of its own: the state keeps it
