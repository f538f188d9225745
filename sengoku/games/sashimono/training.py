"""Training and Rank: put a Kumi from hand of a type the stack lacks on top of a face-up
Kumi (Rank 3 at most); not in the played line when an action trains."""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.sashimono.effects as effects
from sengoku.core.sentence import N_, Word, say
from sengoku.games.sashimono.cards import KUMI_NAMES
from sengoku.games.sashimono.decisions import K_DONE, K_HAND, K_OWN, Prompt, Question, Spec, Task
from sengoku.games.sashimono.pieces import CELLS, EVERYONE, KAGE, LINES, is_up, rank, stack_words

if TYPE_CHECKING:
    from sengoku.games.sashimono.state import SashimonoState


def train_targets(
    state: SashimonoState, seat: int, line: int | None
) -> list[tuple[int, list[int]]]:
    """The face-up Kumi ``seat`` can train (outside ``line``), and the hand Kumi for each."""
    s = state.sides[seat]
    skip = set(LINES[line]) if line is not None else set()
    out = []
    for i, st in enumerate(s.cells):
        if st is None or not is_up(st) or rank(st) >= 3 or i in skip:
            continue
        hands = [h for h, t in enumerate(s.hand) if t not in st]
        if hands:
            out.append((i, hands))
    return out


def op_train(state: SashimonoState, task: Task, spec: Spec) -> None:
    """The train effect: ask for the Kumi to train, or ``no training``."""
    actor = task.actor
    if actor == KAGE:
        return
    line = task.line if spec["where"] == "other" else None
    if not may_train(state, actor, line):
        effects.skip(state, actor, N_("no face-up Kumi can be trained"))
        return
    # Whether a Kumi in hand can train depends on the hand's types, which are secret:
    # the question is asked whenever training looks possible to the others, and you
    # may decline (also the only answer when no Kumi in hand fits).
    opts = [(K_OWN, i, f"train {CELLS[i]}", CELLS[i]) for i, _ in train_targets(state, actor, line)]
    opts.append((K_DONE, 0, "no training", "none"))
    state.ask(actor, Question.TRAIN, N_("train a face-up Kumi (not in the played line from an action), "
              "or decline"), opts, line=line)  # fmt: skip


def may_train(state: SashimonoState, seat: int, line: int | None) -> bool:
    """Training looks possible to the other players: a Kumi in hand and a face-up Kumi
    below Rank 3 (outside ``line``)."""
    s = state.sides[seat]
    skip = set(LINES[line]) if line is not None else set()
    return bool(s.hand) and any(
        st is not None and is_up(st) and rank(st) < 3 and i not in skip
        for i, st in enumerate(s.cells)
    )


def answer_train(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """The Kumi chosen: ask for the Kumi from hand to put on top."""
    seat = prompt.seat
    if kind == K_DONE:
        state.emit("no_effect", say("{side} does not train.", side=state.name_of(seat)))
        return
    st = state.sides[seat].cells[arg] or ""
    hand = state.sides[seat].hand
    opts = [(K_HAND, h, f"with h{h + 1}", f"h{h + 1}") for h, t in enumerate(hand) if t not in st]
    state.ask(seat, Question.TRAIN_WITH, N_("add a Kumi of a different type from hand on top"), opts,
              cell=arg)  # fmt: skip


def answer_train_with(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """Put the Kumi from hand on top: the stack's Rank goes up by one."""
    seat = prompt.seat
    s = state.sides[seat]
    t = s.hand.pop(arg)
    idx = prompt.cell
    st = s.cells[idx] or ""
    s.cells[idx] = st[:-1] + t + st[-1]
    s.known[idx] = EVERYONE
    state.emit("train", say("{side} trains {cell} with {kumi}: now {stack} (rank {rank}).",
                            side=state.name_of(seat), cell=CELLS[idx], kumi=Word(KUMI_NAMES[t]),
                            stack=stack_words(s.cells[idx] or ""), rank=rank(s.cells[idx] or "")),
               seat=seat, cell=CELLS[idx], stack=s.cells[idx])  # fmt: skip
