"""Puzzles mined from game records: positions where the mover has one clearly best move and
the game is decided by it (docs/analysis.md gives the criteria and the shipped sets' commands).

* **Gungi** (perfect information): a forced win (the Marshal captured, or mate) within
  ``d`` plies, ``d`` in 1, 3, 5, by exactly one first move, proved by an exhaustive AND-OR
  search (:func:`winning_first_moves`) through the contract, whose moves the native core
  makes. The shortest ``d`` is taken; no other first move wins within ``d``.
* **Gunshi, Sashimono, Gunkimono** (hidden information): the puzzle shows the mover's view
  only, so the solution must be best in every world consistent with it. Either a first
  decision that wins before the mover's turn ends in every one of :data:`TURN_WORLDS`
  determinizations, no other first decision doing so in any (:func:`turn_win_puzzle`), or
  one decision clearly best from the mover's view (:func:`gap_puzzle`); both confirmed by
  :func:`confirm_gap`: a deeper information-set search from the mover's view prefers it by a
  gap in winning chances of at least :data:`GAP` over the runner-up (searched on its own
  too), and in each of :data:`WORLDS` determinizations a search with everything known finds
  no move better by more than :data:`WORLD_TOLERANCE`.

Records come from a folder of JSON records (server exports, arena games) or from self-play
(:func:`selfplay_records`), all reproducible from a seed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sengoku.ai import make_agent
from sengoku.analysis.analyse import AnalysisBudget, analyse_position
from sengoku.core.game import Action, SengokuError, State
from sengoku.core.record import GameRecord, InvalidRecord
from sengoku.core.registry import load_game

#: Gungi: the longest forced win searched (plies of both sides, the mover's first and last).
MAX_PLIES = 5
#: Other games, a win within the turn: the determinizations the solution must win in, the
#: longest turn (the mover's consecutive decisions) searched, and the plies from a record's
#: end where it is looked for (games are decided there; the search is exhaustive).
TURN_WORLDS = 8
TURN_DECISIONS = 4
TURN_WIN_PLIES = 6
#: Other games, a clearly best decision: the quick screening search's iterations and the gap
#: (winning chances, 0..1) it must see between its preferred move and every other.
SCREEN_ITERATIONS = 32
SCREEN_GAP = 0.12
#: The confirming searches: from the mover's view (iterations; the runner-up move gets half
#: as many in its own search), the least gap between the solution and the runner-up, and the
#: worlds (determinizations for the mover) each searched with everything known, where no
#: move may beat the solution by more than the tolerance.
CONFIRM_ITERATIONS = 300
GAP = 0.15
WORLDS = 4
WORLD_ITERATIONS = 100
WORLD_TOLERANCE = 0.1
#: Where the shipped puzzle files live.
DATA = Path(__file__).resolve().parent / "data" / "puzzles"


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: where it came from (``seed``: the record's seed, ``ply``: actions played
    before the position, ``actions``: those actions, so the position replays), who is to
    move (``seat``), what the mover sees (``view``; a Gungi position also has its ``fen``),
    the solution line (notation, the mover's moves and the replies in between), a theme, a
    difficulty (1 easiest .. 5) and the search effort that proved it (``nodes``)."""

    id: str
    game: str
    version: int
    options: dict[str, Any]
    seed: int
    ply: int
    actions: list[str]
    seat: int
    view: dict[str, Any]
    fen: str | None
    solution: list[str]
    theme: str
    difficulty: int
    depth: int
    nodes: int

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "version": self.version,
            "options": self.options,
            "seed": self.seed,
            "ply": self.ply,
            "actions": self.actions,
            "seat": self.seat,
            "view": self.view,
            "fen": self.fen,
            "solution": self.solution,
            "theme": self.theme,
            "difficulty": self.difficulty,
            "depth": self.depth,
            "nodes": self.nodes,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        return cls(**data)

    def position(self) -> State:
        """The puzzle's position (the true one: for a hidden-information game show only
        ``view``, which is ``position().view(seat)``)."""
        record = GameRecord(self.game, self.version, dict(self.options), self.seed)
        record.actions = list(self.actions)
        return record.replay()


# -- forced wins (Gungi, or any perfect-information game) ----------------------------------


class _Counter:
    def __init__(self, limit: int | None = None) -> None:
        self.nodes = 0
        self.limit = limit


class SearchLimit(SengokuError):
    """The search met its node limit before it could answer."""


