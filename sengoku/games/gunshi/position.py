"""A compact, public position string for Gunshi battles (a FEN of sorts).

``<ranks 7..1> <fences> <to act r|b> <points r,b> <fences in hand r,b> <invaders r,b>
<Red row>/<Blue row> <stage>``

* ranks: 7 cells each, a..g, separated by ``/``; a digit is a run of empty cells; a unit is
  its token letter (upper case Red, lower case Blue; the letter also gives the type) then
  its facing ``n e s w``, then ``-`` for an Infantry without its Shield;
* fences: ``R:d3n,B:d4n`` (canonical edge names) or ``-``;
* rows: the Command Row cards from the Lightning position (``L=`` prefix when used) to
  position 4, joined by ``.``, ``?`` for a face-down card, then ``B=Trap`` for a Chain Trap
  laid beside the board, ``-`` when empty;
* invaders: each side's count on the Invader Spot, then the letters of its invading units
  (``1K,0``: Red's Cavalry K invaded; a shielded Infantry counts 2), so that they are out
  of the Reserve; a count alone (the older form) leaves every unit off the Field in the
  Reserve;
* stage: where the turn stands, ``<step>,<cards sent this turn>,<next facing r><b>``:
  step ``orders`` (the turn starts: Units Follow Orders resolves the Lightning card and
  position 1 first), ``send`` (Send New Commands: the cards of this turn are resolved),
  ``command`` (a card is being resolved: a 9th field, compact JSON, holds the card, the
  cards of the turn still to resolve, whether the mover invaded this turn, and the
  command's progress as ``view()["command"]`` shows it), ``inspiration`` (The Gunshi's
  Inspiration is offered: take an Advanced card) and ``inspiration_remove`` (then remove a
  card of the hand), both with no card sent yet; ``-`` once the game is over;
  the facing of the next card each side sends, ``d`` (down) or ``u`` (up). Without this
  field a position is at the start of the turn, its facings guessed from the row lengths
  (the older 7 fields);
* with ``variant=inspiration``, a last field (after the command), compact JSON: ``"used"``,
  the sides that have had The Gunshi's Inspiration (``"rb"``; left out, and the field with
  it, while neither has), and with Modification 3 ``"pool"``, the shared face-up Advanced
  cards, at every stage.

Only what both players see is written: the Shogun and the hands are not. ``from_position``
builds a Phase 3 position at that stage with each side's Shogun on its first unit in letter
order, face-down cards replaced by the first cards of a Basic deck, and the remaining Basic
cards as hand (3, or 4 while a card is to be removed by the Inspiration) and deck, and
the Advanced cards prepared for the Inspiration (Modifications 1 and 2) the first ones in the
box, one fewer for a side that has taken one.
It refuses what no game reaches: a row of more than 4 cards
(the Lightning position included), more Fences than a player owns (4, on the Field or in
hand), an edge fenced twice, and a live game with an Invader Spot already won.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import sengoku.games.gunshi.battle as battle
import sengoku.games.gunshi.units as units
from sengoku.core.game import SengokuError
from sengoku.games.gunshi.commands.command import command_from_view, command_view
from sengoku.games.gunshi.data import (
    BASIC_DECK,
    CARDS,
    CELLS,
    DIR_NAMES,
    EDGE_NAMES,
    EDGES,
    FENCES_PER_PLAYER,
    INVADERS_TO_WIN,
    LETTERS,
    NUM_TOKENS,
    ROW_LIMIT,
    SIZE,
    TOKEN_TYPE,
    advanced_codes,
    parse_edge,
)
from sengoku.games.gunshi.units import INVADED

if TYPE_CHECKING:
    from sengoku.games.gunshi.game import Gunshi
    from sengoku.games.gunshi.state import GunshiState


class PositionError(SengokuError):
    """A position string that is not a valid Gunshi position; the message names the field."""


def to_position(state: GunshiState) -> str:
    ranks = []
    for r in range(SIZE - 1, -1, -1):
        out = []
        empty = 0
        for c in range(SIZE):
            u = state.field.board[r * SIZE + c]
            if u < 0:
                empty += 1
                continue
            if empty:
                out.append(str(empty))
                empty = 0
            letter = LETTERS[u] if state.field.uown[u] == 0 else LETTERS[u].lower()
            bare = "-" if TOKEN_TYPE[u] == "I" and not state.field.ushield[u] else ""
            out.append(letter + DIR_NAMES[state.field.uface[u]] + bare)
        if empty:
            out.append(str(empty))
        ranks.append("".join(out))
    fences = ",".join(
        f"{'RB'[state.fences.fence[e]]}:{EDGE_NAMES[e]}"
        for e in range(EDGES)
        if state.fences.fence[e] >= 0
    )
    rows = []
    for p in (0, 1):
        cards = [c[0] if c[2] else "?" for c in state.cards.row[p]]
        lt = state.cards.lightning[p]
        text = ".".join(cards)
        if lt is not None:
            text = f"L={lt[0] if lt[2] else '?'}" + (f".{text}" if text else "")
        trap = state.cards.beside[p]
        if trap is not None:  # laid face up beside the board; it springs on a later move
            text += ("." if text else "") + f"B={trap[0]}"
        rows.append(text or "-")
    return " ".join(
        [
            "/".join(ranks),
            fences or "-",
            "rb"[state.player] if state.result is None else "-",
            f"{state.logistics.points[0]},{state.logistics.points[1]}",
            f"{state.fences.fences_left[0]},{state.fences.fences_left[1]}",
            ",".join(f"{state.invader_spot.invaders[p]}{_invaded(state, p)}" for p in (0, 1)),
            "/".join(rows),
            _stage(state),
            *_command(state),
            *_inspiration_field(state),
        ]
    )


def _invaded(state: GunshiState, p: int) -> str:
    """The letters of p's units on the opponent's Invader Spot (upper case Red, lower Blue)."""
    letters = "".join(
        LETTERS[u]
        for u in range(NUM_TOKENS)
        if state.field.uloc[u] == INVADED and state.field.uown[u] == p
    )
    return letters if p == 0 else letters.lower()


_INVADERS = re.compile(r"(\d+)([A-Xa-x]*)")


def _read_invaders(state: GunshiState, text: str) -> None:
    parts = text.split(",")
    matches = [_INVADERS.fullmatch(x) for x in parts]
    if len(parts) != 2 or not all(matches):
        raise PositionError(
            f"invaders: two counts like 1,0, each optionally followed by the letters of the "
            f"invading units (1K,0); got {text!r}"
        )
    for p, m in enumerate(matches):
        assert m is not None
        count, letters = int(m.group(1)), m.group(2)
        state.invader_spot.invaders[p] = count
        if not letters:
            continue  # the older form: which units invaded is not said
        name = ("Red", "Blue")[p]
        if letters != (letters.upper() if p == 0 else letters.lower()):
            raise PositionError(f"invaders: {name}'s units are written in {name}'s case")
        units = [LETTERS.index(x.upper()) for x in letters]
        for u in units:
            if state.field.uloc[u] != -1:
                raise PositionError(f"invaders: unit {LETTERS[u]} is on the Field or repeated")
            state.field.uloc[u] = INVADED
            state.field.uown[u] = p
        most = sum(2 if TOKEN_TYPE[u] == "I" else 1 for u in units)
        if not len(units) <= count <= most:
            raise PositionError(
                f"invaders: {name}'s {len(units)} invading unit(s) count {len(units)}..{most} "
                f"(a shielded Infantry counts 2), not {count}"
            )


def _command(state: GunshiState) -> list[str]:
    """The 9th field, mid-command only: the card resolving, the cards of this turn still to
    resolve and the command's progress, as compact JSON (no spaces)."""
    if state.result is not None or state.orders.cmd is None:
        return []
    data = {
        "resolving": state.battle.cur[0] if state.battle.cur is not None else None,
        "queue": [c[0] if c[2] else "?" for c in state.battle.queue],
        "invaded": state.invader_spot.invaded_turn,
        "command": command_view(state.orders.cmd),
    }
    return [json.dumps(data, separators=(",", ":"))]


