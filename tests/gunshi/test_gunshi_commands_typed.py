"""The command in progress is a typed value; every card and command has its rule module."""

from __future__ import annotations

import json
import random

from sengoku.games.gunshi import Gunshi
from sengoku.games.gunshi.commands.command import (
    Command,
    CommandType,
    Step,
    command_from_view,
    command_view,
)
from sengoku.games.gunshi.commands.universal_rules import RULES, START
from sengoku.games.gunshi.data import CARDS

GAME = Gunshi()


def test_every_card_and_command_has_its_rules() -> None:
    assert set(START) == set(CARDS)
    assert set(RULES) == set(CommandType)
    for code, start in START.items():
        # One module per Command card, named for the card (e.g. commands/rapid_move.py).
        assert start.__module__.startswith("sengoku.games.gunshi.commands."), code


def test_commands_round_trip_through_json_and_views() -> None:
    seen_types: set[CommandType] = set()
    options = [{}, {"variant": "custom", "sanryaku": True}, {"preset": "fire_at_will"}]
    for seed in range(6):
        rng = random.Random(seed)
        s = GAME.new_state(seed, **options[seed % len(options)])
        while not s.is_terminal() and s.ply < 400:
            cmd = s.orders.cmd
            if cmd is not None:
                assert isinstance(cmd, Command) and isinstance(cmd.step, Step)
                if cmd.type is not None:
                    seen_types.add(cmd.type)
                data = json.loads(json.dumps(cmd.to_json()))
                assert Command.from_json(data) == cmd
                assert command_from_view(json.loads(json.dumps(command_view(cmd)))) == cmd
                again = type(s).from_json(GAME, json.loads(json.dumps(s.to_json())))
                assert again.orders.cmd == cmd and again.legal_actions() == s.legal_actions()
            s.apply(rng.choice(s.legal_actions()))
    assert {CommandType.MOVE, CommandType.REORIENT, CommandType.FENCE} <= seen_types


def test_a_state_saved_with_the_command_as_a_dict_loads() -> None:
    # The JSON keeps the command's decided fields as before the typed Command: ids, lists.
    s = GAME.new_state(3)
    rng = random.Random(3)
    while s.orders.cmd is None or s.orders.cmd.leader is None:
        s.apply(rng.choice(s.legal_actions()))
    data = s.to_json()
    assert data["cmd"]["card"] == s.orders.cmd.card and data["cmd"]["leader"] == s.orders.cmd.leader
    assert list(data["cmd"])[:2] in (["card", "type"], ["card", "mode"], ["card", "step"])
    again = type(s).from_json(GAME, data)
    assert again.view(0) == s.view(0)
