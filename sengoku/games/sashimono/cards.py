"""The Sashimono card language: card files (TOML), their validation, and the compiler.

A card file holds ``[[card]]`` tables. Each card has an ``id``, a ``name``, an ``army``
(``west``, ``east`` or ``dual`` for the West deck's defectors), one ``score`` condition (an
expression, see :func:`compile_condition`), 2-3 ``[[card.action]]`` tables (``name``,
``requires``: a list of icons, ``effect``: a list of operations) and at most one
``[card.ongoing]`` table (the infinite icon: a battle modifier or a trigger).

``reference.toml`` holds the setup data (Kumi per army, the starting Sonae) and the reference
card's basic actions. Every error names the file, the card and the field, and says what is
allowed; the language itself is documented in ``docs/rules/sashimono-cards.md``.
"""

from __future__ import annotations

import ast
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from sengoku.core.game import SengokuError
from sengoku.core.sentence import N_

if TYPE_CHECKING:
    from sengoku.games.sashimono.state import SashimonoState

DATA_DIR = Path(__file__).parent / "cards"

KUMI_TYPES = ("T", "K", "N")
#: The Kumi types' names (game words of the log's sentences: ``N_`` lists them for the catalog).
KUMI_NAMES = {"T": N_("Teppo-Gumi"), "K": N_("Kiba-Tai"), "N": N_("Nagae-Gumi")}
#: (attack, defence) of a face-up Kumi card of each type (spec: derived from the rulebook).
KUMI_POWER = {"T": (2, 0), "K": (2, 2), "N": (0, 2)}
TYPE_WORDS = {"T": "T", "K": "K", "N": "N", "teppo": "T", "kiba": "K", "nagae": "N"}

#: Requirement icons: one type, two of a type, all three types, any type twice (the
#: reference card's Utsu), a Hidden Kumi, and the Gunbai fan (flip a Kumi in the line first).
ICONS = ("T", "K", "N", "TT", "KK", "NN", "TKN", "pair", "hidden", "gunbai")
ARMIES = ("west", "east", "dual")
MAX_CARDS = 128


class CardError(SengokuError):
    """A card file that does not follow the card language; the message says where and why."""


@dataclass(frozen=True)
class CardAction:
    name: str
    requires: tuple[str, ...]
    effect: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    army: str
    score_text: str
    score: Cond = field(compare=False, repr=False)
    actions: tuple[CardAction, ...]
    ongoing: dict[str, Any] | None
    text: str = ""
    #: the file it was read from (for error messages)
    source: str = field(default="", compare=False)

    def serves(self, army: str) -> bool:
        """Dual-aligned cards count as both armies (spec)."""
        return self.army == army or self.army == "dual"


@dataclass(frozen=True)
class CardSet:
    """Every Sashimono card, the reference card and the setup data."""

    cards: tuple[Card, ...]
    reference: tuple[CardAction, ...]
    kumi: dict[str, int]
    sonae: tuple[str | None, ...]
    source: str
    index: dict[str, int] = field(compare=False, repr=False, default_factory=dict)

    def deck(self, army: str) -> list[int]:
        """Card indices of one army's Sashimono deck (defectors are in the West deck)."""
        if army == "west":
            return [i for i, c in enumerate(self.cards) if c.army in ("west", "dual")]
        return [i for i, c in enumerate(self.cards) if c.army == "east"]


# ----------------------------------------------------------------------------- effects

_SIDES = ("own", "enemy")
_WHERE = ("line", "other", "any")
_FACE = ("any", "hidden", "up")

#: op -> {parameter: (allowed values | type, default)}
OPS: dict[str, dict[str, tuple[Any, Any]]] = {
    "flip": {
        "side": (_SIDES, "own"),
        "where": (_WHERE, "any"),
        "face": (_FACE, "any"),
        "count": (int, 1),
    },
    "draw": {"what": (("kumi", "sashimono"), "kumi"), "count": (int, 1)},
    "look": {"count": (int, 3), "keep": (int, 1)},
    "battle": {
        "axis": (("any", "row", "column"), "any"),
        "attack": (int, 0),
        "defender_ante": (bool, True),
    },
    "train": {"where": (("other",), "other")},  # 'any' is for the Dojo bonus action only
    "rearrange": {"where": (("line", "any"), "line")},
    "swap": {"adjacent": (bool, True)},
    "return": {"side": (_SIDES, "own"), "where": (_WHERE, "any"), "face": (_FACE, "any")},
    "discard": {"side": (_SIDES, "enemy"), "count": (int, 1)},
    "play_kumi": {"count": (int, 1)},
    "bury": {"from": (("hand", "play", "any"), "any"), "draw": (bool, False)},
    "peek": {"count": (int, 1)},
    "choose": {"options": (list, None)},
}
#: Short descriptions for texts and docs.
OP_WORDS = {
    "flip": "flip",
    "draw": "draw",
    "look": "look at the top Kumi and keep some",
    "battle": "battle",
    "train": "train",
    "rearrange": "rearrange a line",
    "swap": "swap",
    "return": "return to hand",
    "discard": "discard",
    "play_kumi": "play a Kumi",
    "bury": "put a Sashimono at the bottom",
    "peek": "peek at a Hidden Kumi",
    "choose": "choose one",
}


