"""Random play to the end, every registered game: the state, its JSON and its record agree
at every decision.

At every ply of every game:

* the legal actions are unique, in ascending ``action_to_int`` order, and map back;
* ``to_json`` -> text -> ``state_from_json`` gives the same state: the same JSON, views
  (every seat and the spectator), legal actions, player to act and outcome;
* the record, written and read back as JSON, names the decision just played, and a replica
  that follows the record by notation (``parse_action``) stays equal to the state;
* every view and event is JSON, every event says who may see it;
* the chosen action's canonical notation parses back to it (in the replica), and so does
  its short form (``format_action``) at a sample of plies, where ``format_actions`` of the
  whole legal list gives each action's short form in order.

At a sample of plies a clone is played on without touching the original. Each game ends
with legal actions empty, ``TERMINAL`` to act and a valid outcome; the whole record replays
to the same final state, and so does a prefix of it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sengoku.core.game import TERMINAL, Game, Outcome, State
from sengoku.core.record import GameRecord
from sengoku.core.registry import load_game
from tests.contract.cases import PARAMS, SCALE, canonical, fingerprint

GAMES = SCALE


def check_outcome(result: Outcome | None, num_players: int) -> None:
    """A valid :class:`Outcome` for ``num_players`` seats."""
    assert isinstance(result, Outcome)
    assert isinstance(result.reason, str) and result.reason
    assert len(result.scores) == len(result.returns) == num_players
    assert all(-1.0 <= r <= 1.0 for r in result.returns)
    assert len(set(result.winners)) == len(result.winners)
    assert all(0 <= w < num_players for w in result.winners)
    if result.winners and num_players > 1:
        best = max(result.returns)
        assert all(result.returns[w] == best for w in result.winners)
    assert Outcome.from_json(json.loads(json.dumps(result.to_json()))) == result


def check_json_round_trip(game: Game, state: State) -> None:
    data = state.to_json()
    text = json.dumps(data, ensure_ascii=False)
    back = game.state_from_json(json.loads(text))
    assert canonical(back.to_json()) == canonical(data), "to_json -> state_from_json -> to_json"
    assert fingerprint(back) == fingerprint(state), "a state rebuilt from its JSON differs"
    # And it plays on: a server loads every position from its JSON before the AI searches it
    # (compiled engines once refused a loaded Gunshi position's knowledge, kept as lists).
    assert [str(a) for a in back.legal_actions()] == [str(a) for a in state.legal_actions()]
    if not back.is_terminal():
        for seat in range(back.num_players):
            world = back.determinize(seat, random.Random(seat))
            assert world.legal_actions() or world.is_terminal()


def check_legal_list(game: Game, state: State) -> list[Any]:
    legal = state.legal_actions()
    if state.is_terminal():
        assert legal == [] and state.current_player == TERMINAL
        check_outcome(state.outcome(), state.num_players)
        return legal
    assert legal, "a live state has a legal action"
    assert state.outcome() is None
    assert 0 <= state.current_player < state.num_players
    ints = [game.action_to_int(state, a) for a in legal]
    assert ints == sorted(set(ints)), "legal actions: unique, in ascending integer order"
    size = game.num_distinct_actions(**state.options)
    assert all(0 <= n < size for n in ints)
    assert [game.int_to_action(state, n) for n in ints] == legal
    return legal


def play_one(game: Game, options: dict[str, Any], seed: int) -> None:
    rng = random.Random(f"contract-play-{game.name}-{seed}")
    record, state = GameRecord.start(game, seed, ["A", "B"], **options)
    replica = game.new_state(seed, **options)
    keep_at = rng.randrange(40)
    kept: str | None = None
    ply = 0
    while True:
        legal = check_legal_list(game, state)
        check_json_round_trip(game, state)
        for seat in [*range(state.num_players), None]:
            json.dumps(state.view(seat))
        if ply == keep_at:
            kept = fingerprint(state)
        if state.is_terminal():
            break
        action = rng.choice(legal)
        if rng.random() < 0.2:
            assert game.parse_action(state, game.format_action(state, action)) == action
            # the whole list's short forms (the server's) are each action's, in order
            assert game.format_actions(state, legal) == [
                game.format_action(state, a) for a in legal
            ]
        if rng.random() < 0.05:
            twin = state.clone()
            before = fingerprint(state)
            twin.apply(rng.choice(legal))
            assert fingerprint(state) == before, "playing on a clone changed the original"
        events = record.play(state, action)
        for ev in events:
            assert isinstance(ev.get("type"), str) and ev["type"]
            assert "audience" in ev
            audience = ev["audience"]
            assert audience is None or all(0 <= s < state.num_players for s in audience)
            json.dumps(ev)
        ply += 1
        # The record, through its JSON text, names the decision just played.
        loaded = GameRecord.loads(record.dumps())
        assert len(loaded.actions) == ply
        parsed = game.parse_action(replica, loaded.actions[-1])
        assert parsed == action, f"{str(action)!r} parses back to {parsed!r}"
        replica.apply(parsed)
        assert canonical(replica.to_json()) == canonical(state.to_json()), (
            f"ply {ply}: the record replays to another state"
        )
    assert ply <= game.max_game_length(**state.options)
    final = GameRecord.loads(record.dumps())
    assert final.result == state.outcome().to_json()  # type: ignore[union-attr]
    assert fingerprint(final.replay()) == fingerprint(state)
    if kept is not None:
        assert fingerprint(final.replay(upto=keep_at)) == kept


@pytest.mark.soak
@pytest.mark.parametrize(("name", "options"), PARAMS)
def test_random_games_round_trip_at_every_ply(name: str, options: dict[str, Any]) -> None:
    game = load_game(name)
    for seed in range(GAMES):
        play_one(game, options, seed)
