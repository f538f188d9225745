"""Gunshi rules data (cards, units, presets) loaded from the JSON files next to this module,
validated at import, plus the board geometry every rule uses.

Board: a 7x7 Field, columns a..g left to right from Red's seat, rows 1..7 with row 1 Red's back
line. A cell is ``row * 7 + col`` (0..48). Directions are absolute, as seen from Red's seat:
0 = n (towards Blue), 1 = e, 2 = s, 3 = w; a unit's left is ``(facing + 3) % 4``. Fences lie on
the edges between two orthogonally adjacent cells: edge ``r * 7 + c`` (0..41) separates
``(r, c)`` from ``(r + 1, c)`` and is written ``<cell>n``; edge ``42 + r * 6 + c`` (42..83)
separates ``(r, c)`` from ``(r, c + 1)`` and is written ``<cell>e``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sengoku.core.game import SengokuError

HERE = Path(__file__).parent
SIZE: Final = 7
CELLS: Final = SIZE * SIZE
EDGES = 84
COLS = "abcdefg"
DIR_NAMES: Final = "nesw"
DR = (1, 0, -1, 0)
DC = (0, 1, 0, -1)
RED, BLUE = 0, 1
COLOUR: Final = ("Red", "Blue")


class GunshiDataError(SengokuError):
    """A Gunshi data file is malformed; the message names the file and field."""


def cell_name(cell: int) -> str:
    return f"{COLS[cell % SIZE]}{cell // SIZE + 1}"


def parse_cell(text: str) -> int:
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in COLS or text[1] not in "1234567":
        raise SengokuError(f"{text!r} is not a cell; cells are a1..g7")
    return (int(text[1]) - 1) * SIZE + COLS.index(text[0])


def _neighbour(cell: int, d: int) -> int:
    r, c = divmod(cell, SIZE)
    r2, c2 = r + DR[d], c + DC[d]
    if 0 <= r2 < SIZE and 0 <= c2 < SIZE:
        return r2 * SIZE + c2
    return -1


#: NEIGHBOUR[cell][d]: the adjacent cell in direction d, or -1 off the board.
NEIGHBOUR: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_neighbour(c, d) for d in range(4)) for c in range(CELLS)
)


def _edge(cell: int, d: int) -> int:
    other = NEIGHBOUR[cell][d]
    if other < 0:
        return -1
    a, b = min(cell, other), max(cell, other)
    ra, ca = divmod(a, SIZE)
    if b - a == SIZE:
        return ra * SIZE + ca
    return 42 + ra * 6 + ca


#: EDGE_OF[cell][d]: the edge on side d of cell, or -1 on the board's outer boundary.
EDGE_OF: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_edge(c, d) for d in range(4)) for c in range(CELLS)
)


def _edge_cells(e: int) -> tuple[int, int]:
    if e < 42:
        return e, e + SIZE
    r, c = divmod(e - 42, 6)
    return r * SIZE + c, r * SIZE + c + 1


#: EDGE_CELLS[edge]: the two cells an edge separates.
EDGE_CELLS: Final[tuple[tuple[int, int], ...]] = tuple(_edge_cells(e) for e in range(EDGES))


def edge_name(e: int) -> str:
    a, _ = EDGE_CELLS[e]
    return cell_name(a) + ("n" if e < 42 else "e")


EDGE_NAMES: tuple[str, ...] = tuple(edge_name(e) for e in range(EDGES))

#: A facing or direction letter in words, for the messages the players read.
FACING_WORDS = {"n": "north", "e": "east", "s": "south", "w": "west"}


def edge_words(name: str) -> str:
    """An edge's name (``d3n``) in words: ``"between d3 and d4"`` (the log reads no codes)."""
    a, b = EDGE_CELLS[parse_edge(name)]
    return f"between {cell_name(a)} and {cell_name(b)}"


def parse_edge(text: str) -> int:
    """``d3n`` (and its other spellings: ``d4s``; ``d3e`` = ``e3w``) -> edge id."""
    text = text.strip().lower()
    if len(text) != 3 or text[2] not in DIR_NAMES:
        raise SengokuError(f"{text!r} is not a fence edge; write a cell and a side, e.g. d3n")
    e = EDGE_OF[parse_cell(text[:2])][DIR_NAMES.index(text[2])]
    if e < 0:
        raise SengokuError(f"{text!r} is on the board's outer boundary, where no fence can stand")
    return e


