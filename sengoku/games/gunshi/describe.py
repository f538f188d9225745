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

from typing import Any

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


def _units_by_cell(state: Any) -> dict[str, str]:
    return {cell_name(loc): LETTERS[u] for u, loc in enumerate(state.uloc) if 0 <= loc < CELLS}


def describe(state: Any, action: GunshiAction) -> ActionDescription:
    """``action``, legal in ``state`` (a GunshiState), as data."""
    kind, arg = action.kind, action.arg
    notation = str(action)
    objects: dict[str, Any] = {}

    cmd = getattr(state, "cmd", None)

    def acting(*fields: str) -> str | None:
        """The letter of the unit the command in progress acts with (public: the command
        is in every seat's view)."""
        for name in fields:
            value = getattr(cmd, name, None) if cmd is not None else None
            if isinstance(value, tuple):
                value = value[0] if value else None
            if isinstance(value, int) and 0 <= value < len(LETTERS):
                objects["unit"] = LETTERS[value]
                return unit_name(LETTERS[value])
        return None

    def unit_at(cell: str) -> str:
        letter = _units_by_cell(state).get(cell)
        if letter is None:
            return f"the unit on {cell}"
        objects["unit"] = letter
        return f"{unit_name(letter)} on {cell}"

    if kind in ("pick", "hand", "deck", "send", "take", "remove"):
        objects.update(card=arg, step="card")
        name = card_name(arg)
        label, text = {
            "pick": (f"Pick {name}", f"Pick the {name} card for your deck."),
            "hand": (f"{name} to hand", f"Take the {name} card into your starting hand."),
            "deck": (f"{name} next in deck", f"Put the {name} card next in your deck."),
            "send": (f"Send {name}", f"Send the {name} card to your Command Row."),
            "take": (f"Take {name}", f"Take the Advanced card {name} (Gunshi's Inspiration)."),
            "remove": (f"Remove {name}", f"Remove the {name} card from the game."),
        }[kind]
    elif kind == "shogun":
        objects.update(unit=arg, step="unit")
        label = f"Shogun: {unit_name(arg)}"
        text = f"Secretly choose {unit_name(arg)} as your Shogun."
    elif kind == "place":
        objects.update(piece=arg, step="piece")
        label = f"Place {PIECE[arg].split(' ', 1)[1]}"
        text = f"Place {PIECE[arg]}."
    elif kind == "at":
        objects.update(to=arg, step="cell")
        piece = (
            (getattr(state, "fpiece", "") or getattr(cmd, "piece", None) or "")
            if state.phase == "formation"
            else (getattr(cmd, "piece", None) or "")
        )
        what = PIECE.get(piece, "the unit").replace("an ", "the ").replace("a ", "the ", 1)
        label = f"Place on {arg}"
        text = f"Put {what} on {arg}."
    elif kind == "face":
        objects.update(facing=arg, step="facing")
        label = f"Face {FACING[arg]}"
        who = acting("leader")
        if who:
            who = f"your {who}"
        elif state.phase == "formation" and getattr(state, "fcell", -1) >= 0:
            # The unit just placed in the formation: its type and cell.
            who = f"the {PIECE.get(state.fpiece, 'a unit').split(' ', 1)[1]} on {cell_name(state.fcell)}"
        text = f"Turn {who or 'the unit'} to face {FACING[arg]}."
    elif kind == "fence":
        objects.update(edge=arg, step="edge")
        side = "north" if arg.endswith("n") else "east"
        label = f"Fence {side} of {arg[:-1]}"
        text = f"Build a Fence on the {side} edge of {arg[:-1]}."
    elif kind == "mode":
        objects.update(mode=arg, step="choice")
        label, text = MODE[arg]
    elif kind == "unit":
        objects.update(**{"from": arg}, step="unit")
        who = unit_at(arg)
        label = f"Command {who}"
        text = f"Give the Command to your {who}."
    elif kind == "dir":
        objects.update(direction=arg, step="facing")
        label = f"Go {FACING[arg]}"
        who = acting("leader")
        text = f"Move {'your ' + who + ' ' if who else ''}{FACING[arg]}."
    elif kind == "chain":
        objects.update(**{"from": arg}, step="unit")
        who = unit_at(arg)
        label = f"Chain {who}"
        text = f"Add your {who} to the Chained Command."
    elif kind == "to":
        objects.update(to=arg, step="cell")
        label = f"Move to {arg}"
        who = acting("order", "leader")
        text = f"Move {'your ' + who if who else 'the unit'} to {arg}."
    elif kind == "hit":
        objects.update(to=arg, step="cell")
        shooter = acting("shooter", "leader")
        who = unit_at(arg)
        label = f"Hit {who}"
        text = f"{'Your ' + shooter + ' attacks' if shooter else 'Attack'} the {who}."
    elif kind == "swap":
        objects.update(to=arg, step="unit")
        who = unit_at(arg)
        label = f"Switch with {who}"
        text = f"Switch places with the {who} (Strategic Switch)."
    elif kind == "ask":
        objects.update(to=arg, step="unit")
        who = unit_at(arg)
        label = f"Ask about {who}"
        text = f"Ask whether the enemy {who} is the Shogun."
    elif kind == "look":
        objects.update(position=arg, step="card")
        label = f"Look at {LOOK[arg]}"
        text = f"Look at {LOOK[arg]} of the opponent's Command Row."
    elif kind == "blind":
        objects.update(position=arg, step="card")
        label = f"Face-down card {arg}"
        text = f"Take face-down Advanced card {arg}."
    else:
        label, text = {
            "done": ("Done", "Add no more units to the chain."),
            "invade": ("Invade", "Move the unit onto the opponent's Invader Spot."),
            "stay": ("Stay", "Stay in the Invasion Zone."),
            "end": ("End turn", "Stop sending cards, with no Lightning Command."),
            "lightning": ("Lightning Command", "Stop sending and pay for a Lightning Command."),
        }[kind]
    return ActionDescription(notation, kind, label, text, objects)


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
