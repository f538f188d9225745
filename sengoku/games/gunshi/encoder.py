"""Gunshi's observation encoder for research tools: one flat vector: the Field per cell (units by owner, type,
facing, Shield, letter), Fences per edge, each side's points, Shogun and cards (unknown where
hidden), the phase and the command being resolved, from the observer's side.

Gunshi.observation_encoder() declares it. It reads ``view(seat)`` and nothing else (see
:mod:`sengoku.core.observation`), or the :class:`GunshiSnapshot` of it that
:meth:`GunshiEncoder.capture` takes from the state's parts: the view's fields the encoder
reads, hidden as the view hides them (units and Fences as the state's integers), without
the rest (unit types, colours, options, the clock's settings, the outcome) or its dicts.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from typing import Any

import numpy as np

from sengoku.core.game import SengokuError
from sengoku.core.observation import Encoder, Entries, clear_entries, entries_of
from sengoku.games.gunshi.battlefield import cn
from sengoku.games.gunshi.commands.command import (
    UNIT_KEYS,
    UNITS_KEYS,
    Command,
    key_order,
)
from sengoku.games.gunshi.data import DIR_NAMES, LETTERS, TOKEN_TYPE
from sengoku.games.gunshi.snapshot import (
    GunshiSnapshot,
    SideSnapshot,
    SnapshotMemo,
    kept_capture,
)
from sengoku.games.gunshi.snapshot import snapshot as take_snapshot
from sengoku.games.gunshi.state import GunshiState


class GunshiEncoder(Encoder):
    """Gunshi as one flat vector, from the observing seat's side of the Field.

    Slot 0 is the observer's side (Red for a spectator), slot 1 the opponent's. The Field is
    turned so that the observer's back line is row 0: Red's cells as printed (``a1`` first,
    row-major), Blue's turned by 180 degrees, and facings, directions and Fence edges turned
    with it (a facing is one-hot over forward, right, back, left of the observer's side).
    Units are the game's 24 tokens by letter (A-J Infantry, K-P Cavalry, Q-X Archers); cards
    are one-hot over the card codes of ``cards.json`` (``M Re F Rf Rapid ...``); a card the
    observer may not see is "unknown" (face-down Command Row cards, the opponent's hand,
    unknown deck cards).

    * Field, per cell (49 x 35): unit owner (own, opponent) x type (I A C), facing (4),
      Shield, the unit's letter (24); Fences per edge (84 x 2: own, opponent);
    * per side (observer, opponent): Military Logistics points, Fences left, invaders, cards
      removed by the Inspiration, next card face down, a Chain Trap beside the board, the
      Inspiration used, Shogun chosen, Shogun revealed, the Shogun's letter (where shown),
      the Shogun candidates (letters, as a set); hand, deck, stock, prepared Advanced cards,
      Custom Deck picks and Modification 3 choices by position (present, unknown, card); the
      Command Row by position and the Lightning position (present, face up, unknown, card);
      the Advanced cards left in the box (the observer's own, counted by code, and a flag
      that the view shows them);
    * the phase (formation build prepare mod3 secret battle) and step (``"" send take remove
      deck hand shogun``); who acts (observer, opponent); turn, ply; Units in the Reserve by
      type; the shared Modification 3 pool (counted by code); the formation piece (I A C F)
      and cell; whose tournament clock runs; the card being resolved; the cards queued
      (position: present, unknown, card); cards sent this turn;
    * the pending decision (the command being resolved): present, card, type, step, mode,
      the modes offered, the piece, Rapid-Move's progress, shots fired, the direction, the
      origin and target cells, one letter each for leader, shooter, builder, first, base and
      invader, and the letter sequences used, sel, order, mates, moved and trap_moved (each
      letter's position + 1).

    Faithful but for the constants of the environment (seat, options, the clock's time
    control), the outcome (terminal states have no decision), the units' ``type`` (the letter
    gives it), the order of the Shogun candidates and of the Modification 3 pool (sets) and
    the order of the Advanced cards in the box (counted). A value the encoder does not know
    (a new phase, step or command key) raises an error naming it, rather than being dropped.
    """

    SIDE = 7
    CELLS = 49
    EDGES = 84
    LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWX"
    TYPES = "IAC"
    CELL = 2 * 3 + 4 + 1 + 24
    PHASES = ("formation", "build", "prepare", "mod3", "secret", "battle")
    STEPS = ("", "send", "take", "remove", "deck", "hand", "shogun")
    CMD_TYPES = (
        "move", "light", "rapid", "reorient", "shoot", "crossbow", "fence", "reinforce",
        "enroute", "look", "ask", "fire", "switch",
    )  # fmt: skip
    CMD_STEPS = (
        "unit", "face", "chain", "dir", "to", "rface", "invade", "hit", "fence", "piece", "at",
        "mode", "look", "ask", "swap", "rapid",
    )  # fmt: skip
    MODES = ("reorient", "shoot", "crossbow", "commands", "shogun")
    RAPID = ("moving", "reoriented", "invaded")
    FORMATION_PIECES = ("I", "A", "C", "F")
    UNIT_REFS = ("leader", "shooter", "builder", "first", "base", "invader")
    UNIT_SEQUENCES = ("used", "sel", "order", "mates", "moved", "trap_moved")
    #: Most cards a pile of one side holds (a deck is 7 cards; a hand draws to 3 and more).
    PILE = 8
    ROW = 6
    QUEUE = 8
    PILES = ("hand", "deck", "stock", "prepared", "picks", "mod3_choices")
    FLAGS = (
        "face_down_next", "chain_trap_beside", "inspiration_used", "shogun_chosen",
        "shogun_revealed",
    )  # fmt: skip
    low = 0.0
    high = 100000.0  # points, turns and plies: bounded by max_game_length (4000) times a gain

    def __init__(self) -> None:
        from sengoku.games.gunshi.data import CARD_CODES, EDGE_CELLS, EDGE_OF, LETTERS

        if LETTERS != self.LETTERS:
            raise SengokuError(f"gunshi encoder: the tokens are {LETTERS!r}, not {self.LETTERS!r}")
        self.card_codes = CARD_CODES
        self.cards = {code: i for i, code in enumerate(CARD_CODES)}
        nc = len(CARD_CODES)
        self.num_cards = nc
        self.letters = {letter: i for i, letter in enumerate(LETTERS)}
        self.token_type = [self.TYPES.index(t) for t in TOKEN_TYPE]
        cols = "abcdefg"
        # Cell and edge names -> index on the observer's side (0: Red as printed, 1: turned).
        self.cell_index: tuple[dict[str, int], dict[str, int]] = ({}, {})
        for cell in range(self.CELLS):
            name = f"{cols[cell % self.SIDE]}{cell // self.SIDE + 1}"
            self.cell_index[0][name] = cell
            self.cell_index[1][name] = self.CELLS - 1 - cell
        self.edge_index: tuple[dict[str, int], dict[str, int]] = ({}, {})
        for e, (a, b) in enumerate(EDGE_CELLS):
            name = f"{cols[a % self.SIDE]}{a // self.SIDE + 1}" + ("n" if e < 42 else "e")
            ta, tb = self.CELLS - 1 - a, self.CELLS - 1 - b
            turned = next(x for x in EDGE_OF[ta] if x >= 0 and x in EDGE_OF[tb])
            self.edge_index[0][name] = e
            self.edge_index[1][name] = turned
        self.dirs = (
            {d: i for i, d in enumerate("nesw")},
            {d: (i + 2) % 4 for i, d in enumerate("nesw")},
        )
        card = 2 + nc
        row_card = 3 + nc
        t = len(self.LETTERS)
        self.side_size = (
            4 + len(self.FLAGS) + t + t
            + len(self.PILES) * self.PILE * card
            + self.ROW * row_card + row_card + 1 + nc
        )  # fmt: skip
        sizes = [
            ("field", self.CELLS * self.CELL),
            ("fences", self.EDGES * 2),
            ("sides", 2 * self.side_size),
            ("globals", len(self.PHASES) + len(self.STEPS) + 2 + 2 + 3 + nc + 4 + self.CELLS + 2),
            ("queue", 1 + nc + self.QUEUE * card + 1),
            (
                "command",
                1 + nc + len(self.CMD_TYPES) + len(self.CMD_STEPS) + 2 * len(self.MODES)
                + 3 + len(self.RAPID) + 1 + 4 + 2 * self.CELLS
                + (len(self.UNIT_REFS) + len(self.UNIT_SEQUENCES)) * t,
            ),
        ]  # fmt: skip
        self.offsets: dict[str, int] = {}
        total = 0
        for name, size in sizes:
            self.offsets[name] = total
            total += size
        self.shape = (total,)
        # The state's integers -> the observer's entries, per side (0: Red, 1: Blue), read
        # through the names the view gives them (so a snapshot encodes as its view does).
        from sengoku.games.gunshi.battlefield import CELL_NAMES
        from sengoku.games.gunshi.data import DIR_NAMES, EDGE_NAMES

        self.cell_of = tuple([self.cell_index[me][name] for name in CELL_NAMES] for me in (0, 1))
        self.facing_of = tuple([self.dirs[me][d] for d in DIR_NAMES] for me in (0, 1))
        #: The phases and steps by name (a name not there is refused by ``_index``).
        self.phase_index = {name: i for i, name in enumerate(self.PHASES)}
        self.step_index = {name: i for i, name in enumerate(self.STEPS)}
        self.edge_of = tuple([self.edge_index[me][name] for name in EDGE_NAMES] for me in (0, 1))

    def _pile(self, w: Entries, at: int, cards: list[str | None], what: str) -> None:
        if len(cards) > self.PILE:
            raise SengokuError(f"gunshi encoder: {what} holds {len(cards)} cards, over {self.PILE}")
        width = 2 + self.num_cards
        for i, code in enumerate(cards):
            k = at + i * width
            w[k] = 1.0
            if code is None:
                w[k + 1] = 1.0
            else:
                w[k + 2 + self.cards[code]] = 1.0

    def _row_card(self, w: Entries, at: int, card: tuple[str | None, bool] | None) -> None:
        if card is None:
            return
        code, face_up = card
        w[at] = 1.0
        if face_up:
            w[at + 1] = 1.0
        if code is None:
            w[at + 2] = 1.0
        else:
            w[at + 3 + self.cards[code]] = 1.0

    def _letters(self, w: Entries, at: int, letters: list[Any]) -> None:
        for position, letter in enumerate(letters):
            index = letter if isinstance(letter, int) else self.letters[letter]
            w[at + index] = position + 1

    def capture(self, state: Any, seat: int | None) -> Any:
        """The :class:`GunshiSnapshot` of ``view(seat)``, from the state's parts (their public
        fields): what :func:`~sengoku.games.gunshi.hidden_information.view` shows of them,
        hidden as it hides it, and nothing else."""
        if not isinstance(state, GunshiState) or not (seat is None or seat in (0, 1)):
            return state.view(seat)
        return take_snapshot(state, seat, None)

    def capturer(self) -> Callable[[Any, int | None], Any]:
        """:meth:`capture` for one holder to keep (a PettingZoo environment): a function that
        reuses the parts of its own last snapshots (each side per seat, the units and Reserve,
        the Fences) while the state's fields they were made from are equal, made afresh
        otherwise; its snapshots are :meth:`capture`'s. What it keeps (copies of those
        fields, other seats' hands among them) lives in the function, not in the encoder:
        an observation holds the encoder, and must reach nothing its seat may not see."""
        memo: SnapshotMemo = {}
        # A partial of the compiled capture, not a closure: no Python frame per step.
        return functools.partial(kept_capture, memo)

    def encode_into(self, view: Mapping[str, Any], seat: int | None, out: np.ndarray) -> None:
        snapshot = view if isinstance(view, GunshiSnapshot) else self._snapshot_of_view(view)
        self._encode_snapshot(snapshot, seat, out)

    def _snapshot_of_view(self, view: Mapping[str, Any]) -> GunshiSnapshot:
        """A view's fields as a snapshot (units and Fences named back to integers)."""
        from sengoku.games.gunshi.battlefield import CELL_NAMES
        from sengoku.games.gunshi.data import DIR_NAMES, EDGE_NAMES

        cell_of = {name: cell for cell, name in enumerate(CELL_NAMES)}
        edge_of = {name: e for e, name in enumerate(EDGE_NAMES)}
        letters = self.letters
        reserve = view["reserve"]
        command = view["command"]
        return GunshiSnapshot(
            [
                (
                    letters[u["letter"]],
                    cell_of[u["cell"]],
                    u["owner"],
                    DIR_NAMES.index(u["facing"]),
                    u["shield"],
                )
                for u in view["units"]
            ],
            [(edge_of[f["edge"]], f["owner"]) for f in view["fences"]],
            (_side_of_view(view["players"][0]), _side_of_view(view["players"][1])),
            view["phase"],
            view["step"],
            view["to_act"],
            view["turn"],
            view["ply"],
            (reserve["I"], reserve["A"], reserve["C"]),
            view["pool"],
            view["formation_piece"],
            view["formation_cell"],
            view["clock"]["running"],
            view["resolving"],
            view["queue"],
            view["sent_this_turn"],
            None if command is None else tuple(command.items()),
        )

    def _encode_snapshot(self, view: GunshiSnapshot, seat: int | None, out: np.ndarray) -> None:
        w = entries_of(out)
        me = 1 if seat == 1 else 0
        self._field(w, view.units, me)
        self._fences(w, view.fences, me)
        for p, player in enumerate(view.sides):
            self._player(w, self.offsets["sides"] + (0 if p == me else 1) * self.side_size, player)
        self._rest(w, view, me)
        if view.command is not None:
            self._command_of(w, view.command, me)

    def encode_changed(
        self, view: Any, seat: int | None, out: np.ndarray, kept: list[Any]
    ) -> list[tuple[int, int]]:
        """Bring ``out`` from the encoding it holds to ``view``'s: ``kept`` is the caller's
        list for that ``out`` (empty with a zeroed ``out``: everything is written), which this
        method keeps, holding what each block of ``out`` was last written from (the seat, the
        units, the Fences, each side's snapshot). Only the blocks whose part differs are
        zeroed and written again (the phase, counters, queue and command always are): the
        same entries as :meth:`encode_into` on a zeroed array. Returns the ``(start, stop)``
        of the blocks written, in order."""
        if not isinstance(view, GunshiSnapshot):
            view = self._snapshot_of_view(view)
        w = entries_of(out)
        me = 1 if seat == 1 else 0
        o = self.offsets
        if not kept or kept[0] != me:
            if kept:
                out.fill(0.0)
            kept[:] = [me, view.units, view.fences, *view.sides, view.command]
            self._encode_snapshot(view, seat, out)
            return [(0, len(out))]
        written: list[tuple[int, int]] = []
        units = view.units
        if units is not kept[1] and units != kept[1]:
            start = o["field"]
            self._field_changed(w, units, kept[1], me)
            kept[1] = units
            written.append((start, start + self.CELLS * self.CELL))
        fences = view.fences
        if fences is not kept[2] and fences != kept[2]:
            start = o["fences"]
            stop = start + self.EDGES * 2
            clear_entries(w, start, stop)
            self._fences(w, fences, me)
            kept[2] = fences
            written.append((start, stop))
        for p, player in enumerate(view.sides):
            before = kept[3 + p]
            if player is not before and player != before:
                start = o["sides"] + (0 if p == me else 1) * self.side_size
                self._player_changed(w, start, player, before, written)
                kept[3 + p] = player
        start, stop = o["globals"], o["command"]
        clear_entries(w, start, stop)
        self._rest(w, view, me)
        written.append((start, stop))
        command = view.command
        if command is not kept[5] and command != kept[5]:
            # The command being resolved: the same over several plies of its steps.
            clear_entries(w, stop, len(out))
            if command is not None:
                self._command_of(w, command, me)
            kept[5] = command
            written.append((stop, len(out)))
        return written

    def _field(self, w: Entries, units: list[tuple[int, int, int, int, bool]], me: int) -> None:
        """The units on the Field, per cell on the observer's side."""
        field = self.offsets["field"]
        cell_of, facing_of = self.cell_of[me], self.facing_of[me]
        token_type = self.token_type
        size = self.CELL
        for u, loc, owner, facing, shield in units:
            at = field + cell_of[loc] * size
            _write_unit(w, at, u, owner == me, token_type[u], facing_of[facing], shield)

    def _field_changed(
        self,
        w: Entries,
        units: list[tuple[int, int, int, int, bool]],
        before: list[tuple[int, int, int, int, bool]],
        me: int,
    ) -> None:
        """:meth:`_field`'s entries brought from ``before``'s units to ``units``'s: the cells
        that a unit left, entered or changed in (a ply moves, turns or removes one or two of
        the Field's units) are cleared and written again from every unit now in them. Both
        lists are ordered by token (the snapshot's order), so they are walked together."""
        cells: list[int] = []
        i = j = 0
        old_count, new_count = len(before), len(units)
        while i < old_count or j < new_count:
            if j == new_count or (i < old_count and before[i][0] < units[j][0]):
                cells.append(before[i][1])  # a unit gone from the Field
                i += 1
            elif i == old_count or units[j][0] < before[i][0]:
                cells.append(units[j][1])  # a unit come onto the Field
                j += 1
            else:
                if units[j] != before[i]:
                    cells.append(before[i][1])
                    cells.append(units[j][1])
                i += 1
                j += 1
        field = self.offsets["field"]
        cell_of, facing_of = self.cell_of[me], self.facing_of[me]
        token_type = self.token_type
        size = self.CELL
        for loc in cells:
            at = field + cell_of[loc] * size
            clear_entries(w, at, at + size)
        for u, loc, owner, facing, shield in units:
            if loc in cells:
                at = field + cell_of[loc] * size
                _write_unit(w, at, u, owner == me, token_type[u], facing_of[facing], shield)

    def _fences(self, w: Entries, fences: list[tuple[int, int]], me: int) -> None:
        at = self.offsets["fences"]
        edge_of = self.edge_of[me]
        for edge, owner in fences:
            w[at + edge_of[edge] * 2 + (0 if owner == me else 1)] = 1.0

    def _rest(self, w: Entries, view: GunshiSnapshot, me: int) -> None:
        """The globals and the queue: phase, step, counters, Reserve, pool, formation, clock,
        the card resolving, the queue (not the command)."""
        cells = self.cell_index[me]
        cards = self.cards
        nc = self.num_cards
        o = self.offsets
        card = 2 + nc
        at = o["globals"]
        phase = self.phase_index.get(view.phase, -1)
        w[at + (phase if phase >= 0 else self._index(self.PHASES, view.phase, "phase"))] = 1.0
        at += len(self.PHASES)
        step = self.step_index.get(view.step, -1)
        w[at + (step if step >= 0 else self._index(self.STEPS, view.step, "step"))] = 1.0
        at += len(self.STEPS)
        if view.to_act >= 0:
            w[at + (0 if view.to_act == me else 1)] = 1.0
        w[at + 2] = view.turn
        w[at + 3] = view.ply
        at += 4
        w[at], w[at + 1], w[at + 2] = view.reserve
        at += 3
        for code in view.pool:
            w[at + cards[code]] += 1.0
        at += nc
        piece = view.formation_piece
        if piece:
            w[at + self._index(self.FORMATION_PIECES, piece, "formation_piece")] = 1.0
        at += len(self.FORMATION_PIECES)
        if view.formation_cell is not None:
            w[at + cells[view.formation_cell]] = 1.0
        at += self.CELLS
        running = view.running
        if running is not None:
            w[at + (0 if running == me else 1)] = 1.0
        at = o["queue"]
        if view.resolving is not None:
            w[at] = 1.0
            w[at + 1 + cards[view.resolving]] = 1.0
        at += 1 + nc
        queue = view.queue
        if len(queue) > self.QUEUE:
            raise SengokuError(f"gunshi encoder: {len(queue)} cards queued, over {self.QUEUE}")
        self._pile(w, at, queue, "queue")
        w[at + self.QUEUE * card] = view.sent_this_turn

    def _command_of(self, w: Entries, command: Any, me: int) -> None:
        """The command being resolved (the block from ``offsets["command"]`` on)."""
        if isinstance(command, Command):  # a capture's copy: named now, when encoded
            command = _command_items(command)
        self._command(w, self.offsets["command"], command, self.cell_index[me], self.dirs[me])

    def _player(self, w: Entries, at: int, player: SideSnapshot) -> None:
        """One player's block at ``at`` (the observer's first): counters, flags, Shogun (when
        seen) and candidates, piles, Command Row, Lightning card, Advanced cards in the box."""
        letters = self.letters
        t = len(self.LETTERS)
        card = 2 + self.num_cards
        row_card = 3 + self.num_cards
        w[at] = player.points
        w[at + 1] = player.fences_left
        w[at + 2] = player.invaders
        w[at + 3] = player.removed
        at += 4
        # In the order of FLAGS.
        for i, flag in enumerate(
            (
                player.face_down_next,
                player.chain_trap_beside,
                player.inspiration_used,
                player.shogun_chosen,
                player.shogun_revealed,
            )
        ):
            if flag:
                w[at + i] = 1.0
        at += len(self.FLAGS)
        if player.shogun is not None:
            w[at + letters[player.shogun]] = 1.0
        at += t
        for letter in player.shogun_candidates:
            w[at + letters[letter]] = 1.0
        at += t
        pile_size = self.PILE * card
        self._pile(w, at, player.hand, "hand")
        self._pile(w, at + pile_size, player.deck, "deck")
        self._pile(w, at + 2 * pile_size, player.stock, "stock")
        self._pile(w, at + 3 * pile_size, player.prepared, "prepared")
        self._pile(w, at + 4 * pile_size, player.picks, "picks")
        self._pile(w, at + 5 * pile_size, player.mod3_choices, "mod3_choices")
        at += len(self.PILES) * pile_size
        row = player.row
        if len(row) > self.ROW:
            raise SengokuError(f"gunshi encoder: a Command Row of {len(row)} cards")
        for i, entry in enumerate(row):
            self._row_card(w, at + i * row_card, entry)
        at += self.ROW * row_card
        self._row_card(w, at, player.lightning)
        at += row_card
        box = player.advanced_in_box
        if box is not None:
            w[at] = 1.0
            for code in box:
                w[at + 1 + self.cards[code]] += 1.0

    def _player_changed(
        self,
        w: Any,
        at: int,
        player: SideSnapshot,
        before: SideSnapshot,
        written: list[tuple[int, int]],
    ) -> None:
        """:meth:`_player`'s block at ``at`` of the memoryview ``w`` brought from ``before``'s
        entries to ``player``'s: the counters and flags written, and of the rest (the Shogun, the
        candidates, each pile, the Command Row, the Lightning card, the box) only the parts
        that differ, zeroed first. Each span written is added to ``written``."""
        t = len(self.LETTERS)
        card = 2 + self.num_cards
        row_card = 3 + self.num_cards
        head = 4 + len(self.FLAGS)
        w[at] = player.points
        w[at + 1] = player.fences_left
        w[at + 2] = player.invaders
        w[at + 3] = player.removed
        for i, flag in enumerate(
            (
                player.face_down_next,
                player.chain_trap_beside,
                player.inspiration_used,
                player.shogun_chosen,
                player.shogun_revealed,
            )
        ):
            w[at + 4 + i] = 1.0 if flag else 0.0
        written.append((at, at + head))
        letters = self.letters
        k = at + head
        if player.shogun != before.shogun:
            clear_entries(w, k, k + t)
            if player.shogun is not None:
                w[k + letters[player.shogun]] = 1.0
            written.append((k, k + t))
        k += t
        if player.shogun_candidates != before.shogun_candidates:
            clear_entries(w, k, k + t)
            for letter in player.shogun_candidates:
                w[k + letters[letter]] = 1.0
            written.append((k, k + t))
        k += t
        pile_size = self.PILE * card
        # In the order of PILES (read by name, not with getattr: compiled, a field read
        # costs a fraction of a lookup by name).
        for name, cards, was in (
            ("hand", player.hand, before.hand),
            ("deck", player.deck, before.deck),
            ("stock", player.stock, before.stock),
            ("prepared", player.prepared, before.prepared),
            ("picks", player.picks, before.picks),
            ("mod3_choices", player.mod3_choices, before.mod3_choices),
        ):
            if cards is not was and cards != was:
                clear_entries(w, k, k + pile_size)
                self._pile(w, k, cards, name)
                written.append((k, k + pile_size))
            k += pile_size
        if player.row != before.row:
            row = player.row
            if len(row) > self.ROW:
                raise SengokuError(f"gunshi encoder: a Command Row of {len(row)} cards")
            size = self.ROW * row_card
            clear_entries(w, k, k + size)
            for i, entry in enumerate(row):
                self._row_card(w, k + i * row_card, entry)
            written.append((k, k + size))
        k += self.ROW * row_card
        if player.lightning != before.lightning:
            clear_entries(w, k, k + row_card)
            self._row_card(w, k, player.lightning)
            written.append((k, k + row_card))
        k += row_card
        box = player.advanced_in_box
        if box != before.advanced_in_box:
            size = 1 + self.num_cards
            clear_entries(w, k, k + size)
            if box is not None:
                w[k] = 1.0
                for code in box:
                    w[k + 1 + self.cards[code]] += 1.0
            written.append((k, k + size))

    def _index(self, names: tuple[str, ...] | str, value: str, what: str) -> int:
        try:
            return names.index(value)
        except ValueError:
            raise SengokuError(
                f"gunshi encoder: {what} {value!r} is not one of {', '.join(names)}"
            ) from None

    def _command(
        self,
        w: Entries,
        at: int,
        command: Iterable[tuple[str, Any]],
        cells: Mapping[str, int],
        dirs: Mapping[str, int],
    ) -> None:
        nc = self.num_cards
        t = len(self.LETTERS)
        w[at] = 1.0
        at += 1
        base = {
            "card": at,
            "type": at + nc,
            "step": at + nc + len(self.CMD_TYPES),
        }
        modes_at = base["step"] + len(self.CMD_STEPS)
        piece_at = modes_at + 2 * len(self.MODES)
        rapid_at = piece_at + 3
        shots_at = rapid_at + len(self.RAPID)
        dir_at = shots_at + 1
        origin_at = dir_at + 4
        cell_at = origin_at + self.CELLS
        refs_at = cell_at + self.CELLS
        seqs_at = refs_at + len(self.UNIT_REFS) * t
        for key, value in command:
            if key == "card":
                w[base["card"] + self.cards[value]] = 1.0
            elif key == "type":
                w[base["type"] + self._index(self.CMD_TYPES, value, "command type")] = 1.0
            elif key == "step":
                w[base["step"] + self._index(self.CMD_STEPS, value, "command step")] = 1.0
            elif key == "mode":
                w[modes_at + self._index(self.MODES, value, "command mode")] = 1.0
            elif key == "modes":
                for mode in value:
                    w[modes_at + len(self.MODES) + self._index(self.MODES, mode, "mode")] = 1.0
            elif key == "piece":
                w[piece_at + self._index(self.TYPES, value, "command piece")] = 1.0
            elif key == "rapid":
                if value:
                    w[rapid_at + self._index(self.RAPID, value, "Rapid-Move progress")] = 1.0
            elif key == "shots":
                w[shots_at] = value
            elif key == "dir":
                w[dir_at + dirs[value]] = 1.0
            elif key == "origin":
                w[origin_at + cells[value]] = 1.0
            elif key == "cell":
                w[cell_at + cells[value]] = 1.0
            elif key in self.UNIT_REFS:
                w[refs_at + self.UNIT_REFS.index(key) * t + self.letters[value]] = 1.0
            elif key in self.UNIT_SEQUENCES:
                self._letters(w, seqs_at + self.UNIT_SEQUENCES.index(key) * t, value)
            else:
                raise SengokuError(f"gunshi encoder: the command's {key!r} is not encoded")


