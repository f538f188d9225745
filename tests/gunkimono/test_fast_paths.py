"""The adapters' fast paths give exactly what the plain code gave.

Each action stores its integer when it is created: the stored integers are checked against
the action-space formulas, over random games of 2-5 players to the end. (What ``view``
shows is checked by the contract suite, ``tests/contract``, and the notation tests.)
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from sengoku.core.game import TERMINAL
from sengoku.games.gunkimono import Place, SmallTile
from sengoku.games.gunkimono.actions import (
    CELLS,
    DRAW_BASE,
    NUM_ACTIONS,
    PLACE_BASE,
    SCORE_BASE,
    SMALL_BASE,
    STRONGHOLD_BASE,
    SUPPORT_BASE,
    BuildStronghold,
    Draw,
    Score,
    int_to_action,
)
from sengoku.games.gunkimono.data import components
from tests.gunkimono.helpers import GAME

_C = components()


def formula(action: Any) -> int:
    """The action-space formulas, written out independently of the actions' code."""
    if isinstance(action, Place):
        vertical = 0 if action.b == action.a + 1 else 1
        pair = action.first * 10 + action.second
        return PLACE_BASE + (pair * CELLS + action.a) * 2 + vertical
    if isinstance(action, SmallTile):
        base = SUPPORT_BASE if action.support else SMALL_BASE
        return base + action.troop * CELLS + action.cell
    if isinstance(action, Score):
        return SCORE_BASE + (int(action.honor) * 5 + action.troop) * CELLS + action.cell
    if isinstance(action, BuildStronghold):
        return STRONGHOLD_BASE + action.cell
    assert isinstance(action, Draw)
    return DRAW_BASE + (0 if action.tile is None else 1 + action.tile)


def test_every_action_number_is_stored_on_its_action() -> None:
    for n in range(NUM_ACTIONS):
        action = int_to_action(n)
        assert action.int_id == n == formula(action) == action.to_int()
        assert GAME.action_to_int(None, action) == n  # type: ignore[arg-type]


def test_stored_integer_is_not_part_of_equality_repr_or_pickle_shape() -> None:
    a, b = Place(2, 10, 5, 11), Place(2, 10, 5, 11)
    assert a == b and hash(a) == hash(b) and a.int_id == formula(a)
    assert repr(a) == "Place(first=2, a=10, second=5, b=11)"
    copy = pickle.loads(pickle.dumps(a))
    assert copy == a and copy.int_id == a.int_id
    with pytest.raises(AttributeError):
        a.int_id = 0  # type: ignore[misc]


def test_action_to_int_refuses_foreign_objects() -> None:
    for thing in ("vp c3", 7, object()):
        with pytest.raises(ValueError, match="not a Gunkimono action"):
            GAME.action_to_int(None, thing)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_integers_match_the_formulas_through_random_games(players: int) -> None:
    rng = random.Random(players)
    for seed in range(3):
        st = GAME.new_state(seed, players=players)
        while st.current_player != TERMINAL:
            legal = st.legal_actions()
            ints = [GAME.action_to_int(st, a) for a in legal]
            assert ints == [formula(a) for a in legal] == sorted(ints)
            st.apply(rng.choice(legal))
        assert st.view(0)["outcome"] is not None


@pytest.mark.parametrize("players", [2, 4])
def test_playout_choice_is_the_core_policys_draw_and_plays_the_same(players: int) -> None:
    """``GunkimonoFeatures.rollout_action`` takes from the kept legal list (no copy) and
    ``apply`` plays it unchecked: the same draws as the core's ``rng.choice`` of
    ``legal_actions()``, the same game, and anything else still checked."""
    from sengoku.core.features import Features
    from sengoku.games.gunkimono.features import GunkimonoFeatures

    ours, core = GunkimonoFeatures(), Features()
    for seed in range(2):
        fast = GAME.new_state(seed, players=players)
        slow = fast.clone()
        fast.mute()
        rng_fast, rng_slow = random.Random(seed), random.Random(seed)
        while not slow.is_terminal():
            action = ours.rollout_action(fast, rng_fast)
            assert action == core.rollout_action(slow, rng_slow)
            assert action in slow.legal_actions()
            if slow.current_player == TERMINAL:
                break
            fast.apply(action)
            slow.apply(action)
            assert fast.to_json() == slow.to_json()
            # The chosen object, played, no longer passes unchecked (the list changed):
            # refused when illegal now, as before.
            assert fast.why_illegal(action) == slow.why_illegal(action)
        assert fast.outcome() == slow.outcome()


def test_a_playout_choice_vouches_only_for_itself_in_its_own_position() -> None:
    from sengoku.games.gunkimono.features import GunkimonoFeatures

    st = GAME.new_state(0, players=2)
    chosen = GunkimonoFeatures().rollout_action(st, random.Random(0))
    assert st.why_illegal(chosen) is None
    # Another action is checked as ever: a tile not in the hand is refused.
    hand = st.supply.hands[st.current_player]
    other = next(
        a
        for a in int_to_action_range()
        if isinstance(a, Place) and a.tile not in hand and a.b == a.a + 1
    )
    assert st.why_illegal(other) is not None
    with pytest.raises(ValueError):
        st.apply(other)
    # A copy does not inherit the choice, nor does the position once its list is
    # forgotten: the rules' own check answers (legal still).
    assert st.clone().why_illegal(chosen) is None
    st.forget_legal_actions()
    assert st.why_illegal(chosen) is None


def int_to_action_range() -> list[Any]:
    return [int_to_action(n) for n in range(PLACE_BASE, PLACE_BASE + 2 * CELLS * 12)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_place_step_drawn_without_its_list_is_the_lists_draw(players: int) -> None:
    """``placement.pick_place_action`` draws step 1's action without making the legal list:
    the same action as ``rng.choice`` of the list, and the same numbers taken from the
    generator, in every step 1 of games that place supports and small tiles too (None only
    where Stronghold rule 4 could refuse a placement: the list decides there)."""
    from sengoku.games.gunkimono.placement import _rule_4_board, pick_place_action

    rng = random.Random(players)
    picked = unpicked = 0
    for seed in range(3):
        st = GAME.new_state(seed, players=players, own_double_stronghold=seed == 1)
        while st.current_player != TERMINAL:
            if st.phase == "place":
                legal = st.legal_actions()
                for draw in range(3):
                    ours, theirs = random.Random(draw), random.Random(draw)
                    action = pick_place_action(st, ours)
                    if action is None:
                        assert _rule_4_board(st) is not None
                        assert ours.getstate() == random.Random(draw).getstate()
                        unpicked += 1
                        continue
                    assert action is theirs.choice(legal)
                    assert ours.getstate() == theirs.getstate()
                    picked += 1
                legal = st.legal_actions()
                supports = [a for a in legal if isinstance(a, SmallTile) and a.support]
                smalls = [a for a in legal if isinstance(a, SmallTile) and not a.support]
                if supports and rng.random() < 0.3:
                    st.apply(rng.choice(supports))
                    continue
                if smalls and rng.random() < 0.2:
                    st.apply(rng.choice(smalls))
                    continue
            st.apply(rng.choice(st.legal_actions()))
    assert picked > 100
