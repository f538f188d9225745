"""The Action turn: play one Sashimono next to a line of your Sonae, then perform the
actions of that card and of the reference card, each at most once, while their requirement
icons hold in that line (the Gunbai fan: flip a Kumi of the line first)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.sashimono.sonae as sonae
import sengoku.games.sashimono.turn as turn
from sengoku.core.sentence import N_, Word, say
from sengoku.games.sashimono.decisions import (
    K_DO,
    K_DONE,
    K_OWN,
    K_SLOT,
    Prompt,
    Question,
    Step,
    Task,
)
from sengoku.games.sashimono.pieces import (
    CELLS,
    SLOT_LINE,
    SLOT_SHORT,
    SLOT_WORDS,
    SLOTS,
    flipped,
    is_up,
)

if TYPE_CHECKING:
    from sengoku.games.sashimono.cards import CardAction
    from sengoku.games.sashimono.state import SashimonoState


def answer_play(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """The Sashimono chosen: ask for the space it goes to."""
    seat = prompt.seat
    state.ctx["card"] = arg
    opts = [(K_SLOT, p, f"slot {SLOTS[p]}", SLOT_SHORT[p]) for p in turn.free_slots(state, seat)]
    state.ask(seat, Question.SLOT, f"place {state.card(arg).name} next to one line of your Sonae "
              "(not onto another Sashimono or the Kagemusha's Army)", opts)  # fmt: skip


def answer_slot(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """Play 1 Sashimono card: it goes next to the line it activates."""
    seat = prompt.seat
    s = state.sides[seat]
    card = state.ctx["card"]
    s.shand.remove(card)
    s.slots[arg] = card
    s.bowed[arg] = False
    state.ctx["slot"], state.ctx["line"], state.ctx["used"] = arg, SLOT_LINE[arg], []
    state.emit("play", say("{side} plays {card} {space}.", side=state.name_of(seat),
                           card=Word(state.card(card).name), space=Word(SLOT_WORDS[arg])),
               seat=seat, card=state.card(card).id,
               slot=SLOTS[arg])  # fmt: skip


def card_actions(state: SashimonoState) -> list[tuple[int, CardAction]]:
    """The actions of the played card (0-3) and of the reference card (4-)."""
    card = state.card(state.ctx["card"])
    out: list[tuple[int, CardAction]] = list(enumerate(card.actions))
    out += [(4 + i, a) for i, a in enumerate(state.cs.reference)]
    return out


def step_actions(state: SashimonoState, task: Task) -> None:
    """Take Actions: ask for the next action whose requirements hold, or ``done``."""
    seat = task.seat
    lid = state.ctx["line"]
    used = state.ctx["used"]
    opts = []
    # The line's icons, counted once for every action that needs no flip (action_ready
    # would count them again for each).
    line: tuple[dict[str, int], int] | None = None
    for i, act in card_actions(state):
        if i in used:
            continue
        requires = act.requires
        if "gunbai" in requires:
            ready = bool(action_ready(state, seat, lid, requires))
        else:
            if line is None:
                line = icons(state, seat, state.line_cells(seat, lid))
            ready = reqs_hold(line[0], line[1], requires)
        if ready:
            opts.append((K_DO, i, f"do {act.name}", act.name))
    if not opts and not gunbai_may_help(state, seat):
        return  # no action can be performed: the step ends by itself
    # (also asked, with only 'done', when flipping a Hidden Kumi might have made a
    # Gunbai action performable: whether you are asked must not tell its types)
    opts.append((K_DONE, 0, "done", "done"))
    state.ask(seat, Question.DO, N_("perform each available action of the card and the reference "
              "card at most once, requirements read from the chosen line"), opts)  # fmt: skip


def gunbai_may_help(state: SashimonoState, seat: int) -> bool:
    """Whether, as the other players can tell, a Gunbai flip of a Hidden Kumi might make
    an unused action of the played card performable: one is left and the line has a
    Hidden Kumi (its types are secret)."""
    cells = state.sides[seat].cells
    if not any(
        cells[i] is not None and not is_up(cells[i] or "")
        for i in state.line_cells(seat, state.ctx["line"])
    ):
        return False
    return any(
        "gunbai" in act.requires for i, act in card_actions(state) if i not in state.ctx["used"]
    )


def answer_do(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """Perform the chosen action (with the Gunbai fan, ask for the flip first)."""
    seat = prompt.seat
    if kind == K_DONE:
        state.emit("actions_done", say("{side} ends the actions.", side=state.name_of(seat)))
        return
    act = dict(card_actions(state))[arg]
    state.ctx["used"].append(arg)
    state.emit(
        "action",
        say("{side} performs {action}.", side=state.name_of(seat), action=Word(act.name)),
        name=act.name,
    )
    lid = state.ctx["line"]
    tasks = [Task(Step.OP, spec=dict(spec), actor=seat, line=lid) for spec in act.effect]
    if "gunbai" in act.requires:
        cells = action_ready(state, seat, lid, act.requires)
        assert isinstance(cells, list)
        opts = [(K_OWN, i, f"gunbai {CELLS[i]}", CELLS[i]) for i in cells]
        state.ask(seat, Question.GUNBAI, N_("Gunbai fan: flip a Kumi in this line, then act"), opts,
                  act=arg)  # fmt: skip
    state.push(*tasks, turn.seat_step(Step.ACTIONS, seat))


def answer_gunbai(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """The Gunbai fan: flip the chosen Kumi of the line."""
    sonae.flip(state, prompt.seat, prompt.seat, arg)


def icons(
    state: SashimonoState, side: int, cells: tuple[int, ...], flip: int = -1
) -> tuple[dict[str, int], int]:
    """The face-up type icons and the Hidden Kumi of ``cells`` (as if ``flip`` were flipped)."""
    counts = {"T": 0, "K": 0, "N": 0}
    hidden = 0
    sc = state.sides[side].cells
    for i in cells:
        st = sc[i]
        if st is None:
            continue
        if i == flip:
            st = flipped(st)
        if is_up(st):
            for t in st[:-1]:
                counts[t] += 1
        else:
            hidden += 1
    return counts, hidden


def reqs_ok(
    state: SashimonoState, side: int, lid: int, requires: tuple[str, ...], flip: int = -1
) -> bool:
    """Whether the requirement icons ``requires`` hold in line ``lid`` of ``side``."""
    counts, hidden = icons(state, side, state.line_cells(side, lid), flip)
    return reqs_hold(counts, hidden, requires)


def reqs_hold(counts: dict[str, int], hidden: int, requires: tuple[str, ...]) -> bool:
    """Whether the requirement icons ``requires`` hold for a line with these face-up type
    icons (``counts``) and ``hidden`` Hidden Kumi (a Gunbai icon is no requirement here)."""
    for icon in requires:
        if icon == "gunbai":
            continue
        if icon == "hidden":
            if hidden < 1:
                return False
        elif icon == "pair":
            if max(counts.values()) < 2:
                return False
        elif icon == "TKN":
            if min(counts.values()) < 1:
                return False
        elif counts[icon[0]] < len(icon):
            return False
    return True


def action_ready(
    state: SashimonoState, side: int, lid: int, requires: tuple[str, ...]
) -> list[int] | bool:
    """True if performable now; with a Gunbai icon, the cells whose flip makes it so."""
    if "gunbai" in requires:
        return [
            i
            for i in state.line_cells(side, lid)
            if state.sides[side].cells[i] is not None and reqs_ok(state, side, lid, requires, i)
        ]
    return reqs_ok(state, side, lid, requires)
