"""The turn machine as data: a game's phases, when each ends and which comes next, and the
one ``apply`` every game runs.

A game's turn is a table of **phases** (boardgame.io's phases and stages): for each phase
the rule that decides in it (its ``name``, shown in refusals), its legal actions (``legal``),
how one of them is played (``do``, which returns the events it made), and, as data beside
them, when the phase is over (``end``, a predicate on the state: boardgame.io's ``endIf``)
and which phase follows (``next``: a phase key, or a function of the state where the
rulebook makes it depend on the position). A phase may say what happens as it begins
(``begin``: the steps with no decision that open it, boardgame.io's ``onBegin``; it
appends their events to the list it is given, the shape of the rule modules' steps). The
phase a state is in is read from the state (``phase_of``) and written by the flow
(``enter``) when a phase ends (the rules set it only where a game starts, is loaded or
ends). A game ends where its rules say (in a ``do``
or a ``begin``: :meth:`~sengoku.core.game.State._end_game`, or the rules' own function that
sets the result), and the flow then moves no further; a game whose end is a condition on
the position, asked after every decision, gives it to the flow (``ends``: boardgame.io's
game-level ``endIf``), which asks it after ``do`` and after every phase that begins.

:meth:`Flow.apply` is the template of ``State.apply``, written once for every game:

1. a finished game refuses every action (:class:`~sengoku.core.game.IllegalAction`, with
   the state's own :meth:`~sengoku.core.game.State.why_illegal` reason, which names the end);
2. an illegal action is refused with ``why_illegal``'s reason, naming the rule, and changes
   nothing;
3. the decision is counted (``count``, before ``do``: the events it makes carry the count);
4. the phase's ``do`` plays it and returns its events;
5. the game's end (``ends``), then, while the game goes on and the phase's ``end`` holds,
   the flow moves to its ``next`` and runs that phase's ``begin`` (whose events follow
   ``do``'s), and asks ``ends`` again: several phases may end in a row (a phase whose
   ``begin`` leaves nothing to decide ends at once), and a table that moves more than
   ``max_moves`` times in one action is a bug, refused loudly (:class:`FlowLoop`);
6. the length guard (:meth:`~sengoku.core.game.State._end_if_too_long`) reads the count
   (``decisions``) and may end the game, adding its event.

A phase without ``end`` never ends by the table: its ``do`` keeps the state in it (Gungi's
one phase, Gunshi's battle), or the state's own machine says which phase it is in next
(``phase_of``): a game whose questions come off a stack of pending steps
(:class:`~sengoku.core.decisions.DecisionStack`, Sashimono's machine) keys its phases by
its questions, and its ``next`` is the stack's: ``do`` answers the question asked now and
runs the stack to the next question, which ``phase_of`` reads from the top of the stack.

A phase whose ``do`` judges legality itself on a fast path (a compiled core that checks the
move against the list it made) says so with ``judges=True``: the template then skips step
2, and ``do`` returns ``None`` to refuse, changing nothing; the refusal still carries
``why_illegal``'s reason. That keeps one legality check per move on the hot path. A
game of one such phase whose ``do`` also keeps steps 1 and 6 itself (refusing every action
once the game is over, and running the length guard after the move it plays) says so with
``guards=True``: the template is then only the call and the refusal, with no call of the
state's before or after ``do`` (the contract's ply of a compiled core is mostly the Python
around it). That template (and the protocol of what a flow asks of a state) is in
:mod:`sengoku.core.flowing`, plain Python beside this compiled module: a game that makes it
its ``apply`` calls it as a method every ply, which a Python function does faster.

>>> from dataclasses import dataclass
>>> from sengoku.core.game import event
>>> @dataclass
... class Count:  # a toy: say numbers up to 3, one at a time, then sing once
...     said: int = 0
...     stage: str = "say"
...     def is_terminal(self) -> bool:
...         return self.stage == "over"
...     def why_illegal(self, action: object) -> str | None:
...         return None if action in FLOW.legal(self) else f"not {action} now"
...     def _end_if_too_long(self, decisions: int) -> list[dict[str, object]]:
...         return []
>>> def say(state: Count, n: int) -> list[dict[str, object]]:
...     state.said = n
...     return [event("said", n=n)]
>>> def sing(state: Count, song: str) -> list[dict[str, object]]:
...     state.stage = "over"
...     return [event("sung", song=song)]
>>> FLOW = Flow(
...     {
...         "say": Phase("Counting", lambda s: [s.said + 1], say,
...                      end=lambda s: s.said == 3, next="sing"),
...         "sing": Phase("Singing", lambda s: ["la"], sing,
...                       begin=lambda s, said: said.append(event("stage", now="sing"))),
...     },
...     phase_of=lambda s: s.stage, decisions=lambda s: s.said,
...     enter=lambda s, key: setattr(s, "stage", key),
... )
>>> state = Count()
>>> FLOW.apply(state, 1)
[{'type': 'said', 'audience': None, 'n': 1}]
>>> FLOW.apply(state, 2), FLOW.apply(state, 3)[1:]  # the third ends "say": "sing" begins
([{'type': 'said', 'audience': None, 'n': 2}], [{'type': 'stage', 'audience': None, 'now': 'sing'}])
>>> FLOW.legal(state)
['la']

Nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

from mypy_extensions import mypyc_attr

from sengoku.core.events import Event
from sengoku.core.flowing import Flowing, judged, over
from sengoku.core.game import IllegalAction

S = TypeVar("S", bound=Flowing)
A = TypeVar("A")
K = TypeVar("K", bound=Hashable)


# Compiled with mypyc (docs/architecture.md, "The core compiled"): a native class cannot
# subclass RuntimeError, so the error stays a Python class.
@mypyc_attr(native_class=False)
class FlowLoop(RuntimeError):
    """A flow's table moved from phase to phase more than ``max_moves`` times in one action
    without a decision: a bug in the table (an ``end`` that holds as its ``next`` begins),
    never a player's fault."""


