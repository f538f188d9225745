"""The Gunshi position and the turn; the rules live in modules named as the rulebook names them.

The state advances in place; every decision of a seat is one :class:`GunshiAction`. Which
rule decides now is declared in ``PHASES`` (setup choices, Phase 1, Phase 2, Phase 3); each
phase's module gives the legal actions and plays one, and says when its phase is over (the
table's ``end``; the table names the phase that follows, core/flow.py). Hidden information
(the Shogun, hands, deck order, face-down Command Row cards, prepared Advanced cards) is kept
here in full, and ``view`` shows a seat only what it may see. Cards are tuples (see
``cards.py``).

The position is composed of typed parts (:data:`PARTS`), each a
:class:`~sengoku.core.substate.Part` declared by the rule module that writes it; ``clone``
(one generated call, ``core.substate.state_cloner``), ``to_json`` and ``from_json`` walk them.

Where each rule lives (rulebook heading -> module): ``docs/architecture.md``, section Gunshi.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from operator import attrgetter
from typing import Any, Final

import sengoku.games.gunshi.battle as battle
import sengoku.games.gunshi.cards as cards
import sengoku.games.gunshi.custom_deck as custom_deck
import sengoku.games.gunshi.fences as fences
import sengoku.games.gunshi.formation as formation
import sengoku.games.gunshi.hidden_information as hidden_information
import sengoku.games.gunshi.inspiration as inspiration
import sengoku.games.gunshi.invasion as invasion
import sengoku.games.gunshi.knowledge as knowledge
import sengoku.games.gunshi.logistics as logistics
import sengoku.games.gunshi.shogun_and_card_order as shogun_and_card_order
import sengoku.games.gunshi.tournament_clock as tournament_clock
import sengoku.games.gunshi.units as units
import sengoku.games.gunshi.words as words
from sengoku.core.flow import Flow, FlowLoop, Phase
from sengoku.core.flowing import over
from sengoku.core.game import TERMINAL, Event, Game, IllegalAction, Outcome, State
from sengoku.core.sentence import Sentence, said, say
from sengoku.core.substate import Part, jsonable
from sengoku.games.gunshi.actions import GunshiAction, sorted_unique
from sengoku.games.gunshi.battlefield import cn
from sengoku.games.gunshi.cards import SCOUTED, Card, seen
from sengoku.games.gunshi.commands.command import (
    UnitsFollowOrders,
    command_from_view,
    command_view,
)
from sengoku.games.gunshi.data import (
    BASIC_DECK,
    BLUE,
    CARDS,
    DECKS,
    FORMATIONS,
    RED,
    agreed_cards,
)
from sengoku.games.gunshi.units import INVADED, OFF, TYPE_NAME
from sengoku.games.gunshi.words import told

__all__ = [
    "INVADED",
    "OFF",
    "POS_NAMES",
    "SCOUTED",
    "TYPE_NAME",
    "Card",
    "GunshiState",
    "cn",
    "command_from_view",
]

POS_NAMES = ("L", "1", "2", "3", "4")
_command_view = command_view  # the name tests and older code import
_seen = seen


class GunshiState(State[GunshiAction]):
    """One Gunshi match. Build with ``Gunshi().new_state(seed, **options)``."""

    # ------------------------------------------------------------------ construction
    def __init__(self, game: Game, options: dict[str, Any], seed: int, parts: bool = True) -> None:
        self.game = game
        self.options = options
        self.num_players = 2
        self.seed = seed
        self.phase = "formation"
        self.player = RED
        self.step = ""
        self.ply = 0
        self.result: Outcome | None = None
        self._events: list[Event] = []
        # ``mute``: a search's state builds no events (a clone tells again).
        self._muted = False
        # The sorted legal actions of this very position, kept by ``legal_actions`` so that the
        # ``apply`` right after it (a rollout ply, an agent's move) need not generate them a
        # second time to check the action. ``apply`` clears it. Not part of the position (not
        # serialized); code that edits a state's fields by hand must reset it to None.
        self._legal_memo: list[GunshiAction] | None = None
        if not parts:
            return  # ``clone`` and ``__reduce__`` give the parts (every one: ``_LAYOUT``)
        # The parts of the position, each written by the rule module that declares it; clone
        # and JSON walk them (core/substate.py).
        self.logistics = logistics.MilitaryLogistics()
        self.fences = fences.Fences()
        self.field = units.Field()
        self.invader_spot = invasion.InvaderSpot()
        self.cards = cards.CommandCards()
        self.inspiration = inspiration.Inspiration()
        self.deck_construction = custom_deck.DeckConstruction()
        self.formation = formation.Formation()
        self.shoguns = shogun_and_card_order.Shoguns()
        self.battle = battle.Turn()
        self.orders = UnitsFollowOrders()
        self.knowledge = knowledge.Knowledge()

    def setup(self) -> None:
        """Setup per the options: the decks, the variant's preparations, presets."""
        o = self.options
        rng = random.Random(self.seed)
        preset = o["preset"]
        deck: tuple[str, ...] = BASIC_DECK
        variant = o["variant"]
        if preset in DECKS:
            deck = DECKS[preset]
        elif o["custom_selection"] == "agreed" and variant == "custom":
            # Optional Rule 2: the deck both players agreed on (an example or any legal deck).
            deck = agreed_cards(o["agreed_deck"])
        for p in (RED, BLUE):
            cards.set_stock(self, p, [(c, False, False) for c in deck])
        if variant == "custom" and preset not in DECKS and o["custom_selection"] != "agreed":
            custom_deck.setup(self)
        if variant == "inspiration":
            inspiration.setup(self, rng)
        if preset in FORMATIONS:
            formation.apply_preset(self, preset)
            FLOW.enter(self, "secret")  # the preset is the formation: Phase 2 begins
            return
        if self.phase != "build":
            for p in (RED, BLUE):
                self.reset_knowledge(p)
        if self.phase == "formation":
            FLOW.enter(self, "formation")

    def reset_knowledge(self, p: int) -> None:
        """The opponent knows the composition of p's unknown cards, nothing about their places
        (``knowledge.reset``)."""
        knowledge.reset(self, p)

    # ------------------------------------------------------------------ contract basics
    @property
    def current_player(self) -> int:
        return TERMINAL if self.result is not None else self.player

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    @property
    def clock_seat(self) -> int | None:
        """Whose clock runs now (None: none runs): the tournament rules' phases without a
        clock under ``time_control=tournament``, else the seat to act."""
        return tournament_clock.clock_seat(self)

    def clone(self) -> GunshiState:
        # The own fields are shared (values replaced, never changed in place; _legal_memo too:
        # the copy's legal actions are the same, and legal_actions hands out copies), the
        # parts cloned (each with its generated ``clone``, core/substate.py). Written out
        # field by field: compiled (mypyc), the state is a native class, made only through
        # its constructor and without a ``__dict__`` (``_LAYOUT`` names the same fields; a
        # test holds the two together).
        s = GunshiState(self.game, self.options, self.seed, False)
        s.phase = self.phase
        s.player = self.player
        s.step = self.step
        s.logistics = self.logistics.clone()
        s.fences = self.fences.clone()
        s.field = self.field.clone()
        s.invader_spot = self.invader_spot.clone()
        s.cards = self.cards.clone()
        s.inspiration = self.inspiration.clone()
        s.deck_construction = self.deck_construction.clone()
        s.formation = self.formation.clone()
        s.shoguns = self.shoguns.clone()
        s.battle = self.battle.clone()
        s.orders = self.orders.clone()
        s.knowledge = self.knowledge.clone()
        s.ply = self.ply
        s.result = self.result
        s._legal_memo = self._legal_memo
        return s

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled and copied as its fields by name (``_LAYOUT``), rebuilt by ``_unpickled``:
        # compiled, a native class has no ``__dict__`` for the default protocol to fill.
        fields = tuple(getattr(self, k) for k, _part in _LAYOUT if k not in _MADE)
        return _unpickled, (self.game, self.options, self.seed, fields)

    # ------------------------------------------------------------------ apply
    def legal_actions(self) -> list[GunshiAction]:
        if self.result is not None:
            return []
        return list(self._legal())  # a copy: callers may change theirs

    def _legal(self) -> list[GunshiAction]:
        """The kept legal actions of this position (made on first use), not copied: for
        reading only (``why_illegal`` on every ``apply``)."""
        memo = self._legal_memo
        if memo is None:
            memo = self._legal_memo = sorted_unique(_RULES[self.phase].legal(self))
        return memo

    def apply(self, action: object) -> list[Event]:
        """Play one action (a :class:`GunshiAction`: text is parsed at the edges, with
        ``Gunshi.parse_action``), through the flow's template (core/flow.py).

        The template's steps (``FLOW.apply``) written out for Gunshi's table: the same checks,
        events and errors, with the rule modules' functions called from ``_RULES`` instead of
        through the flow's generic closures, and the length guard compiled: the hot path of
        random play and of every search.

        Typed ``object``: anything else is refused with the rule's ``IllegalAction``
        (compiled with mypyc, a narrower type would refuse it first with a bare
        ``TypeError``)."""
        if self.result is not None:
            raise over(self, action)
        rule = _RULES[self.phase]
        # A judging phase (``_collected``): an action not in the kept legal list is refused,
        # nothing changed; else the decision is counted before the action is played (the
        # events it makes carry its ply).
        legal = self._legal()
        given: Any = action
        # By identity first (the engine's actions are interned): a plain ``in`` calls the
        # dataclass __eq__ on every action before the match. A loop of ``is`` (a pointer
        # comparison compiled), not ``id`` numbers (each one boxed).
        found = False
        for legal_action in legal:
            if legal_action is given:
                found = True
                break
        if not found and given not in legal:
            raise IllegalAction(self.why_illegal(action) or f"{action} is not legal here")
        self._legal_memo = None  # the position changes: its legal actions with it
        self.ply += 1
        events: list[Event] = []
        self._events = events
        rule.do(self, given)
        # The phase's end first: most decisions end no phase (one call, no more).
        moves = 0
        end = rule.end
        while end is not None and end(self) and self.result is None:
            moves += 1
            if moves > len(_RULES):
                raise FlowLoop(
                    f"the phases moved {len(_RULES)} times in one action without a decision "
                    f"(now in {rule.name!r}): the flow's ends and nexts make a loop"
                )
            after = rule.next
            assert after is not None  # a phase with an end has a next (Flow checks PHASES)
            key = after if isinstance(after, str) else after(self)
            self.phase = key
            rule = _RULES[key]
            begin = rule.begin
            if begin is not None:
                begin(self)  # its events follow do's (``self._events`` is ``events``)
            end = rule.end
        self._events = []
        events += self._end_if_too_long(self.ply)
        return events

    def _end_if_too_long(self, decisions: int) -> list[Event]:
        # ``State._end_if_too_long`` compiled for the usual case (the game goes on); the
        # limit is read from the game each time (tests set it on the game or its class).
        limit = self.game.length_limit
        if limit is None:
            limit = self.game.max_game_length(**self.options)
        if decisions < limit or self.result is not None:
            return []
        return State._end_if_too_long(self, decisions)

    def _end_game(self, result: Outcome) -> None:
        self.result = result
        self._legal_memo = None

    def emit(
        self, audience: list[int] | None, type_: str, message: Sentence, **details: Any
    ) -> None:
        """Tell the audience (None: everyone) what happened; ``apply`` returns the events.

        The message is a sentence (``say``): stored as its English text, with its parts for
        the reader's language (docs/i18n.md "The engines' sentences").

        Each event carries ``ply``, the number of actions played when it happened (public:
        the move list groups a turn's sentences and browses back to that position)."""
        if self._muted:
            return
        # ``core.events.event(type_, audience, message=message, ply=self.ply, **details)``,
        # built here in one dict (the same keys in the same order: type, audience, message,
        # ply, the details, say), and the English text from the template's pieces: events
        # are about a quarter of a compiled ply of random play, which returns them.
        made: dict[str, Any] = {
            "type": type_,
            "audience": None if audience is None else list(audience),
            "message": message,
            "ply": self.ply,
        }
        if details:
            made.update(details)
        made["message"], made["say"] = told(message)
        self._events.append(made)

    def mute(self) -> None:
        """``apply`` returns no events from now on (a search's state); the rules are the same."""
        self._muted = True

    def gain(self, p: int, n: int) -> None:
        """p gains n Military Logistics Points (``logistics.gain``)."""
        logistics.gain(self, p, n)

    def pay(self, p: int, n: int) -> None:
        """p spends n Military Logistics Points (``logistics.pay``)."""
        logistics.pay(self, p, n)

    def why_illegal(self, action: object) -> str | None:
        """None if ``action`` is legal here, else the decision the rules ask for now and the
        actions legal in it."""
        if self.result is not None:
            return said(say("the game is over; no action can be played"))
        legal = self._legal()
        # By identity first (the engine's actions are interned): a plain ``in`` calls the
        # dataclass __eq__ on every action before the match.
        if id(action) in map(id, legal) or action in legal:
            return None
        return self._why_not_legal(action, legal)

    def _why_not_legal(self, action: object, legal: list[GunshiAction]) -> str:
        sample = ", ".join(str(a) for a in sorted(set(legal), key=GunshiAction.to_int)[:12])
        return said(self._refusal(str(action), sample))

    def _refusal(self, action: str, sample: str) -> Sentence:
        """Why ``action`` is refused: the decision the rules ask for now (``decision_name``'s
        words, one template per kind of decision so a reader's language words each) and a
        sample of the legal actions."""
        args: dict[str, object] = {"action": action, "sample": sample}
        if self.phase == "formation":
            args["phase"] = words.phase(PHASES["formation"].name)
            if not self.formation.fpiece:
                return say(
                    "{action} is not allowed now ({phase}: choose a piece); legal here: {sample}",
                    **args,
                )
            return say(
                "{action} is not allowed now ({phase}: place the {piece}); legal here: {sample}",
                piece=self.formation.fpiece,
                **args,
            )
        if self.phase == "secret":
            return say(
                "{action} is not allowed now ({phase}: {step}); legal here: {sample}",
                phase=words.phase(PHASES["secret"].name),
                step=self.step,
                **args,
            )
        if self.phase != "battle":
            return say(
                "{action} is not allowed now ({phase}); legal here: {sample}",
                phase=words.phase(PHASES[self.phase].name),
                **args,
            )
        if self.orders.cmd is not None:
            return say(
                "{action} is not allowed now (Units Follow Orders, {card}: {step}); legal here: "
                "{sample}",
                card=words.card(self.orders.cmd.card),
                step=str(self.orders.cmd.step),
                **args,
            )
        if self.step in ("take", "remove"):
            return say(
                "{action} is not allowed now (The Gunshi's Inspiration: {step}); legal here: "
                "{sample}",
                step=self.step,
                **args,
            )
        return say(
            "{action} is not allowed now (Send New Commands (then Lightning Command)); legal "
            "here: {sample}",
            **args,
        )

    def decision_name(self) -> str:
        """The decision the rules ask for now, in the rulebook's words (errors, the board)."""
        if self.phase == "formation":
            return (
                PHASES["formation"].name
                + ": "
                + (
                    "choose a piece"
                    if not self.formation.fpiece
                    else "place the " + self.formation.fpiece
                )
            )
        if self.phase == "secret":
            return f"{PHASES['secret'].name}: {self.step}"
        if self.phase != "battle":
            return PHASES[self.phase].name
        if self.orders.cmd is not None:
            card = CARDS[self.orders.cmd.card].name
            return f"Units Follow Orders, {card}: {self.orders.cmd.step}"
        if self.step in ("take", "remove"):
            return "The Gunshi's Inspiration: " + self.step
        return "Send New Commands (then Lightning Command)"

    # -------------------------------------------- for code that sets a position by hand
    def forget_legal_actions(self) -> None:
        """Drop the kept legal actions: call after changing fields other than through
        ``apply`` (a position string, a determinization, a test's set-up)."""
        self._legal_memo = None

    def take_events(self) -> list[Event]:
        """The events emitted since the last ``apply`` or call, which are then forgotten (the
        events of rules run by hand, outside ``apply``)."""
        events, self._events = self._events, []
        return events

    # ------------------------------------------------------------------ hidden information
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, shaped as ``views.GunshiView`` (``view.schema.json``); the
        contract's type is a plain dict, so the typed view is handed out as one."""
        return dict(hidden_information.view(self, seat))

    def determinize(self, seat: int, rng: random.Random) -> GunshiState:
        return hidden_information.determinize(self, seat, rng)

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        """The position as one flat object: the state's own fields, then each part's."""
        data: dict[str, Any] = {}
        for k, part in _LAYOUT:
            if part is not None:
                getattr(self, k).dump_into(data)
            elif k not in _NOT_SERIALISED:
                # A copy: changing the JSON leaves the state alone.
                data[k] = jsonable(getattr(self, k))
        data["result"] = self.result.to_json() if self.result else None
        return data

    @classmethod
    def from_json(cls, game: Game, data: dict[str, Any]) -> GunshiState:
        s = cls(game, dict(data["options"]), int(data["seed"]))
        for name, _cls in PARTS:
            # A key the data lacks keeps the part's start (saved before the field existed).
            getattr(s, name).load_from(data, keep_absent=True)
        for k in _OWN_FIELDS:
            if k in data:
                setattr(s, k, data[k])
        s.result = Outcome.from_json(data["result"]) if data.get("result") else None
        if "bags" not in data and s.phase != "build":
            # Saved before knowledge was kept: start it from the composition of unknown cards.
            for p in (RED, BLUE):
                s.reset_knowledge(p)
        return s

    def __str__(self) -> str:
        from sengoku.games.gunshi.render import render

        return render(self, None)


