"""What a client needs to play Sashimono by clicking the table: every choice names the thing
it points at (a Sonae cell and whose, a line, a looked-at card, a hand card), in the game's
words; the solo view states the Kagemusha's next turn; the catalog states ongoing abilities."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sengoku.games.sashimono import Sashimono
from sengoku.games.sashimono.decisions import K_ENEMY, K_LINE, K_LOOK, K_OWN, Question
from sengoku.games.sashimono.kagemusha import nearest_line
from sengoku.games.sashimono.pieces import CELLS, LINE_NAMES
from sengoku.games.sashimono.state import KAGE, SashimonoState


def positions(game: Sashimono, seed: int, **options: Any) -> list[SashimonoState]:
    """Every position of one random game (the state before each decision)."""
    rng = random.Random(seed)
    st = game.new_state(seed, **options)
    out = []
    while not st.is_terminal() and len(out) < 400:
        out.append(st.clone())
        st.apply(rng.choice(st.legal_actions()))
    return out


@pytest.mark.parametrize("mode", ["duel", "solo"])
def test_every_choice_names_the_table_object_it_points_at(game: Sashimono, mode: str) -> None:
    met: set[str] = set()
    for seed in range(3):
        for st in positions(game, seed, mode=mode):
            legal = st.legal_actions()
            for action, d in zip(legal, game.describe_actions(st, legal), strict=True):
                assert d.kind and d.label and d.text.endswith("."), d
                assert "[object" not in d.text and "None" not in d.label, d
                if action.kind == K_OWN:
                    met.add("own")
                    assert d.objects["side"] == "own" and d.objects["cell"] in CELLS, d
                elif action.kind == K_ENEMY:
                    met.add("enemy")
                    assert d.objects["side"] == "enemy", d
                    cell = d.objects["cell"]
                    if mode == "solo":  # the Kagemusha's Kumi line: k1, k2...
                        assert cell == f"k{action.arg + 1}", d
                    else:
                        assert cell in CELLS, d
                elif action.kind == K_LINE:
                    met.add("line")
                    assert d.objects["line"] in LINE_NAMES and d.objects["line"] not in d.label
                elif action.kind == K_LOOK:
                    met.add("look")
                    # the looker is the one asked: the card is named, not "L1"
                    assert d.objects["look"] == action.arg
                    assert "card" in d.objects or "kumi" in d.objects, d
                    assert "L1" not in d.label and "L2" not in d.label, d
                if st.prompt is not None and st.prompt.kind is Question.SWAP_WITH:
                    met.add("swap_with")
                    assert d.kind == "swap" and d.label.startswith("Swap with"), d
    assert {"own", "line", "look"} <= met, met


def test_hand_choices_name_what_they_hold(game: Sashimono) -> None:
    """``kumi h1`` reads as the Kumi it places, in the label a player clicks."""
    for st in positions(game, 1, mode="duel"):
        legal = st.legal_actions()
        for d in game.describe_actions(st, legal):
            if d.kind in ("kumi", "ante") and "kumi" in d.objects:
                assert d.label.split(" ", 1)[1] in ("Teppo-Gumi", "Kiba-Tai", "Nagae-Gumi"), d
                return
    pytest.fail("no hand Kumi choice met")


def test_the_solo_view_states_the_kagemushas_next_turn(game: Sashimono) -> None:
    st = game.new_state(4, mode="solo", challenge_corners=True, challenge_train=True)
    assert isinstance(st, SashimonoState)
    k = st.view(0)["kagemusha"]
    army = st.sides[KAGE].army_pos
    assert k["army_position"] == army + 1
    # the next free space along the path (the player's Sashimono block it)
    free = [p for p in range(1, 13) if st.sides[0].slots[(army + p) % 12] is None]
    assert k["next_position"] == (army + free[0]) % 12 + 1
    assert k["column_attacked"] == LINE_NAMES[nearest_line(st, "column")]
    assert k["row_attacked"] == LINE_NAMES[nearest_line(st, "row")]
    assert k["column_attacked"].startswith("col") and k["row_attacked"].startswith("row")
    assert len(k["challenges"]) == 2 and all(not c.startswith("solo") for c in k["challenges"])
    assert any("corner" in c for c in k["challenges"])
    # a plain solo game has no challenges, and a duel has no Kagemusha at all
    assert game.new_state(4, mode="solo").view(0)["kagemusha"]["challenges"] == []
    assert "kagemusha" not in game.new_state(4).view(0)


def test_the_catalog_states_ongoing_abilities(game: Sashimono) -> None:
    cards = game.catalog()["cards"]
    ongoing = [c for c in cards if c["ongoing"]]
    assert ongoing and all(c["ongoing_text"].startswith("Ongoing: ") for c in ongoing)
    assert all(c["ongoing_text"] == "" for c in cards if not c["ongoing"])
