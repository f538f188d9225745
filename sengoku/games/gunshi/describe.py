"""Gunshi's legal actions as data (:meth:`sengoku.core.game.Game.describe_action`).

Every Gunshi action is one small step of a decision (``<kind> <argument>``): the ``kind`` of
a description is that step's kind, in the rulebook's words (``pick``, ``shogun``, ``hand``,
``deck``, ``place``, ``at``, ``face``, ``fence``, ``mode``, ``unit``, ``dir``, ``chain``,
``done``, ``to``, ``invade``, ``stay``, ``hit``, ``swap``, ``look``, ``ask``, ``send``,
``end``, ``lightning``, ``take``, ``blind``, ``remove``), and ``step`` says which object the
step picks (``card``, ``unit``, ``cell``, ``edge``, ``facing``, ``piece``, ``choice``), so a
client can present a command as "click a unit, then its destination". Units are named by
their letter and type (public: the secret is only which letter is the Shogun).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sengoku.core.describe import ActionDescription
from sengoku.games.gunshi.actions import GunshiAction
from sengoku.games.gunshi.data import (
    CARDS,
    CELLS,
    LETTERS,
    TOKEN_TYPE,
    UNITS,
    cell_name,
)

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState

FACING = {"n": "north", "e": "east", "s": "south", "w": "west"}
PIECE = {"I": "an Infantry unit", "A": "an Archer unit", "C": "a Cavalry unit", "F": "a Fence"}
MODE = {
    "reorient": ("Reorient", "Use the card's Reorient Command."),
    "shoot": ("Shoot", "Use the card's Shoot Command."),
    "crossbow": ("Crossbow", "Use the card's Crossbow Command."),
    "commands": ("Scout Commands", "Scout the opponent's Command Row."),
    "shogun": ("Scout the Shogun", "Scout the Shogun: ask whether an enemy unit is the Shogun."),
}
LOOK = {
    "L": "the Lightning Command",
    "1": "position 1",
    "2": "position 2",
    "3": "position 3",
    "4": "position 4",
}


def card_name(code: str) -> str:
    return CARDS[code].name


def unit_name(letter: str) -> str:
    """``"Infantry B"``."""
    kind = TOKEN_TYPE[LETTERS.index(letter)]
    return f"{UNITS[kind].name} {letter}" if kind in UNITS else letter


def _units_by_cell(state: GunshiState) -> dict[str, str]:
    return {
        cell_name(loc): LETTERS[u] for u, loc in enumerate(state.field.uloc) if 0 <= loc < CELLS
    }


class _Words:
    """What describing one action reads and fills: the state, the command in progress and
    the objects the description names."""

    def __init__(self, state: GunshiState) -> None:
        self.state = state
        self.cmd = state.orders.cmd
        self.objects: dict[str, Any] = {}

    def acting(self, *fields: str) -> str | None:
        """The letter of the unit the command in progress acts with (public: the command
        is in every seat's view)."""
        cmd = self.cmd
        for name in fields:
            value = getattr(cmd, name, None) if cmd is not None else None
            if isinstance(value, tuple):
                value = value[0] if value else None
            if isinstance(value, int) and 0 <= value < len(LETTERS):
                self.objects["unit"] = LETTERS[value]
                return unit_name(LETTERS[value])
        return None

    def unit_at(self, cell: str) -> str:
        letter = _units_by_cell(self.state).get(cell)
        if letter is None:
            return f"the unit on {cell}"
        self.objects["unit"] = letter
        return f"{unit_name(letter)} on {cell}"


def _card(w: _Words, kind: str, arg: str) -> tuple[str, str]:
    w.objects.update(card=arg, step="card")
    name = card_name(arg)
    return {
        "pick": (f"Pick {name}", f"Pick the {name} card for your deck."),
        "hand": (f"{name} to hand", f"Take the {name} card into your starting hand."),
        "deck": (f"{name} next in deck", f"Put the {name} card next in your deck."),
        "send": (f"Send {name}", f"Send the {name} card to your Command Row."),
        "take": (f"Take {name}", f"Take the Advanced card {name} (Gunshi's Inspiration)."),
        "remove": (f"Remove {name}", f"Remove the {name} card from the game."),
    }[kind]


def _shogun(w: _Words, arg: str) -> tuple[str, str]:
    w.objects.update(unit=arg, step="unit")
    return f"Shogun: {unit_name(arg)}", f"Secretly choose {unit_name(arg)} as your Shogun."


def _place(w: _Words, arg: str) -> tuple[str, str]:
    w.objects.update(piece=arg, step="piece")
    return f"Place {PIECE[arg].split(' ', 1)[1]}", f"Place {PIECE[arg]}."


def _at(w: _Words, arg: str) -> tuple[str, str]:
    w.objects.update(to=arg, step="cell")
    state, cmd = w.state, w.cmd
    piece = (
        (state.formation.fpiece or getattr(cmd, "piece", None) or "")
        if state.phase == "formation"
        else (getattr(cmd, "piece", None) or "")
    )
    what = PIECE.get(piece, "the unit").replace("an ", "the ").replace("a ", "the ", 1)
    return f"Place on {arg}", f"Put {what} on {arg}."


def _face(w: _Words, arg: str) -> tuple[str, str]:
    w.objects.update(facing=arg, step="facing")
    state = w.state
    who = w.acting("leader")
    if who:
        who = f"your {who}"
    elif state.phase == "formation" and state.formation.fcell >= 0:
        # The unit just placed in the formation: its type and cell.
        who = f"the {PIECE.get(state.formation.fpiece, 'a unit').split(' ', 1)[1]} on {cell_name(state.formation.fcell)}"
    return f"Face {FACING[arg]}", f"Turn {who or 'the unit'} to face {FACING[arg]}."


def _fence(w: _Words, arg: str) -> tuple[str, str]:
    w.objects.update(edge=arg, step="edge")
    side = "north" if arg.endswith("n") else "east"
    return f"Fence {side} of {arg[:-1]}", f"Build a Fence on the {side} edge of {arg[:-1]}."


def _mode(w: _Words, arg: str) -> tuple[str, str]:
    w.objects.update(mode=arg, step="choice")
    label, text = MODE[arg]
    return label, text


def _unit(w: _Words, arg: str) -> tuple[str, str]:
    w.objects.update(**{"from": arg}, step="unit")
    who = w.unit_at(arg)
    return f"Command {who}", f"Give the Command to your {who}."


def _dir(w: _Words, arg: str) -> tuple[str, str]:
    w.objects.update(direction=arg, step="facing")
    who = w.acting("leader")
    return f"Go {FACING[arg]}", f"Move {'your ' + who + ' ' if who else ''}{FACING[arg]}."


def _chain(w: _Words, arg: str) -> tuple[str, str]:
    w.objects.update(**{"from": arg}, step="unit")
    who = w.unit_at(arg)
    return f"Chain {who}", f"Add your {who} to the Chained Command."


def _to(w: _Words, arg: str) -> tuple[str, str]:
    w.objects.update(to=arg, step="cell")
    who = w.acting("order", "leader")
    return f"Move to {arg}", f"Move {'your ' + who if who else 'the unit'} to {arg}."


def _hit(w: _Words, arg: str) -> tuple[str, str]:
    w.objects.update(to=arg, step="cell")
    shooter = w.acting("shooter", "leader")
    who = w.unit_at(arg)
    return f"Hit {who}", f"{'Your ' + shooter + ' attacks' if shooter else 'Attack'} the {who}."


def _swap(w: _Words, arg: str) -> tuple[str, str]:
    w.objects.update(to=arg, step="unit")
    who = w.unit_at(arg)
    return f"Switch with {who}", f"Switch places with the {who} (Strategic Switch)."


def _ask(w: _Words, arg: str) -> tuple[str, str]:
    w.objects.update(to=arg, step="unit")
    who = w.unit_at(arg)
    return f"Ask about {who}", f"Ask whether the enemy {who} is the Shogun."


def _look(w: _Words, arg: str) -> tuple[str, str]:
    w.objects.update(position=arg, step="card")
    return f"Look at {LOOK[arg]}", f"Look at {LOOK[arg]} of the opponent's Command Row."


def _blind(w: _Words, arg: str) -> tuple[str, str]:
    w.objects.update(position=arg, step="card")
    return f"Face-down card {arg}", f"Take face-down Advanced card {arg}."


#: The kinds that name a card, and each other kind with an argument: how it is described.
_CARD_KINDS = frozenset({"pick", "hand", "deck", "send", "take", "remove"})
_WITH_ARGUMENT: dict[str, Callable[[_Words, str], tuple[str, str]]] = {
    "shogun": _shogun,
    "place": _place,
    "at": _at,
    "face": _face,
    "fence": _fence,
    "mode": _mode,
    "unit": _unit,
    "dir": _dir,
    "chain": _chain,
    "to": _to,
    "hit": _hit,
    "swap": _swap,
    "ask": _ask,
    "look": _look,
    "blind": _blind,
}
#: The kinds without an argument.
_PLAIN = {
    "done": ("Done", "Add no more units to the chain."),
    "invade": ("Invade", "Move the unit onto the opponent's Invader Spot."),
    "stay": ("Stay", "Stay in the Invasion Zone."),
    "end": ("End turn", "Stop sending cards, with no Lightning Command."),
    "lightning": ("Lightning Command", "Stop sending and pay for a Lightning Command."),
}


def describe(state: GunshiState, action: GunshiAction) -> ActionDescription:
    """``action``, legal in ``state`` (a GunshiState), as data."""
    kind, arg = action.kind, action.arg
    w = _Words(state)
    if kind in _CARD_KINDS:
        label, text = _card(w, kind, arg)
    elif kind in _WITH_ARGUMENT:
        label, text = _WITH_ARGUMENT[kind](w, arg)
    else:
        label, text = _PLAIN[kind]
    return ActionDescription(str(action), kind, label, text, w.objects)


def catalog() -> dict[str, Any]:
    """The Command cards and unit types of the data files."""
    return {
        "cards": [
            {
                "id": c.code,
                "name": c.name,
                "set": c.set,
                "copies": c.copies,
                "chainable": c.chainable,
                "cost": c.cost,
                "text": c.text,
            }
            for c in CARDS.values()
        ],
        "units": [
            {
                "id": u.code,
                "name": u.name,
                "letters": u.letters,
                "cost": u.cost,
                "en_route_cost": u.en_route_cost,
                "shield": u.shield,
            }
            for u in UNITS.values()
        ],
    }
