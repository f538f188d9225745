"""Helpers for the Gunkimono tests: build positions square by square."""

from __future__ import annotations

from collections.abc import Iterable

from sengoku.games.gunkimono import Gunkimono, GunkimonoState
from sengoku.games.gunkimono.actions import LETTERS, WIDTH, from_notation, parse_square, parse_tile
from sengoku.games.gunkimono.state import CELLS

GAME = Gunkimono()


def sq(name: str) -> int:
    return parse_square(name)


def new(players: int = 2, seed: int = 0, **options: object) -> GunkimonoState:
    return GAME.new_state(seed, players=players, **options)


def neutral(state: GunkimonoState) -> GunkimonoState:
    """Repaint the printed board so that no two neighbouring squares share a troop type:
    every formation is a single troop until a test paints more."""
    for c in range(CELLS):
        y, x = divmod(c, WIDTH)
        state.top[c] = (x + 2 * y) % 5
        state.sym[c] = 0
        state.level[c] = 0
    state._legal = None
    return state


def paint(state: GunkimonoState, squares: dict[str, str], level: int | None = None) -> None:
    """Put troops on squares: {"c3": "A"}; optionally at a level (tiles beneath)."""
    for name, letter in squares.items():
        c = sq(name)
        state.top[c] = LETTERS.index(letter)
        if level is not None:
            state.level[c] = level
            state.sym[c] = 1 if level else 0
    state._legal = None


def hand(state: GunkimonoState, seat: int, tiles: Iterable[str]) -> None:
    """Replace the seat's hand; the tiles are swapped with hidden places, so all 60 stay."""
    wanted = [parse_tile(t) for t in tiles]
    current = list(state.hands[seat])
    missing = []
    for t in wanted:
        if t in current:
            current.remove(t)
        else:
            missing.append(t)
    others = [state.hands[s] for s in range(state.num_players) if s != seat]
    for t in missing:
        for where in (state.stack, state.end_stack, state.removed, *others):
            if t in where:
                i = where.index(t)
                if current:
                    where[i] = current.pop()
                else:
                    del where[i]
                break
        else:
            raise AssertionError(f"tile {t} is nowhere hidden")
    state.stack[:0] = current  # leftovers go to the bottom of the stack
    state.hands[seat] = wanted
    state.known[seat] = []
    state._legal = None


def play(state: GunkimonoState, *texts: str) -> list[dict[str, object]]:
    events: list[dict[str, object]] = []
    for text in texts:
        events.extend(state.apply(GAME.parse_action(state, text)))
    return events


def act(state: GunkimonoState, text: str) -> list[dict[str, object]]:
    """Apply the action named in canonical notation, legal or not (to see the refusal)."""
    action = from_notation(text)
    assert action is not None, f"not notation: {text!r}"
    return state.apply(action)
