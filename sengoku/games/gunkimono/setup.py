"""Setting Up the Game.

* The large army tiles are shuffled: all 60 with 4-5 players; with 3 players 10 are removed
  unseen, with 2 players 20.
* The top 5 tiles, shuffled with the end-of-game tile, form the end-game stack, kept aside
  under the cover tile (``end_of_the_game.py``); the rest is the draw stack.
* 3 tiles are turned face up (the row); each player is dealt a hand of 3 and has a reserve
  of 5 small tiles, one of each troop type.
* On each column's space of the honor track's ending row: a stack of war banners, dragon
  on crane on lotus (no lotus with 2 players), values shuffled within each kind.
* Every honor marker starts on row 0; seat 0 is the start player.

Every shuffle is made here from the game's seed and stored in the state, so a record (seed
and actions) replays exactly.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from sengoku.games.gunkimono.data import components
from sengoku.games.gunkimono.end_of_the_game import END_TILE

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

_C: Final = components()

#: Large tiles removed unseen, by player count (none with 4-5 players).
REMOVED_TILES: Final = {2: 20, 3: 10}
#: Tiles of the end-game stack besides the end-of-game tile.
END_STACK_TILES: Final = 5
#: Tiles turned face up for the row, and dealt to each hand.
ROW_TILES = HAND_TILES = 3


def set_up(state: GunkimonoState, seed: int) -> None:
    """Deal a new game into the empty ``state`` (the battlefield as printed)."""
    n = state.num_players
    rng = random.Random(seed)
    tiles = list(_C.large_tiles)
    rng.shuffle(tiles)
    remove = REMOVED_TILES.get(n, 0)
    state.supply.removed = sorted(tiles[:remove])
    tiles = tiles[remove:]
    end_stack = tiles[-END_STACK_TILES:] + [END_TILE]
    tiles = tiles[:-END_STACK_TILES]
    rng.shuffle(end_stack)
    state.ending.end_stack = end_stack
    state.supply.stack = tiles
    state.supply.row = [state.supply.stack.pop() for _ in range(ROW_TILES)]
    for seat in range(n):
        state.supply.hands[seat] = [state.supply.stack.pop() for _ in range(HAND_TILES)]
    # Banner stacks on each space of the ending row: dragon over crane over lotus
    # (lotus left out with 2 players), so the kinds are stacked from the bottom.
    for kind in reversed(range(len(_C.banner_kinds))):
        if n < _C.banner_min_players[kind]:
            continue
        values = list(_C.banner_values[kind])
        rng.shuffle(values)
        for col in range(5):
            state.war_banners.banner_stacks[col].append([kind, values[col]])
