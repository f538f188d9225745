"""Hidden information: what each seat may see, and what it may not.

``view(seat)`` shows the board, the row, stack sizes (never their order or contents), the
count of removed tiles, the honor track, every player's score, reserve, strongholds and the
kinds of their banners; the seat's own hand and banner values; for others only hand sizes
and the tiles seen taken from the row. Banner values are revealed to all at the end.

``determinize(seat, rng)`` deals the tiles the seat has not seen to the other hands, the
stacks and the removed pile, puts the end-of-game tile back at a random place if it has not
appeared, and redistributes the unseen banner values of each kind (for IS-MCTS).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import sengoku.games.gunkimono.turn_record as turn_record
from sengoku.core.game import TERMINAL
from sengoku.games.gunkimono.actions import CELL_NAMES, LETTERS, TILE_NAMES, WIDTH
from sengoku.games.gunkimono.battlefield import HEIGHT, NAMES, TOP_NAMES
from sengoku.games.gunkimono.data import components, tile_troops
from sengoku.games.gunkimono.end_of_the_game import END_TILE
from sengoku.games.gunkimono.formations import formations
from sengoku.games.gunkimono.honor_track import REMOVED
from sengoku.games.gunkimono.strongholds import controlled_troops
from sengoku.games.gunkimono.turn_sequence import Phase
from sengoku.games.gunkimono.views import (
    GunkimonoView,
    LastTurnView,
    PlayerView,
    ScoringView,
    TileFace,
)
from sengoku.games.gunkimono.war_banners import BANNER_KINDS

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

_C: Final = components()

#: Phases in which a seat's own decisions read only what it sees (``determinize`` keeps
#: the legal list there).
_OWN_INFORMATION_PHASES: Final = frozenset(
    {Phase.PLACE, Phase.SUPPORT, Phase.SCORE, Phase.STRONGHOLD}
)


def _player(state: GunkimonoState, s: int, seat: int | None, over: bool) -> PlayerView:
    """Seat ``s`` as ``seat`` may see it."""
    mine = s == seat
    # Names come from tables built once (tile, square, troop letter), not formatted per call.
    tiles, cells, letters, kinds = TILE_NAMES, CELL_NAMES, LETTERS, BANNER_KINDS
    hand = state.supply.hands[s]
    own = state.fortresses.strongholds[s]
    banners = state.war_banners.banners[s]
    score = state.victory_points.score[s]
    by_strongholds = state.victory_points.vp_strongholds[s]
    # Banner values count only for their owner until the end reveals them all.
    banner_points = sum(b[1] for b in banners) if (mine or over) else None
    return {
        "score": score,
        "vp_formations": score - by_strongholds,
        "vp_strongholds": by_strongholds,
        "banner_points": banner_points,
        "total": None if banner_points is None else score + banner_points,
        "controlled_troops": controlled_troops(state, s),
        "hand": [tiles[t] for t in hand] if mine else None,
        "hand_size": len(hand),
        "hand_known": [tiles[t] for t in state.supply.known[s]],
        "reserve": [letters[t] for t in state.supply.reserve[s]],
        "honor": [None if r == REMOVED else r for r in state.honor_track.honor[s]],
        "strongholds": [cells[c] for c in own],
        "strongholds_left": 2 - len(own),
        "banners": [
            {"kind": kinds[k], "column": NAMES[col], "value": v if (mine or over) else None}
            for k, v, col in banners
        ],
    }


def view(state: GunkimonoState, seat: int | None) -> GunkimonoView:
    """What ``seat`` may see (``None``: a spectator), JSON-ready."""
    n = state.num_players
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"seat must be None or 0..{n - 1}, got {seat!r}")
    over = state.sequence.phase is Phase.OVER
    tiles, cells, letters, kinds = TILE_NAMES, CELL_NAMES, LETTERS, BANNER_KINDS
    players = [_player(state, s, seat, over) for s in range(n)]
    return {
        "game": "gunkimono",
        "seat": seat,
        "players_count": n,
        "options": dict(state.options),
        "current_player": TERMINAL if over else state.sequence.turn,
        "phase": state.sequence.phase.value,
        "turn": state.sequence.turn,
        "turns": state.sequence.turns,
        "decisions": state.sequence.decisions,
        "board": {
            "width": WIDTH,
            "height": HEIGHT,
            "troops": list(map(TOP_NAMES.__getitem__, state.battlefield.top)),
            "symbols": list(state.battlefield.sym),
            "levels": list(state.battlefield.level),
            "strongholds": list(state.fortresses.sh_owner),
            "formation": list(formations(state).comp),
        },
        "troop_names": dict(_TROOP_NAMES),  # a copy: a view is its holder's to change
        "small_tile_symbols": _C.small_symbols,
        "tiles": _tile_faces(state, seat),
        "last_turn": _last_turn(state),
        "row": [tiles[t] for t in state.supply.row],
        "stack_size": len(state.supply.stack),
        "end_stack_size": len(state.ending.end_stack),
        "end_stack_in_play": state.ending.end_stack_in_play,
        "end_triggered": state.ending.end_triggered,
        "removed_count": len(state.supply.removed),
        "placed": list(map(tiles.__getitem__, state.battlefield.placed)),
        "placed_small": [list(p) for p in state.battlefield.placed_small],
        "banner_stacks": [
            [kinds[k] for k, _v in state.war_banners.banner_stacks[col]] for col in range(5)
        ],
        "ending_row": _C.ending_row[n],
        "stronghold_rows": list(_C.stronghold_rows[n]),
        "pending": [
            {
                "square": cells[c],
                "troop": letters[t],
                "symbols": sym,
                "vp": vp,
                "vp_allowed": bool(ok),
            }
            for c, t, sym, vp, ok in state.scoring.pending
        ],
        "support_square": cells[state.sequence.support_cell]
        if state.sequence.support_cell >= 0
        else None,
        "placed_large": state.sequence.placed_large,
        "passes": state.sequence.passes,
        "built_at": [list(b) for b in state.fortresses.built_at],
        "players": players,
        "outcome": (o.to_json() if over and (o := state.outcome()) else None),
    }


#: Each troop letter's name, as the rulebook writes it.
_TROOP_NAMES: Final[dict[str, str]] = {
    letter: name.title() for letter, name in zip(LETTERS, _C.troop_names, strict=True)
}


def _face(code: int) -> TileFace:
    (a, sa), (b, sb) = tile_troops(code)
    return {"halves": [{"troop": LETTERS[a], "symbols": sa}, {"troop": LETTERS[b], "symbols": sb}]}


def _tile_faces(state: GunkimonoState, seat: int | None) -> dict[str, TileFace]:
    """The faces of the large tiles this view names (its own hand, the row, tiles seen taken
    and those on the battlefield): only what the view already shows."""
    codes = set(state.supply.row) | set(state.battlefield.placed)
    for s in range(state.num_players):
        codes.update(state.supply.known[s])
    if seat is not None:
        codes.update(state.supply.hands[seat])
    # Made afresh for each view: a view is its holder's to change.
    return {TILE_NAMES[c]: _face(c) for c in sorted(codes) if 0 <= c < 100}


def _last_turn(state: GunkimonoState) -> LastTurnView | None:
    """The latest turn's seat, covered squares and scorings (``turn_record.py``)."""
    if state.record.seat < 0:
        return None
    squares: list[str] = []
    for c in state.record.squares:
        if CELL_NAMES[c] not in squares:
            squares.append(CELL_NAMES[c])
    scores = []
    for kind, troop, square, points in state.record.scores:
        entry: ScoringView = {
            "kind": turn_record.KINDS[kind],
            "troop": LETTERS[troop] if troop >= 0 else None,
            "square": CELL_NAMES[square] if square >= 0 else None,
            "points": points,
        }
        if kind == turn_record.BANNER:
            entry["points"] = None  # its value may be hidden; its kind is public
            entry["banner"] = BANNER_KINDS[points]
        scores.append(entry)
    return {"seat": state.record.seat, "squares": squares, "scores": scores}


