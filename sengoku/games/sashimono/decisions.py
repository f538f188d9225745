"""Sashimono's decisions as data: the actions (one decision each), the steps of the turn
machine and the questions it asks.

The turn runs as a :class:`~sengoku.core.decisions.DecisionStack` of :class:`Task` records
(``Step`` says which rule runs it); a step either happens at once or asks one seat one
:class:`Prompt` (``Question`` says which). Both keep the JSON shape saved positions have
always had: a task is ``{"t": step, ...}``, a prompt ``{"seat", "op", "rule", "opts", ...}``.
The tables that run them are in :mod:`sengoku.games.sashimono.state`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple, TypedDict

from sengoku.core.decisions import Pending
from sengoku.core.game import IllegalAction
from sengoku.core.sentence import say

# ----------------------------------------------------------------------------- actions

# action kinds and their sizes: the integer action space is their concatenation.
(K_TURN, K_PLAY, K_SLOT, K_DO, K_OWN, K_ENEMY, K_HAND, K_SHAND, K_LOOK, K_LINE, K_PLACE,
 K_BONUS, K_PERM, K_OPTION, K_PSLOT, K_DONE) = range(16)  # fmt: skip
KIND_SIZE = (2, 128, 12, 8, 40, 40, 40, 40, 8, 7, 18, 4, 6, 4, 12, 1)
KIND_OFFSET = tuple(sum(KIND_SIZE[:k]) for k in range(len(KIND_SIZE)))
NUM_ACTIONS = sum(KIND_SIZE)


@dataclass(frozen=True)
class Act:
    """One decision. Equality and the integer are (kind, arg); ``text`` is its notation, and
    ``apply`` takes an Act only when its text is the legal action's (a record stores it)."""

    kind: int
    arg: int
    text: str = field(compare=False)
    short: str = field(compare=False, default="")

    def __post_init__(self) -> None:
        kind, arg = self.kind, self.arg
        # One cheap test on the hot path (the engine builds every legal Act); a field out of
        # range would crash later, when the action is numbered or printed.
        if (
            type(kind) is int
            and 0 <= kind < len(KIND_SIZE)
            and type(arg) is int
            and 0 <= arg < KIND_SIZE[kind]
            and type(self.text) is str
            and type(self.short) is str
        ):
            return
        if type(kind) is not int or not 0 <= kind < len(KIND_SIZE):
            raise IllegalAction(
                say(
                    "Act.kind must be an int in 0..{last}, not {kind}",
                    last=len(KIND_SIZE) - 1,
                    kind=repr(kind),
                )
            )
        if type(arg) is not int or not 0 <= arg < KIND_SIZE[kind]:
            raise IllegalAction(
                say(
                    "Act.arg of kind {kind} must be an int in 0..{last}, not {arg}",
                    kind=kind,
                    last=KIND_SIZE[kind] - 1,
                    arg=repr(arg),
                )
            )
        field_name = "text" if type(self.text) is not str else "short"
        raise IllegalAction(
            say(
                "Act.{field} must be text (notation), not {value}",
                field=field_name,
                value=repr(getattr(self, field_name)),
            )
        )

    def __str__(self) -> str:
        return self.text

    def __int__(self) -> int:
        return KIND_OFFSET[self.kind] + self.arg


class Choice(NamedTuple):
    """One option of a question: the action's (kind, arg), its notation and short form."""

    kind: int
    arg: int
    text: str
    short: str


# ----------------------------------------------------------------------------- steps

#: An effect of the card language, as the card file states it (``{"op": "flip", ...}``).
Spec = dict[str, Any]


class Step(StrEnum):
    """A step of the turn machine; the value is its name in saved positions."""

    SETUP_LOOK = "setup_look"
    TURN = "turn"
    ACTIONS = "actions"
    SCORE = "score"
    RETURN_SAS = "return_sas"
    BONUS = "bonus"
    DRAW_KUMI = "draw_kumi"
    PLACE = "place"
    END_TURN = "end_turn"
    OP = "op"
    ANTE = "ante"
    RESOLVE = "resolve"
    BATTLE_END = "battle_end"
    KAGE_BLOCK = "kage_block"
    KAGE_BATTLE = "kage_battle"
    KAGE_PLACE = "kage_place"
    KAGE_DRAW = "kage_draw"
    KAGE_MOVE = "kage_move"


