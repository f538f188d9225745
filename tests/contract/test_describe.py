"""Every legal action can be described as data (``Game.describe_action``), every game.

In random play of every registered game and its main option sets, every legal action of
the positions visited has a non-empty ``kind``, ``label`` and ``text`` free of
``None``/``undefined``/``[object Object]``/``NaN``; its ``notation`` is the action's and
parses back to it; ``describe_actions`` describes a whole list the same way; and a
description never depends on what the acting seat cannot see (it is the same in every
determinization of the position from that seat).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sengoku.core.describe import ActionDescription, generic_description
from sengoku.core.registry import load_game
from tests.contract.cases import HIDDEN_PARAMS, PARAMS, SCALE, random_positions

BAD = ("None", "undefined", "[object Object]", "NaN", "null")


def check(description: ActionDescription, action: Any) -> None:
    data = description.to_json()
    assert data["notation"] == str(action)
    for key in ("kind", "label", "text"):
        value = data[key]
        assert isinstance(value, str) and value.strip(), f"{action}: an empty {key}"
        for bad in BAD:
            assert bad not in value, f"{action}: {key} {value!r} holds {bad!r}"
    assert data["text"][0].isupper() and data["text"].endswith("."), (
        f"{action}: the text {data['text']!r} is not one sentence"
    )
    json.dumps(data)  # JSON-ready


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_every_legal_action_is_described(name: str, options: dict[str, Any]) -> None:
    game = load_game(name)
    rng = random.Random(f"describe-{name}")
    kinds: set[str] = set()
    for seed in range(SCALE):
        for state in random_positions(game, options, 700 + seed, every=16):
            if state.is_terminal():
                continue
            legal = state.legal_actions()
            described = game.describe_actions(state, legal)
            assert len(described) == len(legal)
            for action, description in zip(legal, described, strict=True):
                check(description, action)
                kinds.add(description.kind)
            for action in rng.sample(legal, min(len(legal), 12)):
                assert game.describe_action(state, action) == described[legal.index(action)]
                assert game.parse_action(state, str(action)) == action
    assert kinds


@pytest.mark.parametrize(("name", "options"), HIDDEN_PARAMS)
def test_descriptions_reveal_nothing_hidden(name: str, options: dict[str, Any]) -> None:
    """A description is the same whatever the acting seat cannot see."""
    game = load_game(name)
    rng = random.Random(f"hidden-{name}")
    compared = 0
    for seed in range(SCALE):
        for state in random_positions(game, options, 800 + seed, every=19):
            if state.is_terminal():
                continue
            actor = state.current_player
            legal = state.legal_actions()
            for _ in range(2):
                other = state.determinize(actor, rng)
                mine = set(other.legal_actions())
                for action in legal:
                    if action in mine:
                        assert game.describe_action(other, action) == game.describe_action(
                            state, action
                        ), f"{name}: the description of {action} depends on hidden cards"
                        compared += 1
    assert compared


def test_the_default_description_uses_the_notation() -> None:
    d = generic_description("e2e4")
    assert d.to_json() == {
        "notation": "e2e4",
        "kind": "action",
        "label": "e2e4",
        "text": "Play e2e4.",
    }
    assert hash(d) == hash(generic_description("e2e4"))  # a value object, hashable


def catalog_ids(catalog: dict[str, Any]) -> set[str]:
    return {
        str(entry["id"])
        for entries in catalog.values()
        if isinstance(entries, list)
        for entry in entries
        if isinstance(entry, dict) and "id" in entry
    }


@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_the_catalog_names_every_object_a_description_names(
    name: str, options: dict[str, Any]
) -> None:
    """``Game.catalog()`` is JSON-ready, and every piece, card or tile a description names
    is in it (so a client can draw it and show its text)."""
    game = load_game(name)
    catalog = game.catalog(**options)
    json.dumps(catalog)
    ids = catalog_ids(catalog)
    for seed in range(SCALE):
        for state in random_positions(game, options, 600 + seed, every=29):
            if state.is_terminal():
                continue
            for d in game.describe_actions(state, state.legal_actions()):
                for key in ("piece", "card", "tile"):
                    if key in d.objects:
                        assert str(d.objects[key]) in ids, (
                            f"{name}: {key} {d.objects[key]} not in the catalog"
                        )


@pytest.mark.parametrize("name", ["gunshi", "sashimono"])
def test_every_card_has_its_text(name: str) -> None:
    cards = load_game(name).catalog()["cards"]
    assert cards
    for card in cards:
        assert card["name"] and card["text"] != card["name"], card
        assert card["text"] or card.get("actions"), card


def first(game_name: str, options: dict[str, Any], kind: str, plies: int = 400) -> Any:
    """The first description of ``kind`` met in a random game (seed 0)."""
    game = load_game(game_name)
    state = game.new_state(0, **options)
    rng = random.Random(0)
    for _ in range(plies):
        if state.is_terminal():
            break
        for d in game.describe_actions(state, state.legal_actions()):
            if d.kind == kind:
                return d
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"{game_name}: no {kind} met")


def test_descriptions_speak_the_rulebooks_words() -> None:
    move = first("gungi", {"mode": "intro"}, "move")
    assert move.label.startswith("Move ") and move.objects["from"].count("-") == 2
    assert move.objects["to"].count("-") == 2 and move.objects["piece"]
    drop = first("gungi", {"mode": "intro"}, "drop")
    assert "(新)" in drop.label and drop.objects["from"] == "hand"
    assert first("gungi", {"mode": "advanced"}, "place").text.startswith("Place your ")
    shogun = first("gunshi", {}, "shogun")
    assert shogun.objects["unit"] in shogun.label and shogun.objects["step"] == "unit"
    fence = first("gunshi", {}, "fence")
    assert fence.objects["edge"] == fence.notation.split()[1]
    tile = first("gunkimono", {"players": 2}, "place_tile")
    assert tile.label.startswith("Place ") and "/" in tile.label and "tile on" in tile.label
    assert len(tile.objects["cells"]) == 2 and tile.objects["group"] == tile.objects["tile"]
    assert tile.objects["rotation"] in ("horizontal", "vertical")
    play = first("sashimono", {}, "play_card")
    catalog = {c["id"]: c for c in load_game("sashimono").catalog()["cards"]}
    assert play.label == f"Play {catalog[play.objects['card']]['name']}"
    slot = first("sashimono", {}, "choose_slot")
    assert slot.objects["step"] == "slot"
    assert f"Put {catalog[slot.objects['card']]['name']} into the space " in slot.text
    assert slot.objects["slot"] not in slot.text  # in words ("above column a"), not notation
    assert ": " in first("sashimono", {}, "card_action").text  # the action's effect


def test_sashimono_names_what_the_acting_seat_holds() -> None:
    """A hand position is named by what it holds, from the acting seat's own hand."""
    kumi = first("sashimono", {}, "kumi")
    assert kumi.objects["kumi"] in ("T", "K", "N")
    assert any(name in kumi.text for name in ("Teppo-Gumi", "Kiba-Tai", "Nagae-Gumi"))


def test_every_gunshi_and_gunkimono_action_can_be_described() -> None:
    """Each game's whole action vocabulary (not only what random play meets) describes."""
    from sengoku.games.gunkimono.actions import NUM_ACTIONS, int_to_action
    from sengoku.games.gunshi.actions import VOCABULARY, GunshiAction

    gunshi = load_game("gunshi")
    state = gunshi.new_state(0)
    for kind, vocabulary in VOCABULARY.items():
        for arg in vocabulary:
            action = GunshiAction(kind, arg)
            check(gunshi.describe_action(state, action), action)
    gunkimono = load_game("gunkimono")
    state = gunkimono.new_state(0, players=2)
    for n in range(0, NUM_ACTIONS, 7):
        try:
            action = int_to_action(n)
        except Exception:  # an integer naming no well-formed action
            continue
        check(gunkimono.describe_action(state, action), action)


def test_sashimono_catalogs_the_match_card_set() -> None:
    """The catalog follows the ``cards`` option; a bad option is refused as in new_state."""
    from sengoku.core.game import InvalidOption

    game = load_game("sashimono")
    assert game.catalog(cards="sengoku") == game.catalog()
    with pytest.raises(InvalidOption):
        game.catalog(cards="no-such-set")
