"""The flow engine (sengoku/core/flow.py): phases as data and the one ``apply`` template.

A small two-phase game written on the flow (a seat calls a number, then says "done") checks
the template's steps: a finished game refuses, an illegal action is refused with
``why_illegal``'s reason and changes nothing, the decision is counted before ``do`` (its
events carry the count), the events come back, and the length guard ends the game. Then the
four games: each one's ``apply`` runs its flow, and Gunshi's no longer parses text. A toy
race run by its table alone checks when a phase ends and which follows (``end``, ``next``,
``begin``): a move to the named phase, a ``next`` chosen from the state, several phases
ending in one action, the game's end stopping the moves, and the loop guard. That the four
games play exactly as before their turns moved into their tables is held by
``test_flow_fingerprints.py``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from enum import Enum
from operator import attrgetter
from typing import Any, ClassVar

import pytest

from sengoku.core.flow import Flow, FlowLoop, Phase
from sengoku.core.game import (
    TERMINAL,
    Event,
    Game,
    IllegalAction,
    Option,
    Outcome,
    State,
    event,
)
from sengoku.core.game_type import GameType
from sengoku.core.registry import load_game


class Step(Enum):
    CALL = "call"
    DONE = "done"


class Caller(Game):
    """Call 1, 2 or 3, then say "done"; the seat that brings the shared total to 6 wins."""

    game_type = GameType(
        name="caller", title="Caller (test game)", version=1, min_players=2, max_players=2
    )
    options: ClassVar[Mapping[str, Option]] = {
        "limit": Option("limit", 50, range(1, 100), "decisions before length_limit"),
    }

    def new_state(self, seed: int = 0, **options: Any) -> CallerState:
        return CallerState(self, self.resolve_options(**options))

    def num_distinct_actions(self, **options: Any) -> int:
        return 4

    def action_to_int(self, state: State, action: Any) -> int:
        return 0 if action == "done" else int(action)

    def int_to_action(self, state: State, n: int) -> Any:
        return "done" if n == 0 else n

    def max_game_length(self, **options: Any) -> int:
        return int(self.resolve_options(**options)["limit"])

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        raise NotImplementedError


class CallerState(State[Any]):
    def __init__(self, game: Caller, options: dict[str, Any]) -> None:
        self.game = game
        self.options = options
        self.num_players = 2
        self.step = Step.CALL
        self.seat = 0
        self.total = 0
        self.decisions = 0
        self.result: Outcome | None = None
        self.done_calls = 0  # how often a phase's do ran (a refusal must not run it)

    @property
    def current_player(self) -> int:
        return TERMINAL if self.result else self.seat

    def legal_actions(self) -> list[Any]:
        return [] if self.result else FLOW.legal(self)

    def why_illegal(self, action: Any) -> str | None:
        if self.result is not None:
            return f"caller: the game is over ({self.result.reason})"
        if action in FLOW.phase(self).legal(self):
            return None
        return f"caller: {action!r} is not allowed in {FLOW.phase(self).name}"

    def apply(self, action: Any) -> list[Event]:
        return FLOW.apply(self, action)

    def _end_game(self, result: Outcome) -> None:
        self.result = result

    def clone(self) -> CallerState:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"total": self.total, "step": self.step.value, "decisions": self.decisions}

    def determinize(self, seat: int, rng: random.Random) -> CallerState:
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        return self.view(None)


def _call(state: CallerState, n: int) -> list[Event]:
    state.done_calls += 1
    state.total += n
    state.step = Step.DONE
    # The decision was counted before ``do``: the event carries this decision's number.
    return [event("call", seat=state.seat, n=n, ply=state.decisions)]


def _done(state: CallerState, action: str) -> list[Event]:
    state.done_calls += 1
    events = [event("done", seat=state.seat, ply=state.decisions)]
    if state.total >= 6:
        state._end_game(Outcome.win(state.seat, 2, "six"))
    state.seat = 1 - state.seat
    state.step = Step.CALL
    return events


def _count(state: CallerState) -> None:
    state.decisions += 1


FLOW: Flow[CallerState, Step, Any] = Flow(
    {
        Step.CALL: Phase("the call of 1, 2 or 3", lambda s: [1, 2, 3], _call),
        Step.DONE: Phase('the word "done"', lambda s: ["done"], _done),
    },
    phase_of=attrgetter("step"),
    decisions=attrgetter("decisions"),
    count=_count,
    keys=Step,
)


def test_events_come_back_counted_and_the_phases_run_as_data() -> None:
    state = Caller().new_state()
    assert state.legal_actions() == [1, 2, 3]
    assert state.apply(2) == [{"type": "call", "audience": None, "seat": 0, "n": 2, "ply": 1}]
    assert state.legal_actions() == ["done"]  # the call phase's do moved on to "done"
    assert state.apply("done") == [{"type": "done", "audience": None, "seat": 0, "ply": 2}]
    assert (state.seat, state.step, state.decisions) == (1, Step.CALL, 2)


def test_an_illegal_action_is_refused_with_the_rule_and_changes_nothing() -> None:
    state = Caller().new_state()
    before = (state.to_json(), state.done_calls)
    with pytest.raises(IllegalAction, match=r"caller: 'done' is not allowed in the call of 1"):
        state.apply("done")
    with pytest.raises(IllegalAction, match=r"caller: 4 is not allowed"):
        state.apply(4)
    # Not counted, not played: the count happens only after the legality check.
    assert (state.to_json(), state.done_calls) == before


def test_a_finished_game_refuses_every_action_in_its_own_words() -> None:
    state = Caller().new_state()
    for action in (3, "done", 3, "done"):  # seat 1 brings the shared total to 6
        state.apply(action)
    assert state.outcome() == Outcome.win(1, 2, "six")
    before = (state.to_json(), state.done_calls)
    with pytest.raises(IllegalAction, match=r"caller: the game is over \(six\)"):
        state.apply(1)  # legal in the phase the state was left in: refused all the same
    assert (state.to_json(), state.done_calls) == before


def test_the_length_guard_ends_the_game_after_the_last_decision() -> None:
    state = Caller().new_state(limit=3)
    state.apply(1)
    state.apply("done")
    events = state.apply(1)  # the third decision
    assert events[0]["type"] == "call"  # the phase's own events first
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "length_limit"
    assert state.outcome() == Outcome.no_winner(2, "length_limit")
    with pytest.raises(IllegalAction, match="length_limit"):
        state.apply("done")


class _Judged:
    """A state whose one phase judges legality itself (Gungi's native path)."""

    def __init__(self) -> None:
        self.played: list[int] = []
        self.plies = 0

    def is_terminal(self) -> bool:
        return False

    def why_illegal(self, action: Any) -> str | None:
        return None if action == 1 else f"only 1 here, not {action}"

    def _end_if_too_long(self, decisions: int) -> list[Event]:
        return []


def _judge_and_play(state: _Judged, action: int) -> list[Event] | None:
    if action != 1:
        return None  # refused, nothing changed
    state.plies += 1
    state.played.append(action)
    return [event("played")]


JUDGED: Flow[_Judged, str, int] = Flow(
    {"play": Phase("play 1", lambda s: [1], _judge_and_play, judges=True)},
    phase_of=lambda s: "play",
    decisions=attrgetter("plies"),
)


def test_a_judging_phase_refuses_by_returning_none_with_why_illegals_reason() -> None:
    state = _Judged()
    with pytest.raises(IllegalAction, match="only 1 here, not 2"):
        JUDGED.apply(state, 2)
    assert (state.played, state.plies) == ([], 0)
    assert JUDGED.apply(state, 1) == [event("played")]
    assert (state.played, state.plies) == ([1], 1)


class _Guarded(_Judged):
    """A state whose judging ``do`` also keeps the template's guards (``guards=True``):
    it refuses a finished game's actions and ends a game at the length limit itself. Its
    ``is_terminal`` and ``_end_if_too_long`` count their calls: the template asks them
    nothing around a move it plays."""

    def __init__(self) -> None:
        super().__init__()
        self.over = False
        self.asked = 0

    def is_terminal(self) -> bool:
        self.asked += 1
        return self.over

    def why_illegal(self, action: Any) -> str | None:
        return "the game is over: nothing is legal" if self.over else super().why_illegal(action)

    def _end_if_too_long(self, decisions: int) -> list[Event]:
        self.asked += 1
        return []


def _guard_and_play(state: _Guarded, action: int) -> list[Event] | None:
    if state.over:
        return None
    events = _judge_and_play(state, action)
    if events is not None and state.plies >= 2:  # its own length guard
        state.over = True
        events.append(event("game_over", reason="length_limit"))
    return events


GUARDED: Flow[_Guarded, str, int] = Flow(
    {"play": Phase("play 1", lambda s: [1], _guard_and_play, judges=True, guards=True)},
    phase_of=lambda s: "play",
    decisions=attrgetter("plies"),
)


def test_a_guarding_phase_keeps_the_game_over_refusal_and_the_length_guard_itself() -> None:
    state = _Guarded()
    assert GUARDED.apply(state, 1) == [event("played")]
    assert state.asked == 0  # no is_terminal before do, no _end_if_too_long after it
    with pytest.raises(IllegalAction, match="only 1 here, not 2"):
        GUARDED.apply(state, 2)
    assert (state.played, state.plies) == ([1], 1)
    assert _types(GUARDED.apply(state, 1)) == ["played", "game_over"]
    with pytest.raises(IllegalAction, match="the game is over: nothing is legal"):
        GUARDED.apply(state, 1)  # refused by do; the reason is the finished game's
    assert (state.played, state.plies) == ([1, 1], 2)


def test_a_guarding_phase_must_judge() -> None:
    with pytest.raises(TypeError, match="guards but does not judge"):
        Flow(
            {"play": Phase("play 1", lambda s: [1], _call, guards=True)},
            phase_of=lambda s: "play",
            decisions=attrgetter("plies"),
        )


def test_a_table_with_a_hole_or_a_count_before_a_judging_do_fails_where_it_is_built() -> None:
    with pytest.raises(TypeError, match="no phase for DONE"):
        Flow(
            {Step.CALL: Phase("call", lambda s: [1], _call)},
            phase_of=attrgetter("step"),
            decisions=attrgetter("decisions"),
            keys=Step,
        )
    with pytest.raises(TypeError, match="judging phase"):
        Flow(
            {"play": Phase("play 1", lambda s: [1], _judge_and_play, judges=True)},
            phase_of=lambda s: "play",
            decisions=attrgetter("plies"),
            count=lambda s: None,
        )


# -- the four games -------------------------------------------------------------------------
GAMES = ["gungi", "gunshi", "gunkimono", "sashimono"]


@pytest.mark.parametrize("name", GAMES)
def test_each_game_plays_through_its_flow(name: str) -> None:
    game = load_game(name)
    state = game.new_state(7)
    module = __import__(type(state).__module__, fromlist=["FLOW"])
    flow: Flow[Any, Any, Any] = module.FLOW
    assert sorted(map(str, flow.legal(state))) == sorted(map(str, state.legal_actions()))
    action = state.legal_actions()[0]
    copy = state.clone()
    assert flow.apply(copy, action) == state.apply(action)
    assert copy.to_json() == state.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_each_game_refuses_once_over_and_changes_nothing(name: str) -> None:
    game = load_game(name)
    state = game.new_state(3)
    action = state.legal_actions()[0]
    state.concede(0)
    before = state.to_json()
    with pytest.raises(IllegalAction, match="over"):
        state.apply(action)
    assert state.to_json() == before


def test_gunshi_apply_takes_actions_not_text() -> None:
    """Text is parsed at the edges (CLI, server, records): ``apply`` refuses it with the
    decision asked now, and plays the parsed action."""
    game = load_game("gunshi")
    state = game.new_state(1)
    text = str(state.legal_actions()[0])
    before = state.to_json()
    with pytest.raises(IllegalAction, match="is not allowed now"):
        state.apply(text)
    assert state.to_json() == before
    state.apply(game.parse_action(state, text))
    assert state.to_json() != before


# -- when a phase ends and which follows: ``end``, ``next``, ``begin`` --------------------------
class Relay:
    """A toy race run by the table alone: no ``do`` sets the leg. Two stretches warm up, four
    steps run, then (on a close finish) a photo with no decision is taken, and the finish
    ends the race."""

    def __init__(self, close: bool = False, tape: int = 99) -> None:
        self.leg = "warm"
        self.steps = 0
        self.close = close  # a close finish: the photo is taken before the finish
        self.tape = tape  # the race ends when this many steps are made (``ends``)
        self.over = False
        self.flow: Flow[Relay, str, str] | None = None  # None: RELAY

    def is_terminal(self) -> bool:
        return self.over

    def why_illegal(self, action: Any) -> str | None:
        if self.over:
            return "the race is over"
        legal = (self.flow or RELAY).legal(self)
        return None if action in legal else f"{action!r} is not a step of the {self.leg}"

    def _end_if_too_long(self, decisions: int) -> list[Event]:
        return []


def _step(state: Relay, action: str) -> list[Event]:
    state.steps += 1
    return [event(action, n=state.steps)]


def _finish(state: Relay, said: list[Event]) -> None:
    state.over = True
    said.append(event("finish"))


def _relay(**flow: Any) -> Flow[Relay, str, str]:
    return Flow(
        {
            "warm": Phase(
                "warming up", lambda s: ["stretch"], _step, end=lambda s: s.steps >= 2, next="run"
            ),
            "run": Phase(
                "the run",
                lambda s: ["step"],
                _step,
                begin=lambda s, said: said.append(event("start")),
                end=lambda s: s.steps >= 6,
                # A function of the state: the rulebook makes what follows depend on it.
                next=lambda s: "photo" if s.close else "finish",
            ),
            # No decision: its ``begin`` takes the photo and the phase ends at once.
            "photo": Phase(
                "the photo",
                lambda s: [],
                _step,
                begin=lambda s, said: said.append(event("photo")),
                end=lambda s: True,
                next="finish",
            ),
            # Ends the game as it begins; its ``end`` would start a new race, but a finished
            # game moves no further.
            "finish": Phase(
                "the finish", lambda s: [], _step, begin=_finish, end=lambda s: True, next="warm"
            ),
        },
        phase_of=attrgetter("leg"),
        decisions=attrgetter("steps"),
        enter=lambda s, leg: setattr(s, "leg", leg),
        **flow,
    )


RELAY = _relay()


def _types(events: list[Event]) -> list[str]:
    return [e["type"] for e in events]


def test_a_phase_ends_when_its_end_holds_and_the_table_names_the_next() -> None:
    state = Relay()
    assert RELAY.apply(state, "stretch") == [event("stretch", n=1)]
    assert state.leg == "warm"  # its end does not hold yet: no move
    # The second stretch ends the warm-up: the flow (not ``do``) enters "run", whose
    # ``begin`` speaks after ``do``.
    assert _types(RELAY.apply(state, "stretch")) == ["stretch", "start"]
    assert (state.leg, RELAY.legal(state)) == ("run", ["step"])
    with pytest.raises(IllegalAction, match="'stretch' is not a step of the run"):
        RELAY.apply(state, "stretch")


def test_an_end_can_move_several_phases_in_one_action_and_stops_at_the_games_end() -> None:
    state = Relay(close=True)
    for action in ["stretch", "stretch", "step", "step", "step"]:
        RELAY.apply(state, action)
    # The last step ends the run; ``next`` reads the close finish: the photo, which has no
    # decision and ends at once, then the finish, which ends the game: three phases in one
    # action, their events in order. The finish's own end (back to "warm") is never asked.
    assert _types(RELAY.apply(state, "step")) == ["step", "photo", "finish"]
    assert (state.leg, state.is_terminal()) == ("finish", True)
    with pytest.raises(IllegalAction, match="the race is over"):
        RELAY.apply(state, "stretch")


def test_next_as_a_function_of_the_state_chooses_the_phase() -> None:
    state = Relay(close=False)
    for action in ["stretch", "stretch", "step", "step", "step"]:
        RELAY.apply(state, action)
    assert _types(RELAY.apply(state, "step")) == ["step", "finish"]  # no photo
    assert state.leg == "finish"


def test_the_games_own_end_is_asked_after_do_and_after_each_phase_begins() -> None:
    def tape(state: Relay) -> list[Event]:
        if state.steps < state.tape:
            return []
        state.over = True
        return [event("tape")]

    flow = _relay(ends=tape)
    state = Relay(tape=2)
    flow.apply(state, "stretch")
    # The second stretch reaches the tape: the game is over after ``do``, so the warm-up's
    # end is not followed into "run" (no "start").
    assert _types(flow.apply(state, "stretch")) == ["stretch", "tape"]
    assert (state.leg, state.is_terminal()) == ("warm", True)


def _endless() -> Flow[Relay, str, str]:
    always = lambda s: True  # noqa: E731
    return Flow(
        {
            "a": Phase("a", lambda s: ["x"], _step, end=always, next="b"),
            "b": Phase(
                "b",
                lambda s: ["x"],
                _step,
                begin=lambda s, said: said.append(event("b")),
                end=always,
                next="a",
            ),
        },
        phase_of=attrgetter("leg"),
        decisions=attrgetter("steps"),
        enter=lambda s, leg: setattr(s, "leg", leg),
    )


def test_a_table_whose_ends_make_a_loop_is_stopped_by_the_guard() -> None:
    state = Relay()
    state.leg, state.flow = "a", _endless()
    with pytest.raises(FlowLoop, match="moved 2 times in one action"):
        state.flow.apply(state, "x")


def test_a_table_that_cannot_say_where_it_goes_fails_where_it_is_built() -> None:
    def build(enter: Any = None, **phase: Any) -> None:
        Flow(
            {"a": Phase("a", lambda s: [1], _step, **phase)},
            phase_of=attrgetter("leg"),
            decisions=attrgetter("steps"),
            enter=enter,
        )

    put = lambda s, leg: None  # noqa: E731
    with pytest.raises(TypeError, match="phase 'a' has an end but no next"):
        build(put, end=lambda s: True)
    with pytest.raises(TypeError, match="the flow needs enter="):
        build(end=lambda s: True, next="a")
    with pytest.raises(TypeError, match="next 'b' is not a phase"):
        build(put, end=lambda s: True, next="b")
