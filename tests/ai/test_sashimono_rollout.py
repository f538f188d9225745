"""Sashimono's ``informed`` playout policy (the search agents' option ``rollout``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from sengoku.ai import make_agent
from sengoku.core.features import Features
from sengoku.core.game import SengokuError
from sengoku.core.registry import load_game
from sengoku.games.sashimono import features as sf
from sengoku.games.sashimono.decisions import K_DONE, Question
from sengoku.server.ai import resolve_ai


def _prompts(question: Question, want: Callable[[Any], bool], count: int) -> list[Any]:
    """Positions of uniform play where ``question`` is asked with a choice and ``want``
    holds, each a different game or moment (found by playing, not built by the policy)."""
    game = load_game("sashimono")
    rng = random.Random(5)
    found: list[Any] = []
    seed = 0
    while len(found) < count and seed < 400:
        state: Any = game.new_state(seed)
        seed += 1
        while not state.is_terminal():
            prompt = state.prompt
            if prompt.kind is question and len(state.legal_actions()) > 1 and want(state):
                found.append(state.clone())
                break
            state.apply(rng.choice(state.legal_actions()))
    assert len(found) == count, f"uniform play met {question} only {len(found)} times"
    return found


def _share(states: list[Any], pick: Callable[[Any, Any], bool], draws: int = 200) -> float:
    """How often the informed policy's answer satisfies ``pick(state, action)``."""
    rng = random.Random(11)
    hits = total = 0
    for state in states:
        for _ in range(draws):
            action = sf.informed_action(state, rng)
            assert action in state.legal_actions()
            hits += pick(state, action)
            total += 1
    return hits / total


def _bowed(state: Any) -> bool:
    return sf.bowed_count(state, state.prompt.seat) > 0


def test_a_score_turn_exactly_when_something_is_bowed() -> None:
    # both turns offered (uniform play would pick either half the time), past the opening
    def both(s: Any) -> bool:
        return bool(s.turn_order.count > 4 and {a.arg for a in s.legal_actions()} == {0, 1})

    bowed = _prompts(Question.TURN, lambda s: both(s) and _bowed(s), 10)
    unbowed = _prompts(Question.TURN, lambda s: both(s) and not _bowed(s), 10)
    # 0.8 by the rule and half of the remaining 0.2 by chance: 0.9
    assert _share(bowed, lambda s, a: a.arg == 1) > 0.85
    assert _share(unbowed, lambda s, a: a.arg == 0) > 0.85


@pytest.mark.parametrize("question", [Question.DO, Question.PLACE])
def test_actions_are_performed_and_kumi_placed_rather_than_done(question: Question) -> None:
    states = _prompts(question, lambda s: True, 8)
    done_offered = [s for s in states if any(a.kind == K_DONE for a in s.legal_actions())]
    assert done_offered
    uniform = sum(1 - 1 / len(s.legal_actions()) for s in done_offered) / len(done_offered)
    informed = _share(done_offered, lambda s, a: a.kind != K_DONE)
    assert informed > 0.9 and informed > uniform


def test_sashimono_stay_in_play_on_a_score_turn() -> None:
    states = _prompts(Question.RETURN_SAS, lambda s: True, 8)
    uniform = sum(1 / len(s.legal_actions()) for s in states) / len(states)
    kept = _share(states, lambda s, a: a.kind == K_DONE)
    assert kept > 0.75 and kept > uniform + 0.2


def test_other_questions_stay_uniform() -> None:
    (state,) = _prompts(Question.ANTE, lambda s: len(s.legal_actions()) >= 3, 1)
    counts: dict[Any, int] = {}
    rng = random.Random(2)
    draws = 3000
    for _ in range(draws):
        action = sf.informed_action(state, rng)
        counts[action] = counts.get(action, 0) + 1
    legal = state.legal_actions()
    assert set(counts) == set(legal)
    for n in counts.values():
        assert abs(n / draws - 1 / len(legal)) < 0.05


def test_informed_playouts_finish_games_in_fewer_plies_than_uniform_ones() -> None:
    game = load_game("sashimono")

    def mean_plies(policy: Callable[[Any, random.Random], Any]) -> float:
        rng = random.Random(3)
        total = 0
        for seed in range(30):
            state: Any = game.new_state(seed)
            while not state.is_terminal():
                state.apply(policy(state, rng))
                total += 1
        return total / 30

    informed = mean_plies(sf.informed_action)
    uniform = mean_plies(sf.FEATURES.rollout_action)
    assert informed < 0.85 * uniform


def test_the_rollout_option_picks_the_policy_and_keeps_the_evaluation() -> None:
    agent: Any = make_agent("sashimono", "level5:rollout=informed")
    assert agent.knowledge.rollout == "informed"
    assert agent.knowledge.evaluation.name == "learned"  # level 5's evaluation kept
    assert agent.knowledge.rollout_action is sf.informed_action
    plain: Any = make_agent("sashimono", "ismcts:iterations=4")
    assert plain.knowledge is sf.FEATURES
    informed = sf.FEATURES.with_rollout("informed")
    assert informed.with_evaluation("learned").rollout == "informed"
    uniform: Any = informed.with_rollout("default").rollout_action
    assert uniform.__func__ is Features.rollout_action
    assert sf.FEATURES.with_rollout("default") is sf.FEATURES


def test_the_informed_search_plays_a_whole_game_legally() -> None:
    game = load_game("sashimono")
    state: Any = game.new_state(4)
    agents = [make_agent(game, "ismcts:iterations=6:rollout=informed", seed=s) for s in (0, 1)]
    plies = 0
    while not state.is_terminal():
        seat = state.current_player
        state.apply(agents[seat].choose(state, seat))
        plies += 1
    assert state.outcome() is not None and plies > 10


@pytest.mark.parametrize(
    ("game", "spec", "message"),
    [
        ("sashimono", "ismcts:rollout=uniformish", "rollout must be one of default, informed"),
        ("sashimono", "ismcts:rollout=3", "rollout must be a name"),
        ("gungi", "mcts:rollout=informed", "rollout must be one of default, got 'informed'"),
        ("gunkimono", "ismcts:rollout=informed", "rollout must be one of default"),
    ],
)
def test_an_unknown_rollout_is_refused_by_the_library_and_the_server(
    game: str, spec: str, message: str
) -> None:
    with pytest.raises(SengokuError, match=message):
        make_agent(game, spec)
    with pytest.raises(SengokuError, match=message):
        resolve_ai(None, spec, game)
    assert resolve_ai(None, "ismcts:iterations=8:rollout=default", game)[0]
