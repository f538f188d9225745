"""gungi.js FEN, the de facto digital position format, imported and exported exactly.

``<ranks 1..9, files 9..1, towers |a:b:c| bottom first> <WHITE hand>/<black hand> <w|b>
<mode 0-3> <drafting: wb|w|b|-> <full move number>``; upper case is White. Hands list
piece letter + count in the order the position gave them (``-`` when empty).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sengoku.core.game import SengokuError
from sengoku.games.gungi.pieces import (
    BLACK,
    KIND_BY_LETTER,
    MARSHAL,
    MODE_BY_CODE,
    NUM_KINDS,
    PIECES,
    WHITE,
)

if TYPE_CHECKING:
    from sengoku.games.gungi.state import GungiState


class FenError(SengokuError):
    """A FEN string that is not a valid Gungi position; the message names the field."""


def _letter(piece: int) -> str:
    letter = PIECES[piece >> 1].letter
    return letter.upper() if piece & 1 == WHITE else letter


DIGITS = [str(n) for n in range(10)]
TOWER_TEXT: dict[tuple[int, ...], str] = {}


def _tower_text(tower: tuple[int, ...]) -> str:
    text = _letter(tower[0]) if len(tower) == 1 else "|" + ":".join(map(_letter, tower)) + "|"
    TOWER_TEXT[tower] = text  # at most a few thousand distinct towers exist
    return text


def to_fen(state: GungiState) -> str:
    ranks = []
    board = state.board
    for y in range(0, 81, 9):
        out = []
        empty = 0
        for tower in board[y : y + 9]:
            if not tower:
                empty += 1
                continue
            if empty:
                out.append(DIGITS[empty])
                empty = 0
            out.append(TOWER_TEXT.get(tower) or _tower_text(tower))
        if empty:
            out.append(DIGITS[empty])
        ranks.append("".join(out))
    hands = []
    for color in (WHITE, BLACK):
        hand = state.hands[color]
        order = list(state.hand_order[color]) + [
            k for k in range(NUM_KINDS) if k not in state.hand_order[color]
        ]
        text = "".join(
            f"{PIECES[k].letter.upper() if color == WHITE else PIECES[k].letter}{hand[k]}"
            for k in order
            if hand[k]
        )
        hands.append(text or "-")
    drafting = "".join(c for c, flag in zip("wb", state.drafting, strict=True) if flag) or "-"
    side = "w" if state.to_move == WHITE else "b"
    return (
        f"{'/'.join(ranks)} {hands[0]}/{hands[1]} {side} {state.mode.code} {drafting} "
        f"{state.move_number}"
    )


_TOWER = re.compile(r"\|([a-zA-Z](?::[a-zA-Z]){1,2})\||([a-zA-Z])|([1-9])")
_HAND = re.compile(r"([a-zA-Z])(\d+)")


def parse_fen(
    text: str,
) -> tuple[
    list[tuple[int, ...]],
    list[list[int]],
    tuple[tuple[int, ...], tuple[int, ...]],
    int,
    int,
    list[bool],
    int,
]:
    """(board, hands, hand order, side to move, mode code, drafting, move number)."""
    fields = text.split()
    if len(fields) != 6:
        raise FenError(
            f"a Gungi FEN has 6 fields (board, hands, side, mode, drafting, move number), "
            f"got {len(fields)}"
        )
    board_text, hands_text, side_text, mode_text, drafting_text, number_text = fields
    ranks = board_text.split("/")
    if len(ranks) != 9:
        raise FenError(f"FEN board: 9 ranks separated by '/', got {len(ranks)}")
    board: list[tuple[int, ...]] = []
    for r, rank in enumerate(ranks, start=1):
        squares: list[tuple[int, ...]] = []
        pos = 0
        while pos < len(rank):
            m = _TOWER.match(rank, pos)
            if not m:
                raise FenError(f"FEN board, rank {r}: cannot read {rank[pos:]!r}")
            if m.group(3):
                squares.extend([()] * int(m.group(3)))
            else:
                letters = (m.group(1) or m.group(2)).split(":")
                tower = []
                for letter in letters:
                    kind = KIND_BY_LETTER.get(letter.lower())
                    if kind is None:
                        raise FenError(f"FEN board, rank {r}: unknown piece letter {letter!r}")
                    tower.append(kind * 2 + (WHITE if letter.isupper() else BLACK))
                squares.append(tuple(tower))
            pos = m.end()
        if len(squares) != 9:
            raise FenError(f"FEN board, rank {r}: {len(squares)} squares, not 9")
        board.extend(squares)
    for sq, stack in enumerate(board):
        if any(p >> 1 == MARSHAL for p in stack[:-1]):
            raise FenError(f"FEN board: a piece is stacked on a Marshal (square index {sq})")
    hand_parts = hands_text.split("/")
    if len(hand_parts) != 2:
        raise FenError("FEN hands: WHITE/black, each '-' or letter+count pairs")
    hands = [[0] * NUM_KINDS, [0] * NUM_KINDS]
    orders: list[tuple[int, ...]] = []
    for color, part in zip((WHITE, BLACK), hand_parts, strict=True):
        order: list[int] = []
        if part != "-":
            pos = 0
            while pos < len(part):
                m = _HAND.match(part, pos)
                if not m:
                    raise FenError(f"FEN hands: cannot read {part[pos:]!r}")
                letter, count = m.group(1), int(m.group(2))
                kind = KIND_BY_LETTER.get(letter.lower())
                if kind is None:
                    raise FenError(f"FEN hands: unknown piece letter {letter!r}")
                if (letter.isupper()) != (color == WHITE):
                    raise FenError(
                        f"FEN hands: {letter!r} is in the {'white' if color == WHITE else 'black'} "
                        "hand but has the other side's case"
                    )
                if kind in order or count < 1:
                    raise FenError(f"FEN hands: {letter!r} repeated or with a zero count")
                hands[color][kind] = count
                order.append(kind)
                pos = m.end()
        orders.append(tuple(order))
    for color in (WHITE, BLACK):
        for kind in range(NUM_KINDS):
            on_board = sum(1 for t in board for p in t if p == kind * 2 + color)
            if on_board + hands[color][kind] > PIECES[kind].count:
                raise FenError(
                    f"FEN: {'White' if color == WHITE else 'Black'} has more than "
                    f"{PIECES[kind].count} {PIECES[kind].english} piece(s)"
                )
    if side_text not in ("w", "b"):
        raise FenError(f"FEN side to move: 'w' or 'b', got {side_text!r}")
    if mode_text not in ("0", "1", "2", "3"):
        raise FenError(
            f"FEN mode: 0-3 (intro, beginner, intermediate, advanced), got {mode_text!r}"
        )
    if drafting_text not in ("wb", "w", "b", "-"):
        raise FenError(f"FEN drafting: wb, w, b or -, got {drafting_text!r}")
    if not number_text.isdigit() or int(number_text) < 1:
        raise FenError(f"FEN move number: a positive integer, got {number_text!r}")
    mode = MODE_BY_CODE[int(mode_text)]
    for stack in board:
        if len(stack) > mode.stack_limit:
            raise FenError(
                f"FEN board: a tower of {len(stack)} exceeds the {mode.name} stack limit "
                f"{mode.stack_limit}"
            )
    drafting = [drafting_text in ("wb", "w"), drafting_text in ("wb", "b")]
    return (
        board,
        hands,
        (orders[0], orders[1]),
        WHITE if side_text == "w" else BLACK,
        int(mode_text),
        drafting,
        int(number_text),
    )
