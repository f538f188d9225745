"""Pairs of states that one seat cannot tell apart, built WITHOUT ``determinize``.

A pair ``(x, y, seat)`` has ``x.view(seat) == y.view(seat)`` while the states differ in
something hidden from ``seat``; and ``seat`` saw the same things on the way there (the same
views after every decision), so it knows exactly as much in both. Three ways to build one:

* :func:`choice_twins`, generic: another seat is to decide, and two of its choices look
  the same to ``seat`` (a secret choice: a Shogun, a card put face down, a card order).
* :func:`seed_twins`, generic: the same decisions from another seed, where every view of
  ``seat`` on the way is the same (the seed changed only what ``seat`` cannot see).
* :func:`history_swaps` with :data:`SWAPPERS`, one small hook per game where chance hides
  things that no choice does (hands and draw piles): two things hidden from the seat are
  exchanged at the start, written here from the rules (never with the engine's
  ``determinize``), and the same decisions replayed on both while the seat's views agree.
  A game without a hook still gets the generic pairs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from sengoku.core.game import Game, State
from tests.contract.cases import canonical, view_key

Pair = tuple[State, State, int]


def _differ(x: State, y: State) -> bool:
    return canonical(x.to_json()) != canonical(y.to_json())


def choice_twins(state: State, rng: random.Random, limit: int = 24) -> Iterator[Pair]:
    """For each seat that is not to act: two decisions of the seat to act that this seat
    cannot tell apart (at most one pair per seat)."""
    actor = state.current_player
    if actor < 0:
        return
    legal = state.legal_actions()
    picked = rng.sample(legal, min(limit, len(legal)))
    if len(picked) < 2:
        return
    children = []
    for action in picked:
        child = state.clone()
        child.apply(action)
        children.append(child)
    for seat in range(state.num_players):
        if seat == actor:
            continue
        groups: dict[str, list[State]] = {}
        for child in children:
            groups.setdefault(view_key(child, seat), []).append(child)
        for group in groups.values():
            found = [(a, b) for a in group for b in group if a is not b and _differ(a, b)]
            if found:
                a, b = rng.choice(found)
                yield a, b, seat
                break


def seed_twins(
    game: Game, options: dict[str, Any], seed: int, other: int, plies: int, rng: random.Random
) -> Iterator[Pair]:
    """The same random decisions played from ``seed`` and from ``other``: for each seat
    whose views agreed after every decision, the pair after ``plies`` decisions (or
    earlier, where a decision stops being legal in the other game)."""
    x = game.new_state(seed, **options)
    y = game.new_state(other, **options)
    same = [view_key(x, s) == view_key(y, s) for s in range(x.num_players)]
    for _ in range(plies):
        if not any(same) or x.is_terminal():
            break
        action = rng.choice(x.legal_actions())
        if action not in y.legal_actions():
            break
        x.apply(action)
        y.apply(action)
        same = [ok and view_key(x, s) == view_key(y, s) for s, ok in enumerate(same)]
    if _differ(x, y):
        for seat, ok in enumerate(same):
            if ok:
                yield x.clone(), y.clone(), seat


# --------------------------------------------------------------------------- game hooks
# Each hook: (state, seat, rng) -> a copy of the state with two things hidden from ``seat``
# exchanged, or None. The caller keeps the copy only if its view for ``seat`` is unchanged.


def _swap_gunkimono(state: Any, seat: int, rng: random.Random) -> State | None:
    """Rulebook: hands are hidden, the stack is face down. A tile of another player's hand
    that ``seat`` did not see taken from the row changes place with a tile of the stack."""
    y = state.clone()
    choices = []
    for s in range(y.num_players):
        if s == seat:
            continue
        unknown = list(y.hands[s])
        for t in y.known[s]:
            unknown.remove(t)
        choices += [(s, t) for t in unknown]
    stack = [i for i, t in enumerate(y.stack) if t not in _gunkimono_end()]
    if not choices or not stack:
        return None
    s, tile = rng.choice(choices)
    i = rng.choice(stack)
    if y.stack[i] == tile:
        return None
    y.hands[s][y.hands[s].index(tile)], y.stack[i] = y.stack[i], tile
    y._legal = None
    return y  # type: ignore[no-any-return]


def _gunkimono_end() -> set[int]:
    from sengoku.games.gunkimono.state import END_TILE

    return {END_TILE}


def _swap_sashimono(state: Any, seat: int, rng: random.Random) -> State | None:
    """Rulebook: hands and decks are hidden. A Kumi (or a Sashimono card) of another
    army's hand changes place with one of its deck, or two of its deck change places (in
    solo: the Kagemusha's)."""
    y = state.clone()
    sides = [i for i in range(len(y.sides)) if i != seat and y.sides[i].army != "none"]
    rng.shuffle(sides)
    for i in sides:
        side = y.sides[i]
        for hand, deck in (
            (side.hand, side.deck),
            (side.shand, side.sdeck),
            (side.deck, side.deck),
        ):
            pairs = [(a, b) for a in range(len(hand)) for b in range(len(deck))]
            rng.shuffle(pairs)
            for a, b in pairs[:8]:
                if hand[a] != deck[b]:
                    hand[a], deck[b] = deck[b], hand[a]
                    y._legal = None
                    return y  # type: ignore[no-any-return]
    return None


SWAPPERS: dict[str, Callable[[State, int, random.Random], State | None]] = {
    "gunkimono": _swap_gunkimono,
    "sashimono": _swap_sashimono,
}


def history_swaps(
    game: Game, options: dict[str, Any], seed: int, rng: random.Random, tries: int = 3
) -> Iterator[Pair]:
    """For each seat, the game's hook applied to the START of a random game, and the same
    decisions replayed on both: a pair wherever every decision was legal in both and every
    view of the seat the same, so the seat saw exactly the same things on the way (a swap
    made later could contradict something the seat saw earlier)."""
    start = game.new_state(seed, **options)
    hook = SWAPPERS.get(game.name)
    if hook is None:
        return
    history = []
    state = start.clone()
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        history.append(action)
        state.apply(action)
    for seat in range(start.num_players):
        for _ in range(tries):
            y = hook(start, seat, rng)
            if y is None or view_key(y, seat) != view_key(start, seat):
                continue
            x = start.clone()
            stop = rng.randrange(1, len(history) + 1)
            for action in history[:stop]:
                theirs = [a for a in y.legal_actions() if a == action]
                if not theirs or view_key(x, seat) != view_key(y, seat):
                    break
                x.apply(action)
                y.apply(theirs[0])
            if view_key(x, seat) == view_key(y, seat) and not x.is_terminal() and _differ(x, y):
                yield x, y, seat


def all_pairs(
    game: Game, options: dict[str, Any], seed: int, every: int, rng: random.Random
) -> Iterator[Pair]:
    """Pairs of every kind along one random game from ``seed``."""
    from tests.contract.cases import random_positions

    yield from seed_twins(game, options, seed, seed + 7919, rng.randrange(1, 60), rng)
    yield from history_swaps(game, options, seed, rng)
    for state in random_positions(game, options, seed, every):
        if state.is_terminal():
            continue
        yield from choice_twins(state, rng)
