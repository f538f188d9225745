"""The analysis board (issue 38): any position of any game, a line of moves played from it
for every side, the engine's evaluation and its preferred moves.

Stateless: a request names where the board starts (:class:`BoardStart`: a fresh setup of a
mode, a record at a ply, a FEN or a Gunshi position string) and the line of actions played
from there; :func:`board_position` replays them (every action checked by the engine) and
says what the board shows, :func:`evaluate` searches the position reached. The server runs
both in its worker processes (``sengoku/server/routes/board.py``); the browser's board page
holds the variation tree and sends the current line.

**What the board shows.** One seat's information at a time: by default the seat to act
(``view(to_act)``, with its legal choices described for the renderers, as the match page's
hot seat shows the seat on screen); or a seat the user pins, whose view is shown at every
position. A pinned seat never sees another seat's hidden parts: in a game of hidden
information, while another seat is to act, the pinned board gets no legal choices and no
evaluation (:class:`BoardError` ``hidden_seat``). The engine searches from the seat to act's
information set (every iteration a fresh ``determinize(to_act)``), never from the true
state: its figures are what that seat could know.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from sengoku.ai.mcts import Node
from sengoku.analysis.analyse import EXPLORATION, AnalysisEngine, line_value, ply_seed
from sengoku.core.game import Game, NotSupported, SengokuError, State
from sengoku.core.record import GameRecord, InvalidRecord
from sengoku.core.registry import load_game
from sengoku.core.sentence import Sentence, say

#: The most actions a board's start record may hold (a replay's bound, ``/api/replay``).
MAX_RECORD_ACTIONS = 5000
#: The most actions a line played on the board may hold (a finished game's moves are the
#: main line of its board: a replay's bound too).
MAX_LINE = 5000
#: How many moves an evaluation reports (most visited first).
TOP = 3
#: An evaluation stopped by its CPU budget has still searched this many iterations.
FLOOR = 16


class BoardError(SengokuError):
    """A board request that cannot be answered: ``status`` and ``code`` as the API reports
    them, the message naming the field or the rule; a :class:`Sentence` keeps its parts for
    the reader's language (sengoku/core/sentence.py), the engine's reason inside it."""

    def __init__(self, status: int, code: str, message: str | Sentence) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = str(message)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "code": self.code, "message": self.message}
        if self.say is not None:
            out["say"] = self.say.wire()
        return out


def _reason(exc: SengokuError) -> Sentence | str:
    """An engine's reason: its sentence where it has one, else its English text."""
    return exc.say if exc.say is not None else str(exc)


@dataclass(frozen=True)
class BoardStart:
    """Where a board starts. Exactly one of: ``setup`` (a fresh game of ``game`` with
    ``options`` and ``seed``), ``record`` (a record's JSON, at ``ply``: its first ``ply``
    actions played; all by default), ``fen`` (a position in the game's FEN: Gungi's, or
    Gunshi's position string, which is its FEN)."""

    game: str
    options: dict[str, Any]
    seed: int = 0
    setup: bool = False
    record: dict[str, Any] | None = None
    ply: int | None = None
    fen: str | None = None


@dataclass
class Root:
    """The board's first position and how to export a line from it: ``prefix`` (the record
    of the actions that led there, for starts that replay from a seed) or ``fen``."""

    state: State
    prefix: GameRecord | None
    fen: str | None


def _game(name: str) -> Game:
    try:
        return load_game(name)
    except SengokuError as exc:
        raise BoardError(404, "unknown_game", _reason(exc)) from None


def start_root(start: BoardStart) -> Root:
    """The board's first position (:class:`BoardError` naming what is wrong)."""
    game = _game(start.game)
    if start.record is not None:
        return _record_root(game, start.record, start.ply)
    if start.fen is not None:
        try:
            state = game.from_fen(start.fen, **start.options)
        except NotSupported as exc:
            raise BoardError(422, "no_fen", _reason(exc)) from None
        except SengokuError as exc:
            raise BoardError(
                422, "bad_fen", say("from.fen: {reason}", reason=_reason(exc))
            ) from None
        return Root(state, None, start.fen)
    try:
        record, state = GameRecord.start(game, start.seed, None, **start.options)
    except SengokuError as exc:
        raise BoardError(422, "bad_option", _reason(exc)) from None
    return Root(state, record, None)


def _record_root(game: Game, data: dict[str, Any], ply: int | None) -> Root:
    try:
        record = GameRecord.from_json(data)
        if load_game(record.game).name != game.name:
            raise InvalidRecord(f"the record is of {record.game}, not {game.name}")
        if len(record.actions) > MAX_RECORD_ACTIONS:
            raise InvalidRecord(f"a board's record holds at most {MAX_RECORD_ACTIONS} actions")
        upto = len(record.actions) if ply is None else ply
        if not 0 <= upto <= len(record.actions):
            raise BoardError(
                422,
                "bad_ply",
                say(
                    "from.ply {ply} is outside the record's 0-{last}",
                    ply=upto,
                    last=len(record.actions),
                ),
            )
        state = record.replay(upto)
    except BoardError:
        raise
    except SengokuError as exc:
        raise BoardError(
            422, "bad_record", say("from.record: {reason}", reason=_reason(exc))
        ) from None
    prefix = GameRecord(
        game=record.game,
        version=record.version,
        options=dict(record.options),
        seed=record.seed,
        players=list(record.players),
        actions=record.actions[:upto],
        concessions=[dict(c) for c in record.concessions if int(c["ply"]) <= upto],
    )
    return Root(state, prefix, None)


