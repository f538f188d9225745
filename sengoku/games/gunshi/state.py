"""The Gunshi position and its rules: setup choices, formation, secret choices, battle.

Each rule lives in one method, named after the rulebook's words. The state advances in place;
every decision of a seat is one :class:`GunshiAction`. Hidden information (the Shogun, hands,
deck order, face-down Command Row cards, prepared Advanced cards) is kept here in full, and
``view`` shows a seat only what it may see.

Cards are ``(code, known, up)`` tuples: ``known`` means the opponent knows this card is here
(it was seen face up, resolved, scouted or is public by the variant); ``up`` means it lies face
up in the Command Row. A card the opponent does not know carries a fourth element, the id of
its bag in the opponent's exact knowledge (see ``sengoku.games.gunshi.knowledge``).
"""

from __future__ import annotations

import random
from typing import Any

from sengoku.core.game import TERMINAL, Event, IllegalAction, Outcome, State, event
from sengoku.games.gunshi import knowledge
from sengoku.games.gunshi.actions import A, GunshiAction, sorted_unique
from sengoku.games.gunshi.data import (
    BASIC_DECK,
    BLUE,
    CARDS,
    CELLS,
    COLOUR,
    DECKS,
    DIR_NAMES,
    EDGE_CELLS,
    EDGE_NAMES,
    EDGE_OF,
    EDGES,
    FENCE_COST,
    FENCES_PER_PLAYER,
    FORMATIONS,
    HAND_SIZE,
    HOME,
    INVADERS_TO_WIN,
    LETTERS,
    LIGHTNING_COST,
    NEIGHBOUR,
    NUM_TOKENS,
    RED,
    REVIEW_GAIN,
    ROW_LIMIT,
    SCOUT_COSTS,
    SIZE,
    STARTING_POINTS,
    TOKEN_TYPE,
    UNITS,
    advanced_codes,
    agreed_cards,
    cell_name,
)

Card = tuple[Any, ...]  # (code, known, up) or (code, known, up, bag id)
OFF = -1  # a unit in the Reserve
INVADED = 99  # a unit on an Invader Spot
SCOUTED = 2  # a card's "known" flag when only the opponent's Scout has seen it
TYPE_NAME = {"I": "Infantry", "A": "Archer", "C": "Cavalry"}
POS_NAMES = ("L", "1", "2", "3", "4")


_CELL_NAMES: tuple[str, ...] = tuple(cell_name(c) for c in range(CELLS))
_TOKENS = range(NUM_TOKENS)
# Each cell's (or facing's) action of a kind, built once: cheaper than A(kind, cn(cell)).
_AT = tuple(A("at", name) for name in _CELL_NAMES)
_UNIT = tuple(A("unit", name) for name in _CELL_NAMES)
_HIT = tuple(A("hit", name) for name in _CELL_NAMES)
_ASK = tuple(A("ask", name) for name in _CELL_NAMES)
_SWAP = tuple(A("swap", name) for name in _CELL_NAMES)
_CHAIN = tuple(A("chain", name) for name in _CELL_NAMES)
_TO = tuple(A("to", name) for name in _CELL_NAMES)
_DIR = tuple(A("dir", name) for name in DIR_NAMES)
_FACE = tuple(A("face", name) for name in DIR_NAMES)
assert set(TOKEN_TYPE) <= set("IAC"), "_units_of skips the type test for 'IAC'"


def cn(cell: int) -> str:
    # Precomputed names for the board's cells (by far the most frequent case).
    return _CELL_NAMES[cell] if 0 <= cell < CELLS else cell_name(cell)


