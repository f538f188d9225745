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
    Mode,
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


_TOWER = re.compile(r"\|([a-zA-Z](?::[a-zA-Z]){1,2})\||([a-zA-Z])|([0-9])")
_HAND = re.compile(r"([a-zA-Z])([0-9]+)")
#: The largest move number a FEN may carry (``from_fen``): far beyond any game. A game from a
#: FEN goes on for at most 1000 decisions, so its move number stays within the native core's
#: 64-bit counter, and a stored state (``state_from_json``) is read up to that counter's limit.
MAX_MOVE_NUMBER = 10**18
STORED_MOVE_NUMBER = 2**63 - 1
_BOUND_TEXT = {MAX_MOVE_NUMBER: "10^18", STORED_MOVE_NUMBER: "2^63 - 1"}
_MOVE_NUMBER = re.compile(r"[1-9][0-9]{0,18}")
_NOT_A_SPACE = re.compile(r"[^\S ]")

Board = list[tuple[int, ...]]
Hands = list[list[int]]


def _color_name(color: int) -> str:
    return "White" if color == WHITE else "Black"


def _piece_name(kind: int) -> str:
    return f"{PIECES[kind].english} ({PIECES[kind].kanji})"


def _read_board(board_text: str) -> Board:
    ranks = board_text.split("/")
    if len(ranks) != 9:
        raise FenError(f"FEN board: 9 ranks separated by '/', got {len(ranks)}")
    board: Board = []
    for r, rank in enumerate(ranks, start=1):
        squares: list[tuple[int, ...]] = []
        pos = 0
        after_digit = False
        while pos < len(rank):
            m = _TOWER.match(rank, pos)
            if not m:
                raise FenError(f"FEN board, rank {r}: cannot read {rank[pos:]!r}")
            digit = m.group(3)
            if digit:
                if digit == "0":
                    raise FenError(
                        f"FEN board, rank {r}: {rank!r} has a '0'; a digit counts 1-9 empty squares"
                    )
                if after_digit:
                    # '44' would read as 4 + 4 squares: gungi.js writes one digit per run.
                    run = int(rank[pos - 1]) + int(digit)
                    raise FenError(
                        f"FEN board, rank {r}: two digits in a row in {rank!r}; a run of empty "
                        "squares is one digit 1-9"
                        + (f" (write '{run}' for one run of {run})" if run <= 9 else "")
                    )
                squares.extend([()] * int(digit))
            else:
                letters = (m.group(1) or m.group(2)).split(":")
                tower = []
                for letter in letters:
                    kind = KIND_BY_LETTER.get(letter.lower())
                    if kind is None:
                        raise FenError(f"FEN board, rank {r}: unknown piece letter {letter!r}")
                    tower.append(kind * 2 + (WHITE if letter.isupper() else BLACK))
                squares.append(tuple(tower))
            after_digit = bool(digit)
            pos = m.end()
        if len(squares) != 9:
            raise FenError(f"FEN board, rank {r}: {len(squares)} squares, not 9")
        board.extend(squares)
    return board


def _read_hands(hands_text: str) -> tuple[Hands, tuple[tuple[int, ...], tuple[int, ...]]]:
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
                letter, count_text = m.group(1), m.group(2)
                kind = KIND_BY_LETTER.get(letter.lower())
                if kind is None:
                    raise FenError(f"FEN hands: unknown piece letter {letter!r}")
                if (letter.isupper()) != (color == WHITE):
                    raise FenError(
                        f"FEN hands: {letter!r} is in the {'white' if color == WHITE else 'black'} "
                        "hand but has the other side's case"
                    )
                if kind in order or count_text.startswith("0"):
                    raise FenError(
                        f"FEN hands: {letter!r} repeated or with a zero count (or a leading zero)"
                    )
                hands[color][kind] = int(count_text)
                order.append(kind)
                pos = m.end()
        orders.append(tuple(order))
    return hands, (orders[0], orders[1])


def _pieces_of(board: Board, hands: Hands, color: int) -> list[int]:
    """How many of each kind ``color`` has, on the board and in hand."""
    counts = list(hands[color])
    for tower in board:
        for p in tower:
            if p & 1 == color:
                counts[p >> 1] += 1
    return counts