def _collected(
    do: Callable[[GunshiState, GunshiAction], None],
) -> Callable[[GunshiState, Any], list[Event] | None]:
    """A phase's ``do`` for the flow, judging legality itself (``judges``, core/flow.py): an
    action not in the kept legal list is refused (None, nothing changed); else the decision is
    counted (before the action is played: the events it makes carry its ply) and the rule
    module's ``do`` plays it, telling what happened through :meth:`GunshiState.emit`; its
    events are what it returns. One check against the list ``legal_actions`` kept, and no call
    of ``why_illegal`` on the way: the hot path of every search."""

    def run(state: GunshiState, given: object) -> list[Event] | None:
        # ``given`` is any object (compiled, a parameter typed GunshiAction would refuse
        # text or None with a bare TypeError before the flow's IllegalAction); once found
        # among the legal actions it is one.
        legal = state._legal()
        action: Any = given
        # By identity first (the engine's actions are interned): a plain ``in`` calls the
        # dataclass __eq__ on every action before the match.
        if id(action) not in map(id, legal) and action not in legal:
            return None
        state._legal_memo = None  # the position changes: its legal actions with it
        state.ply += 1  # counted here: a judging phase counts its decisions in its do
        state._events = []
        do(state, action)
        events, state._events = state._events, []
        return events

    run.__name__ = f"do_{do.__module__.rsplit('.', 1)[-1]}"
    return run


