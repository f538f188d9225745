"""The solo mode: the Kagemusha, which is no seat. Its turn (score its bowed traps, act for
each T, K and N of its Kumi line, draw, move its Army), its draws, and its prescribed
answer to every question asked of it (closest to its Army, leftmost, always decline)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.sashimono.battle as battle
import sengoku.games.sashimono.winning as winning
from sengoku.core.sentence import Word, say
from sengoku.games.sashimono.cards import KUMI_NAMES, KUMI_TYPES
from sengoku.games.sashimono.decisions import K_DONE, K_ENEMY, Step, Task
from sengoku.games.sashimono.pieces import (
    EVERYONE,
    KAGE,
    SLOT_POS,
    SLOT_WORDS,
    is_up,
    rank,
    stack_words,
    types_of,
)

if TYPE_CHECKING:
    from sengoku.games.sashimono.state import SashimonoState


#: The steps of the Kagemusha's turn and of its actions, made once: a ``Task`` is immutable
#: (clones share them already) and a Python class, slow to make from compiled code.
_TURN_STEPS = (
    Task(Step.KAGE_BLOCK, type="T"),
    Task(Step.KAGE_BLOCK, type="K"),
    Task(Step.KAGE_BLOCK, type="N"),
    Task(Step.KAGE_DRAW),
    Task(Step.KAGE_MOVE),
    Task(Step.END_TURN, seat=KAGE),
)
_BATTLE_COLUMN = Task(Step.KAGE_BATTLE, axis="column")
_BATTLE_ROW = Task(Step.KAGE_BATTLE, axis="row")
_PLACE = Task(Step.KAGE_PLACE, axis="row")


def take_turn(state: SashimonoState) -> None:
    """The Kagemusha's turn: Score Kagemusha VP, then schedule its other steps."""
    k = state.sides[KAGE]
    state.emit(
        "turn",
        say("The Kagemusha's turn."),
        seat=KAGE,
        turn=state.turn_order.count,
        name="The Kagemusha",
    )
    keep, keep_b = [], []
    for c, bowed in zip(k.sline, k.sbowed, strict=True):
        if bowed:
            k.scored.append(c)
            k.vp += 1
            state.emit("score", say("The Kagemusha scores {card} (now {vp} VP).",
                                    card=Word(state.card(c).name), vp=k.vp),
                       seat=KAGE, card=state.card(c).id)  # fmt: skip
        else:
            keep.append(c)
            keep_b.append(False)
    k.sline, k.sbowed = keep, keep_b
    if k.vp >= state.target:
        winning.win(state, KAGE, "kagemusha_vp")
        return
    state.push(*_TURN_STEPS)


def count(state: SashimonoState, t: str) -> int:
    """How many face-up Kumi of type ``t`` the Kagemusha's Kumi line holds."""
    return sum(1 for st in state.sides[KAGE].cells if st is not None and is_up(st) and t in st)


def step_block(state: SashimonoState, task: Task) -> None:
    """Perform Kagemusha's Actions for one type: T battles columns, N rows, K draws."""
    t = task.type
    n = count(state, t)
    if not n:
        return
    # T battles the nearest column, N the nearest row; K places (its axis unread: "row")
    task = _PLACE if t == "K" else _BATTLE_COLUMN if t == "T" else _BATTLE_ROW
    state.push(*[task for _ in range(n)])


def nearest_line(state: SashimonoState, axis: str) -> int:
    """The player's row or column nearest the Kagemusha's Army."""
    p = state.sides[KAGE].army_pos
    if axis == "column":
        if p <= 2:
            return 3 + p
        if p <= 5:
            return 5
        if p <= 8:
            return 3 + (8 - p)
        return 3
    if p <= 2:
        return 0
    if p <= 5:
        return p - 3
    if p <= 8:
        return 2
    return 11 - p


def step_battle(state: SashimonoState, task: Task) -> None:
    """The Kagemusha battles the nearest line (it makes no ante)."""
    dline = nearest_line(state, task.axis)
    battle.start_battle(state, KAGE, 6, dline, 0, True)


def step_place(state: SashimonoState, task: Task) -> None:
    """The Kagemusha places the top Kumi of its deck in its Kumi line."""
    draw_kumi(state)


def draw_kumi(state: SashimonoState) -> bool:
    """The Kagemusha draws a Kumi to its line; with its deck empty it wins (False)."""
    k = state.sides[KAGE]
    if not k.deck:
        winning.win(state, KAGE, "kagemusha_deck")
        return False
    t = k.deck.pop(0)
    k.cells.append(t + "^")
    state.emit(
        "kage_draw",
        say("The Kagemusha places {kumi} in its Kumi line.", kumi=Word(KUMI_NAMES[t])),
        kumi=t,
    )
    return True


def draw_sashimono(state: SashimonoState) -> bool:
    """The Kagemusha draws a Sashimono to its line; with its deck empty it wins (False)."""
    k = state.sides[KAGE]
    if not k.sdeck:
        winning.win(state, KAGE, "kagemusha_deck")
        return False
    c = k.sdeck.pop(0)
    add_sashimono(state, c)
    return True


