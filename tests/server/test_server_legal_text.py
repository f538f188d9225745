"""The legal list's text and the kept descriptions behind it change nothing a client gets.

A state message carries ``Live.legal_text`` (made once per position, from parts kept per
description) where it used to carry ``json.dumps`` of ``Live.legal_json``; Gungi and
Gunkimono keep the descriptions that depend on the move alone (and, in Gungi, the origin's
height). Over random games of the four games these give, position by position, exactly what
describing afresh and encoding with ``json.dumps`` gives.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sengoku.core.registry import load_game
from sengoku.games.gungi import describe as gungi_describe
from sengoku.games.gungi.pieces import square_name
from sengoku.games.gungi.setup import SETUP
from sengoku.games.gunkimono import describe as gunkimono_describe
from sengoku.server import live as live_module
from sengoku.server.broadcast import snapshot, state_text
from sengoku.server.live import Live, Seat


def _dumps(value: Any) -> str:
    """What Starlette's ``send_json`` wrote before."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _live(game_name: str, state: Any, ply: int) -> Live:
    live = Live(
        id="m1",
        game=load_game(game_name),
        options={},
        seed=1,
        version=1,
        status="active",
        seats=[Seat(0, "human", "Ann"), Seat(1, "human", "Bo")],
        created_at=0.0,
        state=state,
    )
    live.actions = ["x"] * ply
    return live


def _positions(game_name: str, games: int = 2, plies: int = 60) -> list[tuple[Any, int]]:
    game = load_game(game_name)
    rng = random.Random(game_name)
    out = []
    for seed in range(games):
        state = game.new_state(seed=seed)
        for ply in range(plies):
            if state.is_terminal():
                break
            out.append((state, ply))
            state = state.clone()
            state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("game_name", ["gungi", "gunshi", "gunkimono", "sashimono"])
def test_state_messages_are_the_json_of_the_snapshot(game_name: str) -> None:
    for state, ply in _positions(game_name):
        live = _live(game_name, state, ply)
        for short in (True, False):
            assert live.legal_text(short) == _dumps(live.legal_json(short))
            for seat in (0, 1, None):
                expected = _dumps({"type": "state", **snapshot(live, seat, 5.0, short)})
                assert state_text(live, seat, 5.0, short) == expected
        # the seat to act gets the list; the other seat and the spectators get none
        assert json.loads(state_text(live, state.current_player, 5.0))["legal"]
        assert json.loads(state_text(live, None, 5.0))["legal"] == []


def test_gungi_keeps_what_it_would_describe_afresh() -> None:
    game = load_game("gungi")
    seen = 0
    for state, _ply in _positions("gungi", games=4, plies=90):
        legal = state.legal_actions()
        described = game.describe_actions(state, legal)
        setup = state.phase == SETUP
        heights = gungi_describe.tower_heights(state.view(None))
        fresh = [gungi_describe._describe_move(m, setup, heights) for m in legal]
        assert described == fresh
        assert [d.to_json() for d in described] == [d.to_json() for d in fresh]
        again = game.describe_actions(state, legal)
        assert all(a is b for a, b in zip(described, again, strict=True))
        seen += sum(1 for d in described if "-" in str(d.objects.get("from", "")))
    assert seen, "board moves whose origin names its tier were described"


def test_gungi_names_the_height_of_the_origin_it_was_asked_for() -> None:
    """One move from towers of different heights: two descriptions, each naming its own."""
    for state, _ply in _positions("gungi", games=2, plies=60):
        moves = [m for m in state.legal_actions() if m.origin is not None]
        if moves:
            move = moves[0]
            break
    else:
        pytest.fail("no board move in the games played")
    low = gungi_describe.describe_move(move, False, {_origin(move): 1})
    high = gungi_describe.describe_move(move, False, {_origin(move): 2})
    assert low.objects["from"].endswith("-1") and high.objects["from"].endswith("-2")
    assert gungi_describe.describe_move(move, False, {_origin(move): 1}) is low


def _origin(move: Any) -> str:
    return str(square_name(move.origin))


def test_gunkimono_keeps_only_what_depends_on_the_action_alone() -> None:
    kinds: set[str] = set()
    for state, _ply in _positions("gunkimono", games=3, plies=80):
        for action in state.legal_actions():
            d = gunkimono_describe.describe(state, action)
            assert d == gunkimono_describe._describe(state, action)
            kept = gunkimono_describe._KEPT.get(action) is d
            assert kept == (d.kind in {"place_tile", "small_tile", "support", "draw", "take"})
            kinds.add(d.kind)
    assert {"place_tile", "score_vp"} <= kinds


def test_kept_parts_roll_over_without_changing_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small store of parts rolls its generations over and over; the texts stay right."""
    monkeypatch.setattr(live_module, "FRAGMENTS_MAX", 40)
    monkeypatch.setattr(live_module, "_FRAGMENTS", [{}, {}])
    for game_name in ("gunkimono", "gungi"):
        for state, ply in _positions(game_name, games=1, plies=25):
            live = _live(game_name, state, ply)
            assert live.legal_text(True) == _dumps(live.legal_json(True))
    newer, older = live_module._FRAGMENTS
    assert 0 < len(newer) <= 40 and len(older) == 40
