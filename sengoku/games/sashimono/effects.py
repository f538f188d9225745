"""The effects of the card language (``op`` in the card files): flip, draw, look, rearrange,
swap, return, discard, play Kumi, bury, peek, choose. Battle and training are in
:mod:`.battle` and :mod:`.training`; ``OPERATIONS`` in :mod:`.state` maps each op to its
rule."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import sengoku.games.sashimono.kagemusha as kagemusha
import sengoku.games.sashimono.sonae as sonae
import sengoku.games.sashimono.turn as turn
from sengoku.core.sentence import N_, Word, say
from sengoku.games.sashimono.cards import KUMI_NAMES
from sengoku.games.sashimono.decisions import (
    K_HAND,
    K_LINE,
    K_LOOK,
    K_OPTION,
    K_OWN,
    K_PERM,
    K_PSLOT,
    K_SHAND,
    Prompt,
    Question,
    Spec,
    Step,
    Task,
)
from sengoku.games.sashimono.pieces import (
    CELLS,
    EVERYONE,
    KAGE,
    LINE_NAMES,
    LINE_WORDS,
    LINES,
    PERMS,
    SLOT_SHORT,
    SLOTS,
    flipped,
    is_up,
    listed,
    seat_bit,
    stack_words,
    types_of,
)

if TYPE_CHECKING:
    from sengoku.games.sashimono.state import SashimonoState


@dataclass(slots=True)
class Look:
    """The cards a seat is looking at, taken off the top of a deck (the ``look`` operation
    here, and the looks of Setup and of the score turn): Kumi (their type letters) or
    Sashimono (card indices), and whose look it is (-1: nobody looks)."""

    # A class of its own, not a :class:`~sengoku.core.substate.Part`: this module is compiled
    # by mypyc, and a compiled class cannot subclass the core's Python class (nor use its
    # generated clone); the copy and the saved form are written out.

    cards: list[Any] = field(default_factory=list)
    owner: int = -1

    def clone(self) -> Look:
        return Look(self.cards[:], self.owner)

    def to_json(self) -> dict[str, Any]:
        return {"looking": self.cards[:], "looking_owner": self.owner}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Look:
        return Look(list(data["looking"]), int(data["looking_owner"]))


def skip(state: SashimonoState, actor: int, what: str) -> None:
    """Report that an effect has nothing to act on: ``what`` says why (marked ``N_``, a
    phrase the catalog translates)."""
    state.emit("no_effect", say("{side}: {why}.", side=state.name_of(actor), why=Word(what)))


def op_flip(state: SashimonoState, task: Task, spec: Spec) -> None:
    """Flip a Kumi (own or enemy, in or outside the line, by face)."""
    actor = task.actor
    side, cells = sonae.flip_targets(state, actor, spec, task.line)
    if not cells:
        skip(state, actor, N_("no Kumi to flip"))
        return
    state.ask(actor, Question.FLIP, N_("flip a Kumi"), sonae.cell_opts(state, actor, side, cells, "flip"),
              task=task, side=side)  # fmt: skip


def answer_flip(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """Flip the chosen Kumi; repeat while the count lasts."""
    sonae.flip(state, prompt.seat, prompt.side, arg)
    again(state, prompt.task)


def again(state: SashimonoState, task: Task) -> None:
    """Repeat an operation with a count, once fewer."""
    spec = task.spec
    if spec.get("count", 1) > 1:
        spec = dict(spec, count=spec["count"] - 1)
        state.push(replace(task, spec=spec))


def op_draw(state: SashimonoState, task: Task, spec: Spec) -> None:
    """Draw Kumi or Sashimono."""
    actor = task.actor
    n = spec["count"]
    if spec["what"] == "kumi":
        turn.draw_kumi(state, actor, n)
        return
    draw_sashimono(state, actor, n)


def draw_sashimono(state: SashimonoState, seat: int, n: int) -> None:
    """``seat`` draws ``n`` Sashimono (the Kagemusha adds them to its line)."""
    s = state.sides[seat]
    if seat == KAGE:
        for _ in range(n):
            if not kagemusha.draw_sashimono(state):
                return
        return
    got = s.sdeck[:n]
    s.sdeck = s.sdeck[n:]
    s.shand.extend(got)
    state.emit(
        "draw",
        say("{side} draws {count} Sashimono.", side=state.name_of(seat), count=len(got)),
        seat=seat,
    )
    if got:
        cards = listed([Word(state.card(c).name) for c in got])
        state.emit("draw", say("You draw {cards}.", cards=cards), [seat])


def op_look(state: SashimonoState, task: Task, spec: Spec) -> None:
    """Look at the top Kumi of your deck, keep some, the rest to the bottom."""
    actor = task.actor
    s = state.sides[actor]
    if actor == KAGE:
        turn.draw_kumi(state, actor, spec["keep"])
        return
    if not s.deck:
        skip(state, actor, N_("the Kumi deck is empty"))
        return
    state.look.cards = s.deck[: spec["count"]]
    s.deck = s.deck[spec["count"] :]
    state.look.owner = actor
    state.emit(
        "look",
        say(
            "{side} looks at the top {count} Kumi.",
            side=state.name_of(actor),
            count=len(state.look.cards),
        ),
    )
    cards = listed([Word(KUMI_NAMES[t]) for t in state.look.cards])
    state.emit(
        "look", say("You look at {cards}.", cards=cards), [actor], cards=list(state.look.cards)
    )
    ask_keep(state, actor, spec["keep"])


def ask_keep(state: SashimonoState, actor: int, keep: int) -> None:
    """Ask for one looked-at Kumi to keep."""
    opts = [(K_LOOK, i, f"keep L{i + 1}", f"L{i + 1}") for i in range(len(state.look.cards))]
    state.ask(actor, Question.KEEP, f"look and choose: keep {keep} to hand, the rest to the bottom",
              opts, keep=keep)  # fmt: skip


def answer_keep(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """Keep the chosen Kumi; after the last, the rest go to the bottom."""
    seat = prompt.seat
    s = state.sides[seat]
    s.hand.append(state.look.cards.pop(arg))
    state.emit("keep", say("{side} keeps a Kumi.", side=state.name_of(seat)))
    keep = prompt.keep - 1
    if keep > 0 and state.look.cards:
        ask_keep(state, seat, keep)
        return
    s.bottom("kumi", list(state.look.cards), seat_bit(seat))
    state.look.cards = []
    state.look.owner = -1


def op_rearrange(state: SashimonoState, task: Task, spec: Spec) -> None:
    """Rearrange a line (the played one, or any for Gyorin)."""
    actor = task.actor
    if actor == KAGE:
        return
    if spec["where"] == "line" and task.line is not None:
        ask_perm(state, actor, task.line)
        return
    opts = [(K_LINE, lid, f"rearrange {LINE_NAMES[lid]}", LINE_NAMES[lid]) for lid in range(6)]
    state.ask(
        actor, Question.REARRANGE, N_("Gyorin: choose one line of your Sonae to rearrange"), opts
    )


def answer_rearrange(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """The line chosen: ask for its new order."""
    ask_perm(state, prompt.seat, arg)


def ask_perm(state: SashimonoState, seat: int, lid: int) -> None:
    """Ask for the new order of line ``lid`` (one option per distinct result)."""
    cells = state.sides[seat].cells
    line = LINES[lid]
    seen: set[tuple[Any, ...]] = set()
    opts = []
    for k, perm in enumerate(PERMS):
        result = tuple(cells[line[p]] for p in perm)
        if result in seen:
            continue
        seen.add(result)
        order = "".join(CELLS[line[p]] for p in perm)
        opts.append((K_PERM, k, f"order {order}", order))
    state.ask(seat, Question.PERM, f"rearrange {LINE_NAMES[lid]}: the new order, by the old spaces",
              opts, line=lid)  # fmt: skip


def answer_perm(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """Rearrange the line, in front of everyone."""
    seat = prompt.seat
    cells = state.sides[seat].cells
    lid = prompt.line
    assert lid is not None
    line = LINES[lid]
    known = state.sides[seat].known
    old = [cells[i] for i in line]
    old_known = [known[i] for i in line]
    for j, p in enumerate(PERMS[arg]):
        cells[line[j]] = old[p]
        known[line[j]] = old_known[p]
    # the cards move on the table in front of everyone: the new order is public
    order = "".join(CELLS[line[p]] for p in PERMS[arg])
    moved = ", ".join(CELLS[line[p]] for p in PERMS[arg])
    state.emit("rearrange", say("{side} rearranges {line}: the Kumi from {cells} now stand in "
                                "that order.", side=state.name_of(seat),
                                line=Word(LINE_WORDS[lid]), cells=moved), seat=seat,
               line=LINE_NAMES[lid], order=order)  # fmt: skip


def op_swap(state: SashimonoState, task: Task, spec: Spec) -> None:
    """Swap two Kumi of your Sonae (adjacent ones, or any two)."""
    actor = task.actor
    if actor == KAGE:
        return
    firsts = [i for i in range(9) if swap_partners(state, actor, i, spec["adjacent"])]
    if not firsts:
        skip(state, actor, N_("no two Kumi to swap"))
        return
    opts = [(K_OWN, i, f"swap {CELLS[i]}", CELLS[i]) for i in firsts]
    state.ask(
        actor, Question.SWAP, N_("swap: choose the first Kumi"), opts, adjacent=spec["adjacent"]
    )


def swap_partners(state: SashimonoState, seat: int, i: int, adjacent: bool) -> list[int]:
    """The Kumi that Kumi ``i`` may swap with."""
    cells = state.sides[seat].cells
    if cells[i] is None:
        return []
    out = []
    for j in range(9):
        if j == i or cells[j] is None:
            continue
        if adjacent and abs(i // 3 - j // 3) + abs(i % 3 - j % 3) != 1:
            continue
        out.append(j)
    return out


def answer_swap(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """The first Kumi chosen: ask for the second."""
    seat = prompt.seat
    opts = [(K_OWN, j, f"with {CELLS[j]}", CELLS[j])
            for j in swap_partners(state, seat, arg, prompt.adjacent)]  # fmt: skip
    state.ask(seat, Question.SWAP_WITH, N_("swap: choose the second Kumi"), opts, first=arg)


def answer_swap_with(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """Swap the two Kumi."""
    seat = prompt.seat
    cells = state.sides[seat].cells
    i = prompt.first
    cells[i], cells[arg] = cells[arg], cells[i]
    known = state.sides[seat].known
    known[i], known[arg] = known[arg], known[i]
    state.emit("swap", say("{side} swaps {cell} and {other}.", side=state.name_of(seat),
                           cell=CELLS[i], other=CELLS[arg]), seat=seat,
               cells=[CELLS[i], CELLS[arg]])  # fmt: skip


def op_return(state: SashimonoState, task: Task, spec: Spec) -> None:
    """Return a Kumi (the whole stack) to its owner's hand."""
    actor = task.actor
    side, cells = sonae.flip_targets(state, actor, spec, task.line)
    if side == KAGE:
        skip(state, actor, N_("the Kagemusha's hand is its Kumi line"))
        return
    if not cells:
        skip(state, actor, N_("no Kumi to return"))
        return
    state.ask(actor, Question.RETURN_KUMI, N_("return a Kumi (the whole stack) to its owner's hand"),
              sonae.cell_opts(state, actor, side, cells, "return"), side=side)  # fmt: skip