# A Python class in the compiled module: mypyc 2.4 cannot make a generic dataclass native
# (``AttributeError: attribute '__dict__' of 'type' objects is not writable`` at import).
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Phase(Generic[S, A]):
    """One phase of a game's turn.

    ``name``: the rule that decides in it, in the rulebook's words. ``legal``: its legal
    actions (the state's ``legal_actions`` reads them). ``do``: play one legal action, in
    place; it returns the events it made. ``judges``: ``do`` checks legality itself and
    returns ``None``, having changed nothing, to refuse (see the module's notes); otherwise
    ``do`` is only ever given a legal action and always returns its events.

    ``end``: whether the phase is over, asked after ``do`` and after the phase begins
    (``None``: the table never ends it); a read of the state, which may be asked once the
    game is over (the answer is then ignored). ``next``: the phase that follows it, a key of the
    table or a function of the state that returns one (needed with ``end``). ``begin``:
    the steps with no decision that open the phase, run when the flow moves to it; it
    appends their events to the list it is given (the action's, after ``do``'s).

    ``guards`` (with ``judges``): ``do`` also returns ``None`` for every action once the
    game is over, and ends a game that reaches the length limit itself
    (:meth:`~sengoku.core.game.State._end_if_too_long`, its event last); a flow of this one
    phase then asks the state nothing around ``do`` but the refusal's reason. (A flow of
    several phases runs its steps as ever: asking them twice changes nothing.)
    """

    name: str
    legal: Callable[[S], list[A]]
    do: Callable[[S, A], list[Event] | None]
    judges: bool = False
    end: Callable[[S], bool] | None = None
    next: Hashable | Callable[[S], Hashable] | None = None
    begin: Callable[[S, list[Event]], object] | None = None
    guards: bool = False


