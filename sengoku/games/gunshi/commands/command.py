"""The command in progress: which card resolves, what it does, and the decision it waits on.

Rulebook, Phase 3 "Units Follow Orders": a card's command is carried out by one decision
after another (a unit, a direction, the units that join its chain, ...). A :class:`Command`
records that progress; :class:`Step` names the decision it waits on. A field left ``None``
has not been decided yet: ``command_view`` shows only the decided fields.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from mypy_extensions import mypyc_attr

from sengoku.core.sentence import Word, say
from sengoku.core.substate import Part, own_copy, part_field
from sengoku.games.gunshi.battlefield import CELL_NAMES, cn
from sengoku.games.gunshi.data import CARDS, DIR_NAMES, LETTERS

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState

T = TypeVar("T")


class CommandType(StrEnum):
    """What the card resolving does (a card with two uses takes one of them)."""

    MOVE = "move"  # Move
    LIGHT = "light"  # Light Infantry
    RAPID = "rapid"  # Rapid-Move
    REORIENT = "reorient"  # Reorient or Shoot / Crossbow or Reorient: Reorient
    SHOOT = "shoot"  # Reorient or Shoot: Shoot
    CROSSBOW = "crossbow"  # Crossbow or Reorient: Crossbow
    FIRE = "fire"  # Rapid Fire
    FENCE = "fence"  # Build Fence
    REINFORCE = "reinforce"  # Reinforce
    ENROUTE = "enroute"  # Reinforce en Route
    LOOK = "look"  # Scout Commands
    ASK = "ask"  # Scout the Shogun
    SWITCH = "switch"  # Strategic Switch


class Step(StrEnum):
    """The decision a command waits on."""

    MODE = "mode"  # which of a card's two commands
    UNIT = "unit"  # the unit that carries it out (the leader of a chain)
    DIR = "dir"  # the direction of a move
    RAPID = "rapid"  # Rapid-Move: move, or reorient first
    RFACE = "rface"  # Rapid-Move: reorient after moving
    CHAIN = "chain"  # the next unit of a chain, or done
    TO = "to"  # where a unit moves, when it has a choice
    INVADE = "invade"  # invade from the Invasion Zone, or stay
    FACE = "face"  # a facing
    HIT = "hit"  # an Archer's target
    FENCE = "fence"  # the edge of a new Fence
    PIECE = "piece"  # the kind of unit of a reinforcement
    AT = "at"  # the cell of a reinforcement
    LOOK = "look"  # Scout Commands: the position to look at
    ASK = "ask"  # Scout the Shogun: the unit to ask about
    SWAP = "swap"  # Strategic Switch: the unit to switch with


@dataclass
class Command:
    """The progress of the command being resolved. Units are token ids, cells board indices,
    directions 0..3 (``DIR_NAMES``)."""

    card: str
    type: CommandType | None = None  # None while the card's use is still to be chosen
    step: Step = Step.UNIT
    modes: tuple[str, ...] | None = None  # the uses to choose from (Step.MODE)
    mode: str | None = None  # the use chosen
    leader: int | None = None  # the unit leading the command (and its chain)
    origin: int | None = None  # the leader's cell when it was chosen (the chain's centre)
    used: tuple[int, ...] | None = None  # units of the chain that have acted
    dir: int | None = None  # the direction of a move or of a Reorient
    shooter: int | None = None  # the Archer shooting now
    builder: int | None = None  # the Infantry building now
    shots: int | None = None  # Rapid Fire: shots taken
    base: int | None = None  # Reinforce en Route: the unit the new one joins
    piece: str | None = None  # Reinforce: the unit type
    cell: int | None = None  # Reinforce: the cell
    first: int | None = None  # Strategic Switch: the first unit
    sel: tuple[int, ...] | None = None  # Move: the units chosen to join the chain
    moved: tuple[int, ...] | None = None  # Move: (kept for the record format; always empty)
    trap_moved: tuple[int, ...] | None = None  # units a Chain Trap moved (they move no more)
    rapid: str | None = None  # Rapid-Move: "", "reoriented", "moving" or "invaded"
    mates: tuple[int, ...] | None = None  # Move: units able to join the chain
    order: tuple[int, ...] | None = None  # Move: units still to move, front first
    invader: int | None = None  # the unit that may invade now

    # Written out (the dataclass would make the same one): compiled (mypyc), the dataclass's
    # generated ``__init__`` runs as Python, and a command is made for every card resolved.
    def __init__(
        self,
        card: str,
        type: CommandType | None = None,
        step: Step = Step.UNIT,
        modes: tuple[str, ...] | None = None,
        mode: str | None = None,
        leader: int | None = None,
        origin: int | None = None,
        used: tuple[int, ...] | None = None,
        dir: int | None = None,
        shooter: int | None = None,
        builder: int | None = None,
        shots: int | None = None,
        base: int | None = None,
        piece: str | None = None,
        cell: int | None = None,
        first: int | None = None,
        sel: tuple[int, ...] | None = None,
        moved: tuple[int, ...] | None = None,
        trap_moved: tuple[int, ...] | None = None,
        rapid: str | None = None,
        mates: tuple[int, ...] | None = None,
        order: tuple[int, ...] | None = None,
        invader: int | None = None,
    ) -> None:
        self.card = card
        self.type = type
        self.step = step
        self.modes = modes
        self.mode = mode
        self.leader = leader
        self.origin = origin
        self.used = used
        self.dir = dir
        self.shooter = shooter
        self.builder = builder
        self.shots = shots
        self.base = base
        self.piece = piece
        self.cell = cell
        self.first = first
        self.sel = sel
        self.moved = moved
        self.trap_moved = trap_moved
        self.rapid = rapid
        self.mates = mates
        self.order = order
        self.invader = invader

    def copy(self) -> Command:
        """A copy to change apart (fields are immutable values: a shallow copy is enough)."""
        # Through the constructor, every field named: compiled (mypyc), a Command is a native
        # class, without the ``__dict__`` a copy of it could update.
        return Command(*self._fields())

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled and copied through the constructor, every field in order: compiled (mypyc),
        # the class's ``__new__`` runs the written-out ``__init__``, which needs the card, so
        # the default protocol's empty object cannot be made.
        return (Command, self._fields())

    def _fields(self) -> tuple[Any, ...]:
        """Every field, in the constructor's order (``copy`` and ``__reduce__``)."""
        return (
            self.card,
            self.type,
            self.step,
            self.modes,
            self.mode,
            self.leader,
            self.origin,
            self.used,
            self.dir,
            self.shooter,
            self.builder,
            self.shots,
            self.base,
            self.piece,
            self.cell,
            self.first,
            self.sel,
            self.moved,
            self.trap_moved,
            self.rapid,
            self.mates,
            self.order,
            self.invader,
        )

    def to_json(self) -> dict[str, Any]:
        """The decided fields, as the state's JSON holds them (ids, not names), in the order
        the command decided them (``_KEY_ORDER``), so that position strings stay stable."""
        out: dict[str, Any] = {}
        for name in key_order(self):
            v = getattr(self, name)
            if v is None:
                continue
            if isinstance(v, StrEnum):
                v = v.value
            elif isinstance(v, tuple):
                v = list(v)
            out[name] = v
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Command:
        """The inverse of :meth:`to_json`; raises ValueError naming a field it cannot read."""
        known = {f.name for f in fields(cls)}
        kw: dict[str, Any] = {}
        for k, v in data.items():
            if k not in known:
                raise ValueError(f"command field {k!r} is not a field of a command")
            if k == "type":
                kw[k] = CommandType(v)
            elif k == "step":
                kw[k] = Step(v)
            elif isinstance(v, list):
                kw[k] = tuple(v)
            else:
                kw[k] = v
        if "card" not in kw:
            raise ValueError("the command needs its 'card'")
        return cls(**kw)