def _inspiration_field(state: GunshiState) -> list[str]:
    """The last field, Advanced Variant 1 only, compact JSON: ``"used"``, the sides that have
    had The Gunshi's Inspiration (``"rb"``, left out while neither has), and with
    Modification 3 ``"pool"``, the shared face-up Advanced cards. Both are public, and a game
    loaded without them would offer the Inspiration again, or offer no card at all."""
    if state.options["variant"] != "inspiration" or state.result is not None:
        return []
    data: dict[str, Any] = {}
    if state.options["modification"] == 3:
        data["pool"] = list(state.inspiration.pool)
    used = "".join("rb"[p] for p in (0, 1) if state.inspiration.swap_done[p])
    if used:
        data["used"] = used
    return [json.dumps(data, separators=(",", ":"))] if data else []


def _stage(state: GunshiState) -> str:
    if state.result is not None:
        step = "-"
    elif state.orders.cmd is not None:
        step = "command"
    elif _inspiration_step(state):
        step = _INSPIRATION_STAGES[state.step]
    else:
        step = "send"
    facings = "".join("d" if down else "u" for down in state.cards.face_down_next)
    return f"{step},{state.battle.sent},{facings}"


#: The Gunshi's Inspiration's steps (``state.step``) and the stages that write them.
_INSPIRATION_STAGES = {"take": "inspiration", "remove": "inspiration_remove"}
_STAGE = re.compile(r"(orders|send|command|inspiration|inspiration_remove|-),(\d),([du])([du])")