class Flow(Generic[S, K, A]):
    """A game's phases (``phases``: a phase key -> :class:`Phase`) and the ``apply``
    template that runs them.

    ``phase_of(state)``: the key of the phase the state is in. ``decisions(state)``: the
    count of decisions played, which the length guard reads after ``do``. ``count(state)``:
    counts the decision being played, called before ``do`` (``None``: ``do`` counts it
    itself, as a make/unmake that search also runs does). ``keys``: the enum of phase keys,
    if they are one: a table without a phase for each member fails here, where the game
    builds it, not in the middle of a game. ``enter(state, key)``: puts the state in phase
    ``key`` (needed when a phase has an ``end``). ``ends(state)``: the game's own end, asked
    after ``do`` and after each phase that begins while the game goes on; it ends the game
    through the rules' function that sets the result and returns its events (none: the game
    goes on). ``max_moves``: the most phases that may end in one action (default: as many
    as the table has) before :class:`FlowLoop`.
    """

    __slots__ = ("_phase_of", "apply", "enter", "phases")

    def __init__(
        self,
        phases: Mapping[K, Phase[S, A]],
        *,
        phase_of: Callable[[S], K],
        decisions: Callable[[S], int],
        count: Callable[[S], None] | None = None,
        keys: type[Enum] | None = None,
        enter: Callable[[S, K], None] | None = None,
        ends: Callable[[S], list[Event]] | None = None,
        max_moves: int | None = None,
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
        for key, phase in phases.items():
            if phase.guards and not phase.judges:
                # A do that refuses (a finished game's actions) returns None: a judging do.
                raise TypeError(f"phase {key!r} guards but does not judge")
            # A table that cannot say where it goes fails here, not in the middle of a game.
            if phase.end is not None:
                if phase.next is None:
                    raise TypeError(f"phase {key!r} has an end but no next")
                if enter is None:
                    raise TypeError(f"phase {key!r} ends: the flow needs enter= to move on")
            if phase.next is not None and not callable(phase.next) and phase.next not in phases:
                raise TypeError(f"phase {key!r}: next {phase.next!r} is not a phase")
        self.phases: Mapping[K, Phase[S, A]] = dict(phases)
        self._phase_of = phase_of
        moves = len(self.phases) if max_moves is None else max_moves
        #: ``enter(state, key) -> events``: put ``state`` in phase ``key`` and run its
        #: ``begin`` (what setup and the template do when a phase starts).
        self.enter: Callable[[S, K], list[Event]] = _entering(self.phases, enter)
        #: ``apply(state, action) -> events``: play ``action`` in ``state`` (the template of
        #: every ``State.apply``; the module's notes give its steps). Raises
        #: :class:`IllegalAction`, having changed nothing, when the game is over or the
        #: action is not legal here. Built once for this table (a game of one judging phase,
        #: Gungi's, gets the template without a look-up or a branch it does not need: it is
        #: on the hot path of every search).
        self.apply: Callable[[S, A], list[Event]] = _template(
            self.phases, phase_of, decisions, count, enter, ends, moves
        )

    def phase(self, state: S) -> Phase[S, A]:
        """The phase ``state`` is in."""
        return self.phases[self._phase_of(state)]

    def legal(self, state: S) -> list[A]:
        """The legal actions of the phase ``state`` is in (as the phase makes them; the
        state's ``legal_actions`` orders and caches them)."""
        return self.phases[self._phase_of(state)].legal(state)


def _entering(
    phases: Mapping[K, Phase[S, A]], put: Callable[[S, K], None] | None
) -> Callable[[S, K], list[Event]]:
    """``Flow.enter`` for this table."""

    def enter(state: S, key: K) -> list[Event]:
        if put is None:
            raise TypeError("this flow cannot move between phases: it has no enter=")
        put(state, key)
        events: list[Event] = []
        begin = phases[key].begin
        if begin is not None:
            begin(state, events)
        return events

    return enter


def _template(
    phases: Mapping[K, Phase[S, A]],
    phase_of: Callable[[S], K],
    decisions: Callable[[S], int],
    count: Callable[[S], None] | None,
    put: Callable[[S, K], None] | None,
    ends: Callable[[S], list[Event]] | None,
    max_moves: int,
) -> Callable[[S, A], list[Event]]:
    """``Flow.apply`` for this table: the steps of the module's notes, written once."""
    if len(phases) == 1 and count is None and ends is None:
        (only,) = phases.values()
        if only.judges and only.end is None:
            return judged(only.do, decisions, only.guards)

    def apply(state: S, action: A) -> list[Event]:
        if state.is_terminal():
            raise over(state, action)
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
        if ends is not None and not state.is_terminal():
            events += ends(state)
        moves = 0
        end = phase.end
        # The phase's end first: most decisions end no phase (one call, no more). A table
        # with an end has a put (checked where the flow is built).
        while end is not None and end(state) and not state.is_terminal():
            moves += 1
            if moves > max_moves:
                raise FlowLoop(
                    f"the phases moved {max_moves} times in one action without a decision "
                    f"(now in {phase.name!r}): the flow's ends and nexts make a loop"
                )
            after = phase.next
            key: K = after(state) if callable(after) else after  # type: ignore[assignment]
            put(state, key)  # type: ignore[misc]
            phase = phases[key]
            begin = phase.begin
            if begin is not None:
                begin(state, events)  # its events follow do's
            if ends is not None and not state.is_terminal():
                events += ends(state)
            end = phase.end
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


__all__ = ["Flow", "FlowLoop", "Flowing", "Phase", "collecting"]
