"""A typed home for a turn machine: a stack of pending steps, one question at a time.

Several games run their turn the same way: what is still to do is a **stack of steps**
(take a turn, resolve a battle, apply one effect of a card...), and a step either happens
at once or asks one seat one **question** (a :class:`Pending`: who decides, which question,
the rule that asks it, the options). The answer is applied, and the machine runs on until
the next question or the end of the game.

This module gives that shape types, so that a game declares its steps and questions as
data (enums and records) and dispatches them through explicit tables that a type checker
reads, instead of looking methods up by name:

>>> from enum import Enum
>>> class Step(Enum):
...     DRAW = "draw"
...     PLAY = "play"
>>> stack: DecisionStack[Step] = DecisionStack()
>>> stack.push(Step.DRAW, Step.PLAY)  # run in the order given
>>> stack.pop()
<Step.DRAW: 'draw'>
>>> handlers = {Step.DRAW: len, Step.PLAY: len}
>>> check_table(handlers, Step, "steps")

Nothing here names a game. A game whose turn reads better another way need not use it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, TypeVar

# Compiled (mypyc) in a module of its own: Sashimono pops and pushes it several times a
# decision; Pending, a generic dataclass each game subclasses, stays Python here.
from sengoku.core.stack import DecisionStack as DecisionStack

K = TypeVar("K", bound=Enum)
Opt = TypeVar("Opt")


@dataclass(frozen=True)
class Pending(Generic[K, Opt]):
    """One question asked of one seat: the seat that decides, which question (``kind``, a
    member of the game's enum of questions), the rule that asks it (shown to players and in
    an illegal action's message), and the options, in the order they are offered.

    A game subclasses it to add what its answers need to remember."""

    seat: int
    kind: K
    rule: str
    options: tuple[Opt, ...]


def check_table(table: Mapping[K, Callable[..., Any]], kinds: type[K], what: str) -> None:
    """Raise ``TypeError`` unless ``table`` has a handler for every member of ``kinds``
    (call it where the table is built: a dispatch table with a hole fails at import, not in
    the middle of a game)."""
    missing = [k.name for k in kinds if k not in table]
    if missing:
        raise TypeError(f"no handler for the {what} {', '.join(missing)}")


__all__ = ["DecisionStack", "Pending", "check_table"]