def _mode_set(mode: Mode) -> tuple[int, ...]:
    """How many of each kind one side has in ``mode``: its fixed or free setup's pieces."""
    board_text, hands_text = mode.setup.split(" ")[:2]
    board = _read_board(board_text)
    hands, _order = _read_hands(hands_text)
    return tuple(_pieces_of(board, hands, WHITE))


#: The pieces each side has in each mode (by mode code): Intro has no special pieces,
#: Beginner only the Archers, Intermediate and Advanced all 25 (rulebook "Ways to Enjoy Gungi").
MODE_SETS: dict[int, tuple[int, ...]] = {code: _mode_set(m) for code, m in MODE_BY_CODE.items()}


def mode_pieces_text(mode: Mode) -> str:
    """The piece kinds ``mode`` uses, for messages."""
    return ", ".join(
        f"{PIECES[k].kanji} {PIECES[k].english} ({PIECES[k].letter})"
        for k, n in enumerate(MODE_SETS[mode.code])
        if n
    )


def _check_piece_set(board: Board, hands: Hands, mode: Mode) -> None:
    full = MODE_SETS[mode.code]
    for color in (WHITE, BLACK):
        have = _pieces_of(board, hands, color)
        for kind in range(NUM_KINDS):
            if have[kind] and not full[kind]:
                raise FenError(
                    f"FEN: {_color_name(color)} has {have[kind]} {_piece_name(kind)}, a piece "
                    f"mode {mode.code} ({mode.name}) does not use; its pieces are "
                    f"{mode_pieces_text(mode)}"
                )
            if have[kind] > full[kind]:
                raise FenError(
                    f"FEN: {_color_name(color)} has {have[kind]} {_piece_name(kind)} pieces, "
                    f"more than {full[kind]}, the number in mode {mode.code} ({mode.name})"
                )


def _check_setup(
    board: Board, hands: Hands, side: int, mode: Mode, drafting: list[bool], drafting_text: str
) -> None:
    """A position in the setup (drafting not '-') as the setup rules can reach it: the free
    setup of Intermediate and Advanced only; each side places its Marshal first, one piece at a
    time, alternately, in its own three rows; a side that has finished has its Marshal on the
    board; only a side still placing is to move; nothing has left the game yet."""
    if not mode.free_setup:
        raise FenError(
            f"FEN drafting: {drafting_text!r}, but mode {mode.code} ({mode.name}) starts from a "
            "fixed setup and has no setup phase; its positions have drafting '-'"
        )
    placed = [0, 0]
    marshal_placed = [False, False]
    for sq, tower in enumerate(board):
        row = sq // 9 + 1
        for tier, p in enumerate(tower, start=1):
            color = p & 1
            placed[color] += 1
            home = (7, 8, 9) if color == WHITE else (1, 2, 3)
            if row not in home:
                raise FenError(
                    f"FEN board, rank {row}: a {_color_name(color)} "
                    f"{_piece_name(p >> 1)} outside {_color_name(color)}'s three rows "
                    f"({home[0]}-{home[-1]}) during the setup (drafting {drafting_text!r}); "
                    "setup pieces are placed in their own rows and nothing moves until play"
                )
            if p >> 1 == MARSHAL:
                marshal_placed[color] = True
                if tier != 1 or len(tower) != 1:
                    raise FenError(
                        f"FEN board, rank {row}: {_color_name(color)}'s Marshal is not alone "
                        f"at tier 1 during the setup (drafting {drafting_text!r}); it is "
                        "placed first, on an empty square, and nothing is stacked on it"
                    )
    for color in (WHITE, BLACK):
        name = _color_name(color)
        if not drafting[color] and not marshal_placed[color]:
            raise FenError(
                f"FEN drafting {drafting_text!r}: {name} has finished its setup, but its "
                "Marshal is not on the board; the Marshal is the first piece placed, so a "
                f"side that has finished has it on the board (or drafting still names "
                f"{name}: '{'w' if color == WHITE else 'b'}')"
            )
        if placed[color] and not marshal_placed[color]:
            raise FenError(
                f"FEN board: {name} has placed {placed[color]} piece(s) but not its Marshal "
                "during the setup; the setup starts with the Marshal"
            )
    if not drafting[side]:
        raise FenError(
            f"FEN side to move: {'w' if side == WHITE else 'b'}, but {_color_name(side)} has "
            f"finished its setup (drafting {drafting_text!r}); in the setup only a side still "
            "placing is to move"
        )
    if all(drafting) and (
        abs(placed[WHITE] - placed[BLACK]) > 1 or placed[side] > placed[1 - side]
    ):
        raise FenError(
            f"FEN: White has placed {placed[WHITE]} piece(s) and Black {placed[BLACK]}, "
            f"{_color_name(side)} to move, while both still place (drafting 'wb'); placements "
            "alternate one at a time, so the side to move has placed as many or one fewer"
        )
    full = MODE_SETS[mode.code]
    for color in (WHITE, BLACK):
        have = _pieces_of(board, hands, color)
        missing = [k for k in range(NUM_KINDS) if have[k] < full[k]]
        if missing:
            raise FenError(
                f"FEN: {_color_name(color)} lacks "
                + ", ".join(f"{full[k] - have[k]} {_piece_name(k)}" for k in missing)
                + f" during the setup (drafting {drafting_text!r}); nothing has left the game "
                f"before play, so the board and the hand hold all of the {mode.name} set"
            )


