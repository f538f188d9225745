"""An action is the legal action exactly, its text included (issue 42, item 3)."""

from __future__ import annotations

import pytest

from sengoku.core.game import IllegalAction
from sengoku.core.record import GameRecord
from sengoku.games.sashimono import Sashimono
from sengoku.games.sashimono.decisions import K_LOOK, Act


def test_an_action_whose_text_names_another_decision_is_refused() -> None:
    # Setup's look: "bottom L1" is number K_LOOK/0. An Act numbered 0 but written "bottom
    # L2" used to play "bottom L1" while its text said otherwise.
    game = Sashimono()
    st = game.new_state(3)
    legal = {str(a) for a in st.legal_actions()}
    assert {"bottom L1", "bottom L2"} <= legal
    before = st.to_json()
    with pytest.raises(IllegalAction, match="text") as caught:
        st.apply(Act(K_LOOK, 0, "bottom L2"))
    assert "'bottom L1'" in str(caught.value) and "'bottom L2'" in str(caught.value)
    with pytest.raises(IllegalAction, match="short"):
        st.apply(Act(K_LOOK, 0, "bottom L1", "L2"))
    assert st.to_json() == before  # refused: nothing changed
    st.apply(Act(K_LOOK, 0, "bottom L1"))  # exactly the legal action (short left out)
    assert st.decisions == 1


def test_a_record_stores_the_canonical_notation_of_what_was_played() -> None:
    game = Sashimono()
    record, st = GameRecord.start(game, 3)
    record.play(st, game.parse_action(st, "l2"))  # the short form, any case
    with pytest.raises(IllegalAction):
        record.play(st, Act(K_LOOK, 0, "bottom L2"))
    assert record.actions == ["bottom L2"]
    again = record.replay()
    assert again.to_json() == st.to_json()
