"""Sashimono's native core (C++, ``native/core.cpp``): the rules on the integer actions.

The core mirrors the Python engine (``state.py``'s machine of steps and questions and the rule
modules it names) on the same action integers (``KIND_OFFSET[kind] + arg``) and the same
position: a native ``Match`` takes a state as ``SashimonoState.to_json`` writes it and gives
it back the same way, so ``SashimonoState.from_json`` reads a position the core played. Both
modes are played: in the solo mode the core answers the Kagemusha's questions as
``kagemusha.answer`` prescribes.

Nothing of the game's data is typed again in C++: the Rules handed to it are built here from
the card set (``cards.py``: each card's compiled scoring condition as a tree of nodes, its
actions, requirement icons and effects in the card language, its ongoing effect; the
reference card; the Kumi counts and the starting Sonae), the Kumi powers, the bonus actions'
effects (``score_turn.BONUS_EFFECT``), what each condition reads (``bowing.condition_reads``)
and the action space (``decisions.KIND_SIZE``). The operations of the card language go in as
one table (every effect of the set, each once); a task of the core names its operation by
its place there.

A match starts from a state's JSON, or is dealt by the core as ``setup.py`` deals it: the
same shuffles of the same ``random.Random(seed)`` (CPython's Mersenne Twister from the seed's
words, :func:`seed_key`). Events, views and notation stay in Python; the core answers what a
batch of games asks every ply (the legal integers, a decision played, whether the game is
over and its outcome, and ``SashimonoEncoder``'s observation of a seat). ``batch.py`` keeps
a batch's games in it.

``SENGOKU_PURE_PYTHON=1`` in the environment sets the core aside; without the built
extension :func:`native_available` is False and :data:`UNAVAILABLE_REASON` says why.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from sengoku.core.game import State
from sengoku.core.native_module import NativeCore, length_limit
from sengoku.core.native_play import CorePlay
from sengoku.core.python_random import seed_key
from sengoku.games.sashimono.bowing import condition_reads
from sengoku.games.sashimono.cards import (
    ICONS,
    KUMI_POWER,
    KUMI_TYPES,
    OPS,
    Absolute,
    AllOf,
    AnyOf,
    Arithmetic,
    CardAction,
    CardSet,
    Compare,
    Cond,
    Constant,
    Counting,
    Extreme,
    Negative,
    Not,
    Query,
    card_set,
)
from sengoku.games.sashimono.decisions import KIND_SIZE
from sengoku.games.sashimono.score_turn import BONUS, BONUS_EFFECT

if TYPE_CHECKING:
    from sengoku.games.sashimono.encoder import SashimonoEncoder
    from sengoku.games.sashimono.game import Sashimono
    from sengoku.games.sashimono.state import SashimonoState

_CORE = NativeCore("sengoku.games.sashimono._sashimono_native", "Sashimono")
#: Why the native core is not in use (None when it is).
UNAVAILABLE_REASON: str | None = _CORE.unavailable_reason


def native_available() -> bool:
    """Whether Sashimono's native core is built and in use."""
    return _CORE.available()


def module() -> Any:
    """The compiled extension module (raises, saying why, when it is not available)."""
    return _CORE.loaded()


