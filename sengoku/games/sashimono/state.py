"""The Sashimono rules engine: one position of a duel or of a solo game against the Kagemusha.

The game advances as a small machine: ``tasks`` is a stack of steps still to do (the turn
flow and the operations of card effects); a step either happens at once (an event) or asks
one seat one question (``prompt``). Every question is one decision: the turn type, a card,
a space, an action, a flip target, one ante, a casualty... The Kagemusha is no seat: its
questions are answered inside ``apply`` by the rulebook's prescriptions (closest to its
Army, leftmost, always decline).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import permutations
from typing import TYPE_CHECKING, Any

from sengoku.core.game import TERMINAL, Event, IllegalAction, Outcome, State, event
from sengoku.games.sashimono.cards import KUMI_NAMES, KUMI_POWER, KUMI_TYPES, Card, CardSet

if TYPE_CHECKING:
    from sengoku.games.sashimono.game import Sashimono

KAGE = 2
CELLS = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8))
LINE_NAMES = ("row1", "row2", "row3", "cola", "colb", "colc", "line")
#: (stack, shown) -> its view entry; view() hands out copies. Stacks are short strings of
#: distinct Kumi types, so this stays small.
_STACK_VIEWS: dict[tuple[str, bool], dict[str, Any]] = {}
#: The 12 Sashimono spaces, numbered as the solo Army path (spec): 1-3 above the columns,
#: 4-6 right of the rows, 7-9 below the right/middle/left columns, 10-12 left of the
#: bottom/middle/top rows.
SLOTS = ("top-a", "top-b", "top-c", "right-1", "right-2", "right-3",
         "bottom-c", "bottom-b", "bottom-a", "left-3", "left-2", "left-1")  # fmt: skip
SLOT_SHORT = ("ta", "tb", "tc", "r1", "r2", "r3", "bc", "bb", "ba", "l3", "l2", "l1")
SLOT_LINE = (3, 4, 5, 0, 1, 2, 5, 4, 3, 2, 1, 0)
SLOT_POS = ((-1, 0), (-1, 1), (-1, 2), (0, 3), (1, 3), (2, 3),
            (3, 2), (3, 1), (3, 0), (2, -1), (1, -1), (0, -1))  # fmt: skip
#: Who knows the types of a Hidden Kumi besides its owner: a bit per seat (``1 << seat``),
#: one for spectators, and EVERYONE when it was turned face down in public (or set up so).
SPECTATOR_BIT = 1 << 3
EVERYONE = 0b1111
CORNERS = {0, 2, 6, 8}
EDGES = {1, 3, 5, 7}
PERMS = tuple(permutations(range(3)))
BONUS = ("Bakufu", "Dojo", "Gennin", "Gyorin")
BONUS_EFFECT: tuple[list[dict[str, Any]], ...] = (
    [{"op": "bury", "from": "any", "draw": True}],
    [{"op": "train", "where": "any"}],
    [{"op": "flip", "side": "own", "where": "any", "face": "any", "count": 1},
     {"op": "draw", "what": "kumi", "count": 1}],
    [{"op": "rearrange", "where": "any"}],
)  # fmt: skip

# action kinds and their sizes: the integer action space is their concatenation.
(K_TURN, K_PLAY, K_SLOT, K_DO, K_OWN, K_ENEMY, K_HAND, K_SHAND, K_LOOK, K_LINE, K_PLACE,
 K_BONUS, K_PERM, K_OPTION, K_PSLOT, K_DONE) = range(16)  # fmt: skip
KIND_SIZE = (2, 128, 12, 8, 40, 40, 40, 40, 8, 7, 18, 4, 6, 4, 12, 1)
KIND_OFFSET = tuple(sum(KIND_SIZE[:k]) for k in range(len(KIND_SIZE)))
NUM_ACTIONS = sum(KIND_SIZE)


@dataclass(frozen=True)
class Act:
    """One decision. Equality and the integer are (kind, arg); ``text`` is its notation."""

    kind: int
    arg: int
    text: str = field(compare=False)
    short: str = field(compare=False, default="")

    def __str__(self) -> str:
        return self.text

    def __int__(self) -> int:
        return KIND_OFFSET[self.kind] + self.arg


# ----------------------------------------------------------------------------- Kumi


def is_up(stack: str) -> bool:
    return stack[-1] == "^"


def types_of(stack: str) -> str:
    return stack[:-1]


def rank(stack: str) -> int:
    return len(stack) - 1


def attack_of(stack: str) -> int:
    if not is_up(stack):
        return rank(stack)
    return sum(KUMI_POWER[t][0] for t in stack[:-1])


def defence_of(stack: str) -> int:
    if not is_up(stack):
        return rank(stack)
    return sum(KUMI_POWER[t][1] for t in stack[:-1])


def flipped(stack: str) -> str:
    return stack[:-1] + ("v" if is_up(stack) else "^")


def seat_bit(seat: int | None) -> int:
    """The knowledge bit of a seat (``None``: a spectator)."""
    return SPECTATOR_BIT if seat is None else 1 << seat


def describe_stack(stack: str, show: bool = True) -> str:
    if not is_up(stack) and not show:
        return f"a Hidden Kumi (rank {rank(stack)})"
    names = "+".join(KUMI_NAMES[t] for t in types_of(stack))
    return names if is_up(stack) else f"Hidden {names}"


class Side:
    """One army on the table: a player, or the Kagemusha (its Kumi line is its Sonae)."""

    __slots__ = ("army", "cells", "hand", "deck", "shand", "sdeck", "slots", "bowed", "vp",
                 "scored", "sline", "sbowed", "army_pos", "marker", "discard",
                 "known", "dknown", "sknown")  # fmt: skip

    def __init__(self, army: str) -> None:
        self.army = army
        self.cells: list[str | None] = []
        self.hand: list[str] = []
        self.deck: list[str] = []
        self.shand: list[int] = []
        self.sdeck: list[int] = []
        self.slots: list[int | None] = [None] * 12
        self.bowed: list[bool] = [False] * 12
        self.vp = 0
        self.scored: list[int] = []
        self.sline: list[int] = []
        self.sbowed: list[bool] = []
        self.army_pos = 0
        self.marker: int | None = None
        self.discard: list[str] = []
        #: per space of a player's Sonae: who besides the owner knows its types (bits of
        #: :func:`seat_bit`); read only for Hidden Kumi. Unused for the Kagemusha, whose
        #: Kumi all entered face up and are known to everyone.
        self.known: list[int] = []
        #: who knows the cards put at the bottom of the Kumi / Sashimono deck (same bits),
        #: aligned with the bottom of the deck: see :meth:`marks`
        self.dknown: list[int] = []
        self.sknown: list[int] = []

    def bottom(self, which: str, cards: list[Any], mask: int) -> None:
        """Put ``cards`` at the bottom of the Kumi (``"kumi"``) or Sashimono deck; who
        besides the owner knows them: ``mask``."""
        pile, marks = (self.deck, self.dknown) if which == "kumi" else (self.sdeck, self.sknown)
        pile.extend(cards)
        marks.extend([mask] * len(cards))
        if len(marks) > len(pile):
            del marks[: len(marks) - len(pile)]

    def marks(self, which: str) -> list[int]:
        """Who knows each card of a deck, top first. Cards leave a deck only from the top and
        enter it only at the bottom, so the marks of the bottom cards are the last ones."""
        pile, marks = (self.deck, self.dknown) if which == "kumi" else (self.sdeck, self.sknown)
        if len(marks) >= len(pile):
            return marks[len(marks) - len(pile) :]
        return [0] * (len(pile) - len(marks)) + marks

    def copy(self) -> Side:
        s = Side.__new__(Side)
        for name in Side.__slots__:
            value = getattr(self, name)
            setattr(s, name, value[:] if isinstance(value, list) else value)
        return s

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in Side.__slots__}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Side:
        s = cls.__new__(cls)
        for name in Side.__slots__:
            if name in ("dknown", "sknown") and name not in data:
                value = []
            elif name == "known" and name not in data:
                # positions saved before knowledge was kept: face-up Kumi are public, a
                # Hidden one is taken as known to its owner only
                cells = data["cells"]
                value = [EVERYONE if c is not None and is_up(c) else 0 for c in cells]
            else:
                value = data[name]
            setattr(s, name, list(value) if isinstance(value, list) else value)
        return s


def _dcopy(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _dcopy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_dcopy(v) for v in x]
    return x


class SashimonoState(State):
    """A Sashimono position (duel: seats 0 West, 1 East; solo: seat 0 and the Kagemusha)."""

    game: Sashimono

    def __init__(self, game: Sashimono, options: dict[str, Any], cs: CardSet) -> None:
        self.game = game
        self.options = options
        self.cs = cs
        self.solo = options["mode"] == "solo"
        self.num_players = 1 if self.solo else 2
        self.target = int(options["vp"])
        self.sides: list[Side] = []
        self.tasks: list[dict[str, Any]] = []
        self.prompt: dict[str, Any] | None = None
        self.ctx: dict[str, Any] = {}
        self.battle: dict[str, Any] | None = None
        self.looking: list[Any] = []
        self.looking_owner = -1
        self.turn_seat = 0
        self.turns = 0
        self.decisions = 0
        self.result: Outcome | None = None
        self._legal: list[Act] | None = None
        self._events: list[Event] = []
        self._bowed_for: tuple[Any, ...] | None = None

    # ------------------------------------------------------------------ setup

    def setup(self, seed: int) -> list[Event]:
        rng = random.Random(seed)
        cs = self.cs
        if self.solo:
            mine = self.options["army"]
            armies = [mine, "east" if mine == "west" else "west", "kage"]
        else:
            armies = ["west", "east"]
        for seat in range(2):
            side = Side(armies[seat])
            kumi = [t for t in KUMI_TYPES for _ in range(cs.kumi[t])]
            side.cells = list(cs.sonae)
            # the starting Sonae is printed in the rules: its Hidden Kumi are known to all
            side.known = [EVERYONE] * len(side.cells)
            for stack in cs.sonae:
                if stack:
                    kumi.remove(stack[0])
            rng.shuffle(kumi)
            side.deck = kumi
            sdeck = cs.deck(side.army)
            rng.shuffle(sdeck)
            side.sdeck = sdeck
            self.sides.append(side)
        if self.solo:
            # The Kagemusha takes the other army's cards; side 1 is unused (no second seat).
            kage = self.sides[1]
            self.sides[1] = Side("none")
            kumi = [t for t in KUMI_TYPES for _ in range(cs.kumi[t])]
            line = []
            for t in KUMI_TYPES:
                kumi.remove(t)
                line.append(t + "^")
            rng.shuffle(kumi)
            kage.cells = line  # type: ignore[assignment]
            kage.known = []
            kage.deck = kumi
            if self.options["challenge_discard_five"]:
                kage.discard = kage.deck[:5]
                kage.deck = kage.deck[5:]
            kage.marker = kage.sdeck.pop(0)
            kage.sline = kage.sdeck[:3]
            kage.sdeck = kage.sdeck[3:]
            kage.sbowed = [False] * len(kage.sline)
            kage.army_pos = 0
            self.sides.append(kage)
        seats = [0] if self.solo else [0, 1]
        for seat in seats:
            side = self.sides[seat]
            side.hand = side.deck[:3]
            side.deck = side.deck[3:]
        # Each player looks at the top 5 Sashimono and returns 2 to the bottom (setup step 4).
        first = 0
        if self.solo and self.sides[0].army == "east":
            first = KAGE  # the West army takes the first turn: here, the Kagemusha
        self.tasks = [{"t": "turn", "seat": first}]
        for seat in reversed(seats):
            self.tasks.append({"t": "setup_look", "seat": seat})
        self._events = [event("setup", message="Each army sets out its Sonae and draws 3 Kumi.")]
        return self._run()

    # ------------------------------------------------------------------ contract

    @property
    def current_player(self) -> int:
        if self.result is not None or self.prompt is None:
            return TERMINAL
        return int(self.prompt["seat"])

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    def legal_actions(self) -> list[Act]:
        if self.result is not None or self.prompt is None:
            return []
        if self._legal is None:
            self._legal = [Act(k, a, t, s) for k, a, t, s in self.prompt["opts"]]
        return list(self._legal)

    def apply(self, action: Any) -> list[Event]:
        if self.result is not None:
            raise IllegalAction("the game is over; no action is legal")
        prompt = self.prompt
        assert prompt is not None
        if not isinstance(action, Act):
            raise IllegalAction(f"{action!r} is not a Sashimono action (parse it first)")
        chosen = None
        for opt in prompt["opts"]:
            if opt[0] == action.kind and opt[1] == action.arg:
                chosen = opt
                break
        if chosen is None:
            legal = ", ".join(o[2] for o in prompt["opts"][:12])
            raise IllegalAction(f"{action} is not legal now ({prompt['rule']}); legal: {legal}")
        self.prompt = None
        self._legal = None
        self.decisions += 1
        self._events = []
        getattr(self, "_on_" + prompt["op"])(prompt, chosen[0], chosen[1])
        events = self._run()
        return events + self._end_if_too_long(self.decisions)

    def _end_game(self, result: Outcome) -> None:
        self._finish(result)

    def interim_scores(self) -> tuple[float, ...]:
        return self._scores()

    def _scores(self) -> tuple[float, ...]:
        return tuple(float(self.sides[s].vp) for s in range(self.num_players))

    def _finish(self, result: Outcome) -> None:
        self.result = result
        self.prompt = None
        self._legal = None
        self.tasks = []

    def clone(self) -> SashimonoState:
        c = SashimonoState.__new__(SashimonoState)
        c.game, c.options, c.cs = self.game, self.options, self.cs
        c.solo, c.num_players, c.target = self.solo, self.num_players, self.target
        c.sides = [s.copy() for s in self.sides]
        c.tasks = _dcopy(self.tasks)
        c.prompt = _dcopy(self.prompt)
        c.ctx = _dcopy(self.ctx)
        c.battle = _dcopy(self.battle)
        c.looking = self.looking[:]
        c.looking_owner = self.looking_owner
        c.turn_seat, c.turns, c.decisions = self.turn_seat, self.turns, self.decisions
        c.result = self.result
        c._legal = self._legal
        c._events = []
        c._bowed_for = self._bowed_for
        return c

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "sashimono",
            "options": dict(self.options),
            "sides": [s.to_json() for s in self.sides],
            "tasks": _dcopy(self.tasks),
            "prompt": _dcopy(self.prompt),
            "ctx": _dcopy(self.ctx),
            "battle": _dcopy(self.battle),
            "looking": list(self.looking),
            "looking_owner": self.looking_owner,
            "turn_seat": self.turn_seat,
            "turns": self.turns,
            "decisions": self.decisions,
            "result": self.result.to_json() if self.result else None,
        }

    @classmethod
    def from_json(cls, game: Sashimono, data: dict[str, Any], cs: CardSet) -> SashimonoState:
        st = cls(game, dict(data["options"]), cs)
        st.sides = [Side.from_json(s) for s in data["sides"]]
        st.tasks = _dcopy(data["tasks"])
        st.prompt = _dcopy(data["prompt"])
        st.ctx = _dcopy(data["ctx"])
        st.battle = _dcopy(data["battle"])
        st.looking = list(data["looking"])
        st.looking_owner = int(data["looking_owner"])
        st.turn_seat = int(data["turn_seat"])
        st.turns = int(data["turns"])
        st.decisions = int(data["decisions"])
        st.result = Outcome.from_json(data["result"]) if data["result"] else None
        return st

    # ------------------------------------------------------------------ helpers

    def enemy(self, side: int) -> int:
        if self.solo:
            return KAGE if side == 0 else 0
        return 1 - side

    def card(self, idx: int) -> Card:
        return self.cs.cards[idx]

    def _emit(self, type_: str, message: str, audience: list[int] | None = None, **kw: Any) -> None:
        if audience is not None:
            audience = [s for s in audience if s < self.num_players]
        self._events.append(event(type_, audience, message=message, **kw))

    def _name(self, side: int) -> str:
        if side == KAGE:
            return "the Kagemusha"
        return f"{self.sides[side].army.capitalize()} (seat {side})"

    def cell_name(self, side: int, idx: int) -> str:
        return f"k{idx + 1}" if side == KAGE else CELLS[idx]

    def line_cells(self, side: int, lid: int) -> tuple[int, ...]:
        if side == KAGE:
            return tuple(range(len(self.sides[KAGE].cells)))
        return LINES[lid]

    def lines_of(self, side: int) -> tuple[int, ...]:
        return (6,) if side == KAGE else (0, 1, 2, 3, 4, 5)

    def _icons(
        self, side: int, cells: tuple[int, ...], flip: int = -1
    ) -> tuple[dict[str, int], int]:
        counts = {"T": 0, "K": 0, "N": 0}
        hidden = 0
        sc = self.sides[side].cells
        for i in cells:
            st = sc[i]
            if st is None:
                continue
            if i == flip:
                st = flipped(st)
            if is_up(st):
                for t in st[:-1]:
                    counts[t] += 1
            else:
                hidden += 1
        return counts, hidden

    def reqs_ok(self, side: int, lid: int, requires: tuple[str, ...], flip: int = -1) -> bool:
        counts, hidden = self._icons(side, self.line_cells(side, lid), flip)
        for icon in requires:
            if icon == "gunbai":
                continue
            if icon == "hidden":
                if hidden < 1:
                    return False
            elif icon == "pair":
                if max(counts.values()) < 2:
                    return False
            elif icon == "TKN":
                if min(counts.values()) < 1:
                    return False
            elif counts[icon[0]] < len(icon):
                return False
        return True

    def action_ready(self, side: int, lid: int, requires: tuple[str, ...]) -> list[int] | bool:
        """True if performable now; with a Gunbai icon, the cells whose flip makes it so."""
        if "gunbai" in requires:
            return [
                i
                for i in self.line_cells(side, lid)
                if self.sides[side].cells[i] is not None and self.reqs_ok(side, lid, requires, i)
            ]
        return self.reqs_ok(side, lid, requires)

    # ------------------------------------------------------------------ measuring (conditions)

    def _sel_cells(self, side: int, kw: dict[str, Any]) -> list[str]:
        cells = self.sides[side].cells
        kage = side == KAGE
        line = kw.get("line")
        position = kw.get("position")
        out = []
        for i, st in enumerate(cells):
            if st is None:
                continue
            if line is not None and not kage and i not in LINES[LINE_NAMES.index(line)]:
                continue
            if position is not None:
                if kage:
                    continue
                if position == "corner":
                    if i not in CORNERS:
                        continue
                elif position == "edge":
                    if i not in EDGES:
                        continue
                elif position == "center":
                    if i != 4:
                        continue
                elif CELLS[i] != position:
                    continue
            out.append(st)
        return out

    @staticmethod
    def _match(st: str, kw: dict[str, Any]) -> bool:
        face = kw.get("face", "any")
        if face == "hidden" and is_up(st):
            return False
        if face == "up" and not is_up(st):
            return False
        t = kw.get("type")
        if t is not None and (not is_up(st) or t not in st):
            return False
        r = kw.get("rank")
        if r is not None and rank(st) != r:
            return False
        mr = kw.get("min_rank")
        return mr is None or rank(st) >= mr

    def measure(self, fn: str, side: int, other: int, kw: dict[str, Any]) -> int:
        """The value of one counting function of the condition language for ``side``."""
        s = self.sides[side]
        if fn == "count":
            return sum(1 for st in self._sel_cells(side, kw) if self._match(st, kw))
        if fn == "power":
            stat = attack_of if kw.get("stat", "attack") == "attack" else defence_of
            return sum(stat(st) for st in self._sel_cells(side, kw) if self._match(st, kw))
        if fn == "lines":
            axis = kw.get("axis", "any")
            need = kw.get("at_least", 1)
            distinct = kw.get("distinct")
            total = 0
            for lid in self.lines_of(side):
                if side != KAGE and ((axis == "row" and lid > 2) or (axis == "column" and lid < 3)):
                    continue
                stacks = [s.cells[i] for i in self.line_cells(side, lid)]
                live = [st for st in stacks if st is not None and self._match(st, kw)]
                if len(live) < need:
                    continue
                if distinct is not None:
                    kinds = {t for st in live if is_up(st) for t in st[:-1]}
                    if len(kinds) < distinct:
                        continue
                total += 1
            return total
        if fn == "types":
            sel = self._sel_cells(side, kw)
            return len({t for st in sel if is_up(st) for t in st[:-1]})
        if fn == "hand":
            if kw.get("what", "kumi") == "kumi":
                return len(s.cells) if side == KAGE else len(s.hand)
            return len(s.sline) if side == KAGE else len(s.shand)
        if fn == "sashimono":
            if side == KAGE:
                pairs = list(zip(s.sline, s.sbowed, strict=True))
            else:
                pairs = [(c, b) for c, b in zip(s.slots, s.bowed, strict=True) if c is not None]
            army = kw.get("army")
            bowed = kw.get("bowed")
            return sum(
                1
                for c, b in pairs
                if (army is None or self.card(c).serves(army)) and (bowed is None or b == bowed)
            )
        if fn == "vp":
            return s.vp
        if fn == "empty":
            return 0 if side == KAGE else sum(1 for st in s.cells if st is None)
        raise KeyError(fn)

    def _bow_key(self) -> tuple[Any, ...]:
        """Everything a scoring condition can read (a cheap test for "nothing changed")."""
        return tuple(
            (tuple(s.cells), len(s.hand), len(s.shand), tuple(s.slots), tuple(s.bowed), s.vp,
             tuple(s.sline), tuple(s.sbowed))
            for s in self.sides
        )  # fmt: skip

    def _rebow(self) -> None:
        """Bow or un-bow every Sashimono in play (spec: after every change of state)."""
        key = self._bow_key()
        if key == self._bowed_for:
            return
        # a condition may count bowed Sashimono: repeat until nothing changes
        for _ in range(4):
            if not self._rebow_pass():
                break
        self._bowed_for = self._bow_key()

    def _rebow_pass(self) -> bool:
        changed = False
        seats = [0] if self.solo else [0, 1]
        for seat in seats:
            s = self.sides[seat]
            foe = self.enemy(seat)
            for p, c in enumerate(s.slots):
                if c is None:
                    continue
                now = bool(self.card(c).score(self, seat, foe))
                if now != s.bowed[p]:
                    s.bowed[p] = now
                    changed = True
                    verb = "bows" if now else "un-bows"
                    self._emit("bow", f"{self.card(c).name} ({self._name(seat)}) {verb}.",
                               seat=seat, slot=SLOTS[p], card=self.card(c).id, bowed=now)  # fmt: skip
        if self.solo:
            k = self.sides[KAGE]
            for i, c in enumerate(k.sline):
                # "Bow the Kagemusha's Sashimono as if you would bow your own": its conditions
                # read your Sonae as "own" and its Kumi line as the enemy's.
                now = bool(self.card(c).score(self, 0, KAGE))
                if now != k.sbowed[i]:
                    k.sbowed[i] = now
                    changed = True
                    verb = "bows" if now else "un-bows"
                    self._emit("bow", f"The Kagemusha's {self.card(c).name} {verb}: a trap.",
                               seat=KAGE, card=self.card(c).id, bowed=now)  # fmt: skip
        return changed

    # ------------------------------------------------------------------ the machine

    def _run(self) -> list[Event]:
        events = self._events
        while self.result is None:
            if self.prompt is not None:
                if self.prompt["seat"] != KAGE:
                    break
                self._kage_answer()
                continue
            if not self.tasks:
                break
            task = self.tasks.pop()
            getattr(self, "_t_" + task["t"])(task)
            self._rebow()
        self._legal = None
        self._events = []
        return events

    def _push(self, *tasks: dict[str, Any]) -> None:
        """Schedule ``tasks`` to run in the order given, before what was already waiting."""
        self.tasks.extend(reversed(tasks))

    def _ask(self, seat: int, op: str, rule: str, opts: list[tuple[int, int, str, str]],
             **data: Any) -> None:  # fmt: skip
        opts = sorted(opts, key=lambda o: KIND_OFFSET[o[0]] + o[1])
        self.prompt = {"seat": seat, "op": op, "rule": rule, "opts": [list(o) for o in opts],
                       **data}  # fmt: skip
        self._legal = None

    # ------------------------------------------------------------------ setup decisions

    def _t_setup_look(self, task: dict[str, Any]) -> None:
        seat = task["seat"]
        s = self.sides[seat]
        self.looking = s.sdeck[:5]
        s.sdeck = s.sdeck[5:]
        self.looking_owner = seat
        self._emit("look", f"{self._name(seat)} looks at the top 5 Sashimono.")
        self._emit("look", "You look at: " + ", ".join(self.card(c).name for c in self.looking),
                   [seat], cards=[self.card(c).id for c in self.looking])  # fmt: skip
        self._ask_return_looked(
            seat, 2, "setup: choose 2 of the 5 Sashimono to return to the bottom"
        )

    def _ask_return_looked(self, seat: int, n: int, rule: str) -> None:
        opts = [(K_LOOK, i, f"bottom L{i + 1}", f"L{i + 1}") for i in range(len(self.looking))]
        self._ask(seat, "look_bottom", rule, opts, n=n)

    def _on_look_bottom(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        s = self.sides[seat]
        card = self.looking.pop(arg)
        s.bottom("sas", [card], seat_bit(seat))
        self._emit("bottom", f"{self._name(seat)} returns a Sashimono to the bottom of the deck.")
        n = prompt["n"] - 1
        if n > 0 and self.looking:
            self._ask_return_looked(seat, n, prompt["rule"])
            return
        s.shand.extend(self.looking)
        self._emit("draw", f"{self._name(seat)} draws {len(self.looking)} Sashimono.")
        self.looking = []
        self.looking_owner = -1

    # ------------------------------------------------------------------ the turn

    def _t_turn(self, task: dict[str, Any]) -> None:
        seat = task["seat"]
        self.turn_seat = seat
        self.turns += 1
        self.ctx = {"seat": seat}
        if seat == KAGE:
            self._kage_turn()
            return
        s = self.sides[seat]
        opts = []
        if s.shand and self._free_slots(seat):
            opts.append((K_TURN, 0, "action", "a"))
        opts.append((K_TURN, 1, "score", "s"))
        self._emit("turn", f"{self._name(seat)} to play.", seat=seat)
        rule = (
            "choose an Action turn or a Score turn (Score is mandatory with no Sashimono in hand)"
        )
        self._ask(seat, "turn", rule, opts)

    def _free_slots(self, seat: int) -> list[int]:
        s = self.sides[seat]
        army = self.sides[KAGE].army_pos if self.solo else -1
        return [p for p in range(12) if s.slots[p] is None and p != army]

    def _on_turn(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        after = [{"t": "draw_kumi", "seat": seat}, {"t": "place", "seat": seat},
                 {"t": "end_turn", "seat": seat}]  # fmt: skip
        if arg == 0:
            self._emit("turn_type", f"{self._name(seat)} takes an Action turn.")
            s = self.sides[seat]
            opts = [(K_PLAY, c, f"play {self.card(c).id}", self.card(c).id) for c in s.shand]
            self._ask(seat, "play", "Action turn: play one Sashimono from your hand", opts)
            self._push({"t": "actions", "seat": seat}, *after)
        else:
            self._emit("turn_type", f"{self._name(seat)} takes a Score turn.")
            self._push({"t": "score", "seat": seat}, {"t": "return_sas", "seat": seat},
                       {"t": "bonus", "seat": seat}, *after)  # fmt: skip

    def _on_play(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        self.ctx["card"] = arg
        opts = [(K_SLOT, p, f"slot {SLOTS[p]}", SLOT_SHORT[p]) for p in self._free_slots(seat)]
        self._ask(seat, "slot", f"place {self.card(arg).name} next to one line of your Sonae "
                  "(not onto another Sashimono or the Kagemusha's Army)", opts)  # fmt: skip

    def _on_slot(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        s = self.sides[seat]
        card = self.ctx["card"]
        s.shand.remove(card)
        s.slots[arg] = card
        s.bowed[arg] = False
        self.ctx.update(slot=arg, line=SLOT_LINE[arg], used=[])
        self._emit("play", f"{self._name(seat)} plays {self.card(card).name} at {SLOTS[arg]} "
                   f"({LINE_NAMES[SLOT_LINE[arg]]}).", seat=seat, card=self.card(card).id,
                   slot=SLOTS[arg])  # fmt: skip

    def _card_actions(self) -> list[tuple[int, Any]]:
        card = self.card(self.ctx["card"])
        out: list[tuple[int, Any]] = list(enumerate(card.actions))
        out += [(4 + i, a) for i, a in enumerate(self.cs.reference)]
        return out

    def _t_actions(self, task: dict[str, Any]) -> None:
        seat = task["seat"]
        lid = self.ctx["line"]
        opts = []
        for i, act in self._card_actions():
            if i in self.ctx["used"]:
                continue
            if self.action_ready(seat, lid, act.requires):
                opts.append((K_DO, i, f"do {act.name}", act.name))
        if not opts and not self._gunbai_may_help(seat):
            return  # no action can be performed: the step ends by itself
        # (also asked, with only 'done', when flipping a Hidden Kumi might have made a
        # Gunbai action performable: whether you are asked must not tell its types)
        opts.append((K_DONE, 0, "done", "done"))
        self._ask(seat, "do", "perform each available action of the card and the reference "
                  "card at most once, requirements read from the chosen line", opts)  # fmt: skip

    def _gunbai_may_help(self, seat: int) -> bool:
        """Whether, as the other players can tell, a Gunbai flip of a Hidden Kumi might make
        an unused action of the played card performable: one is left and the line has a
        Hidden Kumi (its types are secret)."""
        cells = self.sides[seat].cells
        if not any(
            cells[i] is not None and not is_up(cells[i] or "")
            for i in self.line_cells(seat, self.ctx["line"])
        ):
            return False
        return any(
            "gunbai" in act.requires for i, act in self._card_actions() if i not in self.ctx["used"]
        )

    def _on_do(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        if kind == K_DONE:
            self._emit("actions_done", f"{self._name(seat)} ends the actions.")
            return
        act = dict(self._card_actions())[arg]
        self.ctx["used"].append(arg)
        self._emit("action", f"{self._name(seat)} performs {act.name}.", name=act.name)
        lid = self.ctx["line"]
        tasks = [{"t": "op", "spec": dict(spec), "actor": seat, "line": lid} for spec in act.effect]
        if "gunbai" in act.requires:
            cells = self.action_ready(seat, lid, act.requires)
            assert isinstance(cells, list)
            opts = [(K_OWN, i, f"gunbai {CELLS[i]}", CELLS[i]) for i in cells]
            self._ask(seat, "gunbai", "Gunbai fan: flip a Kumi in this line, then act", opts,
                      act=arg)  # fmt: skip
        self._push(*tasks, {"t": "actions", "seat": seat})

    def _on_gunbai(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        self._flip(prompt["seat"], prompt["seat"], arg)

    def _flip(self, actor: int, side: int, idx: int) -> None:
        cells = self.sides[side].cells
        st = cells[idx]
        assert st is not None
        cells[idx] = flipped(st)
        if side != KAGE:
            # turned in front of everyone: its types are public either way
            self.sides[side].known[idx] = EVERYONE
        now = cells[idx]
        assert now is not None
        where = self.cell_name(side, idx)
        owner = self._name(side)
        if is_up(now):
            self._emit("flip", f"{self._name(actor)} flips {owner}'s {where} face up: "
                       f"{describe_stack(now)}.", side=side, cell=where, stack=now)  # fmt: skip
        else:
            self._emit("flip", f"{self._name(actor)} flips {owner}'s {where} face down.",
                       side=side, cell=where)  # fmt: skip

    # ------------------------------------------------------------------ score turn

    def _t_score(self, task: dict[str, Any]) -> None:
        seat = task["seat"]
        s = self.sides[seat]
        scored = [p for p in range(12) if s.slots[p] is not None and s.bowed[p]]
        for p in scored:
            c = s.slots[p]
            assert c is not None
            s.scored.append(c)
            s.slots[p] = None
            s.bowed[p] = False
            s.vp += 1
            self._emit("score", f"{self._name(seat)} scores {self.card(c).name} (VP {s.vp}).",
                       seat=seat, card=self.card(c).id)  # fmt: skip
        if not scored:
            self._emit("score", f"{self._name(seat)} has no bowed Sashimono to score.")
            return
        if s.vp >= self.target:
            self._win(seat, "vp")
            return
        n = len(scored)
        if len(s.sdeck) <= n:
            s.shand.extend(s.sdeck)
            self._emit("draw", f"{self._name(seat)} draws the last {len(s.sdeck)} Sashimono.")
            s.sdeck = []
            return
        self.looking = s.sdeck[: n + 1]
        s.sdeck = s.sdeck[n + 1 :]
        self.looking_owner = seat
        self._emit("look", f"{self._name(seat)} looks at the top {n + 1} Sashimono.")
        self._emit("look", "You look at: " + ", ".join(self.card(c).name for c in self.looking),
                   [seat], cards=[self.card(c).id for c in self.looking])  # fmt: skip
        self._ask_return_looked(
            seat, 1, f"replace scored Sashimono: keep {n}, return 1 to the bottom"
        )

    def _t_return_sas(self, task: dict[str, Any]) -> None:
        seat = task["seat"]
        s = self.sides[seat]
        opts = [(K_PSLOT, p, f"return {SLOTS[p]}", SLOT_SHORT[p])
                for p in range(12) if s.slots[p] is not None]  # fmt: skip
        if not opts:
            return
        opts.append((K_DONE, 0, "keep", "keep"))
        self._ask(seat, "return_sas", "you may return un-scored Sashimono from play to hand", opts)

    def _on_return_sas(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        if kind == K_DONE:
            return
        s = self.sides[seat]
        c = s.slots[arg]
        assert c is not None
        s.slots[arg] = None
        s.bowed[arg] = False
        s.shand.append(c)
        self._emit("return", f"{self._name(seat)} returns {self.card(c).name} to hand.")
        self.tasks.append({"t": "return_sas", "seat": seat})

    def _t_bonus(self, task: dict[str, Any]) -> None:
        seat = task["seat"]
        s = self.sides[seat]
        opts = []
        if s.sdeck or s.shand or any(c is not None for c in s.slots):
            opts.append((K_BONUS, 0, "bonus Bakufu", "Bakufu"))
        if self._train_targets(seat, None):
            opts.append((K_BONUS, 1, "bonus Dojo", "Dojo"))
        if any(st is not None for st in s.cells):
            opts.append((K_BONUS, 2, "bonus Gennin", "Gennin"))
            opts.append((K_BONUS, 3, "bonus Gyorin", "Gyorin"))
        opts.append((K_DONE, 0, "no bonus", "none"))
        self._ask(
            seat, "bonus", "you may take one bonus action: Bakufu, Dojo, Gennin, Gyorin", opts
        )

    def _on_bonus(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        if kind == K_DONE:
            return
        self._emit("bonus", f"{self._name(seat)} takes the bonus action {BONUS[arg]}.")
        self._push(*[{"t": "op", "spec": dict(spec), "actor": seat, "line": None}
                     for spec in BONUS_EFFECT[arg]])  # fmt: skip

    # ------------------------------------------------------------------ end of turn

    def _t_draw_kumi(self, task: dict[str, Any]) -> None:
        seat = task["seat"]
        s = self.sides[seat]
        k = sum(1 for st in s.cells if st is None)
        n = k + 1
        if self.solo and self.options["challenge_fewer_kumi"]:
            n -= 1
        self._draw_kumi(seat, n)

    def _draw_kumi(self, seat: int, n: int) -> None:
        s = self.sides[seat]
        if seat == KAGE:
            for _ in range(n):
                if not self._kage_draw_kumi():
                    return
            return
        got = s.deck[:n]
        s.deck = s.deck[n:]
        s.hand.extend(got)
        short = "" if len(got) == n else f" (the deck had only {len(got)})"
        self._emit(
            "draw", f"{self._name(seat)} draws {len(got)} Kumi{short}.", seat=seat, count=len(got)
        )
        if got:
            self._emit("draw", "You draw: " + ", ".join(KUMI_NAMES[t] for t in got), [seat],
                       cards=got)  # fmt: skip

    def _t_place(self, task: dict[str, Any]) -> None:
        seat = task["seat"]
        s = self.sides[seat]
        if not s.hand or all(st is not None for st in s.cells):
            return
        opts = [(K_HAND, i, f"kumi h{i + 1}", f"h{i + 1}") for i in range(len(s.hand))]
        opts.append((K_DONE, 0, "end", "end"))
        self._ask(seat, "place", "you may play Kumi from hand into empty spaces", opts,
                  n=task.get("n", -1))  # fmt: skip

    def _on_place(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        if kind == K_DONE:
            return
        s = self.sides[seat]
        opts = []
        for i, st in enumerate(s.cells):
            if st is None:
                opts.append((K_PLACE, 2 * i, f"to {CELLS[i]} up", f"{CELLS[i]}^"))
                opts.append((K_PLACE, 2 * i + 1, f"to {CELLS[i]} hidden", f"{CELLS[i]}v"))
        self._ask(seat, "place_at", "play the Kumi into an empty space, face up or Hidden", opts,
                  hand=arg, n=prompt["n"])  # fmt: skip

    def _on_place_at(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        s = self.sides[seat]
        t = s.hand.pop(prompt["hand"])
        idx, hidden = divmod(arg, 2)
        s.cells[idx] = t + ("v" if hidden else "^")
        s.known[idx] = 0 if hidden else EVERYONE
        if hidden:
            self._emit("place", f"{self._name(seat)} plays a Hidden Kumi at {CELLS[idx]}.",
                       seat=seat, cell=CELLS[idx])  # fmt: skip
            self._emit("place", f"(it is {KUMI_NAMES[t]})", [seat], cell=CELLS[idx], kumi=t)
        else:
            self._emit("place", f"{self._name(seat)} plays {KUMI_NAMES[t]} face up at {CELLS[idx]}.",
                       seat=seat, cell=CELLS[idx], kumi=t)  # fmt: skip
        n = prompt["n"]
        if n > 1 or n < 0:
            self.tasks.append({"t": "place", "seat": seat, "n": n - 1 if n > 0 else -1})

    def _t_end_turn(self, task: dict[str, Any]) -> None:
        seat = task["seat"]
        self.ctx = {}
        if self.solo:
            nxt = KAGE if seat == 0 else 0
        else:
            nxt = 1 - seat
        self._emit("end_turn", f"{self._name(seat)} ends the turn.")
        self.tasks.append({"t": "turn", "seat": nxt})

    def _win(self, seat: int, reason: str) -> None:
        if self.solo:
            if seat == KAGE:
                self._finish(Outcome(reason, (), self._scores(), (-1.0,)))
                self._emit("game_over", f"The Kagemusha wins ({reason}).", reason=reason)
            else:
                self._finish(Outcome(reason, (0,), self._scores(), (1.0,)))
                self._emit("game_over", f"{self._name(0)} defeats the Kagemusha.", reason=reason)
            return
        returns = tuple(1.0 if s == seat else -1.0 for s in range(2))
        self._finish(Outcome(reason, (seat,), self._scores(), returns))
        self._emit("game_over", f"{self._name(seat)} wins with {self.sides[seat].vp} VP.",
                   reason=reason, winners=[seat])  # fmt: skip

    # ------------------------------------------------------------------ operations

    def _t_op(self, task: dict[str, Any]) -> None:
        spec = task["spec"]
        getattr(self, "_op_" + spec["op"])(task, spec)

    def _op_skip(self, actor: int, what: str) -> None:
        self._emit("no_effect", f"{self._name(actor)}: {what}.")

    def _flip_targets(
        self, actor: int, spec: dict[str, Any], line: int | None
    ) -> tuple[int, list[int]]:
        side = actor if spec.get("side", "own") == "own" else self.enemy(actor)
        cells = self.sides[side].cells
        where = spec.get("where", "any")
        face = spec.get("face", "any")
        out = []
        in_line = set(self.line_cells(side, line)) if line is not None else set()
        for i, st in enumerate(cells):
            if st is None:
                continue
            if line is not None and where == "line" and i not in in_line:
                continue
            if line is not None and where == "other" and i in in_line:
                continue
            if face == "hidden" and is_up(st):
                continue
            if face == "up" and not is_up(st):
                continue
            out.append(i)
        return side, out

    def _cell_opts(
        self, chooser: int, side: int, cells: list[int], verb: str
    ) -> list[tuple[int, int, str, str]]:
        if side == chooser:
            return [(K_OWN, i, f"{verb} {self.cell_name(side, i)}", self.cell_name(side, i))
                    for i in cells]  # fmt: skip
        return [(K_ENEMY, i, f"{verb} enemy {self.cell_name(side, i)}", "e" + self.cell_name(side, i))
                for i in cells]  # fmt: skip

    def _op_flip(self, task: dict[str, Any], spec: dict[str, Any]) -> None:
        actor = task["actor"]
        side, cells = self._flip_targets(actor, spec, task["line"])
        if not cells:
            self._op_skip(actor, "no Kumi to flip")
            return
        self._ask(actor, "flip", "flip a Kumi", self._cell_opts(actor, side, cells, "flip"),
                  task=task, side=side)  # fmt: skip

    def _on_flip(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        self._flip(prompt["seat"], prompt["side"], arg)
        self._again(prompt["task"])

    def _again(self, task: dict[str, Any]) -> None:
        """Repeat an operation with a count, once fewer."""
        spec = task["spec"]
        if spec.get("count", 1) > 1:
            spec = dict(spec, count=spec["count"] - 1)
            self.tasks.append(dict(task, spec=spec))

    def _op_draw(self, task: dict[str, Any], spec: dict[str, Any]) -> None:
        actor = task["actor"]
        n = spec["count"]
        if spec["what"] == "kumi":
            self._draw_kumi(actor, n)
            return
        self._draw_sashimono(actor, n)

    def _draw_sashimono(self, seat: int, n: int) -> None:
        s = self.sides[seat]
        if seat == KAGE:
            for _ in range(n):
                if not self._kage_draw_sashimono():
                    return
            return
        got = s.sdeck[:n]
        s.sdeck = s.sdeck[n:]
        s.shand.extend(got)
        self._emit("draw", f"{self._name(seat)} draws {len(got)} Sashimono.", seat=seat)
        if got:
            self._emit("draw", "You draw: " + ", ".join(self.card(c).name for c in got), [seat])

    def _op_look(self, task: dict[str, Any], spec: dict[str, Any]) -> None:
        actor = task["actor"]
        s = self.sides[actor]
        if actor == KAGE:
            self._draw_kumi(actor, spec["keep"])
            return
        if not s.deck:
            self._op_skip(actor, "the Kumi deck is empty")
            return
        self.looking = s.deck[: spec["count"]]
        s.deck = s.deck[spec["count"] :]
        self.looking_owner = actor
        self._emit("look", f"{self._name(actor)} looks at the top {len(self.looking)} Kumi.")
        self._emit("look", "You look at: " + ", ".join(KUMI_NAMES[t] for t in self.looking),
                   [actor], cards=list(self.looking))  # fmt: skip
        self._ask_keep(actor, spec["keep"])

    def _ask_keep(self, actor: int, keep: int) -> None:
        opts = [(K_LOOK, i, f"keep L{i + 1}", f"L{i + 1}") for i in range(len(self.looking))]
        self._ask(actor, "keep", f"look and choose: keep {keep} to hand, the rest to the bottom",
                  opts, keep=keep)  # fmt: skip

    def _on_keep(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        s = self.sides[seat]
        s.hand.append(self.looking.pop(arg))
        self._emit("keep", f"{self._name(seat)} keeps a Kumi.")
        keep = prompt["keep"] - 1
        if keep > 0 and self.looking:
            self._ask_keep(seat, keep)
            return
        s.bottom("kumi", list(self.looking), seat_bit(seat))
        self.looking = []
        self.looking_owner = -1

    def _op_battle(self, task: dict[str, Any], spec: dict[str, Any]) -> None:
        actor = task["actor"]
        foe = self.enemy(actor)
        lines = list(self.lines_of(foe))
        if foe != KAGE:
            if spec["axis"] == "row":
                lines = [lid for lid in lines if lid < 3]
            elif spec["axis"] == "column":
                lines = [lid for lid in lines if lid >= 3]
        opts = [(K_LINE, lid, f"battle {LINE_NAMES[lid]}", LINE_NAMES[lid]) for lid in lines]
        self._ask(actor, "battle", "battle: choose the enemy line to attack", opts,
                  task=task)  # fmt: skip

    def _on_battle(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        actor = prompt["seat"]
        task = prompt["task"]
        spec = task["spec"]
        aline = task["line"] if task["line"] is not None else 6
        self._start_battle(
            actor, aline, arg, spec.get("attack", 0), spec.get("defender_ante", True)
        )

    def _start_battle(self, att: int, aline: int, dline: int, bonus: int, dante: bool) -> None:
        dfn = self.enemy(att)
        self.battle = {"att": att, "dfn": dfn, "aline": aline, "dline": dline, "bonus": bonus,
                       "dante": dante, "ante": {str(att): [], str(dfn): []}}  # fmt: skip
        self._emit("battle", f"{self._name(att)} attacks {self._name(dfn)}'s "
                   f"{LINE_NAMES[dline]} from {LINE_NAMES[aline]}.", attacker=att, defender=dfn,
                   attack_line=LINE_NAMES[aline], defence_line=LINE_NAMES[dline])  # fmt: skip
        self._push({"t": "ante", "seat": att}, {"t": "ante", "seat": dfn}, {"t": "resolve"})

    def _t_ante(self, task: dict[str, Any]) -> None:
        seat = task["seat"]
        b = self.battle
        assert b is not None
        if seat == KAGE:
            return  # the Kagemusha makes no ante (it declines every option)
        lid = b["aline"] if seat == b["att"] else b["dline"]
        s = self.sides[seat]
        hidden = [i for i in self.line_cells(seat, lid) if s.cells[i] is not None
                  and not is_up(s.cells[i] or "")]  # fmt: skip
        opts = [(K_OWN, i, f"reveal {CELLS[i]}", CELLS[i]) for i in hidden]
        if seat == b["att"] or b["dante"]:
            opts += [(K_HAND, i, f"ante h{i + 1}", f"h{i + 1}") for i in range(len(s.hand))]
        if not opts:
            return
        opts.append((K_DONE, 0, "ante done", "done"))
        role = "attacker" if seat == b["att"] else "defender"
        self._ask(seat, "ante", f"{role}'s ante: flip Hidden Kumi of your line face up, add Kumi "
                  "from hand face down (+1 each), then done", opts)  # fmt: skip

    def _on_ante(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        b = self.battle
        assert b is not None
        if kind == K_DONE:
            return
        if kind == K_OWN:
            self._flip(seat, seat, arg)
        else:
            card = self.sides[seat].hand.pop(arg)
            b["ante"][str(seat)].append(card)
            self._emit("ante", f"{self._name(seat)} adds a Kumi from hand to the battle.")
        self.tasks.append({"t": "ante", "seat": seat})

    def _modifier(self, side: int, stat: str, lid: int) -> int:
        if side == KAGE:
            if not self.options["challenge_abilities"]:
                return 0
            cards = self.sides[KAGE].sline
            return sum(
                self.card(c).ongoing["amount"]  # type: ignore[index]
                for c in cards
                if (self.card(c).ongoing or {}).get("modifier") == stat
            )
        total = 0
        for p, c in enumerate(self.sides[side].slots):
            if c is None:
                continue
            ong = self.card(c).ongoing
            if (
                ong
                and ong.get("modifier") == stat
                and (ong["scope"] == "sonae" or SLOT_LINE[p] == lid)
            ):
                total += ong["amount"]
        return total

    def battle_power(self) -> tuple[int, int]:
        """(attack, defence) of the battle under way."""
        b = self.battle
        assert b is not None
        att, dfn = b["att"], b["dfn"]
        a_cells, d_cells = self.sides[att].cells, self.sides[dfn].cells
        attack = sum(attack_of(a_cells[i] or "") for i in self.line_cells(att, b["aline"])
                     if a_cells[i] is not None)  # fmt: skip
        defence = sum(defence_of(d_cells[i] or "") for i in self.line_cells(dfn, b["dline"])
                      if d_cells[i] is not None)  # fmt: skip
        attack += len(b["ante"][str(att)]) + b["bonus"] + self._modifier(att, "attack", b["aline"])
        defence += len(b["ante"][str(dfn)]) + self._modifier(dfn, "defence", b["dline"])
        return attack, defence

    def _t_resolve(self, task: dict[str, Any]) -> None:
        b = self.battle
        assert b is not None
        attack, defence = self.battle_power()
        att, dfn = b["att"], b["dfn"]
        # the attacker wins ties
        winner, loser = (att, dfn) if attack >= defence else (dfn, att)
        margin = abs(attack - defence)
        b.update(winner=winner, loser=loser, margin=margin, attack=attack, defence=defence)
        self._emit("battle_result", f"Attack {attack}, defence {defence}: {self._name(winner)} wins "
                   f"by {margin}.", attack=attack, defence=defence, winner=winner,
                   loser=loser, margin=margin)  # fmt: skip
        lose_line = b["dline"] if loser == dfn else b["aline"]
        cells = [
            i for i in self.line_cells(loser, lose_line) if self.sides[loser].cells[i] is not None
        ]
        self.tasks.append({"t": "battle_end"})
        if not cells:
            self._emit("casualty", f"{self._name(loser)}'s line is empty: no casualty.")
            return
        # beaten by 0 or 1: the loser chooses; by 2 or more: the winner chooses
        chooser = loser if margin <= 1 else winner
        self._ask(chooser, "casualty", f"choose a casualty in {self._name(loser)}'s losing line",
                  self._cell_opts(chooser, loser, cells, "casualty"), side=loser)  # fmt: skip

    def _on_casualty(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        side = prompt["side"]
        s = self.sides[side]
        st = s.cells[arg]
        assert st is not None
        where = self.cell_name(side, arg)
        if side == KAGE:
            s.cells.pop(arg)
            s.discard.extend(types_of(st))
            self._emit("casualty", f"The Kagemusha loses {describe_stack(st)} ({where}), "
                       "discarded for good.", side=side, cell=where)  # fmt: skip
        else:
            # the casualty goes face down to the bottom: known to whoever knew its types
            mask = EVERYONE if is_up(st) else s.known[arg] | seat_bit(side)
            s.cells[arg] = None
            s.known[arg] = 0
            s.bottom("kumi", list(types_of(st)), mask)
            self._emit("casualty", f"{self._name(side)} loses {describe_stack(st, is_up(st))} "
                       f"({where}) to the bottom of the Kumi deck.", side=side, cell=where)  # fmt: skip
        for c in self._ongoing_cards(side, "casualty"):
            self._trigger(side, c)

    def _ongoing_cards(self, side: int, trigger: str) -> list[tuple[int, int | None]]:
        if side == KAGE:
            if not self.options["challenge_abilities"]:
                return []
            pairs: list[tuple[int, int | None]] = [(c, None) for c in self.sides[KAGE].sline]
        else:
            pairs = [
                (c, SLOT_LINE[p]) for p, c in enumerate(self.sides[side].slots) if c is not None
            ]
        return [pc for pc in pairs if (self.card(pc[0]).ongoing or {}).get("trigger") == trigger]

    def _trigger(self, side: int, pc: tuple[int, int | None]) -> None:
        card = self.card(pc[0])
        assert card.ongoing is not None
        self._emit("trigger", f"{card.name}'s ongoing effect ({self._name(side)}).", card=card.id)
        self._push(*[{"t": "op", "spec": dict(spec), "actor": side, "line": pc[1]}
                     for spec in card.ongoing["effect"]])  # fmt: skip

    def _t_battle_end(self, task: dict[str, Any]) -> None:
        b = self.battle
        assert b is not None
        for key, cards in b["ante"].items():
            seat = int(key)
            if cards:
                self.sides[seat].bottom("kumi", list(cards), seat_bit(seat))
                self._emit("ante_back", f"{self._name(seat)}'s {len(cards)} ante card(s) go to the "
                           "bottom of the Kumi deck.")  # fmt: skip
        winner = b["winner"]
        self.battle = None
        for pc in self._ongoing_cards(winner, "battle_won"):
            self._trigger(winner, pc)

    def _train_targets(self, seat: int, line: int | None) -> list[tuple[int, list[int]]]:
        s = self.sides[seat]
        skip = set(LINES[line]) if line is not None else set()
        out = []
        for i, st in enumerate(s.cells):
            if st is None or not is_up(st) or rank(st) >= 3 or i in skip:
                continue
            hands = [h for h, t in enumerate(s.hand) if t not in st]
            if hands:
                out.append((i, hands))
        return out

    def _op_train(self, task: dict[str, Any], spec: dict[str, Any]) -> None:
        actor = task["actor"]
        if actor == KAGE:
            return
        line = task["line"] if spec["where"] == "other" else None
        if not self._may_train(actor, line):
            self._op_skip(actor, "no face-up Kumi can be trained")
            return
        # Whether a Kumi in hand can train depends on the hand's types, which are secret:
        # the question is asked whenever training looks possible to the others, and you
        # may decline (also the only answer when no Kumi in hand fits).
        opts = [
            (K_OWN, i, f"train {CELLS[i]}", CELLS[i]) for i, _ in self._train_targets(actor, line)
        ]
        opts.append((K_DONE, 0, "no training", "none"))
        self._ask(actor, "train", "train a face-up Kumi (not in the played line from an action), "
                  "or decline", opts, line=line)  # fmt: skip

    def _may_train(self, seat: int, line: int | None) -> bool:
        """Training looks possible to the other players: a Kumi in hand and a face-up Kumi
        below Rank 3 (outside ``line``)."""
        s = self.sides[seat]
        skip = set(LINES[line]) if line is not None else set()
        return bool(s.hand) and any(
            st is not None and is_up(st) and rank(st) < 3 and i not in skip
            for i, st in enumerate(s.cells)
        )

    def _on_train(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        if kind == K_DONE:
            self._emit("no_effect", f"{self._name(seat)} does not train.")
            return
        st = self.sides[seat].cells[arg] or ""
        hand = self.sides[seat].hand
        opts = [
            (K_HAND, h, f"with h{h + 1}", f"h{h + 1}") for h, t in enumerate(hand) if t not in st
        ]
        self._ask(seat, "train_with", "add a Kumi of a different type from hand on top", opts,
                  cell=arg)  # fmt: skip

    def _on_train_with(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        s = self.sides[seat]
        t = s.hand.pop(arg)
        idx = prompt["cell"]
        st = s.cells[idx] or ""
        s.cells[idx] = st[:-1] + t + st[-1]
        s.known[idx] = EVERYONE
        self._emit("train", f"{self._name(seat)} trains {CELLS[idx]} with {KUMI_NAMES[t]}: now "
                   f"{describe_stack(s.cells[idx] or '')} (rank {rank(s.cells[idx] or '')}).",
                   seat=seat, cell=CELLS[idx], stack=s.cells[idx])  # fmt: skip

    def _op_rearrange(self, task: dict[str, Any], spec: dict[str, Any]) -> None:
        actor = task["actor"]
        if actor == KAGE:
            return
        if spec["where"] == "line" and task["line"] is not None:
            self._ask_perm(actor, task["line"])
            return
        opts = [(K_LINE, lid, f"rearrange {LINE_NAMES[lid]}", LINE_NAMES[lid]) for lid in range(6)]
        self._ask(actor, "rearrange", "Gyorin: choose one line of your Sonae to rearrange", opts)

    def _on_rearrange(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        self._ask_perm(prompt["seat"], arg)

    def _ask_perm(self, seat: int, lid: int) -> None:
        cells = self.sides[seat].cells
        line = LINES[lid]
        seen: set[tuple[Any, ...]] = set()
        opts = []
        for k, perm in enumerate(PERMS):
            result = tuple(cells[line[p]] for p in perm)
            if result in seen:
                continue
            seen.add(result)
            order = "".join(CELLS[line[p]] for p in perm)
            opts.append((K_PERM, k, f"order {order}", order))
        self._ask(seat, "perm", f"rearrange {LINE_NAMES[lid]}: the new order, by the old spaces",
                  opts, line=lid)  # fmt: skip

    def _on_perm(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        cells = self.sides[seat].cells
        line = LINES[prompt["line"]]
        known = self.sides[seat].known
        old = [cells[i] for i in line]
        old_known = [known[i] for i in line]
        for j, p in enumerate(PERMS[arg]):
            cells[line[j]] = old[p]
            known[line[j]] = old_known[p]
        # the cards move on the table in front of everyone: the new order is public
        order = "".join(CELLS[line[p]] for p in PERMS[arg])
        self._emit("rearrange", f"{self._name(seat)} rearranges {LINE_NAMES[prompt['line']]} "
                   f"(new order, by the old spaces: {order}).", seat=seat,
                   line=LINE_NAMES[prompt["line"]], order=order)  # fmt: skip

    def _op_swap(self, task: dict[str, Any], spec: dict[str, Any]) -> None:
        actor = task["actor"]
        if actor == KAGE:
            return
        firsts = [i for i in range(9) if self._swap_partners(actor, i, spec["adjacent"])]
        if not firsts:
            self._op_skip(actor, "no two Kumi to swap")
            return
        opts = [(K_OWN, i, f"swap {CELLS[i]}", CELLS[i]) for i in firsts]
        self._ask(actor, "swap", "swap: choose the first Kumi", opts, adjacent=spec["adjacent"])

    def _swap_partners(self, seat: int, i: int, adjacent: bool) -> list[int]:
        cells = self.sides[seat].cells
        if cells[i] is None:
            return []
        out = []
        for j in range(9):
            if j == i or cells[j] is None:
                continue
            if adjacent and abs(i // 3 - j // 3) + abs(i % 3 - j % 3) != 1:
                continue
            out.append(j)
        return out

    def _on_swap(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        opts = [(K_OWN, j, f"with {CELLS[j]}", CELLS[j])
                for j in self._swap_partners(seat, arg, prompt["adjacent"])]  # fmt: skip
        self._ask(seat, "swap_with", "swap: choose the second Kumi", opts, first=arg)

    def _on_swap_with(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        cells = self.sides[seat].cells
        i = prompt["first"]
        cells[i], cells[arg] = cells[arg], cells[i]
        known = self.sides[seat].known
        known[i], known[arg] = known[arg], known[i]
        self._emit("swap", f"{self._name(seat)} swaps {CELLS[i]} and {CELLS[arg]}.", seat=seat,
                   cells=[CELLS[i], CELLS[arg]])  # fmt: skip

    def _op_return(self, task: dict[str, Any], spec: dict[str, Any]) -> None:
        actor = task["actor"]
        side, cells = self._flip_targets(actor, spec, task["line"])
        if side == KAGE:
            self._op_skip(actor, "the Kagemusha's hand is its Kumi line")
            return
        if not cells:
            self._op_skip(actor, "no Kumi to return")
            return
        self._ask(actor, "return_kumi", "return a Kumi (the whole stack) to its owner's hand",
                  self._cell_opts(actor, side, cells, "return"), side=side)  # fmt: skip

    def _on_return_kumi(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        side = prompt["side"]
        s = self.sides[side]
        st = s.cells[arg] or ""
        s.cells[arg] = None
        s.known[arg] = 0
        s.hand.extend(types_of(st))
        self._emit("return", f"{self._name(side)}'s {describe_stack(st, is_up(st))} at {CELLS[arg]} "
                   "returns to hand.", side=side, cell=CELLS[arg])  # fmt: skip

    def _op_discard(self, task: dict[str, Any], spec: dict[str, Any]) -> None:
        actor = task["actor"]
        side = actor if spec["side"] == "own" else self.enemy(actor)
        s = self.sides[side]
        if side == KAGE:
            if s.cells:
                st = s.cells.pop(0)  # the Kagemusha gives up its leftmost Kumi, for good
                s.discard.extend(types_of(st or ""))
                self._emit("discard", f"The Kagemusha discards {describe_stack(st or '')}.")
            self._again(task)
            return
        if not s.hand:
            self._op_skip(side, "no Kumi in hand to discard")
            return
        opts = [(K_HAND, i, f"discard h{i + 1}", f"h{i + 1}") for i in range(len(s.hand))]
        self._ask(side, "discard", "discard a Kumi from your hand (to the bottom of your deck)",
                  opts, task=task)  # fmt: skip

    def _on_discard(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        s = self.sides[seat]
        s.bottom("kumi", [s.hand.pop(arg)], seat_bit(seat))
        self._emit("discard", f"{self._name(seat)} discards a Kumi to the bottom of the deck.")
        self._again(prompt["task"])

    def _op_play_kumi(self, task: dict[str, Any], spec: dict[str, Any]) -> None:
        actor = task["actor"]
        if actor == KAGE:
            return
        self.tasks.append({"t": "place", "seat": actor, "n": spec["count"]})

    def _op_bury(self, task: dict[str, Any], spec: dict[str, Any]) -> None:
        actor = task["actor"]
        if actor == KAGE:
            return
        s = self.sides[actor]
        if spec.get("draw"):
            self._draw_sashimono(actor, 1)
        opts: list[tuple[int, int, str, str]] = []
        if spec["from"] in ("hand", "any"):
            opts += [(K_SHAND, i, f"bury h{i + 1}", f"h{i + 1}") for i in range(len(s.shand))]
        if spec["from"] in ("play", "any"):
            opts += [(K_PSLOT, p, f"bury {SLOTS[p]}", SLOT_SHORT[p])
                     for p in range(12) if s.slots[p] is not None]  # fmt: skip
        if not opts:
            self._op_skip(actor, "no Sashimono to put at the bottom")
            return
        self._ask(actor, "bury", "put one of your Sashimono (hand or play) at the bottom of your "
                  "Sashimono deck", opts)  # fmt: skip

    def _on_bury(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat = prompt["seat"]
        s = self.sides[seat]
        if kind == K_SHAND:
            c = s.shand.pop(arg)
            mask = seat_bit(seat)
            self._emit("bury", f"{self._name(seat)} puts a Sashimono from hand at the bottom.")
        else:
            mask = EVERYONE
            c = s.slots[arg]  # type: ignore[assignment]
            s.slots[arg] = None
            s.bowed[arg] = False
            self._emit("bury", f"{self._name(seat)} puts {self.card(c).name} from play at the "
                       "bottom.")  # fmt: skip
        s.bottom("sas", [c], mask)

    def _op_peek(self, task: dict[str, Any], spec: dict[str, Any]) -> None:
        actor = task["actor"]
        foe = self.enemy(actor)
        cells = [
            i for i, st in enumerate(self.sides[foe].cells) if st is not None and not is_up(st)
        ]
        if not cells or actor == KAGE:
            self._op_skip(actor, "no Hidden enemy Kumi to peek at")
            return
        self._ask(actor, "peek", "peek at an enemy Hidden Kumi",
                  self._cell_opts(actor, foe, cells, "peek"), task=task, side=foe)  # fmt: skip

    def _on_peek(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        seat, side = prompt["seat"], prompt["side"]
        st = self.sides[side].cells[arg] or ""
        if side != KAGE:
            self.sides[side].known[arg] |= seat_bit(seat)
        where = self.cell_name(side, arg)
        self._emit("peek", f"{self._name(seat)} peeks at {self._name(side)}'s {where}.")
        self._emit("peek", f"It is {describe_stack(flipped(st))}.", [seat], cell=where,
                   types=types_of(st))  # fmt: skip
        self._again(prompt["task"])

    def _op_choose(self, task: dict[str, Any], spec: dict[str, Any]) -> None:
        actor = task["actor"]
        opts = [(K_OPTION, i, f"choose {o['label']}", o["label"])
                for i, o in enumerate(spec["options"])]  # fmt: skip
        self._ask(actor, "choose", "choose one of the effects", opts, task=task)

    def _on_choose(self, prompt: dict[str, Any], kind: int, arg: int) -> None:
        task = prompt["task"]
        option = task["spec"]["options"][arg]
        self._emit("choose", f"{self._name(prompt['seat'])} chooses {option['label']}.")
        self._push(*[{"t": "op", "spec": dict(spec), "actor": task["actor"], "line": task["line"]}
                     for spec in option["effect"]])  # fmt: skip

    # ------------------------------------------------------------------ the Kagemusha

    def _kage_turn(self) -> None:
        k = self.sides[KAGE]
        self._emit("turn", "The Kagemusha's turn.", seat=KAGE)
        keep, keep_b = [], []
        for c, bowed in zip(k.sline, k.sbowed, strict=True):
            if bowed:
                k.scored.append(c)
                k.vp += 1
                self._emit("score", f"The Kagemusha scores {self.card(c).name} (VP {k.vp}).",
                           seat=KAGE, card=self.card(c).id)  # fmt: skip
            else:
                keep.append(c)
                keep_b.append(False)
        k.sline, k.sbowed = keep, keep_b
        if k.vp >= self.target:
            self._win(KAGE, "kagemusha_vp")
            return
        self._push({"t": "kage_block", "type": "T"}, {"t": "kage_block", "type": "K"},
                   {"t": "kage_block", "type": "N"}, {"t": "kage_draw"}, {"t": "kage_move"},
                   {"t": "end_turn", "seat": KAGE})  # fmt: skip

    def _kage_count(self, t: str) -> int:
        return sum(1 for st in self.sides[KAGE].cells if st is not None and is_up(st) and t in st)

    def _t_kage_block(self, task: dict[str, Any]) -> None:
        t = task["type"]
        n = self._kage_count(t)
        if not n:
            return
        step = "kage_place" if t == "K" else "kage_battle"
        self._push(*[{"t": step, "axis": "column" if t == "T" else "row"} for _ in range(n)])

    def nearest_line(self, axis: str) -> int:
        p = self.sides[KAGE].army_pos
        if axis == "column":
            if p <= 2:
                return 3 + p
            if p <= 5:
                return 5
            if p <= 8:
                return 3 + (8 - p)
            return 3
        if p <= 2:
            return 0
        if p <= 5:
            return p - 3
        if p <= 8:
            return 2
        return 11 - p

    def _t_kage_battle(self, task: dict[str, Any]) -> None:
        dline = self.nearest_line(task["axis"])
        self._start_battle(KAGE, 6, dline, 0, True)

    def _t_kage_place(self, task: dict[str, Any]) -> None:
        self._kage_draw_kumi()

    def _kage_draw_kumi(self) -> bool:
        k = self.sides[KAGE]
        if not k.deck:
            self._win(KAGE, "kagemusha_deck")
            return False
        t = k.deck.pop(0)
        k.cells.append(t + "^")
        self._emit("kage_draw", f"The Kagemusha places {KUMI_NAMES[t]} in its Kumi line.", kumi=t)
        return True

    def _kage_draw_sashimono(self) -> bool:
        k = self.sides[KAGE]
        if not k.sdeck:
            self._win(KAGE, "kagemusha_deck")
            return False
        c = k.sdeck.pop(0)
        self._kage_add_sashimono(c)
        return True

    def _kage_add_sashimono(self, c: int) -> None:
        k = self.sides[KAGE]
        if self.options["challenge_six_sashimono"] and len(k.sline) >= 6:
            first = k.sline.pop(0)
            k.sbowed.pop(0)
            k.scored.append(first)
            k.vp += 1
            self._emit("score", f"The Kagemusha's line is full: it scores {self.card(first).name} "
                       f"(VP {k.vp}).", seat=KAGE, card=self.card(first).id)  # fmt: skip
            if k.vp >= self.target:
                self._win(KAGE, "kagemusha_vp")
        k.sline.append(c)
        k.sbowed.append(False)
        self._emit("kage_sashimono", f"The Kagemusha adds {self.card(c).name} to its Sashimono line.",
                   card=self.card(c).id)  # fmt: skip

    def _t_kage_draw(self, task: dict[str, Any]) -> None:
        k = self.sides[KAGE]
        if not self._kage_draw_kumi():
            return
        while len(k.cells) < 3:
            if not self._kage_draw_kumi():
                return
        train = self.options["challenge_train"]
        for t in KUMI_TYPES:
            while True:
                # Matching Kumi: face-up single cards of one type. (With the training challenge
                # a trained stack is one new unit and no longer counts as a match.)
                matches = [
                    i
                    for i, st in enumerate(k.cells)
                    if st and is_up(st) and (st == t + "^" or (not train and t in st))
                ]
                if len(matches) < 3:
                    break
                first = matches[0]
                st = k.cells[first] or ""
                host = -1
                if train:
                    for j in range(len(k.cells) - 1, -1, -1):
                        other = k.cells[j] or ""
                        if j != first and is_up(other) and t not in other and rank(other) < 3:
                            host = j
                            break
                k.cells.pop(first)
                if host >= 0:
                    host -= 1 if host > first else 0
                    other = k.cells[host] or ""
                    k.cells[host] = other[:-1] + t + "^"
                    self._emit("kage_train", f"The Kagemusha trains its k{host + 1} with "
                               f"{KUMI_NAMES[t]}.")  # fmt: skip
                else:
                    k.discard.extend(types_of(st))
                    self._emit("kage_discard", f"The Kagemusha discards {describe_stack(st)}: too "
                               "many matching Kumi.")  # fmt: skip
                if not self._kage_draw_sashimono() or self.result is not None:
                    return

    def _t_kage_move(self, task: dict[str, Any]) -> None:
        k = self.sides[KAGE]
        mine = self.sides[0].slots
        p = k.army_pos
        corner = False
        for _ in range(12):
            nxt = (p + 1) % 12
            if p in (5, 11):
                corner = True
            p = nxt
            if mine[p] is None:
                break
        else:
            p = k.army_pos
        k.army_pos = p
        self._emit("kage_move", f"The Kagemusha's Army moves to position {p + 1} ({SLOTS[p]}).",
                   position=p + 1)  # fmt: skip
        if corner and self.options["challenge_corners"]:
            self._emit("kage_corner", "The Army rounds a corner: the Kagemusha draws a Sashimono.")
            if not self._kage_draw_sashimono() or self.result is not None:
                return
        limit = 6 if self.options["challenge_six_sashimono"] else 3
        extra = 0
        while len(k.sline) > limit:
            c = k.sline.pop(0)
            k.sbowed.pop(0)
            k.bottom("sas", [c], EVERYONE)  # a discarded Sashimono: to the bottom, in public
            self._emit("kage_discard", f"The Kagemusha discards {self.card(c).name}: too many "
                       "Sashimono.")  # fmt: skip
            extra += 1
        for _ in range(extra):
            if not self._kage_draw_kumi():
                return

    def _kage_answer(self) -> None:
        """The Kagemusha's prescribed choice for a question asked of it."""
        prompt = self.prompt
        assert prompt is not None
        opts = prompt["opts"]
        choice = None
        for o in opts:
            if o[0] == K_DONE:
                choice = o  # it always declines an option
                break
        if choice is None:
            enemy_cells = [o for o in opts if o[0] == K_ENEMY]
            if enemy_cells:
                choice = min(enemy_cells, key=lambda o: self._army_distance(o[1]))
            else:
                choice = opts[0]  # leftmost / first
        self.prompt = None
        self._legal = None
        getattr(self, "_on_" + prompt["op"])(prompt, choice[0], choice[1])

    def _army_distance(self, cell: int) -> tuple[int, int, int]:
        """Closest to the Army; ties: nearest to where it moves next; then the first cell."""
        k = self.sides[KAGE]
        r, c = divmod(cell, 3)
        ar, ac = SLOT_POS[k.army_pos]
        nxt = k.army_pos
        mine = self.sides[0].slots
        for _ in range(12):
            nxt = (nxt + 1) % 12
            if mine[nxt] is None:
                break
        nr, nc = SLOT_POS[nxt]
        return ((r - ar) ** 2 + (c - ac) ** 2, (r - nr) ** 2 + (c - nc) ** 2, cell)

    # ------------------------------------------------------------------ view

    @staticmethod
    def _stack_entry(st: str, show: bool) -> dict[str, Any]:
        """The shared, cached view entry of a stack: copy it before handing it out."""
        key = (st, show)
        cached = _STACK_VIEWS.get(key)
        if cached is None:
            if is_up(st) or show:
                cached = {"types": types_of(st), "face": "up" if is_up(st) else "hidden",
                          "rank": rank(st), "attack": attack_of(st), "defence": defence_of(st)}  # fmt: skip
            else:
                cached = {"types": None, "face": "hidden", "rank": rank(st), "attack": rank(st),
                          "defence": rank(st)}  # fmt: skip
            _STACK_VIEWS[key] = cached
        return cached

    @classmethod
    def _stack_view(cls, st: str | None, show: bool) -> dict[str, Any] | None:
        if st is None:
            return None
        return dict(cls._stack_entry(st, show))

    def view(self, seat: int | None) -> dict[str, Any]:
        cards = self.cs.cards
        cached = _STACK_VIEWS.get
        entry = self._stack_entry
        sides = []
        bit = seat_bit(seat)
        for i in range(2):
            if self.solo and i == 1:
                continue
            s = self.sides[i]
            own = seat == i
            bowed = s.bowed
            # a Hidden Kumi shows its types to its owner and to whoever knows them
            shows = [own or bool(k & bit) for k in s.known]
            sides.append({
                "seat": i,
                "army": s.army,
                "sonae": [None if st is None else dict(cached((st, show)) or entry(st, show))
                          for st, show in zip(s.cells, shows, strict=True)],
                "hand": list(s.hand) if own else None,
                "hand_count": len(s.hand),
                "deck_count": len(s.deck),
                "sashimono_hand": [cards[c].id for c in s.shand] if own else None,
                "sashimono_hand_count": len(s.shand),
                "sashimono_deck_count": len(s.sdeck),
                "slots": {SLOTS[p]: {"card": cards[c].id, "bowed": bowed[p]}
                          for p, c in enumerate(s.slots) if c is not None},
                "vp": s.vp,
                "scored": [cards[c].id for c in s.scored],
            })  # fmt: skip
        out: dict[str, Any] = {
            "game": "sashimono",
            "mode": self.options["mode"],
            "vp_target": self.target,
            "cards": self.options["cards"] or "sengoku",
            "viewer": seat,
            "turn_seat": self.turn_seat,
            "turn": self.turns,
            "current_player": self.current_player,
            "sides": sides,
            "result": self.result.to_json() if self.result else None,
        }
        if self.solo:
            k = self.sides[KAGE]
            out["kagemusha"] = {
                "army": k.army,
                "kumi_line": [self._stack_view(st, True) for st in k.cells],
                "kumi_deck_count": len(k.deck),
                "sashimono_line": [{"card": self.card(c).id, "bowed": b}
                                   for c, b in zip(k.sline, k.sbowed, strict=True)],
                "sashimono_deck_count": len(k.sdeck),
                "army_position": k.army_pos + 1,
                "vp": k.vp,
                "scored": [self.card(c).id for c in k.scored],
                "discarded_kumi": list(k.discard),
            }  # fmt: skip
        if self.battle is not None:
            b = self.battle
            out["battle"] = {
                "attacker": b["att"], "defender": b["dfn"],
                "attack_line": LINE_NAMES[b["aline"]], "defence_line": LINE_NAMES[b["dline"]],
                "ante_counts": {k2: len(v) for k2, v in b["ante"].items()},
                "bonus": b["bonus"],
            }  # fmt: skip
        if self.ctx.get("card") is not None and self.ctx.get("slot") is not None:
            out["played"] = {
                "card": self.card(self.ctx["card"]).id,
                "slot": SLOTS[self.ctx["slot"]],
                "line": LINE_NAMES[self.ctx["line"]],
                "used": list(self.ctx["used"]),
            }
        if self.prompt is not None and self.result is None:
            p = self.prompt
            mine = seat == p["seat"]
            out["prompt"] = {"seat": p["seat"], "question": p["op"], "rule": p["rule"],
                             "options": [o[2] for o in p["opts"]] if mine else None}  # fmt: skip
        if self.looking:
            mine = seat == self.looking_owner
            kind = "kumi" if isinstance(self.looking[0], str) else "sashimono"
            out["looking"] = {
                "owner": self.looking_owner, "kind": kind, "count": len(self.looking),
                "cards": ([c if kind == "kumi" else self.card(c).id for c in self.looking]
                          if mine else None),
            }  # fmt: skip
        return out

    # ------------------------------------------------------------------ determinize

    def determinize(self, seat: int, rng: random.Random) -> SashimonoState:
        """A full position the seat cannot tell from this one, hidden parts resampled.

        Kept: everything in ``view(seat)``, the seat's own cards and what it is looking at,
        every Hidden Kumi whose types it knows (the printed starting Sonae, a Kumi turned face
        down in public, one it peeked at) and a Sashimono another seat has chosen to play but
        not yet placed. Resampled from the multisets the seat knows are unseen: deck orders
        (its own too), the other seat's hands, ante cards, looked-at cards and unknown Hidden
        Kumi; the Kagemusha's decks and Army card. The other seat's pending question is
        rebuilt from the new deal (its options may depend on that seat's cards); a deal
        under which that question would have no answer is inconsistent with the view and is
        dealt again. The position holds no seed: no later draw depends on one.
        """
        for _ in range(100):
            st = self._deal(seat, rng, keep_hidden=False)
            if st._refresh_prompt(seat):
                return st
        # Practically unreachable: fall back to keeping the other seat's Kumi hand and Hidden
        # Kumi (decks and Sashimono are still dealt again), which is always consistent.
        st = self._deal(seat, rng, keep_hidden=True)
        st._refresh_prompt(seat)
        return st

    def _deal(self, seat: int, rng: random.Random, keep_hidden: bool) -> SashimonoState:
        st = self.clone()
        st._legal = None
        bit = seat_bit(seat)
        looking_kumi = bool(st.looking) and isinstance(st.looking[0], str)
        looking_sas = bool(st.looking) and not looking_kumi
        seats = [0] if self.solo else [0, 1]
        for o in seats:
            s = st.sides[o]
            other = o != seat and not keep_hidden
            # Kumi: the cards of this owner the seat cannot see, as a sorted multiset, dealt
            # again into the same places; deck cards the seat saw go to the bottom stay.
            dmarks = s.marks("kumi")
            kept = [bool(m & bit) for m in dmarks]
            pool = [t for t, k in zip(s.deck, kept, strict=True) if not k]
            hidden_cells = []
            ante = st.battle["ante"][str(o)] if st.battle is not None else []
            if other:
                pool += s.hand + ante
                for i, cell in enumerate(s.cells):
                    if cell is not None and not is_up(cell) and not s.known[i] & bit:
                        hidden_cells.append(i)
                        pool += list(types_of(cell))
                if looking_kumi and st.looking_owner == o:
                    pool += st.looking
            pool.sort()
            rng.shuffle(pool)
            pool = self._deal_hidden(s, hidden_cells, pool, rng)
            if other:
                n = len(s.hand)
                s.hand, pool = pool[:n], pool[n:]
                if ante:
                    na = len(ante)
                    st.battle["ante"][str(o)], pool = pool[:na], pool[na:]  # type: ignore[index]
                if looking_kumi and st.looking_owner == o:
                    nl = len(st.looking)
                    st.looking, pool = pool[:nl], pool[nl:]
            s.deck = [t if k else pool.pop() for t, k in zip(s.deck, kept, strict=True)]
            s.dknown = dmarks
            # Sashimono: deck orders, and the other seat's hand and looked-at cards. A card
            # it has chosen to play (named in the public question "place X") stays in hand.
            pinned = None
            if (
                o != seat
                and st.ctx.get("seat") == o
                and st.ctx.get("slot") is None
                and st.ctx.get("card") in s.shand
            ):
                pinned = st.ctx["card"]
            smarks = s.marks("sas")
            skept = [bool(m & bit) for m in smarks]
            spool = [c for c, k in zip(s.sdeck, skept, strict=True) if not k]
            if o != seat:
                spool += [c for c in s.shand if c != pinned]
                if looking_sas and st.looking_owner == o:
                    spool += st.looking
            spool.sort()
            rng.shuffle(spool)
            if o != seat:
                hand = list(s.shand)
                for h, c in enumerate(hand):
                    if c != pinned:
                        hand[h] = spool.pop()
                s.shand = hand
                if looking_sas and st.looking_owner == o:
                    nl = len(st.looking)
                    st.looking, spool = spool[:nl], spool[nl:]
            s.sdeck = [c if k else spool.pop() for c, k in zip(s.sdeck, skept, strict=True)]
            s.sknown = smarks
        if self.solo:
            k = st.sides[KAGE]
            kpool = sorted(k.deck)
            rng.shuffle(kpool)
            k.deck = kpool
            # its Army card and deck order are unknown; Sashimono it discarded to the bottom
            # of its deck in public stay there
            smarks = k.marks("sas")
            skept = [bool(m & bit) for m in smarks]
            spool = [c for c, kp in zip(k.sdeck, skept, strict=True) if not kp]
            spool = sorted(spool + ([k.marker] if k.marker is not None else []))
            rng.shuffle(spool)
            k.marker = spool.pop() if k.marker is not None else None
            k.sdeck = [c if kp else spool.pop() for c, kp in zip(k.sdeck, skept, strict=True)]
            k.sknown = smarks
        return st

    def _refresh_prompt(self, seat: int) -> bool:
        """Rebuild another seat's pending question from the new deal, where its options
        depend on that seat's hidden cards; False if it would have no answer."""
        p = self.prompt
        if p is None or p["seat"] in (seat, KAGE):
            return True
        s, op = p["seat"], p["op"]
        opts: list[list[Any]] | None = None
        if op == "play":
            opts = [[K_PLAY, c, f"play {self.card(c).id}", self.card(c).id]
                    for c in self.sides[s].shand]  # fmt: skip
        elif op == "do":
            lid = self.ctx["line"]
            opts = [[K_DO, i, f"do {a.name}", a.name] for i, a in self._card_actions()
                    if i not in self.ctx["used"] and self.action_ready(s, lid, a.requires)]  # fmt: skip
            opts.append([K_DONE, 0, "done", "done"])
        elif op == "bonus":
            self.prompt = None
            self._t_bonus({"seat": s})
            self._events = []
            return True
        elif op == "perm":
            # identical stacks give one option: how many depends on the Hidden Kumi
            self.prompt = None
            self._ask_perm(s, p["line"])
            self._events = []
            return True
        elif op == "gunbai":
            act = dict(self._card_actions())[p["act"]]
            cells = self.action_ready(s, self.ctx["line"], act.requires)
            assert isinstance(cells, list)
            opts = [[K_OWN, i, f"gunbai {CELLS[i]}", CELLS[i]] for i in cells]
        elif op == "train":
            targets = self._train_targets(s, p["line"])
            opts = [[K_OWN, i, f"train {CELLS[i]}", CELLS[i]] for i, _ in targets]
            opts.append([K_DONE, 0, "no training", "none"])
        elif op == "train_with":
            st = self.sides[s].cells[p["cell"]] or ""
            opts = [[K_HAND, h, f"with h{h + 1}", f"h{h + 1}"]
                    for h, t in enumerate(self.sides[s].hand) if t not in st]  # fmt: skip
        if opts is None:
            return True
        if not opts:
            return False
        p["opts"] = sorted(opts, key=lambda o: KIND_OFFSET[o[0]] + o[1])
        self._legal = None
        return True

    @staticmethod
    def _deal_hidden(s: Side, cells: list[int], pool: list[str], rng: random.Random) -> list[str]:
        """Give each Hidden stack of ``cells`` its Rank in distinct types from ``pool``; the
        rest of the pool is returned. Random tries first; if they fail, the plentiful types
        go to the biggest stacks first, which always succeeds when any deal can."""
        ranks = {i: rank(s.cells[i] or "") for i in cells}
        for _ in range(20):
            left = list(pool)
            rng.shuffle(left)
            dealt: dict[int, str] = {}
            for i in cells:
                chosen = ""
                for t in list(left):
                    if t not in chosen:
                        chosen += t
                        left.remove(t)
                        if len(chosen) == ranks[i]:
                            break
                if len(chosen) < ranks[i]:
                    break
                dealt[i] = chosen
            else:
                for i, types in dealt.items():
                    s.cells[i] = types + "v"
                return left
        left = list(pool)
        for i in sorted(cells, key=lambda c: -ranks[c]):
            counts = {t: left.count(t) for t in KUMI_TYPES}
            chosen = "".join(sorted(KUMI_TYPES, key=lambda t: -counts[t])[: ranks[i]])
            for t in chosen:
                left.remove(t)
            s.cells[i] = chosen + "v"
        rng.shuffle(left)
        return left

    def __str__(self) -> str:
        return self.game.render_text(self, None)


