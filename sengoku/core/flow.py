"""The turn machine as data: a game's phases, and the one ``apply`` every game runs.

A game's turn is a table of **phases** (boardgame.io's phases and stages): for each phase
the rule that decides in it (its ``name``, shown in refusals), its legal actions (``legal``)
and how one of them is played (``do``, which returns the events it made). The phase a state
is in is read from the state (``phase_of``); a phase's ``do`` decides what comes next: it
sets the state's phase (the rule modules do, as the rulebook says when a phase ends) or ends
the game (:meth:`~sengoku.core.game.State._end_game`). The :class:`Flow` reads both back.

:meth:`Flow.apply` is the template of ``State.apply``, written once for every game:

1. a finished game refuses every action (:class:`~sengoku.core.game.IllegalAction`, with
   the state's own :meth:`~sengoku.core.game.State.why_illegal` reason, which names the end);
2. an illegal action is refused with ``why_illegal``'s reason, naming the rule, and changes
   nothing;
3. the decision is counted (``count``, before ``do``: the events it makes carry the count);
4. the phase's ``do`` plays it and returns its events;
5. the length guard (:meth:`~sengoku.core.game.State._end_if_too_long`) reads the count
   (``decisions``) and may end the game, adding its event.

A phase whose ``do`` judges legality itself on a fast path (a compiled core that checks the
move against the list it made) says so with ``judges=True``: the template then skips step
2, and ``do`` returns ``None`` to refuse, changing nothing; the refusal still carries
``why_illegal``'s reason. That keeps one legality check per move on the hot path.

A game whose questions come off a stack of pending steps
(:class:`~sengoku.core.decisions.DecisionStack`, Sashimono's machine) keys its phases by
its questions: the phase is the question asked now, and ``do`` answers it and runs the
stack to the next question.

>>> from dataclasses import dataclass
>>> from sengoku.core.game import event
>>> @dataclass
... class Count:  # a toy: say numbers up to 3, one at a time
...     said: int = 0
...     def is_terminal(self) -> bool:
...         return self.said >= 3
...     def why_illegal(self, action: int) -> str | None:
...         return None if action == self.said + 1 else f"say {self.said + 1}, not {action}"
...     def _end_if_too_long(self, decisions: int) -> list[dict[str, object]]:
...         return []
>>> def say(state: Count, n: int) -> list[dict[str, object]]:
...     state.said = n
...     return [event("said", n=n)]
>>> flow = Flow({"say": Phase("Counting", lambda s: [s.said + 1], say)},
...             phase_of=lambda s: "say", decisions=lambda s: s.said)
>>> flow.apply(Count(), 1)
[{'type': 'said', 'audience': None, 'n': 1}]

Nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, Protocol, TypeVar

from sengoku.core.game import Event, IllegalAction

S = TypeVar("S", bound="Flowing")
A = TypeVar("A")
K = TypeVar("K", bound=Hashable)


class Flowing(Protocol):
    """What :meth:`Flow.apply` asks of a state (every :class:`~sengoku.core.game.State`
    has it)."""

    def is_terminal(self) -> bool: ...

    def why_illegal(self, action: Any, /) -> str | None: ...

    def _end_if_too_long(self, decisions: int, /) -> list[Event]: ...


@dataclass(frozen=True, slots=True)
class Phase(Generic[S, A]):
    """One phase of a game's turn.

    ``name``: the rule that decides in it, in the rulebook's words. ``legal``: its legal
    actions (the state's ``legal_actions`` reads them). ``do``: play one legal action, in
    place; it returns the events it made and sets what comes next (the next phase, or the
    end of the game). ``judges``: ``do`` checks legality itself and returns ``None``, having
    changed nothing, to refuse (see the module's notes); otherwise ``do`` is only ever given
    a legal action and always returns its events.
    """

    name: str
    legal: Callable[[S], list[A]]
    do: Callable[[S, A], list[Event] | None]
    judges: bool = False


class Flow(Generic[S, K, A]):
    """A game's phases (``phases``: a phase key -> :class:`Phase`) and the ``apply``
    template that runs them.

    ``phase_of(state)``: the key of the phase the state is in. ``decisions(state)``: the
    count of decisions played, which the length guard reads after ``do``. ``count(state)``:
    counts the decision being played, called before ``do`` (``None``: ``do`` counts it
    itself, as a make/unmake that search also runs does). ``keys``: the enum of phase keys,
    if they are one: a table without a phase for each member fails here, where the game
    builds it, not in the middle of a game.
    """

    __slots__ = ("_phase_of", "apply", "phases")

    def __init__(
        self,
        phases: Mapping[K, Phase[S, A]],
        *,
        phase_of: Callable[[S], K],
        decisions: Callable[[S], int],
        count: Callable[[S], None] | None = None,
        keys: type[Enum] | None = None,
    ) -> None:
        if not phases:
            raise TypeError("a flow needs at least one phase")
        if count is not None and any(p.judges for p in phases.values()):
            # Counting before a judging ``do`` would change the state of a refused action.
            raise TypeError("a flow with a judging phase counts its decisions in its do")
        if keys is not None:
            missing = [k.name for k in keys if k not in phases]
            if missing:
                raise TypeError(f"no phase for {', '.join(missing)}")
        self.phases: Mapping[K, Phase[S, A]] = dict(phases)
        self._phase_of = phase_of
        #: ``apply(state, action) -> events``: play ``action`` in ``state`` (the template of
        #: every ``State.apply``; the module's notes give its steps). Raises
        #: :class:`IllegalAction`, having changed nothing, when the game is over or the
        #: action is not legal here. Built once for this table (a game of one judging phase,
        #: Gungi's, gets the template without a look-up or a branch it does not need: it is
        #: on the hot path of every search).
        self.apply: Callable[[S, A], list[Event]] = _template(
            self.phases, phase_of, decisions, count
        )

    def phase(self, state: S) -> Phase[S, A]:
        """The phase ``state`` is in."""
        return self.phases[self._phase_of(state)]

    def legal(self, state: S) -> list[A]:
        """The legal actions of the phase ``state`` is in (as the phase makes them; the
        state's ``legal_actions`` orders and caches them)."""
        return self.phases[self._phase_of(state)].legal(state)


def _over(state: Flowing, action: object) -> IllegalAction:
    """The refusal of any action once the game is over, in the state's own words."""
    return IllegalAction(state.why_illegal(action) or "the game is over: no action is legal")


def _template(
    phases: Mapping[K, Phase[S, A]],
    phase_of: Callable[[S], K],
    decisions: Callable[[S], int],
    count: Callable[[S], None] | None,
) -> Callable[[S, A], list[Event]]:
    """``Flow.apply`` for this table: the steps of the module's notes, written once."""
    if len(phases) == 1 and count is None:
        (only,) = phases.values()
        if only.judges:
            do = only.do

            def apply_judged(state: S, action: A) -> list[Event]:
                if state.is_terminal():
                    raise _over(state, action)
                events = do(state, action)
                if events is None:  # the phase's do refused it, having changed nothing
                    raise IllegalAction(state.why_illegal(action) or f"{action} is not legal")
                events += state._end_if_too_long(decisions(state))
                return events

            return apply_judged

    def apply(state: S, action: A) -> list[Event]:
        if state.is_terminal():
            raise _over(state, action)
        phase = phases[phase_of(state)]
        if not phase.judges:
            why = state.why_illegal(action)
            if why is not None:
                raise IllegalAction(why)
        if count is not None:
            count(state)
        events = phase.do(state, action)
        if events is None:  # a judging phase refused it, having changed nothing
            raise IllegalAction(state.why_illegal(action) or f"{action} is not legal here")
        events += state._end_if_too_long(decisions(state))
        return events

    return apply


def collecting(
    do: Callable[[S, A, list[Event]], object],
) -> Callable[[S, A], list[Event]]:
    """A phase's ``do`` from a rule that appends its events to a list it is given (the
    shape of many rule modules' functions)."""

    def run(state: S, action: A) -> list[Event]:
        events: list[Event] = []
        do(state, action, events)
        return events

    run.__name__ = getattr(do, "__name__", "run")
    run.__doc__ = do.__doc__
    return run


__all__ = ["Flow", "Flowing", "Phase", "collecting"]
