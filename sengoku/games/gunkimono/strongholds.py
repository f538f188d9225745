"""Strongholds (rulebook: "Building Strongholds", the stronghold rules, "3. Assess Strongholds").

* **Building Strongholds**: once all five of a player's honor markers are at or above the
  row of the lowest remaining stronghold, after scoring points, the player builds it on a
  troop in a formation that holds no stronghold (``own_double_stronghold`` allows the
  player's own); that formation is now controlled. One per turn.
* **Stronghold rule 1**: no army tile on a stronghold's troop (``placement.py`` asks
  ``on_stronghold``).
* **Stronghold rule 2**: no victory points for a troop that joins a controlled formation
  (``scoring.py`` reads ``controlled``).
* **Stronghold rule 3**: a tile may shrink or split a controlled formation; only the part
  with the stronghold stays controlled (follows from the formations being recomputed).
* **Stronghold rule 4**: no tile may link formations controlled by different players
  (``links_controlled``; ``link_own_formations`` rules on one player's two).
* **3. Assess Strongholds**: each of the player's strongholds scores the size of its
  formation, every turn (``assess``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

import sengoku.games.gunkimono.turn_record as turn_record
from sengoku.core.game import Event, event
from sengoku.core.sentence import said, say
from sengoku.core.substate import INT_ROWS, INTS, Part, part_field
from sengoku.games.gunkimono.actions import CELLS, BuildStronghold, cell_name
from sengoku.games.gunkimono.battlefield import FACE_DOWN, NEIGHBOURS, tell, troop_word
from sengoku.games.gunkimono.data import components
from sengoku.games.gunkimono.formations import Formations, formation, formations
from sengoku.games.gunkimono.honor_track import REMOVED
from sengoku.games.gunkimono.turn_sequence import Phase
from sengoku.games.gunkimono.victory_points import gain

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

_C: Final = components()

RULE_1: Final = said(say("Stronghold rule 1: no army tile may be placed on a stronghold's troop"))
RULE_2: Final = said(
    say("Stronghold rule 2: no victory points for a troop that joins a formation with a stronghold")
)
RULE_4: Final = said(
    say("Stronghold rule 4: this would link formations controlled by different players")
)


@mypyc_attr(native_class=False)  # a subclass of the core's Part, a Python class
@dataclass(slots=True)
class Strongholds(Part):
    """The strongholds built: what building them alone writes."""

    #: The seat whose stronghold stands on each square (-1: none).
    sh_owner: list[int] = part_field(INTS)
    #: Each seat's stronghold squares, in the order built.
    strongholds: list[list[int]] = part_field(INT_ROWS)
    #: ``[seat, turn number]`` of each stronghold built.
    built_at: list[list[int]] = part_field(INT_ROWS, default_factory=list)

    @classmethod
    def fresh(cls, players: int) -> Strongholds:
        """None built yet."""
        return cls([-1] * CELLS, [[] for _ in range(players)])


# ---------------------------------------------------------------- the stronghold rules


def on_stronghold(state: GunkimonoState, cell: int) -> bool:
    """Stronghold rule 1: does a stronghold stand on ``cell``?"""
    return state.fortresses.sh_owner[cell] >= 0


def controlled(state: GunkimonoState, squares: set[int]) -> bool:
    """Stronghold rule 2: does this formation hold a stronghold?"""
    sh = state.fortresses.sh_owner
    return any(sh[x] >= 0 for x in squares)


def may_link(state: GunkimonoState) -> bool:
    """Can any placement link controlled formations (two strongholds on the board)?"""
    built = 0
    for s in state.fortresses.strongholds:  # a loop, not sum() over a generator (compiled)
        built += len(s)
    return built >= 2


def links_controlled(
    state: GunkimonoState, a: int, ta: int, b: int, tb: int, board: Formations
) -> bool:
    """Stronghold rule 4: would troops ``ta`` on ``a`` and ``tb`` on ``b`` link formations
    the rule keeps apart (two players' formations; also one player's two, if
    ``link_own_formations`` is off)?"""
    comp, held = board.comp, board.held
    if len(held) < 2:
        return False
    top = state.battlefield.top
    for x, t in ((a, ta), (b, tb)):
        near = {
            comp[nb]
            for nb in NEIGHBOURS[x]
            if nb != a and nb != b and top[nb] == t and comp[nb] in held
        }
        if len(near) < 2:
            continue
        # Possibly linking: look at the formation as it would be after the placement.
        old = top[a], top[b]
        top[a], top[b] = ta, tb
        try:
            squares = formation(top, x)
        finally:
            top[a], top[b] = old
        groups = {comp[c] for c in squares if state.fortresses.sh_owner[c] >= 0}
        if len(groups) < 2:
            continue
        owners = {state.fortresses.sh_owner[held[g][0]] for g in groups}
        if len(owners) > 1 or not state.options["link_own_formations"]:
            return True
    return False


def why_links(state: GunkimonoState, a: int, t1: int, b: int, t2: int) -> str | None:
    """Stronghold rule 4's refusal of troops ``t1`` on ``a`` and ``t2`` on ``b``, if any."""
    if may_link(state) and links_controlled(state, a, t1, b, t2, formations(state)):
        return RULE_4
    return None


# ---------------------------------------------------------------- building strongholds