def _begun(
    begin: Callable[[GunshiState], None],
) -> Callable[[GunshiState, list[Event]], None]:
    """A phase's ``begin`` for the flow: the rule module's, telling what happened through
    :meth:`GunshiState.emit` into the action's events."""

    def run(state: GunshiState, events: list[Event]) -> None:
        state._events = events
        begin(state)
        state._events = []

    run.__name__ = f"begin_{begin.__module__.rsplit('.', 1)[-1]}"
    return run


class _Rule:
    """A phase's rule functions as the rule modules give them (``PHASES`` wraps the same
    functions for the flow): what ``GunshiState.apply`` and ``_legal`` call."""

    def __init__(
        self,
        name: str,
        legal: Callable[[GunshiState], list[GunshiAction]],
        do: Callable[[GunshiState, GunshiAction], None],
        begin: Callable[[GunshiState], None] | None,
        end: Callable[[GunshiState], bool] | None,
        next: str | Callable[[GunshiState], str] | None,
    ) -> None:
        self.name = name
        self.legal = legal
        self.do = do
        self.begin = begin
        self.end = end
        self.next = next


#: ``state.phase`` -> its rule functions, filled by ``_phase`` as ``PHASES`` is declared.
_RULES: Final[dict[str, _Rule]] = {}


def _phase(
    key: str,
    name: str,
    legal: Callable[[GunshiState], list[GunshiAction]],
    do: Callable[[GunshiState, GunshiAction], None],
    *,
    begin: Callable[[GunshiState], None] | None = None,
    end: Callable[[GunshiState], bool] | None = None,
    next: str | Callable[[GunshiState], str] | None = None,
) -> Phase[GunshiState, GunshiAction]:
    _RULES[key] = _Rule(name, legal, do, begin, end, next)
    return Phase(
        name,
        legal,
        _collected(do),
        judges=True,
        begin=None if begin is None else _begun(begin),
        end=end,
        next=next,
    )