_FIELDS = tuple(f.name for f in fields(Command))
_MOVE_ORDER: tuple[str, ...] = ("card", "type", "step", "leader", "sel", "moved", "trap_moved")
_MOVE_ORDER += ("rapid", "dir", "mates", "order", "invader")
_SHOOT_ORDER = ("card", "mode", "type", "step", "used", "leader", "origin", "shooter")
_SCOUT_ORDER = ("card", "mode", "type", "step")
#: The order in which each kind of command decides its fields (the order of the JSON keys).
_KEY_ORDER: dict[CommandType | None, tuple[str, ...]] = {
    None: ("card", "step", "modes"),
    CommandType.MOVE: _MOVE_ORDER,
    CommandType.LIGHT: _MOVE_ORDER,
    CommandType.RAPID: _MOVE_ORDER,
    CommandType.REORIENT: ("card", "mode", "type", "step", "leader", "origin", "used", "dir"),
    CommandType.SHOOT: _SHOOT_ORDER,
    CommandType.CROSSBOW: _SHOOT_ORDER,
    CommandType.FIRE: ("card", "type", "step", "shots", "leader", "origin", "shooter", "used"),
    CommandType.FENCE: ("card", "type", "step", "used", "leader", "origin", "builder"),
    CommandType.REINFORCE: ("card", "type", "step", "piece", "cell"),
    CommandType.ENROUTE: ("card", "type", "step", "base", "piece", "cell"),
    CommandType.LOOK: _SCOUT_ORDER,
    CommandType.ASK: _SCOUT_ORDER,
    CommandType.SWITCH: ("card", "type", "step", "first"),
}
_CHOSEN = ("card", "step", "modes", "mode", "type")  # a card with two Commands, chosen