#: The fields each step keeps, in their order in saved positions.
_SEAT = ("seat",)
TASK_FIELDS: Mapping[Step, tuple[str, ...]] = {
    Step.SETUP_LOOK: _SEAT, Step.TURN: _SEAT, Step.ACTIONS: _SEAT, Step.SCORE: _SEAT,
    Step.RETURN_SAS: _SEAT, Step.BONUS: _SEAT, Step.DRAW_KUMI: _SEAT,
    Step.PLACE: ("seat", "n"), Step.END_TURN: _SEAT, Step.OP: ("spec", "actor", "line"),
    Step.ANTE: _SEAT, Step.RESOLVE: (), Step.BATTLE_END: (), Step.KAGE_BLOCK: ("type",),
    Step.KAGE_BATTLE: ("axis",), Step.KAGE_PLACE: ("axis",), Step.KAGE_DRAW: (),
    Step.KAGE_MOVE: (),
}  # fmt: skip
#: fields left out of a saved task while unset (a Kumi placement with no limit)
_OPTIONAL = frozenset({"n"})


def dcopy(x: Any) -> Any:
    """A deep copy of JSON-like data (dicts and lists; anything else is shared)."""
    if isinstance(x, dict):
        return {k: dcopy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [dcopy(v) for v in x]
    return x


# ``init=False`` and an ``__init__`` of our own (Task, Prompt): a frozen dataclass's generated
# one sets each field through ``object.__setattr__`` (4 microseconds a Task, 3 a Prompt,
# against a compiled ply of 15); writing the fields into the instance's dict is the same
# object, its equality, repr and fields unchanged, made in a tenth of the time.
@dataclass(frozen=True, init=False)
class Task:
    """One step still to do. ``seat``: whose turn step it is; ``n``: how many Kumi may still
    be placed (unset: no limit); ``spec``, ``actor``, ``line``: an operation of the card
    language, who performs it and the line it acts from (``None``: none, as for a bonus
    action); ``type`` and ``axis``: the Kagemusha's Kumi type to act for and the line axis
    of its battle."""

    kind: Step
    seat: int = -1
    n: int | None = None
    spec: Spec = field(default_factory=dict)
    actor: int = -1
    line: int | None = None
    type: str = ""
    axis: str = ""

    def __init__(
        self,
        kind: Step,
        seat: int = -1,
        n: int | None = None,
        spec: Spec | None = None,
        actor: int = -1,
        line: int | None = None,
        type: str = "",  # noqa: A002 - the field's saved name
        axis: str = "",
    ) -> None:
        d = self.__dict__
        d["kind"] = kind
        d["seat"] = seat
        d["n"] = n
        d["spec"] = {} if spec is None else spec
        d["actor"] = actor
        d["line"] = line
        d["type"] = type
        d["axis"] = axis

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.kind.value}
        for name in TASK_FIELDS[self.kind]:
            value = getattr(self, name)
            if name in _OPTIONAL and value is None:
                continue
            out[name] = dcopy(value)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Task:
        kind = Step(data["t"])
        kw = {k: dcopy(v) for k, v in data.items() if k != "t" and k in TASK_FIELDS[kind]}
        return cls(kind, **kw)

    def __getitem__(self, key: str) -> Any:
        """Read access by the saved name (``task["t"]``, ``task["seat"]``), as positions
        were read before the steps had types."""
        return self.kind.value if key == "t" else getattr(self, key)


def op(spec: Spec, actor: int, line: int | None) -> Task:
    """The step that performs one operation of the card language."""
    return Task(Step.OP, spec=dict(spec), actor=actor, line=line)


# ----------------------------------------------------------------------------- questions


class Question(StrEnum):
    """A question the machine asks; the value is its name in saved positions and views."""

    LOOK_BOTTOM = "look_bottom"
    TURN = "turn"
    PLAY = "play"
    SLOT = "slot"
    DO = "do"
    GUNBAI = "gunbai"
    RETURN_SAS = "return_sas"
    BONUS = "bonus"
    PLACE = "place"
    PLACE_AT = "place_at"
    FLIP = "flip"
    KEEP = "keep"
    BATTLE = "battle"
    ANTE = "ante"
    CASUALTY = "casualty"
    TRAIN = "train"
    TRAIN_WITH = "train_with"
    REARRANGE = "rearrange"
    PERM = "perm"
    SWAP = "swap"
    SWAP_WITH = "swap_with"
    RETURN_KUMI = "return_kumi"
    DISCARD = "discard"
    BURY = "bury"
    PEEK = "peek"
    CHOOSE = "choose"


