"""The types of what ``GunshiState.view(seat)`` returns, as ``view.schema.json`` publishes it.

One ``TypedDict`` per object of the schema (a test holds their keys to the schema's
``properties`` and ``required``), so that ``hidden_information.view`` is checked against the
published shape. The command in progress and the outcome keep their own writers' shapes
(``command_view``, ``Outcome.to_json``).
"""

# No ``from __future__ import annotations``: TypedDict reads ``NotRequired`` from evaluated
# annotations only.
from typing import Any, Literal, NotRequired, TypedDict


class CardSlotView(TypedDict):
    """A Command Row position or the Lightning position: the card (None where hidden)."""

    card: str | None
    face_up: bool


class PlayerView(TypedDict):
    """One player's side as the viewing seat may see it."""

    colour: str
    points: int
    fences_left: int
    invaders: int
    hand: list[str | None]
    deck: list[str | None]
    stock: list[str | None]
    row: list[CardSlotView]
    lightning: CardSlotView | None
    chain_trap_beside: bool
    face_down_next: bool
    shogun: str | None
    shogun_chosen: bool
    shogun_revealed: bool
    shogun_candidates: list[str]
    prepared: list[str | None]
    removed: int
    inspiration_used: bool
    picks: list[str | None]
    mod3_choices: list[str | None]
    #: Own side only, and not under Modification 1.
    advanced_in_box: NotRequired[list[str]]


class UnitView(TypedDict):
    """A unit on the Field."""

    letter: str
    type: str
    owner: int
    cell: str
    facing: str
    shield: bool


class FenceView(TypedDict):
    """A Fence: its edge (``c3n``) and the seat that placed it."""

    edge: str
    owner: int


class ReserveView(TypedDict):
    """Units left in the shared Reserve, by type."""

    I: int  # noqa: E741 (the rulebook's letter for Infantry)
    A: int
    C: int


class ClockView(TypedDict):
    """The time control, and whose tournament clock runs (None: none)."""

    time_control: str
    seconds_each: int | None
    running: int | None


class GunshiView(TypedDict):
    """What ``view(seat)`` returns."""

    game: Literal["gunshi"]
    seat: int | None
    phase: str
    step: str
    to_act: int
    turn: int
    ply: int
    players: list[PlayerView]
    units: list[UnitView]
    fences: list[FenceView]
    reserve: ReserveView
    pool: list[str]
    formation_piece: str
    formation_cell: str | None
    resolving: str | None
    queue: list[str | None]
    command: dict[str, Any] | None
    sent_this_turn: int
    clock: ClockView
    options: dict[str, Any]
    outcome: dict[str, Any] | None
