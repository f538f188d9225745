"""Bowing: a Sashimono in play whose scoring condition holds is bowed, and un-bowed as soon
as it stops holding; recomputed after every step. Here too the counting functions the
condition language reads (:func:`measure`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sengoku.core.sentence import Word, say
from sengoku.games.sashimono.pieces import (
    CELLS,
    CORNERS,
    EDGES,
    KAGE,
    LINE_NAMES,
    LINES,
    SLOTS,
    attack_of,
    defence_of,
    is_up,
    rank,
)

if TYPE_CHECKING:
    from sengoku.games.sashimono.state import SashimonoState


@dataclass(slots=True)
class BowingMemo:
    """What :func:`rebow` last bowed for (:func:`bow_key`): bowing holds after every change
    of state, and a position nothing changed in needs no pass (not saved: derived)."""

    # A class of its own, not a :class:`~sengoku.core.substate.Part`: this module is compiled
    # by mypyc, and a compiled class cannot subclass the core's Python class (nor use its
    # generated clone); the copy and the saved form are written out.

    key: tuple[Any, ...] | None = None

    def clone(self) -> BowingMemo:
        return BowingMemo(self.key)  # the key is immutable: shared


def sel_cells(state: SashimonoState, side: int, kw: dict[str, Any]) -> list[str]:
    """The stacks of ``side``'s Sonae that a condition's ``line``/``position`` select."""
    cells = state.sides[side].cells
    kage = side == KAGE
    line = kw.get("line")
    position = kw.get("position")
    out = []
    for i, st in enumerate(cells):
        if st is None:
            continue
        if line is not None and not kage and i not in LINES[LINE_NAMES.index(line)]:
            continue
        if position is not None:
            if kage:
                continue
            if position == "corner":
                if i not in CORNERS:
                    continue
            elif position == "edge":
                if i not in EDGES:
                    continue
            elif position == "center":
                if i != 4:
                    continue
            elif CELLS[i] != position:
                continue
        out.append(st)
    return out


def match(st: str, kw: dict[str, Any]) -> bool:
    """Whether a stack matches a condition's ``face``/``type``/``rank``/``min_rank``."""
    face = kw.get("face", "any")
    if face == "hidden" and is_up(st):
        return False
    if face == "up" and not is_up(st):
        return False
    t = kw.get("type")
    if t is not None and (not is_up(st) or t not in st):
        return False
    r = kw.get("rank")
    if r is not None and rank(st) != r:
        return False
    mr = kw.get("min_rank")
    return mr is None or rank(st) >= mr


def measure(state: SashimonoState, fn: str, side: int, other: int, kw: dict[str, Any]) -> int:
    """The value of one counting function of the condition language for ``side``."""
    s = state.sides[side]
    if fn == "count":
        return sum(1 for st in sel_cells(state, side, kw) if match(st, kw))
    if fn == "power":
        stat = attack_of if kw.get("stat", "attack") == "attack" else defence_of
        return sum(stat(st) for st in sel_cells(state, side, kw) if match(st, kw))
    if fn == "lines":
        axis = kw.get("axis", "any")
        need = kw.get("at_least", 1)
        distinct = kw.get("distinct")
        total = 0
        for lid in state.lines_of(side):
            if side != KAGE and ((axis == "row" and lid > 2) or (axis == "column" and lid < 3)):
                continue
            stacks = [s.cells[i] for i in state.line_cells(side, lid)]
            live = [st for st in stacks if st is not None and match(st, kw)]
            if len(live) < need:
                continue
            if distinct is not None:
                kinds = {t for st in live if is_up(st) for t in st[:-1]}
                if len(kinds) < distinct:
                    continue
            total += 1
        return total
    if fn == "types":
        sel = sel_cells(state, side, kw)
        return len({t for st in sel if is_up(st) for t in st[:-1]})
    if fn == "hand":
        if kw.get("what", "kumi") == "kumi":
            return len(s.cells) if side == KAGE else len(s.hand)
        return len(s.sline) if side == KAGE else len(s.shand)
    if fn == "sashimono":
        if side == KAGE:
            pairs = list(zip(s.sline, s.sbowed, strict=True))
        else:
            pairs = [(c, b) for c, b in zip(s.slots, s.bowed, strict=True) if c is not None]
        army = kw.get("army")
        bowed = kw.get("bowed")
        return sum(
            1
            for c, b in pairs
            if (army is None or state.card(c).serves(army)) and (bowed is None or b == bowed)
        )
    if fn == "vp":
        return s.vp
    if fn == "empty":
        return 0 if side == KAGE else sum(1 for st in s.cells if st is None)
    raise KeyError(fn)


def bow_key(state: SashimonoState) -> tuple[Any, ...]:
    """Everything a scoring condition can read (a cheap test for "nothing changed")."""
    return tuple(
        (tuple(s.cells), len(s.hand), len(s.shand), tuple(s.slots), tuple(s.bowed), s.vp,
         tuple(s.sline), tuple(s.sbowed))
        for s in state.sides
    )  # fmt: skip


def rebow(state: SashimonoState) -> None:
    """Bow or un-bow every Sashimono in play (spec: after every change of state)."""
    key = bow_key(state)
    if key == state.bow_memo.key:
        return
    # a condition may count bowed Sashimono: repeat until nothing changes
    for _ in range(4):
        if not rebow_pass(state):
            break
    state.bow_memo.key = bow_key(state)


def rebow_pass(state: SashimonoState) -> bool:
    """One pass of bowing over every Sashimono in play; whether any changed."""
    changed = False
    seats = [0] if state.solo else [0, 1]
    for seat in seats:
        s = state.sides[seat]
        foe = state.enemy(seat)
        for p, c in enumerate(s.slots):
            if c is None:
                continue
            now = bool(state.card(c).score(state, seat, foe))
            if now != s.bowed[p]:
                s.bowed[p] = now
                changed = True
                card = Word(state.card(c).name)
                side = state.name_of(seat)
                bows = (
                    say("{card} ({side}) bows.", card=card, side=side)
                    if now
                    else say("{card} ({side}) un-bows.", card=card, side=side)
                )
                state.emit("bow", bows, seat=seat, slot=SLOTS[p], card=state.card(c).id, bowed=now)
    if state.solo:
        k = state.sides[KAGE]
        for i, c in enumerate(k.sline):
            # "Bow the Kagemusha's Sashimono as if you would bow your own": its conditions
            # read your Sonae as "own" and its Kumi line as the enemy's.
            now = bool(state.card(c).score(state, 0, KAGE))
            if now != k.sbowed[i]:
                k.sbowed[i] = now
                changed = True
                card = Word(state.card(c).name)
                bows = (
                    say("The Kagemusha's {card} bows: a trap.", card=card)
                    if now
                    else say("The Kagemusha's {card} un-bows: a trap.", card=card)
                )
                state.emit("bow", bows,
                           seat=KAGE, card=state.card(c).id, bowed=now)  # fmt: skip
    return changed
