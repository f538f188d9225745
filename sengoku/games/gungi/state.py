"""A Gungi position, make/unmake, and the contract; the rules live in modules named for them.

``GungiState`` keeps the position (board, hands, side to move, setup progress, the positions
seen), plays moves in place (``make``/``unmake``) and keeps the :class:`State` contract.
Each rule is a module of functions taking the state, named as ``docs/rules/gungi.md`` names
it (see ``docs/architecture.md``, "Where each rule lives"):

* :mod:`~sengoku.games.gungi.movement` -- pieces and reach (board moves);
* :mod:`~sengoku.games.gungi.stacking` -- capturing and stacking (tsuke);
* :mod:`~sengoku.games.gungi.new_pieces` -- new pieces (新, arata): drops, the drop zone;
* :mod:`~sengoku.games.gungi.betrayal` -- betrayal (寝返り);
* :mod:`~sengoku.games.gungi.setup` -- the setup phase, its placements and Done;
* :mod:`~sengoku.games.gungi.mate` -- check, mate, the ``self_check`` option;
* :mod:`~sengoku.games.gungi.the_end` -- the Marshal captured, mate, repetition;
* :mod:`~sengoku.games.gungi.zobrist` -- the position hash;
* :mod:`~sengoku.games.gungi.illegal` -- why a move is illegal.

The fast paths work on integer move codes (see :mod:`sengoku.games.gungi.move`): move
generation appends codes to a list, ``make``/``unmake`` change the board in place for
search and perft, and :class:`Move` objects are made (interned) only for the contract.
Towers are tuples, so :meth:`GungiState.clone` copies 81 references.

What the position derives and keeps for the next question (the legal list, the noisy
codes, the mate test's pseudo-legal moves, the FEN...) is one typed part, :class:`Memo`,
each entry tagged with the hash it was found for; the tables of the ``archer_blockers``
option (``rays``, ``attacks``, ``attack_sources``) are read by movement and mate.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypedDict, cast

import sengoku.games.gungi.betrayal as betrayal
from sengoku.core.flow import Flow, Phase
from sengoku.core.game import TERMINAL, Event, Outcome, State, event
from sengoku.core.sentence import said, say
from sengoku.core.substate import Part
from sengoku.games.gungi.illegal import why_illegal
from sengoku.games.gungi.mate import ATTACK_SOURCES as ATTACK_SOURCES
from sengoku.games.gungi.mate import is_mate, marshal_capturable, without_self_checks
from sengoku.games.gungi.move import DONE_INT, INTERNED, MOVE_SPACE, Move
from sengoku.games.gungi.movement import ALL_SQUARES, gen_board
from sengoku.games.gungi.new_pieces import gen_drops
from sengoku.games.gungi.pieces import (
    ATTACK_TABLES,
    BLACK,
    COLOR_NAMES,
    MARSHAL,
    MODES,
    NUM_KINDS,
    PIECES,
    RAY_TABLES,
    WHITE,
    Mode,
    square_name,
)
from sengoku.games.gungi.setup import PLAY as PLAY
from sengoku.games.gungi.setup import SETUP as SETUP
from sengoku.games.gungi.setup import counts_a_move, declare_done, gen_setup, setup_key
from sengoku.games.gungi.stacking import is_noisy_code
from sengoku.games.gungi.the_end import finish, judge
from sengoku.games.gungi.zobrist import BLACK_TO_MOVE_KEY, hand_key, position_key, tower_key

if TYPE_CHECKING:
    from sengoku.games.gungi.game import Gungi

# --- native core hook (issue 21): when the C++ core is built, legal codes, noisy codes, the
# mate test and perft come from it (sengoku/games/gungi/native_core.py); this module stays
# the reference engine. Tests set _NATIVE = False to ask the Python engine itself.
import sengoku.games.gungi.native_core as _native_core  # noqa: E402
from sengoku.games.gungi.native_core import get_ident as _get_ident  # noqa: E402
from sengoku.games.gungi.native_core import scratch_entry as _native_entry  # noqa: E402

_NATIVE = _native_core.native_available()


def native_in_use() -> bool:
    """Whether moves are played by the native core now (read on each call: a test may turn
    the core off)."""
    return _NATIVE


# JSON pieces of the view, made once: square names and (name, kanji, colour) per piece.
SQUARE_NAMES = [square_name(sq) for sq in range(81)]
PIECE_JSON = [(PIECES[p >> 1].name, PIECES[p >> 1].kanji, COLOR_NAMES[p & 1]) for p in range(28)]


# "White plays " / "Black plays ": the start of each move event's message.
_PLAYS = tuple(f"{name.title()} plays " for name in COLOR_NAMES)


#: What ``make`` returns and ``unmake`` needs: (code, the towers changed as (square, tower
#: before), the hand counts changed as (kind, count before), the mover, the Marshal squares
#: before, (drafting, phase, move number) before, whether the opposing Marshal was captured,
#: the pieces that left the game).
Undo = tuple[
    int,
    list[tuple[int, tuple[int, ...]]],
    list[tuple[int, int]],
    int,
    tuple[int, int],
    tuple[tuple[bool, bool], str, int],
    bool,
    list[int],
]


def _removed_event(piece: int) -> Event:
    """The event for a piece that leaves the game (captured, or turned by a betrayal)."""
    return event(
        "piece_removed",
        seat=piece & 1,
        piece=PIECES[piece >> 1].name,
        message=f"{COLOR_NAMES[piece & 1].title()}'s {PIECES[piece >> 1].english} leaves the game",
    )


#: ``_removed_event`` of each piece code, made once: a move copies the one it needs (a
#: capture a ply or so, each a call and a message formatted again).
_REMOVED_EVENTS = tuple(_removed_event(piece) for piece in range(2 * len(PIECES)))


class PieceView(TypedDict):
    """One piece of a tower in the view (``view.schema.json``: board.items.tower.items)."""

    piece: str
    kanji: str
    color: str


class SquareView(TypedDict):
    """An occupied square and its tower, bottom first (``view.schema.json``: board.items)."""

    square: str
    tower: list[PieceView]


class HandsView(TypedDict):
    """Pieces in hand by colour, piece id -> count (``view.schema.json``: hands)."""

    white: dict[str, int]
    black: dict[str, int]


class GungiView(TypedDict):
    """What ``GungiState.view`` returns: the shape ``view.schema.json`` publishes (a test
    holds the two together)."""

    game: Literal["gungi"]
    seat: int | None
    mode: str
    phase: str
    to_move: str
    current_player: int
    drafting: list[str]
    move_number: int
    ply: int
    board: list[SquareView]
    hands: HandsView
    marshal_capturable: list[bool]
    fen: str
    outcome: dict[str, Any] | None


@dataclass(slots=True)
class Memo(Part):
    """What a position derived and keeps for the next question, each entry with the hash
    (or key) of the position it holds for: a clone shares the entries (they are replaced,
    never changed in place), a move makes them stale by changing the hash."""

    #: (hash, the legal codes ascending); the list is shared: never changed in place.
    legal: tuple[int, list[int]] | None = None
    #: (hash, the noisy codes): a part of the legal list, for ``apply``'s check.
    noisy: tuple[int, list[int]] | None = None
    #: The mate test after each move finds whether the Marshal is exposed and may generate
    #: the next side's moves; the legal list reuses both (None: not generated). Written by
    #: :func:`~sengoku.games.gungi.mate.is_mate`.
    pseudo: tuple[int, list[int] | None, bool] | None = None
    #: ((hash, move number), the FEN).
    fen: tuple[tuple[int, int], str] | None = None
    #: (hash, legal moves per official text without and with the origin).
    notation: tuple[int, dict[str, int], dict[str, int]] | None = None
    #: (hash, whether each Marshal can be captured now).
    capturable: tuple[int, list[bool]] | None = None
    #: native core hook: (thread id, that thread's scratch entry for these rules); written
    #: by :mod:`~sengoku.games.gungi.native_core`.
    native: _native_core.Kept | None = None


class GungiState(State[Move]):
    """One Gungi position: board, hands, side to move, setup progress, history of positions."""

    __slots__ = (
        "game",
        "options",
        "num_players",
        "mode",
        "board",
        "hands",
        "hand_order",
        "to_move",
        "phase",
        "drafting",
        "first",
        "move_number",
        "ply",
        "hash",
        "seen",
        "marshal_at",
        "_outcome",
        "rays",
        "attacks",
        "attack_sources",
        "max_length",
        "memo",
    )

    def __init__(self, game: Gungi, options: dict[str, Any]) -> None:
        self.game = game
        self.options = options
        self.num_players = 2
        self.mode: Mode = MODES[options["mode"]]
        self.board: list[tuple[int, ...]] = [()] * 81
        self.hands: list[list[int]] = [[0] * NUM_KINDS, [0] * NUM_KINDS]
        # The order hand pieces are written in FEN (kept from the position's origin).
        self.hand_order: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        self.to_move = WHITE
        self.phase = PLAY
        self.drafting = [False, False]
        self.first = WHITE
        self.move_number = 1
        self.ply = 0
        self.hash = 0
        self.seen: dict[int, int] = {}
        self.marshal_at = [-1, -1]
        self._outcome: Outcome | None = None
        # The tables of the archer_blockers option: movement's rays, mate's attacks.
        self.rays = RAY_TABLES[options["archer_blockers"]]
        self.attacks = ATTACK_TABLES[options["archer_blockers"]]
        self.attack_sources = ATTACK_SOURCES[options["archer_blockers"]]
        self.max_length = game.max_game_length(**options)
        self.memo = Memo()

    # ------------------------------------------------------------------ bookkeeping
    def recompute(self) -> None:
        """Derive the hash, Marshal squares and position count from the position."""
        self.marshal_at = [-1, -1]
        for sq, tower in enumerate(self.board):
            for piece in tower:
                if piece >> 1 == MARSHAL:
                    self.marshal_at[piece & 1] = sq
        self.hash = position_key(self) ^ setup_key(self)

    @property
    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else self.to_move

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    # ------------------------------------------------------------------ generation
    def pseudo_codes(self) -> list[int]:
        """Every move the rules allow the side to move (self-check not considered)."""
        codes: list[int] = []
        color = self.to_move
        if self.phase == SETUP:
            gen_setup(self, codes, color)
            return codes
        gen_board(self, codes, color)
        gen_drops(self, codes, color)
        return codes

    def _legal_codes(self) -> list[int]:
        """Legal codes, sorted (ascending action_int); cached until the position changes."""
        if self._outcome is not None:
            return []
        cache = self.memo.legal
        if cache is not None and cache[0] == self.hash:
            return cache[1]
        if _NATIVE:  # native core hook
            codes = _native_core.legal_codes(self)
            self.memo.legal = (self.hash, codes)
            return codes
        pseudo = self.memo.pseudo
        exposed: bool | None = None
        if pseudo is not None and pseudo[0] == self.hash:
            exposed = pseudo[2]
            # A copy: the cache keeps its own list.
            codes = pseudo[1][:] if pseudo[1] is not None else self.pseudo_codes()
        else:
            codes = self.pseudo_codes()
        codes = without_self_checks(self, codes, exposed)
        codes.sort()
        self.memo.legal = (self.hash, codes)
        return codes

    def noisy_codes(self) -> list[int]:
        """The legal codes that capture or betray (turn enemy pieces), ascending: the legal
        codes so filtered, but where the legal list is not known yet only those moves are
        generated (quiescence search asks for nothing else)."""
        if self._outcome is not None:
            return []
        cache = self.memo.legal
        if (cache is not None and cache[0] == self.hash) or self.phase == SETUP:
            return [code for code in self._legal_codes() if is_noisy_code(code)]
        if _NATIVE:  # native core hook
            native_codes = _native_core.noisy_codes(self)
            self.memo.noisy = (self.hash, native_codes)
            return native_codes
        pseudo = self.memo.pseudo
        exposed = pseudo[2] if pseudo is not None and pseudo[0] == self.hash else None
        codes: list[int] = []
        color = self.to_move
        gen_board(self, codes, color, ALL_SQUARES, False)
        gen_drops(self, codes, color, False)
        codes = without_self_checks(self, codes, exposed)
        codes.sort()
        self.memo.noisy = (self.hash, codes)
        return codes

    def notation_counts(self) -> tuple[dict[str, int], dict[str, int]]:
        """How many legal moves share each official text, without and with the origin
        (cached per position: formatting a whole legal list stays linear)."""
        cached = self.memo.notation
        if cached is not None and cached[0] == self.hash and self._outcome is None:
            return cached[1], cached[2]
        short: dict[str, int] = {}
        with_origin: dict[str, int] = {}
        for move in self.legal_actions():
            text = move.official()
            short[text] = short.get(text, 0) + 1
            text = move.official(with_origin=True)
            with_origin[text] = with_origin.get(text, 0) + 1
        self.memo.notation = (self.hash, short, with_origin)
        return short, with_origin

    def legal_codes(self) -> list[int]:
        """The legal move codes, ascending: ``legal_actions`` without making Move objects
        (for search code that filters them). The list is cached: do not change it."""
        return self._legal_codes()

    def legal_actions(self) -> list[Move]:
        if _NATIVE:  # native core hook: the Move list is made in the core
            if self._outcome is not None:
                return []
            # native_core.legal_moves written out (one Python call fewer on every ply): this
            # thread's scratch entry, reloaded if it holds another position.
            kept = self.memo.native
            entry = kept[1] if kept is not None and kept[0] == _get_ident() else _native_entry(self)
            now = (self.hash, self.ply, self.move_number, self.first)
            if entry[1] != now:
                _native_core.load(entry[0], self)
                entry[1] = now
            moves: list[Move] = entry[0].legal_moves()
            return moves
        codes = self._legal_codes()
        try:  # every code seen before: one C-level pass over the intern table
            return list(map(INTERNED.__getitem__, codes))
        except KeyError:
            interned = INTERNED
            return [interned.get(c) or Move(c) for c in codes]

    # ------------------------------------------------------------------ attack and mate
    def marshal_capturable(self, color: int) -> bool:
        """Could the opponent capture ``color``'s Marshal with one move now? (mate.py)"""
        return marshal_capturable(self, color)

    def is_mate(self, color: int) -> bool:
        """Every move of ``color`` leaves its Marshal capturable (spec: mate; mate.py)."""
        if _NATIVE and color == self.to_move:  # native core hook
            return _native_core.is_mate(self, color)
        return is_mate(self, color)

    # ------------------------------------------------------------------ make / unmake
    def make(self, code: int) -> Undo:
        """Play a (pseudo-legal) code in place; returns what ``unmake`` needs.

        Index 6 of the result is True when the move captured the opposing Marshal.
        """
        board = self.board
        color = self.to_move
        hand = self.hands[color]
        key = self.hash ^ setup_key(self)
        action = code >> 14
        tier_kind_low = code & 0x3FFF
        kind = (tier_kind_low >> 2) & 15
        changed: list[tuple[int, tuple[int, ...]]] = []
        hand_changes: list[tuple[int, int]] = []
        captured: list[int] = []
        marshal_taken = False
        old_marshal = (self.marshal_at[0], self.marshal_at[1])
        old_drafting = (self.drafting[0], self.drafting[1])
        old_phase, old_move_number = self.phase, self.move_number
        if action == DONE_INT:
            next_color = declare_done(self, color)  # setup.py
        else:
            mask = action & 3
            if action < MOVE_SPACE:
                ft = action >> 3
                frm, to = divmod(ft, 81)
                source = board[frm]
                piece = source[-1]
                changed.append((frm, source))
                key ^= tower_key(frm, source)
                rest = source[:-1]
                board[frm] = rest
                key ^= tower_key(frm, rest)
                target = board[to]
                if action >> 2 & 1:  # capture: every enemy piece of the tower leaves
                    captured = [p for p in target if p & 1 != color]
                    new_tower = tuple(p for p in target if p & 1 == color) + (piece,)
                else:
                    new_tower = target + (piece,)
                if kind == MARSHAL:
                    self.marshal_at[color] = to
            else:
                to = ((action - MOVE_SPACE) >> 2) % 81
                target = board[to]
                piece = kind * 2 + color
                new_tower = target + (piece,)
                hand_changes.append((kind, hand[kind]))
                key ^= hand_key(color, kind, hand[kind])
                hand[kind] -= 1
                key ^= hand_key(color, kind, hand[kind])
                if kind == MARSHAL:
                    self.marshal_at[color] = to
            if mask:  # betrayal (betrayal.py): turned enemy pieces leave, hand pieces replace them
                new_tower, key = betrayal.turn(
                    code, color, new_tower, hand, captured, hand_changes, key
                )
            changed.append((to, target))
            key ^= tower_key(to, target) ^ tower_key(to, new_tower)
            board[to] = new_tower
            for p in captured:
                if p >> 1 == MARSHAL:
                    marshal_taken = True
                    self.marshal_at[p & 1] = -1
            next_color = 1 - color
            if self.phase == SETUP and not self.drafting[next_color]:
                next_color = color  # the other player is Done: keep placing alone
        if counts_a_move(action, color, old_phase, old_drafting, self.drafting):
            self.move_number += 1
        if next_color != color:
            key ^= BLACK_TO_MOVE_KEY
        self.to_move = next_color
        key ^= setup_key(self)
        self.hash = key
        self.ply += 1
        self.seen[key] = self.seen.get(key, 0) + 1
        return (
            code,
            changed,
            hand_changes,
            color,
            old_marshal,
            (old_drafting, old_phase, old_move_number),
            marshal_taken,
            captured,
        )

    def unmake(self, undo: Undo) -> None:
        _, changed, hand_changes, color, old_marshal, setup, _, _ = undo
        count = self.seen[self.hash] - 1
        if count:
            self.seen[self.hash] = count
        else:
            del self.seen[self.hash]
        hand = self.hands[color]
        key = self.hash ^ setup_key(self)
        for sq, tower in reversed(changed):
            key ^= tower_key(sq, self.board[sq]) ^ tower_key(sq, tower)
            self.board[sq] = tower
        for kind, count in reversed(hand_changes):
            key ^= hand_key(color, kind, hand[kind]) ^ hand_key(color, kind, count)
            hand[kind] = count
        if self.to_move != color:
            key ^= BLACK_TO_MOVE_KEY
        self.to_move = color
        self.marshal_at = [old_marshal[0], old_marshal[1]]
        (d0, d1), self.phase, self.move_number = setup
        self.drafting = [d0, d1]
        self.hash = key ^ setup_key(self)
        self.ply -= 1

    # ------------------------------------------------------------------ contract
    def why_illegal(self, action: object) -> str | None:
        """None if ``action`` is legal here, else the rule it breaks (illegal.py)."""
        if self._outcome is not None:
            return said(
                say("the game is over ({reason}); no more moves", reason=self._outcome.reason)
            )
        if not isinstance(action, Move):  # a caller's mistake, not a player's: English
            return f"{action!r} is not a Gungi move; use Gungi.parse_action"
        if self._is_legal_code(action.code):
            return None
        reason = why_illegal(self, action)
        return said(say("{move} is not legal here: {reason}", move=str(action), reason=reason))

    def _apply_python(self, action: Move) -> list[Event] | None:
        """``apply`` with the Python engine: the move's code is checked against the legal
        codes and made (``make``); None (nothing changed) if it is not legal."""
        if not isinstance(action, Move):
            return None
        code = action.code
        if not self._is_legal_code(code):
            return None
        mover = self.to_move
        phase_before = self.phase
        undo = self.make(code)
        self.memo.legal = None
        text = str(action)  # the kept text, made once per interned move (move.py)
        events: list[Event] = [
            event(
                "move",
                seat=mover,
                action=text,
                message=f"{COLOR_NAMES[mover].title()} plays {text}",
            )
        ]
        for piece in undo[7]:
            events.append(_removed_event(piece))
        if phase_before == SETUP and self.phase == PLAY:
            events.append(
                event("setup_over", message=f"Setup over; {COLOR_NAMES[self.to_move]} moves first")
            )
        result = judge(self, mover, undo[6])  # the_end.py
        if result is not None:
            finish(self, result, events)
        return events

    def _apply_native(self, action: Move) -> list[Event] | None:
        """``apply`` with the native core: the core checks the code against the legal list
        it made, changes the board, hands, drafting, Marshal squares and ``seen`` in place and
        judges the move; only the scalar fields and the events are made here. The Python
        judge is asked only when the core finds the game over (it then names the outcome).
        None (nothing changed) if the core finds the move illegal. Without the core (not
        built, or turned off by a test: ``_NATIVE`` is read on each move), the Python
        engine plays it."""
        if self._outcome is not None:  # the flow's first step, kept here (guards=True)
            return None
        if not _NATIVE:
            python = self._apply_python(action)
            if python is not None:
                python += self._end_if_too_long(self.ply)
            return python
        if not isinstance(action, Move):
            return None
        mover = self.to_move
        phase_before = self.phase
        if phase_before == SETUP:
            drafting_before = (self.drafting[0], self.drafting[1])
        # native_core.apply_to and mark written out (one call, not three, on every move):
        # this thread's scratch entry, reloaded if it holds another position.
        kept = self.memo.native
        entry = kept[1] if kept is not None and kept[0] == _get_ident() else _native_entry(self)
        now = (self.hash, self.ply, self.move_number, self.first)
        if entry[1] != now:
            _native_core.load(entry[0], self)
            entry[1] = now
        played = entry[0].apply_to(
            action.code, self.board, self.hands, self.drafting, self.marshal_at, self.seen
        )
        if played is None:
            return None
        self.hash, self.to_move, in_setup, self.ply, captured, reason = played
        if phase_before == SETUP:
            if not in_setup:
                self.phase = PLAY
            if counts_a_move(action.code >> 14, mover, SETUP, drafting_before, self.drafting):
                self.move_number += 1
        elif mover == BLACK:
            self.move_number += 1
        # The scratch position holds the position after the move: marked as this state's.
        entry[1] = (self.hash, self.ply, self.move_number, self.first)
        self.memo.legal = None
        text = str(action)  # the kept text, made once per interned move (move.py)
        # event("move", ...) written out: the same dict, one call fewer on every move.
        events: list[Event] = [
            {
                "type": "move",
                "audience": None,
                "seat": mover,
                "action": text,
                "message": _PLAYS[mover] + text,
            }
        ]
        for piece in captured:
            events.append(_REMOVED_EVENTS[piece].copy())  # each event a dict of its own
        if phase_before == SETUP and self.phase == PLAY:
            events.append(
                event("setup_over", message=f"Setup over; {COLOR_NAMES[self.to_move]} moves first")
            )
        if reason:  # the core's judge found an end: the_end.py names it
            result = judge(self, mover, reason == _native_core.MARSHAL_CAPTURED)
            if result is not None:
                finish(self, result, events)
        # The flow's length guard, kept here (guards=True): asked only at the limit the state
        # kept (``max_length``, which the native core reads too), or when the game's
        # ``length_limit`` was changed since (as tests/core/test_endings.py does).
        if self.ply >= self.max_length or self.game.length_limit != self.max_length:
            events += self._end_if_too_long(self.ply)
        return events

    #: Gungi's turn as a flow (core/flow.py): one phase, a move of the side to move
    #: (``make`` knows a setup placement, Done and a move of play apart). Its ``do`` judges
    #: legality itself (the native core checks the move against the legal list it made),
    #: so a move is checked once. Setup and play are one phase with no ``end`` or ``next``
    #: in the table: the setup's last Done moves the game to play inside the make
    #: (``Position::make``; ``setup.declare_done`` in the Python engine), since a phase key
    #: read on every move would add Python to the hot path of every search.
    FLOW: ClassVar[Flow[GungiState, str, Move]] = Flow(
        {
            "move": Phase(
                "a move of the side to move", legal_actions, _apply_native, judges=True, guards=True
            )
        },
        phase_of=lambda state: "move",
        decisions=attrgetter("ply"),
    )
    #: ``apply`` is the flow's template (core/flow.py: game over, legality, events, the
    #: length guard), itself the method: no call in between on the hot path of every
    #: search. (mypy reads a function-valued class attribute as positional-only, which the
    #: contract's ``apply(self, action)`` is not: hence the ignore.)
    apply: ClassVar[Callable[[GungiState, Move], list[Event]]] = FLOW.apply  # type: ignore[assignment]

    def _is_legal_code(self, code: int) -> bool:
        # The legal codes are sorted: a binary search, no set built for each move played.
        legal = self.memo.legal
        noisy = self.memo.noisy
        if (legal is None or legal[0] != self.hash) and noisy is not None and noisy[0] == self.hash:
            # Search often plays a noisy move of a position whose legal list was never
            # made: the noisy codes are legal, so finding the code there settles it.
            i = bisect_left(noisy[1], code)
            if i < len(noisy[1]) and noisy[1][i] == code:
                return True
        codes = self._legal_codes()
        i = bisect_left(codes, code)
        return i < len(codes) and codes[i] == code

    def _end_game(self, result: Outcome) -> None:
        self.end(result)

    def end(self, result: Outcome) -> None:
        """Make the position terminal with ``result`` (the_end.py, a loaded position)."""
        self._outcome = result
        self.memo.legal = None

    def clone(self) -> GungiState:
        other = GungiState.__new__(GungiState)
        other.game = self.game
        other.options = self.options
        other.num_players = 2
        other.mode = self.mode
        other.board = self.board[:]
        other.hands = [self.hands[0][:], self.hands[1][:]]
        other.hand_order = self.hand_order
        other.to_move = self.to_move
        other.phase = self.phase
        other.drafting = self.drafting[:]
        other.first = self.first
        other.move_number = self.move_number
        other.ply = self.ply
        other.hash = self.hash
        other.seen = dict(self.seen)
        other.marshal_at = self.marshal_at[:]
        other._outcome = self._outcome
        other.rays = self.rays
        other.attacks = self.attacks
        other.attack_sources = self.attack_sources
        other.max_length = self.max_length
        # The memo is shared entry by entry (same rules: the same native scratch entry).
        other.memo = self.memo.clone()
        return other

    def determinize(self, seat: int, rng: random.Random) -> GungiState:
        # Gungi hides nothing: every seat sees the whole position.
        return self.clone()

    def view(self, seat: int | None) -> dict[str, Any]:
        # The contract's views are plain dicts; building a GungiView has mypy check the
        # shape against the published schema's (the cast costs nothing at run time).
        return cast("dict[str, Any]", self.typed_view(seat))

    def typed_view(self, seat: int | None) -> GungiView:
        """:meth:`view`, typed as the schema says it is."""
        result = self._outcome
        board = self.board
        hands = self.hands
        return {
            "game": "gungi",
            "seat": seat,
            "mode": self.mode.name,
            "phase": self.phase,
            "to_move": COLOR_NAMES[self.to_move],
            "current_player": self.current_player,
            "drafting": [COLOR_NAMES[c] for c in (WHITE, BLACK) if self.drafting[c]],
            "move_number": self.move_number,
            "ply": self.ply,
            "board": [
                {
                    "square": SQUARE_NAMES[sq],
                    "tower": [
                        {
                            "piece": PIECE_JSON[p][0],
                            "kanji": PIECE_JSON[p][1],
                            "color": PIECE_JSON[p][2],
                        }
                        for p in board[sq]
                    ],
                }
                for sq in range(81)
                if board[sq]
            ],
            "hands": {
                "white": {PIECE_JSON[k * 2][0]: n for k, n in enumerate(hands[WHITE]) if n},
                "black": {PIECE_JSON[k * 2][0]: n for k, n in enumerate(hands[BLACK]) if n},
            },
            "marshal_capturable": self.capturable_flags(),
            "fen": self.fen(),
            "outcome": result.to_json() if result else None,
        }

    def capturable_flags(self) -> list[bool]:
        """Whether each Marshal can be captured now (cached per position, for views)."""
        cached = self.memo.capturable
        if cached is None or cached[0] != self.hash:
            flags = [self.phase == PLAY and marshal_capturable(self, c) for c in (WHITE, BLACK)]
            cached = self.memo.capturable = (self.hash, flags)
        return list(cached[1])

    def fen(self) -> str:
        """The position as gungi.js FEN (cached until the position changes)."""
        from sengoku.games.gungi.fen import to_fen

        key = (self.hash, self.move_number)
        cached = self.memo.fen
        if cached is not None and cached[0] == key:
            return cached[1]
        text = to_fen(self)
        self.memo.fen = (key, text)
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "gungi",
            "options": dict(self.options),
            "fen": self.fen(),
            "first": COLOR_NAMES[self.first],
            "ply": self.ply,
            "seen": [[str(k), n] for k, n in self.seen.items()],
            "outcome": self._outcome.to_json() if self._outcome else None,
        }

    # ------------------------------------------------------------------ perft
    def perft(self, depth: int) -> int:
        """Leaf count of the legal move tree (the last ply is counted, not played)."""
        if depth <= 0:
            return 1
        if self._outcome is not None:
            return 0
        if _NATIVE:  # native core hook
            return _native_core.perft(self, depth)
        return self._perft(depth)

    def _perft(self, depth: int) -> int:
        codes = self._legal_codes()
        if depth == 1:
            return len(codes)
        total = 0
        for code in codes:
            undo = self.make(code)
            if judge(self, undo[3], undo[6]) is None:
                total += self._perft(depth - 1)
            self.unmake(undo)
        return total

    def __str__(self) -> str:
        from sengoku.games.gungi.render import render

        return render(self)


#: Gungi's turn as a flow (core/flow.py), as the other games name theirs.
FLOW = GungiState.FLOW
