"""Gunshi: The Art of Strategy (Satochika Daimon; Grandoor Games / BigGate Inc.).

Two players, perfect recall, hidden information (the Shogun, hands, deck order, face-down
Command Row cards, prepared Advanced cards), no chance after setup except Modification 1's
random draw of Advanced cards. Red (seat 0) moves first. See ``docs/rules/gunshi.md``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from sengoku.core.describe import ActionDescription, load_view_schema
from sengoku.core.features import Features
from sengoku.core.game import (
    Game,
    InvalidOption,
    Option,
    ParseError,
    SengokuError,
    State,
    normalize_notation,
    pick_one,
)
from sengoku.core.game_type import GameType
from sengoku.core.observation import Encoder
from sengoku.core.traits import Traits
from sengoku.games.gunshi.actions import NUM_ACTIONS, SHORT_KINDS, GunshiAction
from sengoku.games.gunshi.data import (
    CARDS,
    DECKS,
    EDGE_NAMES,
    FORMATIONS,
    MAX_GAME_LENGTH,
    agreed_cards,
    parse_deck,
    parse_edge,
)
from sengoku.games.gunshi.state import GunshiState

if TYPE_CHECKING:
    from sengoku.core.batch import GameBatch
    from sengoku.core.native_play import NativePlay

#: Tournament time control (rulebook, Official Tournament-Style Games): 20 minutes per player,
#: no byoyomi. The server keeps the time; ``GunshiState.clock_seat`` says whose clock runs.
TOURNAMENT_SECONDS = 20 * 60
TOURNAMENT_BYOYOMI_SECONDS = 0


class CapOption(Option):
    """An integer option that may also be None (no cap)."""

    def check(self, value: Any) -> Any:
        if value is None or (
            isinstance(value, int) and not isinstance(value, bool) and value in self.allowed
        ):
            return value
        raise InvalidOption(
            f"option {self.name!r}: {value!r} is not allowed; allowed: {self.describe_allowed()}"
        )

    def describe_allowed(self) -> str:
        assert isinstance(self.allowed, range)
        return f"None (no cap) or integers {self.allowed.start}..{self.allowed.stop - 1}"


class DeckOption(Option):
    """The agreed deck of Optional Rule 2: a rulebook example by name, or any legal deck.

    ``allowed`` is empty, as for other free-form options: clients offer a text field. A
    description is stored in its canonical form (codes in card order, space-separated).
    """

    def check(self, value: Any) -> Any:
        if isinstance(value, str) and value in DECKS:
            return value
        if not isinstance(value, str):
            raise InvalidOption(
                f"option {self.name!r}: a deck name or description (a string) is needed, "
                f"got {value!r}"
            )
        try:
            return " ".join(parse_deck(value))
        except SengokuError as exc:
            raise InvalidOption(f"option {self.name!r}: {exc}") from None

    def describe_allowed(self) -> str:
        return (
            f"a rulebook example ({', '.join(DECKS)}) or 7 cards by code or name, e.g. "
            "'M M Re F Rapid Scout Light' or 'Move, 2x Reorient or Shoot, Build Fence, ...'"
        )


PRESETS = ("none", *FORMATIONS, *DECKS)


def _refuse_idle_options(o: dict[str, Any], given: Mapping[str, Any]) -> None:
    """Refuse an option set to a value other than its default where it would do nothing.

    The default value is always accepted (a client may send every option, and a resolved
    option set must load again); any other value must change the game, or the player would
    believe they play a rule they do not.
    """

    def changed(name: str) -> bool:
        return name in given and o[name] != OPTIONS[name].default

    variant = "custom" if o["preset"] in DECKS else o["variant"]
    if changed("modification") and variant != "inspiration":
        raise InvalidOption(
            f"option 'modification' chooses a Modification of The Gunshi's Inspiration; it "
            f"does nothing with variant {variant!r} (use variant 'inspiration')"
        )
    custom_only = ("custom_selection", "move_up_for_selection", "agreed_deck")
    for name in custom_only:
        if changed(name) and variant != "custom":
            raise InvalidOption(
                f"option {name!r} belongs to Custom Deck Construction; it does nothing with "
                f"variant {variant!r} (use variant 'custom')"
            )
    if o["preset"] in DECKS:
        if changed("custom_selection") and o["custom_selection"] != "agreed":
            raise InvalidOption(
                f"option 'custom_selection': preset {o['preset']!r} is an agreed deck "
                f"(Optional Rule 2); {o['custom_selection']!r} cannot apply to it"
            )
        if changed("agreed_deck") and o["agreed_deck"] != o["preset"]:
            raise InvalidOption(
                f"option 'agreed_deck': preset {o['preset']!r} already fixes the deck; give "
                "one of the two"
            )
    elif changed("agreed_deck") and o["custom_selection"] != "agreed":
        raise InvalidOption(
            "option 'agreed_deck' is the deck of Optional Rule 2; it does nothing unless "
            f"custom_selection is 'agreed' (not {o['custom_selection']!r})"
        )
    if changed("sanryaku"):
        if variant == "basic":
            raise InvalidOption(
                "option 'sanryaku' adds the promo cards to the Advanced cards of the advanced "
                "variants; it does nothing with variant 'basic'"
            )
        agreed = variant == "custom" and (o["preset"] in DECKS or o["custom_selection"] == "agreed")
        deck = o["preset"] if o["preset"] in DECKS else o["agreed_deck"]
        if agreed and not any(CARDS[c].set == "sanryaku" for c in agreed_cards(deck)):
            raise InvalidOption(
                "option 'sanryaku' does nothing with an agreed deck (Optional Rule 2): the "
                "deck is fixed; name a promo card in agreed_deck to play one"
            )
    if changed("formation_fences") and o["preset"] in FORMATIONS:
        raise InvalidOption(
            f"option 'formation_fences' rules Phase 1; preset {o['preset']!r} skips it with a "
            "ready formation"
        )


OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option(
            "variant",
            "basic",
            ("basic", "inspiration", "custom"),
            "basic rules; Advanced Variant 1 'The Gunshi's Inspiration'; Advanced Variant 2 "
            "'Custom Deck Construction'",
        ),
        Option(
            "modification",
            1,
            (1, 2, 3),
            "The Gunshi's Inspiration: Modification 1 (3 random hidden cards), 2 (3 chosen "
            "cards), 3 (2 chosen, revealed, duplicates cancelled, shared)",
        ),
        Option(
            "custom_selection",
            "alternate",
            ("alternate", "alternate_all", "agreed", "secret"),
            "Custom Deck Construction: alternate picks after one Move each; alternate_all = "
            "alternate with Optional Rule 1 (all 7 picked, Blue first); Optional Rule 2 (an "
            "agreed deck, see agreed_deck); Optional Rule 3 (each deck chosen in secret). Rules "
            "2 and 3 combine with Rule 1 through move_up_for_selection",
        ),
        Option(
            "move_up_for_selection",
            False,
            (False, True),
            "Custom Deck Construction, Optional Rule 1: nobody takes a Move in step 2; the Move "
            "is up for selection too (with alternate picks: Blue starts, 7 picks; with an "
            "agreed or secret deck: the deck need not hold a Move)",
        ),
        DeckOption(
            "agreed_deck",
            "wave_after_wave",
            (),
            "the deck both players agreed on (custom_selection=agreed): a rulebook example "
            "name, or any 7 legal cards by code or name",
        ),
        Option(
            "sanryaku",
            False,
            (False, True),
            "add the Sanryaku promo cards (Rapid Fire, Strategic Switch, Chain Trap) to the "
            "Advanced cards of both variants",
        ),
        Option(
            "preset",
            "none",
            PRESETS,
            "a starter formation with the rulebook's card order (first_battle, advanced_1..3), "
            "or a Custom Deck Construction example deck",
        ),
        Option(
            "time_control",
            "none",
            ("none", "tournament"),
            "tournament: 20 minutes each, no byoyomi; the state says whose clock runs",
        ),
        Option(
            "fence_diagonal",
            "neighbour_front",
            ("neighbour_front", "front_cell_sides"),
            "Build Fence 'diagonally left or right': the front edges of the side neighbours "
            "(spec) or the side edges of the cell in front",
        ),
        Option(
            "formation_fences",
            "touching_home",
            ("touching_home", "inside_home"),
            "formation Fences: any inner edge touching your Home Territory (spec) or only edges "
            "between two Home Territory cells",
        ),
        Option(
            "invasion_zone",
            "back_line",
            ("back_line", "centre_three"),
            "the Invasion Zone: the opponent's whole back line (spec) or its 3 centre cells",
        ),
        Option(
            "shoot_block",
            "head_on",
            ("head_on", "any_crossed"),
            "enemy Fences block basic Shoot only head-on along straight forward shots (spec), "
            "or also side shots across them",
        ),
        Option(
            "shield_hit_breaks_fences",
            False,
            (False, True),
            "whether an attacker that only removes a Shield (and stays) destroys the enemy "
            "Fences around its own cell (spec: no)",
        ),
        Option(
            "shield_hit_facing",
            "turn",
            ("turn", "keep"),
            "an attacker that only removes a Shield turns to face its attack (turn) or keeps "
            "its facing",
        ),
        Option(
            "lightning_alone_resupply",
            0,
            (0, 1),
            "Re-Supply points when only the Lightning position holds a card (spec: 0)",
        ),
        CapOption(
            "logistics_cap",
            None,
            range(18, 1000),
            "upper limit of Military Logistics Points (spec: none)",
        ),
    )
}


class Gunshi(Game):
    game_type = GameType(
        # The catalog's words the server translates (sengoku/server/texts.py).
        catalog_words=frozenset({"name", "text"}),
        name="gunshi",
        title="Gunshi: The Art of Strategy - hidden Shogun, delayed Command cards, chained units",
        #: 2: Phase 2 fills in only the last deck card (a run of one kind is chosen card by
        #: card), so a version 1 record can lack decisions; it is refused by name, not
        #: mid-replay.
        version=2,
        min_players=2,
        max_players=2,
        perfect_information=False,
        # Only Modification 1 of the Inspiration variant draws from the seed: see traits().
        chance=True,
        renderer="gunshi",
        bench_presets=(
            {},
            {"variant": "inspiration", "modification": 2},
            {"variant": "custom", "sanryaku": True},
            {"preset": "first_battle"},
        ),
        tournament_seconds=TOURNAMENT_SECONDS,
        # a position string (sengoku.games.gunshi.position), read by from_fen
        provides_fen=True,
        # GunshiState.clock_seat follows the tournament rules (phases without a clock).
        provides_clock_rules=True,
        # Played out, the rules name a winner; an agreement to stop is the players' own act
        # beside the rules, as a resignation is (sengoku/server/draws.py).
        provides_draws_by_agreement=True,
        # Game.batch keeps the games in the native core (batch.py) where it is built.
        provides_native_batch=True,
    )
    options: ClassVar[Mapping[str, Option]] = OPTIONS

    def resolve_options(self, **options: Any) -> dict[str, Any]:
        o = super().resolve_options(**options)
        _refuse_idle_options(o, options)
        if o["preset"] in FORMATIONS and o["variant"] != "basic":
            raise InvalidOption(
                f"preset {o['preset']!r} is a formation for the basic rules; it needs "
                f"variant 'basic', not {o['variant']!r}"
            )
        # Optional Rule 1 changes step 2, Rules 2 and 3 replace step 3, so Rule 1 combines with
        # either; 'alternate_all' is the name of Rule 1 with the alternating picks.
        if o["custom_selection"] == "alternate_all":
            o["move_up_for_selection"] = True
        elif o["custom_selection"] == "alternate" and o["move_up_for_selection"]:
            o["custom_selection"] = "alternate_all"
        if o["preset"] in DECKS:
            if o["variant"] == "inspiration":
                raise InvalidOption(
                    f"preset {o['preset']!r} is a Custom Deck Construction deck; it cannot be "
                    "played with The Gunshi's Inspiration"
                )
            o["variant"] = "custom"
            o["custom_selection"] = "agreed"
            o["agreed_deck"] = o["preset"]
        if o["variant"] == "custom" and o["custom_selection"] == "agreed":
            self._check_agreed(o)
        return o

    @staticmethod
    def _check_agreed(o: dict[str, Any]) -> None:
        """Optional Rule 2's deck against the rules that depend on other options."""
        cards = agreed_cards(o["agreed_deck"])
        if "M" not in cards and not o["move_up_for_selection"]:
            raise InvalidOption(
                f"option 'agreed_deck': {o['agreed_deck']!r} holds no Move, but Custom Deck "
                "Construction step 2 gives each player a Move card; leave the Move up for "
                "selection with Optional Rule 1 (move_up_for_selection=true) to agree on a "
                "deck without one"
            )
        if any(CARDS[c].set == "sanryaku" for c in cards):
            o["sanryaku"] = True  # agreeing on a promo card brings the Sanryaku cards in

    # -- Declared hooks (see sengoku.core.game.Game) -------------------------------------

    def describe_action(self, state: State, action: Any) -> ActionDescription:
        from sengoku.games.gunshi.describe import describe

        assert isinstance(state, GunshiState)
        return describe(state, action)

    def view_schema(self) -> dict[str, Any]:
        return load_view_schema(Path(__file__).parent)

    def catalog(self, **options: Any) -> dict[str, Any]:
        from sengoku.games.gunshi.describe import catalog

        return catalog()

    def features(self) -> Features:
        from sengoku.games.gunshi.features import FEATURES

        return FEATURES

    def batch(self, **options: Any) -> GameBatch:
        # The native core keeps the games in C++ (batch.py), with the contract's numbers;
        # without it (a pure-Python build, SENGOKU_PURE_PYTHON), one contract state a game.
        import sengoku.games.gunshi.native_core as native_core

        if not native_core.native_available():
            return super().batch(**options)
        from sengoku.games.gunshi.batch import GunshiBatch

        return GunshiBatch(self, **options)

    def native_play(self, **options: Any) -> NativePlay | None:
        # The research adapters step native matches where the core is built.
        import sengoku.games.gunshi.native_core as native_core

        if not native_core.native_available():
            return None
        return native_core.native_play(self, self.resolve_options(**options))

    def observation_encoder(self, **options: Any) -> Encoder:
        from sengoku.games.gunshi.encoder import GunshiEncoder

        return GunshiEncoder()

    def traits(self, **options: Any) -> Traits:
        # The setup draws from the seed only for Modification 1 of the Inspiration variant
        # (three random hidden Advanced cards per player); every other configuration ignores it.
        draws = options.get("variant") == "inspiration" and options.get("modification") == 1
        return Traits(stochastic=draws, zero_sum=True, perfect_information=False)

    def new_state(self, seed: int = 0, **options: Any) -> GunshiState:
        state = GunshiState(self, self.resolve_options(**options), seed)
        state.setup()
        return state

    def num_distinct_actions(self, **options: Any) -> int:
        return NUM_ACTIONS

    def action_to_int(self, state: State, action: Any) -> int:
        if not isinstance(action, GunshiAction):
            raise ParseError(f"{action!r} is not a Gunshi action")
        return action.to_int()

    #: ``action_to_int`` of a legal action, which needs no state (core/game.py).
    action_int = staticmethod(GunshiAction.to_int)

    def int_to_action(self, state: State, n: int) -> GunshiAction:
        try:
            return GunshiAction.from_int(n)
        except ValueError as exc:
            raise ParseError(str(exc)) from None

    #: The length guard (any options; core/game.py ``Game.length_limit``).
    length_limit = MAX_GAME_LENGTH

    def state_from_json(self, data: Mapping[str, Any]) -> GunshiState:
        return GunshiState.from_json(self, dict(data))

    def format_action(self, state: State, action: Any) -> str:
        """The short form (the bare argument) unless another legal action reads the same.

        Rapid-Move's first step offers ``dir n`` (move first) and ``face n`` (reorient first):
        both are then written in full, as a Gungi move gets its origin only when needed.
        """
        if isinstance(action, GunshiAction) and action.kind in SHORT_KINDS:
            if _short_clash(state, action):
                return str(action)
            return action.arg
        return str(action)

    def parse_action(self, state: State, text: str) -> GunshiAction:
        """Canonical (``to d4``) or short (``d4``) notation; any spelling of an edge."""
        if not isinstance(text, str):
            raise ParseError(
                f"Gunshi notation is a string such as 'to d4' or 'd4', not {type(text).__name__}"
            )
        legal: list[GunshiAction] = state.legal_actions()
        wanted = normalize_notation(_canonical_edges(text))
        exact = [a for a in legal if normalize_notation(str(a)) == wanted]
        if len(exact) == 1:
            return exact[0]
        short = [
            a
            for a, text in zip(legal, _short_forms(legal), strict=True)
            if normalize_notation(text) == wanted
        ]
        if not exact and not short:
            # A bare argument whose short form is written in full because two kinds share it
            # (Rapid-Move's "n"): ambiguous, and the message lists both.
            short = [
                a
                for a in legal
                if isinstance(a, GunshiAction)
                and a.kind in SHORT_KINDS
                and normalize_notation(a.arg) == wanted
            ]
        result = pick_one(text, exact or short, legal)
        assert isinstance(result, GunshiAction)
        return result

    def position(self, state: State) -> str:
        """The compact public position string (see ``sengoku.games.gunshi.position``)."""
        from sengoku.games.gunshi.position import to_position

        assert isinstance(state, GunshiState)
        return to_position(state)

    def from_fen(self, fen: str, **options: Any) -> GunshiState:
        """A battle position from a position string (``sengoku perft gunshi --fen``)."""
        from sengoku.games.gunshi.position import from_position

        return from_position(self, fen, **options)

    def render_text(self, state: State, seat: int | None) -> str:
        from sengoku.games.gunshi.render import render

        assert isinstance(state, GunshiState)
        return render(state, seat)