def determinize(state: GunkimonoState, seat: int, rng: random.Random) -> GunkimonoState:
    """Resample what ``seat`` cannot see: other hands (beyond tiles seen taken from the
    row), the stacks and removed tiles, the other players' banner values and the banner
    stacks' values, from the tiles and banners ``seat`` has not seen."""
    new = state.clone()
    # On the seat's own turn its actions read only what it sees (its hand and reserve,
    # the board, pending scores, its markers), which stays as it is: the list is kept.
    # Not in the draw step, which reads the resampled stack.
    if not (state.sequence.turn == seat and state.sequence.phase in _OWN_INFORMATION_PHASES):
        new.forget_legal_actions()
    _deal_unseen_tiles(state, new, seat, rng)
    _deal_unseen_banners(new, seat, state.sequence.phase is Phase.OVER, rng)
    return new


def _shuffle(rng: random.Random, items: list[int]) -> None:
    """``rng.shuffle(items)``: the same order from the same numbers drawn the same way, as a
    compiled loop (:func:`_drawn_shuffle`; CPython's ``Random.shuffle`` is Python, and was
    most of a determinization's time). Another generator (a subclass), or an interpreter
    whose shuffle differs (:data:`_SAME_SHUFFLE`), shuffles itself."""
    if type(rng) is random.Random and _SAME_SHUFFLE:
        _drawn_shuffle(rng, items)
    else:
        rng.shuffle(items)


