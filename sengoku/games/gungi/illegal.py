"""Why a move is illegal: the rule it breaks, in words a player can act on (for the
``IllegalAction`` that ``GungiState.apply`` raises). Each reason is a sentence a reader's
language translates (sengoku/core/sentence.py), the pieces named as game words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.core.sentence import Said, Sentence, Word, said, say
from sengoku.games.gungi.move import Move
from sengoku.games.gungi.new_pieces import drop_zone
from sengoku.games.gungi.pieces import MARSHAL, PIECES, square_name
from sengoku.games.gungi.setup import SETUP

if TYPE_CHECKING:
    from sengoku.games.gungi.state import GungiState


def why_illegal(state: GungiState, move: Move) -> Said:
    """A reason a player can act on, for a move that is not in the legal list (English text
    that knows its sentence)."""
    return said(_reason(state, move))


def _reason(state: GungiState, move: Move) -> Sentence:
    color = state.to_move
    if move.is_done:
        if state.phase != SETUP:
            return say("Done is only declared during the setup")
        return say("the Marshal must be placed first")
    dest = move.destination
    assert dest is not None
    if state.phase == SETUP:
        if move.is_board_move:
            return say("during the setup pieces are only placed from the hand")
        if state.hands[color][MARSHAL] and move.kind != MARSHAL:
            return say("setup placement starts with the Marshal")
        return say(
            "setup pieces go in your own three rows, within the stack limit, never on a Marshal"
        )
    if move.is_drop:
        if not state.hands[color][move.kind]:
            return say("no {piece} in hand", piece=Word(PIECES[move.kind].english))
        if dest // 9 not in drop_zone(state, color):
            return say(
                "a new piece (arata) goes between your back row and your most advanced piece"
            )
        tower = state.board[dest]
        if tower and tower[-1] & 1 != color:
            return say("a new piece may not be placed on the opponent's piece")
        if tower and tower[-1] >> 1 == MARSHAL:
            return say("nothing is ever stacked on a Marshal")
        if len(tower) >= state.mode.stack_limit:
            return say("the stack limit is {limit}", limit=state.mode.stack_limit)
        return say("that drop does not match the position (tier or betrayal)")
    origin = move.origin
    assert origin is not None
    tower = state.board[origin]
    if not tower or tower[-1] & 1 != color:
        return say("there is no piece of yours on top at {square}", square=square_name(origin))
    if tower[-1] >> 1 != move.kind:
        return say(
            "the piece on top at {square} is not a {piece}",
            square=square_name(origin),
            piece=Word(PIECES[move.kind].english),
        )
    target = state.board[dest]
    if target and len(target) > len(tower):
        return say(
            "a tower taller than the moving piece's tier can be neither captured nor stacked on"
        )
    if target and not move.capture and target[-1] >> 1 == MARSHAL:
        return say("nothing is ever stacked on a Marshal")
    if move.capture and (not target or target[-1] & 1 == color):
        return say("only a tower topped by an enemy piece can be captured")
    if not move.capture and len(target) + 1 > state.mode.stack_limit:
        return say("the stack limit is {limit}", limit=state.mode.stack_limit)
    if state.options["self_check"] == "forbidden":
        return say("the piece cannot reach that square, or the move leaves your Marshal capturable")
    return say("the piece cannot reach that square from there (reach, blocking or height rule)")