def _short_forms(legal: list[Any]) -> list[str]:
    """``format_action`` of each legal action, computed together."""
    bare: dict[str, set[str]] = {}
    for a in legal:
        if isinstance(a, GunshiAction) and a.kind in SHORT_KINDS:
            bare.setdefault(a.arg, set()).add(a.kind)
    return [
        a.arg
        if isinstance(a, GunshiAction) and a.kind in SHORT_KINDS and len(bare[a.arg]) == 1
        else str(a)
        for a in legal
    ]


def _short_clash(state: State, action: GunshiAction) -> bool:
    """Whether another legal action has the same short form as ``action``."""
    if state.is_terminal():
        return False
    return any(
        a.kind != action.kind and a.kind in SHORT_KINDS and a.arg == action.arg
        for a in state.legal_actions()
        if isinstance(a, GunshiAction)
    )


_EDGE_RE = re.compile(r"([a-g][1-7][nesw])\s*$", re.IGNORECASE)


def _canonical_edges(text: str) -> str:
    """``fence d4s`` -> ``fence d3n``: an edge may be named from either of its cells."""
    m = _EDGE_RE.search(text.strip())
    if not m:
        return text
    try:
        e = parse_edge(m.group(1))
    except ValueError:
        return text
    return text.strip()[: m.start(1)] + EDGE_NAMES[e]
