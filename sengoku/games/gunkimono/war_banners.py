"""War banners (rulebook, "Claiming War Banner Tiles").

On each column's space of the honor track's ending row sits a stack of war banners: dragon
on crane on lotus (no lotus with 2 players), values shuffled within each kind at setup
(``setup.py``). A marker reaching the ending row takes the top banner of its column (its
kind is public, its value known only to its owner) and leaves the track. With the column's
stack empty, option ``empty_banner_stack`` rules: ``remove`` takes the marker off without a
banner, ``stay`` leaves it on the ending row. Banner values count at the end
(``end_of_the_game.final_scores``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

import sengoku.games.gunkimono.turn_record as turn_record
from sengoku.core.game import Event, event
from sengoku.core.sentence import Word, say
from sengoku.core.substate import INT_ROWS_OF_ROWS, Part, part_field
from sengoku.games.gunkimono.battlefield import NAMES, troop_word
from sengoku.games.gunkimono.data import components

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

_C: Final = components()
#: Banner kind names, by kind index.
BANNER_KINDS: Final[tuple[str, ...]] = tuple(_C.banner_kinds)


@mypyc_attr(native_class=False)  # a subclass of the core's Part, a Python class
@dataclass(slots=True)
class WarBanners(Part):
    """The banner stacks of the ending row and the banners each seat has claimed."""

    #: Each column's stack, ``[kind, value]``, top last (dealt by ``setup.py``).
    banner_stacks: list[list[list[int]]] = part_field(INT_ROWS_OF_ROWS)
    #: Each seat's claimed banners, ``[kind, value, column]``.
    banners: list[list[list[int]]] = part_field(INT_ROWS_OF_ROWS)

    @classmethod
    def fresh(cls, players: int) -> WarBanners:
        """Before the deal: no banners anywhere."""
        return cls([[] for _ in range(5)], [[] for _ in range(players)])


def reach_ending_row(state: GunkimonoState, seat: int, troop: int, events: list[Event]) -> bool:
    """The seat's ``troop`` marker has reached the ending row: claim that column's banner.
    True if the marker leaves the track (``honor_track.py`` takes it off)."""
    stack = state.war_banners.banner_stacks[troop]
    if stack:
        kind, value = stack.pop()
        state.war_banners.banners[seat].append([kind, value, troop])
        turn_record.scored(state, turn_record.BANNER, troop, -1, kind)
        kname = _C.banner_kinds[kind]
        if not state.muted:
            events.append(
                event(
                    "banner",
                    seat=seat,
                    kind=kname,
                    column=NAMES[troop],
                    # The kind is public (the banners' backs show it); the value is told below,
                    # to the seat alone.
                    message=say(
                        "Seat {seat} claims a {kind} war banner from the {troop} column; that honor "
                        "marker leaves the track.",
                        seat=seat,
                        kind=Word(kname),
                        troop=troop_word(troop),
                    ),
                )
            )
        if not state.muted:
            events.append(
                event(
                    "banner_value",
                    audience=[seat],
                    kind=kname,
                    value=value,
                    message=say(
                        "Your {kind} banner is worth {value} VP.", kind=Word(kname), value=value
                    ),
                )
            )
        return True
    if state.options["empty_banner_stack"] == "remove":
        if not state.muted:
            events.append(
                event(
                    "banner",
                    seat=seat,
                    kind=None,
                    column=NAMES[troop],
                    message=say(
                        "The {troop} banner stack is empty: seat {seat}'s marker leaves the track "
                        "without a banner.",
                        troop=troop_word(troop),
                        seat=seat,
                    ),
                )
            )
        return True
    return False


def banner_total(state: GunkimonoState, seat: int) -> int:
    """The values of the war banners the seat has claimed."""
    return sum(b[1] for b in state.war_banners.banners[seat])


__all__ = ["BANNER_KINDS", "WarBanners", "banner_total", "reach_ending_row"]
