"""Gunshi actions: one small decision each, a frozen value object whose ``str`` is notation.

Every action is ``<kind> <argument>`` (or a bare kind). The argument's vocabulary depends on
the kind (a card code, a cell ``d3``, an edge ``d3n``, a facing ``n``, a unit type, a Shogun
letter, ...). The integer mapping lays the kinds out one after another, each with its whole
vocabulary, so it does not depend on the position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError
from typing import Final

from sengoku.core.game import IllegalAction, action_number
from sengoku.games.gunshi.data import (
    CARD_CODES,
    CELLS,
    COLS,
    DIR_NAMES,
    EDGE_NAMES,
    LETTERS,
    cell_name,
)

CELL_NAMES: tuple[str, ...] = tuple(cell_name(c) for c in range(CELLS))
MODES = ("reorient", "shoot", "crossbow", "commands", "shogun")
POSITIONS = ("L", "1", "2", "3", "4")

#: kind -> the vocabulary of its argument ("" for a bare kind). Order fixes the int mapping.
VOCABULARY: dict[str, tuple[str, ...]] = {
    "pick": CARD_CODES,  # choose a card: custom deck, prepared Advanced cards, Modification 3
    "shogun": tuple(LETTERS),  # Phase 2: the secret Shogun
    "hand": CARD_CODES,  # Phase 2: a card for the starting hand
    "deck": CARD_CODES,  # Phase 2: the next card of the deck, top first
    "place": ("I", "A", "C", "F"),  # formation / Reinforce: which piece (F: a Fence)
    "at": CELL_NAMES,  # where a placed unit goes
    "face": tuple(DIR_NAMES),  # which way a placed or reoriented unit faces
    "fence": EDGE_NAMES,  # a Fence on an edge
    "mode": MODES,  # which half of a two-Command card
    "unit": CELL_NAMES,  # the unit that carries out a Command
    "dir": tuple(DIR_NAMES),  # the direction a Move goes (chained units share it)
    "chain": CELL_NAMES,  # an adjacent unit joins a Chained Command
    "done": ("",),  # no more units join the chain
    "to": CELL_NAMES,  # a moving unit's destination
    "invade": ("",),  # move the unit onto the opponent's Invader Spot
    "stay": ("",),  # stay in the Invasion Zone
    "hit": CELL_NAMES,  # the target of a Shoot, Crossbow or Rapid Fire
    "swap": CELL_NAMES,  # Strategic Switch partner
    "look": POSITIONS,  # Scout Commands: a position of the opponent's Command Row
    "ask": CELL_NAMES,  # Scout the Shogun: the enemy unit asked about
    "send": CARD_CODES,  # Send New Commands: next card to the Command Row
    "end": ("",),  # stop sending; no Lightning Command
    "lightning": ("",),  # stop sending and pay for a Lightning Command
    "take": CARD_CODES,  # Gunshi's Inspiration: the Advanced card to take (Modifications 2, 3)
    "blind": ("1", "2", "3"),  # Gunshi's Inspiration, Modification 1: a face-down card
    "remove": CARD_CODES,  # Gunshi's Inspiration: the card to remove from the game
}

OFFSET: dict[str, int] = {}
_total = 0
for _kind, _vocab in VOCABULARY.items():
    OFFSET[_kind] = _total
    _total += len(_vocab)
NUM_ACTIONS = _total
INDEX: dict[str, dict[str, int]] = {
    kind: {arg: i for i, arg in enumerate(vocab)} for kind, vocab in VOCABULARY.items()
}
#: Kinds whose short form is the bare argument (a cell, an edge, a facing, ...).
SHORT_KINDS = frozenset({"at", "face", "fence", "unit", "to", "hit", "dir"})


class GunshiAction:
    """One decision: ``kind`` and its ``arg`` (empty for bare kinds)."""

    # A native class when compiled (mypyc) with the frozen dataclass's behaviour written out
    # (the fields, refused assignment, ``==`` and ``hash`` over kind and arg): its fields are
    # read from the object's struct, not through a Python class's descriptors, and every rule
    # and the legal list's order check (``sorted_unique``) read them. The constructor takes
    # objects and checks them itself, so a wrong field is the project's error naming it, not
    # a bare TypeError (``GunshiAction(["to"], "d4")``).
    __slots__ = ("kind", "arg", "number")

    kind: str
    arg: str
    #: ``to_int()``, worked out once as the action is made: the legal list's order check
    #: (``sorted_unique``) reads it for every action of every position. Not an argument,
    #: not compared, not shown: the action is still its kind and arg.
    number: int

    def __init__(self, kind: object, arg: object = "") -> None:
        if type(kind) is not str or kind not in INDEX:
            raise IllegalAction(f"not a Gunshi action: kind {kind!r} is none of {', '.join(INDEX)}")
        if type(arg) is not str or arg not in INDEX[kind]:
            vocab = VOCABULARY[kind]
            allowed = "none (a bare kind)" if vocab == ("",) else f"one of {', '.join(vocab)}"
            raise IllegalAction(
                f"not a Gunshi action: arg {arg!r} of {kind!r}; the arg is {allowed}"
            )
        # Past ``__setattr__``, which refuses every assignment (a frozen dataclass's way).
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "arg", arg)
        object.__setattr__(self, "number", OFFSET[kind] + INDEX[kind][arg])

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __eq__(self, other: object) -> bool:
        # The dataclass's ``__eq__``: actions of the same class, by kind and arg.
        if other.__class__ is self.__class__:
            assert isinstance(other, GunshiAction)
            return self.kind == other.kind and self.arg == other.arg
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.kind, self.arg))

    def __str__(self) -> str:
        return f"{self.kind} {self.arg}" if self.arg else self.kind

    def __repr__(self) -> str:
        return f"GunshiAction({self.kind!r}, {self.arg!r})"

    def to_int(self) -> int:
        return self.number

    def __reduce__(self) -> tuple[Callable[[str, str], GunshiAction], tuple[str, str]]:
        # Pickled and copied as the interned action of its kind and arg (``A``): a copy is
        # then found by identity among the legal actions.
        return A, (self.kind, self.arg)

    @staticmethod
    def from_int(given: object) -> GunshiAction:
        # Typed ``object``: compiled (mypyc), an ``int`` parameter would refuse "3" with a bare
        # TypeError and take True as 1 before ``action_number`` names the field.
        n = action_number(given, NUM_ACTIONS)
        for kind, vocab in VOCABULARY.items():
            base = OFFSET[kind]
            if n < base + len(vocab):
                return GunshiAction(kind, vocab[n - base])
        raise AssertionError("unreachable")


_INTERNED: Final[dict[tuple[str, str], GunshiAction]] = {}


def A(kind: str, arg: str = "") -> GunshiAction:
    """Shorthand used by the engine: actions are immutable, so each is built once."""
    key = (kind, arg)
    action = _INTERNED.get(key)
    if action is None:
        action = _INTERNED[key] = GunshiAction(kind, arg)
    return action


def sorted_unique(actions: list[GunshiAction]) -> list[GunshiAction]:
    """``sorted(set(actions), key=GunshiAction.to_int)``, faster.

    The usual case, generated in order with no duplicates, is one pass over the actions'
    numbers (kept on each action): no set and no sort. Otherwise the actions are sorted by
    number, not hashed: equal actions have equal numbers and distinct ones distinct numbers,
    so keeping the first action of each number keeps what the set keeps.
    """
    previous = -1
    for action in actions:
        number = action.number
        if number <= previous:
            break
        previous = number
    else:
        return list(actions)
    # Each action's number and its place made one ``int`` (number first, the place next), the
    # integers sorted: the first of each number is the first action of that number in the
    # list, what a dict of first actions by number, sorted, gave (no dict, no hashing).
    n = len(actions)
    keyed = [actions[i].number * n + i for i in range(n)]
    keyed.sort()
    out: list[GunshiAction] = []
    last = -1
    for k in keyed:
        number = k // n
        if number != last:
            out.append(actions[k % n])
            last = number
    return out


__all__ = ["A", "COLS", "GunshiAction", "NUM_ACTIONS", "SHORT_KINDS", "VOCABULARY"]
