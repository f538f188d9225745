"""Sashimono (Joshua Sprung, Lore Chase Games): the Game description, options and notation.

Properties: two players (the duel) or one player against the Kagemusha automaton (the solo
mode); sequential; imperfect information (hands, deck orders, Hidden Kumi); chance only in
the shuffles at setup, stored in the state. Cards are data (``cards/*.toml``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from sengoku.core.describe import ActionDescription, load_view_schema
from sengoku.core.features import Features
from sengoku.core.game import (
    Action,
    Game,
    IllegalAction,
    InvalidOption,
    Option,
    ParseError,
    State,
    action_number,
)
from sengoku.core.game_type import GameType
from sengoku.core.observation import Encoder
from sengoku.core.sentence import say
from sengoku.core.traits import Traits
from sengoku.games.sashimono.cards import (
    CardError,
    available_card_sets,
    card_set,
    check_set_name,
    describe_effect,
)
from sengoku.games.sashimono.state import (
    KAGE,
    KIND_OFFSET,
    KIND_SIZE,
    LINE_NAMES,
    NUM_ACTIONS,
    SLOTS,
    Act,
    SashimonoState,
    attack_of,
    defence_of,
    is_up,
    rank,
    types_of,
)

if TYPE_CHECKING:
    from sengoku.core.batch import GameBatch
    from sengoku.core.native_play import NativePlay


@dataclass(frozen=True)
class CardSetOption(Option):
    """The card set, chosen by *name* ('' or 'sengoku': ours; else a set installed on this
    machine). A name is never a path: a server accepts options from anyone."""

    def check(self, value: Any) -> Any:
        try:
            check_set_name(value)
            if value:
                card_set(value)
        except CardError as exc:
            raise InvalidOption(f"option {self.name!r}: {exc}") from None
        return value

    def describe_allowed(self) -> str:
        return "'' (our card set) or the name of a card set: " + ", ".join(available_card_sets())

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "allowed": ["", *available_card_sets()]}


def _flag(name: str, doc: str) -> Option:
    return Option(name, False, (False, True), doc)


class Sashimono(Game):
    game_type = GameType(
        # The catalog's words the server translates (sengoku/server/texts.py).
        catalog_words=frozenset({"text", "ongoing_text"}),
        name="sashimono",
        title="Sashimono: the duel of the Sonae, or one player against the Kagemusha",
        # 2: Tanaka Yoshimasa and Chado changed; a training may be declined (issue 15)
        version=2,
        min_players=1,
        max_players=2,
        # hands, deck orders and Hidden Kumi are secret
        perfect_information=False,
        chance=True,
        renderer="sashimono",
        gymnasium_environments={"sengoku/SashimonoSolo-v1": {"mode": "solo"}},
        bench_presets=({}, {"mode": "solo"}),
        # the command line's --cards FILE: a card set in the card language
        file_options=("cards",),
        # Game.batch keeps the games in the native core (batch.py) where it is built.
        provides_native_batch=True,
        # Played out, the rules name a winner; an agreement to stop is the players' own act
        # beside the rules, as a resignation is (sengoku/server/draws.py).
        provides_draws_by_agreement=True,
    )
    options: ClassVar[Mapping[str, Option]] = {
        "mode": Option("mode", "duel", ("duel", "solo"),
                       "duel: two players (West seat 0, East seat 1); solo: one player "
                       "against the Kagemusha automaton"),
        "vp": Option("vp", 3, range(1, 10),
                     "VP to win: 2 for a first game, 3 typical, 4 an epic challenge"),
        "army": Option("army", "west", ("west", "east"),
                       "solo mode: the army you lead (the Kagemusha takes the other)"),
        "cards": CardSetOption("cards", "", (),
                               "the card set's name ('' = our original set); an operator "
                               "installs others in $SENGOKU_CARD_DIR"),
        "challenge_corners": _flag("challenge_corners",
                                   "solo challenge: when the Army rounds a corner (6 to 7, 12 to 1) "
                                   "the Kagemusha adds its top Sashimono to its line"),
        "challenge_six_sashimono": _flag("challenge_six_sashimono",
                                         "solo challenge: the Kagemusha holds 6 Sashimono; a 7th "
                                         "makes it score its first one instead"),
        "challenge_abilities": _flag("challenge_abilities",
                                     "solo challenge: the ongoing effects of the Kagemusha's "
                                     "Sashimono are not ignored"),
        "challenge_discard_five": _flag("challenge_discard_five",
                                        "solo challenge: discard the top 5 of the Kagemusha's "
                                        "Kumi deck at setup"),
        "challenge_fewer_kumi": _flag("challenge_fewer_kumi",
                                      "solo challenge: you draw 1 fewer Kumi at the end of each "
                                      "of your turns"),
        "challenge_train": _flag("challenge_train",
                                 "solo challenge: at the check, extra matching Kumi train the "
                                 "rightmost legal Kumi instead of being discarded"),
    }  # fmt: skip
    # -- Declared hooks (see sengoku.core.game.Game) -------------------------------------

    def describe_action(self, state: State, action: Any) -> ActionDescription:
        return self.describe_actions(state, [action])[0]

    def describe_actions(self, state: State, actions: Sequence[Any]) -> list[ActionDescription]:
        from sengoku.games.sashimono.describe import describe, own_hands

        if not isinstance(state, SashimonoState):
            raise IllegalAction(f"not a Sashimono position: {type(state).__name__}")
        hands = own_hands(state)
        return [describe(state, a, hands) for a in actions]

    def view_schema(self) -> dict[str, Any]:
        return load_view_schema(Path(__file__).parent)

    def catalog(self, **options: Any) -> dict[str, Any]:
        from sengoku.games.sashimono.describe import catalog

        return catalog(card_set(self.resolve_options(**options)["cards"]))

    def features(self) -> Features:
        from sengoku.games.sashimono.features import FEATURES

        return FEATURES

    def batch(self, **options: Any) -> GameBatch:
        # The native core keeps the games in C++ (batch.py), with the contract's numbers;
        # without it (a pure-Python build, SENGOKU_PURE_PYTHON), one contract state a game.
        import sengoku.games.sashimono.native_core as native_core

        if not native_core.native_available():
            return super().batch(**options)
        from sengoku.games.sashimono.batch import SashimonoBatch

        return SashimonoBatch(self, **options)

    def native_play(self, **options: Any) -> NativePlay | None:
        # The research adapters step native matches where the core is built.
        import sengoku.games.sashimono.native_core as native_core

        if not native_core.native_available():
            return None
        return native_core.native_play(self, self.resolve_options(**options))

    def observation_encoder(self, **options: Any) -> Encoder:
        from sengoku.games.sashimono.encoder import SashimonoEncoder

        return SashimonoEncoder(options["cards"])

    def scripted_players(self) -> Mapping[str, Callable[[State, random.Random], Action]]:
        from sengoku.games.sashimono.selfplay import greedy_player

        return {"greedy": greedy_player}

    def selfplay_figures(self, finals: Sequence[State]) -> dict[str, Any]:
        from sengoku.games.sashimono.selfplay import figures

        return figures(finals)

    def option_from_file(self, option: str, path: str) -> Any:
        """``cards``: a card file or folder in the card language, registered under a name (the
        option itself only ever holds a name)."""
        if option != "cards":
            return super().option_from_file(option, path)
        from sengoku.games.sashimono.cards import register_card_file

        return register_card_file(path)

    def traits(self, **options: Any) -> Traits:
        # Shuffled decks; solo play has one player (general-sum), a duel is +1 / -1.
        duel = options.get("mode") != "solo"
        return Traits(stochastic=True, zero_sum=duel, perfect_information=False)

    def new_state(self, seed: int = 0, **options: Any) -> SashimonoState:
        opts = self.resolve_options(**options)
        st = SashimonoState(self, opts, card_set(opts["cards"]))
        st.setup(seed)
        return st

    def num_distinct_actions(self, **options: Any) -> int:
        return NUM_ACTIONS

    def action_to_int(self, state: State, action: Action) -> int:
        if not isinstance(action, Act):
            raise ParseError(say("{action} is not a Sashimono action", action=repr(action)))
        return KIND_OFFSET[action.kind] + action.arg

    #: ``action_to_int`` of a legal action, which needs no state (core/game.py): the
    #: adapters map it over every position's legal list, and the OpenSpiel state then keeps
    #: the legal actions beside their integers (the action applied is found by a binary
    #: search, not by ``int_to_action``'s scan of the legal list).
    action_int = staticmethod(Act.__int__)

    def int_to_action(self, state: State, n: int) -> Action:
        n = action_number(n, NUM_ACTIONS)
        legal: list[Act] = state.legal_actions()
        for a in legal:
            if self.action_to_int(state, a) == n:
                return a
        kind = max(k for k in range(len(KIND_SIZE)) if KIND_OFFSET[k] <= n)
        return Act(kind, n - KIND_OFFSET[kind], f"#{n}", f"#{n}")

    #: The length guard (any options; core/game.py ``Game.length_limit``).
    length_limit = 4000

    def state_from_json(self, data: Mapping[str, Any]) -> SashimonoState:
        opts = self.resolve_options(**dict(data["options"]))
        return SashimonoState.from_json(self, dict(data), card_set(opts["cards"]))

    def format_action(self, state: State, action: Action) -> str:
        if isinstance(action, Act) and action.short:
            return action.short
        return str(action)

    def render_text(self, state: State, seat: int | None) -> str:
        assert isinstance(state, SashimonoState)
        return render(state, seat)


def _cell(st: str | None, show: bool) -> str:
    if st is None:
        return "   .   "
    if is_up(st):
        return f"{types_of(st):>4}^{attack_of(st)}{defence_of(st)}"
    if show:
        return f"{types_of(st).lower():>4}v{attack_of(st)}{defence_of(st)}"
    return f"{'?' * rank(st):>4}v{rank(st)}{rank(st)}"


def _card_line(st: SashimonoState, c: int) -> str:
    card = st.card(c)
    acts = "; ".join(
        f"{a.name} [{' '.join(a.requires) or '-'}]: {describe_effect(a.effect)}"
        for a in card.actions
    )
    ongoing = ""
    if card.ongoing and "modifier" in card.ongoing:
        o = card.ongoing
        ongoing = f"; ongoing: +{o['amount']} {o['modifier']} ({o['scope']})"
    elif card.ongoing:
        o = card.ongoing
        ongoing = f"; ongoing: on {o['trigger']}: {describe_effect(o['effect'])}"
    return f"{card.id}: {card.text or card.score_text} | {acts}{ongoing}"


def render(st: SashimonoState, seat: int | None) -> str:
    """A terminal drawing: each Sonae with its 12 Sashimono spaces, hands as the seat sees them."""
    lines: list[str] = []
    header = f"Sashimono ({st.options['mode']}, to {st.target} VP), turn {st.turn_order.count}"
    lines.append(header)
    seats = [0] if st.solo else [0, 1]
    for s in seats:
        side = st.sides[s]
        own = seat == s
        lines.append("")
        lines.append(f"== {side.army.capitalize()} (seat {s}) VP {side.vp} ==")
        army = st.sides[KAGE].army_pos if st.solo and s == 0 else -1

        def slot(p: int, side: Any = side, army: int = army) -> str:
            c = side.slots[p]
            if c is None:
                return " [ARMY] " if p == army else "   --   "
            card = st.card(c)
            mark = "*" if side.bowed[p] else " "
            return f"{mark}{card.id[:7]:<7}"

        lines.append(" " * 12 + "".join(f"{slot(p):<8}" for p in (0, 1, 2)))
        for r in range(3):
            left = slot(11 - r)
            right = slot(3 + r)
            row = " ".join(_cell(side.cells[r * 3 + c], own) for c in range(3))
            lines.append(f"{left:<9} {r + 1} {row} {right}")
        lines.append(" " * 12 + "".join(f"{ch:^8}" for ch in "abc"))
        lines.append(" " * 12 + "".join(f"{slot(p):<8}" for p in (8, 7, 6)))
        if own:
            hand = " ".join(f"h{i + 1}:{t}" for i, t in enumerate(side.hand)) or "-"
            lines.append(f"Kumi hand: {hand}   (deck {len(side.deck)})")
            lines.append(f"Sashimono hand ({len(side.shand)}; deck {len(side.sdeck)}):")
            for c in side.shand:
                lines.append("  " + _card_line(st, c))
        else:
            lines.append(
                f"Kumi hand: {len(side.hand)} cards (deck {len(side.deck)}); "
                f"Sashimono hand: {len(side.shand)} (deck {len(side.sdeck)})"
            )
        for p, placed in enumerate(side.slots):
            if placed is not None:
                bow = "BOWED " if side.bowed[p] else ""
                lines.append(f"  {SLOTS[p]}: {bow}{_card_line(st, placed)}")
    if st.solo:
        k = st.sides[KAGE]
        lines.append("")
        lines.append(
            f"== The Kagemusha ({k.army}) VP {k.vp}, Army at {k.army_pos + 1} "
            f"({SLOTS[k.army_pos]}), Kumi deck {len(k.deck)}, Sashimono deck {len(k.sdeck)} =="
        )
        lines.append(
            "Kumi line: "
            + (" ".join(f"k{i + 1}:{_cell(c, True).strip()}" for i, c in enumerate(k.cells)) or "-")
        )
        for c, b in zip(k.sline, k.sbowed, strict=True):
            card = st.card(c)
            lines.append(
                f"  trap {'BOWED ' if b else ''}{card.name}: {card.text or card.score_text}"
            )
    if st.battle is not None:
        fight = st.battle
        lines.append(
            f"Battle: seat {fight['att']} {LINE_NAMES[fight['aline']]} attacks "
            f"{LINE_NAMES[fight['dline']]}; "
            f"antes {', '.join(f'{k2}: {len(v)}' for k2, v in fight['ante'].items())}"
        )
    if st.look.cards and seat == st.look.owner:
        shown = [c if isinstance(c, str) else st.card(c).id for c in st.look.cards]
        lines.append("Looking at: " + " ".join(f"L{i + 1}:{c}" for i, c in enumerate(shown)))
    if st.ctx.get("slot") is not None:
        card = st.card(st.ctx["card"])
        lines.append(f"Played {card.name} at {SLOTS[st.ctx['slot']]}; actions:")
        for a in (*card.actions, *st.cs.reference):
            lines.append(f"  {a.name} [{' '.join(a.requires) or '-'}]: {describe_effect(a.effect)}")
    result = st.outcome()
    if result is not None:
        lines.append(f"Game over: {result.reason}; winners {list(result.winners)}")
    elif st.prompt is not None:
        prompt = st.prompt
        who = "the Kagemusha" if prompt.seat == KAGE else f"seat {prompt.seat}"
        lines.append(f"{who} to decide: {prompt.rule}")
    return "\n".join(lines)
