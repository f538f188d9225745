"""The pieces of Sashimono (the rulebook's "Game Components"): Kumi and their stacks, the
Sonae and its lines, the 12 Sashimono spaces around it, and one army on the table.

A Kumi stack is a short string: its types (``T`` Teppo-Gumi, ``K`` Kiba-Tai, ``N``
Nagae-Gumi), then ``^`` face up or ``v`` Hidden. Sonae spaces are numbered 0..8 (``a1`` ..
``c3``), lines 0..5 (rows then columns; 6 is the Kagemusha's Kumi line).
"""

from __future__ import annotations

import re
from itertools import permutations
from typing import Any, Final

from sengoku.core.sentence import N_, Sentence, Word, say
from sengoku.games.sashimono.cards import KUMI_NAMES, KUMI_POWER

#: The Kagemusha's side in ``sides`` (it is no seat).
KAGE: Final = 2
#: The Kagemusha as the log names it (a game word of its sentences).
KAGEMUSHA = N_("the Kagemusha")
CELLS: Final = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
LINES: Final = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8))
LINE_NAMES = ("row1", "row2", "row3", "cola", "colb", "colc", "line")
#: The lines in words, for the messages the players read (no notation in the game log).
LINE_WORDS = (
    N_("row 1"),
    N_("row 2"),
    N_("row 3"),
    N_("column a"),
    N_("column b"),
    N_("column c"),
    N_("the Kumi line"),
)
#: The 12 Sashimono spaces, numbered as the solo Army path (spec): 1-3 above the columns,
#: 4-6 right of the rows, 7-9 below the right/middle/left columns, 10-12 left of the
#: bottom/middle/top rows.
SLOTS: Final = ("top-a", "top-b", "top-c", "right-1", "right-2", "right-3",
         "bottom-c", "bottom-b", "bottom-a", "left-3", "left-2", "left-1")  # fmt: skip
#: The spaces in words: where each one lies beside the Sonae.
SLOT_WORDS = (
    N_("above column a"),
    N_("above column b"),
    N_("above column c"),
    N_("right of row 1"),
    N_("right of row 2"),
    N_("right of row 3"),
    N_("below column c"),
    N_("below column b"),
    N_("below column a"),
    N_("left of row 3"),
    N_("left of row 2"),
    N_("left of row 1"),
)
SLOT_SHORT: Final = ("ta", "tb", "tc", "r1", "r2", "r3", "bc", "bb", "ba", "l3", "l2", "l1")
SLOT_LINE: Final = (3, 4, 5, 0, 1, 2, 5, 4, 3, 2, 1, 0)
SLOT_POS = ((-1, 0), (-1, 1), (-1, 2), (0, 3), (1, 3), (2, 3),
            (3, 2), (3, 1), (3, 0), (2, -1), (1, -1), (0, -1))  # fmt: skip
#: Who knows the types of a Hidden Kumi besides its owner: a bit per seat (``1 << seat``),
#: one for spectators, and EVERYONE when it was turned face down in public (or set up so).
SPECTATOR_BIT: Final = 1 << 3
EVERYONE: Final = 0b1111
CORNERS = {0, 2, 6, 8}
EDGES = {1, 3, 5, 7}
PERMS = tuple(permutations(range(3)))


def is_up(stack: str) -> bool:
    return stack[-1] == "^"


def types_of(stack: str) -> str:
    return stack[:-1]


def rank(stack: str) -> int:
    return len(stack) - 1


#: The attack and the defence of each stack met so far: a stack is a short string over a few
#: letters (some dozens in all), and the evaluation and the battles ask for them constantly.
_ATTACK: dict[str, int] = {}
_DEFENCE: dict[str, int] = {}


def _power(stack: str, which: int) -> int:
    if not is_up(stack):
        return rank(stack)
    return sum(KUMI_POWER[t][which] for t in stack[:-1])


def attack_of(stack: str) -> int:
    value = _ATTACK.get(stack)
    if value is None:
        value = _ATTACK[stack] = _power(stack, 0)
    return value