def home_territory(seat: int) -> frozenset[int]:
    """The first 2 rows plus the 3 centre cells of the third row (rulebook: Phase 1)."""
    rows = (0, 1) if seat == RED else (6, 5)
    third = 2 if seat == RED else 4
    cells = {r * SIZE + c for r in rows for c in range(SIZE)}
    cells |= {third * SIZE + c for c in (2, 3, 4)}
    return frozenset(cells)


HOME: tuple[frozenset[int], frozenset[int]] = (home_territory(RED), home_territory(BLUE))


@dataclass(frozen=True)
class CardSpec:
    code: str
    name: str
    set: str
    copies: int
    chainable: bool
    cost: int
    #: The card text (the rulebook's, shortened), for clients.
    text: str = ""


@dataclass(frozen=True)
class UnitSpec:
    code: str
    name: str
    letters: str
    cost: int
    en_route_cost: int
    shield: bool


def _load(name: str) -> dict[str, Any]:
    path = HERE / name
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise GunshiDataError(f"{path.name}: cannot be read as JSON: {exc}") from None
    if not isinstance(data, dict):
        raise GunshiDataError(f"{path.name}: the top level must be an object")
    return data


def _field(source: str, obj: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in obj:
        raise GunshiDataError(f"{source}: missing field {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise GunshiDataError(f"{source}: field {key!r} has the wrong type ({value!r})")
    return value


def _load_cards() -> tuple[dict[str, CardSpec], dict[str, Any]]:
    data = _load("cards.json")
    cards: dict[str, CardSpec] = {}
    for i, raw in enumerate(_field("cards.json", data, "cards", list)):
        src = f"cards.json: cards[{i}]"
        spec = CardSpec(
            code=_field(src, raw, "code", str),
            name=_field(src, raw, "name", str),
            set=_field(src, raw, "set", str),
            copies=_field(src, raw, "copies", int),
            chainable=_field(src, raw, "chainable", bool),
            cost=_field(src, raw, "cost", int),
            text=_field(src, raw, "text", str) if "text" in raw else "",
        )
        if spec.set not in ("basic", "rikutoh", "sanryaku"):
            raise GunshiDataError(
                f"{src}: set must be basic, rikutoh or sanryaku, not {spec.set!r}"
            )
        if spec.code.casefold() in {c.casefold() for c in cards}:
            raise GunshiDataError(f"{src}: code {spec.code!r} repeats (codes are case-blind)")
        cards[spec.code] = spec
    basic = _field("cards.json", data, "basic_deck", list)
    for code in basic:
        if code not in cards:
            raise GunshiDataError(f"cards.json: basic_deck names unknown card {code!r}")
    for key in ("lightning_cost", "logistical_review_gain", "hand_size", "row_limit"):
        _field("cards.json", data, key, int)
    _field("cards.json", data, "scout_costs", dict)
    return cards, data


def _load_units() -> tuple[dict[str, UnitSpec], dict[str, Any]]:
    data = _load("units.json")
    units: dict[str, UnitSpec] = {}
    for i, raw in enumerate(_field("units.json", data, "units", list)):
        src = f"units.json: units[{i}]"
        spec = UnitSpec(
            code=_field(src, raw, "code", str),
            name=_field(src, raw, "name", str),
            letters=_field(src, raw, "letters", str),
            cost=_field(src, raw, "cost", int),
            en_route_cost=_field(src, raw, "en_route_cost", int),
            shield=_field(src, raw, "shield", bool),
        )
        units[spec.code] = spec
    if sorted(units) != ["A", "C", "I"]:
        raise GunshiDataError("units.json: the units must be I (Infantry), C (Cavalry), A (Archer)")
    letters = "".join(u.letters for u in units.values())
    if len(set(letters)) != len(letters):
        raise GunshiDataError("units.json: a Shogun letter is used by two units")
    for key in ("shields", "fences_per_player", "fence_cost", "starting_points", "invaders_to_win"):
        _field("units.json", data, key, int)
    return units, data


CARDS, CARD_RULES = _load_cards()
CARD_CODES: tuple[str, ...] = tuple(CARDS)
BASIC_DECK: tuple[str, ...] = tuple(CARD_RULES["basic_deck"])
LIGHTNING_COST: Final[int] = CARD_RULES["lightning_cost"]
REVIEW_GAIN: int = CARD_RULES["logistical_review_gain"]
HAND_SIZE: Final[int] = CARD_RULES["hand_size"]
ROW_LIMIT: Final[int] = CARD_RULES["row_limit"]
SCOUT_COSTS: dict[str, int] = dict(CARD_RULES["scout_costs"])

UNITS, UNIT_RULES = _load_units()
#: One entry per physical unit token, in letter order: (letter, unit-type code).
TOKENS: tuple[tuple[str, str], ...] = tuple(
    sorted((letter, u.code) for u in UNITS.values() for letter in u.letters)
)
LETTERS: Final[str] = "".join(letter for letter, _ in TOKENS)
TOKEN_TYPE: Final[tuple[str, ...]] = tuple(t for _, t in TOKENS)
NUM_TOKENS = len(TOKENS)
FENCES_PER_PLAYER: int = UNIT_RULES["fences_per_player"]
FENCE_COST: int = UNIT_RULES["fence_cost"]
STARTING_POINTS: int = UNIT_RULES["starting_points"]
INVADERS_TO_WIN: int = UNIT_RULES["invaders_to_win"]
#: Decisions after which a game ends with no winner (``Gunshi.max_game_length``, any options).
MAX_GAME_LENGTH = 4000
UNIT_TYPES: tuple[str, ...] = ("I", "A", "C")


def advanced_codes(sanryaku: bool) -> tuple[str, ...]:
    """A player's Advanced Command cards: the six Rikutoh cards, plus the Sanryaku promos."""
    sets = ("rikutoh", "sanryaku") if sanryaku else ("rikutoh",)
    return tuple(c.code for c in CARDS.values() if c.set in sets)


@dataclass(frozen=True)
class SidePreset:
    units: tuple[tuple[str, int, int], ...]
    fences: tuple[int, ...]
    hand: tuple[str, ...]
    deck: tuple[str, ...]

    @property
    def cost(self) -> int:
        return sum(UNITS[t].cost for t, _, _ in self.units) + FENCE_COST * len(self.fences)


@dataclass(frozen=True)
class FormationPreset:
    name: str
    title: str
    public_cards: bool
    sides: tuple[SidePreset, SidePreset]


def _load_presets() -> tuple[dict[str, FormationPreset], dict[str, tuple[str, ...]]]:
    data = _load("presets.json")
    formations: dict[str, FormationPreset] = {}
    for name, raw in _field("presets.json", data, "formations", dict).items():
        src = f"presets.json: formations.{name}"
        sides = []
        for seat, colour in enumerate(("red", "blue")):
            side = _field(src, raw, colour, dict)
            ssrc = f"{src}.{colour}"
            units = []
            for text in _field(ssrc, side, "units", list):
                try:
                    t, cell, face = text.split()
                    if t not in UNITS or face not in DIR_NAMES:
                        raise ValueError
                    c = parse_cell(cell)
                except (ValueError, SengokuError):
                    raise GunshiDataError(f"{ssrc}: bad unit {text!r} (want 'I d2 n')") from None
                if c not in HOME[seat]:
                    raise GunshiDataError(f"{ssrc}: {text!r} is outside {colour}'s Home Territory")
                units.append((t, c, DIR_NAMES.index(face)))
            fences = []
            for text in _field(ssrc, side, "fences", list):
                try:
                    fences.append(parse_edge(text))
                except SengokuError as exc:
                    raise GunshiDataError(f"{ssrc}: {exc}") from None
            cards = list(_field(ssrc, side, "hand", list)) + list(_field(ssrc, side, "deck", list))
            if sorted(cards) != sorted(BASIC_DECK):
                raise GunshiDataError(f"{ssrc}: hand + deck must be the 7 Basic Command cards")
            if len({c for _, c, _ in units}) != len(units) or len(set(fences)) != len(fences):
                raise GunshiDataError(f"{ssrc}: two pieces share a cell or an edge")
            sides.append(
                SidePreset(tuple(units), tuple(fences), tuple(side["hand"]), tuple(side["deck"]))
            )
        formations[name] = FormationPreset(
            name,
            _field(src, raw, "title", str),
            _field(src, raw, "public_cards", bool),
            (sides[0], sides[1]),
        )
    decks: dict[str, tuple[str, ...]] = {}
    for name, cards in _field("presets.json", data, "decks", dict).items():
        decks[name] = check_deck(cards, f"presets.json: decks.{name}")
    return formations, decks


def check_deck(cards: Any, source: str) -> tuple[str, ...]:
    """A 7-card custom deck: known codes, at most as many of a card as one colour owns."""
    if not isinstance(cards, list | tuple) or len(cards) != 7:
        raise GunshiDataError(f"{source}: a deck is a list of 7 card codes")
    for code in cards:
        if code not in CARDS:
            raise GunshiDataError(f"{source}: unknown card {code!r}; codes: {', '.join(CARDS)}")
        if list(cards).count(code) > CARDS[code].copies:
            raise GunshiDataError(
                f"{source}: {code!r} appears more often than the {CARDS[code].copies} one colour owns"
            )
    return tuple(cards)


FORMATIONS, DECKS = _load_presets()

#: Custom Deck Construction: a deck is always 7 Command cards (rulebook, Setup step 3).
DECK_SIZE = 7
_REPEAT = re.compile(r"^(\d+)\s*[x*]\s*(.+)$", re.IGNORECASE)


def card_code(word: str) -> str:
    """A card by its code or its rulebook name, in any letter case (codes are case-blind)."""
    key = " ".join(word.replace("_", " ").split()).casefold()
    for spec in CARDS.values():
        if key in (spec.code.casefold(), spec.name.casefold()):
            return spec.code
    known = ", ".join(f"{c.code} ({c.name})" for c in CARDS.values())
    raise SengokuError(f"unknown Command card {word.strip()!r}; the cards are: {known}")


def parse_deck(text: str) -> tuple[str, ...]:
    """A deck description -> 7 card codes in card order, checked against the rulebook's limits.

    Cards are named by code or name, separated by commas (``Move, 2x Rapid-Move, ...``) or,
    for codes and one-word names, by spaces (``M M Re Rapid Review Crossbow EnRoute``);
    ``2x Move`` repeats a card. Limits (Custom Deck Construction, Setup): exactly 7 cards,
    and a card at most as often as one colour owns it (both decks are built from these 7
    cards, one colour's copies each).
    """
    if not isinstance(text, str) or not text.strip():
        raise SengokuError(
            "a deck description names 7 Command cards, e.g. 'M M Re F Rf Rapid Scout'"
        )
    items = text.split(",") if "," in text else text.split()
    cards: list[str] = []
    for item in items:
        item = item.strip()
        if not item:
            continue
        m = _REPEAT.match(item)
        count, word = (int(m.group(1)), m.group(2)) if m else (1, item)
        cards += [card_code(word)] * count
    if len(cards) != DECK_SIZE:
        raise SengokuError(
            f"Custom Deck Construction: a deck is exactly {DECK_SIZE} Command cards; "
            f"{text.strip()!r} names {len(cards)}"
        )
    for code in dict.fromkeys(cards):
        spec = CARDS[code]
        if cards.count(code) > spec.copies:
            raise SengokuError(
                f"Custom Deck Construction: {spec.name} ({code}) appears {cards.count(code)} "
                f"times, but each colour owns only {spec.copies} (both decks are built from the "
                "same 7 cards, one colour's copies each)"
            )
    return tuple(sorted(cards, key=list(CARDS).index))


def agreed_cards(value: str) -> tuple[str, ...]:
    """The 7 card codes of an ``agreed_deck`` value: an example's name or a description."""
    return DECKS[value] if value in DECKS else parse_deck(value)


def unit_words(u: int) -> str:
    """A token in words, ``"Infantry B"``: its type and letter (both public)."""
    kind = TOKEN_TYPE[u]
    return f"{UNITS[kind].name} {LETTERS[u]}" if kind in UNITS else LETTERS[u]


def plural(n: int, word: str) -> str:
    """``"1 point"``, ``"2 points"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
