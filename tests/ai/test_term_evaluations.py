"""What every tuned evaluation of per-side terms offers (Sashimono's and Gunshi's ``eval``
option; ``sengoku train GAME --texel``)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from sengoku.ai import make_agent
from sengoku.core.game import SengokuError
from sengoku.core.registry import load_game
from sengoku.games.gunshi import features as gunshi_features
from sengoku.games.sashimono import features as sashimono_features

GAMES = [("sashimono", sashimono_features), ("gunshi", gunshi_features)]


@pytest.mark.parametrize(("game", "features"), GAMES)
def test_unknown_and_unreadable_evaluations_are_refused(
    tmp_path: Path, game: str, features: ModuleType
) -> None:
    with pytest.raises(SengokuError, match="expected 'default', 'learned' or a .json"):
        features.evaluation_named("best")
    broken = tmp_path / "broken.json"
    broken.write_text(f'{{"weights": {{"{features.TERMS[0]}": 1}}}}')
    with pytest.raises(SengokuError, match=f"(?i){game} evaluation .*cannot read its weights"):
        features.evaluation_named(str(broken))
    with pytest.raises(SengokuError, match="cannot read"):
        features.evaluation_named(str(tmp_path / "missing.json"))
    assert features.evaluation_named("default") is features.HAND_MADE
    assert features.evaluation_named("learned") is features.evaluation_named("learned")


@pytest.mark.parametrize(("game", "features"), GAMES)
def test_the_same_seed_plays_the_same_moves_and_the_tuned_weights_play_differently(
    game: str, features: ModuleType
) -> None:
    rules = load_game(game)

    def play(evaluation: str) -> list[str]:
        state = rules.new_state(11)
        agents = [
            make_agent(rules, "ismcts", seed=s, iterations=12, eval=evaluation) for s in (0, 1)
        ]
        moves = []
        for _ in range(80):
            if state.is_terminal():
                break
            action = agents[state.current_player].choose(state, state.current_player)
            moves.append(str(action))
            state.apply(action)
        return moves

    assert play("learned") == play("learned")
    assert play("learned") != play("default")
