"""``State.mute``: a search's state tells nothing and plays exactly the same rules.

The searches (sengoku/ai/tree.py) mute every state they play on, since they read no event
and Gunshi's and Sashimono's events cost about a quarter of a ply (Gunkimono's a tenth). For
every game and option set: a muted clone follows the original's random game move by move
with the same legal actions, JSON, player to act and outcome; a game that honours ``mute``
returns no events, and the original still tells everything (its clones are not muted)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sengoku.core.registry import load_game
from tests.contract.cases import PARAMS, canonical

#: The games whose events are skipped when muted (the others build and drop them).
SILENT_WHEN_MUTED = {"gunkimono", "gunshi", "sashimono"}


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_a_muted_state_plays_the_same_game_and_tells_nothing(
    name: str, options: dict[str, Any]
) -> None:
    game = load_game(name)
    rng = random.Random(11)
    told = copies = copies_told = 0
    for seed in range(2):
        state = game.new_state(seed, **options)
        muted = state.clone()
        muted.mute()
        while not state.is_terminal():
            legal = state.legal_actions()
            assert [str(a) for a in muted.legal_actions()] == [str(a) for a in legal]
            action = rng.choice(legal)
            events = state.apply(action)
            quiet = muted.apply(muted.legal_actions()[legal.index(action)])
            told += len(events)
            if name in SILENT_WHEN_MUTED:
                assert quiet == []
            assert canonical(muted.to_json()) == canonical(state.to_json())
            assert muted.current_player == state.current_player
            # A clone of a muted state tells again, like any fresh state: played on, it
            # tells as much as a clone of the original.
            if not state.is_terminal() and rng.random() < 0.1:
                copy, twin = muted.clone(), state.clone()
                first = twin.legal_actions()[0]
                said = copy.apply(copy.legal_actions()[0])
                assert [e.get("message") for e in said] == [
                    e.get("message") for e in twin.apply(first)
                ]
                copies += 1
                copies_told += len(said)
        assert muted.is_terminal()
        assert muted.outcome() == state.outcome()
    assert told > 0, "the unmuted games told what happened"
    assert copies_told > 0 or copies == 0, "the muted state's clones told nothing"
