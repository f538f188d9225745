"""Gunshi notation, options and position strings (issue 15, item 14)."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from sengoku.cli import main
from sengoku.core.game import InvalidOption, ParseError
from sengoku.games.gunshi.actions import GunshiAction
from sengoku.games.gunshi.position import PositionError
from tests.gunshi.helpers import GAME, battle, play, resolve

# ------------------------------------------------------------------ Rapid-Move short forms


def test_rapid_move_first_step_writes_move_and_reorient_apart() -> None:
    # Rapid-Move: "Move and Reorient one unit, in either order". Its first step offers
    # "dir n" (move first) and "face n" (reorient first): their short forms must differ.
    s = battle(["R I d4 e", "B I a7 s"], row=(("Rapid",), ()))
    resolve(s)
    play(s, "d4")
    legal = s.legal_actions()
    texts = [GAME.format_action(s, a) for a in legal]
    assert len(set(texts)) == len(texts), texts
    assert GAME.format_action(s, GunshiAction("dir", "n")) == "dir n"
    assert GAME.format_action(s, GunshiAction("face", "n")) == "face n"
    assert GAME.format_action(s, GunshiAction("dir", "e")) == "e"  # no facing e: no clash
    for a, text in zip(legal, texts, strict=True):
        assert GAME.parse_action(s, text) == a
    with pytest.raises(ParseError, match="ambiguous"):
        GAME.parse_action(s, "n")


def test_plain_move_direction_keeps_its_short_form() -> None:
    s = battle(["R I d4 n", "B I a7 s"], row=(("M",), ()))
    resolve(s)
    play(s, "d4")
    legal = s.legal_actions()
    assert [GAME.format_action(s, a) for a in legal] == [a.arg for a in legal]


@pytest.mark.parametrize("value", [4, None, b"d4", ("to", "d4")])
def test_non_string_notation_is_a_parse_error(value: object) -> None:
    s = battle(["R I d4 n", "B I a7 s"])
    with pytest.raises(ParseError, match="is a string"):
        GAME.parse_action(s, value)  # type: ignore[arg-type]


# ------------------------------------------------------------------ options that do nothing


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"modification": 2}, "does nothing with variant 'basic'"),
        ({"variant": "custom", "modification": 3}, "does nothing with variant 'custom'"),
        ({"custom_selection": "secret"}, "Custom Deck Construction"),
        ({"variant": "inspiration", "move_up_for_selection": True}, "Custom Deck Construction"),
        ({"agreed_deck": "M M Re F Rf Rapid Scout"}, "Custom Deck Construction"),
        (
            {"variant": "custom", "agreed_deck": "M M Re F Rf Rapid Scout"},
            "unless custom_selection is 'agreed'",
        ),
        ({"sanryaku": True}, "does nothing with variant 'basic'"),
        (
            {"variant": "custom", "custom_selection": "agreed", "sanryaku": True},
            "agreed deck",
        ),
        ({"preset": "first_battle", "formation_fences": "inside_home"}, "skips it"),
        ({"preset": "wave_after_wave", "custom_selection": "secret"}, "agreed deck"),
        ({"preset": "wave_after_wave", "agreed_deck": "M M Re F Rf Rapid Scout"}, "fixes"),
    ],
)
def test_options_that_do_nothing_are_refused(options: dict[str, Any], reason: str) -> None:
    with pytest.raises(InvalidOption, match=reason):
        GAME.new_state(0, **options)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"variant": "inspiration", "modification": 2, "sanryaku": True},
        {"variant": "custom", "custom_selection": "secret", "sanryaku": True},
        {"variant": "custom", "custom_selection": "agreed", "agreed_deck": "wave_after_wave"},
        {"preset": "first_battle"},
        {"preset": "wave_after_wave"},
        # A client may send every option at its default: defaults are always accepted.
        {k: o.default for k, o in GAME.options.items()},
    ],
)
def test_options_that_act_and_resolved_options_load(options: dict[str, Any]) -> None:
    s = GAME.new_state(0, **options)
    again = GAME.new_state(0, **s.options)  # a resolved option set loads again
    assert again.options == s.options


# ------------------------------------------------------------------ position strings


def test_position_round_trips_mid_turn() -> None:
    # Red has resolved this turn's card and sent ?.M.? (down, up, down): loading the string
    # must not resolve position 1 again.
    s = battle(["R I d4 n", "R C c2 e", "B A a7 s", "B I f6 s"], ["R d4n"], fences_left=(3, 4))
    s.cards.hand[0] = [("Re", False, False), ("M", False, False), ("F", False, False)]
    s.reset_knowledge(0)
    s.forget_legal_actions()
    play(s, "send Re", "send M", "send F")
    text = GAME.position(s)
    assert " ?.M.?/- send,3,u" in text
    again = GAME.from_fen(text)
    assert GAME.position(again) == text
    assert again.current_player == 0 and {str(a) for a in again.legal_actions()} >= {"end"}


@pytest.mark.parametrize("options", [{}, {"variant": "custom", "sanryaku": True}])
def test_positions_round_trip_through_random_games(options: dict[str, Any]) -> None:
    # Every battle position between two decisions, mid-command included: the string comes
    # back the same, and mid-command the same decisions are offered and play goes on.
    stages: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        s = GAME.new_state(seed, **options)
        while not s.is_terminal() and s.ply < 500:
            if s.phase == "battle":
                text = GAME.position(s)
                stage = text.split()[7].split(",")[0]
                stages.add(stage)
                again = GAME.from_fen(text, **options)
                assert GAME.position(again) == text
                if stage == "command":
                    if s.orders.cmd is not None and s.orders.cmd.step != "invade":
                        # (only "stay" for the hidden Shogun: the loaded Shogun is another)
                        assert again.legal_actions() == s.legal_actions()
                    again.apply(again.legal_actions()[0])
            s.apply(rng.choice(s.legal_actions()))
    assert stages == {"send", "command"}


@pytest.mark.parametrize("modification", [1, 2, 3])
def test_positions_round_trip_during_the_gunshis_inspiration(modification: int) -> None:
    # rulebook: "Advanced Variant 1 - The Gunshi's Inspiration": a position string taken while
    # the Inspiration is under way (take an Advanced card, then remove a card) loads at that
    # step and is written back the same.
    options: dict[str, Any] = {"variant": "inspiration", "modification": modification}
    if modification == 3:
        options["sanryaku"] = True
    seen: set[str] = set()
    for seed in range(40):
        rng = random.Random(seed)
        s = GAME.new_state(seed, **options)
        while not s.is_terminal() and s.ply < 600:
            if s.phase == "battle" and s.step in ("take", "remove"):
                text = GAME.position(s)
                stage = text.split()[7].split(",")[0]
                assert stage == {"take": "inspiration", "remove": "inspiration_remove"}[s.step]
                seen.add(stage)
                again = GAME.from_fen(text, **options)
                assert GAME.position(again) == text
                assert again.step == s.step and again.current_player == s.current_player
                kinds = {a.kind for a in s.legal_actions()}
                assert {a.kind for a in again.legal_actions()} == kinds
                if modification != 2 and s.step == "take":  # Mod 2's prepared cards are hidden
                    assert again.legal_actions() == s.legal_actions()
                again.apply(again.legal_actions()[0])  # and play goes on
            s.apply(rng.choice(s.legal_actions()))
        if seen == {"inspiration", "inspiration_remove"}:
            break
    assert seen == {"inspiration", "inspiration_remove"}


def test_an_inspiration_position_needs_the_variant_and_its_pool() -> None:
    text = "bs6/7/7/3An3/7/7/7 - r 18,18 4,4 1,0 -/- inspiration,0,dd"
    with pytest.raises(PositionError, match="Advanced Variant 1"):
        GAME.from_fen(text)
    with pytest.raises(PositionError, match="pool"):
        GAME.from_fen(text, variant="inspiration", modification=3)
    again = GAME.from_fen(
        text + ' {"pool":["Rapid","Rapid"]}', variant="inspiration", modification=3
    )
    assert {str(a) for a in again.legal_actions()} == {"take Rapid"}
    assert GAME.position(again) == text + ' {"pool":["Rapid","Rapid"]}'


def test_invading_units_are_written_and_leave_the_reserve() -> None:
    s = battle(["R C d6 n", "R I a1 n", "B I a7 s"], shogun=("A", None), row=(("M",), ()))
    resolve(s)
    play(s, "d6", "n", "invade")
    text = GAME.position(s)
    assert " 1K,0 " in text  # Red's Cavalry K is on Blue's Invader Spot
    again = GAME.from_fen(text)
    assert GAME.position(again) == text
    reserve = again.view(0)["reserve"]
    assert reserve == s.view(0)["reserve"] and reserve["C"] == 5


_GOOD = "bs6/7/7/3An3/7/7/7 - r 18,18 4,4 0,0 -/- send,0,dd"


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (_GOOD.replace(" -/- ", " M.M.Re.F.Rf/- "), "at most 4"),
        (_GOOD.replace(" -/- ", " L=M.M.Re.F.Rf/- "), "at most 4"),
        (_GOOD.replace(" 4,4 ", " 9,4 "), "owns 4 Fences"),
        (_GOOD.replace(" - r ", " R:d3n r ").replace(" 4,4 ", " 4,3 "), "owns 4 Fences"),
        (_GOOD.replace(" 0,0 ", " 5,0 "), "win the game"),
        (_GOOD.replace(" 0,0 ", " 0,3 "), "win the game"),
        (_GOOD.replace(" - r ", " R:d3n,B:d3n r ").replace(" 4,4 ", " 3,3 "), "fenced twice"),
        (_GOOD.replace(" - r ", " R:d3n,B:d4s r ").replace(" 4,4 ", " 3,3 "), "fenced twice"),
        (_GOOD.replace("send,0,dd", "command,0,dd"), "one of the two is missing"),
        (_GOOD.replace("send,0,dd", "inspiration,0,dd"), "Advanced Variant 1"),
        (_GOOD.replace("send,0,dd", "inspiration_remove,1,dd"), "before any card is sent"),
        (_GOOD.replace(" 0,0 ", " 2K,0 "), "count"),
        (_GOOD.replace(" 0,0 ", " 1k,0 "), "case"),
        (_GOOD.replace(" 0,0 ", " 1A,0 "), "on the Field"),
        (_GOOD + ' {"resolving":"M","queue":[],"invaded":false,"command":{}}', "missing"),
        (
            _GOOD.replace("send,0,dd", "command,0,dd")
            + ' {"resolving":"M","queue":[],"invaded":false,"command":{"card":"M"}}',
            "needs its",
        ),
        (
            _GOOD.replace("send,0,dd", "command,0,dd")
            + ' {"resolving":"M","queue":[],"invaded":false,'
            '"command":{"card":"M","type":"move","step":"dir","leader":"K"}}',
            "not a unit of the side to act",
        ),
        (
            _GOOD.replace("send,0,dd", "command,0,dd")
            + ' {"resolving":"M","queue":[],"invaded":false,'
            '"command":{"card":"M","type":"move","step":"to","leader":"A","order":[],"dir":"n"}}',
            "no legal decision",
        ),
        (_GOOD.replace("send,0,dd", "send,2,dd"), "row of the side to act"),
        (_GOOD.replace("send,0,dd", "sending"), "stage"),
        (_GOOD.replace(" r ", " - "), "finished game"),
    ],
)
def test_impossible_positions_are_refused(text: str, field: str) -> None:
    with pytest.raises(PositionError, match=field):
        GAME.from_fen(text)


def test_position_at_the_start_of_a_turn_resolves_first() -> None:
    text = "bs6/7/7/3An3/7/7/7 - r 18,18 4,4 0,0 M/- orders,0,dd"
    s = GAME.from_fen(text)
    assert (
        s.battle.cur is not None and s.battle.cur[0] == "M"
    )  # Units Follow Orders: the Move resolves


# ------------------------------------------------------------------ terminal


def test_terminal_board_shows_unit_letters() -> None:
    s = battle(["R I d4 n", "R C c2 e", "B A a7 s"])
    text = GAME.render_text(s, 0)
    for cell in ("RIA^", "RCK>", "BAQv"):  # Infantry A, Cavalry K, Archer Q
        assert cell in text


def _terminal_seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # the player closes the input at once
    path = tmp_path / f"game{len(list(tmp_path.iterdir()))}.json"
    args = ["play", "gunshi", "--variant", "inspiration", "--save", str(path), *extra]
    assert main(args) == 0
    seed = json.loads(path.read_text())["seed"]
    assert isinstance(seed, int)
    return seed


def test_terminal_games_deal_anew_unless_seeded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Modification 1's 3 Advanced cards come from the seed: without --seed every terminal
    # game must draw another one.
    seeds = {_terminal_seed(tmp_path, monkeypatch) for _ in range(3)}
    assert len(seeds) == 3
    assert _terminal_seed(tmp_path, monkeypatch, "--seed", "7") == 7
    assert _terminal_seed(tmp_path, monkeypatch, "--seed", "7") == 7