def parse_fen(
    text: str, max_move_number: int = MAX_MOVE_NUMBER
) -> tuple[
    Board,
    Hands,
    tuple[tuple[int, ...], tuple[int, ...]],
    int,
    int,
    list[bool],
    int,
]:
    """(board, hands, hand order, side to move, mode code, drafting, move number)."""
    odd = _NOT_A_SPACE.search(text)
    if odd:
        raise FenError(
            f"FEN: {odd.group()!r} at position {odd.start()}; the 6 fields are separated by "
            "single spaces"
        )
    if text != text.strip(" ") or "  " in text:
        raise FenError(
            "FEN: the 6 fields are separated by single spaces, with none before the first "
            "field or after the last"
        )
    fields = text.split(" ")
    if len(fields) != 6:
        raise FenError(
            f"a Gungi FEN has 6 fields (board, hands, side, mode, drafting, move number), "
            f"got {len(fields)}"
        )
    board_text, hands_text, side_text, mode_text, drafting_text, number_text = fields
    board = _read_board(board_text)
    for sq, stack in enumerate(board):
        if any(p >> 1 == MARSHAL for p in stack[:-1]):
            raise FenError(f"FEN board: a piece is stacked on a Marshal (square index {sq})")
    hands, orders = _read_hands(hands_text)
    if side_text not in ("w", "b"):
        raise FenError(f"FEN side to move: 'w' or 'b', got {side_text!r}")
    if mode_text not in ("0", "1", "2", "3"):
        raise FenError(
            f"FEN mode: 0-3 (intro, beginner, intermediate, advanced), got {mode_text!r}"
        )
    if drafting_text not in ("wb", "w", "b", "-"):
        raise FenError(f"FEN drafting: wb, w, b or -, got {drafting_text!r}")
    if not _MOVE_NUMBER.fullmatch(number_text) or int(number_text) > max_move_number:
        bound = _BOUND_TEXT.get(max_move_number, str(max_move_number))
        raise FenError(
            f"FEN move number: a whole number from 1 to {bound}, in ASCII digits without "
            f"leading zeros; got {number_text!r}"
        )
    mode = MODE_BY_CODE[int(mode_text)]
    _check_piece_set(board, hands, mode)
    for stack in board:
        if len(stack) > mode.stack_limit:
            raise FenError(
                f"FEN board: a tower of {len(stack)} exceeds the {mode.name} stack limit "
                f"{mode.stack_limit}"
            )
    side = WHITE if side_text == "w" else BLACK
    drafting = [drafting_text in ("wb", "w"), drafting_text in ("wb", "b")]
    if drafting_text != "-":
        _check_setup(board, hands, side, mode, drafting, drafting_text)
    return (board, hands, orders, side, int(mode_text), drafting, int(number_text))