def _inspiration_step(state: GunshiState) -> bool:
    return state.phase == "battle" and state.step in _INSPIRATION_STAGES


_UNIT = re.compile(r"([A-Xa-x])([nesw])(-?)")


def _pair(text: str, field: str) -> tuple[int, int]:
    try:
        a, b = (int(x) for x in text.split(","))
    except ValueError:
        raise PositionError(f"{field}: expected two numbers like 18,18, got {text!r}") from None
    if a < 0 or b < 0:
        raise PositionError(f"{field}: numbers cannot be negative ({text!r})")
    return a, b


def from_position(game: Gunshi, text: str, **options: Any) -> GunshiState:
    fields = _fields(text)
    ranks_t, fences_t, side_t, pts_t, fl_t, inv_t, rows_t = fields[:7]
    stage = _read_stage(fields[7]) if len(fields) >= 8 else None
    inspiring = stage is not None and stage[0] in _INSPIRATION_STAGES.values()
    mid_command = stage is not None and stage[0] == "command"
    command = _read_command(fields[8]) if mid_command and len(fields) >= 9 else None
    if mid_command and command is None:
        raise PositionError(
            "stage: a position written mid-command has the stage 'command' and a 9th field "
            "with the command; one of the two is missing"
        )
    state = game.new_state(0, **options)
    advanced = _read_inspiration(fields[9:] if mid_command else fields[8:], state.options, stage)
    state.field.uloc = [-1] * NUM_TOKENS
    state.field.uown = [-1] * NUM_TOKENS
    state.field.ushield = [False] * NUM_TOKENS
    state.field.board = [-1] * CELLS
    state.fences.fence = [-1] * EDGES
    _read_ranks(state, ranks_t)
    _read_fences(state, fences_t)
    if side_t == "-":
        raise PositionError("to act: '-' is a finished game; only a live game can be loaded")
    if side_t not in ("r", "b"):
        raise PositionError(f"to act: 'r' or 'b', not {side_t!r}")
    state.logistics.points = list(_pair(pts_t, "points"))
    state.fences.fences_left = list(_pair(fl_t, "fences in hand"))
    _read_invaders(state, inv_t)
    _check_fences_and_invaders(state)
    row_texts = rows_t.split("/")
    if len(row_texts) != 2:
        raise PositionError("rows: Red's row and Blue's row separated by '/'")
    side = "rb".index(side_t)
    state.player = side  # before reset_knowledge: the cards of this turn are the mover's
    for p in (0, 1):
        _read_side(state, p, row_texts[p], stage, p == side, command if p == side else None)
    state.phase = "battle"
    state.step = "send"
    state.battle.turn = 1
    state.deck_construction.pick_order = []
    state.formation.clock_started = True
    if advanced is not None:
        _prepare_inspiration(state, stage[0] if stage is not None else "orders", *advanced)
    _resume(state, stage, command, inspiring)
    state.take_events()
    state.forget_legal_actions()
    return state


