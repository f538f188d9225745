"""Gungi records as gungi.js (and gungi.io, which uses it) writes them: its move text and PGN.

gungi.js (https://github.com/jwyce/gungi.js) shares our FEN (:mod:`sengoku.games.gungi.fen`)
but writes moves its own way, a square as ``rank-file-tier`` in brackets (ours is
``column-row-tier``; the same square, the first two numbers swapped)::

    兵(7-1-1)(6-1-1)        a move from 7-1-1 to 6-1-1        ours: 1-6-1 兵(1-7)
    槍(8-5-1)(7-5-2)付      a stack (tsuke)                   ours: 5-7-2 槍(5-8)付
    小(7-5-2)取(5-5-1)      a capture: 取 before the landing  ours: 5-5-1 小(5-7)取
    新小(7-5-2)付           a new piece (arata) on a tower    ours: 5-7-2 小新
    謀(4-9-2)(5-8-3)返兵    a betrayal, naming turned kinds   ours: 8-5-3 謀(9-4)付 返兵1
    新帥(7-9-1)終           a player's last setup placement   ours: the placement, then 済み

and it appends ``#`` to a move that captures a Marshal or leaves the opponent in check with
no escape, ``=`` to one that ends the game without a winner (no escape but not in check,
the same board a fourth time, only two Marshals left apart). Its PGN (``loadPgn`` and
``pgn()``) is that move text with move numbers (``1.`` before White's move, ``1...`` when a
number starts with Black's), ``{comments}`` after moves, six moves a line by default.

What does not map is refused, naming the move and the difference:

* gungi.js has no Done (済み): a player's last placement carries 終, and Black's 終 ends the
  setup at once. Our Done is a turn of its own, so importing inserts it at the player's next
  turn (White's after Black's next placement, Black's at once), and exporting moves it back
  onto the player's last placement; a Black Done after a White placement that followed
  Black's last placement has no gungi.js form (gungi.js would already be playing).
* gungi.js always lets White begin, and plays our default options: ``first_player=black``
  and any other option away from its default are refused on export.
* gungi.js also ends a game on the same *board* a fourth time (hands and side to move
  ignored) and when only the two Marshals are left apart; a record that plays on after that
  is refused. A move legal in gungi.js but not under our rules is refused with our reason.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sengoku.core.game import SengokuError
from sengoku.games.gungi.move import DONE, Move
from sengoku.games.gungi.pieces import (
    BLACK,
    COLOR_NAMES,
    KIND_BY_KANJI,
    MARSHAL,
    NUM_KINDS,
    PIECES,
    WHITE,
)
from sengoku.games.gungi.setup import SETUP

if TYPE_CHECKING:
    from sengoku.core.record import GameRecord
    from sengoku.games.gungi.state import GungiState

#: gungi.js's starting positions (its README and ``utils``), one per mode: ours are the same.
INTRO_POSITION = "3img3/1s2n2s1/d1fwdwf1d/9/9/9/D1FWDWF1D/1S2N2S1/3GMI3 J2N2R2D1/j2n2r2d1 w 0 - 1"
BEGINNER_POSITION = (
    "3img3/1ra1n1as1/d1fwdwf1d/9/9/9/D1FWDWF1D/1SA1N1AR1/3GMI3 J2N2S1R1D1/j2n2s1r1d1 w 1 - 1"
)
INTERMEDIATE_POSITION = (
    "9/9/9/9/9/9/9/9/9 M1G1I1J2W2N3R2S2F2D4C1A2K1T1/m1g1i1j2w2n3r2s2f2d4c1a2k1t1 w 2 wb 1"
)
ADVANCED_POSITION = (
    "9/9/9/9/9/9/9/9/9 M1G1I1J2W2N3R2S2F2D4C1A2K1T1/m1g1i1j2w2n3r2s2f2d4c1a2k1t1 w 3 wb 1"
)

NEW, CAPTURE, STACK, BETRAY, FINAL = "新", "取", "付", "返", "終"
CHECKMATE, DRAW = "#", "="
_KANJI = "".join(p.kanji for p in PIECES)
_SQUARE = r"\(([1-9])-([1-9])-([1-9])\)"
_MOVE = re.compile(
    rf"(?P<new>{NEW})?(?P<piece>[{_KANJI}])(?:{_SQUARE})?(?P<capture>{CAPTURE})?{_SQUARE}"
    rf"(?P<mark>{STACK}|{BETRAY}[{_KANJI}]+)?(?P<final>{FINAL})?(?P<end>[{CHECKMATE}{DRAW}])?"
)
_MOVE_NUMBER = re.compile(r"\d+\.+")


class GungiJsError(SengokuError):
    """gungi.js text that is malformed, or names a move that does not map; says which."""


@dataclass(frozen=True)
class GungiJsMove:
    """One gungi.js move, read from its text (squares as gungi.js writes them)."""

    piece: int
    origin: tuple[int, int, int] | None  # (rank, file, tier); None for a new piece
    capture: bool
    to: tuple[int, int, int]
    stack: bool
    betrayed: tuple[int, ...]  # the kinds a betrayal turns, in gungi.js's order
    final: bool  # 終: the player's last setup placement
    end: str  # '#', '=' or ''

    @property
    def core(self) -> str:
        """The text without 終 and the game-end mark (what names the move)."""
        return _text(self.piece, self.origin, self.capture, self.to, self.stack, self.betrayed)


def parse_gungijs_move(text: str) -> GungiJsMove:
    """Read gungi.js move text (syntax only: :func:`find_move` finds the move it names)."""
    if not isinstance(text, str):
        raise GungiJsError(f"gungi.js move text is a string, not {type(text).__name__}")
    m = _MOVE.fullmatch(text)
    if m is None:
        raise GungiJsError(
            f"{text!r} is not gungi.js move text: it reads piece(rank-file-tier)(rank-file-tier), "
            "e.g. '兵(7-1-1)(6-1-1)', '小(7-5-2)取(5-5-1)', '新帥(7-9-1)終'"
        )
    groups = m.groups()
    new = m.group("new") is not None
    has_origin = groups[2] is not None
    if new == has_origin:
        raise GungiJsError(
            f"{text!r}: a new piece (新) names no origin, and a move on the board must"
        )
    origin = (int(groups[2]), int(groups[3]), int(groups[4])) if has_origin else None
    to = (int(groups[6]), int(groups[7]), int(groups[8]))
    mark = m.group("mark") or ""
    if new and m.group("capture"):
        raise GungiJsError(f"{text!r}: a new piece never captures (取)")
    return GungiJsMove(
        piece=KIND_BY_KANJI[m.group("piece")],
        origin=origin,
        capture=m.group("capture") is not None,
        to=to,
        stack=mark == STACK,
        betrayed=tuple(KIND_BY_KANJI[k] for k in mark[1:]) if mark.startswith(BETRAY) else (),
        final=m.group("final") is not None,
        end=m.group("end") or "",
    )


def _square(sq: int, tier: int) -> tuple[int, int, int]:
    """Our square index (row by row from column 9 of row 1) as gungi.js's (rank, file, tier)."""
    return (sq // 9 + 1, 9 - sq % 9, tier)


def _text(
    piece: int,
    origin: tuple[int, int, int] | None,
    capture: bool,
    to: tuple[int, int, int],
    stack: bool,
    betrayed: Sequence[int],
) -> str:
    def sq(s: tuple[int, int, int]) -> str:
        return f"({s[0]}-{s[1]}-{s[2]})"

    text = (NEW if origin is None else "") + PIECES[piece].kanji
    text += (sq(origin) if origin else "") + (CAPTURE if capture else "") + sq(to)
    if betrayed:
        return text + BETRAY + "".join(PIECES[k].kanji for k in betrayed)
    return text + (STACK if stack else "")


def to_gungijs_move(state: GungiState, move: Move, *, final: bool = False) -> str:
    """``move`` (legal in ``state``) as gungi.js writes it, without the game-end mark.

    ``final`` adds 終 (the player's last setup placement). Done has no text of its own in
    gungi.js (see :func:`export_moves`).
    """
    if move.is_done:
        raise GungiJsError(
            "Done (済み) has no gungi.js text: gungi.js marks the last placement 終 instead"
        )
    dest = move.destination
    assert dest is not None
    to = _square(dest, move.tier)
    turned = [kind for _tier, kind in move.turned]  # bottom first, as gungi.js lists them
    if move.is_drop:
        # gungi.js marks 付 on any landing above tier 1 ... (a drop's tier counts as 0)
        text = _text(move.kind, None, False, to, move.tier != 1, turned)
    else:
        origin = move.origin
        assert origin is not None
        height = len(state.board[origin])
        # ... and on a capture that lands above the mover's old tier (its own pieces under it).
        stack = move.tier > 1 and (not move.capture or move.tier > height)
        text = _text(move.kind, _square(origin, height), move.capture, to, stack, turned)
    return text + (FINAL if final else "")


def find_move(state: GungiState, text: str) -> Move:
    """The legal move of ``state`` that gungi.js move text names (Done excluded)."""
    parsed = parse_gungijs_move(text)
    return _find(state, parsed, text)


def _find(state: GungiState, parsed: GungiJsMove, text: str) -> Move:
    core = parsed.core
    # gungi.js lists a betrayal's combinations piece by piece, bottom first, and takes the
    # first that matches: of two turned-kind lists that read the same, the lower pieces.
    for move in sorted(state.legal_actions(), key=lambda m: [t for t, _k in m.turned]):
        if not move.is_done and to_gungijs_move(state, move) == core:
            return move
    raise GungiJsError(f"{text!r} does not map: {_why_not(state, parsed)}")


def _why_not(state: GungiState, parsed: GungiJsMove) -> str:
    """Why no move of ours reads as ``parsed``: our rules' reason, or the difference."""
    from sengoku.games.gungi.illegal import why_illegal
    from sengoku.games.gungi.move import drop_code, move_code

    color = COLOR_NAMES[state.to_move]
    if state.is_terminal():
        outcome = state.outcome()
        return f"the game is over under Sengoku's rules ({outcome.reason if outcome else ''})"
    rank, file, tier = parsed.to
    if max(tier, parsed.origin[2] if parsed.origin else 1) > 3:
        return "tier above 3: towers are at most 3 high"
    dest = (rank - 1) * 9 + (9 - file)
    if parsed.origin is None:
        candidate = Move(drop_code(parsed.piece, dest, 0, tier))
    else:
        r0, f0, t0 = parsed.origin
        frm = (r0 - 1) * 9 + (9 - f0)
        if len(state.board[frm]) != t0:
            return (
                f"{color} to move, and the tower at gungi.js {r0}-{f0} is "
                f"{len(state.board[frm])} high, not {t0}"
            )
        candidate = Move(move_code(frm, dest, int(parsed.capture), 0, parsed.piece, tier))
        if parsed.piece == MARSHAL and tier > 1 and not parsed.capture:
            if not state.mode.marshal_may_stack:
                # gungi.js before 3.4 let the Marshal stack in every mode (its README's lists)
                return (
                    f"in {state.mode.name} the Marshal never stacks (docs/rules/gungi.md, "
                    "Capturing and stacking); older gungi.js let it"
                )
    if candidate.code in state.legal_codes():
        if parsed.betrayed:
            return (
                "Sengoku's rules allow no betrayal turning exactly "
                + "".join(PIECES[k].kanji for k in parsed.betrayed)
                + " there (docs/rules/gungi.md, Betrayal)"
            )
        return f"the tier or the marks (付, 取) do not match the position ({color} to move)"
    return f"{color} to move; Sengoku's rules (docs/rules/gungi.md) refuse it: " + why_illegal(
        state, candidate
    )


def import_moves(state: GungiState, texts: Iterable[str], *, first: int = 1) -> list[Move]:
    """Play gungi.js moves on ``state`` (in place); our actions, Done inserted where it falls.

    ``first`` numbers the first text in error messages. A player's 終 becomes our Done at
    that player's next turn: Black's at once (it ends the setup: White, if still placing,
    declares Done first), White's after Black's next placement.
    """
    played: list[Move] = []
    pending: set[int] = set()  # players whose 終 is read but whose Done is not yet played

    def done(color: int) -> None:
        state.apply(DONE)
        played.append(DONE)
        pending.discard(color)

    for number, text in enumerate(texts, start=first):
        while state.phase == SETUP and state.to_move in pending:
            done(state.to_move)
        try:
            parsed = parse_gungijs_move(text)
            move = _find(state, parsed, text)
        except GungiJsError as exc:
            raise GungiJsError(f"gungi.js move {number}: {exc}") from None
        color = state.to_move
        in_setup = state.phase == SETUP
        if parsed.final and not in_setup:
            raise GungiJsError(
                f"gungi.js move {number} {text!r}: 終 ends a player's setup, and the game is in play"
            )
        state.apply(move)
        played.append(move)
        # gungi.js forces 終 on a player's last piece; read it so even where it is left out.
        if in_setup and (parsed.final or not any(state.hands[color])):
            pending.add(color)
            if color == BLACK:  # gungi.js: Black's 終 ends the setup at once
                while state.phase == SETUP:
                    done(state.to_move)
    return played


@dataclass
class _JsClock:
    """gungi.js's own count of the setup and move numbers (its ``makeMove``)."""

    drafting: list[bool]
    number: int
    turn: int

    def play(self, color: int, final: bool) -> None:
        if final:
            self.drafting[color] = False
            if color == BLACK:
                self.drafting[WHITE] = False
        w, b = self.drafting
        if color == BLACK and (w or not b):
            self.number += 1
        if color == WHITE and not w and not b and final:
            self.number += 1
        if w == b:
            if not final or color != WHITE:
                self.turn = 1 - color
        elif not b and self.turn == BLACK:
            self.turn = WHITE
        elif not w and self.turn == WHITE:
            self.turn = BLACK


@dataclass(frozen=True)
class ExportedMove:
    """One gungi.js move: its text (with 終 and the game-end mark), who played it, and the
    move number gungi.js shows before it."""

    text: str
    color: int
    number: int


def export_moves(start: GungiState, actions: Sequence[Move]) -> list[ExportedMove]:
    """Our ``actions`` from ``start`` (not changed) as gungi.js moves; refuses what does not map."""
    _check_options(start)
    state = start.clone()
    in_setup = state.phase == SETUP
    clock = _JsClock(list(state.drafting) if in_setup else [False, False], 0, state.to_move)
    clock.number = state.move_number
    # Which placements are final: the player's next action is Done, or the hand is empty.
    finals: set[int] = set()
    sim = start.clone()
    last_placement: dict[int, int] = {}
    for i, move in enumerate(actions):
        color = sim.to_move
        if move.is_done:
            if color not in last_placement:
                raise GungiJsError(
                    f"move {i + 1} (済み): gungi.js has no Done of its own; it marks the "
                    f"player's last placement 終, and {COLOR_NAMES[color]} placed nothing here"
                )
            finals.add(last_placement.pop(color))
        elif sim.phase == SETUP:
            last_placement[color] = i
        try:
            sim.apply(move)
        except SengokuError as exc:
            raise GungiJsError(f"move {i + 1} ({move}) does not replay: {exc}") from None
        if not move.is_done and sim.phase == SETUP and not any(sim.hands[color]):
            finals.add(i)
    out: list[ExportedMove] = []
    boards: Counter[str] = Counter()
    over = ""
    for i, move in enumerate(actions):
        color = state.to_move
        if move.is_done:
            state.apply(move)
            continue
        if over:
            raise GungiJsError(
                f"move {i + 1} ({move}): gungi.js ended the game before it ({over}); "
                "Sengoku's rules play on"
            )
        js_setup = clock.drafting[WHITE] or clock.drafting[BLACK]
        if (state.phase == SETUP) != js_setup or color != clock.turn:
            raise GungiJsError(
                f"move {i + 1} ({move}): in gungi.js "
                + (
                    f"{COLOR_NAMES[clock.turn]} moves here"
                    if color != clock.turn
                    else "the setup is over here: Black's final placement (終) ends it at "
                    "once, so a Done after the opponent's placement has no gungi.js form"
                )
            )
        final = i in finals
        text = to_gungijs_move(state, move, final=final)
        boards[state.fen().split(" ", 1)[0]] += 1
        out_number = clock.number
        state.apply(move)
        clock.play(color, final)
        end, over = _game_end(state, boards, move)
        out.append(ExportedMove(text + end, color, out_number))
    return out


def _check_options(state: GungiState) -> None:
    from sengoku.games.gungi.game import Gungi

    for name, option in Gungi.options.items():
        value = state.options.get(name, option.default)
        if name in ("mode", "first_player") or value == option.default:
            continue
        raise GungiJsError(
            f"option {name}={value!r}: gungi.js plays {name}={option.default!r} only"
        )
    if state.first != WHITE:
        raise GungiJsError("Black moves first in this game; in gungi.js White always does")


def _game_end(state: GungiState, boards: Counter[str], move: Move) -> tuple[str, str]:
    """gungi.js's mark for the move just played, and why its game is over (or '')."""
    from sengoku.games.gungi.mate import is_mate, marshal_capturable

    outcome = state.outcome()
    if outcome is not None and outcome.reason == "marshal_captured":
        return CHECKMATE, "a Marshal is captured"
    if state.phase == SETUP:
        return "", ""
    color = state.to_move
    board = state.fen().split(" ", 1)[0]
    mated = is_mate(state, color)
    if mated and marshal_capturable(state, color):
        return CHECKMATE, "checkmate"
    if mated:
        return DRAW, "stalemate"
    if boards[board] + 1 == 4:
        return DRAW, "the same board a fourth time"
    if _bare_marshals(state):
        return DRAW, "only the two Marshals are left, apart"
    return "", ""


def _bare_marshals(state: GungiState) -> bool:
    if any(state.hands[c][k] for c in (WHITE, BLACK) for k in range(NUM_KINDS) if k != MARSHAL):
        return False
    pieces = [(sq, p) for sq, tower in enumerate(state.board) for p in tower]
    if len(pieces) != 2 or any(p >> 1 != MARSHAL for _sq, p in pieces):
        return False
    (a, _), (b, _) = pieces
    return max(abs(a // 9 - b // 9), abs(a % 9 - b % 9)) > 1


# -- PGN ---------------------------------------------------------------------------------


@dataclass
class GungiJsGame:
    """A game read from gungi.js PGN: our record, and the comments (after move index)."""

    record: GameRecord
    comments: dict[int, str] = field(default_factory=dict)


def split_pgn(pgn: str, newline: str = "\n") -> tuple[list[str], dict[int, str]]:
    """gungi.js PGN's move texts and comments (keyed by the index of the move before them),
    read as its ``loadPgn`` reads them: move numbers are dropped wherever they stand."""
    if not isinstance(pgn, str):
        raise GungiJsError(f"gungi.js PGN is a string, not {type(pgn).__name__}")
    text = _MOVE_NUMBER.sub("", " ".join(pgn.split(newline))).strip()
    moves: list[str] = []
    comments: dict[int, str] = {}
    while text:
        if text.startswith("{") and "}" in text:
            end = text.index("}")
            comment = text[1:end].strip()
            if moves and comment:
                comments[len(moves) - 1] = comment
            text = text[end + 1 :].strip()
            continue
        token = text.split(maxsplit=1)[0]
        if not token.startswith("{"):
            moves.append(token)
        text = text[len(token) :].strip()
    return moves, comments


def load_pgn(pgn: str, fen: str = ADVANCED_POSITION, newline: str = "\n") -> GungiJsGame:
    """gungi.js PGN (``pgn()``'s output, or what ``loadPgn`` reads) as our record.

    ``fen`` is the starting position, as for gungi.js's ``loadPgn`` (its default too, the
    Advanced setup); a record starts from a mode's own starting position, so another FEN is
    refused (:func:`import_moves` plays moves on any position).
    """
    from sengoku.core.record import GameRecord
    from sengoku.games.gungi.game import Gungi

    game = Gungi()
    start = game.from_fen(fen)
    mode = start.options["mode"]
    state = game.new_state(0, mode=mode, first_player="white")
    if game.to_fen(state) != game.to_fen(start):
        raise GungiJsError(
            f"a record starts from a mode's starting position; {fen!r} is not {mode}'s "
            f"({game.to_fen(state)!r})"
        )
    record = GameRecord(game.name, game.version, dict(state.options), 0, [])
    moves, comments = split_pgn(pgn, newline)
    for move in import_moves(state.clone(), moves):
        record.play(state, move)
    return GungiJsGame(record, comments)


def dump_pgn(
    record: GameRecord,
    *,
    max_width: int = 6,
    newline: str = "\n",
    comments: dict[int, str] | None = None,
) -> str:
    """Our Gungi record as gungi.js's ``pgn()`` writes it (``maxWidth`` moves a line,
    ``newline``, and ``comments`` after the moves they follow, as ``withComments``)."""
    if record.game != "gungi":
        raise GungiJsError(f"gungi.js records Gungi only, not {record.game}")
    if max_width < 1:
        raise GungiJsError(f"max_width is at least 1, not {max_width}")
    state = record.start_state()
    replay = state.clone()
    actions = []
    for number, action in enumerate(record.actions, start=1):
        try:
            move = replay.game.parse_action(replay, action)
            replay.apply(move)
        except SengokuError as exc:
            raise GungiJsError(f"move {number} ({action!r}) does not replay: {exc}") from None
        actions.append(move)
    text = ""
    previous = 0
    for i, move in enumerate(export_moves(state, actions)):  # type: ignore[arg-type]
        if move.number != previous:
            text += f"{move.number}{'.' if move.color == WHITE else '...'} "
            previous = move.number
        text += move.text + " "
        if comments and i in comments:
            text += "{" + comments[i] + "} "
        if (i + 1) % max_width == 0:
            text += newline
    return text.replace("  ", " ").strip()
