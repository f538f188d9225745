"""Position strings in Advanced Variant 1 (The Gunshi's Inspiration) at every stage (issue 42).

A position loaded at any stage must hold the Inspiration's state a game played to it holds:
who has had the Inspiration, Modification 3's shared pool, and the count of prepared cards
(Modifications 1 and 2). Without it the first invasion after loading used the Inspiration up
without offering a card, or offered it a second time.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from sengoku.games.gunshi.position import PositionError
from sengoku.games.gunshi.state import GunshiState
from tests.gunshi.helpers import GAME

#: What a position string cannot carry (hands, decks, face-down cards, the Shogun, the
#: opponent's knowledge of them) and the prepared cards' names (Modification 2's are hidden):
#: copied from the game played into the loaded state, so that both play on alike.
_HIDDEN = (
    ("cards", "hand"),
    ("cards", "deck"),
    ("cards", "row"),
    ("cards", "lightning"),
    ("battle", "queue"),
    ("battle", "cur"),
    ("cards", "stock"),
    ("shoguns", "shogun"),
    ("shoguns", "candidates"),
    ("shoguns", "revealed"),
    ("inspiration", "prepared"),
    ("inspiration", "unused"),
    ("inspiration", "removed"),
    ("knowledge", "bags"),
    ("knowledge", "next_bag"),
    ("inspiration", "removed_bag"),
    ("inspiration", "box_bag"),
)


def _options(modification: int) -> dict[str, Any]:
    options: dict[str, Any] = {"variant": "inspiration", "modification": modification}
    if modification == 3:
        options["sanryaku"] = True
    return options


def _load_alike(s: GunshiState, options: dict[str, Any]) -> GunshiState:
    """``s`` written as a position string and loaded, then given ``s``'s hidden parts."""
    text = GAME.position(s)
    again = GAME.from_fen(text, **options)
    assert GAME.position(again) == text
    # rulebook: "Advanced Variant 1 - The Gunshi's Inspiration": once per game; the
    # Inspiration's public state comes back from the string itself.
    assert again.inspiration.swap_done == s.inspiration.swap_done, text
    assert again.inspiration.pool == s.inspiration.pool, text
    assert [len(x) for x in again.inspiration.prepared] == [
        len(x) for x in s.inspiration.prepared
    ], text
    for part, name in _HIDDEN:
        setattr(getattr(again, part), name, copy.deepcopy(getattr(getattr(s, part), name)))
    again.forget_legal_actions()
    return again


@pytest.mark.parametrize("modification", [1, 2, 3])
def test_positions_at_every_stage_play_on_as_the_game_played_to_them(modification: int) -> None:
    # Every battle position of random games: loaded (hidden parts aside), it offers the same
    # decisions and plays on the same, position string for position string, until the end.
    options = _options(modification)
    stages: set[str] = set()
    used = False
    want = {"send", "command", "inspiration", "inspiration_remove"}
    for seed in range(60):  # until random play has invaded and had the Inspiration
        if stages >= want and used:
            break
        rng = random.Random(seed)
        s = GAME.new_state(seed, **options)
        battle_ply = 0
        while not s.is_terminal() and s.ply < 600:
            if s.phase == "battle":
                stages.add(GAME.position(s).split()[7].split(",")[0])
                used = used or any(s.inspiration.swap_done)
                if battle_ply % 3 == 0:  # every third position keeps the test quick
                    _play_on_alike(s, _load_alike(s, options), random.Random(seed * 1000 + s.ply))
                battle_ply += 1
            s.apply(rng.choice(s.legal_actions()))
    assert stages >= want
    assert used  # positions after an Inspiration were loaded as well


def _play_on_alike(s: GunshiState, again: GunshiState, rng: random.Random) -> None:
    s = s.clone()
    for _ in range(60):
        legal = s.legal_actions()
        assert again.legal_actions() == legal, GAME.position(s)
        if not legal:
            break
        action = rng.choice(legal)
        s.apply(action)
        again.apply(action)
        assert GAME.position(again) == GAME.position(s)


def test_the_inspiration_used_is_written_and_loaded() -> None:
    text = "bs6/7/7/3An3/7/7/7 - r 18,18 4,4 1,0 -/- send,0,dd"
    s = GAME.from_fen(text + ' {"used":"b"}', variant="inspiration", modification=2)
    assert s.inspiration.swap_done == [False, True]
    assert [len(x) for x in s.inspiration.prepared] == [3, 2]
    assert GAME.position(s) == text + ' {"used":"b"}'
    with pytest.raises(PositionError, match="already had"):
        GAME.from_fen(
            text.replace("send", "inspiration") + ' {"used":"r"}',
            variant="inspiration",
            modification=1,
        )
    with pytest.raises(PositionError, match="used"):
        GAME.from_fen(text + ' {"used":"x"}', variant="inspiration", modification=1)
    with pytest.raises(PositionError, match="pool"):  # Modification 3 needs its pool
        GAME.from_fen(text, variant="inspiration", modification=3)
    with pytest.raises(PositionError, match="variant"):
        GAME.from_fen(text + ' {"used":"b"}')