def describe_effect(effect: tuple[dict[str, Any], ...] | list[dict[str, Any]]) -> str:
    """A short English reading of an effect list, for people (the terminal, the docs)."""
    parts = []
    for e in effect:
        op = e["op"]
        n = e.get("count", 1)
        if op == "flip":
            whose = " of the enemy" if e["side"] == "enemy" else ""
            face = {"any": "", "hidden": " Hidden", "up": " face-up"}[e["face"]]
            where = {"line": " in this line", "other": " outside this line", "any": ""}[e["where"]]
            parts.append(f"flip {n if n > 1 else 'a'}{face} Kumi{whose}{where}")
        elif op == "draw":
            parts.append(f"draw {n} {'Kumi' if e['what'] == 'kumi' else 'Sashimono'}")
        elif op == "look":
            parts.append(f"look at the top {e['count']} Kumi, keep {e['keep']}")
        elif op == "battle":
            axis = {"any": "a line", "row": "a row", "column": "a column"}[e["axis"]]
            extra = f" (+{e['attack']} attack)" if e["attack"] else ""
            no_ante = ", the defender adds no cards" if not e["defender_ante"] else ""
            parts.append(f"battle {axis}{extra}{no_ante}")
        elif op == "train":
            parts.append("train a Kumi" + (" outside this line" if e["where"] == "other" else ""))
        elif op == "rearrange":
            parts.append("rearrange " + ("this line" if e["where"] == "line" else "a line"))
        elif op == "swap":
            parts.append("swap two " + ("adjacent " if e["adjacent"] else "") + "Kumi")
        elif op == "return":
            whose = "an enemy" if e["side"] == "enemy" else "one of your"
            face = {"any": "", "hidden": " Hidden", "up": " face-up"}[e["face"]]
            parts.append(f"return {whose}{face} Kumi to its owner's hand")
        elif op == "discard":
            who = "the enemy discards" if e["side"] == "enemy" else "discard"
            parts.append(f"{who} {n} Kumi from hand")
        elif op == "play_kumi":
            parts.append(f"play up to {n} Kumi from hand")
        elif op == "bury":
            first = "draw a Sashimono, then " if e["draw"] else ""
            parts.append(f"{first}put a Sashimono at the bottom of your deck")
        elif op == "peek":
            parts.append("peek at an enemy Hidden Kumi")
        elif op == "choose":
            parts.append(
                "choose: "
                + " / ".join(
                    f"{o['label']} ({describe_effect(o['effect'])})" for o in e["options"]
                )  # fmt: skip
            )
    return ", then ".join(parts)


def _check_effect(effect: Any, where: str) -> tuple[dict[str, Any], ...]:
    if not isinstance(effect, list) or not effect:
        raise CardError(f"{where}: 'effect' must be a non-empty list of operations")
    out = []
    for n, raw in enumerate(effect, 1):
        at = f"{where}, operation {n}"
        if not isinstance(raw, dict) or "op" not in raw:
            raise CardError(f"{at}: each operation is a table with an 'op' field")
        op = raw["op"]
        if op not in OPS:
            raise CardError(f"{at}: unknown op {op!r}; known: {', '.join(OPS)}")
        schema = OPS[op]
        unknown = sorted(set(raw) - set(schema) - {"op"})
        if unknown:
            raise CardError(
                f"{at}: op {op!r} has no parameter {unknown[0]!r}; its parameters: "
                f"{', '.join(schema) or 'none'}"
            )
        if op == "train" and raw.get("where") == "any":
            raise CardError(
                f"{at}: train where='any' is the Dojo bonus action's; training from a Sashimono "
                "may not target the line of the just-played Sashimono (rulebook, Training and "
                "Rank): use where='other'"
            )
        spec: dict[str, Any] = {"op": op}
        for name, (allowed, default) in schema.items():
            value = raw.get(name, default)
            if name == "options":
                if not isinstance(value, list) or len(value) < 2 or len(value) > 4:
                    raise CardError(f"{at}: 'choose' needs 'options', a list of 2-4 tables")
                opts = []
                for k, option in enumerate(value, 1):
                    if not isinstance(option, dict) or "label" not in option:
                        raise CardError(f"{at}, option {k}: needs a 'label' and an 'effect'")
                    opts.append(
                        {
                            "label": str(option["label"]),
                            "effect": list(
                                _check_effect(option.get("effect"), f"{at}, option {k}")
                            ),
                        }
                    )
                spec[name] = opts
                continue
            if allowed is int:
                if not isinstance(value, int) or isinstance(value, bool) or not -3 <= value <= 5:
                    raise CardError(
                        f"{at}: {name!r} must be an integer from -3 to 5, got {value!r}"
                    )
            elif allowed is bool:
                if not isinstance(value, bool):
                    raise CardError(f"{at}: {name!r} must be true or false, got {value!r}")
            elif value not in allowed:
                raise CardError(
                    f"{at}: {name!r} must be one of {', '.join(map(repr, allowed))}, got {value!r}"
                )
            spec[name] = value
        if op in ("flip", "return") and spec["side"] == "enemy" and spec["where"] != "any":
            raise CardError(f"{at}: where={spec['where']!r} names your own line; use side='own'")
        if op == "look" and not 1 <= spec["keep"] <= spec["count"]:
            raise CardError(f"{at}: 'keep' must be from 1 to 'count'")
        if (
            op in ("flip", "draw", "discard", "play_kumi", "peek", "look")
            and spec.get("count", 1) < 1
        ):
            raise CardError(f"{at}: 'count' must be at least 1")
        out.append(spec)
    return tuple(out)