def _after_formation(state: GunshiState) -> str:
    # The Gunshi's Inspiration, Modification 3: the Advanced cards are chosen once the
    # formations are complete, before Phase 2.
    o = state.options
    return "mod3" if o["variant"] == "inspiration" and o["modification"] == 3 else "secret"


def _begin_battle(state: GunshiState) -> None:
    # Phase 3 begins with Red's turn 1, sending new commands after the cards resolve.
    state.step = "send"
    state.player = RED
    battle.start(state)


def _enter(state: GunshiState, phase: str) -> None:
    state.phase = phase


#: ``state.phase`` -> the rule that decides in it, in the order a game goes through them:
#: its legal actions and how one is played; when it ends (``end``, the rule module's
#: predicate) and what follows (``next``); and what its rule does as it begins (``begin``:
#: who decides first). The game starts in ``build`` (Custom Deck Construction),
#: ``prepare`` (the Inspiration's Modification 2) or ``formation`` (setup chooses); the
#: battle ends only with the game (``winning.py``, inside a turn).
PHASES: dict[str, Phase[GunshiState, GunshiAction]] = {
    "build": _phase(
        "build",
        "Custom Deck Construction: choose a card",
        custom_deck.legal,
        custom_deck.do,
        end=custom_deck.picks_made,
        next="formation",
    ),
    "prepare": _phase(
        "prepare",
        "Gunshi's Inspiration: prepare an Advanced Command card",
        inspiration.legal_prepare,
        inspiration.do_prepare,
        end=custom_deck.picks_made,
        next="formation",
    ),
    "formation": _phase(
        "formation",
        "Phase 1, Creating Your Battle Formation",
        formation.legal,
        formation.do,
        begin=formation.begin,
        end=formation.complete,
        next=_after_formation,
    ),
    "mod3": _phase(
        "mod3",
        "Modification 3: choose an Advanced Command card",
        inspiration.legal_mod3,
        inspiration.do_mod3,
        begin=inspiration.begin_mod3,
        end=inspiration.mod3_chosen,
        next="secret",
    ),
    "secret": _phase(
        "secret",
        "Phase 2, Choosing Your Shogun and Card Order",
        shogun_and_card_order.legal,
        shogun_and_card_order.do,
        begin=shogun_and_card_order.begin,
        end=shogun_and_card_order.chosen,
        next="battle",
    ),
    "battle": _phase("battle", "Phase 3, Battle", battle.legal, battle.do, begin=_begin_battle),
}


