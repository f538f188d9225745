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

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Enum)
Opt = TypeVar("Opt")


class DecisionStack(Generic[T]):
    """The steps still to do, the next one on top.

    :meth:`push` schedules steps to run in the order given, before whatever was already
    waiting (so a step that expands into sub-steps pushes them and they run first).
    Iteration and :meth:`to_list` go from the bottom (last to run) to the top (next).
    """

    __slots__ = ("_items",)

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._items: list[T] = list(items)

    def push(self, *steps: T) -> None:
        """Schedule ``steps`` to run in the order given, before what was already waiting."""
        self._items.extend(reversed(steps))

    def pop(self) -> T:
        """Take the next step (``IndexError`` when none is left)."""
        return self._items.pop()

    def peek(self) -> T | None:
        """The next step, left in place; ``None`` when none is left."""
        return self._items[-1] if self._items else None

    def clear(self) -> None:
        self._items.clear()

    def copy(self) -> DecisionStack[T]:
        """A new stack of the same steps (the steps themselves are shared: keep them
        immutable)."""
        return DecisionStack(self._items)

    def to_list(self) -> list[T]:
        """The steps, bottom (last to run) first."""
        return list(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def __repr__(self) -> str:
        return f"DecisionStack({self._items!r})"


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
