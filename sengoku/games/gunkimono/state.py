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
from typing import TYPE_CHECKING, Any, Final, cast

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

_C: Final = components()
_INT_ID: Final = attrgetter("int_id")  # an action's integer, stored when it was created


def _sorted(
    generate: Callable[[GunkimonoState], Sequence[GunkimonoAction]],
) -> Callable[[GunkimonoState], list[GunkimonoAction]]:
    """A generator's actions in action-number order: as they come when already in it (the
    score, stronghold and draw generators make them so: one pass over a list of one to
    four), else sorted into it."""

    def sorted_actions(state: GunkimonoState) -> list[GunkimonoAction]:
        made = list(generate(state))
        last = -1
        for action in made:
            n: int = action.int_id
            if n <= last:
                return sorted(made, key=_INT_ID)
            last = n
        return made

    return sorted_actions


def _place_phase(state: GunkimonoState) -> list[GunkimonoAction]:
    # Generated in action-number order: large tiles, small tiles, then supports.
    return placement.place_actions(state)


def _support_phase(state: GunkimonoState) -> list[GunkimonoAction]:
    return list(placement.large_placements(state, state.sequence.support_cell))


#: The parts a state is composed of: (attribute, part class). Each part class lives in the
#: rule module that owns and writes it; ``clone`` and the JSON walk them.
PARTS: Final[tuple[tuple[str, type[Part]], ...]] = (
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
_PART_NAMES: Final = tuple(name for name, _owner in PARTS)
#: The parts in :data:`PARTS`' order, as the constructor takes them.
_Parts = tuple[
    Battlefield,
    Strongholds,
    Supply,
    VictoryPointTrack,
    HonorTrack,
    WarBanners,
    Scoring,
    TurnSequence,
    Ending,
    TurnRecord,
    FormationCache,
]


class GunkimonoState(State[GunkimonoAction]):
    """A Gunkimono position; see the module docstring for the shape of a turn.

    The position is composed of typed parts (:data:`PARTS`), each written by the rule
    module that owns it; the state keeps only the match's constants and its legal-action
    cache."""

    __slots__ = (
        "game",
        "options",
        "num_players",
        *_PART_NAMES,
        "_legal",
        "notation_cache",
        "muted",
        "_chosen",
        "_chosen_from",
        "_chosen_unmade",
    )

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

    def __init__(
        self,
        game: Gunkimono,
        options: Mapping[str, Any],
        parts: _Parts | None = None,
        legal: list[GunkimonoAction] | None = None,
    ) -> None:
        """A fresh position (before setup), or, with ``parts`` (:data:`PARTS`' order), the
        position made of them, sharing ``options`` (a clone's, a copy's, an unpickled one's:
        compiled with mypyc, a class's ``__new__`` runs ``__init__``, so copies come here)."""
        self.game = game
        if parts is None:
            self.options = dict(options)
            n = int(self.options["players"])
            self.num_players = n
            parts = (
                Battlefield.printed(),
                Strongholds.fresh(n),
                Supply.empty(n),
                VictoryPointTrack.fresh(n),
                HonorTrack.fresh(n),
                WarBanners.fresh(n),
                Scoring(),
                TurnSequence(),
                Ending(),
                TurnRecord(),
                FormationCache(),
            )
        else:
            self.options = cast("dict[str, Any]", options)
            self.num_players = int(options["players"])
        (
            self.battlefield,
            self.fortresses,
            self.supply,
            self.victory_points,
            self.honor_track,
            self.war_banners,
            self.scoring,
            self.sequence,
            self.ending,
            self.record,
            self.formation_cache,
        ) = parts
        self._legal: list[GunkimonoAction] | None = legal
        #: ``game.py``'s notation of the legal actions, made from the legal list it names.
        self.notation_cache: tuple[object, dict[str, int], dict[Hashable, str]] | None = None
        #: ``mute``: the rules build no events (a search's state; a copy tells again).
        self.muted = False
        #: ``rollout_choice``'s last action and the kept legal list it was taken from:
        #: ``apply`` takes that action without checking it again while the list is the
        #: position's (by identity: ``decide`` and every change start a new list).
        self._chosen: GunkimonoAction | None = None
        self._chosen_from: list[GunkimonoAction] | None = None
        #: ``rollout_choice`` drew ``_chosen`` from step 1's legal actions without making
        #: their list (``placement.pick_place_action``); the next decision, or
        #: ``forget_legal_actions``, clears it.
        self._chosen_unmade = False

    # The parts' fields by their own names, for readers outside the rule modules (written
    # out: compiled with mypyc, a native class's properties are its own methods).

    @property
    def top(self) -> list[int]:
        """``self.battlefield.top``"""
        return self.battlefield.top

    @top.setter
    def top(self, value: list[int]) -> None:
        self.battlefield.top = value

    @property
    def sym(self) -> list[int]:
        """``self.battlefield.sym``"""
        return self.battlefield.sym

    @sym.setter
    def sym(self, value: list[int]) -> None:
        self.battlefield.sym = value

    @property
    def level(self) -> list[int]:
        """``self.battlefield.level``"""
        return self.battlefield.level

    @level.setter
    def level(self, value: list[int]) -> None:
        self.battlefield.level = value

    @property
    def placed(self) -> list[int]:
        """``self.battlefield.placed``"""
        return self.battlefield.placed

    @placed.setter
    def placed(self, value: list[int]) -> None:
        self.battlefield.placed = value

    @property
    def placed_small(self) -> list[list[int]]:
        """``self.battlefield.placed_small``"""
        return self.battlefield.placed_small

    @placed_small.setter
    def placed_small(self, value: list[list[int]]) -> None:
        self.battlefield.placed_small = value

    @property
    def sh_owner(self) -> list[int]:
        """``self.fortresses.sh_owner``"""
        return self.fortresses.sh_owner

    @sh_owner.setter
    def sh_owner(self, value: list[int]) -> None:
        self.fortresses.sh_owner = value

    @property
    def strongholds(self) -> list[list[int]]:
        """``self.fortresses.strongholds``"""
        return self.fortresses.strongholds

    @strongholds.setter
    def strongholds(self, value: list[list[int]]) -> None:
        self.fortresses.strongholds = value

    @property
    def built_at(self) -> list[list[int]]:
        """``self.fortresses.built_at``"""
        return self.fortresses.built_at

    @built_at.setter
    def built_at(self, value: list[list[int]]) -> None:
        self.fortresses.built_at = value

    @property
    def hands(self) -> list[list[int]]:
        """``self.supply.hands``"""
        return self.supply.hands

    @hands.setter
    def hands(self, value: list[list[int]]) -> None:
        self.supply.hands = value

    @property
    def known(self) -> list[list[int]]:
        """``self.supply.known``"""
        return self.supply.known

    @known.setter
    def known(self, value: list[list[int]]) -> None:
        self.supply.known = value

    @property
    def reserve(self) -> list[list[int]]:
        """``self.supply.reserve``"""
        return self.supply.reserve

    @reserve.setter
    def reserve(self, value: list[list[int]]) -> None:
        self.supply.reserve = value

    @property
    def row(self) -> list[int]:
        """``self.supply.row``"""
        return self.supply.row

    @row.setter
    def row(self, value: list[int]) -> None:
        self.supply.row = value

    @property
    def stack(self) -> list[int]:
        """``self.supply.stack``"""
        return self.supply.stack

    @stack.setter
    def stack(self, value: list[int]) -> None:
        self.supply.stack = value

    @property
    def removed(self) -> list[int]:
        """``self.supply.removed``"""
        return self.supply.removed

    @removed.setter
    def removed(self, value: list[int]) -> None:
        self.supply.removed = value

    @property
    def score(self) -> list[int]:
        """``self.victory_points.score``"""
        return self.victory_points.score

    @score.setter
    def score(self, value: list[int]) -> None:
        self.victory_points.score = value

    @property
    def vp_strongholds(self) -> list[int]:
        """``self.victory_points.vp_strongholds``"""
        return self.victory_points.vp_strongholds

    @vp_strongholds.setter
    def vp_strongholds(self, value: list[int]) -> None:
        self.victory_points.vp_strongholds = value

    @property
    def honor(self) -> list[list[int]]:
        """``self.honor_track.honor``"""
        return self.honor_track.honor

    @honor.setter
    def honor(self, value: list[list[int]]) -> None:
        self.honor_track.honor = value

    @property
    def banner_stacks(self) -> list[list[list[int]]]:
        """``self.war_banners.banner_stacks``"""
        return self.war_banners.banner_stacks

    @banner_stacks.setter
    def banner_stacks(self, value: list[list[list[int]]]) -> None:
        self.war_banners.banner_stacks = value

    @property
    def banners(self) -> list[list[list[int]]]:
        """``self.war_banners.banners``"""
        return self.war_banners.banners

    @banners.setter
    def banners(self, value: list[list[list[int]]]) -> None:
        self.war_banners.banners = value

    @property
    def pending(self) -> list[PendingScore]:
        """``self.scoring.pending``"""
        return self.scoring.pending

    @pending.setter
    def pending(self, value: list[PendingScore]) -> None:
        self.scoring.pending = value

    @property
    def turn(self) -> int:
        """``self.sequence.turn``"""
        return self.sequence.turn

    @turn.setter
    def turn(self, value: int) -> None:
        self.sequence.turn = value

    @property
    def turns(self) -> int:
        """``self.sequence.turns``"""
        return self.sequence.turns

    @turns.setter
    def turns(self, value: int) -> None:
        self.sequence.turns = value

    @property
    def support_cell(self) -> int:
        """``self.sequence.support_cell``"""
        return self.sequence.support_cell

    @support_cell.setter
    def support_cell(self, value: int) -> None:
        self.sequence.support_cell = value

    @property
    def placed_large(self) -> bool:
        """``self.sequence.placed_large``"""
        return self.sequence.placed_large

    @placed_large.setter
    def placed_large(self, value: bool) -> None:
        self.sequence.placed_large = value

    @property
    def passes(self) -> int:
        """``self.sequence.passes``"""
        return self.sequence.passes

    @passes.setter
    def passes(self, value: int) -> None:
        self.sequence.passes = value

    @property
    def decisions(self) -> int:
        """``self.sequence.decisions``"""
        return self.sequence.decisions

    @decisions.setter
    def decisions(self, value: int) -> None:
        self.sequence.decisions = value

    @property
    def end_stack(self) -> list[int]:
        """``self.ending.end_stack``"""
        return self.ending.end_stack

    @end_stack.setter
    def end_stack(self, value: list[int]) -> None:
        self.ending.end_stack = value

    @property
    def end_stack_in_play(self) -> bool:
        """``self.ending.end_stack_in_play``"""
        return self.ending.end_stack_in_play

    @end_stack_in_play.setter
    def end_stack_in_play(self, value: bool) -> None:
        self.ending.end_stack_in_play = value

    @property
    def end_triggered(self) -> bool:
        """``self.ending.end_triggered``"""
        return self.ending.end_triggered

    @end_triggered.setter
    def end_triggered(self, value: bool) -> None:
        self.ending.end_triggered = value

    @property
    def reason(self) -> str | None:
        """``self.ending.reason``"""
        return self.ending.reason

    @reason.setter
    def reason(self, value: str | None) -> None:
        self.ending.reason = value

    @property
    def ended(self) -> dict[str, Any] | None:
        """``self.ending.ended``"""
        return self.ending.ended

    @ended.setter
    def ended(self, value: dict[str, Any] | None) -> None:
        self.ending.ended = value

    @property
    def last_seat(self) -> int:
        """``self.record.seat``"""
        return self.record.seat

    @last_seat.setter
    def last_seat(self, value: int) -> None:
        self.record.seat = value

    @property
    def last_squares(self) -> list[int]:
        """``self.record.squares``"""
        return self.record.squares

    @last_squares.setter
    def last_squares(self, value: list[int]) -> None:
        self.record.squares = value

    @property
    def last_scores(self) -> list[tuple[int, int, int, int]]:
        """``self.record.scores``"""
        return self.record.scores

    @last_scores.setter
    def last_scores(self, value: list[tuple[int, int, int, int]]) -> None:
        self.record.scores = value

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

    def rollout_choice(self, rng: random.Random) -> GunkimonoAction:
        """``rng.choice(self.legal_actions())`` (the same draw), from the kept legal list,
        not copied: a playout's step (``GunkimonoFeatures.rollout_action``). ``apply`` then
        plays it without checking it again: it is one of the position's legal actions."""
        legal = self._legal
        if legal is None:
            if self.sequence.phase is Phase.PLACE and type(rng) is random.Random:
                # Step 1's list is hundreds of actions: the draw is made without it (the
                # same number taken from ``rng``: ``Random.choice`` of a sequence of its
                # length), and only the action drawn is looked up.
                picked = placement.pick_place_action(self, rng)
                if picked is not None:
                    self._chosen = picked
                    self._chosen_from = None
                    self._chosen_unmade = True
                    return picked
            legal = self._legal = FLOW.legal(self)
        action: GunkimonoAction = rng.choice(legal)
        self._chosen = action
        self._chosen_from = legal
        self._chosen_unmade = False
        return action

    def legal_key(self) -> object | None:
        """A token of the legal list as last worked out, None if not worked out since the
        last change: caches of it (the notation) compare tokens by identity."""
        return self._legal

    def forget_legal_actions(self) -> None:
        """Work the legal actions out afresh when next asked (the position was changed
        outside ``apply``: a determinization, a test painting squares)."""
        self._legal = None
        self._chosen_unmade = False

    def decide(self) -> None:
        """A decision is being played (the flow's phases call this before the rule): it is
        counted, and the position's legal actions change with it."""
        self.sequence.decisions += 1
        self._legal = None
        self._chosen_unmade = False

    def mute(self) -> None:
        """``apply`` returns no events from now on (a search's state, which reads none): the
        rule modules skip building them; the rules played are the same."""
        self.muted = True

    def apply(self, action: object) -> list[Event]:
        """Play one decision through the flow's template (core/flow.py): the phase asked
        now (``FLOW``'s table) plays it."""
        given: Any = action  # passed on unchecked: the flow refuses what is not an action
        return FLOW.apply(self, given)

    def why_illegal(self, action: object) -> str | None:
        """None if ``action`` is legal here, else the rule it breaks."""
        legal = self._legal
        if action is self._chosen and (
            (legal is not None and legal is self._chosen_from) or self._chosen_unmade
        ):
            # ``rollout_choice`` took it from this position's kept legal list (which a
            # change of the position replaces), or drew it from the list unmade (until the
            # next decision): legal, as that list says.
            return None
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
        # Asked, not made: the legal list is made when first asked for (a search's playout
        # that stops here never asks for it).
        self._legal = None
        if placement.can_place(self):
            return True
        seat = sequence.turn
        sequence.passes += 1
        turn_record.begin(self)
        if not self.muted:
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

    def parts(self) -> _Parts:
        """The state's parts, in :data:`PARTS` order."""
        return (
            self.battlefield,
            self.fortresses,
            self.supply,
            self.victory_points,
            self.honor_track,
            self.war_banners,
            self.scoring,
            self.sequence,
            self.ending,
            self.record,
            self.formation_cache,
        )

    def clone(self) -> GunkimonoState:
        # Through the constructor with the parts given (compiled with mypyc, the class's
        # ``__new__`` runs ``__init__``), each part cloned by its name.
        return GunkimonoState(
            cast("Gunkimono", self.game),
            self.options,
            (
                self.battlefield.clone(),
                self.fortresses.clone(),
                self.supply.clone(),
                self.victory_points.clone(),
                self.honor_track.clone(),
                self.war_banners.clone(),
                self.scoring.clone(),
                self.sequence.clone(),
                self.ending.clone(),
                self.record.clone(),
                self.formation_cache.clone(),
            ),
            self._legal,
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle, copy and deepcopy: the constructor with the parts (a class compiled with
        # mypyc has no slots for copyreg to fill).
        return (GunkimonoState, (self.game, self.options, self.parts(), self._legal))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": "gunkimono", "options": dict(self.options)}
        for part in self.parts():
            part.dump_into(data)
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
            for part in st.parts():
                part.load_from(data)
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
_JSON_ORDER: Final[tuple[str, ...]] = (
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
FLOW: Final[Flow[GunkimonoState, Phase, GunkimonoAction]] = Flow(
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
LEGAL_ACTIONS: Final[dict[Phase, Callable[[GunkimonoState], list[GunkimonoAction]]]] = {
    key: phase.legal for key, phase in FLOW.phases.items()
}