def _fields(text: str) -> list[str]:
    """The position's fields (7 to 10), or a refusal saying what a position holds."""
    if not isinstance(text, str):
        raise PositionError(f"a Gunshi position is a string, not {type(text).__name__}")
    fields = text.split()
    if len(fields) not in (7, 8, 9, 10):
        raise PositionError(
            "a Gunshi position has 8 fields: ranks, fences, to act, points, fences in hand, "
            "invaders, rows, stage (the stage may be left out; mid-command a 9th holds the "
            "command; with variant=inspiration a last one holds the Inspiration's state); "
            f"got {len(fields)}"
        )
    return fields


def _read_ranks(state: GunshiState, ranks_t: str) -> None:
    """The units on the Field, rank 7 first: a letter per unit (upper case Red), its facing,
    ``-`` for an Infantry without its Shield, digits for empty cells."""
    ranks = ranks_t.split("/")
    if len(ranks) != SIZE:
        raise PositionError(f"ranks: expected 7 ranks separated by '/', got {len(ranks)}")
    for i, rank in enumerate(ranks):
        _read_rank(state, SIZE - 1 - i, rank)


def _read_rank(state: GunshiState, r: int, rank: str) -> None:
    c = 0
    pos = 0
    while pos < len(rank):
        ch = rank[pos]
        if ch.isdigit():
            c += int(ch)
            pos += 1
            continue
        m = _UNIT.match(rank, pos)
        if not m:
            raise PositionError(f"rank {r + 1}: cannot read {rank[pos:]!r}")
        letter, face, bare = m.groups()
        u = LETTERS.index(letter.upper())
        if state.field.uloc[u] >= 0 or c >= SIZE:
            raise PositionError(f"rank {r + 1}: unit {letter} repeats or runs off the rank")
        owner = 0 if letter.isupper() else 1
        units.put_unit(state, u, owner, r * SIZE + c, DIR_NAMES.index(face))
        if bare:
            if TOKEN_TYPE[u] != "I":
                raise PositionError(f"rank {r + 1}: only Infantry carry Shields ({letter})")
            state.field.ushield[u] = False
        c += 1
        pos = m.end()
    if c != SIZE:
        raise PositionError(f"rank {r + 1}: describes {c} cells, not 7")


def _read_fences(state: GunshiState, fences_t: str) -> None:
    """The Fences on the Field (``R:edge,B:edge``, ``-`` for none)."""
    if fences_t == "-":
        return
    for item in fences_t.split(","):
        colour, _, edge = item.partition(":")
        if colour not in ("R", "B"):
            raise PositionError(f"fences: {item!r} needs an owner R: or B:")
        try:
            e = parse_edge(edge)
        except SengokuError as exc:
            raise PositionError(f"fences: {exc}") from None
        if state.fences.fence[e] >= 0:
            raise PositionError(
                f"fences: edge {EDGE_NAMES[e]} is fenced twice ({item!r}); an edge holds one Fence"
            )
        state.fences.fence[e] = "RB".index(colour)


def _check_fences_and_invaders(state: GunshiState) -> None:
    """A player owns FENCES_PER_PLAYER Fences; a live game has fewer invaders than win."""
    for p, name in ((0, "Red"), (1, "Blue")):
        placed = state.fences.fence.count(p)
        if placed + state.fences.fences_left[p] > FENCES_PER_PLAYER:
            raise PositionError(
                f"fences in hand: {name} has {state.fences.fences_left[p]} in hand and {placed} on the "
                f"Field, but a player owns {FENCES_PER_PLAYER} Fences"
            )
        if state.invader_spot.invaders[p] >= INVADERS_TO_WIN:
            raise PositionError(
                f"invaders: {name} has {state.invader_spot.invaders[p]} on the Invader Spot; "
                f"{INVADERS_TO_WIN} win the game, so a live game has at most "
                f"{INVADERS_TO_WIN - 1}"
            )


