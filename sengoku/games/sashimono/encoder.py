"""Sashimono's observation encoder for research tools: one flat vector: each side's Sonae stacks, hands, Sashimono
spaces and scores, the Kagemusha (solo), the battle, the card being played, the prompt.

Sashimono.observation_encoder() declares it. It reads ``view(seat)`` and nothing else (see
:mod:`sengoku.core.observation`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from sengoku.core.game import SengokuError
from sengoku.core.observation import Encoder, Entries, clear_entries, entries_of
from sengoku.games.sashimono.snapshot import snapshot
from sengoku.games.sashimono.state import SashimonoState

_UNSET = object()


class SashimonoEncoder(Encoder):
    """Sashimono (duel or solo) as one flat vector, sides relative to the observer.

    Side slot 0 is the observer's side (seat 0 for a spectator), slot 1 the other seat's
    (zero in the solo mode); seats in battles, prompts and turns are one-hot over (observer,
    other seat, Kagemusha). Cards are indexed in the card set's order; a card in an ordered
    pile (a hand, the scored cards, the Kagemusha's line) is written as its position + 1.

    * per side: present, army (west, east); the nine Sonae spaces, each a Kumi stack: present,
      face up, contents unknown, rank, attack, defence, and the type (T K N) at each of its
      three levels; the Kumi hand by position (up to 40, the action space's bound); hand,
      deck, Sashimono hand and Sashimono deck counts; the Sashimono hand; each of the 12
      spaces around the Sonae (present, bowed, card one-hot); VP; scored cards;
    * the Kagemusha (solo): army; its Kumi line (up to 16 stacks as above); Kumi deck and
      Sashimono deck counts, Army position, VP; its Sashimono line (position, bowed); its
      scored cards; its discarded Kumi counted by type;
    * VP target, turn, whose turn, who is to act; the battle (attacker, defender, lines, ante
      counts, bonus); the card being played (card, space, line, effects used in order);
      the prompt (seat, question); cards being looked at (owner, kind, count, the cards).

    Faithful but for the constants of the environment (mode, card set name), the prompt's
    ``rule`` and ``options`` texts (the options are the legal actions: the action mask), the
    order of the Kagemusha's discard pile (counted) and the result (terminal states).
    """

    SIDES = ("observer", "other", "kagemusha")
    ARMIES = ("west", "east")
    CELLS = 9
    STACK = 15
    HAND_MAX = 40
    KAGE_LINE_MAX = 16
    SPACES = 12
    LINES = 7
    USED_MAX = 8
    LOOK_MAX = 8
    QUESTIONS = (
        "ante", "battle", "bonus", "bury", "casualty", "choose", "discard", "do", "flip",
        "gunbai", "keep", "look_bottom", "peek", "perm", "place", "place_at", "play",
        "rearrange", "return_kumi", "return_sas", "slot", "swap", "swap_with", "train",
        "train_with", "turn",
    )  # fmt: skip
    low = -1.0
    high = 4000.0  # turns are bounded by max_game_length

    def __init__(self, cards: str) -> None:
        from sengoku.games.sashimono.cards import card_set
        from sengoku.games.sashimono.state import LINE_NAMES, SLOTS

        #: The card set's name, the encoder's one argument (see ``__reduce__``).
        self.card_set = cards
        card_list = card_set(cards).cards
        self.cards = {c.id: i for i, c in enumerate(card_list)}
        self.num_cards = len(card_list)
        self.kumi = {"T": 0, "K": 1, "N": 2}
        self.spaces = {name: i for i, name in enumerate(SLOTS)}
        self.lines = {name: i for i, name in enumerate(LINE_NAMES)}
        self.questions = {q: i for i, q in enumerate(self.QUESTIONS)}
        nc = self.num_cards
        self.side_size = (
            1 + 2 + self.CELLS * self.STACK + self.HAND_MAX * 3 + 4 + nc
            + self.SPACES * (2 + nc) + 1 + nc
        )  # fmt: skip
        sizes = [
            ("sides", 2 * self.side_size),
            ("kagemusha", 2 + self.KAGE_LINE_MAX * self.STACK + 4 + 2 * nc + nc + 3),
            ("globals", 2 + 3 + 3),
            ("battle", 1 + 3 + 3 + 2 * self.LINES + 3 + 1),
            ("played", 1 + nc + self.SPACES + self.LINES + self.USED_MAX),
            ("prompt", 1 + 3 + len(self.QUESTIONS) + 1),
            ("looking", 1 + 3 + 2 + 1 + self.LOOK_MAX * 3 + nc),
        ]
        self.offsets: dict[str, int] = {}
        total = 0
        for name, size in sizes:
            self.offsets[name] = total
            total += size
        self.shape = (total,)
        #: (observer's seat, -1 for a spectator; the stacks' seat, 2 for the Kagemusha's line)
        #: -> the last stacks shown (copies) and their entries: they change seldom (see
        #: :meth:`_stacks`).
        self._stack_cache: dict[tuple[int, int], tuple[list[Any], Any]] = {}
        #: A stack's (face, types, rank, attack, defence) -> its entries (a memoryview).
        self._stack_vectors: dict[tuple[Any, ...], Any] = {}
        self.army_index = {name: i for i, name in enumerate(self.ARMIES)}
        #: Each Sashimono space -> its offset among a side's spaces.
        self.slot_offsets = {name: i * (2 + nc) for name, i in self.spaces.items()}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and copied) as its card set's name: a new encoder, its caches (kept
        entries as memoryviews, which do not pickle) made again as it encodes. Compiled, a
        native class is not made empty for the default protocol to fill."""
        return (SashimonoEncoder, (self.card_set,))

    def capture(self, state: Any, seat: int | None) -> Any:
        """The part of ``view(seat)`` that :meth:`encode_into` reads, from the state's fields
        (:func:`sengoku.games.sashimono.snapshot.snapshot`, compiled): the view's dict
        without what the encoder leaves out, hidden as the view hides it."""
        if not isinstance(state, SashimonoState):
            return state.view(seat)
        return snapshot(state, seat)

    def _stack_vector(self, stack: Mapping[str, Any]) -> Any:
        """A Kumi stack's entries (a memoryview of float32), made once per kind of stack."""
        what = (stack["face"], stack["types"], stack["rank"], stack["attack"], stack["defence"])
        vector = self._stack_vectors.get(what)
        if vector is None:
            made = np.zeros(self.STACK, np.float32)
            self._stack(made, 0, stack)
            vector = self._stack_vectors[what] = made.data
        return vector

    def _stack(self, out: np.ndarray, at: int, stack: Mapping[str, Any] | None) -> None:
        if stack is None:
            return
        out[at] = 1.0
        out[at + 1] = 1.0 if stack["face"] == "up" else 0.0
        out[at + 3] = stack["rank"]
        out[at + 4] = stack["attack"]
        out[at + 5] = stack["defence"]
        types = stack["types"]
        if types is None:
            out[at + 2] = 1.0
            return
        for level, letter in enumerate(types):
            out[at + 6 + level * 3 + self.kumi[letter]] = 1.0

    def _stacks(self, out: np.ndarray, at: int, key: tuple[int, int], stacks: list[Any]) -> None:
        """Kumi stacks one after another from ``at`` (a Sonae, or the Kagemusha's line),
        ``key`` naming whose and for which observer. The entries of those stacks are kept as
        one block per key (a memoryview), copied into ``out`` with one slice; only the stacks
        that differ from the last ones of that key (copies: a stack holds only strings and
        numbers) are written into the block again, each from the kept entries of a stack
        equal to it. Memoryview slices, not numpy's: a numpy slice assignment costs about a
        microsecond."""
        cached = self._stack_cache.get(key)
        size = self.STACK
        if cached is None or len(cached[0]) != len(stacks):
            cached = ([_UNSET] * len(stacks), np.zeros(len(stacks) * size, np.float32).data)
            self._stack_cache[key] = cached
        shown, block = cached
        if shown != stacks:
            for i, stack in enumerate(stacks):
                if stack != shown[i]:
                    if stack is None:
                        clear_entries(block, i * size, (i + 1) * size)
                        shown[i] = None
                        continue
                    block[i * size : (i + 1) * size] = self._stack_vector(stack)
                    shown[i] = dict(stack)
        w: Any = entries_of(out)
        w[at : at + len(block)] = block

    def _ordered_cards(self, w: Entries, at: int, ids: list[str]) -> None:
        cards = self.cards
        for position, card in enumerate(ids):
            w[at + cards[card]] = position + 1

    def encode_into(self, view: Mapping[str, Any], seat: int | None, out: np.ndarray) -> None:
        w = entries_of(out)
        observer = seat if seat is not None else -1  # a spectator sees less than seat 0
        who = self._who(seat)
        for side in view["sides"]:
            self._side(w, out, observer, who, side)
        kage = view.get("kagemusha")
        if kage is not None:
            self._kagemusha(w, out, observer, kage)
        self._rest(w, who, view)

    @staticmethod
    def _who(seat: int | None) -> Callable[[int], int]:
        """Seat -> observer 0, other seat 1, Kagemusha 2."""
        me = seat if seat is not None else 0
        return {-1: 1, 0: 1, 1: 1, 2: 2, me: 0}.__getitem__

    def encode_changed(
        self, view: Mapping[str, Any], seat: int | None, out: np.ndarray, kept: list[Any]
    ) -> list[tuple[int, int]]:
        """Bring ``out`` from the encoding it holds to ``view``'s: ``kept`` is the caller's
        list for that ``out`` (empty with a zeroed ``out``: everything is written), which this
        method keeps, holding what each block of ``out`` was last written from (the observer,
        the Kagemusha's part, each side's part). Only the blocks whose part differs are zeroed
        and written again (the turn, battle, card played, prompt and cards looked at always
        are): the same entries as :meth:`encode_into` on a zeroed array. Returns the
        ``(start, stop)`` of the blocks written, in order."""
        observer = seat if seat is not None else -1
        sides = view["sides"]
        kage = view.get("kagemusha")
        if not kept or kept[0] != observer or len(kept) != 2 + len(sides):
            if kept:
                out.fill(0.0)
            kept[:] = [observer, kage, *sides]
            self.encode_into(view, seat, out)
            return [(0, len(out))]
        w = entries_of(out)
        who = self._who(seat)
        o = self.offsets
        written: list[tuple[int, int]] = []
        for k, side in enumerate(sides):
            before = kept[2 + k]
            if side != before and side["seat"] == before["seat"]:
                # The same seat's block: only its parts that changed are written.
                start = o["sides"] + who(side["seat"]) * self.side_size
                self._side_changed(w, start, side, before)
                written.append((start, start + self.side_size))
                kept[2 + k] = side
            elif side != before:
                # Both blocks, where the part at this place was another seat's.
                for part in (before, side):
                    start = o["sides"] + who(part["seat"]) * self.side_size
                    if (start, start + self.side_size) not in written:
                        clear_entries(w, start, start + self.side_size)
                        written.append((start, start + self.side_size))
                self._side(w, out, observer, who, side)
                kept[2 + k] = side
        if kage != kept[1]:
            start, stop = o["kagemusha"], o["globals"]
            clear_entries(w, start, stop)
            if kage is not None:
                self._kagemusha(w, out, observer, kage)
            kept[1] = kage
            written.append((start, stop))
        start = o["globals"]
        clear_entries(w, start, len(out))
        self._rest(w, who, view)
        written.append((start, len(out)))
        return written

    def _rest(self, w: Entries, who: Callable[[int], int], view: Mapping[str, Any]) -> None:
        """From the globals on: VP target, turn, who acts, battle, card played, prompt, cards
        looked at."""
        at = self.offsets["globals"]
        w[at] = view["vp_target"]
        w[at + 1] = view["turn"]
        w[at + 2 + who(view["turn_seat"])] = 1.0
        if view["current_player"] >= 0:
            w[at + 5 + who(view["current_player"])] = 1.0
        battle = view.get("battle")
        if battle is not None:
            self._battle(w, who, battle)
        played = view.get("played")
        if played is not None:
            self._played(w, played)
        prompt = view.get("prompt")
        if prompt is not None:
            at = self.offsets["prompt"]
            w[at] = 1.0
            w[at + 1 + who(prompt["seat"])] = 1.0
            w[at + 4 + self.questions.get(prompt["question"], len(self.QUESTIONS))] = 1.0
        looking = view.get("looking")
        if looking is not None:
            self._looking(w, who, looking)

    def _side(
        self,
        w: Entries,
        out: np.ndarray,
        observer: int,
        who: Callable[[int], int],
        side: Mapping[str, Any],
    ) -> None:
        """One seat's side: army, Sonae, hand, counts, Sashimono shown, slots, VP, scored."""
        cards = self.cards
        nc = self.num_cards
        at = self.offsets["sides"] + who(side["seat"]) * self.side_size
        w[at] = 1.0
        w[at + 1 + self.army_index[side["army"]]] = 1.0
        at += 3
        self._stacks(out, at, (observer, side["seat"]), side["sonae"])
        at += self.CELLS * self.STACK
        self._hand(w, at, side["hand"])
        at += self.HAND_MAX * 3
        _write_counts(w, at, side)
        at += 4
        shown = side["sashimono_hand"]
        if shown:
            for position, card in enumerate(shown, 1):
                w[at + cards[card]] = position
        at += nc
        self._slots(w, at, side["slots"])
        at += self.SPACES * (2 + nc)
        w[at] = side["vp"]
        scored = side["scored"]
        if scored:
            for position, card in enumerate(scored, 1):
                w[at + 1 + cards[card]] = position

    def _side_changed(
        self, w: Any, at: int, side: Mapping[str, Any], before: Mapping[str, Any]
    ) -> None:
        """:meth:`_side`'s block at ``at`` brought from ``before``'s entries to ``side``'s (the
        same seat's, for the same observer): the army, each Kumi stack of the Sonae, the hand,
        the Sashimono hand, the spaces around the Sonae and the scored cards written only
        where they differ (zeroed first), the counts and VP always. A ply changes one or two
        of them: a side's block is 600-odd entries, mostly the stacks and spaces."""
        cards = self.cards
        nc = self.num_cards
        army = side["army"]
        if army != before["army"]:
            w[at + 1] = 0.0
            w[at + 2] = 0.0
            w[at + 1 + self.army_index[army]] = 1.0
        at += 3
        sonae, was = side["sonae"], before["sonae"]
        if sonae != was:
            size = self.STACK
            for i, stack in enumerate(sonae):
                if i < len(was) and stack == was[i]:
                    continue
                k = at + i * size
                clear_entries(w, k, k + size)
                if stack is None:
                    continue
                w[k : k + size] = self._stack_vector(stack)
            if len(was) > len(sonae):
                clear_entries(w, at + len(sonae) * size, at + len(was) * size)
        at += self.CELLS * self.STACK
        hand = side["hand"]
        if hand != before["hand"]:
            clear_entries(w, at, at + self.HAND_MAX * 3)
            self._hand(w, at, hand)
        at += self.HAND_MAX * 3
        _write_counts(w, at, side)
        at += 4
        shown = side["sashimono_hand"]
        if shown != before["sashimono_hand"]:
            clear_entries(w, at, at + nc)
            if shown:
                for position, card in enumerate(shown, 1):
                    w[at + cards[card]] = position
        at += nc
        slots = side["slots"]
        if slots != before["slots"]:
            clear_entries(w, at, at + self.SPACES * (2 + nc))
            self._slots(w, at, slots)
        at += self.SPACES * (2 + nc)
        w[at] = side["vp"]
        scored = side["scored"]
        if scored != before["scored"]:
            clear_entries(w, at + 1, at + 1 + nc)
            if scored:
                for position, card in enumerate(scored, 1):
                    w[at + 1 + cards[card]] = position

    def _hand(self, w: Entries, at: int, hand: list[str] | None) -> None:
        """A side's Kumi hand by position (None or empty: nothing)."""
        if not hand:
            return
        if len(hand) > self.HAND_MAX:
            raise SengokuError(f"sashimono: a hand of {len(hand)} Kumi is over the bound")
        kumi = self.kumi
        k = at
        for letter in hand:
            w[k + kumi[letter]] = 1.0
            k += 3

    def _slots(self, w: Entries, at: int, slots: Mapping[str, Any]) -> None:
        """The Sashimono cards on the spaces around a Sonae (present, bowed, card)."""
        cards = self.cards
        slot_at = self.slot_offsets
        for space, placed in slots.items():
            k = at + slot_at[space]
            w[k] = 1.0
            if placed["bowed"]:
                w[k + 1] = 1.0
            w[k + 2 + cards[placed["card"]]] = 1.0

    def _kagemusha(
        self, w: Entries, out: np.ndarray, observer: int, kage: Mapping[str, Any]
    ) -> None:
        """The solo game's automaton: army, Kumi line, counts, Sashimono line, discards."""
        cards = self.cards
        nc = self.num_cards
        at = self.offsets["kagemusha"]
        w[at + self.army_index[kage["army"]]] = 1.0
        at += 2
        line = kage["kumi_line"]
        if len(line) > self.KAGE_LINE_MAX:
            raise SengokuError(f"sashimono: a Kagemusha line of {len(line)} is over the bound")
        self._stacks(out, at, (observer, 2), line)
        at += self.KAGE_LINE_MAX * self.STACK
        w[at] = kage["kumi_deck_count"]
        w[at + 1] = kage["sashimono_deck_count"]
        w[at + 2] = kage["army_position"]
        w[at + 3] = kage["vp"]
        at += 4
        for position, placed in enumerate(kage["sashimono_line"]):
            k = cards[placed["card"]]
            w[at + k] = position + 1
            w[at + nc + k] = 1.0 if placed["bowed"] else 0.0
        at += 2 * nc
        self._ordered_cards(w, at, kage["scored"])
        at += nc
        kumi = self.kumi
        for letter in kage["discarded_kumi"]:
            w[at + kumi[letter]] += 1.0

    def _battle(self, w: Entries, who: Callable[[int], int], battle: Mapping[str, Any]) -> None:
        at = self.offsets["battle"]
        w[at] = 1.0
        w[at + 1 + who(battle["attacker"])] = 1.0
        w[at + 4 + who(battle["defender"])] = 1.0
        w[at + 7 + self.lines[battle["attack_line"]]] = 1.0
        w[at + 7 + self.LINES + self.lines[battle["defence_line"]]] = 1.0
        for s, count in battle["ante_counts"].items():
            w[at + 7 + 2 * self.LINES + who(int(s))] = count
        w[at + 10 + 2 * self.LINES] = battle["bonus"]

    def _played(self, w: Entries, played: Mapping[str, Any]) -> None:
        nc = self.num_cards
        at = self.offsets["played"]
        w[at] = 1.0
        w[at + 1 + self.cards[played["card"]]] = 1.0
        w[at + 1 + nc + self.spaces[played["slot"]]] = 1.0
        w[at + 1 + nc + self.SPACES + self.lines[played["line"]]] = 1.0
        base = at + 1 + nc + self.SPACES + self.LINES
        for position, effect in enumerate(played["used"]):
            w[base + effect] = position + 1

    def _looking(self, w: Entries, who: Callable[[int], int], looking: Mapping[str, Any]) -> None:
        at = self.offsets["looking"]
        w[at] = 1.0
        w[at + 1 + who(looking["owner"])] = 1.0
        kind_sashimono = looking["kind"] == "sashimono"
        w[at + 4 + (1 if kind_sashimono else 0)] = 1.0
        w[at + 6] = looking["count"]
        shown = looking["cards"] or []
        if kind_sashimono:
            self._ordered_cards(w, at + 7 + self.LOOK_MAX * 3, shown)
        else:
            kumi = self.kumi
            for position, letter in enumerate(shown):
                w[at + 7 + position * 3 + kumi[letter]] = 1.0


def _write_counts(w: Entries, at: int, side: Mapping[str, Any]) -> None:
    """A side's four counts: its hand and deck of Kumi, its hand and deck of Sashimono."""
    w[at] = side["hand_count"]
    w[at + 1] = side["deck_count"]
    w[at + 2] = side["sashimono_hand_count"]
    w[at + 3] = side["sashimono_deck_count"]
