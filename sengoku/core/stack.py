"""The stack of pending steps of a turn machine (:mod:`sengoku.core.decisions` re-exports it
and describes the machine): compiled with mypyc, since Sashimono's turn pops and pushes it
several times a decision."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


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


__all__ = ["DecisionStack"]