def _read_side(
    state: GunshiState,
    p: int,
    row_text: str,
    stage: tuple[str, int, tuple[bool, bool]] | None,
    to_act: bool,
    command: dict[str, Any] | None,
) -> None:
    """Player ``p``'s Shogun candidates, Command Row, Lightning card, hand and deck from their
    row (``to_act``: the side to act; ``command``: the command under way, for that side)."""
    units = [u for u in range(NUM_TOKENS) if state.field.uown[u] == p]
    if not units:
        raise PositionError(f"ranks: {('Red', 'Blue')[p]} has no unit, so no Shogun")
    state.shoguns.shogun[p] = units[0]
    state.shoguns.candidates[p] = units
    spare = list(BASIC_DECK)
    items = [] if row_text == "-" else row_text.split(".")
    if items and items[-1].startswith("B="):
        beside = items.pop()[2:]
        if beside != "Trap":
            raise PositionError("rows: only a Chain Trap (B=Trap) lies beside the board")
        if beside in spare:
            spare.remove(beside)
        state.cards.beside[p] = (beside, True, False)
    if len(items) > ROW_LIMIT:
        raise PositionError(
            f"rows: {('Red', 'Blue')[p]}'s row holds {len(items)} cards; the Command Row "
            f"holds at most {ROW_LIMIT}, the Lightning position included"
        )
    row, lightning = _read_row(items, spare)
    if command is not None:
        state.battle.queue = _read_queue(command, len(items), spare)
    state.cards.row[p] = row
    state.cards.lightning[p] = lightning
    # The Inspiration's removal: the hand holds the Advanced card taken as well.
    removing = stage is not None and stage[0] == "inspiration_remove" and to_act
    n = 4 if removing else 3
    state.cards.hand[p] = [(c, False, False) for c in spare[:n]]
    state.cards.deck[p] = [(c, False, False) for c in spare[n:]]
    state.cards.stock[p] = []
    state.cards.face_down_next[p] = len(row) % 2 == 0 if stage is None else stage[2][p]
    state.reset_knowledge(p)


#: A card as the state holds it: (code, face up, known to its owner's opponent).
_Card = tuple[str, bool, bool]


def _spare_card(code: str, spare: list[str]) -> _Card:
    """The card ``code`` names (``?``: a face-down card, the next of ``spare``), taken out of
    the cards left for the hand and deck."""
    if code == "?":
        return (spare.pop(0) if spare else "M", False, False)
    if code in spare:
        spare.remove(code)
    return (code, True, True)


def _read_row(items: list[str], spare: list[str]) -> tuple[list[_Card], _Card | None]:
    """The Command Row's cards and the Lightning card (``L=`` first) of a row's items."""
    row: list[_Card] = []
    lightning = None
    for k, item in enumerate(items):
        if item.startswith("B="):
            raise PositionError("rows: the Chain Trap beside the board (B=) comes last")
        is_l = item.startswith("L=")
        code = item[2:] if is_l else item
        if is_l and k != 0:
            raise PositionError("rows: the Lightning card (L=) comes first")
        if code != "?" and code not in CARDS:
            raise PositionError(f"rows: unknown card {code!r}; codes: {', '.join(CARDS)}")
        card = _spare_card(code, spare)
        if is_l:
            lightning = card
        else:
            row.append(card)
    return row, lightning


def _read_queue(command: dict[str, Any], in_row: int, spare: list[str]) -> list[_Card]:
    """The cards of this turn still to resolve (the card resolving and they left the row)."""
    if in_row + len(command["queue"]) + 1 > ROW_LIMIT:
        raise PositionError(
            f"command: the row and the cards of this turn hold more than {ROW_LIMIT} cards"
        )
    if command["resolving"] in spare:
        spare.remove(command["resolving"])
    return [_spare_card(code, spare) for code in command["queue"]]


