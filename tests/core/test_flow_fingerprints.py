"""The four games play exactly as they did before their turns moved into their flows' tables.

When a phase ends and which follows became data of each game's flow (``end``, ``next``,
``begin`` in ``sengoku/core/flow.py``) instead of code in the rule modules; nothing a player
sees or a record saves may change with that. Random games of each game, over option sets
that go through every phase (Gunshi's custom decks, the Inspiration's three modifications and
its presets; Gunkimono's player counts and house rules; Sashimono's duel and solo), are
hashed: every saved state (``to_json``) along the way and every event ``apply`` returned.
The hashes were taken on the code before the move (``FINGERPRINTS``).

An event's wording (``message``, and its translatable ``say``) is left out of the hash: the
engines' sentences are reworded on their own, and the order, kinds and details of the events
(which phase spoke when) are what the flow decides. A deliberate change of a rule changes a
hash: write the new ones with ``python -m tests.core.test_flow_fingerprints`` and say why in
the commit.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from sengoku.core.registry import load_game

#: (game, options) -> the hash of its random games (see the module's notes).
OPTION_SETS: list[tuple[str, dict[str, Any]]] = [
    ("gungi", {"mode": "intro"}),
    ("gungi", {"mode": "beginner", "first_player": "random"}),
    ("gunkimono", {"players": 2}),
    ("gunkimono", {"players": 4}),
    (
        "gunkimono",
        {
            "players": 3,
            "own_double_stronghold": True,
            "empty_banner_stack": "stay",
            "end_tile_replacement": False,
            "link_own_formations": False,
        },
    ),
    ("gunshi", {}),
    ("gunshi", {"preset": "first_battle"}),
    ("gunshi", {"variant": "inspiration", "modification": 1}),
    ("gunshi", {"variant": "inspiration", "modification": 2, "sanryaku": True}),
    ("gunshi", {"variant": "inspiration", "modification": 3}),
    ("gunshi", {"variant": "custom", "sanryaku": True}),
    ("gunshi", {"variant": "custom", "custom_selection": "secret"}),
    (
        "gunshi",
        {"variant": "custom", "custom_selection": "alternate_all", "move_up_for_selection": True},
    ),
    ("sashimono", {}),
    ("sashimono", {"mode": "solo"}),
]
SEEDS = range(3)
#: A random game longer than this is cut here (Gungi's can be endless).
MAX_PLIES = 1500

FINGERPRINTS: dict[str, str] = {
    'gungi{"mode": "intro"}': "6324d23ff941313f6c5dd47d81353ff5bf6e32fbf7b0a303cba578781ed45375",
    'gungi{"first_player": "random", "mode": "beginner"}': "483cff7c52b75c2a0319bd25c1d241546afd72a49d08f1a28f87d493ac497521",
    'gunkimono{"players": 2}': "5e00f4c8fe8ccfacecb07044df29dccef7cba9f85a1a252e12595f2b1cd97e9f",
    'gunkimono{"players": 4}': "f15244a7322f767ba1287a25809e007b1f37ffc587c80bdd62bf0a6f5f5d5ad1",
    'gunkimono{"empty_banner_stack": "stay", "end_tile_replacement": false, "link_own_formations": false, "own_double_stronghold": true, "players": 3}': "b09ccd83ecedfadf6365395b29f60169fc157341f7897848b1fafbb72f512256",
    "gunshi{}": "bf318306ba3e65369ef65555cc23e506edcc10ff1d00b960e8d0222360072fa5",
    'gunshi{"preset": "first_battle"}': "c470f651ba8b676cc4d5efc788bf80ac990d0bd6a8ca233dbdce9e95b385b8e1",
    'gunshi{"modification": 1, "variant": "inspiration"}': "1e69d7c7364d63029bdc81fdf23a53595c5dcfddea402c0e7a432f2ca7f843bc",
    'gunshi{"modification": 2, "sanryaku": true, "variant": "inspiration"}': "28952b91b0ad953bf0e2dd8c6ce73dd8972f8f94b09169fa0b5ec37f5ea91be9",
    'gunshi{"modification": 3, "variant": "inspiration"}': "bf5a345d67e810f0e0a574d3ed68ac104ae19ce83069e6de0d3a9c162ccbda80",
    'gunshi{"sanryaku": true, "variant": "custom"}': "8244755f303dd0dc28ab8462090ec7274aabc7562a2be5973f112c2e524fac5c",
    'gunshi{"custom_selection": "secret", "variant": "custom"}': "22938af6f1bd9aa7bd6e2acc7406acafee9c46ca4de76ff2a920f5d5dd7c0396",
    'gunshi{"custom_selection": "alternate_all", "move_up_for_selection": true, "variant": "custom"}': "abed4a432806b68dc539dd30a6bc674419a928282942014d759fdc22915193d1",
    "sashimono{}": "83fcef8cb5773b7e43911c1a371242fd8a5aafcbc810dab5c534780490bac66e",
    'sashimono{"mode": "solo"}': "f9bec1d4dac642d9a4fa9bdb0cc985a661b3df8629c409dee76809b30d932520",
}


def _key(name: str, options: dict[str, Any]) -> str:
    return name + json.dumps(options, sort_keys=True)


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, default=str).encode()


def fingerprint(name: str, options: dict[str, Any]) -> str:
    """The hash of ``SEEDS`` random games of ``name`` with ``options``."""
    game = load_game(name)
    digest = hashlib.sha256()
    for seed in SEEDS:
        state = game.new_state(seed, **options)
        rng = random.Random(seed * 7919 + 1)
        digest.update(_dump(state.to_json()))
        plies = 0
        while not state.is_terminal() and plies < MAX_PLIES:
            events = state.apply(rng.choice(state.legal_actions()))
            for e in events:
                digest.update(_dump({k: v for k, v in e.items() if k not in ("message", "say")}))
            digest.update(_dump(state.to_json()))
            plies += 1
        digest.update(f"{plies} plies".encode())
    return digest.hexdigest()


@pytest.mark.parametrize(("name", "options"), OPTION_SETS, ids=[_key(n, o) for n, o in OPTION_SETS])
def test_random_games_play_as_before_the_flow_tables(name: str, options: dict[str, Any]) -> None:
    assert fingerprint(name, options) == FINGERPRINTS[_key(name, options)], (
        f"{name} with {options}: a state or an event of a random game changed"
    )


if __name__ == "__main__":  # print the table of hashes for FINGERPRINTS
    for n, o in OPTION_SETS:
        print(f"    {_key(n, o)!r}: {fingerprint(n, o)!r},")
