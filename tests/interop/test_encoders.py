"""Observation encoders: fixed shapes, built from view(seat) alone, faithful to it."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import sengoku
from sengoku.core.game import SengokuError
from sengoku.games.gungi.encoder import GungiEncoder
from sengoku.games.gunkimono.encoder import GunkimonoEncoder
from sengoku.games.gunshi.encoder import GunshiEncoder
from sengoku.games.sashimono.encoder import SashimonoEncoder
from sengoku.interop.encoders import (
    JsonBytesEncoder,
    LegalInts,
    canonical_json,
    encoder_for,
    legal_table,
)

GUNGI = sengoku.load_game("gungi")


def _gungi_states(games: int, seed: int = 0, **options: object) -> list:
    rng = random.Random(seed)
    states = []
    for g in range(games):
        state = GUNGI.new_state(seed=g, **options)
        while not state.is_terminal() and state.ply < 120:
            states.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


def test_gungi_start_position_planes() -> None:
    encoder = encoder_for(GUNGI, {"mode": "beginner"})
    assert isinstance(encoder, GungiEncoder) and encoder.shape == (120, 9, 9)
    state = GUNGI.new_state(mode="beginner")
    white = encoder.encode(state.view(0), 0)
    black = encoder.encode(state.view(1), 1)
    k = encoder.num_kinds
    pieces = sum(len(t["tower"]) for t in state.view(0)["board"])
    assert white[: 3 * 2 * k].sum() == black[: 3 * 2 * k].sum() == pieces
    marshal = encoder.kinds["marshal"]
    # Each side sees its own Marshal on its own back row, at the bottom of the tensor.
    for planes in (white, black):
        rows, _cols = np.nonzero(planes[marshal])
        assert rows.tolist() == [8]
        rows, _cols = np.nonzero(planes[k + marshal])
        assert rows.tolist() == [0]
    f = encoder.flags_base
    assert white[f].all() and not black[f].any()  # White moves first
    assert black[f + 6].all() and not white[f + 6].any()  # "I play Black"
    # A spectator sees White's side.
    assert np.array_equal(encoder.encode(state.view(None), None)[:f], white[:f])


def test_gungi_hands_and_setup_flags() -> None:
    encoder = encoder_for(GUNGI, {"mode": "advanced"})
    state = GUNGI.new_state(mode="advanced")
    view = state.view(0)
    planes = encoder.encode(view, 0)
    f, k = encoder.flags_base, encoder.num_kinds
    assert view["phase"] == "setup" and planes[f + 1].all()
    hand = view["hands"]["white"]
    for name, count in hand.items():
        assert (planes[encoder.hand_base + encoder.kinds[name]] == count).all()
    assert planes[encoder.hand_base : encoder.hand_base + k].max() <= encoder.high


def test_gungi_encoding_is_faithful() -> None:
    """Different positions (board, hands, side to move, phase) never share a tensor."""
    encoder = encoder_for(GUNGI, {})
    seen: dict[bytes, str] = {}
    for state in _gungi_states(3) + _gungi_states(2, mode="advanced"):
        for seat in (0, 1):
            view = state.view(seat)
            key = json.dumps(
                [view[k] for k in ("board", "hands", "to_move", "phase", "drafting", "ply")]
            )
            tensor = encoder.encode(view, seat)
            assert tensor.min() >= encoder.low and tensor.max() <= encoder.high
            token = tensor.tobytes() + bytes([seat])
            assert seen.setdefault(token, key) == key


def test_json_bytes_encoder_is_lossless_and_refuses_overflow() -> None:
    """The fallback for a game without its own encoder (a Gunshi view as the sample)."""
    game = sengoku.load_game("gunshi")
    encoder = JsonBytesEncoder("gunshi", 8192)
    state = game.new_state(seed=4)
    rng = random.Random(1)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(1)
    tensor = encoder.encode(view, 1)
    data = bytes(tensor[tensor > 0].astype(np.uint8))
    assert json.loads(data.decode("utf-8")) == view
    assert data.decode("utf-8") == canonical_json(view)
    with pytest.raises(SengokuError, match="obs_size"):
        JsonBytesEncoder("gunshi", 64).encode(view, 1)


def _gunshi_key(view: dict) -> str:
    """What the Gunshi encoder keeps of a view (see its docstring)."""
    kept = {k: v for k, v in view.items() if k not in ("game", "seat", "options", "outcome")}
    kept["clock"] = view["clock"]["running"]
    kept["units"] = [{k: v for k, v in u.items() if k != "type"} for u in view["units"]]
    kept["pool"] = sorted(view["pool"])
    kept["players"] = [
        {
            **p,
            "shogun_candidates": sorted(p["shogun_candidates"]),
            **({"advanced_in_box": sorted(p["advanced_in_box"])} if "advanced_in_box" in p else {}),
        }
        for p in view["players"]
    ]
    return json.dumps(kept, sort_keys=True)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"variant": "inspiration", "modification": 3, "sanryaku": True},
        {"variant": "custom", "custom_selection": "secret", "sanryaku": True},
        {"variant": "inspiration", "modification": 1, "time_control": "tournament"},
    ],
)
def test_gunshi_encoding_is_faithful_and_in_bounds(options: dict) -> None:
    """Different views never share a tensor (but for what the docstring leaves out)."""
    game = sengoku.load_game("gunshi")
    encoder = encoder_for(game, options)
    assert isinstance(encoder, GunshiEncoder)
    seen: dict[bytes, str] = {}
    for seed in range(2):
        state = game.new_state(seed=seed, **options)
        rng = random.Random(seed)
        while True:
            for seat in (None, 0, 1):
                view = state.view(seat)
                tensor = encoder.encode(view, seat)
                assert tensor.shape == encoder.shape
                assert tensor.min() >= encoder.low and tensor.max() <= encoder.high
                token = tensor.tobytes() + bytes([9 if seat is None else seat])
                assert seen.setdefault(token, _gunshi_key(view)) == _gunshi_key(view)
            if state.is_terminal() or state.ply >= 250:
                break
            state.apply(rng.choice(state.legal_actions()))
    assert len(seen) > 400


def test_gunshi_snapshot_command_is_the_views_command() -> None:
    """The snapshot's command (made in one pass from the command's fields) is the view's
    (``command_view`` of the command's JSON), key for key and value for value, at every
    decision of random games of every variant where a command is being resolved."""
    from sengoku.games.gunshi.commands.command import command_view
    from sengoku.games.gunshi.encoder import _command_items

    game = sengoku.load_game("gunshi")
    rng = random.Random("gunshi-command-items")
    compared = 0
    for variant in ("basic", "custom", "inspiration"):
        for seed in range(3):
            state = game.new_state(seed=seed, variant=variant)
            while not state.is_terminal():
                cmd = state.orders.cmd
                if cmd is not None:
                    assert _command_items(cmd) == tuple(command_view(cmd).items())
                    compared += 1
                state.apply(rng.choice(state.legal_actions()))
    assert compared > 100


def test_gunshi_field_is_turned_to_the_observer() -> None:
    """Each side sees its own units on its own rows (0-2) facing forward (index 0)."""
    game = sengoku.load_game("gunshi")
    encoder = encoder_for(game, {"preset": "first_battle"})
    assert isinstance(encoder, GunshiEncoder)
    state = game.new_state(preset="first_battle")
    for seat in (0, 1):
        field = encoder.encode(state.view(seat), seat)[: 49 * encoder.CELL]
        cells = field.reshape(49, encoder.CELL)
        own = np.flatnonzero(cells[:, 0:3].sum(axis=1))
        theirs = np.flatnonzero(cells[:, 3:6].sum(axis=1))
        assert own.size == theirs.size > 0
        assert (own // 7 <= 2).all() and (theirs // 7 >= 4).all()
        assert (cells[own, 6] == 1).all()  # facing the opponent
        assert (cells[theirs, 8] == 1).all()
    # A spectator sees the Field as Red does.
    red = encoder.encode(state.view(0), 0)[: 49 * encoder.CELL]
    assert np.array_equal(encoder.encode(state.view(None), None)[: 49 * encoder.CELL], red)


def test_gunshi_hidden_cards_are_unknown_in_the_tensor() -> None:
    """The opponent's hand and face-down Command Row cards reach the tensor as "unknown"."""
    game = sengoku.load_game("gunshi")
    encoder = encoder_for(game, {})
    assert isinstance(encoder, GunshiEncoder)
    state = game.new_state(seed=3)
    rng = random.Random(2)
    while not (state.view(None)["players"][0]["row"] and state.view(None)["players"][1]["row"]):
        state.apply(rng.choice(state.legal_actions()))
    nc = encoder.num_cards
    card, row_card = 2 + nc, 3 + nc
    rows_at = 4 + len(encoder.FLAGS) + 48 + len(encoder.PILES) * encoder.PILE * card
    for seat in (0, 1):
        view = state.view(seat)
        tensor = encoder.encode(view, seat)
        mine = encoder.offsets["sides"]
        theirs = mine + encoder.side_size
        hand = view["players"][1 - seat]["hand"]
        for i, code in enumerate(hand):  # the hand comes first among the piles
            slot = tensor[theirs + 9 + 48 + i * card : theirs + 9 + 48 + (i + 1) * card]
            assert (
                slot[0] == 1 and slot[1] == (code is None) and slot[2:].sum() == (code is not None)
            )
        for i, entry in enumerate(view["players"][1 - seat]["row"]):
            at = theirs + rows_at + i * row_card
            assert tensor[at] == 1
            assert tensor[at + 2] == (entry["card"] is None)
            assert tensor[at + 3 : at + row_card].sum() == (entry["card"] is not None)
        own_row = view["players"][seat]["row"]
        assert all(e["card"] is not None for e in own_row)
        assert (
            tensor[mine + rows_at + 2 : mine + rows_at + len(own_row) * row_card : row_card].sum()
            == 0
        )


def _sashimono_key(view: dict) -> str:
    """What the Sashimono encoder keeps of a view (see its docstring)."""
    kept = {k: v for k, v in view.items() if k not in ("viewer", "result")}
    if "prompt" in kept:
        kept["prompt"] = {k: v for k, v in kept["prompt"].items() if k not in ("rule", "options")}
    if "kagemusha" in kept:
        kept["kagemusha"] = {
            **kept["kagemusha"],
            "discarded_kumi": sorted(kept["kagemusha"]["discarded_kumi"]),
        }
    return json.dumps(kept, sort_keys=True)


@pytest.mark.parametrize(
    "options", [{"mode": "duel"}, {"mode": "solo", "challenge_six_sashimono": True}]
)
def test_sashimono_encoding_is_faithful(options: dict) -> None:
    game = sengoku.load_game("sashimono")
    encoder = encoder_for(game, options)
    assert isinstance(encoder, SashimonoEncoder)
    seen: dict[bytes, str] = {}
    for seed in range(3):
        state = game.new_state(seed=seed, **options)
        rng = random.Random(seed)
        while True:
            for seat in (None, *range(state.num_players)):
                view = state.view(seat)
                tensor = encoder.encode(view, seat)
                assert tensor.min() >= encoder.low and tensor.max() <= encoder.high
                token = tensor.tobytes() + bytes([9 if seat is None else seat])
                assert seen.setdefault(token, _sashimono_key(view)) == _sashimono_key(view)
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
    assert len(seen) > 200


def test_sashimono_hand_is_in_the_owners_tensor_only() -> None:
    game = sengoku.load_game("sashimono")
    encoder = encoder_for(game, {})
    assert isinstance(encoder, SashimonoEncoder)
    state = game.new_state(seed=5)
    rng = random.Random(0)
    while not state.view(0)["sides"][0]["hand"] or not state.view(1)["sides"][1]["hand"]:
        state.apply(rng.choice(state.legal_actions()))
    hand = 3 + encoder.CELLS * encoder.STACK  # the hand's place inside a side's block
    for seat in (0, 1):
        tensor = encoder.encode(state.view(seat), seat)
        mine = encoder.offsets["sides"] + hand
        theirs = mine + encoder.side_size
        assert tensor[mine : mine + encoder.HAND_MAX * 3].sum() > 0
        assert tensor[theirs : theirs + encoder.HAND_MAX * 3].sum() == 0


@pytest.mark.parametrize("players", [2, 5])
def test_gunkimono_encoding_is_faithful(players: int) -> None:
    """Different views never share a tensor (but for the seat, options and outcome)."""
    game = sengoku.load_game("gunkimono")
    encoder = encoder_for(game, {"players": players})
    assert isinstance(encoder, GunkimonoEncoder)
    seen: dict[bytes, str] = {}
    for seed in range(2):
        state = game.new_state(seed=seed, players=players)
        rng = random.Random(seed)
        while True:
            for seat in (None, *range(players)):
                view = state.view(seat)
                tensor = encoder.encode(view, seat)
                assert tensor.min() >= encoder.low and tensor.max() <= encoder.high
                key = json.dumps(
                    {k: v for k, v in view.items() if k not in ("seat", "outcome")},
                    sort_keys=True,
                )
                token = tensor.tobytes() + bytes([players if seat is None else seat])
                assert seen.setdefault(token, key) == key
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
    assert len(seen) > 300


def test_gunkimono_hand_is_in_the_owners_tensor_only() -> None:
    game = sengoku.load_game("gunkimono")
    encoder = encoder_for(game, {})
    assert isinstance(encoder, GunkimonoEncoder)
    state = game.new_state(seed=3)
    hand_at = encoder.offsets["players"] + 2  # slot 0 (the observer): its hand counts
    other_hand_at = hand_at + encoder.player_size
    for seat in (0, 1):
        tensor = encoder.encode(state.view(seat), seat)
        assert tensor[hand_at : hand_at + encoder.CODES].sum() == 3
        assert tensor[other_hand_at : other_hand_at + encoder.CODES].sum() == 0
    spectator = encoder.encode(state.view(None), None)
    assert spectator[hand_at : hand_at + encoder.CODES].sum() == 0


def test_legal_table_is_in_contract_order() -> None:
    state = GUNGI.new_state()
    table = legal_table(GUNGI, state)
    assert list(table) == sorted(table)
    assert list(table.values()) == state.legal_actions()


@pytest.mark.parametrize("name", ["gungi", "gunshi", "gunkimono", "sashimono"])
def test_legal_ints_are_action_to_int_of_the_legal_actions(name: str) -> None:
    """The adapters' legal integers (``legal_action_ints``, :class:`LegalInts`), through a
    game's ``action_int`` where it has one (Gunshi's, Sashimono's), are ``action_to_int`` of each legal
    action, in the contract's order, along random games."""
    game = sengoku.load_game(name)
    assert (game.action_int is not None) == (name in ("gunshi", "sashimono"))
    assert (game.legal_actions_and_ints is not None) == (name == "gunkimono")
    legal = LegalInts(game, game.num_distinct_actions())
    rng = random.Random(3)
    for seed in range(2):
        state = game.new_state(seed=seed)
        for _ply in range(150):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            ints = [game.action_to_int(state, action) for action in actions]
            assert game.legal_action_ints(state) == ints
            if game.legal_actions_and_ints is not None:
                assert game.legal_actions_and_ints(state) == (actions, ints)
            legal.update(state)
            assert legal.list == ints
            # The actions are kept beside their integers unless the game's own integers
            # need none (Gungi's native codes); before, not Gunkimono's either.
            assert legal.actions == (None if name == "gungi" else actions)
            state.apply(rng.choice(actions))
