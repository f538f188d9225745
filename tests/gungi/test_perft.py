"""Perft pins move generation to the spec's reference counts (one move per distinct
capture / stack / betrayal choice)."""

from __future__ import annotations

import pytest

from sengoku.games.gungi import Gungi


@pytest.mark.parametrize(
    ("mode", "depth", "leaves"),
    [
        ("intro", 1, 154),
        ("intro", 2, 23_716),
        ("beginner", 1, 187),
        ("beginner", 2, 34_969),
    ],
)
def test_perft_shallow(gungi: Gungi, mode: str, depth: int, leaves: int) -> None:
    assert gungi.new_state(mode=mode).perft(depth) == leaves


def test_perft_matches_contract_walk(gungi: Gungi) -> None:
    # The fast perft and a walk through the public contract (clone + apply) agree.
    state = gungi.new_state(mode="beginner")
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        total += len(child.legal_actions())
    assert total == 34_969


@pytest.mark.slow
def test_perft_intro_depth_3(gungi: Gungi) -> None:
    assert gungi.new_state(mode="intro").perft(3) == 3_614_062


@pytest.mark.slow
def test_perft_beginner_depth_3(gungi: Gungi) -> None:
    assert gungi.new_state(mode="beginner").perft(3) == 6_268_315


@pytest.mark.slow
def test_perft_self_check_forbidden_depth_3(gungi: Gungi) -> None:
    assert gungi.new_state(mode="intro", self_check="forbidden").perft(3) == 3_614_050