def play_line(root: Root, actions: list[str]) -> tuple[State, list[str], dict[str, Any] | None]:
    """The position after ``actions`` (notation, canonical or short) from the root: the state,
    the actions in canonical notation, and the last one as data (games of perfect
    information only: the last-move mark). An action the rules refuse is ``422
    illegal_action`` naming its place in the line and the engine's reason."""
    if len(actions) > MAX_LINE:
        raise BoardError(
            422, "bad_request", say("actions: a line holds at most {n} actions", n=MAX_LINE)
        )
    state = root.state.clone()
    game = state.game
    canonical: list[str] = []
    last: dict[str, Any] | None = None
    perfect = _perfect(state)
    for i, text in enumerate(actions):
        if state.is_terminal():
            raise BoardError(
                422,
                "illegal_action",
                say(
                    "actions[{i}] ({text}): the game is over after actions[{before}]",
                    i=i,
                    text=repr(text),
                    before=i - 1,
                )
                if i
                else say("actions[0] ({text}): the game is over at this position", text=repr(text)),
            )
        try:
            action = game.parse_action(state, text)
            described = game.describe_action(state, action).to_json() if perfect else None
            state.apply(action)
        except SengokuError as exc:
            raise BoardError(
                422,
                "illegal_action",
                say("actions[{i}] ({text}): {reason}", i=i, text=repr(text), reason=_reason(exc)),
            ) from None
        canonical.append(str(action))
        last = described
    return state, canonical, last


def _perfect(state: State) -> bool:
    game = state.game
    return bool(game.traits(**state.options).perfect_information)


def _shown_seat(state: State, seat: int | None) -> int | None:
    if seat is not None and not 0 <= seat < state.num_players:
        raise BoardError(
            422,
            "bad_request",
            say(
                "seat: {seat} is not a seat of this game (0-{last})",
                seat=seat,
                last=state.num_players - 1,
            ),
        )
    if seat is not None:
        return seat
    return state.current_player if not state.is_terminal() else None


def may_see_choices(state: State, seat: int | None) -> bool:
    """Whether the board shown for ``seat`` (None: the seat to act) may show the seat to
    act's choices and evaluation: always in games of perfect information, else only when it
    shows the seat to act itself (its choices name its hand, its hidden cards)."""
    if state.is_terminal():
        return False
    return seat is None or seat == state.current_player or _perfect(state)


def board_position(start: BoardStart, actions: list[str], seat: int | None) -> dict[str, Any]:
    """What the board shows after ``actions`` from ``start`` (docs/api.md, *Analysis
    board*)."""
    root = start_root(start)
    state, canonical, last = play_line(root, actions)
    game = state.game
    shown = _shown_seat(state, seat)
    legal_rows: list[dict[str, Any]] = []
    if may_see_choices(state, seat):
        legal = state.legal_actions()
        shorts = game.format_actions(state, legal)
        for action, short, d in zip(
            legal, shorts, game.describe_actions(state, legal), strict=True
        ):
            legal_rows.append({**d.to_json(), "action": str(action), "short": short})
    outcome = state.outcome()
    answer: dict[str, Any] = {
        "game": game.name,
        "options": dict(state.options),
        "num_players": state.num_players,
        "perfect_information": _perfect(state),
        "root": {"ply": len(root.prefix.actions) if root.prefix else 0, "fen": root.fen},
        "actions": canonical,
        "ply": len(canonical),
        "to_act": None if state.is_terminal() else state.current_player,
        "seat": shown,
        "view": state.view(shown),
        "legal": legal_rows,
        "hidden": not state.is_terminal() and not may_see_choices(state, seat),
        "last": last,
        "result": outcome.to_json() if outcome else None,
        "fen": _fen(state),
        "export": export(root, canonical, state),
    }
    return answer


def _fen(state: State) -> str | None:
    """The position's FEN (Gungi) or position string (Gunshi): public text, or None."""
    game: Any = state.game
    writer = getattr(game, "to_fen", None) or getattr(game, "position", None)
    if writer is None:
        return None
    try:
        return str(writer(state))
    except (SengokuError, AssertionError, NotImplementedError):
        return None  # a stage the notation does not write (Gunshi before its battle)


