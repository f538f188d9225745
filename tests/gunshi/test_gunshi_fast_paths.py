"""The engine's fast paths give what the general code gives.

``sengoku.core.sentence.english`` (an event's English text from the template's pieces) must be
``str(sentence)`` for every kind of value a sentence holds; ``sorted_unique`` (the legal
list's order check over the actions' kept numbers) must be ``sorted(set(...), key=to_int)``;
the number kept on an action is its ``to_int``, and is no part of its identity; an action
behaves as the frozen dataclass it was (equality, hash, refused assignment); ``front_first``
is the stable sort by ``front_key``.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from dataclasses import FrozenInstanceError
from types import MappingProxyType

import pytest

from sengoku.core.sentence import Sentence, Word, english, said, say
from sengoku.games.gunshi.actions import (
    INDEX,
    OFFSET,
    VOCABULARY,
    A,
    GunshiAction,
    sorted_unique,
)
from sengoku.games.gunshi.chained_commands import front_first, front_key
from sengoku.games.gunshi.data import CELLS
from sengoku.games.gunshi.words import card, colour, told


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


def test_an_action_is_a_frozen_value() -> None:
    action = A("to", "d4")
    twin = GunshiAction("to", "d4")
    assert twin is not action and twin == action and not twin != action
    assert hash(twin) == hash(("to", "d4")) == hash(action)
    assert action != A("to", "d5") and action != A("hit", "d4")
    assert action != ("to", "d4") and (action == "to d4") is False
    assert {twin: 1}[action] == 1 and len({action, twin}) == 1
    for name in ("kind", "arg", "number"):
        with pytest.raises(FrozenInstanceError):
            setattr(action, name, "x")
    with pytest.raises(FrozenInstanceError):
        action.other = 1  # type: ignore[attr-defined]
    assert (action.kind, action.arg, action.number) == ("to", "d4", action.to_int())


def test_front_first_is_the_sort_by_front_key() -> None:
    from sengoku import load_game

    state = load_game("gunshi").new_state(seed=1)
    rng = random.Random(3)
    uloc = state.field.uloc
    for _ in range(300):
        units = rng.sample(range(len(uloc)), rng.randint(0, 8))
        for u in units:
            uloc[u] = rng.randrange(CELLS)  # ties (one cell for several) on purpose
        for d in range(4):
            assert front_first(state, units, d) == sorted(
                units, key=lambda u, d=d: front_key(state, u, d)
            )