def key_order(cmd: Command) -> tuple[str, ...]:
    return _order_for(cmd.type, cmd.modes is not None)


@cache
def _order_for(type_: CommandType | None, chosen: bool) -> tuple[str, ...]:
    order = _KEY_ORDER[type_]
    if chosen:
        order = _CHOSEN + tuple(k for k in order if k not in _CHOSEN)
    return order + tuple(k for k in _FIELDS if k not in order)


def need(value: T | None) -> T:
    """A field the current step has decided (a command in this step always has it)."""
    assert value is not None, "the command has not decided this yet"
    return value


def done(st: GunshiState) -> None:
    """The command is fully carried out."""
    st.orders.cmd = None


def nothing(st: GunshiState, why: str) -> None:
    """Compulsory resolution: a command that cannot be carried out (or paid) does nothing."""
    st.orders.cmd = None
    # ``why`` is one of the reasons the commands mark with N_: the catalog words it.
    st.emit(None, "no_effect", say("Nothing happens: {why}.", why=Word(why)), reason=why)


@mypyc_attr(native_class=False)
@dataclass(slots=True)
class UnitsFollowOrders(Part):
    """The command being resolved (None: no card is resolving, or it has been carried out)."""

    cmd: Command | None = part_field(own_copy(Command.from_json), default=None)


UNIT_KEYS = ("leader", "shooter", "builder", "first", "base", "invader")
UNITS_KEYS = ("mates", "sel", "used", "order", "trap_moved")


def command_view(cmd: Command) -> dict[str, Any]:
    """The command being resolved, for players: units by letter, cells and facings by name."""
    out: dict[str, Any] = {}
    for k, v in cmd.to_json().items():
        if k in UNIT_KEYS:
            out[k] = LETTERS[v]
        elif k in UNITS_KEYS:
            out[k] = [LETTERS[u] for u in v]
        elif k in ("origin", "cell"):
            out[k] = cn(v)
        elif k == "dir":
            out[k] = DIR_NAMES[v]
        else:
            out[k] = v
    return out


def command_from_view(view: dict[str, Any]) -> Command:
    """The inverse of ``command_view`` (position strings written mid-command).

    Raises ValueError, naming the field, for anything ``command_view`` cannot have written.
    """
    if not isinstance(view, dict):
        raise ValueError(f"the command is a JSON object, not {view!r}")
    out: dict[str, Any] = {}
    for k, v in view.items():
        try:
            if k in UNIT_KEYS:
                out[k] = LETTERS.index(v)
            elif k in UNITS_KEYS:
                out[k] = tuple(LETTERS.index(x) for x in v)
            elif k in ("origin", "cell"):
                out[k] = CELL_NAMES.index(v)
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
    out = {k: v for k, v in out.items() if v is not None}
    try:
        return Command.from_json(out)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"command: {exc}") from None


def open_command(st: GunshiState, cmd: Command, why: str, affordable: bool = True) -> None:
    """Make ``cmd`` the command being resolved; if it cannot be carried out (or paid),
    nothing happens (compulsory resolution: act when able, else nothing)."""
    from sengoku.games.gunshi.commands.universal_rules import possible

    st.orders.cmd = cmd
    if not affordable or not possible(st, cmd):
        nothing(st, why)


def offer_modes(st: GunshiState, cmd: Command, modes: list[str], why: str) -> None:
    """A card with two Commands: none possible, exactly one (taken), or a choice."""
    from sengoku.games.gunshi.commands.universal_rules import set_mode

    if not modes:
        nothing(st, why)
    elif len(modes) == 1:
        st.orders.cmd = cmd
        set_mode(st, cmd, modes[0])
    else:
        cmd.step = Step.MODE
        cmd.modes = tuple(modes)
        st.orders.cmd = cmd
