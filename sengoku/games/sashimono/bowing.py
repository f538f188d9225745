"""Bowing: a Sashimono in play whose scoring condition holds is bowed, and un-bowed as soon
as it stops holding; recomputed after every step. Here too the counting functions the
condition language reads (:func:`measure`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from sengoku.core.sentence import Word, say
from sengoku.games.sashimono.cards import (
    FN_COUNT,
    FN_EMPTY,
    FN_HAND,
    FN_LINES,
    FN_POWER,
    FN_SASHIMONO,
    FN_TYPES,
    FN_VP,
    Absolute,
    AllOf,
    AnyOf,
    Arithmetic,
    Compare,
    Cond,
    Constant,
    Counting,
    Extreme,
    Negative,
    Not,
    Query,
)
from sengoku.games.sashimono.pieces import (
    CELLS,
    CORNERS,
    EDGES,
    KAGE,
    LINES,
    SLOTS,
    attack_of,
    defence_of,
    is_up,
    rank,
)

if TYPE_CHECKING:
    from sengoku.games.sashimono.state import SashimonoState


#: What bowing reads of one side: its Sonae, how many Kumi and Sashimono in hand, its
#: Sashimono spaces and their bowing, its VP, the Kagemusha's Sashimono line and its bowing.
SideKey = tuple[
    list[str | None], int, int, list[int | None], list[bool], int, list[int], list[bool]
]


@dataclass(slots=True)
class BowingMemo:
    """What :func:`rebow` last bowed for (:func:`bow_key`): bowing holds after every change
    of state, and a position nothing changed in needs no pass (not saved: derived)."""

    # A class of its own, not a :class:`~sengoku.core.substate.Part`: this module is compiled
    # by mypyc, and a compiled class cannot subclass the core's Python class (nor use its
    # generated clone); the copy and the saved form are written out.

    key: tuple[SideKey, ...] | None = None
    #: What the conditions of the Sashimono in play read of each side (``READ_*`` bits)
    #: when ``key`` was taken: a change to nothing they read cannot bow or un-bow one.
    reads: tuple[int, ...] = ()

    def clone(self) -> BowingMemo:
        # the key and the reads are never changed in place: shared
        return BowingMemo(self.key, self.reads)


#: What a scoring condition reads of a side besides its Sashimono in play and their bowing
#: (which bowing always compares): its Sonae (or the Kagemusha's Kumi line), how many Kumi
#: and Sashimono in hand, its VP.
# Final: compiled, each is a constant, not a look-up in the module's dict.
READ_CELLS: Final = 1
READ_HAND: Final = 2
READ_SHAND: Final = 4
READ_VP: Final = 8
READ_ALL: Final = READ_CELLS | READ_HAND | READ_SHAND | READ_VP
#: Each condition's reads of its own side and of the enemy's, worked out once.
_READS: dict[Cond, tuple[int, int]] = {}


def _query_reads(q: Query) -> int:
    fn = q.fn
    if fn in (FN_COUNT, FN_POWER, FN_LINES, FN_TYPES, FN_EMPTY):
        return READ_CELLS
    if fn == FN_HAND:
        # the Kagemusha's "hand" of Kumi is its Kumi line; of Sashimono, its Sashimono line
        return READ_CELLS | READ_HAND if q.kumi else READ_SHAND
    if fn == FN_VP:
        return READ_VP
    if fn == FN_SASHIMONO:
        return 0  # the Sashimono in play and their bowing: always compared
    return READ_ALL


def condition_reads(cond: Cond) -> tuple[int, int]:
    """What ``cond`` reads of the own side and of the enemy's (``READ_*`` bits)."""
    known = _READS.get(cond)
    if known is not None:
        return known
    own = enemy = 0
    parts: list[Cond] = []
    if isinstance(cond, Counting):
        if cond.enemy_side:
            enemy = _query_reads(cond.query)
        else:
            own = _query_reads(cond.query)
    elif isinstance(cond, (AllOf, AnyOf, Extreme)):
        parts = list(cond.parts)
    elif isinstance(cond, (Not, Negative, Absolute)):
        parts = [cond.inner]
    elif isinstance(cond, Arithmetic):
        parts = [cond.a, cond.b]
    elif isinstance(cond, Compare):
        parts = [cond.first, *cond.rest]
    elif not isinstance(cond, Constant):
        own = enemy = READ_ALL  # a kind of condition this does not know: it may read anything
    for part in parts:
        o, e = condition_reads(part)
        own |= o
        enemy |= e
    _READS[cond] = (own, enemy)
    return own, enemy


def reads_in_play(state: SashimonoState) -> tuple[int, ...]:
    """What the conditions of every Sashimono in play read of each side."""
    reads = [0] * len(state.sides)
    seats = [0] if state.solo else [0, 1]
    for seat in seats:
        foe = state.enemy(seat)
        for c in state.sides[seat].slots:
            if c is not None:
                own, enemy = condition_reads(state.card(c).score)
                reads[seat] |= own
                reads[foe] |= enemy
    if state.solo:
        # the Kagemusha's are read as if they were the player's, the Kagemusha the enemy
        for c in state.sides[KAGE].sline:
            own, enemy = condition_reads(state.card(c).score)
            reads[0] |= own
            reads[KAGE] |= enemy
    return tuple(reads)


def sel_cells(state: SashimonoState, side: int, q: Query) -> list[str]:
    """The stacks of ``side``'s Sonae that a condition's ``line``/``position`` select."""
    cells = state.sides[side].cells
    kage = side == KAGE
    line = q.line
    position = q.position
    out: list[str] = []
    for i in range(len(cells)):
        st = cells[i]
        if st is None:
            continue
        if line >= 0 and not kage and i not in LINES[line]:
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


