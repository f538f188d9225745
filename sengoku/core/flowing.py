"""What the turn machine (:mod:`sengoku.core.flow`) asks of a state, and its ``apply`` for a
table of one judging phase (Gungi's), kept as plain Python.

:mod:`sengoku.core.flow` is compiled with mypyc (docs/architecture.md, "The core compiled");
this module is not, on purpose. A game that takes the template as its ``apply`` (Gungi's
``GungiState.apply = FLOW.apply``, a class attribute) calls it as a method on every ply: a
Python function binds without a bound-method object and runs in the interpreter's own frame,
while a compiled closure is bound and called through C, which made Gungi's ply (a C++ core
behind a template of four lines) 3-4% slower (``benchmarks/interop.py --games gungi``). The
template is the one of the flow's notes (steps 1, 2, 4 and 6 of :mod:`sengoku.core.flow`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from sengoku.core.events import Event
from sengoku.core.game import IllegalAction

S = TypeVar("S", bound="Flowing")
A = TypeVar("A")


class Flowing(Protocol):
    """What :meth:`~sengoku.core.flow.Flow.apply` asks of a state (every
    :class:`~sengoku.core.game.State` has it)."""

    def is_terminal(self) -> bool: ...

    def why_illegal(self, action: Any, /) -> str | None: ...

    def _end_if_too_long(self, decisions: int, /) -> list[Event]: ...


def over(state: Flowing, action: object) -> IllegalAction:
    """The refusal of any action once the game is over, in the state's own words."""
    return IllegalAction(state.why_illegal(action) or "the game is over: no action is legal")


def judged(
    do: Callable[[S, A], list[Event] | None], decisions: Callable[[S], int], guards: bool
) -> Callable[[S, A], list[Event]]:
    """``Flow.apply`` for a table of one judging phase with no end (Gungi's): without a
    look-up or a branch it does not need, as it is on the hot path of every search."""
    if guards:

        def apply_guarded(state: S, action: A) -> list[Event]:
            events = do(state, action)  # refuses a finished game's actions too
            if events is None:
                if state.is_terminal():
                    raise over(state, action)
                raise IllegalAction(state.why_illegal(action) or f"{action} is not legal")
            return events

        return apply_guarded

    def apply_judged(state: S, action: A) -> list[Event]:
        if state.is_terminal():
            raise over(state, action)
        events = do(state, action)
        if events is None:  # the phase's do refused it, having changed nothing
            raise IllegalAction(state.why_illegal(action) or f"{action} is not legal")
        events += state._end_if_too_long(decisions(state))
        return events

    return apply_judged


__all__ = ["Flowing", "judged", "over"]
