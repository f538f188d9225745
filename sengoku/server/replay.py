"""Replays: a record turned into the view of every ply for one seat (``POST /api/replay``;
the browser client's replay viewer steps through them).

Stateless: a record is public once its game is over (it holds the seed), so replaying one
reveals nothing a player may not see. The one thing the server checks first is that the
record's seed is not that of a match still in play (:func:`sengoku.server.housekeeping.
seed_in_play`): that seed is the match's secret. The replay itself runs in the server's worker
pool (:func:`replay_json`), off the event loop.
"""

from __future__ import annotations

import json
from typing import Any

from sengoku.core.game import SengokuError
from sengoku.core.record import GameRecord, InvalidRecord
from sengoku.core.registry import load_game

#: A replay longer than this is refused: views are computed for every ply.
MAX_REPLAY_ACTIONS = 5000


def replay_views(data: Any, seat: int | None) -> dict[str, Any]:
    """Every ply of ``data`` (a record) as ``{ply, view, action, seat, events}``.

    Ply 0 is the start; ply k is the position after the k-th action. Concessions are played
    where the record puts them. Raises :class:`InvalidRecord` naming the move that fails.
    """
    record = GameRecord.from_json(data)
    if len(record.actions) > MAX_REPLAY_ACTIONS:
        raise InvalidRecord(f"replays are limited to {MAX_REPLAY_ACTIONS} actions")
    try:
        game = load_game(record.game)
    except SengokuError as exc:
        raise InvalidRecord(f"record names an unknown game: {exc}") from None
    if record.version != game.version:
        raise InvalidRecord(
            f"record was made with {record.game} rules version {record.version}; "
            f"this server plays version {game.version}"
        )
    players = len(record.players) or game.game_type.min_players
    if seat is not None and not 0 <= seat < max(players, game.game_type.max_players):
        raise InvalidRecord(f"seat {seat} is not a seat of this record")
    plies: list[dict[str, Any]] = []
    state = None
    # In games of perfect information each ply carries its action as data (the last-move
    # mark): described from the state before it, while the replay stands there.
    perfect = game.traits(**game.resolve_options(**record.options)).perfect_information
    coming: dict[str, Any] | None = None
    for step in record.steps(check_result=False):
        state = step.state
        if step.kind == "action":
            plies.append(
                {
                    "ply": step.ply,
                    "view": state.view(seat),
                    "action": step.action,
                    "described": coming,
                    "seat": step.seat,
                    "events": _visible(step.events, seat),
                }
            )
        elif step.kind == "concession":
            plies[-1]["events"].extend(_visible(step.events, seat))
            plies[-1]["view"] = state.view(seat)
        else:
            plies.append(
                {"ply": 0, "view": state.view(seat), "action": None, "seat": None, "events": []}
            )
        coming = None
        if perfect and step.kind != "concession" and step.ply < len(record.actions):
            try:
                nxt = game.parse_action(state, record.actions[step.ply])
                coming = game.describe_action(state, nxt).to_json()
            except SengokuError:
                pass  # the replay itself refuses that move next, naming it
    assert state is not None
    outcome = state.outcome()
    return {
        "game": record.game,
        "options": record.options,
        "players": record.players,
        "seat": seat,
        "plies": plies,
        "result": outcome.to_json() if outcome else None,
    }


def replay_json(body: bytes, seat: int | None) -> tuple[int, bytes]:
    """Run in a worker: (HTTP status, JSON body) of the replay of ``body`` (a JSON record).

    The views and their JSON are built here, off the server's event loop."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return 422, json.dumps(
            {"error": {"code": "bad_record", "message": "the body must be a JSON record"}}
        ).encode()
    try:
        out = replay_views(data, seat)
    except SengokuError as exc:
        return 422, json.dumps({"error": {"code": "bad_record", "message": str(exc)}}).encode()
    return 200, json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode()


def game_and_seed(body: bytes) -> tuple[str, int | None]:
    """The game and seed a record names, or ``("", None)`` if it names none."""
    try:
        data = json.loads(body)
        record = GameRecord.from_json(data)
    except (ValueError, RecursionError, SengokuError):
        return "", None
    return str(data.get("game")), record.seed


def _visible(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    return [
        e
        for e in events
        if e.get("audience") is None or (seat is not None and seat in e["audience"])
    ]
