"""The end of the game: the Marshal captured, mate, repetition (and resignation, the length
limit, which the contract in :mod:`sengoku.core.game` handles for every game).

* Capturing the opposing Marshal wins (``marshal_captured``).
* Mate (:mod:`sengoku.games.gungi.mate`): the player to move loses (``mate``).
* The same position (board, both hands, side to move) for the fourth time: no winner, the
  game is to be replayed (``repetition``). Positions are counted by their Zobrist hash
  (:mod:`sengoku.games.gungi.zobrist`) in ``GungiState.seen``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.core.game import Event, Outcome, event
from sengoku.games.gungi.pieces import COLOR_NAMES
from sengoku.games.gungi.setup import PLAY

if TYPE_CHECKING:
    from sengoku.games.gungi.state import GungiState

REPETITIONS = 4
"""The number of times one position is seen that ends the game."""


def judge(state: GungiState, mover: int, marshal_taken: bool) -> Outcome | None:
    """The result if the move ``mover`` just made ended the game, else None."""
    if marshal_taken:
        return Outcome.win(mover, 2, "marshal_captured")
    if state.seen.get(state.hash, 0) >= REPETITIONS:
        return Outcome.no_winner(2, "repetition")
    if state.phase == PLAY and state.is_mate(state.to_move):
        return Outcome.win(1 - state.to_move, 2, "mate")
    return None


def finish(state: GungiState, result: Outcome, events: list[Event]) -> None:
    """End the game with ``result``, telling everyone (a ``game_over`` event)."""
    state.end(result)
    winner = f"{COLOR_NAMES[result.winners[0]].title()} wins" if result.winners else "no winner"
    events.append(event("game_over", **result.to_json(), message=f"{winner} ({result.reason})"))
