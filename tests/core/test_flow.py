"""The flow engine (sengoku/core/flow.py): phases as data and the one ``apply`` template.

A small two-phase game written on the flow (a seat calls a number, then says "done") checks
the template's steps: a finished game refuses, an illegal action is refused with
``why_illegal``'s reason and changes nothing, the decision is counted before ``do`` (its
events carry the count), the events come back, and the length guard ends the game. Then the
four games: each one's ``apply`` runs its flow, and Gunshi's no longer parses text.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from enum import Enum
from operator import attrgetter
from typing import Any, ClassVar

import pytest

from sengoku.core.flow import Flow, Phase
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
