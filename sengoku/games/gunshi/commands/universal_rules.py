"""Universal Command Rules: how any Command card resolves.

Rulebook, "Universal Command Rules" and Phase 3 "Units Follow Orders": a card resolves when
its turn comes, compulsorily (act when able, else nothing happens); a card with two Commands
offers a choice. This module maps each card to its module (``START``) and each kind of
command in progress to its decisions (``RULES``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, NamedTuple

from sengoku.games.gunshi.actions import A
from sengoku.games.gunshi.commands import (
    build_fence,
    chain_trap,
    crossbow_or_reorient,
    light_infantry,
    logistical_review,
    move,
    rapid_fire,
    rapid_move,
    reinforce,
    reinforce_en_route,
    reorient_or_shoot,
    scout,
    strategic_switch,
)
from sengoku.games.gunshi.commands.command import Command, CommandType, Step

if TYPE_CHECKING:
    from sengoku.games.gunshi.actions import GunshiAction
    from sengoku.games.gunshi.state import GunshiState


class Rules(NamedTuple):
    """A command's decisions: the legal actions of its step, and playing one."""

    legal: Callable[[GunshiState, Command], list[GunshiAction]]
    do: Callable[[GunshiState, Command, GunshiAction], None]


#: card code -> what resolving it starts (``cards.json`` names the cards).
START: Final[dict[str, Callable[[GunshiState], None]]] = {
    "M": move.start,
    "Re": reorient_or_shoot.start,
    "F": build_fence.start,
    "Rf": reinforce.start,
    "Rapid": rapid_move.start,
    "Review": logistical_review.start,
    "Crossbow": crossbow_or_reorient.start,
    "EnRoute": reinforce_en_route.start,
    "Light": light_infantry.start,
    "Scout": scout.start,
    "Fire": rapid_fire.start,
    "Switch": strategic_switch.start,
    "Trap": chain_trap.start,
}

_MOVE = Rules(move.legal, move.do)
_REORIENT = Rules(reorient_or_shoot.legal_reorient, reorient_or_shoot.do_reorient)
_SHOOT = Rules(reorient_or_shoot.legal_shoot, reorient_or_shoot.do_shoot)

#: command in progress -> its decisions.
RULES: Final[dict[CommandType, Rules]] = {
    CommandType.MOVE: _MOVE,
    CommandType.LIGHT: _MOVE,
    CommandType.RAPID: _MOVE,
    CommandType.REORIENT: _REORIENT,
    CommandType.SHOOT: _SHOOT,
    CommandType.CROSSBOW: _SHOOT,
    CommandType.FIRE: _SHOOT,
    CommandType.FENCE: Rules(build_fence.legal, build_fence.do),
    CommandType.REINFORCE: Rules(reinforce.legal, reinforce.do),
    CommandType.ENROUTE: Rules(reinforce_en_route.legal, reinforce.do),
    CommandType.LOOK: Rules(scout.legal_look, scout.do_look),
    CommandType.ASK: Rules(scout.legal_ask, scout.do_ask),
    CommandType.SWITCH: Rules(strategic_switch.legal, strategic_switch.do),
}


def start_card(st: GunshiState, code: str) -> None:
    """Begin resolving a card: set up its first decision, or resolve it outright."""
    START[code](st)


def set_mode(st: GunshiState, cmd: Command, mode: str) -> None:
    """The Command chosen on a card with two."""
    cmd.mode = mode
    if mode == "reorient":
        cmd.type = CommandType.REORIENT
        cmd.step = Step.UNIT
    elif mode in ("shoot", "crossbow"):
        cmd.type = CommandType(mode)
        cmd.step = Step.UNIT
        cmd.used = ()
    else:
        scout.choose(st, cmd, mode)


def legal(st: GunshiState, cmd: Command) -> list[GunshiAction]:
    if cmd.step is Step.MODE:
        return [A("mode", m) for m in cmd.modes or ()]
    if cmd.type is None:
        raise AssertionError(f"unknown command state {cmd}")
    return RULES[cmd.type].legal(st, cmd)


def do(st: GunshiState, cmd: Command, a: GunshiAction) -> None:
    if a.kind == "mode":
        set_mode(st, cmd, a.arg)
        return
    if cmd.type is not None:
        RULES[cmd.type].do(st, cmd, a)


def possible(st: GunshiState, cmd: Command) -> bool:
    """Whether the command has a legal action: ``bool(legal(...))``, stopping at the first
    unit able to move for the movement cards (the common case)."""
    if cmd.step is Step.UNIT and cmd.type in move.MOVEMENT:
        return bool(move.movable_units(st, cmd, st.player, first_only=True))
    return bool(legal(st, cmd))