def _drawn_shuffle(rng: random.Random, items: list[int]) -> None:
    """CPython's ``Random.shuffle``: ``items[i]`` swapped with ``items[randbelow(i + 1)]`` for
    ``i = n-1 .. 1``, ``randbelow(m)`` drawing ``getrandbits(m.bit_length())`` until one is
    below ``m``."""
    getrandbits = rng.getrandbits
    i = len(items) - 1
    while i > 0:
        m = i + 1
        k = m.bit_length()
        j = getrandbits(k)
        while j >= m:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
        i -= 1


def _shuffles_alike() -> bool:
    """Whether :func:`_drawn_shuffle` gives ``Random.shuffle``'s order here, and leaves the
    generator where it does (checked once, on a few seeded lists)."""
    for n in (0, 1, 2, 3, 5, 17, 40, 64, 129):
        for seed in (0, 1, 7):
            theirs, ours = random.Random(seed), random.Random(seed)
            expected, items = list(range(n)), list(range(n))
            theirs.shuffle(expected)
            _drawn_shuffle(ours, items)
            if items != expected or theirs.getstate() != ours.getstate():
                return False
    return True


#: Whether :func:`_shuffle` reproduces this interpreter's ``Random.shuffle``.
_SAME_SHUFFLE: Final = _shuffles_alike()


def _counts(items: Sequence[int]) -> dict[int, int]:
    """How many times each value is in ``items``."""
    counts: dict[int, int] = {}
    for x in items:
        counts[x] = counts.get(x, 0) + 1
    return counts


#: How many large tiles of each code the game has.
_TILE_COUNTS: Final[dict[int, int]] = _counts(_C.large_tiles)


def _unsee(pool: dict[int, int], seen: list[int]) -> None:
    """Take the tiles of ``seen`` out of ``pool`` (those it has: the end-of-game tile is not
    a large tile)."""
    for t in seen:
        if t in pool:
            pool[t] -= 1


def _elements(counts: dict[int, int]) -> list[int]:
    """The values with a positive count, each as many times as counted, in ascending order
    (``sorted(Counter.elements())``)."""
    out: list[int] = []
    for x in sorted(counts):
        k = counts[x]
        if k > 0:
            out.extend([x] * k)
    return out


def _deal_unseen_tiles(
    state: GunkimonoState, new: GunkimonoState, seat: int, rng: random.Random
) -> None:
    """The large tiles ``seat`` has not seen, shuffled into the other hands (beyond their
    known tiles), the stacks and the removed pile of ``new``; the end-of-game tile, if it
    has not appeared, at a random place of its stack."""
    n = state.num_players
    supply, ending, into = state.supply, state.ending, new.supply
    # Large tiles: the full set minus every tile this seat can see or knows the place of.
    # Counted in a dict of ints (compiled with mypyc, a Counter's arithmetic would be Python).
    pool = dict(_TILE_COUNTS)
    _unsee(pool, state.battlefield.placed)
    _unsee(pool, supply.row)
    _unsee(pool, supply.hands[seat])
    for s in range(n):
        if s != seat:
            _unsee(pool, supply.known[s])
    tiles = _elements(pool)
    _shuffle(rng, tiles)
    for s in range(n):
        if s == seat:
            continue
        k = len(supply.hands[s]) - len(supply.known[s])
        into.hands[s] = list(supply.known[s]) + tiles[:k]
        into.known[s] = list(supply.known[s])
        tiles = tiles[k:]
    end_in_stack = END_TILE in supply.stack or END_TILE in ending.end_stack
    main = len(supply.stack) - (1 if END_TILE in supply.stack else 0)
    into.stack = tiles[:main]
    tiles = tiles[main:]
    rest = len(ending.end_stack) - (1 if END_TILE in ending.end_stack else 0)
    new.ending.end_stack = tiles[:rest]
    tiles = tiles[rest:]
    into.removed = sorted(tiles)
    if end_in_stack:
        target = into.stack if ending.end_stack_in_play else new.ending.end_stack
        target.insert(rng.randrange(len(target) + 1), END_TILE)


def _deal_unseen_banners(new: GunkimonoState, seat: int, over: bool, rng: random.Random) -> None:
    """Banner values of each kind ``seat`` has not seen, dealt to the unseen banners of
    ``new`` (other seats' claimed ones until the end, and the stacks')."""
    n = new.num_players
    banners = new.war_banners
    for kind in range(len(_C.banner_kinds)):
        if n < _C.banner_min_players[kind]:
            continue
        values = _counts(_C.banner_values[kind])
        slots: list[list[int]] = []
        for s in range(n):
            for b in banners.banners[s]:
                if b[0] == kind:
                    if s == seat or over:
                        values[b[1]] = values.get(b[1], 0) - 1
                    else:
                        slots.append(b)
        for col in range(5):
            slots.extend(b for b in banners.banner_stacks[col] if b[0] == kind)
        vals = _elements(values)
        _shuffle(rng, vals)
        for b, v in zip(slots, vals, strict=True):
            b[1] = v