def _resume(
    state: GunshiState,
    stage: tuple[str, int, tuple[bool, bool]] | None,
    command: dict[str, Any] | None,
    inspiring: bool,
) -> None:
    """Put the game where the stage says: mid-command, mid-Inspiration, at the turn's
    orders, or after ``sent`` cards sent this turn."""
    if command is not None:
        _resume_command(state, command)
    elif stage is not None and inspiring:
        _resume_inspiration(state, stage[0])
    elif stage is None or stage[0] == "orders":
        battle.begin_turn(state)
    else:
        sent = stage[1]
        if sent > len(state.cards.row[state.player]):
            raise PositionError(
                f"stage: {sent} cards sent this turn, but the row of the side to act holds "
                f"{len(state.cards.row[state.player])}"
            )
        state.battle.sent = sent


def _read_command(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError:
        raise PositionError(f"command: compact JSON, not {text[:40]!r}") from None
    if not isinstance(data, dict) or set(data) != {"resolving", "queue", "invaded", "command"}:
        raise PositionError(
            "command: a JSON object with resolving, queue, invaded and command, as written by "
            "Gunshi.position"
        )
    if data["resolving"] not in CARDS:
        raise PositionError(f"command: resolving {data['resolving']!r} is not a card code")
    queue = data["queue"]
    if not isinstance(queue, list) or any(c != "?" and c not in CARDS for c in queue):
        raise PositionError(f"command: queue {queue!r} is not a list of card codes or '?'")
    if not isinstance(data["invaded"], bool):
        raise PositionError("command: invaded is true or false")
    return data


#: The command's fields that name one unit of the side to act (see commands/command.py).
_UNIT_FIELDS = ("leader", "shooter", "builder", "first", "base", "invader")


def _resume_command(state: GunshiState, data: dict[str, Any]) -> None:
    """Put the command back mid-resolution, and check that it has a legal decision."""
    try:
        cmd = command_from_view(data["command"])
    except ValueError as exc:
        raise PositionError(f"command: {exc}") from None
    if cmd.card != data["resolving"]:
        raise PositionError(
            f"command: the command is {cmd.card!r} but {data['resolving']!r} is resolving"
        )
    for key in _UNIT_FIELDS:
        u = getattr(cmd, key)
        if u is not None and (state.field.uown[u] != state.player or state.field.uloc[u] == -1):
            raise PositionError(
                f"command: {key} {LETTERS[u]} is not a unit of the side to act on the Field"
            )
    state.battle.cur = (data["resolving"], True, False)
    state.orders.cmd = cmd
    state.invader_spot.invaded_turn = data["invaded"]
    state.battle.sent = 0
    state.forget_legal_actions()
    try:
        legal = state.legal_actions()
    except (KeyError, ValueError, IndexError, TypeError, AssertionError):
        legal = []
    if not legal:
        raise PositionError(
            f"command: {cmd.step.value!r} of {CARDS[cmd.card].name} has no legal decision "
            "in this position"
        )


def _read_stage(text: str) -> tuple[str, int, tuple[bool, bool]]:
    m = _STAGE.fullmatch(text)
    if m is None:
        raise PositionError(
            f"stage: <step>,<cards sent>,<next facings> such as 'send,1,du' (step orders or "
            f"send; facings d or u for Red then Blue), not {text!r}"
        )
    step, sent, red, blue = m.groups()
    if step == "-":
        raise PositionError(
            "stage: '-' records a finished game; only 'orders', 'send', 'command', "
            "'inspiration' and 'inspiration_remove' load"
        )
    if step in ("orders", "command") and sent != "0":
        raise PositionError("stage: no card is sent before Units Follow Orders ('orders,0,..')")
    if step in _INSPIRATION_STAGES.values() and sent != "0":
        raise PositionError(
            f"stage: The Gunshi's Inspiration comes before any card is sent ('{step},0,..')"
        )
    return step, int(sent), (red == "d", blue == "d")


def _read_inspiration(
    extra: list[str], options: dict[str, Any], stage: tuple[str, int, tuple[bool, bool]] | None
) -> tuple[list[str], str] | None:
    """The Inspiration's field (the last one): the Modification 3 pool and the sides that
    have used the Inspiration; None outside Advanced Variant 1."""
    inspiring = stage is not None and stage[0] in _INSPIRATION_STAGES.values()
    if options["variant"] != "inspiration":
        if inspiring:
            raise PositionError(
                "stage: The Gunshi's Inspiration is Advanced Variant 1; load this position "
                "with the option variant='inspiration'"
            )
        if extra:
            raise PositionError(
                f"stage: a field after the stage ({extra[0][:40]!r}) holds the command, but "
                "the stage 'command' is missing (or The Gunshi's Inspiration's state, with "
                "variant='inspiration')"
            )
        return None
    mod3 = options["modification"] == 3
    if len(extra) > 1:
        raise PositionError("inspiration: one field after the stage (and the command) at most")
    if not extra:
        if mod3:
            raise PositionError(
                'pool: with Modification 3 a last field {"pool":[...]} holds the shared '
                "Advanced cards, without which no card could be taken"
            )
        return [], ""
    try:
        data = json.loads(extra[0])
    except ValueError:
        raise PositionError(f"inspiration: compact JSON, not {extra[0][:40]!r}") from None
    allowed = {"pool", "used"} if mod3 else {"used"}
    if not isinstance(data, dict) or not set(data) <= allowed:
        raise PositionError(
            f"inspiration: a JSON object with {' and '.join(sorted(allowed))} "
            f"(Modification {options['modification']}), not {extra[0][:60]!r}"
        )
    used = data.get("used", "")
    if used not in ("", "r", "b", "rb"):
        raise PositionError(
            f'inspiration: "used" names the sides that had the Inspiration: "r", "b" or '
            f'"rb", not {used!r}'
        )
    if not mod3:
        return [], used
    pool = data.get("pool")
    adv = advanced_codes(options["sanryaku"])
    if not isinstance(pool, list) or any(c not in adv for c in pool):
        raise PositionError(
            f'pool: {{"pool":[...]}} with Advanced card codes ({", ".join(adv)}), '
            f"not {extra[0][:60]!r}"
        )
    # Modification 3 puts two of each usable card face up.
    twice = sorted({c for c in pool if pool.count(c) > 2})
    if twice:
        raise PositionError(f"pool: {', '.join(twice)} shared more than twice")
    return [str(c) for c in pool], used


def _prepare_inspiration(state: GunshiState, stage: str, pool: list[str], used: str) -> None:
    """The Advanced cards each side would have at this stage of a game played to it: the
    sides that had the Inspiration, Modification 3's pool, and the prepared cards of
    Modifications 1 and 2 (hidden: the first ones in the box stand in, one fewer once taken)."""
    mod = state.options["modification"]
    adv = advanced_codes(state.options["sanryaku"])
    for p in (0, 1):
        state.inspiration.swap_done[p] = "rb"[p] in used
        taken = state.inspiration.swap_done[p] or (
            stage == "inspiration_remove" and p == state.player
        )
        if mod in (1, 2):
            state.inspiration.prepared[p] = list(adv[int(taken) : 3])
            state.inspiration.unused[p] = list(adv[3:])
        else:
            state.inspiration.prepared[p] = []
    if mod == 3:
        state.inspiration.pool = list(pool)
    if stage in _INSPIRATION_STAGES.values() and state.inspiration.swap_done[state.player]:
        raise PositionError(
            f"stage: {stage!r}, but {('Red', 'Blue')[state.player]} has already had The "
            "Gunshi's Inspiration (used)"
        )


def _resume_inspiration(state: GunshiState, stage: str) -> None:
    """Put The Gunshi's Inspiration back at its step, and check that it has a decision."""
    state.invader_spot.invaded_turn = True
    state.battle.sent = 0
    state.step = "take" if stage == "inspiration" else "remove"
    state.forget_legal_actions()
    if not state.legal_actions():
        raise PositionError(
            f"stage: {stage!r}, but The Gunshi's Inspiration has no decision in this position"
        )
