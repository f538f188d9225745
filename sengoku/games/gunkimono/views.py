"""The shape of a Gunkimono view, as typed dictionaries matching ``view.schema.json``.

``hidden_information.view`` builds a :class:`GunkimonoView`; the published JSON Schema says
the same in JSON (``tests/gunkimono/test_view_types.py`` holds the two together, key by key).
"""

# No ``from __future__ import annotations``: TypedDict reads ``NotRequired`` only from
# evaluated annotations (``ScoringView.__required_keys__``).
from typing import Any, NotRequired, TypedDict


class BoardView(TypedDict):
    width: int
    height: int
    #: Troop letter on top of each square ("?": a face-down support).
    troops: list[str]
    symbols: list[int]
    levels: list[int]
    #: The seat whose stronghold stands on each square, -1 for none.
    strongholds: list[int]
    #: The formation of each square, as the id of its lowest square.
    formation: list[int]


class TileHalf(TypedDict):
    troop: str
    symbols: int


class TileFace(TypedDict):
    halves: list[TileHalf]


class ScoringView(TypedDict):
    kind: str
    troop: str | None
    square: str | None
    #: None for a banner (its value may be hidden; ``banner`` names its kind).
    points: int | None
    banner: NotRequired[str]


class LastTurnView(TypedDict):
    seat: int
    squares: list[str]
    scores: list[ScoringView]


class PendingView(TypedDict):
    square: str
    troop: str
    symbols: int
    vp: int
    vp_allowed: bool


class BannerView(TypedDict):
    kind: str
    column: str
    #: Shown to its owner, and to all once the game is over.
    value: int | None


class PlayerView(TypedDict):
    score: int
    vp_formations: int
    vp_strongholds: int
    banner_points: int | None
    total: int | None
    controlled_troops: int
    #: Shown to its owner only.
    hand: list[str] | None
    hand_size: int
    hand_known: list[str]
    reserve: list[str]
    #: Each column's marker row (None: off the track).
    honor: list[int | None]
    strongholds: list[str]
    strongholds_left: int
    banners: list[BannerView]


class GunkimonoView(TypedDict):
    game: str
    seat: int | None
    players_count: int
    options: dict[str, Any]
    current_player: int
    phase: str
    turn: int
    turns: int
    decisions: int
    board: BoardView
    troop_names: dict[str, str]
    small_tile_symbols: int
    tiles: dict[str, TileFace]
    last_turn: LastTurnView | None
    row: list[str]
    stack_size: int
    end_stack_size: int
    end_stack_in_play: bool
    end_triggered: bool
    removed_count: int
    placed: list[str]
    placed_small: list[list[int]]
    banner_stacks: list[list[str]]
    ending_row: int
    stronghold_rows: list[int]
    pending: list[PendingView]
    support_square: str | None
    placed_large: bool
    passes: int
    built_at: list[list[int]]
    players: list[PlayerView]
    #: Outcome JSON once the game is over.
    outcome: dict[str, Any] | None


__all__ = [
    "BannerView",
    "BoardView",
    "GunkimonoView",
    "LastTurnView",
    "PendingView",
    "PlayerView",
    "ScoringView",
    "TileFace",
    "TileHalf",
]
