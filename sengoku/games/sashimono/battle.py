"""Battle: the attacker chooses an enemy line, both ante, attack against defence (the
attacker wins ties), the casualty, the antes to the bottom; and the ongoing effects that a
battle triggers (a casualty, a battle won)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.sashimono.sonae as sonae
from sengoku.core.sentence import N_, Word, say
from sengoku.games.sashimono.decisions import (
    K_DONE,
    K_HAND,
    K_LINE,
    K_OWN,
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
    SLOT_LINE,
    attack_of,
    defence_of,
    is_up,
    seat_bit,
    stack_words,
    types_of,
)

if TYPE_CHECKING:
    from sengoku.games.sashimono.state import SashimonoState


def op_battle(state: SashimonoState, task: Task, spec: Spec) -> None:
    """The battle effect: the attacker chooses the enemy line (Choose Line)."""
    actor = task.actor
    foe = state.enemy(actor)
    lines = list(state.lines_of(foe))
    if foe != KAGE:
        if spec["axis"] == "row":
            lines = [lid for lid in lines if lid < 3]
        elif spec["axis"] == "column":
            lines = [lid for lid in lines if lid >= 3]
    opts = [(K_LINE, lid, f"battle {LINE_NAMES[lid]}", LINE_NAMES[lid]) for lid in lines]
    state.ask(actor, Question.BATTLE, N_("battle: choose the enemy line to attack"), opts,
              task=task)  # fmt: skip


def answer_battle(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """The line chosen: the battle starts from the line of the played card."""
    actor = prompt.seat
    task = prompt.task
    spec = task.spec
    aline = task.line if task.line is not None else 6
    start_battle(state, actor, aline, arg, spec.get("attack", 0), spec.get("defender_ante", True))


def start_battle(
    state: SashimonoState, att: int, aline: int, dline: int, bonus: int, dante: bool
) -> None:
    """Start a battle: both antes, then the result."""
    dfn = state.enemy(att)
    state.battle = {"att": att, "dfn": dfn, "aline": aline, "dline": dline, "bonus": bonus,
                   "dante": dante, "ante": {str(att): [], str(dfn): []}}  # fmt: skip
    state.emit("battle", say("{attacker} attacks {defender}'s {line} from {from_line}.",
                             attacker=state.name_of(att), defender=state.name_of(dfn),
                             line=Word(LINE_WORDS[dline]), from_line=Word(LINE_WORDS[aline])),
               attacker=att, defender=dfn,
               attack_line=LINE_NAMES[aline], defence_line=LINE_NAMES[dline])  # fmt: skip
    state.push(Task(Step.ANTE, seat=att), Task(Step.ANTE, seat=dfn), Task(Step.RESOLVE))


def step_ante(state: SashimonoState, task: Task) -> None:
    """Attacker / Defender Ante: reveal Hidden Kumi of the line, add Kumi from hand."""
    seat = task.seat
    b = state.battle
    assert b is not None
    if seat == KAGE:
        return  # the Kagemusha makes no ante (it declines every option)
    lid = b["aline"] if seat == b["att"] else b["dline"]
    s = state.sides[seat]
    hidden = [i for i in state.line_cells(seat, lid) if s.cells[i] is not None
              and not is_up(s.cells[i] or "")]  # fmt: skip
    opts = [(K_OWN, i, f"reveal {CELLS[i]}", CELLS[i]) for i in hidden]
    if seat == b["att"] or b["dante"]:
        opts += [(K_HAND, i, f"ante h{i + 1}", f"h{i + 1}") for i in range(len(s.hand))]
    if not opts:
        return
    opts.append((K_DONE, 0, "ante done", "done"))
    role = "attacker" if seat == b["att"] else "defender"
    state.ask(seat, Question.ANTE, f"{role}'s ante: flip Hidden Kumi of your line face up, add Kumi "
              "from hand face down (+1 each), then done", opts)  # fmt: skip


def answer_ante(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """One ante (a reveal, or a card from hand); ask again until ``done``."""
    seat = prompt.seat
    b = state.battle
    assert b is not None
    if kind == K_DONE:
        return
    if kind == K_OWN:
        sonae.flip(state, seat, seat, arg)
    else:
        card = state.sides[seat].hand.pop(arg)
        b["ante"][str(seat)].append(card)
        state.emit(
            "ante", say("{side} adds a Kumi from hand to the battle.", side=state.name_of(seat))
        )
    state.push(Task(Step.ANTE, seat=seat))


def modifier(state: SashimonoState, side: int, stat: str, lid: int) -> int:
    """The ongoing attack or defence modifiers of ``side``'s Sashimono for line ``lid``."""
    if side == KAGE:
        if not state.options["challenge_abilities"]:
            return 0
        cards = state.sides[KAGE].sline
        return sum(
            state.card(c).ongoing["amount"]  # type: ignore[index]
            for c in cards
            if (state.card(c).ongoing or {}).get("modifier") == stat
        )
    total = 0
    for p, c in enumerate(state.sides[side].slots):
        if c is None:
            continue
        ong = state.card(c).ongoing
        if ong and ong.get("modifier") == stat and (ong["scope"] == "sonae" or SLOT_LINE[p] == lid):
            total += ong["amount"]
    return total


