"""Information flow, every registered game: a seat's view, choices and turn order depend
only on what that seat has seen.

The pairs come from :mod:`tests.contract.pairs` (built without ``determinize``): two states
that give one seat the same view, reached through the same views. From each pair both
states are played on under the same decisions (the seat's own, and those of the others
that are legal in both); while the seat's views stay equal:

* a spectator cannot tell them apart either (it knows less than any seat);
* the same seat is to act in both (whose turn it is never depends on a secret);
* when it is the seat's turn, its legal actions are the same in both;
* a game that ends, ends in both, with the same outcome.

The pair is followed until the views part, which a decision may rightly cause (a card
drawn or turned face up shows what was hidden), or no decision is legal in both.

**Decision count.** Where a seat's two secret choices look the same to another seat (and
its next decision, whatever it is, does too), the numbers of decisions the choosing seat
may still take in a row must be the same after either: otherwise the count of decisions
tells the other seat the secret.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from sengoku.core.game import State
from sengoku.core.registry import load_game
from tests.contract.cases import (
    HIDDEN_PARAMS,
    PARAMS,
    SCALE,
    canonical,
    pair_seeds,
    view_key,
)
from tests.contract.pairs import Pair, all_pairs, choice_twins

GAMES = SCALE


def follow(x: State, y: State, seat: int, rng: random.Random, steps: int) -> int:
    """Play the pair on under the same decisions; the number of decisions with equal views."""
    for step in range(steps):
        where = f"{x.game.name}, seat {seat}, {step} decisions into the pair"
        assert view_key(x, seat) == view_key(y, seat)
        assert canonical(x.view(None)) == canonical(y.view(None)), (
            f"{where}: the seat cannot tell the states apart, but a spectator can"
        )
        assert x.current_player == y.current_player, (
            f"{where}: the same view, but seat {x.current_player} is to act in one state "
            f"and seat {y.current_player} in the other: the turn order shows a secret"
        )
        assert x.is_terminal() == y.is_terminal()
        if x.is_terminal():
            assert x.outcome() == y.outcome(), f"{where}: the same view, another outcome"
            return step
        theirs = {str(a): a for a in y.legal_actions()}
        if x.current_player == seat:
            mine = [str(a) for a in x.legal_actions()]
            assert mine == list(theirs), (
                f"{where}: the same view, but the seat's legal actions differ: "
                f"{sorted(set(mine) ^ set(theirs))[:6]}"
            )
        common = [a for a in x.legal_actions() if str(a) in theirs]
        if not common:
            return step
        action = rng.choice(common)
        x.apply(action)
        y.apply(theirs[str(action)])
        if view_key(x, seat) != view_key(y, seat):
            return step + 1
    return steps


@pytest.mark.soak
@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_same_view_same_turns_choices_and_outcome(name: str, options: dict[str, Any]) -> None:
    game = load_game(name)
    followed = 0
    pairs = [0]
    for seed in pair_seeds(game, pairs):
        rng = random.Random(f"flow-{name}-{seed}")
        for x, y, seat in all_pairs(game, options, seed, every=31, rng=rng):
            pairs[0] += 1
            followed += follow(x, y, seat, rng, steps=60)
    if not game.game_type.perfect_information:
        assert pairs[0] > 0 and followed > 0, "no pair of states one seat cannot tell apart"


# ------------------------------------------------------------------ decision count

MORE = -1  # "more decisions than the search looks at"


def run_lengths(state: State, actor: int, depth: int, budget: list[int]) -> set[int]:
    """Every number of decisions ``actor`` can take in a row from ``state`` before another
    seat is to act (``MORE`` past ``depth``); ``budget`` counts down the states visited."""
    found: set[int] = set()
    seen: set[str] = set()

    def walk(st: State, d: int) -> None:
        if st.current_player != actor:
            found.add(d)
            return
        if d == depth:
            found.add(MORE)
            return
        key = canonical(st.to_json())
        if key in seen:
            return
        seen.add(key)
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooBig
        for action in st.legal_actions():
            child = st.clone()
            child.apply(action)
            walk(child, d + 1)

    walk(state, 0)
    return found


class _TooBig(Exception):
    pass


def next_views(state: State, seat: int) -> set[str]:
    """The views ``seat`` may get after the next decision of the seat to act."""
    out = set()
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        out.add(view_key(child, seat))
    return out


def secret_twins(state: State, rng: random.Random) -> list[Pair]:
    """Choice twins whose secret stays secret for one more decision: the seat that chose is
    still to act in both, and whatever it decides next looks the same to the other seat,
    and the same after either twin. (A choice that the very next decision makes public,
    such as the first of two Kumi to swap, is no secret whose count could tell anything.)"""
    actor = state.current_player
    out = []
    for x, y, seat in choice_twins(state, rng):
        if not x.current_player == y.current_player == actor:
            continue
        after = next_views(x, seat)
        if len(after) == 1 and after == next_views(y, seat):
            out.append((x, y, seat))
    return out


@pytest.mark.soak
@pytest.mark.parametrize(("name", "options"), HIDDEN_PARAMS)
def test_decision_count_does_not_depend_on_secrets(name: str, options: dict[str, Any]) -> None:
    from tests.contract.cases import random_positions

    game = load_game(name)
    compared = 0
    for seed in range(GAMES):
        rng = random.Random(f"count-{name}-{seed}")
        for state in random_positions(game, options, seed, every=1, limit=150):
            for x, y, seat in secret_twins(state, rng):
                actor = x.current_player
                try:
                    lx = run_lengths(x, actor, 10, [800])
                    ly = run_lengths(y, actor, 10, [800])
                except _TooBig:
                    continue
                compared += 1
                assert lx == ly, (
                    f"{name}: after two secret choices of seat {actor} that seat {seat} "
                    f"cannot tell apart, seat {actor} may take {sorted(lx)} more decisions in "
                    f"a row in one case and {sorted(ly)} in the other: seat {seat} learns "
                    f"the secret from the count (view: {view_key(x, seat)[:200]}...)"
                )
    del compared