def answer_return_kumi(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """The chosen stack goes back to its owner's hand."""
    side = prompt.side
    s = state.sides[side]
    st = s.cells[arg] or ""
    s.cells[arg] = None
    s.known[arg] = 0
    s.hand.extend(types_of(st))
    state.emit(
        "return",
        say(
            "{kumi} at {cell} returns to {side}'s hand.",
            kumi=stack_words(st, is_up(st)),
            cell=CELLS[arg],
            side=state.name_of(side),
        ),
        side=side,
        cell=CELLS[arg],
    )


def op_discard(state: SashimonoState, task: Task, spec: Spec) -> None:
    """Discard Kumi from hand (the Kagemusha: its leftmost Kumi)."""
    actor = task.actor
    side = actor if spec["side"] == "own" else state.enemy(actor)
    s = state.sides[side]
    if side == KAGE:
        if s.cells:
            st = s.cells.pop(0)  # the Kagemusha gives up its leftmost Kumi, for good
            s.discard.extend(types_of(st or ""))
            state.emit("discard", say("The Kagemusha discards {kumi}.", kumi=stack_words(st or "")))
        again(state, task)
        return
    if not s.hand:
        skip(state, side, N_("no Kumi in hand to discard"))
        return
    opts = [(K_HAND, i, f"discard h{i + 1}", f"h{i + 1}") for i in range(len(s.hand))]
    state.ask(side, Question.DISCARD, N_("discard a Kumi from your hand (to the bottom of your deck)"),
              opts, task=task)  # fmt: skip


def answer_discard(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """The chosen Kumi to the bottom of the deck; repeat while the count lasts."""
    seat = prompt.seat
    s = state.sides[seat]
    s.bottom("kumi", [s.hand.pop(arg)], seat_bit(seat))
    state.emit(
        "discard",
        say("{side} discards a Kumi to the bottom of the deck.", side=state.name_of(seat)),
    )
    again(state, prompt.task)


def op_play_kumi(state: SashimonoState, task: Task, spec: Spec) -> None:
    """Play Kumi from hand into empty spaces (at most ``count``)."""
    actor = task.actor
    if actor == KAGE:
        return
    state.push(Task(Step.PLACE, seat=actor, n=spec["count"]))


def op_bury(state: SashimonoState, task: Task, spec: Spec) -> None:
    """Put one of your Sashimono (hand or play) at the bottom of your deck."""
    actor = task.actor
    if actor == KAGE:
        return
    s = state.sides[actor]
    if spec.get("draw"):
        draw_sashimono(state, actor, 1)
    opts: list[tuple[int, int, str, str]] = []
    if spec["from"] in ("hand", "any"):
        opts += [(K_SHAND, i, f"bury h{i + 1}", f"h{i + 1}") for i in range(len(s.shand))]
    if spec["from"] in ("play", "any"):
        opts += [(K_PSLOT, p, f"bury {SLOTS[p]}", SLOT_SHORT[p])
                 for p in range(12) if s.slots[p] is not None]  # fmt: skip
    if not opts:
        skip(state, actor, N_("no Sashimono to put at the bottom"))
        return
    state.ask(actor, Question.BURY, N_("put one of your Sashimono (hand or play) at the bottom of your "
              "Sashimono deck"), opts)  # fmt: skip


def answer_bury(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """The chosen Sashimono to the bottom of the deck."""
    seat = prompt.seat
    s = state.sides[seat]
    if kind == K_SHAND:
        c = s.shand.pop(arg)
        mask = seat_bit(seat)
        state.emit(
            "bury",
            say("{side} puts a Sashimono from hand at the bottom.", side=state.name_of(seat)),
        )
    else:
        mask = EVERYONE
        c = s.slots[arg]  # type: ignore[assignment]
        s.slots[arg] = None
        s.bowed[arg] = False
        state.emit(
            "bury",
            say(
                "{side} puts {card} from play at the bottom.",
                side=state.name_of(seat),
                card=Word(state.card(c).name),
            ),
        )
    s.bottom("sas", [c], mask)


def op_peek(state: SashimonoState, task: Task, spec: Spec) -> None:
    """Peek at an enemy Hidden Kumi."""
    actor = task.actor
    foe = state.enemy(actor)
    cells = [i for i, st in enumerate(state.sides[foe].cells) if st is not None and not is_up(st)]
    if not cells or actor == KAGE:
        skip(state, actor, N_("no Hidden enemy Kumi to peek at"))
        return
    state.ask(actor, Question.PEEK, N_("peek at an enemy Hidden Kumi"),
              sonae.cell_opts(state, actor, foe, cells, "peek"), task=task, side=foe)  # fmt: skip


def answer_peek(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """The peeker learns the Kumi's types; repeat while the count lasts."""
    seat, side = prompt.seat, prompt.side
    st = state.sides[side].cells[arg] or ""
    if side != KAGE:
        state.sides[side].known[arg] |= seat_bit(seat)
    where = state.cell_name(side, arg)
    state.emit(
        "peek",
        say("{side} peeks at {kumi}.", side=state.name_of(seat), kumi=state.kumi_words(side, arg)),
    )
    state.emit("peek", say("It is {stack}.", stack=stack_words(flipped(st))), [seat], cell=where,
               types=types_of(st))  # fmt: skip
    again(state, prompt.task)


#: The labels of our card set's "choose" effects (cards/*.toml), game words the log's
#: sentences name ("West chooses draw."): listed here for the catalog. Another card set's
#: labels show as they are written.
CHOICE_LABELS = (N_("draw"), N_("flip"), N_("look"), N_("train"))


def op_choose(state: SashimonoState, task: Task, spec: Spec) -> None:
    """Choose one of several effects."""
    actor = task.actor
    opts = [(K_OPTION, i, f"choose {o['label']}", o["label"])
            for i, o in enumerate(spec["options"])]  # fmt: skip
    state.ask(actor, Question.CHOOSE, N_("choose one of the effects"), opts, task=task)


def answer_choose(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """Perform the chosen effects."""
    task = prompt.task
    option = task.spec["options"][arg]
    state.emit(
        "choose",
        say(
            "{side} chooses {effect}.",
            side=state.name_of(prompt.seat),
            effect=Word(option["label"]),
        ),
    )
    state.push(*[Task(Step.OP, spec=dict(spec), actor=task.actor, line=task.line)
                 for spec in option["effect"]])  # fmt: skip
