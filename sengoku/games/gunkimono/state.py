"""One Gunkimono match in progress: the battlefield, hands, row, stacks, honor track, scores.

The position and the turn live here; each rule of the rulebook lives in a module named for
it, which this class calls (``docs/architecture.md`` has the table):

* Setting Up the Game: ``setup.py``
* Turn Sequence (the four steps, as typed phases): ``turn_sequence.py``
* 1. Place Army Tile, Troop Duplication rule, Level Difference rule: ``placement.py``
* Extra Support rule: ``extra_support.py``
* 2. Score Points, Scoring Victory Points: ``scoring.py`` (formations: ``formations.py``)
* Scoring Honor Points: ``honor_track.py``
* Claiming War Banner Tiles: ``war_banners.py``
* Building Strongholds, the stronghold rules, 3. Assess Strongholds: ``strongholds.py``
* 4. Refill Your Hand: ``refill_your_hand.py``
* End of the Game: ``end_of_the_game.py``
* what each seat may see (views, ``determinize``): ``hidden_information.py``
* the latest turn as the players saw it (its squares and scorings, for the view):
  ``turn_record.py``

The turn's four steps become decisions of the player to act (one decision per action):

1. *place* a large tile (tile + squares + rotation), a small tile face up, or a small tile
   face down as extra *support*, which is followed by the large tile placed over it;
2. *score* each placed troop for victory points or honor points (one decision per troop),
   then, if the honor track allows, choose the square of a *stronghold*;
3. strongholds are assessed (no decision);
4. *draw* from the face-up row or the stack, after a large tile.

Each decision is a phase of the turn's flow (``FLOW``, :mod:`sengoku.core.flow`): its legal
actions and the rule that plays one; ``apply`` is the flow's template.

Every shuffle happens at setup with the seeded RNG and is stored here, so a record (seed and
actions) replays exactly. Hidden: other hands (except tiles seen taken from the row), other
players' banner values, the stacks' order and contents, the tiles removed at setup.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any

import sengoku.games.gunkimono.end_of_the_game as end_of_the_game
import sengoku.games.gunkimono.extra_support as extra_support
import sengoku.games.gunkimono.hidden_information as hidden_information
import sengoku.games.gunkimono.honor_track as honor_track
import sengoku.games.gunkimono.placement as placement
import sengoku.games.gunkimono.refill_your_hand as refill_your_hand
import sengoku.games.gunkimono.scoring as scoring
import sengoku.games.gunkimono.strongholds as strongholds
import sengoku.games.gunkimono.turn_record as turn_record
from sengoku.core.flow import Flow
from sengoku.core.flow import Phase as FlowPhase
from sengoku.core.game import TERMINAL, Event, IllegalAction, Outcome, State, event
from sengoku.games.gunkimono.actions import (
    CELLS,
    BuildStronghold,
    Draw,
    GunkimonoAction,
    Place,
    Score,
    SmallTile,
    troop_name,
)
from sengoku.games.gunkimono.battlefield import (
    FACE_DOWN,
    HEIGHT,
    INDEXED_PAIRS,
    NAMES,
    NEIGHBOURS,
    PAIRS,
    PAIRS_OF,
)
from sengoku.games.gunkimono.data import components, tile_code
from sengoku.games.gunkimono.end_of_the_game import END_TILE
from sengoku.games.gunkimono.extra_support import SUPPORTS
from sengoku.games.gunkimono.formations import Formations, formation, formations
from sengoku.games.gunkimono.honor_track import REMOVED
from sengoku.games.gunkimono.placement import SMALLS
from sengoku.games.gunkimono.setup import set_up
from sengoku.games.gunkimono.turn_sequence import PHASES, PendingScore, Phase

if TYPE_CHECKING:
    from sengoku.games.gunkimono.game import Gunkimono

_C = components()
_INT_ID = attrgetter("int_id")  # an action's integer, stored when it was created


def _sorted(
    generate: Callable[[GunkimonoState], Sequence[GunkimonoAction]],
) -> Callable[[GunkimonoState], list[GunkimonoAction]]:
    """A generator whose actions come out of action-number order, sorted into it."""

    def sorted_actions(state: GunkimonoState) -> list[GunkimonoAction]:
        return sorted(generate(state), key=_INT_ID)

    return sorted_actions


def _place_phase(state: GunkimonoState) -> list[GunkimonoAction]:
    # Generated in action-number order: large tiles, small tiles, then supports.
    out: list[GunkimonoAction] = []
    out.extend(placement.large_placements(state, None))
    out.extend(placement.small_placements(state))
    out.extend(extra_support.supports(state))
    return out


def _support_phase(state: GunkimonoState) -> list[GunkimonoAction]:
    return list(placement.large_placements(state, state.support_cell))


class GunkimonoState(State[GunkimonoAction]):
    """A Gunkimono position; see the module docstring for the shape of a turn."""

    def __init__(self, game: Gunkimono, options: Mapping[str, Any]) -> None:
        self.game = game
        self.options = dict(options)
        n = int(self.options["players"])
        self.num_players = n
        # battlefield
        self.top: list[int] = list(_C.printed)
        self.sym: list[int] = [0] * CELLS
        self.level: list[int] = [0] * CELLS
        self.sh_owner: list[int] = [-1] * CELLS
        self.strongholds: list[list[int]] = [[] for _ in range(n)]
        # tiles
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[int]] = [[] for _ in range(n)]  # hand tiles seen taken from row
        self.reserve: list[list[int]] = [list(range(5)) for _ in range(n)]
        self.row: list[int] = []
        self.stack: list[int] = []  # the draw pile, top = last
        self.end_stack: list[int] = []  # the covered end-game stack until it comes into play
        self.end_stack_in_play = False
        self.removed: list[int] = []
        self.placed: list[int] = []  # large tiles on the battlefield, in order
        self.placed_small: list[list[int]] = []  # [seat, troop, face up 1/0]
        # honor and banners
        self.honor: list[list[int]] = [[0] * 5 for _ in range(n)]
        self.banner_stacks: list[list[list[int]]] = [
            [] for _ in range(5)
        ]  # [kind, value], top last
        self.banners: list[list[list[int]]] = [[] for _ in range(n)]  # [kind, value, column]
        self.score: list[int] = [0] * n
        # turn
        self.turn = 0  # seat whose turn it is
        self.turns = 0  # turns completed
        self._phase = Phase.PLACE
        self.support_cell = -1
        self.placed_large = False
        #: The placed troops still to score in step 2, in order.
        self.pending: list[PendingScore] = []
        self.end_triggered = False
        self.passes = 0
        self.decisions = 0
        self.reason: str | None = None
        #: An ending made by core (concession, timeout, length limit), as Outcome JSON.
        self.ended: dict[str, Any] | None = None
        self.built_at: list[list[int]] = []  # [seat, turn number] of each stronghold built
        #: Victory points each seat scored by assessing its strongholds (step 3); the rest
        #: of ``score`` came from formations (step 2): the breakdown players are shown.
        self.vp_strongholds: list[int] = [0] * n
        #: The latest turn as players saw it: its seat, the squares its tiles covered and
        #: each scoring (``turn_record.py``), kept until the next turn places a tile.
        self.last_seat = -1
        self.last_squares: list[int] = []
        self.last_scores: list[tuple[int, int, int, int]] = []
        self._legal: list[GunkimonoAction] | None = None
        self._board: Formations | None = None

    @property
    def phase(self) -> Phase:
        """The decision asked now (``turn_sequence.Phase``)."""
        return self._phase

    @phase.setter
    def phase(self, value: str) -> None:
        self._phase = Phase(value)

    # ------------------------------------------------------------------ setup

    @classmethod
    def setup(cls, game: Gunkimono, seed: int, options: Mapping[str, Any]) -> GunkimonoState:
        st = cls(game, options)
        set_up(st, seed)
        st._start_turn([])
        return st

    # ------------------------------------------------------------------ contract

    @property
    def current_player(self) -> int:
        return TERMINAL if self._phase is Phase.OVER else self.turn

    def is_terminal(self) -> bool:
        return self._phase is Phase.OVER

    def legal_actions(self) -> list[GunkimonoAction]:
        if self._legal is None:
            self._legal = FLOW.legal(self)
        return list(self._legal)

    def apply(self, action: GunkimonoAction) -> list[Event]:
        """Play one decision through the flow's template (core/flow.py): the phase asked
        now (``FLOW``'s table) plays it."""
        return FLOW.apply(self, action)

    def why_illegal(self, action: Any) -> str | None:
        """None if ``action`` is legal here, else the rule it breaks."""
        if self._phase is Phase.OVER:
            return "the game is over"
        if isinstance(action, Place):
            return placement.why_not_place(self, action)
        if isinstance(action, SmallTile):
            return placement.why_not_small(self, action)
        if isinstance(action, Score):
            return scoring.why_not_score(self, action)
        if isinstance(action, BuildStronghold):
            return strongholds.why_not_build(self, action)
        if isinstance(action, Draw):
            return refill_your_hand.why_not_draw(self, action)
        return f"{action!r} is not a Gunkimono action"

    def _end_game(self, result: Outcome) -> None:
        self.phase = Phase.OVER
        self.reason = result.reason
        self.ended = result.to_json()
        self._legal = None

    def interim_scores(self) -> tuple[float, ...]:
        # The victory points on the track (the hidden war banners are not counted).
        return tuple(float(v) for v in self.score)

    def outcome(self) -> Outcome | None:
        if self._phase is not Phase.OVER:
            return None
        if self.ended is not None:
            return Outcome.from_json(self.ended)
        return end_of_the_game.outcome(self, self.reason)

    def final_scores(self) -> list[int]:
        """Victory points plus the values of the claimed war banners."""
        return end_of_the_game.final_scores(self)

    def controlled_troops(self, seat: int) -> int:
        """Troops in the formations the seat's strongholds stand in (the tie-break)."""
        return strongholds.controlled_troops(self, seat)

    # ------------------------------------------------------------------ the turn

    def _assess_and_refill(self, events: list[Event]) -> None:
        """Step 3, assess strongholds; then step 4, refill the hand, if due, else the turn ends."""
        strongholds.assess(self, events)
        if refill_your_hand.draw_due(self):
            self.phase = Phase.DRAW
            return
        self._end_turn(events)

    def _end_turn(self, events: list[Event]) -> None:
        """The turn is over: the game ends, or the next seat that can place a tile plays."""
        while True:
            self.turns += 1
            self.pending = []
            self.placed_large = False
            reason = end_of_the_game.game_ends_now(self)
            if reason is not None:
                end_of_the_game.finish(self, reason, events)
                return
            self.turn = (self.turn + 1) % self.num_players
            if self._start_turn(events):
                return

    def _start_turn(self, events: list[Event]) -> bool:
        """Begin the turn of ``self.turn``; False if it passed (no legal placement: its
        strongholds are still assessed)."""
        self.phase = Phase.PLACE
        self._legal = None
        if self.legal_actions():
            return True
        seat = self.turn
        self.passes += 1
        turn_record.begin(self)
        events.append(
            event("pass", seat=seat, message=f"Seat {seat} cannot place any tile: the turn passes.")
        )
        strongholds.assess(self, events)
        return False

    # ------------------------------------------------------------------ rules asked by name
    # (the evaluation, the renderer and tests ask the state; the rule modules answer)

    def formation(self, cell: int) -> set[int]:
        """The squares of the formation whose troop stands on ``cell``."""
        return formation(self.top, cell)

    def _formations(self) -> Formations:
        """The formations of the battlefield as it is now (cached while it stays so)."""
        return formations(self)

    def _components(self) -> tuple[list[int], dict[int, list[int]]]:
        """Formation id of each square, and the stronghold squares of each controlled one.

        Shared with other callers and clones: read them, never change them."""
        board = formations(self)
        return board.comp, board.held

    def formation_size(self, cell: int) -> int:
        """``len(self.formation(cell))``, from the cached formations."""
        board = formations(self)
        return board.size[board.comp[cell]]

    def _stronghold_cells(self, seat: int) -> list[int]:
        """The squares where ``seat`` may build a stronghold now."""
        return strongholds.stronghold_cells(self, seat)

    def _advance_honor(self, seat: int, troop: int, points: int, events: list[Event]) -> None:
        honor_track.advance_honor(self, seat, troop, points, events)

    def _bring_end_stack(self, events: list[Event]) -> None:
        end_of_the_game.bring_end_stack(self, events)

    def _finish(self, reason: str, events: list[Event]) -> None:
        end_of_the_game.finish(self, reason, events)

    # ------------------------------------------------------------------ copies, JSON, views
    # (what each seat may see: ``hidden_information.py``)

    _LIST_FIELDS = (
        "top",
        "sym",
        "level",
        "sh_owner",
        "row",
        "stack",
        "end_stack",
        "removed",
        "placed",
        "score",
    )
    _NESTED_FIELDS = (
        "strongholds",
        "hands",
        "known",
        "reserve",
        "placed_small",
        "honor",
        "pending",  # PendingScore records, as lists
        "built_at",
    )
    _SCALARS = (
        "end_stack_in_play",
        "turn",
        "turns",
        "phase",
        "support_cell",
        "placed_large",
        "end_triggered",
        "passes",
        "decisions",
        "reason",
        "ended",
    )
    # What ``clone`` copies the same way (``pending`` holds immutable records; ``phase`` is
    # stored as ``_phase``).
    _CLONE_NESTED = tuple(f for f in _NESTED_FIELDS if f != "pending")
    _CLONE_SCALARS = tuple("_phase" if f == "phase" else f for f in _SCALARS)

    def clone(self) -> GunkimonoState:
        new = GunkimonoState.__new__(GunkimonoState)
        new.game = self.game
        new.options = self.options
        new.num_players = self.num_players
        for f in self._LIST_FIELDS:
            setattr(new, f, list(getattr(self, f)))
        for f in self._CLONE_NESTED:
            setattr(new, f, [list(x) for x in getattr(self, f)])
        for f in self._CLONE_SCALARS:
            setattr(new, f, getattr(self, f))
        new.pending = list(self.pending)  # immutable records: a shallow copy
        new.banner_stacks = [[list(b) for b in s] for s in self.banner_stacks]
        new.banners = [[list(b) for b in s] for s in self.banners]
        new.vp_strongholds = list(self.vp_strongholds)
        new.last_seat = self.last_seat
        new.last_squares = list(self.last_squares)
        new.last_scores = list(self.last_scores)  # immutable records: a shallow copy
        new._legal = self._legal
        new._board = self._board
        return new

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": "gunkimono", "options": dict(self.options)}
        for f in self._LIST_FIELDS + self._NESTED_FIELDS + self._SCALARS:
            value = getattr(self, f)
            if f == "pending":
                data[f] = [p.to_json() for p in self.pending]
            elif f == "phase":
                data[f] = self._phase.value
            else:
                data[f] = (
                    [list(x) for x in value]
                    if f in self._NESTED_FIELDS
                    else (list(value) if isinstance(value, list) else value)
                )
        data["banner_stacks"] = [[list(b) for b in s] for s in self.banner_stacks]
        data["banners"] = [[list(b) for b in s] for s in self.banners]
        data["vp_strongholds"] = list(self.vp_strongholds)
        data["last_turn"] = {
            "seat": self.last_seat,
            "squares": list(self.last_squares),
            "scores": [list(x) for x in self.last_scores],
        }
        return data

    @classmethod
    def from_json(cls, game: Gunkimono, data: Mapping[str, Any]) -> GunkimonoState:
        options = game.resolve_options(**dict(data["options"]))
        st = cls(game, options)
        try:
            for f in cls._LIST_FIELDS:
                setattr(st, f, [int(x) for x in data[f]])
            for f in cls._CLONE_NESTED:
                setattr(st, f, [[int(v) for v in x] for x in data[f]])
            st.pending = [PendingScore.from_json(p) for p in data["pending"]]
            if "ended" not in data and "conceded" in data:  # saved before "ended" existed
                data = dict(data, ended=_legacy_ending(data, st.num_players))
            phase = data["phase"]
            for f in cls._SCALARS:
                if f != "phase":
                    setattr(st, f, data[f])
            if st.ended is not None:
                Outcome.from_json(st.ended)  # checked here, not when first asked for
            st.banner_stacks = [[[int(v) for v in b] for b in s] for s in data["banner_stacks"]]
            st.banners = [[[int(v) for v in b] for b in s] for s in data["banners"]]
            # Absent from states saved before the breakdown was kept: nothing recorded yet.
            st.vp_strongholds = [int(v) for v in data.get("vp_strongholds", st.vp_strongholds)]
            last = data.get("last_turn") or {}
            st.last_seat = int(last.get("seat", -1))
            st.last_squares = [int(c) for c in last.get("squares", [])]
            st.last_scores = [
                (int(k), int(t), int(c), int(p)) for k, t, c, p in last.get("scores", [])
            ]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"gunkimono state JSON: missing or bad field: {exc}") from None
        if phase not in PHASES:
            raise ValueError(f"gunkimono state JSON: unknown phase {phase!r}")
        st.phase = phase
        if len(st.top) != CELLS or len(st.hands) != st.num_players:
            raise ValueError("gunkimono state JSON: board or player count does not match")
        return st

    def view(self, seat: int | None) -> dict[str, Any]:
        return hidden_information.view(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> GunkimonoState:
        """Resample what ``seat`` cannot see (``hidden_information.determinize``)."""
        return hidden_information.determinize(self, seat, rng)

    # ------------------------------------------------------------------ text

    def __str__(self) -> str:
        from sengoku.games.gunkimono.render import render

        return render(self, None)


__all__ = [
    "CELLS",
    "END_TILE",
    "FACE_DOWN",
    "HEIGHT",
    "INDEXED_PAIRS",
    "NAMES",
    "NEIGHBOURS",
    "PAIRS",
    "PAIRS_OF",
    "PHASES",
    "REMOVED",
    "SMALLS",
    "SUPPORTS",
    "GunkimonoState",
    "PendingScore",
    "Phase",
    "tile_code",
    "troop_name",
]


def _legacy_ending(data: Mapping[str, Any], n: int) -> dict[str, Any] | None:
    """The ``ended`` field of a state JSON written before core made concessions."""
    if data.get("reason") == "length_limit":
        return Outcome.no_winner(n, "length_limit").to_json()
    if int(data["conceded"]) >= 0:
        return Outcome.loss(int(data["conceded"]), n, str(data["reason"])).to_json()
    return None


def _played(
    do: Callable[[GunkimonoState, Any, list[Event]], object],
) -> Callable[[GunkimonoState, Any], list[Event]]:
    """A phase's ``do`` for the flow from a rule that appends its events to a list."""

    def run(state: GunkimonoState, action: Any) -> list[Event]:
        state._legal = None  # the position changes: its legal actions with it
        events: list[Event] = []
        do(state, action, events)
        return events

    return run


def _place(state: GunkimonoState, action: Place | SmallTile, events: list[Event]) -> None:
    # Step 1 places a large tile, or a small tile (face up, or face down as extra support).
    if isinstance(action, Place):
        placement.place_large(state, action, events)
    else:
        placement.place_small(state, action, events)


def _draw(state: GunkimonoState, action: Draw, events: list[Event]) -> None:
    # Step 4 is the last of the turn.
    refill_your_hand.draw(state, action, events)
    state._end_turn(events)


def _over(state: GunkimonoState, action: Any) -> list[Event]:
    # Never called: the flow refuses every action once the game is over.
    raise IllegalAction("the game is over")


def _count(state: GunkimonoState) -> None:
    state.decisions += 1


#: Gunkimono's turn as a flow (core/flow.py): each phase (a step of the turn with a
#: decision, ``turn_sequence.py``), its legal decisions, in ascending action-number order,
#: and the rule that plays one. A phase's rule says what comes next (it sets
#: ``state.phase``); step 3, assess strongholds, has no decision and happens inside them.
FLOW: Flow[GunkimonoState, Phase, GunkimonoAction] = Flow(
    {
        Phase.PLACE: FlowPhase(Phase.PLACE.prompt, _place_phase, _played(_place)),
        Phase.SUPPORT: FlowPhase(
            Phase.SUPPORT.prompt, _support_phase, _played(placement.place_large)
        ),
        Phase.SCORE: FlowPhase(
            Phase.SCORE.prompt, _sorted(scoring.legal_scores), _played(scoring.score)
        ),
        Phase.STRONGHOLD: FlowPhase(
            Phase.STRONGHOLD.prompt, _sorted(strongholds.legal_builds), _played(strongholds.build)
        ),
        Phase.DRAW: FlowPhase(
            Phase.DRAW.prompt, _sorted(refill_your_hand.legal_draws), _played(_draw)
        ),
        Phase.OVER: FlowPhase(Phase.OVER.prompt, lambda state: [], _over),
    },
    phase_of=attrgetter("phase"),
    decisions=attrgetter("decisions"),
    count=_count,
    keys=Phase,
)
#: The legal decisions of each phase (``FLOW``'s), in ascending action-number order.
LEGAL_ACTIONS: dict[Phase, Callable[[GunkimonoState], list[GunkimonoAction]]] = {
    key: phase.legal for key, phase in FLOW.phases.items()
}