def export(root: Root, canonical: list[str], state: State) -> dict[str, Any]:
    """The line as a file: from a start that replays from a seed, a record
    (:class:`GameRecord`'s JSON: the actions that led to the board's start, then the line;
    its result the position's, if over); from a FEN, ``{"game", "version", "options",
    "fen", "actions"}`` (a record replays from a seed, which a FEN does not have)."""
    if root.prefix is not None:
        record = GameRecord(
            game=root.prefix.game,
            version=root.prefix.version,
            options=dict(root.prefix.options),
            seed=root.prefix.seed,
            players=list(root.prefix.players),
            actions=[*root.prefix.actions, *canonical],
            concessions=[dict(c) for c in root.prefix.concessions],
        )
        outcome = state.outcome()
        record.result = outcome.to_json() if outcome else None
        return {"kind": "record", "record": record.to_json()}
    game = state.game
    return {
        "kind": "fen",
        "study": {
            "game": game.name,
            "version": game.version,
            "options": dict(root.state.options),
            "fen": root.fen,
            "actions": list(canonical),
        },
    }


def evaluate(
    state: State, *, iterations: int, seed: int = 0, top: int = TOP, cpu_seconds: float | None
) -> dict[str, Any]:
    """The engine's view of ``state`` for the seat to act: an IS-MCTS root search (the
    ``ismcts`` tree of :mod:`sengoku.analysis.analyse`, every iteration a fresh
    ``determinize(to_act)``) of at most ``iterations`` iterations, stopped early (after
    :data:`FLOOR`) once ``cpu_seconds`` of this process's CPU time are spent. ``chances`` is
    the seat's winning chances (0..1) with the preferred move; ``top`` the ``top`` most
    visited moves with the chances after each. Reproducible for an iteration budget."""
    if state.is_terminal():
        outcome = state.outcome()
        return {
            "to_act": None,
            "chances": None,
            "best": None,
            "top": [],
            "iterations": 0,
            "result": outcome.to_json() if outcome else None,
        }
    seat = state.current_player
    base = ply_seed(seed, 0)
    engine = AnalysisEngine(state.game, seed=base, c=EXPLORATION)
    rng = random.Random(base ^ 0x9E3779B9)
    root = Node(None, seat, state.num_players)
    deadline = None if cpu_seconds is None else time.process_time() + cpu_seconds
    done = 0
    for done in range(1, iterations + 1):
        engine.iterate(root, state.determinize(seat, rng), seat)
        if deadline is not None and done >= FLOOR and time.process_time() >= deadline:
            break
    children = sorted(
        root.children.values(),
        key=lambda ch: (-ch.visits, -ch.totals[seat] / max(ch.visits, 1)),
    )
    rows = [
        {"action": str(ch.action), "value": round(line_value(ch, seat), 4), "visits": ch.visits}
        for ch in children[:top]
    ]
    return {
        "to_act": seat,
        "chances": rows[0]["value"] if rows else None,
        "best": rows[0]["action"] if rows else None,
        "top": rows,
        "iterations": done,
        "result": None,
    }


def board_evaluation(
    start: BoardStart,
    actions: list[str],
    seat: int | None,
    *,
    iterations: int,
    cpu_seconds: float | None,
) -> dict[str, Any]:
    """:func:`evaluate` of the position after ``actions`` from ``start``; refused
    (``hidden_seat``) where the board shown may not see the seat to act's choices."""
    root = start_root(start)
    state, canonical, _last = play_line(root, actions)
    _shown_seat(state, seat)
    if not state.is_terminal() and not may_see_choices(state, seat):
        raise BoardError(
            409,
            "hidden_seat",
            say(
                "seat {seat} is to act and the board shows seat {shown}: its choices and the "
                "engine's view of them are that seat's hidden information",
                seat=state.current_player,
                shown=seat,
            ),
        )
    answer = evaluate(state, iterations=iterations, seed=len(canonical), cpu_seconds=cpu_seconds)
    answer["ply"] = len(canonical)
    answer["budget"] = {"iterations": iterations, "cpu_seconds": cpu_seconds}
    return answer


# -- jobs for the server's worker processes: JSON in, JSON out -----------------------------


def _start_of(data: dict[str, Any]) -> BoardStart:
    return BoardStart(
        game=str(data["game"]),
        options=dict(data.get("options") or {}),
        seed=int(data.get("seed") or 0),
        setup=bool(data.get("setup")),
        record=data.get("record"),
        ply=data.get("ply"),
        fen=data.get("fen"),
    )


def position_job(data: dict[str, Any]) -> dict[str, Any]:
    """Run in a worker: :func:`board_position` of a request's fields, or ``{"error"}``."""
    try:
        return {"ok": board_position(_start_of(data), list(data["actions"]), data.get("seat"))}
    except BoardError as exc:
        return {"error": exc.to_json()}
    except SengokuError as exc:
        return {"error": BoardError(422, "bad_request", _reason(exc)).to_json()}


def evaluate_job(data: dict[str, Any], iterations: int, cpu_seconds: float) -> dict[str, Any]:
    """Run in a worker: :func:`board_evaluation` of a request's fields, or ``{"error"}``."""
    try:
        return {
            "ok": board_evaluation(
                _start_of(data),
                list(data["actions"]),
                data.get("seat"),
                iterations=iterations,
                cpu_seconds=cpu_seconds,
            )
        }
    except BoardError as exc:
        return {"error": exc.to_json()}
    except SengokuError as exc:
        return {"error": BoardError(422, "bad_request", _reason(exc)).to_json()}
