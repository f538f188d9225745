"""Gunshi's choices as data, in the rulebook's words: what the browser shows and clicks on.

The browser draws each choice on its object (a cell, an edge, an arrow, a card) from these
fields alone, so each kind must carry the object it is clicked on.
"""

from __future__ import annotations

import random
from typing import Any

from sengoku.core.registry import load_game

GAME = load_game("gunshi")

#: The object each kind is clicked on in the browser (sengoku/web/js/games/gunshi.js).
CLICKED_ON = {
    "unit": "from",
    "chain": "from",
    "to": "to",
    "at": "to",
    "hit": "to",
    "swap": "to",
    "ask": "to",
    "shogun": "unit",
    "fence": "edge",
    "face": "facing",
    "dir": "direction",
    "send": "card",
    "hand": "card",
    "deck": "card",
    "pick": "card",
    "take": "card",
    "remove": "card",
    "place": "piece",
}


def random_game(seed: int, **options: Any) -> list[tuple[Any, list[Any]]]:
    """Each state of a random game with its described legal actions."""
    state = GAME.new_state(seed, **options)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal() and len(out) < 700:
        legal = state.legal_actions()
        out.append((state.clone(), GAME.describe_actions(state, legal)))
        state.apply(rng.choice(legal))
    return out


def test_every_choice_carries_the_object_it_is_clicked_on() -> None:
    seen: set[str] = set()
    for seed in (1, 2):
        for _state, described in random_game(seed, variant="inspiration", modification=3):
            for d in described:
                seen.add(d.kind)
                key = CLICKED_ON.get(d.kind)
                if key:
                    assert d.objects.get(key), (d.kind, d.notation, d.objects)
                assert d.label and d.text.endswith((".", "!", "?")), d
    assert {"unit", "to", "at", "face", "shogun", "send", "pick", "fence"} <= seen, seen


def test_labels_name_cells_edges_and_units_in_words() -> None:
    described = [d for _s, ds in random_game(1) for d in ds]
    fence = next(d for d in described if d.kind == "fence")
    side = "north" if fence.objects["edge"].endswith("n") else "east"
    assert fence.label == f"Fence {side} of {fence.objects['edge'][:-1]}"
    at = next(d for d in described if d.kind == "at")
    assert at.label == f"Place on {at.objects['to']}"
    to = next(d for d in described if d.kind == "to")
    assert to.label == f"Move to {to.objects['to']}"
    assert to.objects["unit"] in to.text  # "Move your Cavalry N to e4."
    hit = next(d for d in described if d.kind == "hit")
    assert f"on {hit.objects['to']}" in hit.text


def test_a_formation_facing_names_the_unit_just_placed() -> None:
    state = GAME.new_state(0)
    for notation in ("place I", "at d2"):
        state.apply(GAME.parse_action(state, notation))
    faces = GAME.describe_actions(state, state.legal_actions())
    assert faces and all(d.kind == "face" for d in faces)
    assert all(d.text.startswith("Turn the Infantry unit on d2 to face ") for d in faces)


def test_no_description_names_the_hidden_shogun() -> None:
    """Descriptions go to the seat to act only, and never say which unit is a Shogun."""
    for state, described in random_game(3):
        if state.phase != "battle":
            continue
        for d in described:
            assert "Shogun" not in d.label or d.kind in ("mode", "ask"), d
