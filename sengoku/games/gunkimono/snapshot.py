"""The part of a seat's view that Gunkimono's observation encoder reads, taken from the
state's fields (:meth:`~sengoku.games.gunkimono.encoder.GunkimonoEncoder.capture`).

Compiled with mypyc (``[tool.sengoku] compiled``): a research environment takes one snapshot
every step (a PettingZoo observation, OpenSpiel's observer), and the compiled state's fields
read from compiled code cost a fraction of the Python's reads. The encoder module is
compiled too (for issue 40's batched play: docs/interop.md).
"""

from __future__ import annotations

from typing import NamedTuple

from sengoku.core.game import TERMINAL
from sengoku.games.gunkimono.state import GunkimonoState
from sengoku.games.gunkimono.turn_sequence import Phase


class PlayerSnapshot(NamedTuple):
    """One seat's part of a :class:`GunkimonoSnapshot`: its ``PlayerView`` fields that the
    encoder reads, as the state's integers (tile codes, troop numbers, banner kinds and
    columns): ``hand`` None but for the observer; a banner's value None but for its owner
    and at the end; an honor marker off the track is ``REMOVED``."""

    score: int
    hand: list[int] | None
    hand_size: int
    hand_known: list[int]
    reserve: list[int]
    honor: list[int]
    strongholds_left: int
    #: Each banner held: (kind, column, value or None).
    banners: list[tuple[int, int, int | None]]


class GunkimonoSnapshot(NamedTuple):
    """The fields of ``view(seat)`` that :class:`GunkimonoEncoder` reads, as the state's
    integers where the view names them: the board's ``top`` troops (``TOP_NAMES`` numbers),
    ``symbols``, ``levels`` and ``strongholds``; the ``row`` and ``placed`` tiles by code;
    the banner stacks by kind; the ``pending`` scorings as (square, VP, VP allowed); the
    support square (-1: none); the players as :class:`PlayerSnapshot`; the rest under the
    view's own keys. New lists, so later play does not change it; nothing the view does
    not show (no dicts either: a snapshot is data, not a view)."""

    players_count: int
    current_player: int
    phase: str
    turn: int
    turns: int
    decisions: int
    top: list[int]
    symbols: list[int]
    levels: list[int]
    strongholds: list[int]
    row: list[int]
    stack_size: int
    end_stack_size: int
    end_stack_in_play: bool
    end_triggered: bool
    removed_count: int
    placed: list[int]
    placed_small: list[tuple[int, int, int]]
    banner_stacks: list[list[int]]
    pending: list[tuple[int, int, bool]]
    support_cell: int
    placed_large: bool
    passes: int
    built_at: list[tuple[int, int]]
    players: list[PlayerSnapshot]


def snapshot(state: GunkimonoState, seat: int | None, n: int) -> GunkimonoSnapshot:
    """The encoder's capture of ``state`` for ``seat`` (``n`` players): the fields of
    ``view(seat)`` that the encoder reads, as the state's integers, hidden as the view hides
    them (a hand for its owner only; banner values for their owner, and for all once the
    game is over), and nothing else."""
    # ``hidden_information.view``'s choices for these fields, on the state's integers
    # (the tests ``test_capture_encodes_as_the_view_and_stays_put`` and
    # ``test_a_snapshot_holds_only_what_its_seat_sees`` hold the two together).
    sequence, battlefield, supply = state.sequence, state.battlefield, state.supply
    over = sequence.phase is Phase.OVER
    score = state.victory_points.score
    strongholds = state.fortresses.strongholds
    honor = state.honor_track.honor
    banners = state.war_banners.banners
    players = []
    for s in range(n):
        shown = s == seat or over  # banner values: their owner's, and all at the end
        hand = supply.hands[s]
        held = banners[s]
        players.append(
            PlayerSnapshot(
                score[s],
                list(hand) if s == seat else None,
                len(hand),
                list(supply.known[s]),
                list(supply.reserve[s]),
                list(honor[s]),
                2 - len(strongholds[s]),
                (
                    [(k, col, v) for k, v, col in held]
                    if shown
                    else [(k, col, None) for k, _v, col in held]
                )
                if held
                else [],
            )
        )
    stacks = state.war_banners.banner_stacks
    pending = state.scoring.pending
    return GunkimonoSnapshot(
        n,
        TERMINAL if over else sequence.turn,
        sequence.phase.value,
        sequence.turn,
        sequence.turns,
        sequence.decisions,
        list(battlefield.top),
        list(battlefield.sym),
        list(battlefield.level),
        list(state.fortresses.sh_owner),
        list(supply.row),
        len(supply.stack),
        len(state.ending.end_stack),
        state.ending.end_stack_in_play,
        state.ending.end_triggered,
        len(supply.removed),
        list(battlefield.placed),
        [(p[0], p[1], p[2]) for p in battlefield.placed_small],
        [[k for k, _v in stacks[col]] for col in range(5)],
        [(c, vp, bool(ok)) for c, _t, _sym, vp, ok in pending] if pending else [],
        sequence.support_cell,
        sequence.placed_large,
        sequence.passes,
        [(b[0], b[1]) for b in state.fortresses.built_at],
        players,
    )
