"""Observation tensors of a fixed shape, built only from ``view(seat)``.

Every research adapter (OpenSpiel, PettingZoo, Gymnasium) turns what a seat may see into a
numeric array through an :class:`Encoder`. An encoder reads the JSON-ready dict that
``State.view(seat)`` returns and nothing else, so a tensor can never carry more than the
seat is allowed to know.

* :class:`GungiEncoder` - board planes per tier, owner and piece kind, plus hand counts and
  the flags of the position, from the observing seat's side of the board.
* :class:`GunkimonoEncoder` - one flat vector: the battlefield per square, the row, counts of
  tiles by code, banners, and each player (seats relative to the observer).
* :class:`GunshiEncoder` - one flat vector: the Field per cell (units by owner, type, facing,
  Shield, letter), Fences per edge, each side's points, Shogun and cards (unknown where
  hidden), the phase and the command being resolved, from the observer's side.
* :class:`SashimonoEncoder` - one flat vector: each side's Sonae stacks, hands, Sashimono
  spaces and scores, the Kagemusha (solo), the battle, the card being played, the prompt.
* :class:`JsonBytesEncoder` - the generic fallback for games without their own encoder: the
  canonical JSON of the view (sorted keys, no spaces), as UTF-8 bytes, zero-padded to a fixed
  length. It is lossless (two different views never give the same tensor) but a learner has
  to find the structure itself; games gain their own encoder as they need one.

:func:`encoder_for` picks the encoder of a game and its options.
"""

from __future__ import annotations

import functools
import itertools
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, Protocol, cast

import numpy as np

from sengoku.core.game import Action, Game, SengokuError, State


class Entries(Protocol):
    """An encoder's output written one entry at a time (see :func:`entries_of`)."""

    def __getitem__(self, index: int, /) -> float: ...

    def __setitem__(self, index: int, value: float, /) -> None: ...


def entries_of(out: np.ndarray) -> Entries:
    """A memoryview of the flat float32 ``out``: one entry at a time, far cheaper (about
    40 ns) than numpy's item writes (85-125 ns); the values are rounded to float32 alike."""
    return cast(Entries, out.data)


class Encoder(ABC):
    """Turns ``view(seat)`` into a float32 array of the fixed shape ``shape``.

    ``low`` and ``high`` bound every entry (the adapters' observation spaces use them).
    """

    shape: tuple[int, ...]
    low: float = 0.0
    high: float = 1.0

    @abstractmethod
    def encode_into(self, view: Mapping[str, Any], seat: int | None, out: np.ndarray) -> None:
        """Fill ``out`` (zeroed, C-contiguous, of ``shape``) from the view of ``seat``."""

    def encode(self, view: Mapping[str, Any], seat: int | None) -> np.ndarray:
        out = np.zeros(self.shape, np.float32)
        self.encode_into(view, seat, out)
        return out

    def describe(self) -> str:
        """One line for documentation and error messages."""
        return f"{type(self).__name__} {self.shape}"


