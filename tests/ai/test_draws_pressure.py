"""Issue 41 item 6: the computer's judgement of a draw offer, and its pressure for a result.

* The judgement (``sengoku.ai.draws``): an agent's expected result of a position from its
  own seat's view, whoever is to act; an AI accepts a draw below 0.45.
* The pressure (``pressure`` option of the searches, ``sengoku.ai.mcts.pressed``): a result
  counts the more the sooner it comes, so of two sure wins the search takes the shorter.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from sengoku.ai import load_agent, make_agent
from sengoku.ai.draws import DRAW_ACCEPT_BELOW, accepts_draw, expected_result
from sengoku.ai.mcts import pressed
from sengoku.ai.passive import PassiveAgent
from sengoku.core.game import Action, Event, Outcome, State
from sengoku.core.registry import load_game
from tests import toygames


@pytest.fixture
def toys() -> Iterator[None]:
    toygames.register_toys()
    toygames.register_race()
    yield
    toygames.unregister_race()
    toygames.unregister_toys()


def ttt(moves: list[int]) -> State:
    state = load_game("tictactoe").new_state(0)
    for cell in moves:
        action = next(a for a in state.legal_actions() if a.square == cell)
        state.apply(action)
    return state


# Board cells 0-8, row by row. X (seat 0) plays 0, 4, 6 and O (seat 1) 8, 1: O is to move
# and X threatens both 2 (2-4-6) and 3 (0-3-6), so X wins whatever O does.
FORKED = [0, 8, 4, 1, 6]


@pytest.mark.usefixtures("toys")
@pytest.mark.parametrize("agent", ["mcts:iterations=300", "ismcts:iterations=300"])
def test_the_judgement_sees_a_lost_position_as_lost_and_a_won_one_as_won(agent: str) -> None:
    state = ttt(FORKED)
    assert state.current_player == 1  # O to move, facing X's two threats (cells 2 and 3)
    for seat, lost in ((1, True), (0, False)):
        value = expected_result(make_agent("tictactoe", agent, seed=3), state, seat)
        assert (value < DRAW_ACCEPT_BELOW) is lost, (seat, value)
        assert accepts_draw(make_agent("tictactoe", agent, seed=3), state, seat) is lost


@pytest.mark.usefixtures("toys")
def test_alpha_beta_judges_a_forced_loss_as_lost() -> None:
    state = ttt(FORKED)
    assert expected_result(make_agent("tictactoe", "alphabeta", seed=1), state, 1) == 0.0
    assert expected_result(make_agent("tictactoe", "alphabeta", seed=1), state, 0) == 1.0


@pytest.mark.usefixtures("toys")
def test_the_judgement_is_the_seats_whoever_is_to_act() -> None:
    """X (seat 0) judges while O is to act: the search runs from the position as it is."""
    state = ttt(FORKED)
    judge = make_agent("tictactoe", "mcts:iterations=300", seed=5)
    assert expected_result(judge, state, 0) > 1 - DRAW_ACCEPT_BELOW
    assert state.current_player == 1 and not state.is_terminal()  # nothing changed


def test_the_judgement_reads_only_determinizations_of_its_seat() -> None:
    """Every position the judgement reads is ``state.determinize(seat, ...)``."""
    game = load_game("gunshi")
    state = game.new_state(4)
    rng = random.Random(1)
    for _ in range(12):
        state.apply(rng.choice(state.legal_actions()))
    seen: list[int] = []
    original = type(state).determinize

    def spy(self: Any, seat: int, r: random.Random) -> Any:
        seen.append(seat)
        return original(self, seat, r)

    mp = pytest.MonkeyPatch()
    mp.setattr(type(state), "determinize", spy)
    try:
        for level in (1, 2):
            value = expected_result(load_agent(game, level, seed=2), state, 1)
            assert 0.0 <= value <= 1.0
    finally:
        mp.undo()
    assert seen and set(seen) == {1}


def test_pressed_values_draw_towards_a_draws_worth_with_depth() -> None:
    assert pressed([1.0, 0.0], 0, 0.01) == [1.0, 0.0]
    near = pressed([1.0, 0.0], 1, 0.01)
    far = pressed([1.0, 0.0], 10, 0.01)
    assert near[0] > far[0] > 0.5 > far[1] > near[1]
    assert pressed([0.5, 0.5], 30, 0.1) == [0.5, 0.5]
    assert pressed([1.0, 0.0], 10, 0.0) == [1.0, 0.0]


class Dawdle(toygames.Race):
    """Race's shape with other rules: ``add1`` or ``add2`` wins at once, ``wait`` waits, and
    the ``limit``-th decision wins too. Every line wins; only how soon differs."""

    name = "dawdle"

    def new_state(self, seed: int = 0, **options: Any) -> DawdleState:
        return DawdleState(self, self.resolve_options(**options))


class DawdleState(toygames.RaceState):
    def apply(self, action: Action) -> list[Event]:
        seat = self.to_move
        self.ply += 1
        if action != "wait" or self.ply >= self.options["limit"]:
            self.result = Outcome.win(seat, self.num_players, "goal")
        self.to_move = (seat + 1) % self.num_players
        return []

    def clone(self) -> DawdleState:
        other = DawdleState(self.game, self.options)  # type: ignore[arg-type]
        other.to_move, other.ply, other.result = self.to_move, self.ply, self.result
        return other


@pytest.mark.parametrize("name", ["mcts", "ismcts"])
def test_the_pressure_makes_the_search_take_the_shorter_win(name: str) -> None:
    """Every action is a sure win (waiting too, later): without the pressure the search has
    nothing to choose by and waits for some seeds; with it, it wins at once for every seed."""
    game = Dawdle()
    state = game.new_state(0, players=1, limit=30)
    choices = {
        str(make_agent(game, f"{name}:iterations=200", seed=s).choose(state, 0)) for s in range(12)
    }
    assert choices <= {"add1", "add2"}, choices
    unpressed = {
        str(make_agent(game, f"{name}:iterations=200:pressure=0", seed=s).choose(state, 0))
        for s in range(12)
    }
    assert "wait" in unpressed  # the same search without the pressure: it may dawdle


def test_gunshi_level_1_presses_a_passive_player_to_a_result() -> None:
    """The issue's long game: level 1 (one-ply greedy) against a player who waits. With the
    approach term from ply 150 on, this game (seeded) ends in 623 plies; without it, level 1
    took 1008 (measured with ``approach_max = 0``)."""
    game = load_game("gunshi")
    state = game.new_state(1)
    agents = [PassiveAgent(game, seed=10), load_agent(game, 1, seed=11)]
    plies = 0
    while not state.is_terminal() and plies < 800:
        seat = state.current_player
        state.apply(agents[seat].choose(state, seat))
        plies += 1
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,), plies