#: The codes the core reads (its enums, in these orders).
_OPS = tuple(OPS)
_WHERE = ("line", "other", "any")
_FACE = ("any", "hidden", "up")
_AXIS = ("any", "row", "column")
_FROM = ("hand", "play", "any")
_POSITIONS = ("corner", "edge", "center", "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
_ARMIES = ("west", "east", "dual")


def _query(q: Query) -> dict[str, int]:
    """A counting function's arguments as the core's numbers (cards.Query's fields)."""
    return {
        "fn": q.fn,
        "face": _FACE.index(q.face),
        "type": -1 if q.kumi_type is None else KUMI_TYPES.index(q.kumi_type),
        "rank": q.rank,
        "min_rank": q.min_rank,
        "line": q.line,
        "position": -1 if q.position is None else _POSITIONS.index(q.position),
        "attack": q.attack,
        "axis": _AXIS.index(q.axis),
        "at_least": q.at_least,
        "distinct": q.distinct,
        "kumi": q.kumi,
        "army": -1 if q.army is None else _ARMIES.index(q.army),
        "bowed": q.bowed,
    }


def condition_tree(cond: Cond) -> list[Any]:
    """A compiled scoring condition (cards.py's classes) as the nested lists the core reads."""
    if isinstance(cond, Constant):
        return ["const", cond.number]
    if isinstance(cond, AllOf):
        return ["all", [condition_tree(p) for p in cond.parts]]
    if isinstance(cond, AnyOf):
        return ["any", [condition_tree(p) for p in cond.parts]]
    if isinstance(cond, Extreme):
        return ["ext", cond.largest, [condition_tree(p) for p in cond.parts]]
    if isinstance(cond, Not):
        return ["not", condition_tree(cond.inner)]
    if isinstance(cond, Negative):
        return ["neg", condition_tree(cond.inner)]
    if isinstance(cond, Absolute):
        return ["abs", condition_tree(cond.inner)]
    if isinstance(cond, Arithmetic):
        return ["arith", cond.op, condition_tree(cond.a), condition_tree(cond.b)]
    if isinstance(cond, Compare):
        return ["cmp", condition_tree(cond.first), list(cond.ops),
                [condition_tree(p) for p in cond.rest]]  # fmt: skip
    if isinstance(cond, Counting):
        return ["query", cond.enemy_side, _query(cond.query)]
    raise TypeError(f"a condition the native core does not know: {type(cond).__name__}")


class _Specs:
    """The table of the card language's operations handed to the core, each once."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self._seen: dict[str, int] = {}

    def add(self, spec: Mapping[str, Any]) -> int:
        key = repr(spec)
        known = self._seen.get(key)
        if known is not None:
            return known
        choices = []
        labels = []
        if spec["op"] == "choose":
            for option in spec["options"]:
                labels.append(str(option["label"]))
                choices.append([self.add(s) for s in option["effect"]])
        row = {
            "op": _OPS.index(spec["op"]),
            "enemy": spec.get("side", "own") == "enemy",
            "where": _WHERE.index(spec.get("where", "any")),
            "face": _FACE.index(spec.get("face", "any")),
            "has_count": "count" in spec,
            "count": int(spec.get("count", 1)),
            "kumi": spec.get("what", "kumi") == "kumi",
            "keep": int(spec.get("keep", 1)),
            "axis": _AXIS.index(spec.get("axis", "any")),
            "attack": int(spec.get("attack", 0)),
            "defender_ante": bool(spec.get("defender_ante", True)),
            "from": _FROM.index(spec.get("from", "any")),
            "draw": bool(spec.get("draw", False)),
            "adjacent": bool(spec.get("adjacent", True)),
            "labels": labels,
            "choices": choices,
            "json": dict(spec),
        }
        self.rows.append(row)
        self._seen[key] = len(self.rows) - 1
        return len(self.rows) - 1

    def effect(self, effect: Any) -> list[int]:
        return [self.add(spec) for spec in effect]


def _action(specs: _Specs, action: CardAction) -> dict[str, Any]:
    return {
        "name": action.name,
        "requires": [ICONS.index(icon) for icon in action.requires],
        "effect": specs.effect(action.effect),
    }


def rules_spec(options: Mapping[str, Any], length_limit: int) -> dict[str, Any]:
    """What the core's Rules are made of, for a match with these resolved options
    (``Sashimono.resolve_options``): the card set's cards and setup data, the tables, the
    options and the length guard's limit (``Game.length_limit``: a guard, not a rule)."""
    cs: CardSet = card_set(options["cards"])
    specs = _Specs()
    cards = []
    for card in cs.cards:
        own, enemy = condition_reads(card.score)
        ongoing = card.ongoing or {}
        cards.append(
            {
                "id": card.id,
                "name": card.name,
                "army": _ARMIES.index(card.army),
                "score": condition_tree(card.score),
                "reads_own": own,
                "reads_enemy": enemy,
                "actions": [_action(specs, a) for a in card.actions],
                "modifier": ("attack", "defence").index(ongoing["modifier"])
                if "modifier" in ongoing
                else -1,
                "amount": int(ongoing.get("amount", 0)),
                "sonae_scope": ongoing.get("scope") == "sonae",
                "trigger": ("battle_won", "casualty").index(ongoing["trigger"])
                if "trigger" in ongoing
                else -1,
                "trigger_effect": specs.effect(ongoing.get("effect", [])),
            }
        )
    return {
        "cards": cards,
        "reference": [_action(specs, a) for a in cs.reference],
        "bonus_effect": [specs.effect(effect) for effect in BONUS_EFFECT],
        "bonus_names": [str(name) for name in BONUS],
        "specs": specs.rows,
        "kumi_count": [cs.kumi[t] for t in KUMI_TYPES],
        "sonae": list(cs.sonae),
        "power": [list(KUMI_POWER[t]) for t in KUMI_TYPES],
        "west_deck": cs.deck("west"),
        "east_deck": cs.deck("east"),
        "solo": options["mode"] == "solo",
        "army": ("west", "east").index(options["army"]),
        "target": int(options["vp"]),
        "challenge_corners": bool(options["challenge_corners"]),
        "challenge_six_sashimono": bool(options["challenge_six_sashimono"]),
        "challenge_abilities": bool(options["challenge_abilities"]),
        "challenge_discard_five": bool(options["challenge_discard_five"]),
        "challenge_fewer_kumi": bool(options["challenge_fewer_kumi"]),
        "challenge_train": bool(options["challenge_train"]),
        "length_limit": length_limit,
        "kind_size": list(KIND_SIZE),
        "options": dict(options),
    }


def rules(options: Mapping[str, Any], length_limit: int) -> Any:
    """The core's Rules for these resolved options and length limit (made once each)."""
    return _CORE.rules(rules_spec, options, length_limit)


def encoding_spec(encoder: SashimonoEncoder) -> dict[str, Any]:
    """What the core's Encoding is made of: ``encoder``'s layout (its blocks' offsets and
    sizes) and the order of its questions."""
    return {
        "size": int(encoder.shape[0]),
        "offsets": dict(encoder.offsets),
        "side_size": encoder.side_size,
        "num_cards": encoder.num_cards,
        "cells": encoder.CELLS,
        "stack": encoder.STACK,
        "hand_max": encoder.HAND_MAX,
        "kage_line_max": encoder.KAGE_LINE_MAX,
        "spaces": encoder.SPACES,
        "lines": encoder.LINES,
        "used_max": encoder.USED_MAX,
        "look_max": encoder.LOOK_MAX,
        "questions": list(encoder.QUESTIONS),
    }


_ENCODING: dict[str, Any] = {}


def encoding(cards: str) -> Any:
    """The core's Encoding of ``SashimonoEncoder(cards)`` (made once a card set)."""
    made = _ENCODING.get(cards)
    if made is None:
        from sengoku.games.sashimono.encoder import SashimonoEncoder

        made = _ENCODING[cards] = module().Encoding(encoding_spec(SashimonoEncoder(cards)))
    return made


def match_of(state: SashimonoState) -> Any:
    """A native match holding ``state``'s position (hidden parts included)."""
    match = module().Match(rules(state.options, length_limit(state.game, state.options)))
    match.load_json(state.to_json())
    return match


def new_match(game: Sashimono, seed: int = 0, **options: Any) -> Any:
    """A native match dealt as ``game.new_state(seed=seed, **options)`` deals it."""
    opts = game.resolve_options(**options)
    match = module().Match(rules(opts, length_limit(game, opts)))
    match.deal(seed_key(seed))
    return match


def state_of(game: Sashimono, match: Any) -> SashimonoState:
    """The Python state of a native match's position (``SashimonoState.from_json``)."""
    return game.state_from_json(match.to_json())


def native_play(game: Sashimono, options: Mapping[str, Any]) -> CorePlay:
    """Sashimono's :class:`~sengoku.core.native_play.NativePlay` for ``options`` (resolved):
    native matches for the research adapters (``Sashimono.native_play``)."""
    resolved = dict(options)
    made = rules(resolved, length_limit(game, resolved))

    def deal(match: Any, seed: int) -> None:
        match.deal(seed_key(seed))

    def load(state: State) -> Any:
        return match_of(cast("SashimonoState", state))

    return CorePlay(
        game, resolved, lambda: module().Match(made), deal, load, encoding(str(resolved["cards"]))
    )


__all__ = [
    "UNAVAILABLE_REASON",
    "native_play",
    "condition_tree",
    "encoding",
    "encoding_spec",
    "length_limit",
    "match_of",
    "module",
    "native_available",
    "new_match",
    "rules",
    "rules_spec",
    "seed_key",
    "state_of",
]