def stronghold_due(state: GunkimonoState, seat: int) -> bool:
    """All five markers at or past the row of the lowest remaining stronghold?"""
    built = len(state.fortresses.strongholds[seat])
    if built >= 2:
        return False
    row = _C.stronghold_rows[state.num_players][built]
    removed_ok = state.options["removed_marker_counts"]
    # A plain loop, not all() over a generator: asked as step 2 begins and ends, every turn.
    for r in state.honor_track.honor[seat]:
        if not ((r == REMOVED and removed_ok) or (r != REMOVED and r >= row)):
            return False
    return True


def stronghold_cells(state: GunkimonoState, seat: int) -> list[int]:
    """The squares where ``seat`` may build a stronghold now (cached with the formations)."""
    board = formations(state)
    key = (seat, bool(state.options["own_double_stronghold"]))
    cells = board.sites.get(key)
    if cells is None:
        cells = board.sites[key] = _find_stronghold_cells(state, seat, board)
    return list(cells)


def _find_stronghold_cells(state: GunkimonoState, seat: int, board: Formations) -> list[int]:
    comp, sh, top = board.comp, state.fortresses.sh_owner, state.battlefield.top
    own_ok = state.options["own_double_stronghold"]
    # Formations closed to a new stronghold: those holding one (unless all of them are
    # the seat's own and the option allows that).
    closed = {
        g
        for g, squares in board.held.items()
        if not (own_ok and all(sh[s] == seat for s in squares))
    }
    return [c for c in range(CELLS) if sh[c] < 0 and top[c] != FACE_DOWN and comp[c] not in closed]


#: Every stronghold decision, made once (by square).
_BUILDS: Final[list[BuildStronghold]] = [BuildStronghold(c) for c in range(CELLS)]


def legal_builds(state: GunkimonoState) -> list[BuildStronghold]:
    return [_BUILDS[c] for c in stronghold_cells(state, state.sequence.turn)]


def why_not_build(state: GunkimonoState, action: BuildStronghold) -> str | None:
    if state.sequence.phase is not Phase.STRONGHOLD:
        return said(
            say("no stronghold to build now; now: {now}", now=state.sequence.phase.prompt_word)
        )
    if action.cell not in stronghold_cells(state, state.sequence.turn):
        return said(
            say(
                "a stronghold goes on a troop in a formation that holds no stronghold "
                "(option own_double_stronghold allows your own)"
            )
        )
    return None


def begin_building(state: GunkimonoState, events: list[Event]) -> None:
    """Once the placed troops are scored, a stronghold that is due (``stronghold_due``: the
    flow comes here only then) is built, unless every formation holds one: then it is told,
    and there is no decision (``built``)."""
    seat = state.sequence.turn
    if not stronghold_cells(state, seat):
        if not state.muted:
            events.append(
                event(
                    "stronghold_blocked",
                    seat=seat,
                    message=say(
                        "Seat {seat} cannot build a stronghold: every formation holds one.",
                        seat=seat,
                    ),
                )
            )


def built(state: GunkimonoState) -> bool:
    """The stronghold that was due is built (one a turn), or none can be placed: the flow's
    ``end``, after which step 3 follows."""
    seat = state.sequence.turn
    last = state.fortresses.built_at[-1:]
    if last and last[0][0] == seat and last[0][1] == state.sequence.turns:
        return True
    return not stronghold_cells(state, seat)


def build(state: GunkimonoState, action: BuildStronghold, events: list[Event]) -> None:
    seat = state.sequence.turn
    state.fortresses.strongholds[seat].append(action.cell)
    state.fortresses.sh_owner[action.cell] = seat
    state.fortresses.built_at.append([seat, state.sequence.turns])
    size = len(state.formation(action.cell))
    turn_record.scored(
        state, turn_record.STRONGHOLD_BUILT, state.battlefield.top[action.cell], action.cell, size
    )
    if not state.muted:
        events.append(
            event(
                "stronghold",
                seat=seat,
                cell=cell_name(action.cell),
                message=say(
                    "Seat {seat} builds a stronghold on the {troop} at {square} (formation of {size}).",
                    seat=seat,
                    troop=troop_word(state.battlefield.top[action.cell]),
                    square=cell_name(action.cell),
                    size=size,
                ),
            )
        )


# ---------------------------------------------------------------- 3. assess strongholds


def assess(state: GunkimonoState, events: list[Event]) -> None:
    """Step 3: the player to act scores the size of each of its strongholds' formations."""
    seat = state.sequence.turn
    if not state.fortresses.strongholds[seat]:
        return
    sizes = [len(state.formation(c)) for c in state.fortresses.strongholds[seat]]
    gain(state, seat, sum(sizes), by_strongholds=True)
    turn_record.scored(state, turn_record.STRONGHOLDS, -1, -1, sum(sizes))
    if not state.muted:
        events.append(
            tell(
                {
                    "type": "assess",
                    "audience": None,
                    "seat": seat,
                    "points": sum(sizes),
                    # "3 + 4": the sizes of its formations, as numbers read in any language.
                    "message": say(
                        "Seat {seat}'s strongholds score {sizes} VP.",
                        seat=seat,
                        sizes=" + ".join(map(str, sizes)),
                    ),
                }
            )
        )


def controlled_troops(state: GunkimonoState, seat: int) -> int:
    """Troops in the formations the seat's strongholds stand in (the end's tie-break)."""
    seen: set[int] = set()
    for cell in state.fortresses.strongholds[seat]:
        if cell not in seen:
            seen |= state.formation(cell)
    return len(seen)
