"""Rapid Fire (Sanryaku): one Archer shoots twice (its second shot only if it still has a
target); never chained. The shooting steps are Shoot's (``commands/reorient_or_shoot.py``).

Rulebook, "Advanced Card Effects and Clarifications".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.core.sentence import N_
from sengoku.games.gunshi.commands.command import (
    Command,
    CommandType,
    Step,
    done,
    need,
    open_command,
)

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState

SHOTS = 2


def start(st: GunshiState) -> None:
    open_command(
        st,
        Command("Fire", type=CommandType.FIRE, step=Step.UNIT, shots=0),
        N_("no Archer has a target"),
    )


def after_shot(st: GunshiState, cmd: Command, has_target: bool) -> None:
    """A shot is taken: the command ends after the second, or when no target is left."""
    cmd.shots = need(cmd.shots) + 1
    if cmd.shots >= SHOTS or not has_target:
        done(st)