#: What each question remembers for its answer, in its order in saved positions.
PROMPT_FIELDS: Mapping[Question, tuple[str, ...]] = {
    Question.LOOK_BOTTOM: ("n",), Question.TURN: (), Question.PLAY: (), Question.SLOT: (),
    Question.DO: (), Question.GUNBAI: ("act",), Question.RETURN_SAS: (), Question.BONUS: (),
    Question.PLACE: ("n",), Question.PLACE_AT: ("hand", "n"), Question.FLIP: ("task", "side"),
    Question.KEEP: ("keep",), Question.BATTLE: ("task",), Question.ANTE: (),
    Question.CASUALTY: ("side",), Question.TRAIN: ("line",), Question.TRAIN_WITH: ("cell",),
    Question.REARRANGE: (), Question.PERM: ("line",), Question.SWAP: ("adjacent",),
    Question.SWAP_WITH: ("first",), Question.RETURN_KUMI: ("side",),
    Question.DISCARD: ("task",), Question.BURY: (), Question.PEEK: ("task", "side"),
    Question.CHOOSE: ("task",),
}  # fmt: skip
_NO_TASK = Task(Step.OP)


@dataclass(frozen=True, init=False)
class Prompt(Pending[Question, Choice]):
    """The question pending: :class:`~sengoku.core.decisions.Pending` and what its answer
    needs: ``n`` (how many more to return / place), ``hand`` (the Kumi being placed),
    ``task`` (the operation asking), ``side`` (whose Sonae the cells are in), ``act`` (the
    action a Gunbai flip is for), ``line``, ``cell``, ``first`` (the first Kumi of a swap),
    ``adjacent`` (a swap of neighbours only), ``keep`` (how many to keep)."""

    n: int = 0
    hand: int = 0
    task: Task = _NO_TASK
    side: int = -1
    act: int = -1
    line: int | None = None
    cell: int = -1
    first: int = -1
    adjacent: bool = False
    keep: int = 0

    def __init__(
        self,
        seat: int,
        kind: Question,
        rule: str,
        options: tuple[Choice, ...],
        n: int = 0,
        hand: int = 0,
        task: Task = _NO_TASK,
        side: int = -1,
        act: int = -1,
        line: int | None = None,
        cell: int = -1,
        first: int = -1,
        adjacent: bool = False,
        keep: int = 0,
    ) -> None:
        d = self.__dict__
        d["seat"] = seat
        d["kind"] = kind
        d["rule"] = rule
        d["options"] = options
        d["n"] = n
        d["hand"] = hand
        d["task"] = task
        d["side"] = side
        d["act"] = act
        d["line"] = line
        d["cell"] = cell
        d["first"] = first
        d["adjacent"] = adjacent
        d["keep"] = keep

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "op": self.kind.value,
            "rule": self.rule,
            "opts": [list(o) for o in self.options],
        }
        for name in PROMPT_FIELDS[self.kind]:
            value = getattr(self, name)
            out[name] = value.to_json() if isinstance(value, Task) else value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Prompt:
        kind = Question(data["op"])
        kw: dict[str, Any] = {}
        for name in PROMPT_FIELDS[kind]:
            if name in data:
                kw[name] = Task.from_json(data[name]) if name == "task" else data[name]
        options = tuple(Choice(*o) for o in data["opts"])
        return cls(int(data["seat"]), kind, str(data["rule"]), options, **kw)

    def __getitem__(self, key: str) -> Any:
        """Read access by the saved name (``prompt["op"]``, ``prompt["seat"]``, ...)."""
        if key == "op":
            return self.kind.value
        if key == "opts":
            return [list(o) for o in self.options]
        return getattr(self, key)


# ----------------------------------------------------------------------------- records


class Played(TypedDict, total=False):
    """The Sashimono being played this turn: whose turn, the card, its space and line, and
    the actions used (indexes: the card's, then 4 + the reference card's)."""

    seat: int
    card: int
    slot: int
    line: int
    used: list[int]


class Battle(TypedDict, total=False):
    """A battle under way: attacker and defender, their lines, the attack bonus of the
    action, whether the defender may ante, the ante cards by seat (keys are ``str(seat)``),
    and once resolved the winner, loser, margin and powers."""

    att: int
    dfn: int
    aline: int
    dline: int
    bonus: int
    dante: bool
    ante: dict[str, list[str]]
    winner: int
    loser: int
    margin: int
    attack: int
    defence: int
