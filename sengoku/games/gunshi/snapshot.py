"""Gunshi's snapshot of ``view(seat)`` for its observation encoder (compiled with mypyc).

:meth:`~sengoku.games.gunshi.encoder.GunshiEncoder.capture` and its ``capturer()`` take a
:class:`GunshiSnapshot` from the state's parts on every step of a PettingZoo environment;
this module is that capture, apart from the encoder (numpy, the tensor's layout), so that
it can be compiled with the engine: it reads the compiled state's fields natively (a
capture was about 40% of a sparse PettingZoo ply run as Python). The snapshot holds the
view's fields the encoder reads, hidden as the view hides them, and nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, cast

import sengoku.games.gunshi.tournament_clock as tournament_clock
from sengoku.games.gunshi.battlefield import cn
from sengoku.games.gunshi.cards import SCOUTED, seen
from sengoku.games.gunshi.commands.command import Command
from sengoku.games.gunshi.data import CELLS, LETTERS, TOKEN_TYPE
from sengoku.games.gunshi.state import GunshiState
from sengoku.games.gunshi.units import OFF


class SideSnapshot(NamedTuple):
    """One side's part of a :class:`GunshiSnapshot`: its ``PlayerView`` fields that the
    encoder reads, in the view's words (a card the seat may not see is None; a Command Row
    or Lightning card is ``(card, face_up)``; ``advanced_in_box`` None where the view has no
    such key)."""

    points: int
    fences_left: int
    invaders: int
    removed: int
    face_down_next: bool
    chain_trap_beside: bool
    inspiration_used: bool
    shogun_chosen: bool
    shogun_revealed: bool
    shogun: str | None
    shogun_candidates: list[str]
    hand: list[str | None]
    deck: list[str | None]
    stock: list[str | None]
    prepared: list[str | None]
    picks: list[str | None]
    mod3_choices: list[str | None]
    row: list[tuple[str | None, bool]]
    lightning: tuple[str | None, bool] | None
    advanced_in_box: list[str] | None


class GunshiSnapshot(NamedTuple):
    """The fields of ``view(seat)`` that :class:`GunshiEncoder` reads. ``units``: (token,
    cell, owner, facing, Shield) as the state's integers, for the units on the Field;
    ``fences``: (edge, owner) as integers; ``reserve``: Infantry, Archers, Cavalry left;
    ``command``: the command being resolved, public to every seat: a copy of the state's
    :class:`Command` in a capture (its fields are immutable values: later play does not
    change the copy), named as the view names it only when encoded (:func:`_command_items`:
    a command changes on every ply it is resolved, and naming it took a fifth of a
    capture), or the view's command as (key, value) pairs; the rest as the view has it.
    New lists, so later play does not change it; nothing the view does not show."""

    units: list[tuple[int, int, int, int, bool]]
    fences: list[tuple[int, int]]
    sides: tuple[SideSnapshot, SideSnapshot]
    phase: str
    step: str
    to_act: int
    turn: int
    ply: int
    reserve: tuple[int, int, int]
    pool: list[str]
    formation_piece: str | None
    formation_cell: str | None
    running: int | None
    resolving: str | None
    queue: list[str | None]
    sent_this_turn: int
    command: Command | tuple[tuple[str, Any], ...] | None


def known(pile: Sequence[Any], mine: bool) -> list[str | None]:
    """A hand's or deck's cards as the view shows them: all to their owner, else the ones
    known (an empty pile, the common case, makes no comprehension)."""
    if not pile:
        return []
    if mine:
        return [c[0] for c in pile]
    return [c[0] if c[1] else None for c in pile]


def codes_if(pile: Sequence[Any], shown: bool) -> list[str | None]:
    if not pile:
        return []
    return [c[0] for c in pile] if shown else [None] * len(pile)


def shown_if(codes: Sequence[str], shown: bool) -> list[str | None]:
    if not codes:
        return []
    return list(codes) if shown else [None] * len(codes)


#: The last parts of a snapshot made, each with the state's fields it was made from (copies:
#: equal fields make an equal part, whatever the state, so a kept part is never stale): each
#: side's for each seat (keyed ``(seat, side)``, see :func:`side_snapshot`), the units and Reserve
#: (:data:`UNITS`) and the Fences (:data:`FENCES`), which are the same for every seat.
SnapshotMemo = dict[Any, tuple[Any, Any]]
UNITS = "units"
#: A snapshot's named tuple made from its fields' tuple (``NamedTuple``'s own ``__new__``
#: is a Python function between: a call fewer, twice or three times a capture).
_new = tuple.__new__
FENCES = "fences"


def side_snapshot(
    st: GunshiState, p: int, seat: int | None, mod1: bool, memo: SnapshotMemo | None
) -> SideSnapshot:
    """Side ``p``'s snapshot for ``seat``, made from copies of the state's fields it reads
    (cards are tuples, so a tuple of a pile is a copy later play cannot change). With a
    ``memo`` (:meth:`GunshiEncoder.capturer`'s) those copies are the key of the last side
    made for this seat: where all are equal that side is given again; where some changed
    (a side's hand, Command Row or points change on most of its plies, seldom all of its
    piles) the new side reuses the old one's piles whose cards are equal (a pile's hidden
    form depends only on its cards and the seat). Equal fields make an equal snapshot,
    whatever the state, so the memo can never give a stale one."""
    cards, shoguns, inspiration = st.cards, st.shoguns, st.inspiration
    construction = st.deck_construction
    key = (
        st.logistics.points[p],
        st.fences.fences_left[p],
        st.invader_spot.invaders[p],
        len(inspiration.removed[p]),
        cards.face_down_next[p],
        cards.beside[p] is not None,
        inspiration.swap_done[p],
        shoguns.shogun[p],
        shoguns.revealed[p],
        tuple(shoguns.candidates[p]),
        tuple(cards.hand[p]),
        tuple(cards.deck[p]),
        tuple(cards.stock[p]),
        tuple(inspiration.prepared[p]),
        tuple(construction.picks[p]),
        construction.deck_public,
        tuple(inspiration.m3[p]),
        st.phase == "mod3",
        tuple(cards.row[p]),
        cards.lightning[p],
        tuple(inspiration.unused[p]),
        mod1,
    )
    old: SideSnapshot | None = None
    old_key: tuple[Any, ...] = ()
    if memo is not None:
        kept = memo.get((seat, p))
        if kept is not None:
            if kept[0] == key:
                side: SideSnapshot = kept[1]
                return side
            old_key, old = kept
    (
        points, fences_left, invaders, removed, face_down_next, beside, swap_done, shogun,
        revealed, candidates, hand, deck, stock, prepared, picks, deck_public, m3, in_mod3,
        row, lightning, unused, _,
    ) = key  # fmt: skip
    mine = seat == p
    seated = seat is not None  # a Scout's look shows to seats, not to spectators
    side = _new(
        SideSnapshot,
        (
            points,
            fences_left,
            invaders,
            removed,
            face_down_next,
            beside,
            swap_done,
            shogun >= 0,
            revealed,
            LETTERS[shogun] if shogun >= 0 and (mine or revealed) else None,
            old.shogun_candidates
            if old is not None and candidates == old_key[9]
            else [LETTERS[u] for u in candidates]
            if candidates
            else [],
            old.hand if old is not None and hand == old_key[10] else known(hand, mine),
            old.deck if old is not None and deck == old_key[11] else known(deck, mine),
            old.stock if old is not None and stock == old_key[12] else codes_if(stock, mine),
            shown_if(prepared, mine and not mod1),
            shown_if(picks, mine or deck_public),
            shown_if(m3, mine or not in_mod3),
            old.row
            if old is not None and row == old_key[18]
            else [
                (
                    c[0] if mine or c[2] or c[1] is True or (c[1] == SCOUTED and seated) else None,
                    c[2],
                )
                for c in row
            ]
            if row
            else [],
            None
            if lightning is None
            else (lightning[0] if seen(lightning, mine, seat) else None, lightning[2]),
            list(unused) if mine and not mod1 else None,
        ),
    )
    if memo is not None:
        memo[seat, p] = (key, side)
    return side


def snapshot(st: GunshiState, seat: int | None, memo: SnapshotMemo | None) -> GunshiSnapshot:
    """``hidden_information.view``'s expressions for the fields the encoder reads (the test
    ``test_capture_encodes_as_the_view_and_stays_put`` holds the two together)."""
    o = st.options
    mod1 = o["variant"] == "inspiration" and o["modification"] == 1
    inspiration = st.inspiration
    sides = (side_snapshot(st, 0, seat, mod1, memo), side_snapshot(st, 1, seat, mod1, memo))
    field = st.field
    uloc, uown, uface, ushield = field.uloc, field.uown, field.uface, field.ushield
    # The Field's units and the Fences (public, both) change on few plies: the last ones
    # made are reused while the fields they were made from are equal (copies of the lists
    # kept as keys, compared with the state's lists as they are: copied only when changed).
    kept_units = memo.get(UNITS) if memo is not None else None
    if kept_units is not None and kept_units[0] == (uloc, uown, uface, ushield):
        units, reserve = kept_units[1]
    else:
        units = []
        left = {"I": 0, "A": 0, "C": 0}
        for u, loc in enumerate(uloc):  # one pass: the Field's units, the Reserve's counts
            if 0 <= loc < CELLS:
                units.append((u, loc, uown[u], uface[u], ushield[u]))
            elif loc == OFF and TOKEN_TYPE[u] in left:
                left[TOKEN_TYPE[u]] += 1
        reserve = (left["I"], left["A"], left["C"])
        if memo is not None:
            memo[UNITS] = ((uloc[:], uown[:], uface[:], ushield[:]), (units, reserve))
    fence = st.fences.fence
    kept_fences = memo.get(FENCES) if memo is not None else None
    if kept_fences is not None and kept_fences[0] == fence:
        fences = kept_fences[1]
    else:
        fences = (
            [] if fence.count(-1) == len(fence) else [(e, f) for e, f in enumerate(fence) if f >= 0]
        )
        if memo is not None:
            memo[FENCES] = (fence[:], fences)
    cmd = st.orders.cmd
    battle = st.battle
    queue = battle.queue
    return _new(
        GunshiSnapshot,
        (
            units,
            fences,
            sides,
            st.phase,
            st.step if st.phase != "secret" or seat == st.player else "",
            st.current_player,
            battle.turn,
            st.ply,
            reserve,
            list(inspiration.pool),
            st.formation.fpiece,
            cn(st.formation.fcell) if st.formation.fcell >= 0 else None,
            tournament_clock.tournament_seat(st),
            battle.cur[0] if battle.cur is not None else None,
            [c[0] if seen(c, seat == st.player, seat) else None for c in queue] if queue else [],
            battle.sent,
            None if cmd is None else cmd.copy(),
        ),
    )


def kept_capture(memo: SnapshotMemo, state: object, seat: object) -> Any:
    """:meth:`~sengoku.games.gunshi.encoder.GunshiEncoder.capturer`'s capture, with its
    ``memo`` first (the capturer is ``functools.partial(kept_capture, memo)``: a step's
    capture then runs no Python frame): the snapshot of a Gunshi state for a seat (0, 1 or
    None), else the state's ``view(seat)``. Typed ``object``: compiled, a typed parameter
    would refuse another game's state with a bare TypeError."""
    if isinstance(state, GunshiState) and (
        seat is None or (isinstance(seat, int) and (seat == 0 or seat == 1))
    ):
        return snapshot(state, seat, memo)
    return cast(Any, state).view(seat)