def defence_of(stack: str) -> int:
    value = _DEFENCE.get(stack)
    if value is None:
        value = _DEFENCE[stack] = _power(stack, 1)
    return value


def flipped(stack: str) -> str:
    return stack[:-1] + ("v" if is_up(stack) else "^")


def seat_bit(seat: int | None) -> int:
    """The knowledge bit of a seat (``None``: a spectator)."""
    return SPECTATOR_BIT if seat is None else 1 << seat


def describe_stack(stack: str, show: bool = True) -> str:
    """A stack in words (the log reads it): "Kiba-Tai and Nagae-Gumi", "A, B and C"."""
    return str(stack_words(stack, show))


#: The phrases that may open a sentence, capitalised (:func:`capitalised`): the catalog
#: translates these templates too.
CAPITALISED = (N_("A Hidden Kumi (rank {rank})"),)


def stack_words(stack: str, show: bool = True) -> Word | Sentence:
    """:func:`describe_stack` as a phrase of a sentence (sengoku/core/sentence.py): its Kumi
    named in the reader's language; ``show`` False names only the rank of a Hidden stack."""
    if not is_up(stack) and not show:
        return say("a Hidden Kumi (rank {rank})", rank=rank(stack))
    names = listed([Word(KUMI_NAMES[t]) for t in types_of(stack)], last="and")
    return names if is_up(stack) else say("Hidden {names}", names=names)


def listed(items: list[Word], last: str = ",") -> Word | Sentence:
    """Game words one after the other as a phrase a reader's language words: "A, B, C"
    (``last`` ","), or "A, B and C" (``last`` "and"); one item is itself."""
    if len(items) <= 1:
        return items[0] if items else Word("")
    if len(items) == 2 and last == "and":
        return say("{first} and {second}", first=items[0], second=items[1])
    return say("{first}, {rest}", first=items[0], rest=listed(items[1:], last))