def _side_of_view(player: Mapping[str, Any]) -> SideSnapshot:
    lightning = player["lightning"]
    return SideSnapshot(
        player["points"],
        player["fences_left"],
        player["invaders"],
        player["removed"],
        player["face_down_next"],
        player["chain_trap_beside"],
        player["inspiration_used"],
        player["shogun_chosen"],
        player["shogun_revealed"],
        player["shogun"],
        player["shogun_candidates"],
        player["hand"],
        player["deck"],
        player["stock"],
        player["prepared"],
        player["picks"],
        player["mod3_choices"],
        [(c["card"], c["face_up"]) for c in player["row"]],
        None if lightning is None else (lightning["card"], lightning["face_up"]),
        player.get("advanced_in_box"),
    )


def _plain(value: Any) -> Any:
    """A command field the view shows as the state's JSON has it (``to_json``'s rule)."""
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


def _letters_of(units: tuple[int, ...]) -> list[str]:
    return [LETTERS[u] for u in units]


#: Each command field's value as ``command_view`` names it (``to_json``'s value, then the
#: view's names for units, cells and facings), looked up once per field instead of tested.
_VIEW_OF: dict[str, Callable[[Any], Any]] = {
    name: (
        LETTERS.__getitem__
        if name in UNIT_KEYS
        else _letters_of
        if name in UNITS_KEYS
        else cn
        if name == "origin" or name == "cell"
        else DIR_NAMES.__getitem__
        if name == "dir"
        else _plain
    )
    for name in (field.name for field in dataclasses.fields(Command))
}


def _command_items(cmd: Command) -> tuple[tuple[str, Any], ...]:
    """``tuple(command_view(cmd).items())`` in one pass: the command's JSON (``to_json``)
    and the view's names for it (``command_view``) made together, without the two dicts in
    between (a quarter of the time), when a capture's copy of the command is encoded (a
    snapshot never encoded never names it). The fields are read by name (a compiled
    Command, a native class, has no ``__dict__``) and named through :data:`_VIEW_OF`. The test
    ``test_capture_encodes_as_the_view_and_stays_put`` holds it to the view's command."""
    view_of = _VIEW_OF
    return tuple(
        [
            (name, view_of[name](value))
            for name in key_order(cmd)
            if (value := getattr(cmd, name)) is not None
        ]
    )


def _write_unit(
    w: Entries, at: int, u: int, own: bool, token_type: int, facing: int, shield: bool
) -> None:
    """A unit's entries in its Field cell at ``at``: its side and type, its facing, its
    shield and its token."""
    w[at + (0 if own else 3) + token_type] = 1.0
    w[at + 6 + facing] = 1.0
    if shield:
        w[at + 10] = 1.0
    w[at + 11 + u] = 1.0