# ----------------------------------------------------------------------------- card checks


def setup_bows(cs: CardSet) -> list[tuple[int, str]]:
    """Cards of ``cs`` whose scoring condition holds before any play has made it so.

    The probe is the setup position of the duel and of the solo game (either army) just
    after the first Sashimono is played: the printed Sonae, 3 Kumi in hand, 2 Sashimono left
    in hand and one in play, and in the solo game the Kagemusha's starting Kumi line (T, K,
    N face up; "enemy" in your conditions). A card bowed there as the card just played, or
    as one of the Kagemusha's traps, is bowed without any play: a free VP (for the Kagemusha,
    one you could not prevent). The card loader refuses such a card.
    Returns (card index, where it holds) pairs.
    """
    from typing import cast

    found: list[tuple[int, str]] = []
    base = {"vp": 3, "cards": "", "challenge_corners": False, "challenge_six_sashimono": False,
            "challenge_abilities": False, "challenge_discard_five": False,
            "challenge_fewer_kumi": False, "challenge_train": False}  # fmt: skip
    for mode, army in (("duel", "west"), ("solo", "west"), ("solo", "east")):
        st = SashimonoState(cast("Sashimono", None), {**base, "mode": mode, "army": army}, cs)
        st.setup(0)
        st.prompt, st.tasks, st.looking, st.looking_owner = None, [], [], -1
        where = "in the duel" if not st.solo else f"in the solo game as {army}"
        for seat in [0] if st.solo else [0, 1]:
            side = st.sides[seat]
            foe = st.enemy(seat)
            deck = cs.deck(side.army)
            for c in deck:
                side.shand = [d for d in deck if d != c][:2]
                side.slots = [c] + [None] * 11
                if cs.cards[c].score(st, seat, foe):
                    found.append((c, f"the moment it is played, in the setup position {where}"))
            side.shand, side.slots = deck[1:3], [deck[0]] + [None] * 11
        if st.solo:
            kage = st.sides[KAGE]
            for c in cs.deck(kage.army):
                kage.sline, kage.sbowed = [c], [False]
                if cs.cards[c].score(st, 0, KAGE):
                    found.append((c, f"as a Kagemusha trap, from the setup position {where}"))
    return found