def match(st: str, q: Query) -> bool:
    """Whether a stack matches a condition's ``face``/``type``/``rank``/``min_rank``."""
    face = q.face
    if face == "hidden" and is_up(st):
        return False
    if face == "up" and not is_up(st):
        return False
    t = q.kumi_type
    if t is not None and (not is_up(st) or t not in st):
        return False
    if q.rank and rank(st) != q.rank:
        return False
    return not q.min_rank or rank(st) >= q.min_rank


def measure(state: SashimonoState, q: Query, side: int, other: int) -> int:
    """The value of one counting function of the condition language for ``side``."""
    s = state.sides[side]
    fn = q.fn
    if fn == FN_COUNT:
        n = 0
        for st in sel_cells(state, side, q):
            if match(st, q):
                n += 1
        return n
    if fn == FN_POWER:
        total = 0
        for st in sel_cells(state, side, q):
            if match(st, q):
                total += attack_of(st) if q.attack else defence_of(st)
        return total
    if fn == FN_LINES:
        return _count_lines(state, q, side)
    if fn == FN_TYPES:
        sel = sel_cells(state, side, q)
        return len({t for st in sel if is_up(st) for t in st[:-1]})
    if fn == FN_HAND:
        if q.kumi:
            return len(s.cells) if side == KAGE else len(s.hand)
        return len(s.sline) if side == KAGE else len(s.shand)
    if fn == FN_SASHIMONO:
        return _count_sashimono(state, q, side)
    if fn == FN_VP:
        return s.vp
    if fn == FN_EMPTY:
        return 0 if side == KAGE else sum(1 for st in s.cells if st is None)
    raise KeyError(fn)


def _count_lines(state: SashimonoState, q: Query, side: int) -> int:
    """``lines``: the lines of ``side`` with ``at_least`` matching stacks (of ``distinct``
    types, if set), along ``axis``."""
    cells = state.sides[side].cells
    axis = q.axis
    total = 0
    for lid in state.lines_of(side):
        if side != KAGE and ((axis == "row" and lid > 2) or (axis == "column" and lid < 3)):
            continue
        live: list[str] = []
        for i in state.line_cells(side, lid):
            stack = cells[i]
            if stack is not None and match(stack, q):
                live.append(stack)
        if len(live) < q.at_least:
            continue
        if q.distinct:
            kinds = {t for st in live if is_up(st) for t in st[:-1]}
            if len(kinds) < q.distinct:
                continue
        total += 1
    return total


def _count_sashimono(state: SashimonoState, q: Query, side: int) -> int:
    """``sashimono``: the Sashimono in play of ``side`` serving ``army``, ``bowed`` or not."""
    s = state.sides[side]
    army = q.army
    bowed = q.bowed
    n = 0
    if side == KAGE:
        for i in range(len(s.sline)):
            if (army is None or state.card(s.sline[i]).serves(army)) and (
                bowed < 0 or int(s.sbowed[i]) == bowed
            ):
                n += 1
        return n
    for i in range(len(s.slots)):
        c = s.slots[i]
        if c is None:
            continue
        if (army is None or state.card(c).serves(army)) and (bowed < 0 or int(s.bowed[i]) == bowed):
            n += 1
    return n


def bow_key(state: SashimonoState) -> tuple[SideKey, ...]:
    """Everything a scoring condition can read (a cheap test for "nothing changed"): copies,
    never changed in place (clones share their memo's key)."""
    return tuple(
        [
            (s.cells[:], len(s.hand), len(s.shand), s.slots[:], s.bowed[:], s.vp, s.sline[:],
             s.sbowed[:])
            for s in state.sides
        ]
    )  # fmt: skip


def unchanged(
    state: SashimonoState, key: tuple[SideKey, ...] | None, reads: tuple[int, ...] = ()
) -> bool:
    """Whether :func:`bow_key` would give ``key`` now (compared in place: no copies), in
    what the Sashimono in play read (``reads``, by side: see :class:`BowingMemo`; none
    given: everything)."""
    if key is None or len(key) != len(state.sides):
        return False
    everything = len(reads) != len(key)
    for i in range(len(key)):
        s = state.sides[i]
        cells, hand, shand, slots, bowed, vp, sline, sbowed = key[i]
        if not (s.slots == slots and s.bowed == bowed and s.sline == sline and s.sbowed == sbowed):
            return False
        read = READ_ALL if everything else reads[i]
        if read & READ_CELLS and s.cells != cells:
            return False
        if read & READ_HAND and len(s.hand) != hand:
            return False
        if read & READ_SHAND and len(s.shand) != shand:
            return False
        if read & READ_VP and s.vp != vp:
            return False
    return True


def rebow(state: SashimonoState) -> None:
    """Bow or un-bow every Sashimono in play (spec: after every change of state). Nothing
    to do when nothing their conditions read changed since the last time (a draw changes a
    hand that few conditions count; a Kumi played changes one side's Sonae)."""
    memo = state.bow_memo
    if unchanged(state, memo.key, memo.reads):
        return
    # a condition may count bowed Sashimono: repeat until nothing changes
    for _ in range(4):
        if not rebow_pass(state):
            break
    memo.key = bow_key(state)
    memo.reads = reads_in_play(state)


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
            now = state.card(c).score.holds(state, seat, foe)
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
            now = state.card(c).score.holds(state, 0, KAGE)
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
