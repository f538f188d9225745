"""Bad action numbers and bad action fields are the project's own error, every registered game
(issue 40): ``int_to_action`` of -1, 10**12, 1.5, True or "3" raises a
:class:`~sengoku.core.game.SengokuError` naming the action number, never a plain
TypeError/IndexError/ValueError, and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from sengoku.core.game import SengokuError
from sengoku.core.registry import list_games, load_game
from tests.contract.cases import fingerprint

BAD_NUMBERS: list[Any] = [-1, 10**12, 1.5, True, "3", None, [3]]


@pytest.mark.parametrize("name", list_games())
@pytest.mark.parametrize("n", BAD_NUMBERS, ids=repr)
def test_bad_action_numbers_are_refused_naming_the_field(name: str, n: Any) -> None:
    game = load_game(name)
    state = game.new_state(0)
    before = fingerprint(state)
    with pytest.raises(SengokuError, match="action number") as caught:
        game.int_to_action(state, n)
    assert not isinstance(caught.value, (TypeError, IndexError))
    assert fingerprint(state) == before


@pytest.mark.parametrize("name", list_games())
def test_every_number_in_range_is_an_action_or_the_projects_error(name: str) -> None:
    # The edges of the space and a spread of numbers inside it: an action that prints, or
    # the project's error (a number naming no action here), never a crash.
    game = load_game(name)
    state = game.new_state(0)
    size = game.num_distinct_actions(**state.options)
    for n in sorted({0, 1, size - 1, *range(0, size, max(1, size // 200))}):
        try:
            action = game.int_to_action(state, n)
        except SengokuError:
            continue
        assert str(action)
        assert game.action_to_int(state, action) == n


def _bad_actions() -> list[Any]:
    from sengoku.games.gungi.move import Move
    from sengoku.games.gunkimono.actions import BuildStronghold, Draw, Place, Score, SmallTile
    from sengoku.games.gunshi.actions import GunshiAction
    from sengoku.games.sashimono.decisions import Act

    return [
        pytest.param(lambda: Place(99, 0, 0, 1), "first", id="gunkimono-troop"),
        pytest.param(lambda: Place(0, 500, 2, 501), "Place.a", id="gunkimono-square"),
        pytest.param(lambda: Place(0, 0, 2, 7), "Place.b", id="gunkimono-apart"),
        pytest.param(lambda: SmallTile(7, 0, False), "troop", id="gunkimono-small"),
        pytest.param(lambda: Score(False, 0, -3), "cell", id="gunkimono-score"),
        pytest.param(lambda: BuildStronghold(10**6), "cell", id="gunkimono-stronghold"),
        pytest.param(lambda: Draw(100), "tile", id="gunkimono-draw"),
        pytest.param(lambda: GunshiAction("fly", "d4"), "kind", id="gunshi-kind"),
        pytest.param(lambda: GunshiAction("to", "z9"), "arg", id="gunshi-arg"),
        pytest.param(lambda: GunshiAction(["to"], "d4"), "kind", id="gunshi-unhashable"),
        pytest.param(lambda: Act(99, 0, "x"), "kind", id="sashimono-kind"),
        pytest.param(lambda: Act(8, 40, "keep L41"), "arg", id="sashimono-arg"),
        pytest.param(lambda: Act(0, 1.5, "x"), "arg", id="sashimono-float"),
        pytest.param(lambda: Act(0, 0, None), "text", id="sashimono-text"),
        pytest.param(lambda: Move([1]), "move code", id="gungi-unhashable"),
        pytest.param(lambda: Move(True), "move code", id="gungi-bool"),
    ]


@pytest.mark.parametrize(("build", "field"), _bad_actions())
def test_action_values_refuse_fields_out_of_range(build: Any, field: str) -> None:
    # An action built with a field out of range used to be accepted and crash when printed
    # (an IndexError) or numbered; now it is refused at once, the field named.
    with pytest.raises(SengokuError, match=field) as caught:
        build()
    assert not isinstance(caught.value, (TypeError, IndexError))