class GunshiState(State):
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
        self.cmd: dict[str, Any] | None = None
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
            sel = o["custom_selection"]
            rule_1 = o["move_up_for_selection"]
            for p in (RED, BLUE):
                self.stock[p] = []
            if sel == "alternate":
                # Step 2: one Move each; step 3: three picks each, Red first.
                self.pre_taken = ["M"]
                self.pick_order = [RED, BLUE] * 3
            elif sel == "alternate_all":
                # Optional Rule 1: the Move is up for selection too and Blue starts.
                self.pick_order = [BLUE, RED] * 3 + [BLUE]
            else:
                # Optional Rule 3: each deck chosen in secret; the decks may differ. Without
                # Optional Rule 1 step 2 still gives each player a Move, and 6 are chosen.
                self.pre_taken = [] if rule_1 else ["M"]
                n = 7 - len(self.pre_taken)
                self.pick_order = [RED] * n + [BLUE] * n
                self.deck_public = False
            self.phase = "build"
            self.player = self.pick_order[0]
        if variant == "inspiration":
            adv = advanced_codes(o["sanryaku"])
            for p in (RED, BLUE):
                self.unused[p] = list(adv)
            if o["modification"] in (1, 2):
                # The opponent never sees which Advanced cards were prepared.
                for p in (RED, BLUE):
                    self.box_bag[p] = knowledge.new_bag(self, p, list(adv))
            if o["modification"] == 1:
                for p in (RED, BLUE):
                    chosen = rng.sample(adv, 3)
                    self.prepared[p] = chosen
                    self.unused[p] = [c for c in adv if c not in chosen]
            elif o["modification"] == 2 and self.phase == "formation":
                self.phase = "prepare"
                self.pick_order = [RED] * 3 + [BLUE] * 3
                self.player = RED
        if preset in FORMATIONS:
            self._apply_formation_preset(preset)
            return
        if self.phase != "build":
            for p in (RED, BLUE):
                self.reset_knowledge(p)
        if self.phase == "formation":
            self._formation_next(RED)

    def _apply_formation_preset(self, name: str) -> None:
        fp = FORMATIONS[name]
        for p in (RED, BLUE):
            side = fp.sides[p]
            for t, cell, face in side.units:
                u = self._free_token(t)
                self._put_unit(u, p, cell, face)
            for e in side.fences:
                self.fence[e] = p
                self.fences_left[p] -= 1
            self.points[p] = max(0, STARTING_POINTS - side.cost)
            self.candidates[p] = sorted(u for u in range(NUM_TOKENS) if self.uown[u] == p)
            known = fp.public_cards
            self.hand[p] = [(c, known, False) for c in side.hand]
            self.deck[p] = [(c, known, False) for c in side.deck]
            self.stock[p] = []
            self.reset_knowledge(p)
        self.cards_public = fp.public_cards
        self.clock_started = True
        self.phase = "secret"
        self.player = RED
        self.step = "shogun"

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
            seen = [c[0] for z in zones for c in z if c[1] or c[2]]
            if lt is not None and (lt[1] or lt[2]):
                seen.append(lt[0])
            lits = list(self.pre_taken)
            for code in seen:
                if code in lits:
                    lits.remove(code)
            bid = knowledge.new_bag(
                self, p, lits, free=len(unknown) - len(lits), pool=self._deck_pool(), used=seen
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
        """Whose tournament clock runs now (None: no clock, or none runs)."""
        if self.options["time_control"] != "tournament" or self.result is not None:
            return None
        if self.phase in ("build", "prepare", "mod3") or not self.clock_started:
            return None
        return self.player

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
        s.cmd = dict(self.cmd) if self.cmd is not None else None
        s._events = []
        # _legal_memo is shared: the copy's legal actions are the same, and the list is never
        # changed in place (legal_actions hands out copies, apply replaces it).
        return s

    # ------------------------------------------------------------------ apply
    def legal_actions(self) -> list[GunshiAction]:  # type: ignore[override]
        if self.result is not None:
            return []
        memo = self._legal_memo
        if memo is None:
            memo = self._legal_memo = sorted_unique(self._legal())
        return list(memo)  # a copy: callers may change theirs

    def apply(self, action: Any) -> list[Event]:
        if self.result is not None:
            raise IllegalAction("the game is over; no action can be played")
        if isinstance(action, str):
            action = self.game.parse_action(self, action)
        legal = self._legal_memo
        if legal is None:
            legal = self._legal()
        self._legal_memo = None
        # By identity first (the engine's actions are interned): a plain ``in`` calls the
        # dataclass __eq__ on every action before the match.
        if id(action) not in map(id, legal) and action not in legal:
            raise IllegalAction(self._why_illegal(action, legal))
        self._events = []
        self.ply += 1
        self._do(action)
        events, self._events = self._events, []
        return events + self._end_if_too_long(self.ply)

    def _end_game(self, result: Outcome) -> None:
        self.result = result
        self._legal_memo = None

    def _emit(self, audience: list[int] | None, type_: str, message: str, **details: Any) -> None:
        self._events.append(event(type_, audience, message=message, **details))

    def _why_illegal(self, action: Any, legal: list[GunshiAction]) -> str:
        what = self._decision_name()
        sample = ", ".join(str(a) for a in sorted(set(legal), key=GunshiAction.to_int)[:12])
        return f"{action!s} is not allowed now ({what}); legal here: {sample}"

    def _decision_name(self) -> str:
        if self.phase == "build":
            return "Custom Deck Construction: choose a card"
        if self.phase == "prepare":
            return "Gunshi's Inspiration: prepare an Advanced Command card"
        if self.phase == "mod3":
            return "Modification 3: choose an Advanced Command card"
        if self.phase == "formation":
            return "Phase 1, Creating Your Battle Formation: " + (
                "choose a piece" if not self.fpiece else "place the " + self.fpiece
            )
        if self.phase == "secret":
            return f"Phase 2, Choosing Your Shogun and Card Order: {self.step}"
        if self.cmd is not None:
            card = CARDS[self.cmd["card"]].name
            return f"Units Follow Orders, {card}: {self.cmd['step']}"
        if self.step in ("take", "remove"):
            return "The Gunshi's Inspiration: " + self.step
        return "Send New Commands (then Lightning Command)"

    # ------------------------------------------------------------------ dispatch
    def _legal(self) -> list[GunshiAction]:
        ph = self.phase
        if ph == "build":
            return self._legal_build()
        if ph == "prepare":
            return [A("pick", c) for c in self.unused[self.player]]
        if ph == "mod3":
            mine = self.m3[self.player]
            return [A("pick", c) for c in advanced_codes(self.options["sanryaku"]) if c not in mine]
        if ph == "formation":
            return self._legal_formation()
        if ph == "secret":
            return self._legal_secret()
        if self.cmd is not None:
            return self._cmd_legal()
        if self.step == "take":
            return self._legal_take()
        if self.step == "remove":
            return [A("remove", c[0]) for c in self.hand[self.player]]
        return self._legal_send()

    def _do(self, a: GunshiAction) -> None:
        ph = self.phase
        if ph == "build":
            self._do_build(a)
        elif ph == "prepare":
            self._do_prepare(a)
        elif ph == "mod3":
            self._do_mod3(a)
        elif ph == "formation":
            self._do_formation(a)
        elif ph == "secret":
            self._do_secret(a)
        elif self.cmd is not None:
            self._cmd_do(a)
            self._continue_turn()
        elif self.step in ("take", "remove"):
            self._do_swap(a)
        else:
            self._do_send(a)

    # ------------------------------------------------------------------ setup choices
    def _legal_build(self) -> list[GunshiAction]:
        p = self.player
        if self.options["custom_selection"] == "secret":
            mine = self.pre_taken + self.picks[p]
            return [A("pick", c) for c in self._deck_pool() if mine.count(c) < CARDS[c].copies]
        # Both decks hold the chosen cards: a card can be chosen while a colour still has one.
        chosen = self.pre_taken + self.picks[RED] + self.picks[BLUE]
        return [A("pick", c) for c in self._deck_pool() if chosen.count(c) < CARDS[c].copies]

    def _deck_pool(self) -> list[str]:
        sets = {"basic", "rikutoh"} | ({"sanryaku"} if self.options["sanryaku"] else set())
        return [c.code for c in CARDS.values() if c.set in sets]

    def _do_build(self, a: GunshiAction) -> None:
        p = self.player
        self.picks[p].append(a.arg)
        secret = self.options["custom_selection"] == "secret"
        if secret:
            self._emit([p], "pick", f"You choose {CARDS[a.arg].name} for your deck.", card=a.arg)
            self._emit(None, "pick_made", f"{COLOUR[p]} chooses a card in secret.", seat=p)
        else:
            self._emit(None, "pick", f"{COLOUR[p]} chooses {CARDS[a.arg].name}.", card=a.arg)
        self.pick_order.pop(0)
        if self.pick_order:
            self.player = self.pick_order[0]
            return
        if secret:
            decks = [self.pre_taken + self.picks[RED], self.pre_taken + self.picks[BLUE]]
        else:
            both = self.pre_taken + self.picks[RED] + self.picks[BLUE]
            decks = [list(both), list(both)]
        for q in (RED, BLUE):
            self.stock[q] = [(c, False, False) for c in sorted(decks[q], key=_card_order)]
            if secret:
                # The opponent knows only the step 2 Move and one colour's copy limits.
                bid = knowledge.new_bag(
                    self,
                    q,
                    list(self.pre_taken),
                    free=len(self.picks[q]),
                    pool=self._deck_pool(),
                )
                self.stock[q] = [(c[0], False, False, bid) for c in self.stock[q]]
            else:
                self.reset_knowledge(q)
        self._emit(None, "decks_built", "The decks are built.")
        self.phase = "formation"
        self._formation_next(RED)

    def _do_prepare(self, a: GunshiAction) -> None:
        p = self.player
        self.unused[p].remove(a.arg)
        self.prepared[p].append(a.arg)
        self._emit([p], "prepare", f"You prepare {CARDS[a.arg].name}.", card=a.arg)
        self._emit(None, "prepared", f"{COLOUR[p]} prepares an Advanced card face down.", seat=p)
        self.pick_order.pop(0)
        if self.pick_order:
            self.player = self.pick_order[0]
        else:
            self.phase = "formation"
            self._formation_next(RED)

    def _do_mod3(self, a: GunshiAction) -> None:
        p = self.player
        self.m3[p].append(a.arg)
        self._emit([p], "m3_choice", f"You choose {CARDS[a.arg].name}.", card=a.arg)
        self._emit(None, "m3_chosen", f"{COLOUR[p]} chooses an Advanced card in secret.", seat=p)
        if len(self.m3[p]) < 2:
            return
        if p == RED:
            self.player = BLUE
            return
        both = set(self.m3[RED]) & set(self.m3[BLUE])
        remaining = sorted(set(self.m3[RED] + self.m3[BLUE]) - both, key=_card_order)
        self.pool = [c for c in remaining for _ in range(2)]
        for q in (RED, BLUE):
            self.unused[q] = [c for c in self.unused[q] if c not in remaining]
        names = ", ".join(CARDS[c].name for c in remaining) or "none"
        self._emit(
            None,
            "m3_reveal",
            f"Revealed: Red {self.m3[RED]}, Blue {self.m3[BLUE]}; usable: {names}.",
            red=list(self.m3[RED]),
            blue=list(self.m3[BLUE]),
            pool=remaining,
        )
        self._start_secret()

    # ------------------------------------------------------------------ Phase 1
    def _free_token(self, t: str) -> int:
        for u in range(NUM_TOKENS):
            if TOKEN_TYPE[u] == t and self.uloc[u] == OFF:
                return u
        return -1

    def _put_unit(self, u: int, p: int, cell: int, face: int) -> None:
        self.uloc[u] = cell
        self.uown[u] = p
        self.uface[u] = face
        self.ushield[u] = UNITS[TOKEN_TYPE[u]].shield
        self.board[cell] = u

    def _formation_edges(self, p: int) -> list[int]:
        home = HOME[p]
        inside = self.options["formation_fences"] == "inside_home"
        out = []
        for e in range(EDGES):
            if self.fence[e] >= 0:
                continue
            a, b = EDGE_CELLS[e]
            if (a in home and b in home) if inside else (a in home or b in home):
                out.append(e)
        return out

    def _formation_pieces(self, p: int) -> list[str]:
        pts = self.points[p]
        free_home = any(self.board[c] < 0 for c in HOME[p])
        out = []
        for t in ("I", "A", "C"):
            if UNITS[t].cost <= pts and free_home and self._free_token(t) >= 0:
                out.append(t)
        if FENCE_COST <= pts and self.fences_left[p] > 0 and self._formation_edges(p):
            out.append("F")
        return out

    def _formation_next(self, p: int) -> None:
        """The next placer: players alternate; one who cannot spend is skipped (spec)."""
        for q in (p, 1 - p):
            if self._formation_pieces(q):
                self.player = q
                self.fpiece = ""
                return
        for q in (RED, BLUE):
            self.candidates[q] = sorted(u for u in range(NUM_TOKENS) if self.uown[u] == q)
        self._emit(None, "formation_done", "Both formations are complete.")
        if self.options["variant"] == "inspiration" and self.options["modification"] == 3:
            self.phase = "mod3"
            self.player = RED
            return
        self._start_secret()

    def _legal_formation(self) -> list[GunshiAction]:
        p = self.player
        if not self.fpiece:
            return [A("place", t) for t in self._formation_pieces(p)]
        if self.fpiece == "F":
            return [A("fence", EDGE_NAMES[e]) for e in self._formation_edges(p)]
        if self.fcell < 0:
            return [_AT[c] for c in sorted(HOME[p]) if self.board[c] < 0]
        return [A("face", d) for d in DIR_NAMES]

    def _do_formation(self, a: GunshiAction) -> None:
        p = self.player
        if a.kind == "place":
            self.fpiece = a.arg
            return
        if a.kind == "at":
            self.fcell = _cell(a.arg)
            return
        if a.kind == "fence":
            e = EDGE_NAMES.index(a.arg)
            self.fence[e] = p
            self.fences_left[p] -= 1
            self.points[p] -= FENCE_COST
            self._emit(None, "fence", f"{COLOUR[p]} places a Fence on {a.arg}.", edge=a.arg, seat=p)
        else:
            t = self.fpiece
            u = self._free_token(t)
            self._put_unit(u, p, self.fcell, DIR_NAMES.index(a.arg))
            self.points[p] -= UNITS[t].cost
            self._emit(
                None,
                "place",
                f"{COLOUR[p]} places {TYPE_NAME[t]} {LETTERS[u]} on {cn(self.fcell)} facing {a.arg}.",
                seat=p,
                unit=LETTERS[u],
                cell=cn(self.fcell),
                facing=a.arg,
            )
        self.fpiece = ""
        self.fcell = -1
        self.clock_started = True
        self._formation_next(1 - p)

    # ------------------------------------------------------------------ Phase 2
    def _start_secret(self) -> None:
        self.phase = "secret"
        self.player = RED
        self.step = "shogun"

    def _legal_secret(self) -> list[GunshiAction]:
        p = self.player
        if self.step == "shogun":
            return [A("shogun", LETTERS[u]) for u in self.candidates[p]]
        kind = self.step
        return [A(kind, c[0]) for c in self.stock[p]]

    def _do_secret(self, a: GunshiAction) -> None:
        p = self.player
        if a.kind == "shogun":
            self.shogun[p] = LETTERS.index(a.arg)
            self._emit([p], "shogun", f"Your Shogun is {a.arg}.", unit=a.arg)
            self._emit(None, "shogun_chosen", f"{COLOUR[p]} chooses a Shogun in secret.", seat=p)
        else:
            card = _take(self.stock[p], a.arg)
            (self.hand if a.kind == "hand" else self.deck)[p].append(card)
            where = "hand" if a.kind == "hand" else "deck"
            self._emit([p], where, f"{CARDS[a.arg].name} goes to your {where}.", card=a.arg)
        if self.step == "shogun":
            self.step = "hand" if self.stock[p] else ""
        elif self.step == "hand" and len(self.hand[p]) >= HAND_SIZE:
            self.step = "deck"
        if self.step == "deck" and len(self.stock[p]) <= 1:
            # The last card of the deck is forced: no decision to make. Only the count of cards
            # left decides this, never their kinds: the opponent sees how many decisions a
            # player makes, so that number must not depend on the secret choices (filling in
            # a run of one kind would tell the opponent that all of that kind is in the deck).
            self.deck[p].extend(self.stock[p])
            self.stock[p] = []
        if self.step and self.stock[p]:
            return
        self._emit(None, "ready", f"{COLOUR[p]} has chosen a Shogun and card order.", seat=p)
        if p == RED:
            self.player = BLUE
            self.step = "shogun"
            return
        self.phase = "battle"
        self.step = "send"
        self.player = RED
        self.turn = 1
        self._begin_turn()

    # ------------------------------------------------------------------ Phase 3: turn flow
    def _begin_turn(self) -> None:
        """Units Follow Orders: the Lightning card first, then the 1st card."""
        p = self.player
        self.queue = []
        self.invaded_turn = False
        self.sent = 0
        if self.lightning[p] is not None:
            self.queue.append(self.lightning[p])  # type: ignore[arg-type]
            self.lightning[p] = None
        if self.row[p]:
            self.queue.append(self.row[p].pop(0))
        self._continue_turn()

    def _continue_turn(self) -> None:
        """Resolve queued cards until a decision is needed, then the later steps."""
        p = self.player
        while self.result is None and self.cmd is None:
            if self.cur is not None:
                self._finish_card()
                continue
            if not self.queue:
                break
            card = self.queue.pop(0)
            knowledge.consume(self, p, knowledge.bag_of(card), card[0])
            self.cur = (card[0], True, False)
            self._emit(
                None,
                "resolve",
                f"{COLOUR[p]} resolves {CARDS[card[0]].name}.",
                seat=p,
                card=card[0],
            )
            self._start_card(card[0])
        if self.result is not None or self.cmd is not None:
            return
        if self.step == "send" and self.sent == 0 and self._inspiration_due():
            self.step = "take"
            if not self._legal_take():
                self.step = "send"
                self.swap_done[p] = True

    def _finish_card(self) -> None:
        p = self.player
        card = self.cur
        self.cur = None
        if card is None:
            return
        self.deck[p].append((card[0], True, False))

    def _inspiration_due(self) -> bool:
        p = self.player
        return (
            self.options["variant"] == "inspiration" and self.invaded_turn and not self.swap_done[p]
        )

    def _legal_take(self) -> list[GunshiAction]:
        p = self.player
        mod = self.options["modification"]
        if mod == 1:
            return [A("blind", str(i + 1)) for i in range(len(self.prepared[p]))]
        if mod == 2:
            return [A("take", c) for c in self.prepared[p]]
        return [A("take", c) for c in self.pool]

    def _do_swap(self, a: GunshiAction) -> None:
        p = self.player
        if a.kind == "remove":
            # The opponent cannot tell which card left the hand: the hand is mixed.
            bid = knowledge.mix(self, p, self.hand[p], with_known=True)
            self.hand[p] = [(c[0], False, False, bid) for c in self.hand[p]]
            _take(self.hand[p], a.arg)
            self.removed[p].append(a.arg)
            self.removed_bag[p] = bid
            knowledge.collect_garbage(self, p)
            self._emit([p], "remove", f"You remove {CARDS[a.arg].name} from the game.", card=a.arg)
            self._emit(None, "removed", f"{COLOUR[p]} removes a card from the game.", seat=p)
            self.swap_done[p] = True
            self.step = "send"
            return
        if a.kind == "blind":
            code = self.prepared[p].pop(int(a.arg) - 1)
            public = False
        elif self.options["modification"] == 2:
            self.prepared[p].remove(a.arg)
            code = a.arg
            public = False
        else:
            self.pool.remove(a.arg)
            code = a.arg
            public = True
        if public:
            self.hand[p].append((code, True, False))
        else:
            self.hand[p].append((code, False, False, self.box_bag[p]))
        self._emit([p], "take", f"You take {CARDS[code].name} into your hand.", card=code)
        if public:
            self._emit(None, "taken", f"{COLOUR[p]} takes {CARDS[code].name}.", card=code, seat=p)
        else:
            self._emit(None, "taken", f"{COLOUR[p]} takes an Advanced card.", seat=p)
        self.step = "remove"

    def _legal_send(self) -> list[GunshiAction]:
        p = self.player
        out: list[GunshiAction] = []
        room = len(self.row[p]) + (self.lightning[p] is not None) < ROW_LIMIT
        if room:
            out = [A("send", c[0]) for c in self.hand[p]]
        if self.sent > 0 or not out:
            out.append(A("end"))
            if self.points[p] >= LIGHTNING_COST and self.row[p] and self.lightning[p] is None:
                out.append(A("lightning"))
        return out

    def _do_send(self, a: GunshiAction) -> None:
        p = self.player
        if a.kind == "send":
            down = self.face_down_next[p]
            hand = self.hand[p]
            if down:
                # The opponent cannot tell which card left the hand: the hand is mixed.
                bid = knowledge.mix(self, p, hand, with_known=True)
                hand[:] = [(c[0], False, False, bid) for c in hand]
                hand.pop(_find(hand, a.arg, prefer_known=False))
                self.row[p].append((a.arg, False, False, bid))
                knowledge.collect_garbage(self, p)
            else:
                idx = _find(hand, a.arg, prefer_known=True)
                if not hand[idx][1]:
                    # No known copy: one of the unknown cards was this one.
                    unknown = [i for i, c in enumerate(hand) if not c[1]]
                    bid = knowledge.mix(self, p, [hand[i] for i in unknown], with_known=False)
                    for i in unknown:
                        hand[i] = (hand[i][0], False, False, bid)
                    knowledge.consume(self, p, bid, a.arg)
                hand.pop(idx)
                self.row[p].append((a.arg, True, True))
            self.face_down_next[p] = not down
            self.sent += 1
            pos = len(self.row[p])
            if down:
                self._emit([p], "send", f"You send {CARDS[a.arg].name} face down.", card=a.arg)
                self._emit(
                    [1 - p],
                    "send",
                    f"{COLOUR[p]} sends a card face down to position {pos}.",
                    position=pos,
                )
            else:
                self._emit(
                    None,
                    "send",
                    f"{COLOUR[p]} sends {CARDS[a.arg].name} face up to position {pos}.",
                    card=a.arg,
                    position=pos,
                )
            return
        if a.kind == "lightning":
            self.points[p] -= LIGHTNING_COST
            self.lightning[p] = self.row[p].pop(0)
            self._emit(None, "lightning", f"{COLOUR[p]} pays 6 for a Lightning Command.", seat=p)
        self._resupply()

    def _resupply(self) -> None:
        """Re-Supply: points for the last occupied position, then draw up to 3."""
        p = self.player
        gain = len(self.row[p])
        if gain == 0 and self.lightning[p] is not None:
            gain = self.options["lightning_alone_resupply"]
        self._gain(p, gain)
        drawn = 0
        while len(self.hand[p]) < HAND_SIZE and self.deck[p]:
            card = self.deck[p].pop(0)
            self.hand[p].append(card)
            drawn += 1
            self._emit([p], "draw", f"You draw {CARDS[card[0]].name}.", card=card[0])
        self._emit(
            None,
            "resupply",
            f"{COLOUR[p]} gains {gain} points and draws {drawn} cards.",
            seat=p,
            gain=gain,
            drawn=drawn,
        )
        self.player = 1 - p
        self.turn += 1
        self.step = "send"
        self._begin_turn()

    def _gain(self, p: int, n: int) -> None:
        cap = self.options["logistics_cap"]
        total = self.points[p] + n
        self.points[p] = total if cap is None else max(self.points[p], min(cap, total))

    def _pay(self, p: int, n: int) -> None:
        self.points[p] -= n

    # ------------------------------------------------------------------ units and geometry
    def _enemy_fence(self, cell: int, d: int, p: int) -> bool:
        e = EDGE_OF[cell][d]
        return e >= 0 and self.fence[e] == 1 - p

    def _units_of(self, p: int, types: str = "IAC") -> list[int]:
        uown, uloc = self.uown, self.uloc
        if types == "IAC":  # every token is one of these: no type test
            return [u for u in _TOKENS if uown[u] == p and 0 <= uloc[u] < CELLS]
        return [
            u for u in _TOKENS if uown[u] == p and 0 <= uloc[u] < CELLS and TOKEN_TYPE[u] in types
        ]

    def _adjacent_own(self, cell: int, p: int, types: str) -> list[int]:
        out = []
        for d in range(4):
            n = NEIGHBOUR[cell][d]
            if n >= 0:
                u = self.board[n]
                if u >= 0 and self.uown[u] == p and TOKEN_TYPE[u] in types:
                    out.append(u)
        return out

    def _dests(self, u: int, d: int, kind: str, board: list[int] | None = None) -> list[int]:
        """Cells a unit may move to in direction d (kind: move, light)."""
        b = self.board if board is None else board
        p = self.uown[u]
        cell = self.uloc[u]
        t = TOKEN_TYPE[u]
        f = self.uface[u]
        if t == "C" and kind == "move":
            if d == (f + 2) % 4:
                return []
            if d != f:
                return self._step(cell, d, p, b)
            out = []
            jumped = False
            cur = cell
            while True:
                nxt = NEIGHBOUR[cur][d]
                if nxt < 0 or self._enemy_fence(cur, d, p):
                    break
                occ = b[nxt]
                if occ < 0:
                    out.append(nxt)
                elif self.uown[occ] != p:
                    out.append(nxt)
                    break
                elif TOKEN_TYPE[occ] != "C" and not jumped:
                    jumped = True
                else:
                    break
                cur = nxt
            return out
        one = self._step(cell, d, p, b)
        if kind == "light" and d == f:
            n1 = NEIGHBOUR[cell][d]
            if n1 >= 0 and not self._enemy_fence(cell, d, p):
                n2 = NEIGHBOUR[n1][d]
                if n2 >= 0 and not self._enemy_fence(n1, d, p):
                    occ = b[n2]
                    if occ < 0 or self.uown[occ] != p:
                        return one + [n2]
        return one

    def _step(self, cell: int, d: int, p: int, b: list[int]) -> list[int]:
        n = NEIGHBOUR[cell][d]
        if n < 0:
            return []
        e = EDGE_OF[cell][d]  # _enemy_fence, inlined: this is the hottest geometry test
        if e >= 0 and self.fence[e] == 1 - p:
            return []
        occ = b[n]
        if occ >= 0 and self.uown[occ] == p:
            return []
        return [n]

    def _front_key(self, u: int, d: int) -> int:
        r, c = divmod(self.uloc[u], SIZE)
        return (-r, -c, r, c)[d]

    def _simulate(self, units: list[int], d: int, kind: str) -> set[int]:
        """Which of these units could act (move or attack), resolved front-first."""
        b = list(self.board)
        acted = set()
        for u in sorted(units, key=lambda x: self._front_key(x, d)):
            cell = self.uloc[u]
            dests = self._dests_on(u, cell, d, kind, b)
            if not dests:
                continue
            acted.add(u)
            dest = dests[0]
            occ = b[dest]
            if occ >= 0 and self.ushield[occ] and TOKEN_TYPE[u] != "C":
                continue
            b[cell] = -1
            b[dest] = u
        return acted

    def _dests_on(self, u: int, cell: int, d: int, kind: str, b: list[int]) -> list[int]:
        saved = self.uloc[u]
        self.uloc[u] = cell
        try:
            return self._dests(u, d, kind, b)
        finally:
            self.uloc[u] = saved

    def _capture(self, target: int, attacker_seat: int, by: str) -> bool:
        """An attack on ``target``; True if the unit left the board (False: Shield only)."""
        cell = self.uloc[target]
        owner = self.uown[target]
        if self.ushield[target] and by != "C":
            self.ushield[target] = False
            self._emit(
                None,
                "shield",
                f"{COLOUR[owner]}'s Infantry {LETTERS[target]} on {cn(cell)} loses its Shield.",
                cell=cn(cell),
            )
            return False
        self._remove_unit(target)
        self._emit(
            None,
            "capture",
            f"{COLOUR[attacker_seat]} removes {COLOUR[owner]}'s {TYPE_NAME[TOKEN_TYPE[target]]} "
            f"{LETTERS[target]} from {cn(cell)}.",
            cell=cn(cell),
            unit=LETTERS[target],
        )
        if self.shogun[owner] == target:
            self.revealed[owner] = True
            self.result = Outcome.win(attacker_seat, 2, "shogun_captured")
            self._emit(
                None,
                "game_over",
                f"{LETTERS[target]} was {COLOUR[owner]}'s Shogun: {COLOUR[attacker_seat]} wins!",
                reason="shogun_captured",
                winner=attacker_seat,
                shogun=LETTERS[target],
            )
        return True

    def _remove_unit(self, u: int) -> None:
        owner = self.uown[u]
        self.board[self.uloc[u]] = -1
        self.uloc[u] = OFF
        self.uown[u] = -1
        self.ushield[u] = False
        if u in self.candidates[owner] and self.shogun[owner] != u:
            self.candidates[owner].remove(u)

    def _break_fences(self, cell: int, p: int) -> None:
        """Fence Destruction: enemy Fences on the edges of a cell a unit moves onto."""
        for d in range(4):
            e = EDGE_OF[cell][d]
            if e >= 0 and self.fence[e] == 1 - p:
                self.fence[e] = -1
                self.fences_left[1 - p] += 1
                self._emit(
                    None,
                    "fence_destroyed",
                    f"{COLOUR[1 - p]}'s Fence on {EDGE_NAMES[e]} is destroyed.",
                    edge=EDGE_NAMES[e],
                )

    def _in_zone(self, cell: int, p: int) -> bool:
        r, c = divmod(cell, SIZE)
        if r != (SIZE - 1 if p == RED else 0):
            return False
        return self.options["invasion_zone"] == "back_line" or 2 <= c <= 4

    # ------------------------------------------------------------------ commands
    def _start_card(self, code: str) -> None:
        """Begin resolving a card: set up its first decision, or resolve it outright."""
        p = self.player
        pts = self.points[p]
        cmd: dict[str, Any] = {"card": code}
        if code == "M" or code == "Light":
            self._open(
                cmd,
                f"no unit can carry out {CARDS[code].name}",
                type="move" if code == "M" else "light",
                step="unit",
            )
        elif code == "Rapid":
            self._open(
                cmd,
                "Rapid-Move needs 2 points and a unit able to move",
                affordable=pts >= CARDS[code].cost,
                type="rapid",
                step="unit",
            )
        elif code in ("Re", "Crossbow"):
            shoot = "shoot" if code == "Re" else "crossbow"
            modes = ["reorient"] if self._units_of(p) else []
            if any(self._targets(u, shoot) for u in self._units_of(p, "A")):  # a shooter
                modes.append(shoot)
            self._offer_modes(cmd, modes, "no unit can carry out the command")
        elif code == "F":
            self._open(
                cmd,
                "Build Fence needs a Fence, 1 point and an Infantry with room",
                type="fence",
                step="unit",
                used=(),
            )
        elif code == "Rf":
            self._open(
                cmd,
                "Reinforce needs 2 points, a unit in the Reserve and an open space",
                type="reinforce",
                step="piece",
            )
        elif code == "EnRoute":
            self._open(
                cmd, "Reinforce en Route cannot be afforded or placed", type="enroute", step="unit"
            )
        elif code == "Review":
            self._gain(p, REVIEW_GAIN)
            self._emit(None, "review", f"{COLOUR[p]} gains {REVIEW_GAIN} points.", seat=p)
        elif code == "Scout":
            modes = []
            opp_row = self.row[1 - p] or self.lightning[1 - p] is not None
            if pts >= SCOUT_COSTS["commands"] and opp_row:
                modes.append("commands")
            if pts >= SCOUT_COSTS["shogun"] and self._units_of(1 - p):
                modes.append("shogun")
            self._offer_modes(cmd, modes, "Scout cannot be afforded")
        elif code == "Fire":
            self._open(cmd, "no Archer has a target", type="fire", step="unit", shots=0)
        elif code == "Switch":
            self._open(
                cmd,
                "Strategic Switch needs 2 points and two adjacent units",
                affordable=pts >= CARDS[code].cost,
                type="switch",
                step="unit",
            )
        elif code == "Trap":
            if pts < CARDS[code].cost:
                self._nothing("Chain Trap needs 2 points")
            else:
                self._pay(p, CARDS[code].cost)
                self.beside[p] = self.cur
                self.cur = None  # it lies beside the board, not at the bottom of the deck
                self._emit(None, "trap", f"{COLOUR[p]} lays a Chain Trap beside the board.")

    def _open(self, cmd: dict[str, Any], why: str, affordable: bool = True, **fields: Any) -> None:
        """Make ``cmd`` the command being resolved; if it cannot be carried out (or paid),
        nothing happens (compulsory resolution: act when able, else nothing)."""
        cmd.update(fields)
        self.cmd = cmd
        if not affordable or not self._cmd_possible():
            self._nothing(why)

    def _cmd_possible(self) -> bool:
        """Whether the command being resolved has a legal action: ``bool(self._cmd_legal())``,
        stopping at the first unit able to move for the movement cards (the common case)."""
        cmd = self.cmd
        assert cmd is not None
        if cmd["step"] == "unit" and cmd.get("type", "") in ("move", "light", "rapid"):
            return bool(self._movable_units(cmd, self.player, first_only=True))
        return bool(self._cmd_legal())

    def _offer_modes(self, cmd: dict[str, Any], modes: list[str], why: str) -> None:
        """A card with several uses: none possible, exactly one (taken), or a choice."""
        if not modes:
            self._nothing(why)
        elif len(modes) == 1:
            self.cmd = cmd
            self._set_mode(modes[0])
        else:
            cmd.update(step="mode", modes=tuple(modes))
            self.cmd = cmd

    def _nothing(self, why: str) -> None:
        self.cmd = None
        self._emit(None, "no_effect", f"Nothing happens: {why}.", reason=why)

    def _set_mode(self, mode: str) -> None:
        cmd = self.cmd
        assert cmd is not None
        p = self.player
        cmd["mode"] = mode
        if mode == "reorient":
            cmd.update(type="reorient", step="unit")
        elif mode in ("shoot", "crossbow"):
            cmd.update(type=mode, step="unit", used=())
        elif mode == "commands":
            self._pay(p, SCOUT_COSTS["commands"])
            cmd.update(type="look", step="look")
        else:
            self._pay(p, SCOUT_COSTS["shogun"])
            cmd.update(type="ask", step="ask")

    def _cmd_legal(self) -> list[GunshiAction]:
        cmd = self.cmd
        assert cmd is not None
        p = self.player
        step = cmd["step"]
        t = cmd.get("type", "")
        if step == "mode":
            return [A("mode", m) for m in cmd["modes"]]
        if t in ("move", "light", "rapid"):
            return self._legal_move(cmd, p)
        if t == "reorient":
            if step == "unit":
                return [_UNIT[self.uloc[u]] for u in self._units_of(p)]
            if step == "face":
                u = cmd["leader"]
                return [_FACE[d] for d in range(4) if d != self.uface[u]]
            return self._chain_choices(cmd, p) + [A("done")]
        if t in ("shoot", "crossbow", "fire"):
            if step == "unit":
                return [_UNIT[self.uloc[u]] for u in self._shooters(p, t)]
            if step == "hit":
                u = cmd["shooter"]
                kind = "crossbow" if t == "crossbow" else "shoot"
                return [_HIT[c] for c in self._targets(u, kind)]
            return self._chain_choices(cmd, p) + [A("done")]
        if t == "fence":
            if step == "unit":
                if self.fences_left[p] < 1 or self.points[p] < FENCE_COST:
                    return []
                return [_UNIT[self.uloc[u]] for u in self._units_of(p, "I") if self._fence_edges(u)]
            if step == "fence":
                return [A("fence", EDGE_NAMES[e]) for e in self._fence_edges(cmd["builder"])]
            return self._chain_choices(cmd, p) + [A("done")]
        if t == "reinforce":
            if step == "piece":
                return [A("place", x) for x in self._reinforce_types(p, UNITS_COST)]
            if step == "at":
                return [_AT[c] for c in sorted(HOME[p]) if self.board[c] < 0]
            return [A("face", d) for d in DIR_NAMES]
        if t == "enroute":
            if step == "unit":
                if not self._reinforce_types(p, EN_ROUTE_COST, need_home=False):
                    return []
                return [
                    _UNIT[self.uloc[u]] for u in self._units_of(p, "IA") if self._en_route_cells(u)
                ]
            if step == "piece":
                return [
                    A("place", x) for x in self._reinforce_types(p, EN_ROUTE_COST, need_home=False)
                ]
            if step == "at":
                return [_AT[c] for c in self._en_route_cells(cmd["base"])]
            return [A("face", d) for d in DIR_NAMES]
        if t == "look":
            out = []
            if self.lightning[1 - p] is not None:
                out.append(A("look", "L"))
            out += [A("look", str(i + 1)) for i in range(len(self.row[1 - p]))]
            return out
        if t == "ask":
            return [_ASK[self.uloc[u]] for u in self._units_of(1 - p)]
        if t == "switch":
            if step == "unit":
                return [
                    _UNIT[self.uloc[u]]
                    for u in self._units_of(p)
                    if self._adjacent_own(self.uloc[u], p, "IAC")
                ]
            return [
                _SWAP[self.uloc[v]] for v in self._adjacent_own(self.uloc[cmd["first"]], p, "IAC")
            ]
        raise AssertionError(f"unknown command state {cmd}")

    def _cmd_do(self, a: GunshiAction) -> None:
        cmd = self.cmd
        assert cmd is not None
        p = self.player
        if a.kind == "mode":
            self._set_mode(a.arg)
            return
        t = cmd["type"]
        if t in ("move", "light", "rapid"):
            self._do_move_step(cmd, p, a)
        elif t == "reorient":
            self._do_reorient_step(cmd, p, a)
        elif t in ("shoot", "crossbow", "fire"):
            self._do_shoot_step(cmd, p, a)
        elif t == "fence":
            self._do_fence_step(cmd, p, a)
        elif t in ("reinforce", "enroute"):
            self._do_reinforce_step(cmd, p, a)
        elif t == "look":
            self._do_look(p, a)
        elif t == "ask":
            self._do_ask(p, a)
        elif t == "switch":
            self._do_switch(cmd, p, a)

    def _done(self) -> None:
        self.cmd = None

    # -- chains (shared by Reorient, Shoot, Crossbow, Build Fence)
    def _chain_choices(self, cmd: dict[str, Any], p: int) -> list[GunshiAction]:
        t = cmd["type"]
        leader = cmd["leader"]
        cell = cmd["origin"]
        types = TOKEN_TYPE[leader]
        out = []
        for u in self._adjacent_own(cell, p, types):
            if u in cmd["used"]:
                continue
            if t == "reorient" and self.uface[u] == cmd["dir"]:
                continue
            if t in ("shoot", "crossbow") and not self._targets(
                u, "crossbow" if t == "crossbow" else "shoot"
            ):
                continue
            if t == "fence" and (
                self.fences_left[p] < 1 or self.points[p] < FENCE_COST or not self._fence_edges(u)
            ):
                continue
            out.append(_CHAIN[self.uloc[u]])
        return out

    def _after_chain_member(self, cmd: dict[str, Any], p: int) -> None:
        """After a chained unit acted: stop if no other unit can join."""
        cmd["step"] = "chain"
        if not self._chain_choices(cmd, p):
            self._done()

    # -- Reorient
    def _do_reorient_step(self, cmd: dict[str, Any], p: int, a: GunshiAction) -> None:
        if a.kind == "unit":
            u = self.board[_cell(a.arg)]
            cmd.update(leader=u, origin=self.uloc[u], step="face", used=(u,))
            return
        if a.kind == "face":
            d = DIR_NAMES.index(a.arg)
            u = cmd["leader"]
            cmd["dir"] = d
            self._turn(u, d)
            self._after_chain_member(cmd, p)
            return
        if a.kind == "done":
            self._done()
            return
        u = self.board[_cell(a.arg)]
        cmd["used"] = cmd["used"] + (u,)
        self._turn(u, cmd["dir"])
        self._after_chain_member(cmd, p)

    def _turn(self, u: int, d: int) -> None:
        self.uface[u] = d
        self._emit(
            None,
            "reorient",
            f"{COLOUR[self.uown[u]]}'s {TYPE_NAME[TOKEN_TYPE[u]]} {LETTERS[u]} on "
            f"{cn(self.uloc[u])} turns to face {DIR_NAMES[d]}.",
            cell=cn(self.uloc[u]),
            facing=DIR_NAMES[d],
        )

    # -- Shoot, Crossbow, Rapid Fire
    def _targets(self, u: int, kind: str) -> list[int]:
        """Enemy units an Archer can hit (rulebook ranges; blocking per the spec)."""
        p = self.uown[u]
        cell = self.uloc[u]
        f = self.uface[u]
        left, right = (f + 3) % 4, (f + 1) % 4
        out = []
        if kind == "shoot":
            block_sides = self.options["shoot_block"] == "any_crossed"
            f1 = NEIGHBOUR[cell][f]
            cands: list[tuple[int, bool]] = []
            if f1 >= 0:
                b1 = self._enemy_fence(cell, f, p)
                cands.append((f1, b1))
                f2 = NEIGHBOUR[f1][f]
                if f2 >= 0:
                    cands.append((f2, b1 or self._enemy_fence(f1, f, p)))
                for side in (left, right):
                    dg = NEIGHBOUR[f1][side]
                    if dg >= 0:
                        blocked = block_sides and (
                            self._enemy_fence(f1, side, p) and self._enemy_fence(cell, f, p)
                        )
                        cands.append((dg, blocked))
            for side in (left, right):
                n = NEIGHBOUR[cell][side]
                if n >= 0:
                    cands.append((n, block_sides and self._enemy_fence(cell, side, p)))
        else:
            cands = []
            for side in (left, right):
                n = NEIGHBOUR[cell][side]
                if n >= 0:
                    cands.append((n, self._enemy_fence(cell, side, p)))
            cur = cell
            for _ in range(3):
                nxt = NEIGHBOUR[cur][f]
                if nxt < 0:
                    break
                # Crossbow: only a Fence on the target's own edge facing the shooter blocks.
                cands.append((nxt, self._enemy_fence(cur, f, p)))
                cur = nxt
        for c, blocked in cands:
            occ = self.board[c]
            if not blocked and occ >= 0 and self.uown[occ] == 1 - p:
                out.append(c)
        return sorted(set(out))

    def _shooters(self, p: int, t: str) -> list[int]:
        kind = "crossbow" if t == "crossbow" else "shoot"
        return [u for u in self._units_of(p, "A") if self._targets(u, kind)]

    def _do_shoot_step(self, cmd: dict[str, Any], p: int, a: GunshiAction) -> None:
        t = cmd["type"]
        if a.kind == "unit":
            u = self.board[_cell(a.arg)]
            cmd.update(leader=u, origin=self.uloc[u], shooter=u, step="hit", used=(u,))
            return
        if a.kind == "chain":
            u = self.board[_cell(a.arg)]
            cmd.update(shooter=u, step="hit", used=cmd["used"] + (u,))
            return
        if a.kind == "done":
            self._done()
            return
        target = self.board[_cell(a.arg)]
        shooter = cmd["shooter"]
        self._emit(
            None,
            "shoot",
            f"{COLOUR[p]}'s Archer {LETTERS[shooter]} on {cn(self.uloc[shooter])} shoots at {a.arg}.",
            cell=a.arg,
        )
        self._capture(target, p, "A")
        if self.result is not None:
            self._done()
            return
        if t == "fire":
            cmd["shots"] += 1
            if cmd["shots"] >= 2 or not self._targets(shooter, "shoot"):
                self._done()
            return
        self._after_chain_member(cmd, p)

    # -- Build Fence
    def _fence_edges(self, u: int) -> list[int]:
        p = self.uown[u]
        cell = self.uloc[u]
        f = self.uface[u]
        left, right = (f + 3) % 4, (f + 1) % 4
        edges = [EDGE_OF[cell][f], EDGE_OF[cell][left], EDGE_OF[cell][right]]
        if self.options["fence_diagonal"] == "neighbour_front":
            for side in (left, right):
                n = NEIGHBOUR[cell][side]
                if n >= 0:
                    edges.append(EDGE_OF[n][f])
        else:
            n = NEIGHBOUR[cell][f]
            if n >= 0:
                edges += [EDGE_OF[n][left], EDGE_OF[n][right]]
        out = []
        for e in edges:
            if e < 0 or self.fence[e] >= 0:
                continue
            if any(self.board[c] >= 0 and self.uown[self.board[c]] == 1 - p for c in EDGE_CELLS[e]):
                continue  # not on a line adjacent to an enemy unit
            out.append(e)
        return sorted(set(out))

    def _do_fence_step(self, cmd: dict[str, Any], p: int, a: GunshiAction) -> None:
        if a.kind in ("unit", "chain"):
            u = self.board[_cell(a.arg)]
            if a.kind == "unit":
                cmd.update(leader=u, origin=self.uloc[u])
            cmd.update(builder=u, step="fence", used=cmd["used"] + (u,))
            return
        if a.kind == "done":
            self._done()
            return
        e = EDGE_NAMES.index(a.arg)
        self.fence[e] = p
        self.fences_left[p] -= 1
        self._pay(p, FENCE_COST)
        self._emit(None, "fence", f"{COLOUR[p]} builds a Fence on {a.arg}.", edge=a.arg, seat=p)
        self._after_chain_member(cmd, p)

    # -- Reinforce and Reinforce en Route
    def _reinforce_types(self, p: int, costs: dict[str, int], need_home: bool = True) -> list[str]:
        if need_home and not any(self.board[c] < 0 for c in HOME[p]):
            return []
        return [
            t for t in ("I", "A", "C") if costs[t] <= self.points[p] and self._free_token(t) >= 0
        ]

    def _en_route_cells(self, u: int) -> list[int]:
        p = self.uown[u]
        out = []
        for d in range(4):
            n = NEIGHBOUR[self.uloc[u]][d]
            if n >= 0 and self.board[n] < 0 and n not in HOME[p]:
                out.append(n)
        return sorted(out)

    def _do_reinforce_step(self, cmd: dict[str, Any], p: int, a: GunshiAction) -> None:
        if a.kind == "unit":
            cmd.update(base=self.board[_cell(a.arg)], step="piece")
            return
        if a.kind == "place":
            cmd.update(piece=a.arg, step="at")
            return
        if a.kind == "at":
            cmd.update(cell=_cell(a.arg), step="face")
            return
        t = cmd["piece"]
        cost = (UNITS_COST if cmd["type"] == "reinforce" else EN_ROUTE_COST)[t]
        u = self._free_token(t)
        cell = cmd["cell"]
        self._put_unit(u, p, cell, DIR_NAMES.index(a.arg))
        self._pay(p, cost)
        self._emit(
            None,
            "reinforce",
            f"{COLOUR[p]} reinforces with {TYPE_NAME[t]} {LETTERS[u]} on {cn(cell)} facing "
            f"{a.arg} ({cost} points).",
            unit=LETTERS[u],
            cell=cn(cell),
            facing=a.arg,
        )
        self._break_fences(cell, p)
        self._done()

    # -- Scout
    def _do_look(self, p: int, a: GunshiAction) -> None:
        o = 1 - p
        if a.arg == "L":
            card = self.lightning[o]
            assert card is not None
            self.lightning[o] = (card[0], card[1] or SCOUTED, card[2])
        else:
            i = int(a.arg) - 1
            card = self.row[o][i]
            self.row[o][i] = (card[0], card[1] or SCOUTED, card[2])
        knowledge.consume(self, o, knowledge.bag_of(card), card[0])
        self._emit([p], "scout", f"Position {a.arg} holds {CARDS[card[0]].name}.", card=card[0])
        self._emit(
            None,
            "scouted",
            f"{COLOUR[p]} scouts position {a.arg} of {COLOUR[o]}'s row.",
            position=a.arg,
        )
        self._done()

    def _do_ask(self, p: int, a: GunshiAction) -> None:
        o = 1 - p
        u = self.board[_cell(a.arg)]
        yes = self.shogun[o] == u
        if yes:
            self.revealed[o] = True
            self.candidates[o] = [u]
        elif u in self.candidates[o]:
            self.candidates[o].remove(u)
        self._emit(
            None,
            "scout_shogun",
            f"{COLOUR[p]} asks whether {LETTERS[u]} on {a.arg} is the Shogun: "
            f"{'Yes' if yes else 'No'}.",
            unit=LETTERS[u],
            answer=yes,
        )
        self._done()

    # -- Strategic Switch
    def _do_switch(self, cmd: dict[str, Any], p: int, a: GunshiAction) -> None:
        if a.kind == "unit":
            self._pay(p, CARDS["Switch"].cost)
            cmd.update(first=self.board[_cell(a.arg)], step="swap")
            return
        u = cmd["first"]
        v = self.board[_cell(a.arg)]
        cu, cv = self.uloc[u], self.uloc[v]
        self.uloc[u], self.uloc[v] = cv, cu
        self.board[cu], self.board[cv] = v, u
        self._emit(None, "switch", f"{COLOUR[p]} switches {cn(cu)} and {cn(cv)}.")
        self._done()

    # -- Move, Light Infantry, Rapid-Move
    def _move_kind(self, cmd: dict[str, Any]) -> str:
        return "light" if cmd["type"] == "light" else "move"

    def _mates(self, u: int, p: int, cmd: dict[str, Any]) -> list[int]:
        if cmd["type"] == "rapid":
            return []
        return self._adjacent_own(self.uloc[u], p, TOKEN_TYPE[u])

    def _can_lead(self, u: int, d: int, p: int, cmd: dict[str, Any]) -> bool:
        kind = self._move_kind(cmd)
        if self._dests(u, d, kind):
            return True
        mates = self._mates(u, p, cmd)
        return bool(mates) and u in self._simulate([u, *mates], d, kind)

    def _rapid_faces(self, u: int) -> list[int]:
        """Facings a Rapid-Move unit may reorient to first and still be able to move."""
        out = []
        saved = self.uface[u]
        for f in range(4):
            if f == saved:
                continue
            self.uface[u] = f
            if any(self._dests(u, d, "move") for d in range(4)):
                out.append(f)
        self.uface[u] = saved
        return out

    def _movable_units(self, cmd: dict[str, Any], p: int, first_only: bool = False) -> list[int]:
        """The units that may carry out a movement command, in ``_units_of`` order (with
        ``first_only``: at most the first of them).

        A unit qualifies if ``_can_lead`` holds in some direction (or, for Rapid-Move, some
        reorientation lets it move). ``_can_lead`` is "a destination of its own, or a chain
        whose simulation moves it"; the any-direction test takes the cheap half for all four
        directions first, and works out the mates once per unit."""
        t = cmd["type"]
        kind = self._move_kind(cmd)
        board, uown, fence, enemy = self.board, self.uown, self.fence, 1 - p
        out = []
        for u in self._units_of(p, "I" if t == "light" else "IAC"):
            # Fast test: a single step in a direction the unit may take (not backwards for a
            # Cavalry) is a destination of _dests. Only when there is none, the full test
            # (Light Infantry's double step, a Cavalry jumping over its own units).
            cell = self.uloc[u]
            back = (self.uface[u] + 2) % 4 if kind == "move" and TOKEN_TYPE[u] == "C" else -1
            ok = False
            for d, n in enumerate(NEIGHBOUR[cell]):
                if n < 0 or d == back:
                    continue
                e = EDGE_OF[cell][d]
                if e >= 0 and fence[e] == enemy:
                    continue
                occ = board[n]
                if occ < 0 or uown[occ] != p:
                    ok = True
                    break
            if not ok:
                ok = any(self._dests(u, d, kind) for d in range(4))
            if not ok:
                mates = self._mates(u, p, cmd)
                if mates:
                    group = [u, *mates]
                    ok = any(u in self._simulate(group, d, kind) for d in range(4))
            if not ok and t == "rapid":
                ok = bool(self._rapid_faces(u))
            if ok:
                out.append(u)
                if first_only:
                    break
        return out

    def _legal_move(self, cmd: dict[str, Any], p: int) -> list[GunshiAction]:
        step = cmd["step"]
        if step == "unit":
            return [_UNIT[self.uloc[u]] for u in self._movable_units(cmd, p)]
        u = cmd["leader"]
        if step == "dir":
            return [_DIR[d] for d in range(4) if self._can_lead(u, d, p, cmd)]
        if step == "rapid":
            dirs = [_DIR[d] for d in range(4) if self._dests(u, d, "move")]
            return dirs + [_FACE[f] for f in self._rapid_faces(u)]
        if step == "rface":
            return [_FACE[f] for f in range(4) if f != self.uface[u]]
        if step == "chain":
            d = cmd["dir"]
            kind = self._move_kind(cmd)
            sel = list(cmd["sel"])
            could = self._simulate([u, *cmd["mates"]], d, kind)
            out = [_CHAIN[self.uloc[m]] for m in cmd["mates"] if m not in sel and m in could]
            if u in self._simulate([u, *sel], d, kind):
                out.append(A("done"))
            return out
        if step == "to":
            m = cmd["order"][0]
            return [_TO[c] for c in self._dests(m, cmd["dir"], self._move_kind(cmd))]
        if step == "invade":
            m = cmd["invader"]
            if self.shogun[p] == m:
                return [A("stay")]  # the Shogun cannot invade
            return [A("invade"), A("stay")]
        raise AssertionError(step)

    def _do_move_step(self, cmd: dict[str, Any], p: int, a: GunshiAction) -> None:
        step = cmd["step"]
        if step == "unit":
            u = self.board[_cell(a.arg)]
            cmd.update(leader=u, sel=(), moved=(), trap_moved=())
            if cmd["type"] == "rapid":
                self._pay(p, CARDS["Rapid"].cost)
                cmd.update(step="rapid", rapid="")
            else:
                cmd["step"] = "dir"
            return
        u = cmd["leader"]
        if step == "rapid":
            if a.kind == "face":
                self._turn(u, DIR_NAMES.index(a.arg))
                cmd["rapid"] = "reoriented"
                cmd["step"] = "dir"
                return
            cmd["rapid"] = "moving"
            self._start_moves(cmd, p, DIR_NAMES.index(a.arg), ())
            return
        if step == "dir":
            d = DIR_NAMES.index(a.arg)
            kind = self._move_kind(cmd)
            mates = self._mates(u, p, cmd)
            could = self._simulate([u, *mates], d, kind) if mates else set()
            mates = [m for m in mates if m in could]
            if not mates:
                self._start_moves(cmd, p, d, ())
                return
            cmd.update(dir=d, mates=tuple(mates), step="chain")
            return
        if step == "chain":
            if a.kind == "done":
                self._start_moves(cmd, p, cmd["dir"], cmd["sel"])
                return
            cmd["sel"] = cmd["sel"] + (self.board[_cell(a.arg)],)
            if not [x for x in self._legal_move(cmd, p) if x.kind == "chain"]:
                self._start_moves(cmd, p, cmd["dir"], cmd["sel"])
            return
        if step == "rface":
            self._turn(u, DIR_NAMES.index(a.arg))
            self._done()
            return
        if step == "to":
            m = cmd["order"][0]
            cmd["order"] = cmd["order"][1:]
            if not self._move_unit(cmd, p, m, _cell(a.arg)):
                self._resolve_moves(cmd, p)
            return
        if step == "invade":
            m = cmd["invader"]
            if a.kind == "invade":
                self._invade(m, p)
                if cmd["type"] == "rapid":
                    cmd["rapid"] = "invaded"
            else:
                self._emit(None, "stay", f"{COLOUR[p]}'s unit on {cn(self.uloc[m])} stays.")
            self._resolve_moves(cmd, p)

    def _start_moves(self, cmd: dict[str, Any], p: int, d: int, sel: tuple[int, ...]) -> None:
        units = [cmd["leader"], *sel]
        cmd["dir"] = d
        cmd["order"] = tuple(sorted(units, key=lambda x: self._front_key(x, d)))
        self._resolve_moves(cmd, p)

    def _resolve_moves(self, cmd: dict[str, Any], p: int) -> None:
        """Resolve the chosen units front-first; ask where several destinations exist."""
        kind = self._move_kind(cmd)
        d = cmd["dir"]
        while self.result is None and cmd["order"]:
            m = cmd["order"][0]
            if self.uown[m] != p or not 0 <= self.uloc[m] < CELLS or m in cmd["trap_moved"]:
                cmd["order"] = cmd["order"][1:]
                continue
            dests = self._dests(m, d, kind)
            if not dests:
                cmd["order"] = cmd["order"][1:]
                self._emit(None, "blocked", f"The unit on {cn(self.uloc[m])} cannot move.")
                continue
            if kind == "light" and self.ushield[m]:
                # Light Infantry: the Shield comes off before moving.
                self.ushield[m] = False
                self._emit(None, "shield_off", f"Infantry {LETTERS[m]} drops its Shield to move.")
            if len(dests) > 1:
                cmd["step"] = "to"
                return
            cmd["order"] = cmd["order"][1:]
            if self._move_unit(cmd, p, m, dests[0]):
                return
        if self.result is not None:
            self._done()
            return
        if cmd["type"] == "rapid" and cmd["rapid"] == "moving":
            cmd["step"] = "rface"
            return
        self._done()

    def _move_unit(self, cmd: dict[str, Any], p: int, m: int, dest: int) -> bool:
        """Move (or attack with) unit m; True when an invasion decision is now pending."""
        d = cmd["dir"]
        start = self.uloc[m]
        occ = self.board[dest]
        if occ >= 0:
            self._emit(
                None,
                "attack",
                f"{COLOUR[p]}'s {TYPE_NAME[TOKEN_TYPE[m]]} {LETTERS[m]} attacks {cn(dest)}.",
                cell=cn(dest),
            )
            if not self._capture(occ, p, TOKEN_TYPE[m]):
                # Shield only: the attacker stays where it is (rulebook, Infantry Shields).
                if self.options["shield_hit_facing"] == "turn":
                    self.uface[m] = d
                if self.options["shield_hit_breaks_fences"]:
                    self._break_fences(start, p)
                return False
        self.board[start] = -1
        self.board[dest] = m
        self.uloc[m] = dest
        self.uface[m] = d
        self._emit(
            None,
            "move",
            f"{COLOUR[p]}'s {TYPE_NAME[TOKEN_TYPE[m]]} {LETTERS[m]} moves {cn(start)}-{cn(dest)}.",
            frm=cn(start),
            to=cn(dest),
            unit=LETTERS[m],
        )
        if self.result is not None:
            return False
        self._break_fences(dest, p)
        r0, c0 = divmod(start, SIZE)
        r1, c1 = divmod(dest, SIZE)
        if abs(r0 - r1) + abs(c0 - c1) == 1:
            self._spring_trap(cmd, p, m, start, d)
        if self._in_zone(dest, p):
            cmd["invader"] = m
            cmd["step"] = "invade"
            return True
        return False

    def _invade(self, m: int, p: int) -> None:
        cell = self.uloc[m]
        worth = 2 if self.ushield[m] else 1
        self.board[cell] = -1
        self.uloc[m] = INVADED
        self.ushield[m] = False
        if m in self.candidates[p]:
            self.candidates[p].remove(m)
        self.invaders[p] += worth
        self.invaded_turn = True
        self._emit(
            None,
            "invade",
            f"{COLOUR[p]}'s {TYPE_NAME[TOKEN_TYPE[m]]} {LETTERS[m]} invades from {cn(cell)} "
            f"(counts {worth}; {self.invaders[p]} on the Invader Spot).",
            unit=LETTERS[m],
            worth=worth,
            total=self.invaders[p],
        )
        if self.invaders[p] >= INVADERS_TO_WIN:
            self.result = Outcome.win(p, 2, "invasion")
            self._emit(
                None, "game_over", f"{COLOUR[p]} wins by invasion!", reason="invasion", winner=p
            )

    def _spring_trap(self, cmd: dict[str, Any], p: int, m: int, start: int, d: int) -> None:
        """Chain Trap: the opponent's trap drags every unit next to the mover along."""
        o = 1 - p
        trap = self.beside[o]
        if trap is None:
            return
        self.beside[o] = None
        self.deck[o].append((trap[0], True, False))
        forced = [u for u in self._adjacent_own(start, p, "IAC") if u != m]
        forced.sort(key=lambda x: self._front_key(x, d))
        moved = []
        for u in forced:
            cell = self.uloc[u]
            n = NEIGHBOUR[cell][d]
            if n < 0 or self._enemy_fence(cell, d, p) or self.board[n] >= 0:
                continue  # blocked: those units are not moved
            self.board[cell] = -1
            self.board[n] = u
            self.uloc[u] = n
            self.uface[u] = d
            moved.append(u)
            self._break_fences(n, p)
        cmd["trap_moved"] = cmd.get("trap_moved", ()) + tuple(moved)
        self._emit(
            None,
            "chain_trap",
            f"{COLOUR[o]}'s Chain Trap springs: {len(moved)} more of {COLOUR[p]}'s units move "
            f"{DIR_NAMES[d]}.",
            moved=[LETTERS[u] for u in moved],
        )

    # ------------------------------------------------------------------ views
    def _card_view(self, card: Card | None, show: bool, seat: int | None) -> Any:
        if card is None:
            return None
        return {"card": card[0] if _seen(card, show, seat) else None, "face_up": card[2]}

    def view(self, seat: int | None) -> dict[str, Any]:
        o = self.options
        mod1 = o["variant"] == "inspiration" and o["modification"] == 1
        seated = seat is not None  # a Scout's look shows to seats, not to spectators
        players = []
        for p in (RED, BLUE):
            mine = seat == p
            see_all = mine
            entry: dict[str, Any] = {
                "colour": COLOUR[p],
                "points": self.points[p],
                "fences_left": self.fences_left[p],
                "invaders": self.invaders[p],
                "hand": [c[0] if (see_all or c[1]) else None for c in self.hand[p]],
                "deck": [c[0] if (see_all or c[1]) else None for c in self.deck[p]],
                "stock": [c[0] if mine else None for c in self.stock[p]],
                "row": [
                    {
                        "card": c[0]
                        if mine or c[2] or c[1] is True or (c[1] == SCOUTED and seated)
                        else None,
                        "face_up": c[2],
                    }
                    for c in self.row[p]
                ],
                "lightning": self._card_view(self.lightning[p], mine, seat),
                "chain_trap_beside": self.beside[p] is not None,
                "face_down_next": self.face_down_next[p],
                "shogun": LETTERS[self.shogun[p]]
                if self.shogun[p] >= 0 and (mine or self.revealed[p])
                else None,
                "shogun_chosen": self.shogun[p] >= 0,
                "shogun_revealed": self.revealed[p],
                "shogun_candidates": [LETTERS[u] for u in self.candidates[p]],
                "prepared": [c if (mine and not mod1) else None for c in self.prepared[p]],
                "removed": len(self.removed[p]),
                "inspiration_used": self.swap_done[p],
                "picks": [c if (mine or self.deck_public) else None for c in self.picks[p]],
                "mod3_choices": [c if (mine or self.phase != "mod3") else None for c in self.m3[p]],
            }
            if mine and not mod1:
                entry["advanced_in_box"] = list(self.unused[p])
            players.append(entry)
        uloc, uown, uface, ushield = self.uloc, self.uown, self.uface, self.ushield
        units = [
            {
                "letter": LETTERS[u],
                "type": TOKEN_TYPE[u],
                "owner": uown[u],
                "cell": _CELL_NAMES[loc],
                "facing": DIR_NAMES[uface[u]],
                "shield": ushield[u],
            }
            for u, loc in enumerate(uloc)
            if 0 <= loc < CELLS
        ]
        reserve = {"I": 0, "A": 0, "C": 0}
        for u, loc in enumerate(uloc):
            if loc == OFF and TOKEN_TYPE[u] in reserve:
                reserve[TOKEN_TYPE[u]] += 1
        fence = self.fence
        fences = (
            []
            if fence.count(-1) == len(fence)
            else [{"edge": EDGE_NAMES[e], "owner": f} for e, f in enumerate(fence) if f >= 0]
        )
        cmd_view = None
        if self.cmd is not None:
            cmd_view = _command_view(self.cmd)
        return {
            "game": "gunshi",
            "seat": seat,
            "phase": self.phase,
            "step": self.step if self.phase != "secret" or seat == self.player else "",
            "to_act": self.current_player,
            "turn": self.turn,
            "ply": self.ply,
            "players": players,
            "units": units,
            "fences": fences,
            "reserve": reserve,
            "pool": list(self.pool),
            "formation_piece": self.fpiece,
            "formation_cell": cn(self.fcell) if self.fcell >= 0 else None,
            "resolving": self.cur[0] if self.cur is not None else None,
            "queue": [c[0] if _seen(c, seat == self.player, seat) else None for c in self.queue],
            "command": cmd_view,
            "sent_this_turn": self.sent,
            "clock": {
                "time_control": o["time_control"],
                "seconds_each": 1200 if o["time_control"] == "tournament" else None,
                "running": self.clock_seat,
            },
            "options": dict(o),
            "outcome": self.result.to_json() if self.result else None,
        }

    # ------------------------------------------------------------------ determinize
    def determinize(self, seat: int, rng: random.Random) -> GunshiState:
        """Resample everything ``seat`` cannot see, from exactly what it knows.

        The opponent's Shogun: any of its candidates still on the board (units of its
        formation never named "No" by a Scout and never invaded, which a Shogun cannot do).
        The opponent's unknown cards, wherever they are (hand, deck, row, Lightning position,
        the card removed by the Inspiration, the Advanced cards prepared or in the box): from
        the seat's exact knowledge (``knowledge.py``). Secret choices still being made
        (Optional Rule 3 picks, Modification 3 choices): any the rules allow. With
        Modification 1 the seat does not know its own prepared cards either.
        """
        s = self.clone()
        s._legal_memo = None  # hidden parts change below; the legal actions may with them
        o = 1 - seat
        opts = self.options
        if s.shogun[o] >= 0 and not s.revealed[o] and s.result is None:
            cands = [u for u in s.candidates[o] if 0 <= s.uloc[u] < CELLS]
            if cands:
                s.shogun[o] = rng.choice(cands)
        if self.phase == "build" and not self.deck_public and s.picks[o]:
            taken = list(self.pre_taken)
            pool = [
                c
                for c in self._deck_pool()
                for _ in range(max(0, CARDS[c].copies - taken.count(c)))
            ]
            rng.shuffle(pool)
            s.picks[o] = pool[: len(s.picks[o])]
        knowledge.sample(s, o, rng)
        if self.phase != "build" and not self.deck_public and self.picks[o]:
            # Optional Rule 3: the secret picks are the resampled deck less the step 2 Move.
            zones = [s.stock[o], s.hand[o], s.deck[o], s.row[o]]
            if s.player == o:
                zones += [s.queue, [s.cur] if s.cur is not None else []]
            cards = [c[0] for z in zones for c in z]
            cards += [c[0] for c in (s.lightning[o], s.beside[o]) if c is not None]
            for code in self.pre_taken:
                if code in cards:
                    cards.remove(code)
            s.picks[o] = sorted(cards, key=_card_order)
        if opts["variant"] == "inspiration":
            if opts["modification"] == 1:
                box = sorted(s.prepared[seat] + s.unused[seat])  # what the seat knows
                rng.shuffle(box)
                n = len(s.prepared[seat])
                s.prepared[seat], s.unused[seat] = box[:n], box[n:]
            if self.phase == "mod3" and s.m3[o]:
                adv = list(advanced_codes(opts["sanryaku"]))
                s.m3[o] = rng.sample(adv, len(s.m3[o]))
        # The true seed rebuilds every secret of the setup (Modification 1's prepared cards):
        # a world carries a seed drawn from the rng instead, like everything else it hides.
        s.seed = rng.getrandbits(63)
        return s

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        data = {
            k: _jsonable(v)
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
                v = {kk: (tuple(vv) if isinstance(vv, list) else vv) for kk, vv in v.items()}
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


UNITS_COST = {t: UNITS[t].cost for t in UNITS}
EN_ROUTE_COST = {t: UNITS[t].en_route_cost for t in UNITS}


def _card_order(code: str) -> int:
    return list(CARDS).index(code)


def _cell(text: str) -> int:
    return (int(text[1]) - 1) * SIZE + "abcdefg".index(text[0])


def _take(cards: list[Card], code: str) -> Card:
    idx = _find(cards, code, prefer_known=False)
    return cards.pop(idx)


def _find(cards: list[Card], code: str, prefer_known: bool) -> int:
    best = -1
    for i, c in enumerate(cards):
        if c[0] == code:
            if best < 0 or (prefer_known and c[1] and not cards[best][1]):
                best = i
    if best < 0:
        raise IllegalAction(f"no {code!r} card there")
    return best


_UNIT_KEYS = ("leader", "shooter", "builder", "first", "base", "invader")
_UNITS_KEYS = ("mates", "sel", "used", "order", "trap_moved")


def _command_view(cmd: dict[str, Any]) -> dict[str, Any]:
    """The command being resolved, for players: units by letter, cells and facings by name."""
    out: dict[str, Any] = {}
    for k, v in cmd.items():
        if k in _UNIT_KEYS:
            out[k] = LETTERS[v]
        elif k in _UNITS_KEYS:
            out[k] = [LETTERS[u] for u in v]
        elif k in ("origin", "cell"):
            out[k] = cn(v)
        elif k == "dir":
            out[k] = DIR_NAMES[v]
        else:
            out[k] = _jsonable(v)
    return out


def command_from_view(view: dict[str, Any]) -> dict[str, Any]:
    """The inverse of ``_command_view`` (position strings written mid-command).

    Raises ValueError, naming the field, for anything ``_command_view`` cannot have written.
    """
    if not isinstance(view, dict):
        raise ValueError(f"the command is a JSON object, not {view!r}")
    out: dict[str, Any] = {}
    for k, v in view.items():
        try:
            if k in _UNIT_KEYS:
                out[k] = LETTERS.index(v)
            elif k in _UNITS_KEYS:
                out[k] = tuple(LETTERS.index(x) for x in v)
            elif k in ("origin", "cell"):
                out[k] = _CELL_NAMES.index(v)
            elif k == "dir":
                out[k] = DIR_NAMES.index(v)
            elif isinstance(v, list):
                out[k] = tuple(v)
            elif isinstance(v, str | int) or v is None:
                out[k] = v
            else:
                raise ValueError(v)
        except (ValueError, TypeError):
            raise ValueError(f"command field {k!r}: {v!r} is not a unit, cell or value") from None
    for key in ("card", "type", "step"):
        if key not in out and not (key == "type" and out.get("step") == "mode"):
            raise ValueError(f"the command needs its {key!r}")
    if out.get("card") not in CARDS:
        raise ValueError(f"command field 'card': {out.get('card')!r} is not a card code")
    return out


def _seen(card: Card, show: bool, seat: int | None) -> bool:
    """Whether a seat sees this card (SCOUTED: the opponent's Scout only, not spectators)."""
    known, up = card[1], card[2]
    return show or up or known is True or (known == SCOUTED and seat is not None)


def _jsonable(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    return v