def canonical_json(view: Mapping[str, Any]) -> str:
    """The one spelling of a view: sorted keys, no white space, non-ASCII kept."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class JsonBytesEncoder(Encoder):
    """The view's canonical JSON as UTF-8 byte values, zero-padded to ``size`` entries.

    Faithful (injective) by construction: the JSON is the view, byte for byte. A view longer
    than ``size`` bytes raises a :class:`SengokuError` naming the game and the sizes, rather
    than being cut.
    """

    high = 255.0

    def __init__(self, game_name: str, size: int) -> None:
        self.game_name = game_name
        self.shape = (size,)

    def encode_into(self, view: Mapping[str, Any], seat: int | None, out: np.ndarray) -> None:
        data = canonical_json(view).encode("utf-8")
        if len(data) > self.shape[0]:
            raise SengokuError(
                f"{self.game_name}: the view of seat {seat} is {len(data)} bytes of JSON, more "
                f"than the observation size {self.shape[0]}; pass a larger obs_size"
            )
        out[: len(data)] = np.frombuffer(data, np.uint8)


class GungiEncoder(Encoder):
    """Gungi planes, ``(CHANNELS, 9, 9)``, from the observing seat's side of the board.

    The board is turned so that the observer's forward is towards row index 0 (White as
    printed, Black rotated by 180 degrees); a spectator (``seat`` None) sees White's side.
    "Own" is the observer's colour (White for a spectator). Channels:

    * ``0 .. 83``: one plane per tier (1-3), owner (own, opponent) and piece kind (14, in
      ``pieces.json`` order): 1 where that piece stands at that tier;
    * ``84 .. 111``: hand counts per owner and kind, the count repeated over the plane;
    * ``112``: 1 when the observer is to act; ``113``: 1 during the setup phase;
      ``114``/``115``: own / opponent still placing in the setup;
      ``116``/``117``: own / opponent Marshal capturable; ``118``: 1 when the observer plays
      Black; ``119``: the ply divided by ``max_game_length`` (the length guard comes closer).

    Faithful: everything in the view except the FEN (which repeats the board, hands and side
    to move) and the outcome (terminal states have no decision to make) is in the planes.
    """

    TIERS = 3

    def __init__(self, max_game_length: int) -> None:
        from sengoku.games.gungi.pieces import PIECES

        self.kinds = {p.name: p.kind for p in PIECES}
        # A hand never holds more of a kind than the set has (4 Pawns).
        self.high = float(max(p.count for p in PIECES))
        self.num_kinds = len(PIECES)
        k = self.num_kinds
        self.hand_base = self.TIERS * 2 * k
        self.flags_base = self.hand_base + 2 * k
        self.channels = self.flags_base + 8
        self.shape = (self.channels, 9, 9)
        self.max_game_length = max_game_length
        # "c-r" square names -> flat index in a 9x9 plane, for White's and Black's side.
        self.squares: tuple[dict[str, int], dict[str, int]] = ({}, {})
        for col in range(1, 10):
            for row in range(1, 10):
                x, y = 9 - col, row - 1
                self.squares[0][f"{col}-{row}"] = y * 9 + x
                self.squares[1][f"{col}-{row}"] = (8 - y) * 9 + 8 - x
        # (tier, own?, piece name) -> the flat offset of its plane, per observer colour.
        self.plane_of: tuple[dict[tuple[int, str, str], int], dict[tuple[int, str, str], int]]
        self.plane_of = ({}, {})
        for me, own in enumerate(("white", "black")):
            for tier in range(self.TIERS):
                for color in ("white", "black"):
                    for name, kind in self.kinds.items():
                        owner = 0 if color == own else 1
                        channel = tier * 2 * k + owner * k + kind
                        self.plane_of[me][(tier, color, name)] = channel * 81
        # The same as nested look-ups, per observer colour: colour -> piece name -> the offset
        # of its plane at each tier (no tuple key to build per piece).
        self.planes: tuple[dict[str, dict[str, tuple[int, ...]]], ...] = tuple(
            {
                color: {
                    name: tuple(plane_of[(tier, color, name)] for tier in range(self.TIERS))
                    for name in self.kinds
                }
                for color in ("white", "black")
            }
            for plane_of in self.plane_of
        )

    def encode_into(self, view: Mapping[str, Any], seat: int | None, out: np.ndarray) -> None:
        me = 1 if seat == 1 else 0
        own_color = ("white", "black")[me]
        squares = self.squares[me]
        planes = self.planes[me]
        # One scattered write for every piece on the board (numpy's per-item writes are slow).
        index = [
            planes[piece["color"]][piece["piece"]][tier] + squares[entry["square"]]
            for entry in view["board"]
            for tier, piece in enumerate(entry["tower"])
        ]
        out.reshape(-1)[index] = 1.0
        k = self.num_kinds
        kinds = self.kinds
        # Hand counts and flags: one value per channel, spread over its plane at once.
        values = [0.0] * (self.channels - self.hand_base)
        for color, hand in view["hands"].items():
            owner = 0 if color == own_color else 1
            for name, count in hand.items():
                values[owner * k + kinds[name]] = count
        f = 2 * k
        if view["current_player"] >= 0 and view["to_move"] == own_color:
            values[f] = 1.0
        if view["phase"] == "setup":
            values[f + 1] = 1.0
        for color in view["drafting"]:
            values[f + 2 + (0 if color == own_color else 1)] = 1.0
        capturable = view["marshal_capturable"]
        if capturable[me]:
            values[f + 4] = 1.0
        if capturable[1 - me]:
            values[f + 5] = 1.0
        if me == 1:
            values[f + 6] = 1.0
        values[f + 7] = min(1.0, view["ply"] / self.max_game_length)
        out[self.hand_base :] = np.asarray(values, np.float32)[:, None, None]


class GunkimonoEncoder(Encoder):
    """Gunkimono as one flat vector, seats relative to the observer.

    Player slot ``i`` is the seat ``i`` places after the observer (slot 0: the observer; a
    spectator observes as seat 0); slots past the player count stay zero. A tile is
    ``(troop one-hot 5, its symbols) x 2``, lower troop type first as in its name; tile counts
    are indexed by the game's tile code (``troop * 2 + symbols - 1`` for each half).

    * board, per square (row-major, 80): top troop one-hot (I S C P A, face-down ``?``),
      symbols, level, stronghold owner slot one-hot (5), a scoring choice pending there
      (flag, VP, VP allowed), the support square flag;
    * the face-up row (3 slots: present flag + tile); the phase one-hot (place, support,
      score, stronghold, draw, over); turn, turns completed, decisions; stack sizes, the end
      stack in play, the end triggered, removed tiles; a large tile placed this turn; passes;
      the slot to act one-hot (5);
    * every large tile on the battlefield, counted by tile code (100); the small tiles placed
      per slot and troop (placed, face up); the banners left per column and kind (5 x 3);
      the turn each slot built its strongholds (+1; 0 not built);
    * per slot: present, score, hand counts by code (the observer's only; others are
      hidden), hand size, tiles of its hand known to all by code, small tiles left per
      troop, honor marker per column (-1 removed), strongholds left, and each banner it holds
      per kind and column (held, value known, value).

    Faithful but for the constants of the environment (seat, options, ending and stronghold
    rows), the order in which large tiles were placed (counted instead: the board shows
    where) and the outcome (terminal states have no decision).
    """

    SLOTS = 5
    PHASES = ("place", "support", "score", "stronghold", "draw", "over")
    ROW = 3
    TILE = 12
    CODES = 100
    CELL = 17
    low = -1.0
    high = 1000.0  # decisions are bounded by max_game_length

    def __init__(self) -> None:
        from sengoku.games.gunkimono.data import components, tile_code

        c = components()
        self.letters = {letter: i for i, letter in enumerate(c.troop_letters)}
        self.troop_index = {**self.letters, "?": 5}  # the top troop's entry; "?": face down
        self.troops = len(c.troop_letters)
        self.banner_kinds = {name: i for i, name in enumerate(c.banner_kinds)}
        self.columns = {name: i for i, name in enumerate(c.troop_names)}
        self.cells = c.width * c.height
        self.width = c.width
        self.cell_base = np.arange(self.cells) * self.CELL
        #: Each cell's symbols entry, then each cell's level entry (from the board's start).
        self.symbols_levels = np.concatenate((self.cell_base + 6, self.cell_base + 7))
        #: The last board's (troops, symbols, levels) lists, their indices and values.
        self._board_cache: (
            tuple[tuple[list[str], list[int], list[int]], np.ndarray, np.ndarray] | None
        ) = None
        # Every tile name ("P1A2": troop, symbols, troop, symbols) -> the game's tile code.
        self.codes = {
            f"{a}{sa}{b}{sb}": tile_code(self.letters[a], sa, self.letters[b], sb)
            for a in c.troop_letters
            for b in c.troop_letters
            for sa in (1, 2)
            for sb in (1, 2)
        }
        n, t = self.SLOTS, self.troops
        kinds = len(c.banner_kinds)
        self.player_size = 1 + 1 + self.CODES + 1 + self.CODES + t + 2 * t + 1 + kinds * 5 * 3
        sizes = [
            ("board", self.cells * self.CELL),
            ("row", self.ROW * (1 + self.TILE)),
            ("globals", len(self.PHASES) + 3 + 5 + 2 + n),
            ("placed", self.CODES),
            ("small", n * t * 2),
            ("banner_stacks", 5 * kinds),
            ("built", n * 2),
            ("players", n * self.player_size),
        ]
        self.offsets: dict[str, int] = {}
        total = 0
        for name, size in sizes:
            self.offsets[name] = total
            total += size
        self.shape = (total,)

    def encode_into(self, view: Mapping[str, Any], seat: int | None, out: np.ndarray) -> None:
        # Scalars are written one at a time through a memoryview of ``out`` (far cheaper than
        # numpy's item writes); counted entries (the banner stacks, hands, known tiles and
        # reserves) are added to, and nothing else writes them. The board's troops, symbols and
        # levels are one numpy write of kept indices and values.
        w = entries_of(out)
        n = view["players_count"]
        me = seat if seat is not None else 0
        slots = [(s - me) % n for s in range(n)]
        letters = self.letters
        codes = self.codes
        o = self.offsets
        cell_size = self.CELL
        board = view["board"]
        cell_at = o["board"]
        troops, symbols, levels = board["troops"], board["symbols"], board["levels"]
        cache = self._board_cache
        if cache is None or cache[0] != (troops, symbols, levels):
            # The board's troops, symbols and levels do not depend on the observer and change
            # only when a tile is placed: their indices and values are kept for equal lists
            # (copies, so that a caller changing its view cannot change the cache).
            cells = self.cells
            top = np.fromiter(map(self.troop_index.__getitem__, troops), np.intp, cells)
            cache = (
                (list(troops), list(symbols), list(levels)),
                np.concatenate((self.cell_base + top, self.symbols_levels)) + cell_at,
                np.concatenate(
                    (
                        np.ones(cells, np.float32),
                        np.fromiter(itertools.chain(symbols, levels), np.float32, 2 * cells),
                    )
                ),
            )
            self._board_cache = cache
        out[cache[1]] = cache[2]
        strongholds = board["strongholds"]
        if max(strongholds) >= 0:
            for cell, owner in enumerate(strongholds):
                if owner >= 0:
                    w[cell_at + cell * cell_size + 8 + (owner - me) % n] = 1.0
        for pending in view["pending"]:
            at = cell_at + self._cell(pending["square"]) * cell_size
            w[at + 13] = 1.0
            w[at + 14] = pending["vp"]
            w[at + 15] = 1.0 if pending["vp_allowed"] else 0.0
        if view["support_square"] is not None:
            w[cell_at + self._cell(view["support_square"]) * cell_size + 16] = 1.0
        at = o["row"]
        for i, name in enumerate(view["row"]):
            k = at + i * (1 + self.TILE)
            w[k] = 1.0
            w[k + 1 + letters[name[0]]] = 1.0
            w[k + 6] = int(name[1])
            w[k + 7 + letters[name[2]]] = 1.0
            w[k + 12] = int(name[3])
        at = o["globals"]
        w[at + self.PHASES.index(view["phase"])] = 1.0
        at += len(self.PHASES)
        w[at] = view["turn"]
        w[at + 1] = view["turns"]
        w[at + 2] = view["decisions"]
        w[at + 3] = view["stack_size"]
        w[at + 4] = view["end_stack_size"]
        w[at + 5] = 1.0 if view["end_stack_in_play"] else 0.0
        w[at + 6] = 1.0 if view["end_triggered"] else 0.0
        w[at + 7] = view["removed_count"]
        w[at + 8] = 1.0 if view["placed_large"] else 0.0
        w[at + 9] = view["passes"]
        if view["current_player"] >= 0:
            w[at + 10 + slots[view["current_player"]]] = 1.0
        placed = view["placed"]
        if placed:  # up to 60 tiles: counted at once
            counted = np.bincount(np.fromiter(map(codes.__getitem__, placed), np.intp))
            out[o["placed"] : o["placed"] + len(counted)] = counted
        at = o["small"]
        troops_n = self.troops
        for owner, troop, face_up in view["placed_small"]:
            k = at + (slots[owner] * troops_n + troop) * 2
            w[k] = 1.0
            w[k + 1] = face_up
        at = o["banner_stacks"]
        kinds = len(self.banner_kinds)
        banner_kinds = self.banner_kinds
        for column, stack in enumerate(view["banner_stacks"]):
            for kind in stack:
                w[at + column * kinds + banner_kinds[kind]] += 1.0
        at = o["built"]
        built_count = [0] * self.SLOTS
        for owner, turn in view["built_at"]:
            k = slots[owner]
            w[at + k * 2 + built_count[k]] = turn + 1
            built_count[k] += 1
        base = o["players"]
        columns = self.columns
        for s, player in enumerate(view["players"]):
            at = base + slots[s] * self.player_size
            w[at] = 1.0
            w[at + 1] = player["score"]
            at += 2
            if player["hand"] is not None:
                for name in player["hand"]:
                    w[at + codes[name]] += 1.0
            at += self.CODES
            w[at] = player["hand_size"]
            at += 1
            for name in player["hand_known"]:
                w[at + codes[name]] += 1.0
            at += self.CODES
            for letter in player["reserve"]:
                w[at + letters[letter]] += 1.0
            at += troops_n
            for column, row in enumerate(player["honor"]):
                if row is None:
                    w[at + column] = -1.0
                    w[at + troops_n + column] = 1.0  # the removed flag
                else:
                    w[at + column] = row
            at += 2 * troops_n
            w[at] = player["strongholds_left"]
            at += 1
            for banner in player["banners"]:
                k = at + (banner_kinds[banner["kind"]] * 5 + columns[banner["column"]]) * 3
                w[k] = 1.0
                if banner["value"] is not None:
                    w[k + 1] = 1.0
                    w[k + 2] = banner["value"]

    def _cell(self, name: str) -> int:
        return (int(name[1:]) - 1) * self.width + ord(name[0]) - ord("a")


#: A kept stack that no stack equals (the entries of a new key are all written).
_UNSET = object()


class SashimonoEncoder(Encoder):
    """Sashimono (duel or solo) as one flat vector, sides relative to the observer.

    Side slot 0 is the observer's side (seat 0 for a spectator), slot 1 the other seat's
    (zero in the solo mode); seats in battles, prompts and turns are one-hot over (observer,
    other seat, Kagemusha). Cards are indexed in the card set's order; a card in an ordered
    pile (a hand, the scored cards, the Kagemusha's line) is written as its position + 1.

    * per side: present, army (west, east); the nine Sonae spaces, each a Kumi stack: present,
      face up, contents unknown, rank, attack, defence, and the type (T K N) at each of its
      three levels; the Kumi hand by position (up to 40, the action space's bound); hand,
      deck, Sashimono hand and Sashimono deck counts; the Sashimono hand; each of the 12
      spaces around the Sonae (present, bowed, card one-hot); VP; scored cards;
    * the Kagemusha (solo): army; its Kumi line (up to 16 stacks as above); Kumi deck and
      Sashimono deck counts, Army position, VP; its Sashimono line (position, bowed); its
      scored cards; its discarded Kumi counted by type;
    * VP target, turn, whose turn, who is to act; the battle (attacker, defender, lines, ante
      counts, bonus); the card being played (card, space, line, effects used in order);
      the prompt (seat, question); cards being looked at (owner, kind, count, the cards).

    Faithful but for the constants of the environment (mode, card set name), the prompt's
    ``rule`` and ``options`` texts (the options are the legal actions: the action mask), the
    order of the Kagemusha's discard pile (counted) and the result (terminal states).
    """

    SIDES = ("observer", "other", "kagemusha")
    ARMIES = ("west", "east")
    CELLS = 9
    STACK = 15
    HAND_MAX = 40
    KAGE_LINE_MAX = 16
    SPACES = 12
    LINES = 7
    USED_MAX = 8
    LOOK_MAX = 8
    QUESTIONS = (
        "ante", "battle", "bonus", "bury", "casualty", "choose", "discard", "do", "flip",
        "gunbai", "keep", "look_bottom", "peek", "perm", "place", "place_at", "play",
        "rearrange", "return_kumi", "return_sas", "slot", "swap", "swap_with", "train",
        "train_with", "turn",
    )  # fmt: skip
    low = -1.0
    high = 4000.0  # turns are bounded by max_game_length

    def __init__(self, cards: str) -> None:
        from sengoku.games.sashimono.cards import card_set
        from sengoku.games.sashimono.state import LINE_NAMES, SLOTS

        card_list = card_set(cards).cards
        self.cards = {c.id: i for i, c in enumerate(card_list)}
        self.num_cards = len(card_list)
        self.kumi = {"T": 0, "K": 1, "N": 2}
        self.spaces = {name: i for i, name in enumerate(SLOTS)}
        self.lines = {name: i for i, name in enumerate(LINE_NAMES)}
        self.questions = {q: i for i, q in enumerate(self.QUESTIONS)}
        nc = self.num_cards
        self.side_size = (
            1 + 2 + self.CELLS * self.STACK + self.HAND_MAX * 3 + 4 + nc
            + self.SPACES * (2 + nc) + 1 + nc
        )  # fmt: skip
        sizes = [
            ("sides", 2 * self.side_size),
            ("kagemusha", 2 + self.KAGE_LINE_MAX * self.STACK + 4 + 2 * nc + nc + 3),
            ("globals", 2 + 3 + 3),
            ("battle", 1 + 3 + 3 + 2 * self.LINES + 3 + 1),
            ("played", 1 + nc + self.SPACES + self.LINES + self.USED_MAX),
            ("prompt", 1 + 3 + len(self.QUESTIONS) + 1),
            ("looking", 1 + 3 + 2 + 1 + self.LOOK_MAX * 3 + nc),
        ]
        self.offsets: dict[str, int] = {}
        total = 0
        for name, size in sizes:
            self.offsets[name] = total
            total += size
        self.shape = (total,)
        #: (observer's seat, -1 for a spectator; the stacks' seat, 2 for the Kagemusha's line)
        #: -> the last stacks shown (copies) and their entries: they change seldom (see
        #: :meth:`_stacks`).
        self._stack_cache: dict[tuple[int, int], tuple[list[Any], np.ndarray]] = {}
        #: A stack's (face, types, rank, attack, defence) -> its entries.
        self._stack_vectors: dict[tuple[Any, ...], np.ndarray] = {}
        self.army_index = {name: i for i, name in enumerate(self.ARMIES)}
        #: Each Sashimono space -> its offset among a side's spaces.
        self.slot_offsets = {name: i * (2 + nc) for name, i in self.spaces.items()}

    def _stack(self, out: np.ndarray, at: int, stack: Mapping[str, Any] | None) -> None:
        if stack is None:
            return
        out[at] = 1.0
        out[at + 1] = 1.0 if stack["face"] == "up" else 0.0
        out[at + 3] = stack["rank"]
        out[at + 4] = stack["attack"]
        out[at + 5] = stack["defence"]
        types = stack["types"]
        if types is None:
            out[at + 2] = 1.0
            return
        for level, letter in enumerate(types):
            out[at + 6 + level * 3 + self.kumi[letter]] = 1.0

    def _stacks(self, out: np.ndarray, at: int, key: tuple[int, int], stacks: list[Any]) -> None:
        """Kumi stacks one after another from ``at`` (a Sonae, or the Kagemusha's line),
        ``key`` naming whose and for which observer. The entries of those stacks are kept as
        one block per key, written with one slice; only the stacks that differ from the last
        ones of that key (copies: a stack holds only strings and numbers) are written into
        the block again, each from the kept entries of a stack equal to it."""
        cached = self._stack_cache.get(key)
        size = self.STACK
        if cached is None or len(cached[0]) != len(stacks):
            cached = ([_UNSET] * len(stacks), np.zeros(len(stacks) * size, np.float32))
            self._stack_cache[key] = cached
        shown, block = cached
        if shown != stacks:
            vectors = self._stack_vectors
            for i, stack in enumerate(stacks):
                if stack != shown[i]:
                    if stack is None:
                        block[i * size : (i + 1) * size] = 0.0
                        shown[i] = None
                        continue
                    what = (
                        stack["face"],
                        stack["types"],
                        stack["rank"],
                        stack["attack"],
                        stack["defence"],
                    )
                    vector = vectors.get(what)
                    if vector is None:
                        vector = vectors[what] = np.zeros(size, np.float32)
                        self._stack(vector, 0, stack)
                    block[i * size : (i + 1) * size] = vector
                    shown[i] = dict(stack)
        out[at : at + len(block)] = block

    def _ordered_cards(self, w: Entries, at: int, ids: list[str]) -> None:
        cards = self.cards
        for position, card in enumerate(ids):
            w[at + cards[card]] = position + 1

    def encode_into(self, view: Mapping[str, Any], seat: int | None, out: np.ndarray) -> None:
        w = entries_of(out)
        me = seat if seat is not None else 0
        observer = seat if seat is not None else -1  # a spectator sees less than seat 0

        # Seat -> observer 0, other seat 1, Kagemusha 2.
        who = {-1: 1, 0: 1, 1: 1, 2: 2, me: 0}.__getitem__
        armies = self.army_index
        nc = self.num_cards
        kumi = self.kumi
        cards = self.cards
        o = self.offsets
        slot_at = self.slot_offsets
        for side in view["sides"]:
            at = o["sides"] + who(side["seat"]) * self.side_size
            w[at] = 1.0
            w[at + 1 + armies[side["army"]]] = 1.0
            at += 3
            self._stacks(out, at, (observer, side["seat"]), side["sonae"])
            at += self.CELLS * self.STACK
            hand = side["hand"]
            if hand:
                if len(hand) > self.HAND_MAX:
                    raise SengokuError(f"sashimono: a hand of {len(hand)} Kumi is over the bound")
                k = at
                for letter in hand:
                    w[k + kumi[letter]] = 1.0
                    k += 3
            at += self.HAND_MAX * 3
            w[at] = side["hand_count"]
            w[at + 1] = side["deck_count"]
            w[at + 2] = side["sashimono_hand_count"]
            w[at + 3] = side["sashimono_deck_count"]
            at += 4
            shown = side["sashimono_hand"]
            if shown:
                for position, card in enumerate(shown, 1):
                    w[at + cards[card]] = position
            at += nc
            for space, placed in side["slots"].items():
                k = at + slot_at[space]
                w[k] = 1.0
                if placed["bowed"]:
                    w[k + 1] = 1.0
                w[k + 2 + cards[placed["card"]]] = 1.0
            at += self.SPACES * (2 + nc)
            w[at] = side["vp"]
            scored = side["scored"]
            if scored:
                for position, card in enumerate(scored, 1):
                    w[at + 1 + cards[card]] = position
        kage = view.get("kagemusha")
        if kage is not None:
            at = o["kagemusha"]
            w[at + armies[kage["army"]]] = 1.0
            at += 2
            line = kage["kumi_line"]
            if len(line) > self.KAGE_LINE_MAX:
                raise SengokuError(f"sashimono: a Kagemusha line of {len(line)} is over the bound")
            self._stacks(out, at, (observer, 2), line)
            at += self.KAGE_LINE_MAX * self.STACK
            w[at] = kage["kumi_deck_count"]
            w[at + 1] = kage["sashimono_deck_count"]
            w[at + 2] = kage["army_position"]
            w[at + 3] = kage["vp"]
            at += 4
            for position, placed in enumerate(kage["sashimono_line"]):
                k = cards[placed["card"]]
                w[at + k] = position + 1
                w[at + nc + k] = 1.0 if placed["bowed"] else 0.0
            at += 2 * nc
            self._ordered_cards(w, at, kage["scored"])
            at += nc
            for letter in kage["discarded_kumi"]:
                w[at + kumi[letter]] += 1.0
        at = o["globals"]
        w[at] = view["vp_target"]
        w[at + 1] = view["turn"]
        w[at + 2 + who(view["turn_seat"])] = 1.0
        if view["current_player"] >= 0:
            w[at + 5 + who(view["current_player"])] = 1.0
        battle = view.get("battle")
        if battle is not None:
            at = o["battle"]
            w[at] = 1.0
            w[at + 1 + who(battle["attacker"])] = 1.0
            w[at + 4 + who(battle["defender"])] = 1.0
            w[at + 7 + self.lines[battle["attack_line"]]] = 1.0
            w[at + 7 + self.LINES + self.lines[battle["defence_line"]]] = 1.0
            for s, count in battle["ante_counts"].items():
                w[at + 7 + 2 * self.LINES + who(int(s))] = count
            w[at + 10 + 2 * self.LINES] = battle["bonus"]
        played = view.get("played")
        if played is not None:
            at = o["played"]
            w[at] = 1.0
            w[at + 1 + cards[played["card"]]] = 1.0
            w[at + 1 + nc + self.spaces[played["slot"]]] = 1.0
            w[at + 1 + nc + self.SPACES + self.lines[played["line"]]] = 1.0
            base = at + 1 + nc + self.SPACES + self.LINES
            for position, effect in enumerate(played["used"]):
                w[base + effect] = position + 1
        prompt = view.get("prompt")
        if prompt is not None:
            at = o["prompt"]
            w[at] = 1.0
            w[at + 1 + who(prompt["seat"])] = 1.0
            w[at + 4 + self.questions.get(prompt["question"], len(self.QUESTIONS))] = 1.0
        looking = view.get("looking")
        if looking is not None:
            at = o["looking"]
            w[at] = 1.0
            w[at + 1 + who(looking["owner"])] = 1.0
            kind_sashimono = looking["kind"] == "sashimono"
            w[at + 4 + (1 if kind_sashimono else 0)] = 1.0
            w[at + 6] = looking["count"]
            shown = looking["cards"] or []
            if kind_sashimono:
                self._ordered_cards(w, at + 7 + self.LOOK_MAX * 3, shown)
            else:
                for position, letter in enumerate(shown):
                    w[at + 7 + position * 3 + kumi[letter]] = 1.0


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
        t = len(self.LETTERS)
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
        row_card = 3 + nc
        for p, player in enumerate(view["players"]):
            at = o["sides"] + (0 if p == me else 1) * self.side_size
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
                    w[at + 1 + cards[code]] += 1.0
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

    def _index(self, names: tuple[str, ...], value: str, what: str) -> int:
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


def legal_table(game: Game, state: State) -> dict[int, Action]:
    """The legal actions of ``state`` by their integers (ascending, as the contract lists them)."""
    legal = state.legal_actions()
    to_int = functools.partial(game.action_to_int, state)
    return dict(zip(map(to_int, legal), legal, strict=True))


class LegalInts:
    """The legal action integers of the position to act, and a constant-time test of one.

    :meth:`update` reads ``legal_actions`` once per position and keeps only the integers (no
    table of actions: the one action played is ``int_to_action`` of its integer, a dict of
    every legal action per ply cost more than that one look-up); membership is one read of a
    flag vector over ``num_distinct_actions`` (set and cleared at the legal entries only).
    """

    __slots__ = ("game", "ints", "_flags")

    def __init__(self, game: Game, num_actions: int) -> None:
        self.game = game
        #: The legal integers, in the contract's order (empty where no seat is to act).
        self.ints: np.ndarray = np.zeros(0, np.intp)
        self._flags = np.zeros(num_actions, np.bool_)

    def update(self, state: State | None) -> None:
        """The legal integers of ``state`` (None: nothing is legal, as at the end)."""
        flags = self._flags
        flags[self.ints] = False
        if state is None:
            self.ints = np.zeros(0, np.intp)
            return
        legal = state.legal_actions()
        to_int = functools.partial(self.game.action_to_int, state)
        ints = np.fromiter(map(to_int, legal), np.intp, len(legal))
        flags[ints] = True
        self.ints = ints

    def __contains__(self, action: int) -> bool:
        return 0 <= action < len(self._flags) and bool(self._flags[action])

    def __len__(self) -> int:
        return len(self.ints)

    def preview(self, count: int = 12) -> str:
        """The first ``count`` legal integers, ascending, for error messages."""
        return str(sorted(self.ints.tolist())[:count])


#: Game name -> factory of its encoder from the game and its resolved options.
ENCODERS: dict[str, Callable[[Game, Mapping[str, Any]], Encoder]] = {
    "gungi": lambda game, options: GungiEncoder(game.max_game_length(**options)),
    "gunkimono": lambda game, options: GunkimonoEncoder(),
    "gunshi": lambda game, options: GunshiEncoder(),
    "sashimono": lambda game, options: SashimonoEncoder(options["cards"]),
}

#: Bytes of JSON the generic encoder keeps (views grow with the game).
DEFAULT_JSON_SIZE = 16384


def encoder_for(game: Game, options: Mapping[str, Any], obs_size: int | None = None) -> Encoder:
    """The encoder of ``game`` with ``options``: its own, else the lossless JSON bytes.

    ``obs_size`` sets the length of the generic encoder (ignored by a game's own encoder).
    """
    resolved = game.resolve_options(**options)
    factory = ENCODERS.get(game.name)
    if factory is not None:
        return factory(game, resolved)
    size = obs_size or DEFAULT_JSON_SIZE
    return JsonBytesEncoder(game.name, size)


__all__ = [
    "ENCODERS",
    "Encoder",
    "GungiEncoder",
    "GunkimonoEncoder",
    "GunshiEncoder",
    "JsonBytesEncoder",
    "LegalInts",
    "SashimonoEncoder",
    "canonical_json",
    "encoder_for",
    "legal_table",
]