def battle_power(state: SashimonoState) -> tuple[int, int]:
    """(attack, defence) of the battle under way."""
    b = state.battle
    assert b is not None
    att, dfn = b["att"], b["dfn"]
    a_cells, d_cells = state.sides[att].cells, state.sides[dfn].cells
    attack = sum(attack_of(a_cells[i] or "") for i in state.line_cells(att, b["aline"])
                 if a_cells[i] is not None)  # fmt: skip
    defence = sum(defence_of(d_cells[i] or "") for i in state.line_cells(dfn, b["dline"])
                  if d_cells[i] is not None)  # fmt: skip
    attack += len(b["ante"][str(att)]) + b["bonus"] + modifier(state, att, "attack", b["aline"])
    defence += len(b["ante"][str(dfn)]) + modifier(state, dfn, "defence", b["dline"])
    return attack, defence


def step_resolve(state: SashimonoState, task: Task) -> None:
    """Compare Power, then Results: the casualty's chooser picks it."""
    b = state.battle
    assert b is not None
    attack, defence = battle_power(state)
    att, dfn = b["att"], b["dfn"]
    # the attacker wins ties
    winner, loser = (att, dfn) if attack >= defence else (dfn, att)
    margin = abs(attack - defence)
    b["winner"], b["loser"], b["margin"] = winner, loser, margin
    b["attack"], b["defence"] = attack, defence
    state.emit("battle_result", say("Attack {attack}, defence {defence}: {winner} wins by {margin}.",
                                    attack=attack, defence=defence, winner=state.name_of(winner),
                                    margin=margin), attack=attack, defence=defence, winner=winner,
               loser=loser, margin=margin)  # fmt: skip
    lose_line = b["dline"] if loser == dfn else b["aline"]
    cells = [
        i for i in state.line_cells(loser, lose_line) if state.sides[loser].cells[i] is not None
    ]
    state.push(Task(Step.BATTLE_END))
    if not cells:
        state.emit(
            "casualty", say("{side}'s line is empty: no casualty.", side=state.name_of(loser))
        )
        return
    # beaten by 0 or 1: the loser chooses; by 2 or more: the winner chooses
    chooser = loser if margin <= 1 else winner
    state.ask(chooser, Question.CASUALTY, f"choose a casualty in {state.name_of(loser)}'s losing line",
              sonae.cell_opts(state, chooser, loser, cells, "casualty"), side=loser)  # fmt: skip


def answer_casualty(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """The casualty goes to the bottom of its owner's deck; ongoing triggers."""
    side = prompt.side
    s = state.sides[side]
    st = s.cells[arg]
    assert st is not None
    where = state.cell_name(side, arg)
    if side == KAGE:
        s.cells.pop(arg)
        s.discard.extend(types_of(st))
        state.emit(
            "casualty",
            say(
                "The Kagemusha loses {kumi} (its Kumi number {number}), discarded for good.",
                kumi=stack_words(st),
                number=arg + 1,
            ),
            side=side,
            cell=where,
        )
    else:
        # the casualty goes face down to the bottom: known to whoever knew its types
        mask = EVERYONE if is_up(st) else s.known[arg] | seat_bit(side)
        s.cells[arg] = None
        s.known[arg] = 0
        s.bottom("kumi", list(types_of(st)), mask)
        state.emit(
            "casualty",
            say(
                "{side} loses {kumi} (at {cell}) to the bottom of the Kumi deck.",
                side=state.name_of(side),
                kumi=stack_words(st, is_up(st)),
                cell=where,
            ),
            side=side,
            cell=where,
        )
    for c in ongoing_cards(state, side, "casualty"):
        trigger(state, side, c)


def ongoing_cards(state: SashimonoState, side: int, trigger: str) -> list[tuple[int, int | None]]:
    """``side``'s Sashimono with an ongoing effect on ``trigger`` (and their lines)."""
    if side == KAGE:
        if not state.options["challenge_abilities"]:
            return []
        pairs: list[tuple[int, int | None]] = [(c, None) for c in state.sides[KAGE].sline]
    else:
        pairs = [(c, SLOT_LINE[p]) for p, c in enumerate(state.sides[side].slots) if c is not None]
    return [pc for pc in pairs if (state.card(pc[0]).ongoing or {}).get("trigger") == trigger]


def trigger(state: SashimonoState, side: int, pc: tuple[int, int | None]) -> None:
    """Schedule the ongoing effect of a card."""
    card = state.card(pc[0])
    assert card.ongoing is not None
    state.emit(
        "trigger",
        say("{card}'s ongoing effect ({side}).", card=Word(card.name), side=state.name_of(side)),
        card=card.id,
    )
    state.push(*[Task(Step.OP, spec=dict(spec), actor=side, line=pc[1])
                 for spec in card.ongoing["effect"]])  # fmt: skip


def step_battle_end(state: SashimonoState, task: Task) -> None:
    """The antes go to the bottom of their decks; battle-won triggers."""
    b = state.battle
    assert b is not None
    for key, cards in b["ante"].items():
        seat = int(key)
        if cards:
            state.sides[seat].bottom("kumi", list(cards), seat_bit(seat))
            state.emit(
                "ante_back",
                say(
                    "{side}'s ante of {count} Kumi goes to the bottom of the Kumi deck.",
                    side=state.name_of(seat),
                    count=len(cards),
                ),
            )
    winner = b["winner"]
    state.battle = None
    for pc in ongoing_cards(state, winner, "battle_won"):
        trigger(state, winner, pc)
