"""Gunshi's observation encoder for research tools: one flat vector: the Field per cell (units by owner, type,
facing, Shield, letter), Fences per edge, each side's points, Shogun and cards (unknown where
hidden), the phase and the command being resolved, from the observer's side.

Gunshi.observation_encoder() declares it. It reads ``view(seat)`` and nothing else (see
:mod:`sengoku.core.observation`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sengoku.core.game import SengokuError
from sengoku.core.observation import Encoder, Entries, entries_of


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
        from sengoku.games.gunshi.data import CARD_CODES, EDGE_CELLS, EDGE_OF, LETTERS, TOKEN_TYPE

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

    def _row_card(self, w: Entries, at: int, card: Mapping[str, Any] | None) -> None:
        if card is None:
            return
        w[at] = 1.0
        if card["face_up"]:
            w[at + 1] = 1.0
        code = card["card"]
        if code is None:
            w[at + 2] = 1.0
        else:
            w[at + 3 + self.cards[code]] = 1.0

    def _letters(self, w: Entries, at: int, letters: list[Any]) -> None:
        for position, letter in enumerate(letters):
            index = letter if isinstance(letter, int) else self.letters[letter]
            w[at + index] = position + 1

    def encode_into(self, view: Mapping[str, Any], seat: int | None, out: np.ndarray) -> None:
        w = entries_of(out)
        me = 1 if seat == 1 else 0
        cells = self.cell_index[me]
        dirs = self.dirs[me]
        letters = self.letters
        cards = self.cards
        nc = self.num_cards
        o = self.offsets
        field = o["field"]
        for unit in view["units"]:
            at = field + cells[unit["cell"]] * self.CELL
            u = letters[unit["letter"]]
            w[at + (0 if unit["owner"] == me else 3) + self.token_type[u]] = 1.0
            w[at + 6 + dirs[unit["facing"]]] = 1.0
            if unit["shield"]:
                w[at + 10] = 1.0
            w[at + 11 + u] = 1.0
        edges = self.edge_index[me]
        for fence in view["fences"]:
            w[o["fences"] + edges[fence["edge"]] * 2 + (0 if fence["owner"] == me else 1)] = 1.0
        card = 2 + nc
        for p, player in enumerate(view["players"]):
            self._player(w, o["sides"] + (0 if p == me else 1) * self.side_size, player)
        at = o["globals"]
        w[at + self._index(self.PHASES, view["phase"], "phase")] = 1.0
        at += len(self.PHASES)
        w[at + self._index(self.STEPS, view["step"], "step")] = 1.0
        at += len(self.STEPS)
        if view["to_act"] >= 0:
            w[at + (0 if view["to_act"] == me else 1)] = 1.0
        w[at + 2] = view["turn"]
        w[at + 3] = view["ply"]
        at += 4
        reserve = view["reserve"]
        w[at] = reserve["I"]
        w[at + 1] = reserve["A"]
        w[at + 2] = reserve["C"]
        at += 3
        for code in view["pool"]:
            w[at + cards[code]] += 1.0
        at += nc
        piece = view["formation_piece"]
        if piece:
            w[at + self._index(self.FORMATION_PIECES, piece, "formation_piece")] = 1.0
        at += len(self.FORMATION_PIECES)
        if view["formation_cell"] is not None:
            w[at + cells[view["formation_cell"]]] = 1.0
        at += self.CELLS
        running = view["clock"]["running"]
        if running is not None:
            w[at + (0 if running == me else 1)] = 1.0
        at = o["queue"]
        if view["resolving"] is not None:
            w[at] = 1.0
            w[at + 1 + cards[view["resolving"]]] = 1.0
        at += 1 + nc
        queue = view["queue"]
        if len(queue) > self.QUEUE:
            raise SengokuError(f"gunshi encoder: {len(queue)} cards queued, over {self.QUEUE}")
        self._pile(w, at, queue, "queue")
        w[at + self.QUEUE * card] = view["sent_this_turn"]
        command = view["command"]
        if command is not None:
            self._command(w, o["command"], command, cells, dirs)

    def _player(self, w: Entries, at: int, player: Mapping[str, Any]) -> None:
        """One player's block at ``at`` (the observer's first): counters, flags, Shogun (when
        seen) and candidates, piles, Command Row, Lightning card, Advanced cards in the box."""
        letters = self.letters
        t = len(self.LETTERS)
        card = 2 + self.num_cards
        row_card = 3 + self.num_cards
        w[at] = player["points"]
        w[at + 1] = player["fences_left"]
        w[at + 2] = player["invaders"]
        w[at + 3] = player["removed"]
        at += 4
        for i, flag in enumerate(self.FLAGS):
            if player[flag]:
                w[at + i] = 1.0
        at += len(self.FLAGS)
        if player["shogun"] is not None:
            w[at + letters[player["shogun"]]] = 1.0
        at += t
        for letter in player["shogun_candidates"]:
            w[at + letters[letter]] = 1.0
        at += t
        for pile in self.PILES:
            self._pile(w, at, player[pile], pile)
            at += self.PILE * card
        row = player["row"]
        if len(row) > self.ROW:
            raise SengokuError(f"gunshi encoder: a Command Row of {len(row)} cards")
        for i, entry in enumerate(row):
            self._row_card(w, at + i * row_card, entry)
        at += self.ROW * row_card
        self._row_card(w, at, player["lightning"])
        at += row_card
        box = player.get("advanced_in_box")
        if box is not None:
            w[at] = 1.0
            for code in box:
                w[at + 1 + self.cards[code]] += 1.0

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
        command: Mapping[str, Any],
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
        for key, value in command.items():
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
