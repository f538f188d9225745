"""The Gunshi position and the turn; the rules live in modules named as the rulebook names them.

The state advances in place; every decision of a seat is one :class:`GunshiAction`. Which
rule decides now is declared in ``PHASES`` (setup choices, Phase 1, Phase 2, Phase 3); each
phase's module gives the legal actions and plays one. Hidden information (the Shogun, hands,
deck order, face-down Command Row cards, prepared Advanced cards) is kept here in full, and
``view`` shows a seat only what it may see. Cards are tuples (see ``cards.py``).

Where each rule lives (rulebook heading -> module): ``docs/architecture.md``, section Gunshi.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from operator import attrgetter
from typing import Any

import sengoku.games.gunshi.battle as battle
import sengoku.games.gunshi.custom_deck as custom_deck
import sengoku.games.gunshi.formation as formation
import sengoku.games.gunshi.hidden_information as hidden_information
import sengoku.games.gunshi.inspiration as inspiration
import sengoku.games.gunshi.knowledge as knowledge
import sengoku.games.gunshi.shogun_and_card_order as shogun_and_card_order
import sengoku.games.gunshi.tournament_clock as tournament_clock
import sengoku.games.gunshi.units as units
from sengoku.core.flow import Flow, Phase
from sengoku.core.game import TERMINAL, Event, Outcome, State, event
from sengoku.games.gunshi.actions import GunshiAction, sorted_unique
from sengoku.games.gunshi.battlefield import cn
from sengoku.games.gunshi.cards import SCOUTED, Card, seen
from sengoku.games.gunshi.commands.command import Command, command_from_view, command_view
from sengoku.games.gunshi.data import (
    BASIC_DECK,
    BLUE,
    CARDS,
    CELLS,
    DECKS,
    EDGES,
    FENCES_PER_PLAYER,
    FORMATIONS,
    NUM_TOKENS,
    RED,
    STARTING_POINTS,
    agreed_cards,
)
from sengoku.games.gunshi.units import INVADED, OFF, TYPE_NAME

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
    def __init__(self, game: Any, options: dict[str, Any], seed: int) -> None:
        self.game = game
        self.options = options
        self.num_players = 2
        self.seed = seed
        self.phase = "formation"
        self.player = RED
        self.step = ""
        self.points = [STARTING_POINTS, STARTING_POINTS]
        self.fences_left = [FENCES_PER_PLAYER, FENCES_PER_PLAYER]
        self.uloc = [OFF] * NUM_TOKENS
        self.uown = [-1] * NUM_TOKENS
        self.uface = [0] * NUM_TOKENS
        self.ushield = [False] * NUM_TOKENS
        self.board = [-1] * CELLS
        self.fence = [-1] * EDGES
        self.invaders = [0, 0]
        self.hand: list[list[Card]] = [[], []]
        self.deck: list[list[Card]] = [[], []]
        self.row: list[list[Card]] = [[], []]
        self.stock: list[list[Card]] = [[], []]  # Phase 2: cards not yet in hand or deck
        self.lightning: list[Card | None] = [None, None]
        self.beside: list[Card | None] = [None, None]  # an active Chain Trap
        self.prepared: list[list[str]] = [[], []]  # Gunshi's Inspiration, Mods 1 and 2
        self.unused: list[list[str]] = [[], []]  # Advanced cards left in the box
        self.removed: list[list[str]] = [[], []]  # removed from the game by the Inspiration
        self.pool: list[str] = []  # Modification 3: the shared face-up Advanced cards
        self.m3: list[list[str]] = [[], []]  # Modification 3 choices before the reveal
        self.picks: list[list[str]] = [[], []]  # Custom Deck Construction picks
        self.pick_order: list[int] = []
        self.pre_taken: list[str] = []  # Custom Deck Construction step 2: one Move each
        self.deck_public = True  # both players know each deck's composition
        self.cards_public = False  # presets that show both card orders
        self.face_down_next = [True, True]
        self.shogun = [-1, -1]
        self.revealed = [False, False]
        self.candidates: list[list[int]] = [[], []]
        self.swap_done = [False, False]
        self.invaded_turn = False
        self.queue: list[Card] = []
        self.cur: Card | None = None
        self.cmd: Command | None = None  # the command being resolved (commands/command.py)
        self.sent = 0
        self.fpiece = ""
        self.fcell = -1
        self.clock_started = False
        self.turn = 0
        self.ply = 0
        self.result: Outcome | None = None
        # What each player's opponent knows about that player's unknown cards (knowledge.py).
        self.bags: list[list[dict[str, Any]]] = [[], []]
        self.next_bag = 0
        self.removed_bag = [-1, -1]  # the bag of the card removed by the Inspiration
        self.box_bag = [-1, -1]  # the bag of the Advanced cards in the box (Mods 1 and 2)
        self._events: list[Event] = []
        # The sorted legal actions of this very position, kept by ``legal_actions`` so that the
        # ``apply`` right after it (a rollout ply, an agent's move) need not generate them a
        # second time to check the action. ``apply`` clears it. Not part of the position (not
        # serialized); code that edits a state's fields by hand must reset it to None.
        self._legal_memo: list[GunshiAction] | None = None

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
            self.stock[p] = [(c, False, False) for c in deck]
        if variant == "custom" and preset not in DECKS and o["custom_selection"] != "agreed":
            custom_deck.setup(self)
        if variant == "inspiration":
            inspiration.setup(self, rng)
        if preset in FORMATIONS:
            formation.apply_preset(self, preset)
            return
        if self.phase != "build":
            for p in (RED, BLUE):
                self.reset_knowledge(p)
        if self.phase == "formation":
            formation.next_placer(self, RED)

    def reset_knowledge(self, p: int) -> None:
        """The opponent knows the composition of p's unknown cards, nothing about their places."""
        self.bags[p] = [b for b in self.bags[p] if b["id"] == self.box_bag[p]]
        zones = [self.stock[p], self.hand[p], self.deck[p], self.row[p]]
        if self.player == p:
            zones.append(self.queue)
        unknown = [c[0] for z in zones for c in z if not (c[1] or c[2])]
        lt = self.lightning[p]
        if lt is not None and not (lt[1] or lt[2]):
            unknown.append(lt[0])
        if not unknown:
            bid = -1
        elif self.deck_public:
            bid = knowledge.new_bag(self, p, unknown)
        else:
            # Optional Rule 3: only the step 2 Move and the copy limits are known.
            known = [c[0] for z in zones for c in z if c[1] or c[2]]
            if lt is not None and (lt[1] or lt[2]):
                known.append(lt[0])
            lits = list(self.pre_taken)
            for code in known:
                if code in lits:
                    lits.remove(code)
            bid = knowledge.new_bag(
                self,
                p,
                lits,
                free=len(unknown) - len(lits),
                pool=custom_deck.deck_pool(self),
                used=known,
            )

        def mark(c: Card) -> Card:
            return (c[0], c[1], c[2]) if (c[1] or c[2]) else (c[0], c[1], c[2], bid)

        for z in zones:
            z[:] = [mark(c) for c in z]
        if lt is not None:
            self.lightning[p] = mark(lt)

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
        s = GunshiState.__new__(GunshiState)
        s.__dict__.update(self.__dict__)
        for name in (
            "points",
            "fences_left",
            "uloc",
            "uown",
            "uface",
            "ushield",
            "board",
            "fence",
            "invaders",
            "lightning",
            "beside",
            "pool",
            "pick_order",
            "face_down_next",
            "shogun",
            "revealed",
            "swap_done",
            "queue",
            "bags",
            "removed_bag",
            "box_bag",
        ):
            setattr(s, name, list(getattr(self, name)))
        for name in ("hand", "deck", "row", "stock", "prepared", "unused", "removed", "m3"):
            v = getattr(self, name)
            setattr(s, name, [list(v[0]), list(v[1])])
        s.picks = [list(self.picks[0]), list(self.picks[1])]
        s.candidates = [list(self.candidates[0]), list(self.candidates[1])]
        s.cmd = self.cmd.copy() if self.cmd is not None else None
        s._events = []
        # _legal_memo is shared: the copy's legal actions are the same, and the list is never
        # changed in place (legal_actions hands out copies, apply replaces it).
        return s

    # ------------------------------------------------------------------ apply
    def legal_actions(self) -> list[GunshiAction]:
        if self.result is not None:
            return []
        memo = self._legal_memo
        if memo is None:
            memo = self._legal_memo = sorted_unique(FLOW.legal(self))
        return list(memo)  # a copy: callers may change theirs

    def apply(self, action: GunshiAction) -> list[Event]:
        """Play one action (a :class:`GunshiAction`: text is parsed at the edges, with
        ``Gunshi.parse_action``), through the flow's template (core/flow.py)."""
        return FLOW.apply(self, action)

    def _end_game(self, result: Outcome) -> None:
        self.result = result
        self._legal_memo = None

    def emit(self, audience: list[int] | None, type_: str, message: str, **details: Any) -> None:
        """Tell the audience (None: everyone) what happened; ``apply`` returns the events.

        Each event carries ``ply``, the number of actions played when it happened (public:
        the move list groups a turn's sentences and browses back to that position)."""
        self._events.append(event(type_, audience, message=message, ply=self.ply, **details))

    def gain(self, p: int, n: int) -> None:
        """p gains n Military Logistics Points (up to the ``logistics_cap`` option)."""
        cap = self.options["logistics_cap"]
        total = self.points[p] + n
        self.points[p] = total if cap is None else max(self.points[p], min(cap, total))

    def pay(self, p: int, n: int) -> None:
        """p spends n Military Logistics Points."""
        self.points[p] -= n

    def why_illegal(self, action: Any) -> str | None:
        """None if ``action`` is legal here, else the decision the rules ask for now and the
        actions legal in it."""
        if self.result is not None:
            return "the game is over; no action can be played"
        legal = self.legal_actions()
        # By identity first (the engine's actions are interned): a plain ``in`` calls the
        # dataclass __eq__ on every action before the match.
        if id(action) in map(id, legal) or action in legal:
            return None
        return self._why_not_legal(action, legal)

    def _why_not_legal(self, action: Any, legal: list[GunshiAction]) -> str:
        what = self._decision_name()
        sample = ", ".join(str(a) for a in sorted(set(legal), key=GunshiAction.to_int)[:12])
        return f"{action!s} is not allowed now ({what}); legal here: {sample}"

    def _decision_name(self) -> str:
        if self.phase == "formation":
            return (
                PHASES["formation"].name
                + ": "
                + ("choose a piece" if not self.fpiece else "place the " + self.fpiece)
            )
        if self.phase == "secret":
            return f"{PHASES['secret'].name}: {self.step}"
        if self.phase != "battle":
            return PHASES[self.phase].name
        if self.cmd is not None:
            card = CARDS[self.cmd.card].name
            return f"Units Follow Orders, {card}: {self.cmd.step}"
        if self.step in ("take", "remove"):
            return "The Gunshi's Inspiration: " + self.step
        return "Send New Commands (then Lightning Command)"

    # -------------------------------------------- names tests and position strings call
    def _free_token(self, t: str) -> int:
        return units.free_token(self, t)

    def _put_unit(self, u: int, p: int, cell: int, face: int) -> None:
        units.put_unit(self, u, p, cell, face)

    def _begin_turn(self) -> None:
        battle.begin_turn(self)

    def _continue_turn(self) -> None:
        battle.continue_turn(self)

    # ------------------------------------------------------------------ hidden information
    def view(self, seat: int | None) -> dict[str, Any]:
        return hidden_information.view(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> GunshiState:
        return hidden_information.determinize(self, seat, rng)

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        data = {
            k: _jsonable(v.to_json() if isinstance(v, Command) else v)
            for k, v in self.__dict__.items()
            if k not in ("game", "_events", "result", "_legal_memo")
        }
        data["result"] = self.result.to_json() if self.result else None
        return data

    @classmethod
    def from_json(cls, game: Any, data: dict[str, Any]) -> GunshiState:
        s = cls(game, dict(data["options"]), int(data["seed"]))
        for k, v in data.items():
            if k in ("options", "seed", "result"):
                continue
            if k in ("hand", "deck", "row", "stock"):
                v = [[tuple(c) for c in z] for z in v]
            elif k in ("lightning", "beside"):
                v = [tuple(c) if c is not None else None for c in v]
            elif k == "queue":
                v = [tuple(c) for c in v]
            elif k == "cur":
                v = tuple(v) if v is not None else None
            elif k == "cmd" and v is not None:
                v = Command.from_json(v)
            setattr(s, k, v)
        s.result = Outcome.from_json(data["result"]) if data.get("result") else None
        if "bags" not in data and s.phase != "build":
            # Saved before knowledge was kept: start it from the composition of unknown cards.
            for p in (RED, BLUE):
                s.reset_knowledge(p)
        return s

    def __str__(self) -> str:
        from sengoku.games.gunshi.render import render

        return render(self, None)


def _jsonable(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    return v


def _collected(
    do: Callable[[GunshiState, GunshiAction], None],
) -> Callable[[GunshiState, GunshiAction], list[Event]]:
    """A phase's ``do`` for the flow: the rule module's ``do`` plays the action and tells
    what happened through :meth:`GunshiState.emit`; its events are what it returns."""

    def run(state: GunshiState, action: GunshiAction) -> list[Event]:
        state._legal_memo = None  # the position changes: its legal actions with it
        state._events = []
        do(state, action)
        events, state._events = state._events, []
        return events

    run.__name__ = f"do_{do.__module__.rsplit('.', 1)[-1]}"
    return run


def _phase(
    name: str,
    legal: Callable[[GunshiState], list[GunshiAction]],
    do: Callable[[GunshiState, GunshiAction], None],
) -> Phase[GunshiState, GunshiAction]:
    return Phase(name, legal, _collected(do))


#: ``state.phase`` -> the rule that decides in it, in the order a game goes through them.
#: Each phase's module says when it ends: its ``do`` sets ``state.phase`` to the next.
PHASES: dict[str, Phase[GunshiState, GunshiAction]] = {
    "build": _phase("Custom Deck Construction: choose a card", custom_deck.legal, custom_deck.do),
    "prepare": _phase(
        "Gunshi's Inspiration: prepare an Advanced Command card",
        inspiration.legal_prepare,
        inspiration.do_prepare,
    ),
    "formation": _phase("Phase 1, Creating Your Battle Formation", formation.legal, formation.do),
    "mod3": _phase(
        "Modification 3: choose an Advanced Command card",
        inspiration.legal_mod3,
        inspiration.do_mod3,
    ),
    "secret": _phase(
        "Phase 2, Choosing Your Shogun and Card Order",
        shogun_and_card_order.legal,
        shogun_and_card_order.do,
    ),
    "battle": _phase("Phase 3, Battle", battle.legal, battle.do),
}


def _count_ply(state: GunshiState) -> None:
    # Counted before the action is played: the events it makes carry its ply.
    state.ply += 1


#: Gunshi's turn as a flow (core/flow.py): its phases, and ``apply``'s template.
FLOW: Flow[GunshiState, str, GunshiAction] = Flow(
    PHASES, phase_of=attrgetter("phase"), decisions=attrgetter("ply"), count=_count_ply
)