def _child(state: State, action: Action, counter: _Counter) -> State:
    counter.nodes += 1
    if counter.limit is not None and counter.nodes > counter.limit:
        raise SearchLimit("node limit")
    child = state.clone()
    child.apply(action)
    return child


def _won(state: State, seat: int) -> bool:
    result = state.outcome()
    return result is not None and result.winners == (seat,)


def _capturable(state: State, seat: int) -> bool:
    """Gungi's quick test: the seat to move can take the other Marshal now (a win in one)."""
    test = getattr(state, "marshal_capturable", None)
    return bool(test(1 - seat)) if test is not None else False


def _wins_within(state: State, seat: int, plies: int, counter: _Counter) -> bool:
    """Whether ``seat`` (to move in ``state``) forces a win within ``plies`` plies."""
    if plies >= 1 and _capturable(state, seat):
        return True
    for action in state.legal_actions():
        if _first_move_wins(state, action, seat, plies, counter):
            return True
    return False


def _first_move_wins(
    state: State, action: Action, seat: int, plies: int, counter: _Counter
) -> bool:
    """Whether ``action`` forces ``seat``'s win within ``plies`` plies (it counts as one)."""
    after = _child(state, action, counter)
    if after.is_terminal():
        return _won(after, seat)
    if plies < 3:
        return False
    if after.current_player == seat:  # the mover goes on (not in Gungi's play phase)
        return _wins_within(after, seat, plies - 1, counter)
    for reply in after.legal_actions():
        answered = _child(after, reply, counter)
        if answered.is_terminal():
            if _won(answered, seat):
                continue
            return False
        if answered.current_player != seat or not _wins_within(answered, seat, plies - 2, counter):
            return False
    return True


def winning_first_moves(
    state: State, plies: int, node_limit: int | None = None
) -> tuple[list[Action], int]:
    """The first moves of the seat to move that force its win within ``plies`` plies, and the
    positions searched. Raises :class:`SearchLimit` past ``node_limit`` positions."""
    seat = state.current_player
    counter = _Counter(node_limit)
    found = [
        action
        for action in state.legal_actions()
        if _first_move_wins(state, action, seat, plies, counter)
    ]
    return found, counter.nodes


def _principal_line(state: State, first: Action, plies: int) -> list[str]:
    """A solution line: ``first``, then for each reply (the one that lasts longest, the
    first of the legal list among equals) the fastest winning move, until the win."""
    seat = state.current_player
    line = [str(first)]
    current = state.clone()
    current.apply(first)
    left = plies - 1
    while not current.is_terminal() and left >= 2:
        # the defender's reply: one that the attacker needs longest to punish
        best_reply, best_need = None, -1
        for reply in current.legal_actions():
            after = current.clone()
            after.apply(reply)
            need = 0 if after.is_terminal() else _fastest(after, seat, left - 1)
            if need > best_need:
                best_reply, best_need = reply, need
        assert best_reply is not None
        line.append(str(best_reply))
        current.apply(best_reply)
        if current.is_terminal():
            break
        left -= 1
        move = _fastest_move(current, seat, left)
        line.append(str(move))
        current.apply(move)
        left -= 1
    return line


def _fastest(state: State, seat: int, plies: int) -> int:
    for d in range(1, plies + 1, 2):
        if _wins_within(state, seat, d, _Counter()):
            return d
    return plies + 1


def _fastest_move(state: State, seat: int, plies: int) -> Action:
    for d in range(1, plies + 1, 2):
        moves, _ = winning_first_moves(state, d)
        if moves:
            return moves[0]
    raise SengokuError("no winning move where one was proved")  # pragma: no cover