class Side:
    """One army on the table: a player, or the Kagemusha (its Kumi line is its Sonae)."""

    __slots__ = ("army", "cells", "hand", "deck", "shand", "sdeck", "slots", "bowed", "vp",
                 "scored", "sline", "sbowed", "army_pos", "marker", "discard",
                 "known", "dknown", "sknown")  # fmt: skip

    def __init__(self, army: str) -> None:
        self.army = army
        self.cells: list[str | None] = []
        self.hand: list[str] = []
        self.deck: list[str] = []
        self.shand: list[int] = []
        self.sdeck: list[int] = []
        self.slots: list[int | None] = [None] * 12
        self.bowed: list[bool] = [False] * 12
        self.vp = 0
        self.scored: list[int] = []
        self.sline: list[int] = []
        self.sbowed: list[bool] = []
        self.army_pos = 0
        self.marker: int | None = None
        self.discard: list[str] = []
        #: per space of a player's Sonae: who besides the owner knows its types (bits of
        #: :func:`seat_bit`); read only for Hidden Kumi. Unused for the Kagemusha, whose
        #: Kumi all entered face up and are known to everyone.
        self.known: list[int] = []
        #: who knows the cards put at the bottom of the Kumi / Sashimono deck (same bits),
        #: aligned with the bottom of the deck: see :meth:`marks`
        self.dknown: list[int] = []
        self.sknown: list[int] = []

    def bottom(self, which: str, cards: list[Any], mask: int) -> None:
        """Put ``cards`` at the bottom of the Kumi (``"kumi"``) or Sashimono deck; who
        besides the owner knows them: ``mask``."""
        pile, marks = (self.deck, self.dknown) if which == "kumi" else (self.sdeck, self.sknown)
        pile.extend(cards)
        marks.extend([mask] * len(cards))
        if len(marks) > len(pile):
            del marks[: len(marks) - len(pile)]

    def marks(self, which: str) -> list[int]:
        """Who knows each card of a deck, top first. Cards leave a deck only from the top and
        enter it only at the bottom, so the marks of the bottom cards are the last ones."""
        pile, marks = (self.deck, self.dknown) if which == "kumi" else (self.sdeck, self.sknown)
        if len(marks) >= len(pile):
            return marks[len(marks) - len(pile) :]
        return [0] * (len(pile) - len(marks)) + marks

    def copy(self) -> Side:
        # Field by field through the constructor: a class compiled by mypyc has no
        # ``__new__`` without ``__init__`` and no attribute access by name.
        s = Side(self.army)
        s.cells = self.cells[:]
        s.hand = self.hand[:]
        s.deck = self.deck[:]
        s.shand = self.shand[:]
        s.sdeck = self.sdeck[:]
        s.slots = self.slots[:]
        s.bowed = self.bowed[:]
        s.vp = self.vp
        s.scored = self.scored[:]
        s.sline = self.sline[:]
        s.sbowed = self.sbowed[:]
        s.army_pos = self.army_pos
        s.marker = self.marker
        s.discard = self.discard[:]
        s.known = self.known[:]
        s.dknown = self.dknown[:]
        s.sknown = self.sknown[:]
        return s

    def to_json(self) -> dict[str, Any]:
        """The side as JSON-ready data that shares no list with it (keys in
        :data:`SIDE_FIELDS`' order)."""
        return {
            "army": self.army,
            "cells": self.cells[:],
            "hand": self.hand[:],
            "deck": self.deck[:],
            "shand": self.shand[:],
            "sdeck": self.sdeck[:],
            "slots": self.slots[:],
            "bowed": self.bowed[:],
            "vp": self.vp,
            "scored": self.scored[:],
            "sline": self.sline[:],
            "sbowed": self.sbowed[:],
            "army_pos": self.army_pos,
            "marker": self.marker,
            "discard": self.discard[:],
            "known": self.known[:],
            "dknown": self.dknown[:],
            "sknown": self.sknown[:],
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Side:
        s = Side(data["army"])
        s.cells = list(data["cells"])
        s.hand = list(data["hand"])
        s.deck = list(data["deck"])
        s.shand = list(data["shand"])
        s.sdeck = list(data["sdeck"])
        s.slots = list(data["slots"])
        s.bowed = list(data["bowed"])
        s.vp = data["vp"]
        s.scored = list(data["scored"])
        s.sline = list(data["sline"])
        s.sbowed = list(data["sbowed"])
        s.army_pos = data["army_pos"]
        s.marker = data["marker"]
        s.discard = list(data["discard"])
        if "known" in data:
            s.known = list(data["known"])
        else:
            # positions saved before knowledge was kept: face-up Kumi are public, a
            # Hidden one is taken as known to its owner only
            s.known = [EVERYONE if c is not None and is_up(c) else 0 for c in s.cells]
        s.dknown = list(data.get("dknown", []))
        s.sknown = list(data.get("sknown", []))
        return s


#: A template's opening place (``{side} attacks``): compiled once.
_OPENING = re.compile(r"\{(\w+)\}")
#: The place each template met opens with ('' for none): every event reads it, and the
#: templates are the engine's few hundred (a card set's own texts at most add theirs).
_OPENS: dict[str, str] = {}
_OPENS_KEPT = 4096


def capitalised(sentence: Sentence) -> Sentence:
    """``sentence`` opening with a capital, as a sentence does ("the Kagemusha attacks" is
    "The Kagemusha attacks"): the word or phrase it opens with is capitalised, so that its
    English stays what the log always wrote and each language still names that word."""
    template = sentence.template
    name = _OPENS.get(template)
    if name is None:
        if len(_OPENS) >= _OPENS_KEPT:
            _OPENS.clear()
        opening = _OPENING.match(template)
        name = _OPENS[template] = "" if opening is None else opening[1]
    if not name:
        if template[:1].islower():  # a phrase: its capitalised template (CAPITALISED)
            return Sentence(template[:1].upper() + template[1:], sentence.args)
        return sentence
    value = sentence.args[name]
    if isinstance(value, Sentence):
        value = capitalised(value)
    elif isinstance(value, str) and value[:1].islower():
        value = type(value)(value[:1].upper() + value[1:])
    if value is sentence.args[name]:
        return sentence  # it opens with a capital already (most do): no copy
    return Sentence(sentence.template, {**sentence.args, name: value})
