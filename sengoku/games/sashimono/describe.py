"""Sashimono's legal decisions as data (:meth:`sengoku.core.game.Game.describe_action`).

Every decision is ``<verb> <argument>``; the description's ``kind`` follows the rulebook's
steps: ``turn`` (an Action or a Scoring turn), ``play_card`` then ``choose_slot`` (a card
from the hand, then its Sashimono slot: ``step`` ``card`` then ``slot``), ``card_action``
(one of the played card's actions), ``train``, ``swap``, ``flip``, ``reveal``, ``return``,
``bury``, ``keep``, ``place`` (a Kumi to a Sonae cell, face up or hidden), ``kumi``,
``ante``, ``battle``, ``casualty``, ``gunbai``, ``look`` (a Kumi looked at goes to the
bottom), ``rearrange``, ``order``, ``bonus``, ``pass`` (no bonus, no training), ``done`` and
``end``. Hand positions (``h1``...) are the acting seat's own hand; cells ``a1``..``c3`` are
Sonae cells, ``enemy k1``... the enemy's Kumi; slots are ``top-a``...
"""

from __future__ import annotations

from typing import Any

from sengoku.core.describe import ActionDescription, generic_description
from sengoku.games.sashimono.cards import KUMI_NAMES, KUMI_POWER, describe_effect
from sengoku.games.sashimono.decisions import K_PLAY, Act


def _hand(arg: str) -> str:
    return (
        f"the card in your hand position {arg[1:]}" if arg.startswith("h") else f"the Kumi at {arg}"
    )


def _where(arg: str) -> str:
    if arg.startswith("h") and arg[1:].isdigit():
        return f"hand position {arg[1:]}"
    if "-" in arg:
        return f"slot {arg}"
    if arg.startswith("row") or arg == "line":
        return f"{arg.replace('row', 'row ')}"
    return f"cell {arg}"


def _action_effect(state: Any, name: str) -> str:
    """The effect in words of the action ``name`` of the card being played (public: the card
    lies face up in its slot), or of the reference actions."""
    ctx = getattr(state, "ctx", {}) or {}
    actions = list(state.card(ctx["card"]).actions) if ctx.get("card") is not None else []
    for action in [*actions, *state.cs.reference]:
        if action.name == name:
            return str(describe_effect(action.effect))
    return ""


def describe(state: Any, action: Act) -> ActionDescription:
    """``action``, legal in ``state`` (a SashimonoState), as data."""
    notation = str(action)
    verb, _, arg = notation.partition(" ")
    objects: dict[str, Any] = {}
    if action.kind == K_PLAY:
        card = state.card(action.arg)
        objects.update(card=card.id, step="card")
        return ActionDescription(
            notation,
            "play_card",
            f"Play {card.name}",
            f"Play {card.name} from your hand (then choose its slot).",
            objects,
        )
    if verb in ("action", "score"):
        word = "an Action" if verb == "action" else "a Scoring"
        return ActionDescription(
            notation,
            "turn",
            f"{'Action' if verb == 'action' else 'Scoring'} turn",
            f"Take {word} turn.",
            {"choice": verb, "step": "choice"},
        )
    if verb == "slot":
        objects.update(slot=arg, step="slot")
        return ActionDescription(
            notation, "choose_slot", f"Into slot {arg}", f"Put the card into slot {arg}.", objects
        )
    if verb == "do":
        objects.update(action=arg, step="choice")
        effect = _action_effect(state, arg)
        text = f"Carry out the card's {arg} action" + (f": {effect}." if effect else ".")
        return ActionDescription(notation, "card_action", arg, text, objects)
    if verb == "to":
        cell, _, face = arg.partition(" ")
        objects.update(to=cell, face=face, step="cell")
        how = "face up" if face == "up" else "hidden (face down)"
        return ActionDescription(
            notation,
            "place",
            f"To {cell} {'face up' if face == 'up' else 'hidden'}",
            f"Place the Kumi on Sonae cell {cell}, {how}.",
            objects,
        )
    if verb == "no":
        return ActionDescription(notation, "pass", f"No {arg}", f"Take no {arg}.", {})
    if verb == "bonus":
        objects.update(bonus=arg, step="choice")
        return ActionDescription(
            notation, "bonus", f"Bonus: {arg}", f"Take the {arg} bonus.", objects
        )
    if verb == "casualty" and arg.startswith("enemy "):
        kumi = arg.split(" ", 1)[1]
        objects.update(enemy=kumi, step="choice")
        return ActionDescription(
            notation,
            "casualty",
            f"Enemy casualty {kumi}",
            f"Make the enemy's Kumi {kumi} a casualty.",
            objects,
        )
    simple: dict[str, tuple[str, str, str]] = {
        # verb: (kind, label template, sentence template)
        "train": ("train", "Train {a}", "Train {w}."),
        "with": ("train", "With {a}", "Train with {h}."),
        "swap": ("swap", "Swap {a}", "Swap the Kumi at {a}."),
        "flip": ("flip", "Flip {a}", "Flip the Kumi at {a}."),
        "reveal": ("reveal", "Reveal {a}", "Reveal the hidden Kumi at {a}."),
        "return": ("return", "Return {a}", "Return the card in {w}."),
        "bury": ("bury", "Bury {a}", "Bury the card in {w}."),
        "kumi": ("kumi", "Kumi {a}", "Choose {h} as your Kumi."),
        "ante": ("ante", "Ante {a}", "Ante {h} for the battle."),
        "battle": ("battle", "Battle {a}", "Start a battle on {w}."),
        "casualty": ("casualty", "Casualty {a}", "Take the Kumi at {a} as your casualty."),
        "gunbai": ("gunbai", "Gunbai {a}", "Put the Gunbai on {a}."),
        "bottom": (
            "look",
            "Bottom {a}",
            "Put the looked-at Kumi {a} at the bottom of the Kumi deck.",
        ),
        "rearrange": ("rearrange", "Rearrange {a}", "Rearrange {w}."),
        "order": ("order", "Order {a}", "Put the line in the order {a} (by the old spaces)."),
        "keep": ("keep", "Keep", "Keep it."),
        "done": ("done", "Done", "Finish this step."),
        "end": ("end", "End", "End this step."),
    }
    if verb in simple:
        kind, label, text = simple[verb]
        fill = {"a": arg, "w": _where(arg), "h": _hand(arg)}
        if arg:
            key = (
                "slot"
                if "-" in arg
                else ("hand" if arg.startswith("h") and arg[1:].isdigit() else "to")
            )
            objects[key] = arg
        objects["step"] = "choice"
        return ActionDescription(notation, kind, label.format(**fill), text.format(**fill), objects)
    return generic_description(notation)


def catalog(state_or_cards: Any) -> dict[str, Any]:
    """The cards of a card set (names, army, scoring text, actions with their effects in
    words, ongoing abilities) and the Kumi types."""
    cs = state_or_cards
    return {
        "cards": [
            {
                "id": c.id,
                "name": c.name,
                "army": c.army,
                "score_text": c.score_text,
                "text": c.text,
                "actions": [
                    {
                        "name": a.name,
                        "requires": list(a.requires),
                        "text": describe_effect(a.effect),
                    }
                    for a in c.actions
                ],
                "ongoing": c.ongoing is not None,
            }
            for c in cs.cards
        ],
        "kumi": [
            {"id": k, "name": name, "attack": KUMI_POWER[k][0], "defence": KUMI_POWER[k][1]}
            for k, name in KUMI_NAMES.items()
        ],
    }
