"""One Gunkimono match in progress: the battlefield, hands, row, stacks, honor track, scores.

The turn lives here; each rule of the rulebook lives in a module named for it, which this
class calls (``docs/architecture.md`` has the table). The position is composed of typed parts
(:data:`PARTS`), each a slotted dataclass declared in the rule module that writes it
(``placement.Battlefield``, ``strongholds.Strongholds``, ``refill_your_hand.Supply``, ...);
``clone`` and the JSON walk the parts, whose fields say how they are copied and saved
(``sengoku/core/substate.py``):

* Setting Up the Game: ``setup.py``
* Turn Sequence (the four steps, as typed phases): ``turn_sequence.py``
* 1. Place Army Tile, Troop Duplication rule, Level Difference rule: ``placement.py``
* Extra Support rule: ``extra_support.py``
* 2. Score Points, Scoring Victory Points: ``scoring.py`` (formations: ``formations.py``;
  the victory point track: ``victory_points.py``)
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
actions, the rule that plays one, when the step is over and which step follows (the steps
without a decision open the step after them); ``apply`` is the flow's template.

Every shuffle happens at setup with the seeded RNG and is stored here, so a record (seed and
actions) replays exactly. Hidden: other hands (except tiles seen taken from the row), other
players' banner values, the stacks' order and contents, the tiles removed at setup.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, cast

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
from sengoku.core.sentence import said, say
from sengoku.core.substate import Part
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
from sengoku.games.gunkimono.end_of_the_game import END_TILE, Ending
from sengoku.games.gunkimono.extra_support import SUPPORTS
from sengoku.games.gunkimono.formations import FormationCache, formation, formations
from sengoku.games.gunkimono.honor_track import REMOVED, HonorTrack
from sengoku.games.gunkimono.placement import SMALLS, Battlefield
from sengoku.games.gunkimono.refill_your_hand import Supply
from sengoku.games.gunkimono.scoring import Scoring
from sengoku.games.gunkimono.setup import set_up
from sengoku.games.gunkimono.strongholds import Strongholds
from sengoku.games.gunkimono.turn_record import TurnRecord
from sengoku.games.gunkimono.turn_sequence import (
    PHASES,
    PendingScore,
    Phase,
    TurnSequence,
    UnknownPhase,
)
from sengoku.games.gunkimono.victory_points import VictoryPointTrack
from sengoku.games.gunkimono.war_banners import WarBanners

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
    return list(placement.large_placements(state, state.sequence.support_cell))


#: The parts a state is composed of: (attribute, part class). Each part class lives in the
#: rule module that owns and writes it; ``clone`` and the JSON walk them.
PARTS: tuple[tuple[str, type[Part]], ...] = (
    ("battlefield", Battlefield),
    ("fortresses", Strongholds),
    ("supply", Supply),
    ("victory_points", VictoryPointTrack),
    ("honor_track", HonorTrack),
    ("war_banners", WarBanners),
    ("scoring", Scoring),
    ("sequence", TurnSequence),
    ("ending", Ending),
    ("record", TurnRecord),
    ("formation_cache", FormationCache),
)
_PART_NAMES = tuple(name for name, _owner in PARTS)


def _delegate(part: str, name: str) -> property:
    """A state attribute that reads and writes ``name`` of the part ``part`` (for readers
    outside the rule modules: evaluation, tests)."""

    def write(self: GunkimonoState, value: Any) -> None:
        setattr(getattr(self, part), name, value)

    return property(attrgetter(f"{part}.{name}"), write, doc=f"``self.{part}.{name}``")


class GunkimonoState(State[GunkimonoAction]):
    """A Gunkimono position; see the module docstring for the shape of a turn.

    The position is composed of typed parts (:data:`PARTS`), each written by the rule
    module that owns it; the state keeps only the match's constants and its legal-action
    cache."""

    __slots__ = ("game", "options", "num_players", *_PART_NAMES, "_legal", "notation_cache")

    battlefield: Battlefield
    fortresses: Strongholds
    supply: Supply
    victory_points: VictoryPointTrack
    honor_track: HonorTrack
    war_banners: WarBanners
    scoring: Scoring
    sequence: TurnSequence
    ending: Ending
    record: TurnRecord
    formation_cache: FormationCache

    def __init__(self, game: Gunkimono, options: Mapping[str, Any]) -> None:
        self.game = game
        self.options = dict(options)
        n = int(self.options["players"])
        self.num_players = n
        self.battlefield = Battlefield.printed()
        self.fortresses = Strongholds.fresh(n)
        self.supply = Supply.empty(n)
        self.victory_points = VictoryPointTrack.fresh(n)
        self.honor_track = HonorTrack.fresh(n)
        self.war_banners = WarBanners.fresh(n)
        self.scoring = Scoring()
        self.sequence = TurnSequence()
        self.ending = Ending()
        self.record = TurnRecord()
        self.formation_cache = FormationCache()
        self._legal: list[GunkimonoAction] | None = None
        #: ``game.py``'s notation of the legal actions, made from the legal list it names.
        self.notation_cache: tuple[object, dict[str, int], dict[Hashable, str]] | None = None

    # The parts' fields by their own names, for readers outside the rule modules.
    top = _delegate("battlefield", "top")
    sym = _delegate("battlefield", "sym")
    level = _delegate("battlefield", "level")
    placed = _delegate("battlefield", "placed")
    placed_small = _delegate("battlefield", "placed_small")
    sh_owner = _delegate("fortresses", "sh_owner")
    strongholds = _delegate("fortresses", "strongholds")
    built_at = _delegate("fortresses", "built_at")
    hands = _delegate("supply", "hands")
    known = _delegate("supply", "known")
    reserve = _delegate("supply", "reserve")
    row = _delegate("supply", "row")
    stack = _delegate("supply", "stack")
    removed = _delegate("supply", "removed")
    score = _delegate("victory_points", "score")
    vp_strongholds = _delegate("victory_points", "vp_strongholds")
    honor = _delegate("honor_track", "honor")
    banner_stacks = _delegate("war_banners", "banner_stacks")
    banners = _delegate("war_banners", "banners")
    pending = _delegate("scoring", "pending")
    turn = _delegate("sequence", "turn")
    turns = _delegate("sequence", "turns")
    support_cell = _delegate("sequence", "support_cell")
    placed_large = _delegate("sequence", "placed_large")
    passes = _delegate("sequence", "passes")
    decisions = _delegate("sequence", "decisions")
    end_stack = _delegate("ending", "end_stack")
    end_stack_in_play = _delegate("ending", "end_stack_in_play")
    end_triggered = _delegate("ending", "end_triggered")
    reason = _delegate("ending", "reason")
    ended = _delegate("ending", "ended")
    last_seat = _delegate("record", "seat")
    last_squares = _delegate("record", "squares")
    last_scores = _delegate("record", "scores")

    @property
    def phase(self) -> Phase:
        """The decision asked now (``turn_sequence.Phase``)."""
        return self.sequence.phase

    @phase.setter
    def phase(self, value: str) -> None:
        self.sequence.phase = Phase(value)

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
        return TERMINAL if self.sequence.phase is Phase.OVER else self.sequence.turn

    def is_terminal(self) -> bool:
        return self.sequence.phase is Phase.OVER

    def legal_actions(self) -> list[GunkimonoAction]:
        if self._legal is None:
            self._legal = FLOW.legal(self)
        return list(self._legal)

    def legal_key(self) -> object | None:
        """A token of the legal list as last worked out, None if not worked out since the
        last change: caches of it (the notation) compare tokens by identity."""
        return self._legal

    def forget_legal_actions(self) -> None:
        """Work the legal actions out afresh when next asked (the position was changed
        outside ``apply``: a determinization, a test painting squares)."""
        self._legal = None

    def decide(self) -> None:
        """A decision is being played (the flow's phases call this before the rule): it is
        counted, and the position's legal actions change with it."""
        self.sequence.decisions += 1
        self._legal = None

    def apply(self, action: GunkimonoAction) -> list[Event]:
        """Play one decision through the flow's template (core/flow.py): the phase asked
        now (``FLOW``'s table) plays it."""
        return FLOW.apply(self, action)

    def why_illegal(self, action: GunkimonoAction) -> str | None:
        """None if ``action`` is legal here, else the rule it breaks."""
        if self.sequence.phase is Phase.OVER:
            return said(say("the game is over"))
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
        end_of_the_game.end_by_core(self, result)
        self._legal = None

    def interim_scores(self) -> tuple[float, ...]:
        # The victory points on the track (the hidden war banners are not counted).
        return tuple(float(v) for v in self.victory_points.score)

    def outcome(self) -> Outcome | None:
        if self.sequence.phase is not Phase.OVER:
            return None
        ended = self.ending.ended
        if ended is not None:
            return Outcome.from_json(ended)
        return end_of_the_game.outcome(self, self.ending.reason)

    def final_scores(self) -> list[int]:
        """Victory points plus the values of the claimed war banners."""
        return end_of_the_game.final_scores(self)

    def controlled_troops(self, seat: int) -> int:
        """Troops in the formations the seat's strongholds stand in (the tie-break)."""
        return strongholds.controlled_troops(self, seat)

    # ------------------------------------------------------------------ the turn

    def end_turn(self, events: list[Event]) -> None:
        """The turn is over: the game ends, or the next seat that can place a tile plays."""
        sequence = self.sequence
        while True:
            sequence.turns += 1
            scoring.turn_over(self)
            sequence.placed_large = False
            reason = end_of_the_game.game_ends_now(self)
            if reason is not None:
                self._finish(reason, events)
                return
            sequence.turn = (sequence.turn + 1) % self.num_players
            if self._start_turn(events):
                return

    def _start_turn(self, events: list[Event]) -> bool:
        """Begin the turn of ``self.sequence.turn``; False if it passed (no legal placement:
        its strongholds are still assessed)."""
        sequence = self.sequence
        sequence.phase = Phase.PLACE
        self._legal = None
        if self.legal_actions():
            return True
        seat = sequence.turn
        sequence.passes += 1
        turn_record.begin(self)
        events.append(
            event(
                "pass",
                seat=seat,
                message=say("Seat {seat} cannot place any tile: the turn passes.", seat=seat),
            )
        )
        strongholds.assess(self, events)
        return False

    # ------------------------------------------------------------------ rules asked by name
    # (the evaluation, the renderer and tests ask the state; the rule modules answer)

    def formation(self, cell: int) -> set[int]:
        """The squares of the formation whose troop stands on ``cell``."""
        return formation(self.battlefield.top, cell)

    def formation_size(self, cell: int) -> int:
        """``len(self.formation(cell))``, from the cached formations."""
        board = formations(self)
        return board.size[board.comp[cell]]

    def _advance_honor(self, seat: int, troop: int, points: int, events: list[Event]) -> None:
        honor_track.advance_honor(self, seat, troop, points, events)

    def _bring_end_stack(self, events: list[Event]) -> None:
        refill_your_hand.open_end_stack(self, events)

    def _finish(self, reason: str, events: list[Event]) -> None:
        end_of_the_game.finish(self, reason, events)
        self._legal = None

    # ------------------------------------------------------------------ copies, JSON, views
    # (what each seat may see: ``hidden_information.py``)

    def parts(self) -> tuple[Part, ...]:
        """The state's parts, in :data:`PARTS` order."""
        return tuple(getattr(self, name) for name in _PART_NAMES)

    def clone(self) -> GunkimonoState:
        new = GunkimonoState.__new__(GunkimonoState)
        new.game = self.game
        new.options = self.options
        new.num_players = self.num_players
        for name in _PART_NAMES:
            setattr(new, name, getattr(self, name).clone())
        new._legal = self._legal
        new.notation_cache = None
        return new

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": "gunkimono", "options": dict(self.options)}
        for name in _PART_NAMES:
            getattr(self, name).dump_into(data)
        # The keys in the order saved states have always had them.
        return {key: data[key] for key in _JSON_ORDER}

    @classmethod
    def from_json(cls, game: Gunkimono, data: Mapping[str, Any]) -> GunkimonoState:
        options = game.resolve_options(**dict(data["options"]))
        st = cls(game, options)
        if "ended" not in data and "conceded" in data:  # saved before "ended" existed
            try:
                data = dict(data, ended=_legacy_ending(data, st.num_players))
            except (KeyError, TypeError, ValueError) as exc:
                raise ValueError(f"gunkimono state JSON: missing or bad field: {exc}") from None
        try:
            for name in _PART_NAMES:
                getattr(st, name).load_from(data)
        except UnknownPhase:
            raise ValueError(f"gunkimono state JSON: unknown phase {data['phase']!r}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"gunkimono state JSON: missing or bad field: {exc}") from None
        if st.ending.ended is not None:
            try:
                Outcome.from_json(st.ending.ended)  # checked here, not when first asked for
            except (KeyError, TypeError, ValueError) as exc:
                raise ValueError(f"gunkimono state JSON: missing or bad field: {exc}") from None
        if len(st.battlefield.top) != CELLS or len(st.supply.hands) != st.num_players:
            raise ValueError("gunkimono state JSON: board or player count does not match")
        return st

    def view(self, seat: int | None) -> dict[str, Any]:
        # Typed as ``views.GunkimonoView``; the contract hands views on as JSON objects.
        return cast("dict[str, Any]", hidden_information.view(self, seat))

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


#: The keys of a saved state, in the order saved states have always had them (the parts
#: write them; this only orders them, and the import fails if the two disagree).
_JSON_ORDER: tuple[str, ...] = (
    "game",
    "options",
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
    "strongholds",
    "hands",
    "known",
    "reserve",
    "placed_small",
    "honor",
    "pending",
    "built_at",
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
    "banner_stacks",
    "banners",
    "vp_strongholds",
    "last_turn",
)
_SAVED = ["game", "options", *(key for _name, part in PARTS for key in part.saved_names())]
if sorted(_SAVED) != sorted(_JSON_ORDER):  # a part's field added or renamed: order it here
    raise AssertionError(f"gunkimono: saved keys {_SAVED} differ from the order {_JSON_ORDER}")


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
    """A phase's ``do`` for the flow from a rule that appends its events to a list: the
    decision is counted first (``decide``; the flow has no ``count``: one call a decision)."""

    def run(state: GunkimonoState, action: Any) -> list[Event]:
        state.decide()
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
    # Step 4: the tile a large tile earned is taken (no second draw this turn).
    refill_your_hand.draw(state, action, events)
    state.sequence.placed_large = False


def _over(state: GunkimonoState, action: Any) -> list[Event]:
    # Never called: the flow refuses every action once the game is over.
    raise IllegalAction(say("the game is over"))


def _placed(state: GunkimonoState) -> bool:
    # Step 1 is over once a tile is down: its troops wait to be scored, or its support waits
    # for the large tile.
    return bool(state.scoring.pending) or extra_support.awaits_large(state)


def _covered(state: GunkimonoState) -> bool:
    # The large tile is over the support: its troops wait to be scored.
    return not extra_support.awaits_large(state)


def _after_placing(state: GunkimonoState) -> Phase:
    # Extra Support rule: a small tile laid face down is covered by a large tile next.
    return Phase.SUPPORT if extra_support.awaits_large(state) else Phase.SCORE


def _after_scoring(state: GunkimonoState) -> Phase:
    # Building Strongholds: a stronghold is due once the honor markers reach its row; else
    # step 3 (assess strongholds) opens step 4.
    return (
        Phase.STRONGHOLD if strongholds.stronghold_due(state, state.sequence.turn) else Phase.DRAW
    )


def _drawn(state: GunkimonoState) -> bool:
    return not refill_your_hand.draw_due(state)


def _enter(state: GunkimonoState, phase: Phase) -> None:
    state.sequence.phase = phase


#: Gunkimono's turn as a flow (core/flow.py): each phase (a step of the turn with a
#: decision, ``turn_sequence.py``), its legal decisions, in ascending action-number order,
#: the rule that plays one, when the step is over (``end``) and which follows (``next``),
#: and the steps without a decision that open it (``begin``): troops that can score nothing
#: pass as step 2 begins, a stronghold that cannot be placed is told, step 3 (assess
#: strongholds) opens step 4, and the next turn begins when step 4 is over or not due (the
#: turn passes on, a seat that cannot place passes, and the game ends after the last turn:
#: ``GunkimonoState.end_turn``).
FLOW: Flow[GunkimonoState, Phase, GunkimonoAction] = Flow(
    {
        Phase.PLACE: FlowPhase(
            Phase.PLACE.prompt,
            _place_phase,
            _played(_place),
            begin=GunkimonoState.end_turn,
            end=_placed,
            next=_after_placing,
        ),
        Phase.SUPPORT: FlowPhase(
            Phase.SUPPORT.prompt,
            _support_phase,
            _played(placement.place_large),
            end=_covered,
            next=Phase.SCORE,
        ),
        Phase.SCORE: FlowPhase(
            Phase.SCORE.prompt,
            _sorted(scoring.legal_scores),
            _played(scoring.score),
            begin=scoring.skip_unscorable,
            end=scoring.scored,
            next=_after_scoring,
        ),
        Phase.STRONGHOLD: FlowPhase(
            Phase.STRONGHOLD.prompt,
            _sorted(strongholds.legal_builds),
            _played(strongholds.build),
            begin=strongholds.begin_building,
            end=strongholds.built,
            next=Phase.DRAW,
        ),
        Phase.DRAW: FlowPhase(
            Phase.DRAW.prompt,
            _sorted(refill_your_hand.legal_draws),
            _played(_draw),
            begin=strongholds.assess,
            end=_drawn,
            next=Phase.PLACE,
        ),
        Phase.OVER: FlowPhase(Phase.OVER.prompt, lambda state: [], _over),
    },
    phase_of=attrgetter("sequence.phase"),
    decisions=attrgetter("sequence.decisions"),
    keys=Phase,
    enter=_enter,
)
#: The legal decisions of each phase (``FLOW``'s), in ascending action-number order.
LEGAL_ACTIONS: dict[Phase, Callable[[GunkimonoState], list[GunkimonoAction]]] = {
    key: phase.legal for key, phase in FLOW.phases.items()
}
