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

Besides ``card``, ``slot`` and ``hand``, a description names the table object it points at so
that a client can make it clickable: ``cell`` with ``side`` (``own`` or ``enemy``; the
Kagemusha's Kumi line cells are ``k1``...), ``line`` (``row1``...``colc``) with ``side``, and
``look`` (the 0-based place of a card being looked at, named by ``card`` or ``kumi``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sengoku.core.describe import ActionDescription, generic_description
from sengoku.games.sashimono.cards import KUMI_NAMES, KUMI_POWER, describe_effect
from sengoku.games.sashimono.decisions import (
    K_ENEMY,
    K_HAND,
    K_LINE,
    K_LOOK,
    K_OWN,
    K_PLAY,
    K_SHAND,
    Act,
    Question,
)
from sengoku.games.sashimono.pieces import LINE_NAMES, SLOT_WORDS, SLOTS

if TYPE_CHECKING:
    from sengoku.games.sashimono.state import SashimonoState

#: A line's name in words (``row1`` -> "row 1", ``colb`` -> "column b").
LINE_WORDS = {
    **{f"row{n}": f"row {n}" for n in (1, 2, 3)},
    **{f"col{c}": f"column {c}" for c in "abc"},
    "line": "the Kumi line",
}


#: The notations that end a step, in words (the step says what ends).
DONE_WORDS = {
    "done": ("done", "Done with this card", "Finish this card's actions."),
    "ante done": ("done", "No more ante: fight", "Add no more to the battle: it is fought now."),
    "end": ("end", "Place no more Kumi", "Place no more Kumi from your hand this turn."),
    "keep": ("keep", "Keep the rest in play", "Keep your other Sashimono in play."),
}


def _bonus_effect(name: str) -> str:
    """A Score turn's bonus action's effect in words ('' for a name it does not know)."""
    from sengoku.games.sashimono.score_turn import BONUS, BONUS_EFFECT

    if name not in BONUS:
        return ""
    return str(describe_effect(BONUS_EFFECT[BONUS.index(name)]))


def _hand(arg: str) -> str:
    return (
        f"the card in your hand position {arg[1:]}" if arg.startswith("h") else f"the Kumi at {arg}"
    )


def _where(arg: str) -> str:
    if arg.startswith("h") and arg[1:].isdigit():
        return f"hand position {arg[1:]}"
    if arg in SLOTS:
        return f"the space {SLOT_WORDS[SLOTS.index(arg)]}"
    if arg in LINE_WORDS:
        return LINE_WORDS[arg]
    return f"cell {arg}"


def _action_effect(state: SashimonoState, name: str) -> str:
    """The effect in words of the action ``name`` of the card being played (public: the card
    lies face up in its slot), or of the reference actions."""
    ctx = getattr(state, "ctx", {}) or {}
    actions = list(state.card(ctx["card"]).actions) if ctx.get("card") is not None else []
    for action in [*actions, *state.cs.reference]:
        if action.name == name:
            return str(describe_effect(action.effect))
    return ""


def own_hands(state: SashimonoState) -> dict[str, list[Any]]:
    """The acting seat's own Kumi hand (types) and Sashimono hand (card ids), from its view."""
    actor = state.current_player
    if actor < 0:
        return {}
    for side in state.view(actor)["sides"]:
        if side["seat"] == actor:
            return {"kumi": side.get("hand") or [], "cards": side.get("sashimono_hand") or []}
    return {}


def describe(
    state: SashimonoState, action: Act, hands: dict[str, list[Any]] | None = None
) -> ActionDescription:
    """``action``, legal in ``state`` (a SashimonoState), as data; ``hands``: the acting
    seat's :func:`own_hands` (computed when not given)."""
    notation = str(action)
    verb, _, arg = notation.partition(" ")
    objects: dict[str, Any] = table_objects(state, action)
    if action.kind == K_LOOK:
        return _look(state, notation, verb, action.arg, objects)
    if verb == "with" and _question(state) is Question.SWAP_WITH:
        cell = objects.get("cell", arg)
        objects["step"] = "choice"
        return ActionDescription(
            notation, "swap", f"Swap with {cell}", f"Swap it with the Kumi at {cell}.", objects
        )
    if action.kind in (K_HAND, K_SHAND):
        hands = own_hands(state) if hands is None else hands
        pile = hands.get("kumi" if action.kind == K_HAND else "cards", [])
        if 0 <= action.arg < len(pile) and pile[action.arg]:
            item = str(pile[action.arg])
            if action.kind == K_HAND:
                objects["kumi"] = item
                name = KUMI_NAMES.get(item, item)
            else:
                objects["card"] = item
                name = state.cs.cards[state.cs.index[item]].name
            held = f"your {name} (hand position {action.arg + 1})"
            return _simple(notation, verb, arg, objects, held, name)
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
        ctx = getattr(state, "ctx", {}) or {}
        name = "the card"
        if ctx.get("card") is not None:  # the acting seat's own card, just played
            card = state.card(ctx["card"])
            objects["card"] = card.id
            name = card.name
        # The space in words ("above column a"): its notation is in ``objects`` and ``notation``.
        where = SLOT_WORDS[SLOTS.index(arg)] if arg in SLOTS else f"space {arg}"
        return ActionDescription(
            notation,
            "choose_slot",
            f"{where[0].upper()}{where[1:]}",
            f"Put {name} into the space {where}.",
            objects,
        )
    if notation in DONE_WORDS:
        kind, label, text = DONE_WORDS[notation]
        return ActionDescription(notation, kind, label, text, {"step": "choice"})
    if verb == "do":
        objects.update(action=arg, step="choice")
        ctx = getattr(state, "ctx", {}) or {}
        if ctx.get("card") is not None:  # the card being played lies face up: public
            card = state.card(ctx["card"])
            if any(a.name == arg for a in card.actions):
                # the client words the action from its catalog, in the page's language
                objects["card"] = card.id
        effect = _action_effect(state, arg)
        if effect:  # public: the card in play, or the reference card (the client words it)
            objects["effect"] = effect
        text = f"Carry out the card's {arg} action" + (f": {effect}." if effect else ".")
        label = f"{arg}: {effect}" if effect else arg
        return ActionDescription(notation, "card_action", label, text, objects)
    if verb == "to":
        cell, _, face = arg.partition(" ")
        objects.update(to=cell, cell=cell, side="own", face=face, step="cell")
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
        effect = _bonus_effect(arg)
        return ActionDescription(
            notation,
            "bonus",
            f"Bonus {arg}: {effect}" if effect else f"Bonus: {arg}",
            f"Take the {arg} bonus" + (f": {effect}." if effect else "."),
            objects,
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
    return _simple(notation, verb, arg, objects, None)


def _question(state: SashimonoState) -> Question | None:
    prompt = getattr(state, "prompt", None)
    return None if prompt is None else prompt.kind


def table_objects(state: SashimonoState, action: Act) -> dict[str, Any]:
    """Where on the table ``action`` points, so that a client can make the thing clickable:
    a Sonae cell (``cell``, with ``side`` ``own`` or ``enemy``; the Kagemusha's Kumi line
    cells are ``k1``...), a ``line`` of the Sonae, a looked-at card (``look``, 0-based)."""
    if action.kind == K_OWN:
        actor = state.current_player
        return {"cell": state.cell_name(actor, action.arg), "side": "own"}
    if action.kind == K_ENEMY:
        enemy = 2 if state.solo else 1 - state.current_player
        return {"cell": state.cell_name(enemy, action.arg), "side": "enemy"}
    if action.kind == K_LINE and 0 <= action.arg < len(LINE_NAMES):
        # lines are the enemy's in a battle, else the acting seat's own
        battle = _question(state) is Question.BATTLE
        return {"line": LINE_NAMES[action.arg], "side": "enemy" if battle else "own"}
    return {}


def _look(
    state: SashimonoState, notation: str, verb: str, index: int, objects: dict[str, Any]
) -> ActionDescription:
    """A card being looked at (``bottom L1``, ``keep L2``...), named when the acting seat is
    the looker (it always is: only the looker is asked)."""
    looking = list(state.look.cards)
    objects.update(look=index, step="choice")
    name = f"card L{index + 1}"
    if 0 <= index < len(looking) and state.look.owner == state.current_player:
        item = looking[index]
        if isinstance(item, str):
            objects["kumi"] = item
            name = KUMI_NAMES.get(item, item)
        else:
            card = state.card(item)
            objects["card"] = card.id
            name = card.name
    if verb == "bottom":
        return ActionDescription(
            notation,
            "look",
            f"Bottom: {name}",
            f"Put {name} at the bottom of the deck.",
            objects,
        )
    word = "Keep" if verb == "keep" else verb.capitalize()
    return ActionDescription(notation, "look", f"{word} {name}", f"{word} {name}.", objects)


def _simple(
    notation: str,
    verb: str,
    arg: str,
    objects: dict[str, Any],
    held: str | None,
    held_name: str | None = None,
) -> ActionDescription:
    """The verbs described from their argument alone (``held``: what a hand position holds,
    ``held_name``: its name alone)."""
    enemy = arg.startswith("enemy ")
    if enemy:
        arg = arg.split(" ", 1)[1]
        objects["side"] = "enemy"
    simple: dict[str, tuple[str, str, str]] = {
        # verb: (kind, label template, sentence template)
        "train": ("train", "Train {a}", "Train the Kumi at {a}."),
        "with": ("train", "Train with {n}", "Train with {h}."),
        "swap": ("swap", "Swap {a}", "Swap the Kumi at {a}."),
        "flip": ("flip", "Flip {a}", "Flip the Kumi at {a}."),
        "reveal": ("reveal", "Reveal {a}", "Reveal the hidden Kumi at {a}."),
        "return": ("return", "Return {a} to hand", "Return the card in {w}."),
        "bury": ("bury", "Bury {n}", "Bury {x}."),
        "kumi": ("kumi", "Place {n}", "Take {h} to place in your Sonae."),
        "ante": ("ante", "Ante {n}", "Ante {h} for the battle."),
        "battle": ("battle", "Attack {w}", "Attack the enemy's {w}."),
        "casualty": ("casualty", "Casualty {a}", "Take the Kumi at {a} as your casualty."),
        "gunbai": ("gunbai", "Gunbai {a}", "Put the Gunbai on {a}."),
        "bottom": (
            "look",
            "Bottom {a}",
            "Put the looked-at Kumi {a} at the bottom of the Kumi deck.",
        ),
        "rearrange": ("rearrange", "Rearrange {w}", "Rearrange {w}."),
        "order": (
            "order",
            "Order {o}",
            "Put the line in the new order {o} (each old space, first to last).",
        ),
        "keep": ("keep", "Keep", "Keep it."),
        "discard": ("discard", "Discard {n}", "Discard {h}."),
        "peek": ("peek", "Peek at {a}", "Peek at the hidden Kumi at {a}."),
        "choose": ("choose", "{a}", "Choose the effect {a}."),
        "done": ("done", "Done", "Finish this step."),
        "end": ("end", "End", "End this step."),
    }
    if verb in simple:
        kind, label, text = simple[verb]
        order = ", ".join(arg[i : i + 2] for i in range(0, len(arg), 2))
        fill = {"a": arg, "w": _where(arg), "h": held or _hand(arg), "o": order}
        fill["n"] = held_name or arg
        fill["x"] = held or f"the card in {fill['w']}"
        if arg:
            key = (
                "slot"
                if "-" in arg
                else ("hand" if arg.startswith("h") and arg[1:].isdigit() else "to")
            )
            objects.setdefault(key, arg)
        objects["step"] = "choice"
        label, text = label.format(**fill), text.format(**fill)
        if enemy:
            label, text = f"{label} (enemy)", text.replace("the Kumi at", "the enemy's Kumi at")
            text = text.replace("the hidden Kumi at", "the enemy's hidden Kumi at")
        return ActionDescription(notation, kind, label, text, objects)
    return generic_description(notation)


def ongoing_text(ongoing: Any) -> str:
    """A card's ongoing ability in words ('' when it has none)."""
    if not ongoing:
        return ""
    if "modifier" in ongoing:
        return f"Ongoing: +{ongoing['amount']} {ongoing['modifier']} ({ongoing['scope']})."
    return f"Ongoing: on {ongoing['trigger']}, {describe_effect(ongoing['effect'])}."


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
                "ongoing_text": ongoing_text(c.ongoing),
            }
            for c in cs.cards
        ],
        "kumi": [
            {"id": k, "name": name, "attack": KUMI_POWER[k][0], "defence": KUMI_POWER[k][1]}
            for k, name in KUMI_NAMES.items()
        ],
    }