def _check_action(raw: Any, where: str) -> CardAction:
    if not isinstance(raw, dict):
        raise CardError(f"{where}: an action is a table with 'name', 'requires' and 'effect'")
    unknown = sorted(set(raw) - {"name", "requires", "effect", "text"})
    if unknown:
        raise CardError(f"{where}: unknown field {unknown[0]!r}; fields: name, requires, effect")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise CardError(f"{where}: field 'name' must be a non-empty string")
    at = f"{where} ({name})"
    requires = raw.get("requires", [])
    if not isinstance(requires, list):
        raise CardError(f"{at}: field 'requires' must be a list of icons")
    for icon in requires:
        if icon not in ICONS:
            raise CardError(
                f"{at}: field 'requires': unknown icon {icon!r}; icons: {', '.join(ICONS)}"
            )
    return CardAction(
        name, tuple(requires), _check_effect(raw.get("effect"), f"{at}: field 'effect'")
    )


def _check_ongoing(raw: Any, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise CardError(f"{where}: 'ongoing' must be a table")
    if "modifier" in raw:
        unknown = sorted(set(raw) - {"modifier", "amount", "scope", "text"})
        if unknown:
            raise CardError(
                f"{where}: unknown field {unknown[0]!r}; a modifier has modifier, amount, scope"
            )
        if raw["modifier"] not in ("attack", "defence"):
            raise CardError(
                f"{where}: 'modifier' must be 'attack' or 'defence', got {raw['modifier']!r}"
            )
        amount = raw.get("amount", 1)
        if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= 3:
            raise CardError(f"{where}: 'amount' must be an integer from 1 to 3")
        scope = raw.get("scope", "line")
        if scope not in ("line", "sonae"):
            raise CardError(f"{where}: 'scope' must be 'line' or 'sonae', got {scope!r}")
        return {"modifier": raw["modifier"], "amount": amount, "scope": scope}
    if "trigger" in raw:
        unknown = sorted(set(raw) - {"trigger", "effect", "text"})
        if unknown:
            raise CardError(f"{where}: unknown field {unknown[0]!r}; a trigger has trigger, effect")
        if raw["trigger"] not in ("battle_won", "casualty"):
            raise CardError(
                f"{where}: 'trigger' must be 'battle_won' or 'casualty', got {raw['trigger']!r}"
            )
        return {"trigger": raw["trigger"], "effect": list(_check_effect(raw.get("effect"), where))}
    raise CardError(f"{where}: 'ongoing' needs 'modifier' (attack/defence) or 'trigger'")


# ----------------------------------------------------------------------------- conditions

_SEL = {
    "type": ("T", "K", "N", "teppo", "kiba", "nagae"),
    "face": _FACE,
    "rank": (1, 2, 3),
    "min_rank": (1, 2, 3),
    "line": ("row1", "row2", "row3", "cola", "colb", "colc"),
    "position": ("corner", "edge", "center", "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"),
}
#: function -> allowed keyword arguments (first positional argument: own or enemy).
FUNCS: dict[str, dict[str, tuple[Any, ...]]] = {
    "count": dict(_SEL),
    "power": {**_SEL, "stat": ("attack", "defence")},
    "lines": {
        **_SEL,
        "axis": ("any", "row", "column"),
        "at_least": (1, 2, 3),
        "distinct": (1, 2, 3),
    },
    "types": {"line": _SEL["line"]},
    "hand": {"what": ("kumi", "sashimono")},
    "sashimono": {"army": ("west", "east"), "bowed": (True, False)},
    "vp": {},
    "empty": {},
}
_PLAIN = ("min", "max", "abs")
#: The comparison operators, by the code :class:`Compare` reads.
_COMPARE: dict[type[ast.cmpop], int] = {
    ast.Lt: 0,
    ast.LtE: 1,
    ast.Gt: 2,
    ast.GtE: 3,
    ast.Eq: 4,
    ast.NotEq: 5,
}
#: The counting functions of :data:`FUNCS`, by the code :class:`Query` carries.
FN_COUNT: Final = 0
FN_POWER: Final = 1
FN_LINES: Final = 2
FN_TYPES: Final = 3
FN_HAND: Final = 4
FN_SASHIMONO: Final = 5
FN_VP: Final = 6
FN_EMPTY: Final = 7
FN_CODES = {
    "count": FN_COUNT,
    "power": FN_POWER,
    "lines": FN_LINES,
    "types": FN_TYPES,
    "hand": FN_HAND,
    "sashimono": FN_SASHIMONO,
    "vp": FN_VP,
    "empty": FN_EMPTY,
}


# The compiled condition is a tree of small classes, each with a typed ``value`` (the number
# the expression is worth; a truth is 1 or 0), rather than nested closures over dicts: this
# module is compiled by mypyc, which calls a method of its own classes directly but a closure
# or a dict of keywords only through Python's generic machinery, and bowing evaluates every
# condition in play after every change of state.


class Cond:
    """A compiled condition: called as ``f(state, own_side, enemy_side)``, it gives what the
    expression gives in Python (a truth for a comparison, ``and``/``or``, ``not``, ``all``
    and ``any``; an integer otherwise). ``boolean``: whether that is a truth."""

    def __init__(self, boolean: bool) -> None:
        self.boolean = boolean

    def value(self, st: SashimonoState, o: int, e: int) -> int:
        """The expression's value as a number (a truth: 1 or 0)."""
        raise NotImplementedError

    def result(self, st: SashimonoState, o: int, e: int) -> object:
        """The expression's value as Python gives it (``True``, not 1)."""
        v = self.value(st, o, e)
        if self.boolean:
            # Not ``v != 0 if self.boolean else v``: mypyc types that expression ``int`` (the
            # join of bool and int) and would give 1 for True.
            truth: object = v != 0
            return truth
        return v

    def holds(self, st: SashimonoState, o: int, e: int) -> bool:
        """Whether the expression is true (what bowing asks)."""
        return self.value(st, o, e) != 0

    def __call__(self, st: SashimonoState, o: int, e: int) -> object:
        return self.result(st, o, e)


class Constant(Cond):
    def __init__(self, number: int) -> None:
        super().__init__(False)
        self.number = number

    def value(self, st: SashimonoState, o: int, e: int) -> int:
        return self.number


class AllOf(Cond):
    """``a and b``, ``all(a, b)``."""

    def __init__(self, parts: list[Cond]) -> None:
        super().__init__(True)
        self.parts = parts

    def value(self, st: SashimonoState, o: int, e: int) -> int:
        for p in self.parts:
            if p.value(st, o, e) == 0:
                return 0
        return 1


class AnyOf(Cond):
    """``a or b``, ``any(a, b)``."""

    def __init__(self, parts: list[Cond]) -> None:
        super().__init__(True)
        self.parts = parts

    def value(self, st: SashimonoState, o: int, e: int) -> int:
        for p in self.parts:
            if p.value(st, o, e) != 0:
                return 1
        return 0


class Not(Cond):
    def __init__(self, inner: Cond) -> None:
        super().__init__(True)
        self.inner = inner

    def value(self, st: SashimonoState, o: int, e: int) -> int:
        return 1 if self.inner.value(st, o, e) == 0 else 0


class Negative(Cond):
    def __init__(self, inner: Cond) -> None:
        super().__init__(False)
        self.inner = inner

    def value(self, st: SashimonoState, o: int, e: int) -> int:
        return -self.inner.value(st, o, e)


class Arithmetic(Cond):
    """``a + b``, ``a - b`` or ``a * b`` (``op`` 0, 1, 2)."""

    def __init__(self, a: Cond, b: Cond, op: int) -> None:
        super().__init__(False)
        self.a = a
        self.b = b
        self.op = op

    def value(self, st: SashimonoState, o: int, e: int) -> int:
        x = self.a.value(st, o, e)
        y = self.b.value(st, o, e)
        if self.op == 0:
            return x + y
        if self.op == 1:
            return x - y
        return x * y


class Compare(Cond):
    """A chain of comparisons (``1 <= x < 3``), each pair in turn, as Python reads it."""

    def __init__(self, first: Cond, ops: list[int], rest: list[Cond]) -> None:
        super().__init__(True)
        self.first = first
        self.ops = ops
        self.rest = rest

    def value(self, st: SashimonoState, o: int, e: int) -> int:
        left = self.first.value(st, o, e)
        for k in range(len(self.ops)):
            right = self.rest[k].value(st, o, e)
            op = self.ops[k]
            if op == 0:
                ok = left < right
            elif op == 1:
                ok = left <= right
            elif op == 2:
                ok = left > right
            elif op == 3:
                ok = left >= right
            elif op == 4:
                ok = left == right
            else:
                ok = left != right
            if not ok:
                return 0
            left = right
        return 1


class Absolute(Cond):
    def __init__(self, inner: Cond) -> None:
        super().__init__(False)
        self.inner = inner

    def value(self, st: SashimonoState, o: int, e: int) -> int:
        return abs(self.inner.value(st, o, e))


class Extreme(Cond):
    """``min(...)`` or ``max(...)``: Python's gives one of its arguments, a truth or a number."""

    def __init__(self, parts: list[Cond], largest: bool) -> None:
        super().__init__(all(p.boolean for p in parts))
        self.parts = parts
        self.largest = largest

    def value(self, st: SashimonoState, o: int, e: int) -> int:
        best = self.parts[0].value(st, o, e)
        for p in self.parts[1:]:
            v = p.value(st, o, e)
            if (v > best) if self.largest else (v < best):
                best = v
        return best

    def result(self, st: SashimonoState, o: int, e: int) -> object:
        values = [p.result(st, o, e) for p in self.parts]
        return max(values) if self.largest else min(values)  # type: ignore[type-var]


class Query:
    """A counting function of :data:`FUNCS` with its keyword arguments, read once: ``fn``
    (its code, ``FN_*``), then each argument (unset: ``None``, or 0 for the numbers that
    start at 1)."""

    def __init__(self, fn: int, kwargs: Mapping[str, Any]) -> None:
        self.fn = fn
        self.kwargs = dict(kwargs)
        self.face: str = kwargs.get("face", "any")
        self.kumi_type: str | None = kwargs.get("type")
        self.rank: int = kwargs.get("rank") or 0
        self.min_rank: int = kwargs.get("min_rank") or 0
        line = kwargs.get("line")
        #: the line's index in ``_SEL["line"]`` (the order of pieces.LINES), -1: unset
        self.line: int = -1 if line is None else _SEL["line"].index(line)
        self.position: str | None = kwargs.get("position")
        self.attack: bool = kwargs.get("stat", "attack") == "attack"
        self.axis: str = kwargs.get("axis", "any")
        self.at_least: int = kwargs.get("at_least", 1)
        self.distinct: int = kwargs.get("distinct") or 0
        self.kumi: bool = kwargs.get("what", "kumi") == "kumi"
        self.army: str | None = kwargs.get("army")
        bowed = kwargs.get("bowed")
        #: -1: unset, else 0 or 1 (un-bowed, bowed)
        self.bowed: int = -1 if bowed is None else int(bowed)


class Counting(Cond):
    """A counting function on ``own`` or ``enemy`` (``enemy_side``)."""

    def __init__(self, query: Query, enemy_side: bool) -> None:
        super().__init__(False)
        self.query = query
        self.enemy_side = enemy_side

    def value(self, st: SashimonoState, o: int, e: int) -> int:
        if self.enemy_side:
            return st.measure(self.query, e, o)
        return st.measure(self.query, o, e)


def compile_condition(src: str, where: str) -> Cond:
    """Compile a scoring condition to ``f(state, own_side, enemy_side)``.

    The language is a Python-like expression: integers, ``own`` / ``enemy``, comparisons,
    ``+ - *``, ``and or not``, ``all(...)``, ``any(...)``, ``min max abs`` and the counting
    functions of :data:`FUNCS`, e.g. ``count(own, type='T', face='up') >= 3``.
    """
    try:
        tree = ast.parse(src, mode="eval")
    except SyntaxError as exc:
        raise CardError(f"{where}: not an expression ({exc.msg}): {src!r}") from None
    return _comp(tree.body, where)


def _comp(node: ast.AST, where: str) -> Cond:
    """One node of a condition, compiled (each kind of node by its own compiler)."""
    compiled: Cond | None = None
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        compiled = Constant(node.value)
    elif isinstance(node, ast.BoolOp):
        parts = [_comp(v, where) for v in node.values]
        compiled = AllOf(parts) if isinstance(node.op, ast.And) else AnyOf(parts)
    elif isinstance(node, ast.UnaryOp):
        compiled = _comp_unary(node, where)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        op = 0 if isinstance(node.op, ast.Add) else 1 if isinstance(node.op, ast.Sub) else 2
        compiled = Arithmetic(_comp(node.left, where), _comp(node.right, where), op)
    elif isinstance(node, ast.Compare):
        compiled = _comp_compare(node, where)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        fname = node.func.id
        if fname in ("all", "any") or fname in _PLAIN:
            compiled = _comp_plain_call(node, fname, where)
        else:
            compiled = _comp_counting_call(node, fname, where)
    if compiled is None:
        raise CardError(f"{where}: {ast.dump(node)[:40]}... is not part of the condition language")
    return compiled


def _comp_unary(node: ast.UnaryOp, where: str) -> Cond | None:
    """``not x`` or ``-x``; None for another operator (not part of the language)."""
    inner = _comp(node.operand, where)
    if isinstance(node.op, ast.Not):
        return Not(inner)
    if isinstance(node.op, ast.USub):
        return Negative(inner)
    return None


def _comp_compare(node: ast.Compare, where: str) -> Cond:
    """A chain of comparisons (``1 <= x < 3``)."""
    first = _comp(node.left, where)
    rest = [_comp(c, where) for c in node.comparators]
    ops: list[int] = []
    for op in node.ops:
        code = _COMPARE.get(type(op))
        if code is None:
            raise CardError(f"{where}: comparison {type(op).__name__} is not allowed")
        ops.append(code)
    return Compare(first, ops, rest)


def _comp_plain_call(node: ast.Call, fname: str, where: str) -> Cond:
    """``all``, ``any``, ``min``, ``max`` or ``abs`` of expressions."""
    if node.keywords or not node.args:
        raise CardError(f"{where}: {fname}() takes expressions only")
    parts = [_comp(a, where) for a in node.args]
    if fname == "all":
        return AllOf(parts)
    if fname == "any":
        return AnyOf(parts)
    if fname == "abs":
        return Absolute(parts[0])
    return Extreme(parts, fname == "max")


def _comp_counting_call(node: ast.Call, fname: str, where: str) -> Cond:
    """A counting function of :data:`FUNCS` on ``own`` or ``enemy``, with constant keyword
    arguments it allows."""
    if fname not in FUNCS:
        known = ", ".join([*FUNCS, "all", "any", *_PLAIN])
        raise CardError(f"{where}: unknown function {fname!r}; known: {known}")
    first = node.args[0] if len(node.args) == 1 else None
    if not isinstance(first, ast.Name) or first.id not in ("own", "enemy"):
        raise CardError(f"{where}: {fname}() takes 'own' or 'enemy' as its first argument")
    return Counting(Query(FN_CODES[fname], _call_keywords(node, fname, where)), first.id == "enemy")


def _call_keywords(node: ast.Call, fname: str, where: str) -> dict[str, Any]:
    """The keyword arguments of a counting function, each a constant it allows."""
    kwargs: dict[str, Any] = {}
    for kw in node.keywords:
        if kw.arg not in FUNCS[fname]:
            raise CardError(
                f"{where}: {fname}() has no argument {kw.arg!r}; its arguments: "
                f"{', '.join(FUNCS[fname]) or 'none'}"
            )
        if not isinstance(kw.value, ast.Constant):
            raise CardError(f"{where}: {fname}({kw.arg}=...) takes a constant")
        const = kw.value.value
        if const not in FUNCS[fname][kw.arg]:
            raise CardError(
                f"{where}: {fname}({kw.arg}={const!r}) is not allowed; allowed: "
                f"{', '.join(map(repr, FUNCS[fname][kw.arg]))}"
            )
        kwargs[kw.arg] = TYPE_WORDS[str(const)] if kw.arg == "type" else const
    return dict(kwargs)


# ----------------------------------------------------------------------------- loading


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise CardError(f"{path}: no such card file") from None
    except tomllib.TOMLDecodeError as exc:
        raise CardError(f"{path}: not valid TOML: {exc}") from None


def parse_cards(data: Mapping[str, Any], fname: str) -> list[Card]:
    """Validate the ``[[card]]`` tables of one file."""
    raw_cards = data.get("card", [])
    if not isinstance(raw_cards, list):
        raise CardError(f"{fname}: 'card' must be an array of tables ([[card]])")
    unknown_top = sorted(set(data) - {"card", "setup", "reference"})
    if unknown_top:
        raise CardError(f"{fname}: unknown table {unknown_top[0]!r}; expected [[card]]")
    cards = []
    for n, raw in enumerate(raw_cards, 1):
        cid = raw.get("id") if isinstance(raw, dict) else None
        where = f"{fname}: card {cid!r}" if cid else f"{fname}: card #{n}"
        if not isinstance(cid, str) or not cid or not all(ch.isalnum() or ch == "-" for ch in cid):
            raise CardError(f"{where}: field 'id' must be letters, digits and '-'")
        unknown = sorted(set(raw) - {"id", "name", "army", "score", "action", "ongoing", "text"})
        if unknown:
            raise CardError(
                f"{where}: unknown field {unknown[0]!r}; fields: id, name, army, score, action, "
                "ongoing, text"
            )
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise CardError(f"{where}: field 'name' must be a non-empty string")
        army = raw.get("army")
        if army not in ARMIES:
            raise CardError(
                f"{where}: field 'army' must be one of {', '.join(ARMIES)}, got {army!r}"
            )
        score = raw.get("score")
        if not isinstance(score, str) or not score.strip():
            raise CardError(f"{where}: field 'score' must be a condition (a string)")
        cond = compile_condition(score, f"{where}: field 'score'")
        actions = raw.get("action", [])
        if not isinstance(actions, list) or not 1 <= len(actions) <= 4:
            raise CardError(f"{where}: field 'action' must hold 1-4 actions ([[card.action]])")
        acts = tuple(
            _check_action(a, f"{where}: field 'action' #{k}") for k, a in enumerate(actions, 1)
        )
        ongoing = raw.get("ongoing")
        ong = None if ongoing is None else _check_ongoing(ongoing, f"{where}: field 'ongoing'")
        cards.append(
            Card(cid, name, army, score.strip(), cond, acts, ong, str(raw.get("text", "")), fname)
        )
    return cards


def load_cards(paths: list[Path] | None = None) -> CardSet:
    """Load the reference data and the card files (default: our original set).

    For the library and tests: it reads the paths it is given. A server chooses sets by
    name only (:func:`card_set`)."""
    files = paths if paths else sorted(DATA_DIR.glob("*.toml"))
    loaded: list[tuple[Mapping[str, Any], str]] = [
        (_read(path), str(path))
        for path in files
        if not (path.name == "reference.toml" and path.parent == DATA_DIR)
    ]
    return _build_set(loaded, ",".join(str(p) for p in files))


def _build_set(loaded: list[tuple[Mapping[str, Any], str]], source: str) -> CardSet:
    """The reference data with the cards of ``loaded`` (each file's TOML and its label)."""
    ref_path = DATA_DIR / "reference.toml"
    ref = _read(ref_path)
    setup = ref.get("setup", {})
    kumi = setup.get("kumi", {})
    if sorted(kumi) != sorted(KUMI_TYPES) or not all(
        isinstance(v, int) and v >= 0 for v in kumi.values()
    ):
        raise CardError(f"{ref_path}: setup.kumi must give a count for each of T, K, N")
    rows = setup.get("sonae", [])
    sonae: list[str | None] = []
    for row in rows:
        for token in str(row).split():
            if len(token) != 2 or token[0] not in KUMI_TYPES or token[1] not in "^v":
                raise CardError(
                    f"{ref_path}: setup.sonae: {token!r} is not a Kumi like 'T^' (face up) or 'Tv'"
                )
            sonae.append(token)
    if len(sonae) != 9:
        raise CardError(f"{ref_path}: setup.sonae must be 3 rows of 3 Kumi")
    for t in KUMI_TYPES:
        if sum(1 for s in sonae if s and s[0] == t) > kumi[t]:
            raise CardError(f"{ref_path}: setup.sonae uses more {t} than setup.kumi has")
    raw_ref = ref.get("reference", [])
    reference = tuple(
        _check_action(a, f"{ref_path}: reference action #{k}") for k, a in enumerate(raw_ref, 1)
    )
    if not 1 <= len(reference) <= 4:
        raise CardError(f"{ref_path}: the reference card needs 1-4 basic actions")
    cards: list[Card] = []
    for data, label in loaded:
        cards.extend(parse_cards(data, label))
    ref_names = {a.name.casefold() for a in reference}
    for c in cards:
        names = [a.name.casefold() for a in c.actions]
        if len(set(names)) != len(names) or ref_names & set(names):
            raise CardError(
                f"card {c.id!r}: field 'action': each action needs its own name, different from "
                f"the reference card's ({', '.join(a.name for a in reference)})"
            )
    seen: set[str] = set()
    for c in cards:
        if c.id in seen:
            raise CardError(f"card {c.id!r} is defined twice")
        seen.add(c.id)
    if len(cards) > MAX_CARDS:
        raise CardError(f"at most {MAX_CARDS} cards, got {len(cards)}")
    cs = CardSet(tuple(cards), reference, dict(kumi), tuple(sonae), source)
    cs.index.update({c.id: i for i, c in enumerate(cards)})
    for army in ("west", "east"):
        if len(cs.deck(army)) < 8:
            raise CardError(f"the {army} deck needs at least 8 Sashimono, got {len(cs.deck(army))}")
    check_free_bows(cs)
    return cs


def check_free_bows(cs: CardSet) -> None:
    """Refuse a card whose scoring condition holds before any play has made it so: bowed
    the moment it is played from the setup position, or as a Kagemusha trap from setup
    (see :func:`sengoku.games.sashimono.state.setup_bows`)."""
    from sengoku.games.sashimono.setup import setup_bows  # the engine reads this module

    for c, why in setup_bows(cs):
        card = cs.cards[c]
        raise CardError(
            f"{card.source or 'card file'}: card {card.id!r}: field 'score': "
            f"{card.score_text!r} holds {why}, before any play: a free VP. A condition must "
            "need play to be met (in the solo game, 'enemy' is the Kagemusha's Kumi line)"
        )


_CACHE: dict[str, CardSet] = {}

#: A card set's name: what the ``cards`` option holds. Never a path: no separators, no dots.
CARD_SET_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
#: The name of our original set (also spelled ``''``).
DEFAULT_SET = "sengoku"
#: The folder where an operator installs card sets (``<name>.toml`` or ``<name>/*.toml``).
CARD_DIR_ENV = "SENGOKU_CARD_DIR"
#: The largest card file read (a card set is a few kilobytes).
MAX_CARD_FILE = 1 << 20
#: Card sets this process registered by name (``register_card_file``: the command line).
_REGISTERED: dict[str, list[Path]] = {}


def card_dir() -> Path | None:
    """The operator's card-set folder (environment ``SENGOKU_CARD_DIR``), if configured."""
    folder = os.environ.get(CARD_DIR_ENV, "").strip()
    return Path(folder) if folder else None


def check_set_name(name: Any) -> str:
    """``name`` if it is a card set's name (lower-case letters, digits, '-', '_'), else raise."""
    if not isinstance(name, str):
        raise CardError("a card set is chosen by its name (a string)")
    if name and not CARD_SET_NAME.fullmatch(name):
        raise CardError(
            "a card set name is 1-64 lower-case letters, digits, '-' or '_' (a name, never a path)"
        )
    return name


def available_card_sets() -> list[str]:
    """The names the ``cards`` option accepts here: ours, the operator's, the registered."""
    names = {DEFAULT_SET, *_REGISTERED}
    folder = card_dir()
    if folder is not None and folder.is_dir():
        for entry in folder.iterdir():
            stem = entry.name[:-5] if entry.name.endswith(".toml") else entry.name
            if CARD_SET_NAME.fullmatch(stem) and (entry.is_dir() or entry.name.endswith(".toml")):
                names.add(stem)
    return sorted(names)


def _read_regular(path: Path, label: str) -> dict[str, Any]:
    """A card file's TOML: a regular file of at most MAX_CARD_FILE bytes (never a FIFO or a
    device), opened without blocking; errors name ``label``, never the path or the content."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        raise CardError(f"{label}: cannot be read") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise CardError(f"{label}: not a regular file")
        if info.st_size > MAX_CARD_FILE:
            raise CardError(f"{label}: card files are limited to {MAX_CARD_FILE} bytes")
        with os.fdopen(fd, "rb") as fh:
            fd = -1
            raw = fh.read(MAX_CARD_FILE + 1)
    finally:
        if fd >= 0:
            os.close(fd)
    if len(raw) > MAX_CARD_FILE:
        raise CardError(f"{label}: card files are limited to {MAX_CARD_FILE} bytes")
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise CardError(f"{label}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        # tomllib's message gives the line and column, not the text there
        raise CardError(f"{label}: not valid TOML: {exc}") from None


def _set_files(name: str) -> tuple[list[Path], str]:
    """The files of the named set (registered first, then the operator's folder)."""
    if name in _REGISTERED:
        return _REGISTERED[name], name
    folder = card_dir()
    if folder is not None:
        single = folder / f"{name}.toml"
        many = folder / name
        if single.exists() or single.is_symlink():
            return [single], name  # read only if it is a regular file (_read_regular)
        if many.is_dir():
            files = sorted(p for p in many.glob("*.toml") if p.is_file())
            if files:
                return files, name
    raise CardError(
        f"there is no card set {name!r} on this machine; available: "
        f"{', '.join(available_card_sets())}"
    )


def load_named_set(name: str, files: list[Path]) -> CardSet:
    """Load ``files`` as the card set ``name``; errors name the set, its file's name, the card
    and the field."""
    loaded: list[tuple[Mapping[str, Any], str]] = []
    for path in files:
        label = f"card set {name!r}" + (f" ({path.name})" if len(files) > 1 else "")
        loaded.append((_read_regular(path, label), label))
    return _build_set(loaded, source=name)


def card_set(name: str = "") -> CardSet:
    """The card set for the ``cards`` option, chosen by name: ``''`` or ``'sengoku'`` is ours;
    otherwise a set an operator installed in ``$SENGOKU_CARD_DIR`` or one registered with
    :func:`register_card_file`. A name is never a path."""
    check_set_name(name)
    key = "" if name == DEFAULT_SET else name
    if key not in _CACHE:
        if not key:
            _CACHE[key] = load_cards()
        else:
            files, label = _set_files(key)
            _CACHE[key] = load_named_set(label, files)
    return _CACHE[key]


def register_card_file(path: str | Path, name: str | None = None) -> str:
    """Make a local card file or folder playable under a name (the command line's
    ``--cards FILE``: the user names a file on their own machine). Returns the name.

    A server never calls this with a client's input: clients choose sets by name only.
    """
    p = Path(path)
    files = sorted(f for f in p.glob("*.toml") if f.is_file()) if p.is_dir() else [p]
    if not files:
        raise CardError(f"{path}: no card files (*.toml) there")
    stem = name or re.sub(r"[^a-z0-9_-]+", "-", p.stem.lower()).strip("-_") or "local"
    label = check_set_name(stem if name else f"local-{stem}"[:64])
    if not p.exists():
        raise CardError(f"{path}: no such card file")
    loaded = load_named_set(label, files)
    _REGISTERED[label] = files
    _CACHE[label] = loaded
    return label
