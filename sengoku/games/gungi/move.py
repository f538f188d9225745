"""Gungi moves as small immutable values, and their notation.

A move is packed into one integer ``code`` (the fast paths work on codes only)::

    code = action_int << 14 | turned1 << 10 | turned2 << 6 | kind << 2 | tier

``action_int`` is the contract's integer action (see :func:`action_int`); ``kind`` is the
moving or dropped piece, ``tier`` the tier it lands on, ``turned1``/``turned2`` the piece
kinds turned by a betrayal at tiers 1 and 2 (meaningful where the betrayal mask says so).

Canonical notation (``str``) always names the origin, so it reads without the position:

* ``7-6-1 兵(7-7)`` a move to an empty square; ``7-6-2 兵(7-7)付`` a stack (tsuke);
  ``7-6-1 兵(7-7)取`` a capture;
* ``4-7-2 忍新`` a drop (arata) or a setup placement;
* ``5-5-3 謀(5-6)付 返兵1`` a Captain's betrayal turning the tier-1 Pawn;
* ``済み`` Done, in the setup.

The official short form (what players write) is ``7-6-1 兵`` / ``5-5-3 謀 返兵``: the game's
``format_action`` adds the origin only when two legal moves would read the same.
"""

from __future__ import annotations

from sengoku.core.game import IllegalAction
from sengoku.games.gungi.pieces import NUM_KINDS, PIECES, square_name

#: Board moves: ((from * 81 + to) * 2 + capture) * 4 + betrayal mask.
MOVE_SPACE = 81 * 81 * 2 * 4
#: Drops and setup placements: MOVE_SPACE + (kind * 81 + to) * 4 + betrayal mask.
DROP_SPACE = NUM_KINDS * 81 * 4
DONE_INT = MOVE_SPACE + DROP_SPACE
NUM_DISTINCT_ACTIONS = DONE_INT + 1
DONE_CODE = DONE_INT << 14

NEW = "新"
DONE_TEXT = "済み"
BETRAY = "返"
STACK_MARK = "付"
CAPTURE_MARK = "取"


def move_code(frm: int, to: int, capture: int, mask: int, kind: int, tier: int) -> int:
    return ((((frm * 81 + to) * 2 + capture) * 4 + mask) << 14) | (kind << 2) | tier


def drop_code(kind: int, to: int, mask: int, tier: int) -> int:
    return ((MOVE_SPACE + (kind * 81 + to) * 4 + mask) << 14) | (kind << 2) | tier


class Move:
    """One Gungi decision: a move, a drop (or setup placement), or Done. Immutable."""

    __slots__ = ("code", "_texts")
    code: int
    # The notation strings, made once per (interned) move: with_origin * 2 + betrayal_tiers.
    _texts: list[str | None]

    def __new__(cls, code: int) -> Move:
        try:
            cached = INTERNED.get(code)
        except TypeError:  # unhashable: no code at all; the project's error, not a TypeError
            cached = None
        if cached is not None and type(code) is int:  # True equals 1: no move code either
            return cached
        if not _well_formed(code):
            raise IllegalAction(f"{code!r} is not a Gungi move code")
        obj = object.__new__(cls)
        object.__setattr__(obj, "code", code)
        object.__setattr__(obj, "_texts", [None, None, None, None])
        INTERNED[code] = obj
        return obj

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Move is immutable")

    def __reduce__(self) -> tuple[type[Move], tuple[int]]:
        return (Move, (self.code,))

    # -- decoded fields ---------------------------------------------------------------
    @property
    def action_int(self) -> int:
        return self.code >> 14

    @property
    def is_done(self) -> bool:
        return self.action_int == DONE_INT

    @property
    def is_drop(self) -> bool:
        return MOVE_SPACE <= self.action_int < DONE_INT

    @property
    def is_board_move(self) -> bool:
        return self.action_int < MOVE_SPACE

    @property
    def kind(self) -> int:
        return (self.code >> 2) & 15

    @property
    def tier(self) -> int:
        return self.code & 3

    @property
    def betrayal_mask(self) -> int:
        return (self.code >> 14) & 3

    @property
    def capture(self) -> bool:
        return self.is_board_move and bool((self.code >> 16) & 1)

    @property
    def origin(self) -> int | None:
        return (self.code >> 17) // 81 if self.is_board_move else None

    @property
    def destination(self) -> int | None:
        if self.is_done:
            return None
        if self.is_board_move:
            return (self.code >> 17) % 81
        return (self.action_int - MOVE_SPACE) // 4 % 81

    @property
    def turned(self) -> tuple[tuple[int, int], ...]:
        """(tier, kind) of each enemy piece this betrayal turns, bottom first."""
        mask = self.betrayal_mask
        out = []
        if mask & 1:
            out.append((1, (self.code >> 10) & 15))
        if mask & 2:
            out.append((2, (self.code >> 6) & 15))
        return tuple(out)

    # -- notation ---------------------------------------------------------------------
    def official(self, with_origin: bool = False, betrayal_tiers: bool = False) -> str:
        """The official ``c-r-t piece`` form; optionally with the origin or betrayal tiers."""
        slot = with_origin * 2 + betrayal_tiers
        text = self._texts[slot]
        if text is None:
            text = self._texts[slot] = self._official(with_origin, betrayal_tiers)
        return text

    def _official(self, with_origin: bool, betrayal_tiers: bool) -> str:
        # The fields decoded here at once (not through the properties): the contract formats
        # every move it plays, and in a long run most moves are met for the first time.
        code = self.code
        action = code >> 14
        if action == DONE_INT:
            return DONE_TEXT
        tier = code & 3
        if action < MOVE_SPACE:
            origin, dest = divmod(action >> 3, 81)
        else:
            origin, dest = -1, (action - MOVE_SPACE) // 4 % 81
        text = f"{_SQUARE_NAMES[dest]}-{tier} {_KANJI[(code >> 2) & 15]}"
        if origin < 0:
            text += NEW
        elif with_origin:
            text += f"({_SQUARE_NAMES[origin]})"
            if action >> 2 & 1:
                text += CAPTURE_MARK
            elif tier > 1:
                text += STACK_MARK
        mask = action & 3
        if mask:
            text += " " + BETRAY
            if mask & 1:
                text += _KANJI[(code >> 10) & 15] + ("1" if betrayal_tiers else "")
            if mask & 2:
                text += _KANJI[(code >> 6) & 15] + ("2" if betrayal_tiers else "")
        return text

    def __str__(self) -> str:
        # The contract formats every move it plays: the kept text without a further call.
        return self._texts[3] or self.official(with_origin=True, betrayal_tiers=True)

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and other.code == self.code

    def __hash__(self) -> int:
        return hash(self.code)

    def __lt__(self, other: Move) -> bool:
        return self.code < other.code


INTERNED: dict[int, Move] = {}
_SQUARE_NAMES = [square_name(sq) for sq in range(81)]
_KANJI = [PIECES[kind].kanji for kind in range(NUM_KINDS)]


def _well_formed(code: object) -> bool:
    if type(code) is not int or code < 0:
        return False
    action, kind, tier = code >> 14, (code >> 2) & 15, code & 3
    if action == DONE_INT:
        return code == DONE_CODE
    if action > DONE_INT or kind >= NUM_KINDS or not 1 <= tier <= 3:
        return False
    if MOVE_SPACE <= action and (action - MOVE_SPACE) // (81 * 4) != kind:
        return False
    mask = action & 3
    return not (mask & 1 and (code >> 10) & 15 >= NUM_KINDS) and not (
        mask & 2 and (code >> 6) & 15 >= NUM_KINDS
    )


DONE = Move(DONE_CODE)