#: Gunshi's turn as a flow (core/flow.py): its phases, and ``apply``'s template (each
#: phase's ``do`` counts the decision, see ``_collected``).
FLOW: Flow[GunshiState, str, GunshiAction] = Flow(
    PHASES, phase_of=attrgetter("phase"), decisions=attrgetter("ply"), enter=_enter
)


#: Not part of the position: the game object, the events of the action being played, the
#: legal-action memo; ``result`` is written through ``Outcome.to_json``.
_NOT_SERIALISED = frozenset({"game", "_events", "_muted", "_legal_memo", "result"})


#: A state's attributes in the order of the saved keys, each with its part class (None: a
#: field of the state's own). Named here, not read from a sample state's ``__dict__``, which
#: a compiled (native) state has not; tests/gunshi/test_gunshi_parts.py holds it to the
#: attributes ``__init__`` makes.
_LAYOUT: tuple[tuple[str, type[Part] | None], ...] = (
    ("game", None),
    ("options", None),
    ("num_players", None),
    ("seed", None),
    ("phase", None),
    ("player", None),
    ("step", None),
    ("logistics", logistics.MilitaryLogistics),
    ("fences", fences.Fences),
    ("field", units.Field),
    ("invader_spot", invasion.InvaderSpot),
    ("cards", cards.CommandCards),
    ("inspiration", inspiration.Inspiration),
    ("deck_construction", custom_deck.DeckConstruction),
    ("formation", formation.Formation),
    ("shoguns", shogun_and_card_order.Shoguns),
    ("battle", battle.Turn),
    ("orders", UnitsFollowOrders),
    ("knowledge", knowledge.Knowledge),
    ("ply", None),
    ("result", None),
    ("_events", None),
    ("_muted", None),
    ("_legal_memo", None),
)
#: The attributes the constructor is given (``__reduce__`` passes them so).
_MADE = frozenset({"game", "options", "seed"})
#: The parts a state is composed of, (attribute, class), each declared by the rule module
#: that writes it; ``clone`` and the JSON walk them.
PARTS: tuple[tuple[str, type[Part]], ...] = tuple(
    (k, part) for k, part in _LAYOUT if part is not None
)
#: The state's own fields that ``from_json`` sets (the options and seed are the
#: constructor's).
_OWN_FIELDS = tuple(
    k
    for k, part in _LAYOUT
    if part is None and k not in _NOT_SERIALISED and k not in ("options", "seed")
)


def _unpickled(
    game: Game, options: dict[str, Any], seed: int, fields: tuple[Any, ...]
) -> GunshiState:
    """A state rebuilt from ``GunshiState.__reduce__``'s fields."""
    s = GunshiState(game, options, seed, False)
    for (k, _part), value in zip(
        [(k, part) for k, part in _LAYOUT if k not in _MADE], fields, strict=True
    ):
        setattr(s, k, value)
    return s
