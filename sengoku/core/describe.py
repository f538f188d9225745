"""Legal actions as data: what a client shows for a choice without parsing notation.

:meth:`sengoku.core.game.Game.describe_action` returns an :class:`ActionDescription` for one
legal action of the seat to act: its canonical ``notation`` (which
:meth:`~sengoku.core.game.Game.parse_action` reads back to the same action), a ``kind`` from
the game's small vocabulary (``move``, ``drop``, ``place_tile``, ``play_card``,
``choose_slot``, ``fence``, ``shogun``, ``pass``, ``done``...), a ``label`` of a few words and
a ``text`` of one sentence, both in the rulebook's terms, and the objects the action
involves (``piece``, ``card``, ``tile``, ``unit``, ``from``, ``to``, ``slot``, ``cells``,
``edge``...). A decision the engine takes in steps (pick a card, then its slot) stays in
steps; ``step`` names what the step picks (``"card"``, then ``"slot"``) so that a client can
present it as pick-then-place.

A description says only what the acting seat may know: it describes that seat's own choice.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Keys a description may carry besides the four always present (documentation; games
#: may add their own, JSON-ready values only).
OBJECT_KEYS = (
    "piece",
    "card",
    "tile",
    "unit",
    "from",
    "to",
    "edge",
    "slot",
    "rotation",
    "cells",
    "tier",
    "step",
    "group",
)


@dataclass(frozen=True)
class ActionDescription:
    """One legal action as data (see the module's docstring)."""

    notation: str
    kind: str
    label: str
    text: str
    #: The objects the action involves: JSON-ready values under :data:`OBJECT_KEYS` names.
    objects: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def to_json(self) -> dict[str, Any]:
        """A flat JSON-ready dict: ``notation``, ``kind``, ``label``, ``text`` and the objects."""
        data: dict[str, Any] = {
            key: value for key, value in self.objects.items() if value is not None
        }
        data.update(notation=self.notation, kind=self.kind, label=self.label, text=self.text)
        return data


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a final full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def generic_description(notation: str, kind: str = "action") -> ActionDescription:
    """The default description: the notation as label and sentence."""
    return ActionDescription(
        notation=notation, kind=kind, label=notation, text=sentence(f"Play {notation}")
    )


#: The schema every game's view satisfies when it declares none: any JSON object.
PERMISSIVE_VIEW_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "view",
    "description": "What one seat (or a spectator, seat null) may see of a position.",
    "type": "object",
}


def load_view_schema(folder: Path) -> dict[str, Any]:
    """A game's ``view.schema.json`` from its folder (a fresh copy each call)."""
    with (folder / "view.schema.json").open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def describe_played(game: Any, before: Any, action: Any, events: list[dict[str, Any]]) -> None:
    """Attach ``action``'s description, as played from the state ``before``, to its public
    ``move`` event (``described``), so a client shows the last move from data, never by
    reading notation. Callers do this only in games of perfect information, where every seat
    sees every action: a hidden-information game's events stay as the engine made them."""
    for ev in events:
        if ev.get("type") == "move" and ev.get("audience") is None:
            ev["described"] = game.describe_action(before, action).to_json()
            return