def gungi_puzzle(
    record: GameRecord, ply: int, state: State, node_limit: int = 30_000
) -> Puzzle | None:
    """The puzzle at ``state`` (after ``ply`` actions of ``record``), or None: a forced win
    within 1, 3 or 5 plies that exactly one first move achieves (the shortest)."""
    if state.is_terminal() or getattr(state, "phase", "play") != "play":
        return None
    if len(state.legal_actions()) < 2:
        return None
    total = 0
    for plies in range(1, MAX_PLIES + 1, 2):
        try:
            moves, nodes = winning_first_moves(state, plies, node_limit)
        except SearchLimit:
            return None
        total += nodes
        if not moves:
            continue
        if len(moves) > 1:
            return None
        line = _principal_line(state, moves[0], plies)
        final = state.clone()
        for text in line:
            final.apply(state.game.parse_action(final, text))
        reason = (final.outcome() or _no_outcome()).reason
        theme = _gungi_theme(plies, reason, line)
        difficulty = min(5, 1 + plies // 2 + (1 if total > 20_000 else 0) + (reason == "mate"))
        return Puzzle(
            id=f"gungi-{record.seed}-{ply}",
            game=record.game,
            version=record.version,
            options=dict(record.options),
            seed=record.seed,
            ply=ply,
            actions=list(record.actions[:ply]),
            seat=state.current_player,
            view=state.view(state.current_player),
            fen=_fen(state),
            solution=line,
            theme=theme,
            difficulty=difficulty,
            depth=plies,
            nodes=total,
        )
    return None


def _no_outcome() -> Any:
    raise SengokuError("a proved line did not end the game")  # pragma: no cover


def _fen(state: State) -> str | None:
    fen = getattr(state, "fen", None)
    return str(fen()) if callable(fen) else None


def _gungi_theme(plies: int, reason: str, line: list[str]) -> str:
    moves = (plies + 1) // 2
    if moves == 1:
        return "mate in 1" if reason == "mate" else "capture the Marshal"
    return f"mate in {moves}" if reason == "mate" else f"Marshal capture in {moves}"


# -- hidden-information games: a win within the turn, in every world ------------------------


def _turn_wins(state: State, seat: int, depth: int, counter: _Counter) -> bool:
    """Whether ``seat`` (to act) can win before its turn ends, within ``depth`` decisions."""
    if depth <= 0:
        return False
    for action in state.legal_actions():
        after = _child(state, action, counter)
        if after.is_terminal():
            if _won(after, seat):
                return True
            continue
        if after.current_player == seat and _turn_wins(after, seat, depth - 1, counter):
            return True
    return False


def _turn_winners(world: State, seat: int, counter: _Counter) -> set[str]:
    winners = set()
    for action in world.legal_actions():
        after = _child(world, action, counter)
        if after.is_terminal():
            if _won(after, seat):
                winners.add(str(action))
        elif after.current_player == seat and _turn_wins(after, seat, TURN_DECISIONS - 1, counter):
            winners.add(str(action))
    return winners


def _turn_line(world: State, first: str, seat: int) -> list[str]:
    line = [first]
    current = world.clone()
    current.apply(world.game.parse_action(current, first))
    while not current.is_terminal() and current.current_player == seat:
        for action in current.legal_actions():
            after = current.clone()
            after.apply(action)
            if (after.is_terminal() and _won(after, seat)) or (
                not after.is_terminal()
                and after.current_player == seat
                and _turn_wins(after, seat, TURN_DECISIONS, _Counter())
            ):
                line.append(str(action))
                current = after
                break
        else:  # pragma: no cover - a proved line always goes on
            break
    return line


def hidden_puzzle(
    record: GameRecord, ply: int, state: State, seed: int, node_limit: int = 20_000
) -> Puzzle | None:
    """The puzzle at ``state`` for a hidden-information game, or None (see the module): a
    win within the turn in every world (:func:`turn_win_puzzle`), else a decision clearly
    best by a gap in winning chances (:func:`gap_puzzle`)."""
    return turn_win_puzzle(record, ply, state, seed, node_limit) or gap_puzzle(
        record, ply, state, seed
    )


def _search_seed(record: GameRecord, seed: int) -> int:
    """The searches' seed for ``record``: the mining seed and the record's own seed."""
    return (seed * 1_000_003 + record.seed * 7_919) % (2**62)


def turn_win_puzzle(
    record: GameRecord, ply: int, state: State, seed: int, node_limit: int = 20_000
) -> Puzzle | None:
    """A first decision that wins before the mover's turn ends in every one of
    :data:`TURN_WORLDS` determinizations for the mover, no other first decision winning so in
    any of them, preferred by the confirming search with a gap of :data:`GAP`."""
    if state.is_terminal():
        return None
    seat = state.current_player
    legal = state.legal_actions()
    if len(legal) < 2:
        return None
    counter = _Counter(node_limit)
    rng = random.Random(seed * 7_919 + ply)
    common: set[str] | None = None
    anywhere: set[str] = set()
    worlds = []
    try:
        for _ in range(TURN_WORLDS):
            world = state.determinize(seat, rng)
            winners = _turn_winners(world, seat, counter)
            common = winners if common is None else common & winners
            anywhere |= winners
            worlds.append(world)
            if not common:
                return None
    except SearchLimit:
        return None
    if common is None or len(common) != 1 or anywhere != common:
        return None
    (solution,) = common
    confirmed = confirm_gap(state, solution, _search_seed(record, seed), ply)
    if confirmed is None:
        return None
    line = _turn_line(worlds[0], solution, seat)
    final = worlds[0].clone()
    for text in line:
        final.apply(final.game.parse_action(final, text))
    reason = (final.outcome() or _no_outcome()).reason
    decisions = len(line)
    return _hidden(
        record,
        ply,
        state,
        line,
        theme=_hidden_theme(reason, decisions),
        difficulty=min(5, decisions + (1 if len(legal) > 10 else 0)),
        nodes=counter.nodes + confirmed.nodes,
    )


@dataclass(frozen=True)
class Confirmation:
    """What the confirming searches found: the mover's winning chances with the solution
    (``best``) and with the runner-up move (``second``, the second most visited, from its
    own search), and the iterations spent (``nodes``)."""

    best: float
    second: float
    runner_up: str
    nodes: int

    @property
    def gap(self) -> float:
        return self.best - self.second


def confirm_gap(state: State, solution: str, seed: int, ply: int) -> Confirmation | None:
    """The deeper search's verdict on ``solution`` at ``state`` (mover to act), or None:

    * from the mover's view (:func:`analyse_position`, :data:`CONFIRM_ITERATIONS`), the
      solution is the preferred move, and the runner-up move searched on its own (half as
      many iterations) leaves the mover at least :data:`GAP` lower in winning chances; every
      other root candidate is at least :data:`GAP` lower too;
    * in each of :data:`WORLDS` determinizations for the mover, a search of that world with
      everything in it known (:data:`WORLD_ITERATIONS`) finds no move better than the
      solution by more than :data:`WORLD_TOLERANCE` (the search's noise): the solution is
      best in every sampled world consistent with the view.
    """
    seat = state.current_player
    view = analyse_position(
        state, solution, budget=AnalysisBudget(iterations=CONFIRM_ITERATIONS), seed=seed, ply=ply
    )
    if view.forced or view.best != solution or view.before is None or len(view.candidates) < 2:
        return None
    others = [c for c in view.candidates if c.action != solution]
    runner_up = others[0].action
    if view.candidates[0].value - max(c.value for c in others) < GAP:
        return None
    second = analyse_position(
        state, runner_up, budget=AnalysisBudget(iterations=CONFIRM_ITERATIONS), seed=seed, ply=ply
    )
    if second.after is None or view.before - second.after < GAP:
        return None
    nodes = sum(view.iterations) + sum(second.iterations)
    rng = random.Random(seed ^ 0x5EED)
    for w in range(WORLDS):
        world = state.determinize(seat, rng)
        check = analyse_position(
            world,
            solution,
            budget=AnalysisBudget(iterations=WORLD_ITERATIONS),
            seed=seed + w + 1,
            ply=ply,
            hindsight=True,
        )
        nodes += sum(check.iterations)
        if check.drop > WORLD_TOLERANCE:
            return None
    return Confirmation(view.before, second.after, runner_up, nodes)


def gap_puzzle(record: GameRecord, ply: int, state: State, seed: int) -> Puzzle | None:
    """A decision clearly best from the mover's view: a quick search (:data:`SCREEN_ITERATIONS`)
    sees a gap of :data:`SCREEN_GAP` between its preferred move and every other, then
    :func:`confirm_gap` confirms it. The solution is that one decision."""
    if state.is_terminal():
        return None
    legal = state.legal_actions()
    if len(legal) < 2:
        return None
    search_seed = _search_seed(record, seed)
    screen = analyse_position(
        state,
        legal[0],
        budget=AnalysisBudget(iterations=SCREEN_ITERATIONS),
        seed=search_seed,
        ply=ply + 1,
    )
    if screen.forced or len(screen.candidates) < 2:
        return None
    best = screen.candidates[0]
    if best.action != screen.best:
        return None
    if best.value - max(c.value for c in screen.candidates[1:]) < SCREEN_GAP:
        return None
    confirmed = confirm_gap(state, screen.best, search_seed, ply + 1)
    if confirmed is None:
        return None
    theme = (
        "winning decision"
        if confirmed.second < 0.5 <= confirmed.best
        else ("saving decision" if confirmed.best < 0.5 else "best decision")
    )
    difficulty = 1 + (len(legal) > 4) + (len(legal) > 12) + (confirmed.gap < 0.3)
    difficulty += confirmed.best < 0.5
    return _hidden(
        record,
        ply,
        state,
        [screen.best],
        theme=theme,
        difficulty=min(5, difficulty),
        nodes=sum(screen.iterations) + confirmed.nodes,
    )


def _hidden(
    record: GameRecord,
    ply: int,
    state: State,
    line: list[str],
    *,
    theme: str,
    difficulty: int,
    nodes: int,
) -> Puzzle:
    seat = state.current_player
    return Puzzle(
        id=f"{record.game}-{record.seed}-{ply}",
        game=record.game,
        version=record.version,
        options=dict(record.options),
        seed=record.seed,
        ply=ply,
        actions=list(record.actions[:ply]),
        seat=seat,
        view=state.view(seat),
        fen=None,
        solution=line,
        theme=theme,
        difficulty=difficulty,
        depth=len(line),
        nodes=nodes,
    )


def _hidden_theme(reason: str, decisions: int) -> str:
    words = reason.replace("_", " ")
    return f"{words} ({decisions} decision{'s' if decisions > 1 else ''})"


# -- records and mining ----------------------------------------------------------------------


def selfplay_records(
    game_name: str, games: int, seed: int, agent: str = "level1"
) -> Iterator[GameRecord]:
    """``games`` self-play records of ``agent`` against itself, game ``i`` from the seed
    ``seed + i`` (the agents' seeds derived from it): reproducible."""
    game = load_game(game_name)
    for i in range(games):
        game_seed = seed + i
        record, state = GameRecord.start(game, game_seed)
        agents = [
            make_agent(game, agent, seed=game_seed * 10 + s) for s in range(state.num_players)
        ]
        while not state.is_terminal():
            mover = state.current_player
            record.play(state, agents[mover].choose(state, mover))
        yield record


def folder_records(game_name: str, folder: Path) -> Iterator[GameRecord]:
    """The finished records of ``game_name`` in ``folder`` (``*.json``, sorted by name);
    files that are no record, or another game's, are skipped."""
    for path in sorted(folder.glob("*.json")):
        try:
            record = GameRecord.load(path)
        except (InvalidRecord, OSError, UnicodeDecodeError):
            continue
        if record.game == game_name and record.result is not None:
            yield record


def mine(
    game_name: str,
    records: Iterable[GameRecord],
    *,
    seed: int = 0,
    limit: int | None = None,
    last_plies: int = 6,
    progress: Callable[[Puzzle], None] | None = None,
) -> list[Puzzle]:
    """Puzzles from ``records``: the positions of each record's last ``last_plies`` plies
    (where games are decided; 0: every position), one puzzle at most per position (and per
    view shown); stops at ``limit`` puzzles. In a hidden-information game a win within the
    turn is looked for in the last :data:`TURN_WIN_PLIES` plies only, a clearly best
    decision in all the positions searched."""
    game = load_game(game_name)
    found: list[Puzzle] = []
    seen: set[str] = set()
    for record in records:
        plies = len(record.actions)
        start = max(0, plies - last_plies) if last_plies > 0 else 0
        states = [step.state.clone() for step in record.steps(check_result=False)]
        positions = [(i, states[i]) for i in range(start, plies) if i < len(states)]
        for ply, state in positions:
            if game.game_type.perfect_information:
                puzzle = gungi_puzzle(record, ply, state)
            elif ply >= plies - TURN_WIN_PLIES:
                puzzle = hidden_puzzle(record, ply, state, seed)
            else:
                puzzle = gap_puzzle(record, ply, state, seed)
            if puzzle is None:
                continue
            key = json.dumps(puzzle.view, sort_keys=True, default=str)
            if key in seen:
                continue
            seen.add(key)
            found.append(puzzle)
            if progress is not None:
                progress(puzzle)
            if limit is not None and len(found) >= limit:
                return found
    return found


def write(puzzles: list[Puzzle], path: Path, command: str, seed: int) -> None:
    """Save ``puzzles`` as JSON with the command that mined them and its seed."""
    data = {
        "command": command,
        "seed": seed,
        "count": len(puzzles),
        "puzzles": [p.to_json() for p in puzzles],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def load(game_name: str, path: Path | None = None) -> list[Puzzle]:
    """The shipped puzzles of ``game_name`` (or those in ``path``)."""
    path = path or DATA / f"{game_name}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return [Puzzle.from_json(p) for p in data["puzzles"]]