def add_sashimono(state: SashimonoState, c: int) -> None:
    """A Sashimono joins the Kagemusha's line (a full line of 6 scores its first)."""
    k = state.sides[KAGE]
    if state.options["challenge_six_sashimono"] and len(k.sline) >= 6:
        first = k.sline.pop(0)
        k.sbowed.pop(0)
        k.scored.append(first)
        k.vp += 1
        state.emit(
            "score",
            say(
                "The Kagemusha's line is full: it scores {card} (now {vp} VP).",
                card=Word(state.card(first).name),
                vp=k.vp,
            ),
            seat=KAGE,
            card=state.card(first).id,
        )
        if k.vp >= state.target:
            winning.win(state, KAGE, "kagemusha_vp")
    k.sline.append(c)
    k.sbowed.append(False)
    state.emit("kage_sashimono", say("The Kagemusha adds {card} to its Sashimono line.",
                                     card=Word(state.card(c).name)),
               card=state.card(c).id)  # fmt: skip


def step_draw(state: SashimonoState, task: Task) -> None:
    """Draw Kumi & Check Kumi: three matching Kumi go (or train), a Sashimono comes."""
    k = state.sides[KAGE]
    if not draw_kumi(state):
        return
    while len(k.cells) < 3:
        if not draw_kumi(state):
            return
    train = state.options["challenge_train"]
    for t in KUMI_TYPES:
        while True:
            # Matching Kumi: face-up single cards of one type. (With the training challenge
            # a trained stack is one new unit and no longer counts as a match.)
            matches = [
                i
                for i, st in enumerate(k.cells)
                if st and is_up(st) and (st == t + "^" or (not train and t in st))
            ]
            if len(matches) < 3:
                break
            first = matches[0]
            st = k.cells[first] or ""
            host = -1
            if train:
                for j in range(len(k.cells) - 1, -1, -1):
                    other = k.cells[j] or ""
                    if j != first and is_up(other) and t not in other and rank(other) < 3:
                        host = j
                        break
            k.cells.pop(first)
            if host >= 0:
                host -= 1 if host > first else 0
                other = k.cells[host] or ""
                k.cells[host] = other[:-1] + t + "^"
                state.emit(
                    "kage_train",
                    say(
                        "The Kagemusha trains its Kumi number {number} with {kumi}.",
                        number=host + 1,
                        kumi=Word(KUMI_NAMES[t]),
                    ),
                )
            else:
                k.discard.extend(types_of(st))
                state.emit(
                    "kage_discard",
                    say(
                        "The Kagemusha discards {kumi}: too many matching Kumi.",
                        kumi=stack_words(st),
                    ),
                )
            if not draw_sashimono(state) or state.result is not None:
                return


def step_move(state: SashimonoState, task: Task) -> None:
    """Move Army & Check Sashimono: the Army moves on; too many Sashimono are discarded."""
    k = state.sides[KAGE]
    mine = state.sides[0].slots
    p = k.army_pos
    corner = False
    for _ in range(12):
        nxt = (p + 1) % 12
        if p in (5, 11):
            corner = True
        p = nxt
        if mine[p] is None:
            break
    else:
        p = k.army_pos
    k.army_pos = p
    state.emit("kage_move", say("The Kagemusha's Army moves to position {position} ({space}).",
                                position=p + 1, space=Word(SLOT_WORDS[p])),
               position=p + 1)  # fmt: skip
    if corner and state.options["challenge_corners"]:
        state.emit("kage_corner", say("The Army rounds a corner: the Kagemusha draws a Sashimono."))
        if not draw_sashimono(state) or state.result is not None:
            return
    limit = 6 if state.options["challenge_six_sashimono"] else 3
    extra = 0
    while len(k.sline) > limit:
        c = k.sline.pop(0)
        k.sbowed.pop(0)
        k.bottom("sas", [c], EVERYONE)  # a discarded Sashimono: to the bottom, in public
        state.emit(
            "kage_discard",
            say(
                "The Kagemusha discards {card}: too many Sashimono.", card=Word(state.card(c).name)
            ),
        )
        extra += 1
    for _ in range(extra):
        if not draw_kumi(state):
            return


def answer(state: SashimonoState) -> None:
    """The Kagemusha's prescribed choice for a question asked of it."""
    prompt = state.prompt
    assert prompt is not None
    opts = prompt.options
    choice = None
    for o in opts:
        if o.kind == K_DONE:
            choice = o  # it always declines an option
            break
    if choice is None:
        enemy_cells = [o for o in opts if o.kind == K_ENEMY]
        if enemy_cells:
            choice = min(enemy_cells, key=lambda o: army_distance(state, o.arg))
        else:
            choice = opts[0]  # leftmost / first
    state.answer(choice)


def army_distance(state: SashimonoState, cell: int) -> tuple[int, int, int]:
    """Closest to the Army; ties: nearest to where it moves next; then the first cell."""
    k = state.sides[KAGE]
    r, c = divmod(cell, 3)
    ar, ac = SLOT_POS[k.army_pos]
    nxt = k.army_pos
    mine = state.sides[0].slots
    for _ in range(12):
        nxt = (nxt + 1) % 12
        if mine[nxt] is None:
            break
    nr, nc = SLOT_POS[nxt]
    return ((r - ar) ** 2 + (c - ac) ** 2, (r - nr) ** 2 + (c - nc) ** 2, cell)
