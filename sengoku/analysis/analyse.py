"""Game analysis: the mover's winning chances before and after every move of a record.

For every ply (one decision of one seat) the engine searches the position *from the mover's
information set*: every iteration of an information-set MCTS (the ``ismcts`` agent's tree,
:class:`sengoku.ai.mcts.ISMCTSAgent`) starts from a fresh ``state.determinize(mover, rng)``,
so the search reads nothing the mover could not see at that ply (for Gungi, a game of
perfect information, a determinization is a copy and this is plain UCT). Two searches a ply:

* the **root search** (``iterations``): every legal action; the engine's preferred move is
  the most visited child, and its value (:func:`line_value`: the mean return along the
  line the search settled on below it) is the mover's winning chances *before* the move
  (what the best move keeps);
* the **played-move search** (``iterations // 2``, skipped when the played move is the
  preferred one): the same search with the root restricted to the move played (each
  determinization has it applied first); its value is the winning chances *after* the move.

Winning chances are a seat's expected return mapped from [-1, 1] to [0, 1] (a win 1, a draw
0.5, a loss 0; a multi-player game's ranked returns likewise). The **drop** is
``max(0, before - after)`` and classifies the move (:data:`THRESHOLDS`); the per-player
**accuracy** follows lichess's formula (:func:`move_accuracy`, :func:`game_accuracy`).

Every search draws from generators seeded by ``(seed, ply)`` alone, so with an iteration
budget the analysis is a function of the record, the seed and the budget (reproducible),
and a ply's analysis does not depend on the other plies. ``hindsight=True`` searches the
true state instead (everything visible: hands, decks, the hidden Shogun), for finished games
only, and the result says ``information: "hindsight"``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from sengoku.ai.base import pick_legal
from sengoku.ai.mcts import ISMCTSAgent, Node
from sengoku.core.game import Action, Game, SengokuError, State
from sengoku.core.record import GameRecord

#: Drops of winning chances (on the 0..1 scale) from which a move is an inaccuracy, a mistake
#: or a blunder. Lichess uses 0.1 / 0.2 / 0.3 on its -1..1 scale (half of these on ours);
#: our estimates come from a small Monte Carlo search, whose noise at the default budget is
#: several hundredths, so the thresholds are lichess's figures on the 0..1 scale.
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 0.3),
    ("mistake", 0.2),
    ("inaccuracy", 0.1),
)
#: The default budget: root-search iterations a ply (the played move gets half).
DEFAULT_ITERATIONS = 200
#: The engine's exploration constant (the ``ismcts`` agent's default).
EXPLORATION = 0.7
#: How many of the root's children a ply reports (most visited first).
CANDIDATES = 5
#: A move's value is read along its principal variation (:func:`line_value`): at most this
#: many plies below the move, through children searched at least :data:`PV_VISITS` times.
PV_DEPTH = 2
PV_VISITS = 8


def cpu_clock() -> float:
    """The CPU time of the thread doing the search (seconds): what a job's CPU budget counts.
    A job runs in one thread (a pool process's, or a pool thread), so this is its own CPU,
    not its neighbours' nor the time it waited for a core. Looked up at each call, so a test
    may put a clock of its own in its place."""
    return time.thread_time()


@dataclass(frozen=True)
class AnalysisBudget:
    """The search a ply gets: ``iterations`` for the root search (the played move half as
    many); ``cpu_seconds``, if set, a CPU-time budget for the whole game (the searching
    thread's CPU, :func:`cpu_clock`), and ``seconds``, if set, a wall-clock cap for the
    whole game (a safety net: a thread starved of a core still ends); each is shared over
    the plies left, and each ply still searches at least ``floor`` iterations. Only an
    iteration budget (both None) is reproducible."""

    iterations: int = DEFAULT_ITERATIONS
    seconds: float | None = None
    floor: int = 16
    cpu_seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations < 2:
            raise SengokuError(
                f"analysis budget: iterations must be at least 2, not {self.iterations}"
            )
        if self.seconds is not None and self.seconds <= 0:
            raise SengokuError(f"analysis budget: seconds must be above 0, not {self.seconds}")
        if self.cpu_seconds is not None and self.cpu_seconds <= 0:
            raise SengokuError(
                f"analysis budget: cpu_seconds must be above 0, not {self.cpu_seconds}"
            )
        if self.floor < 1:
            raise SengokuError(f"analysis budget: floor must be at least 1, not {self.floor}")

    def to_json(self) -> dict[str, Any]:
        return {
            "iterations": self.iterations,
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
            "floor": self.floor,
        }


@dataclass(frozen=True)
class Candidate:
    """One root move: its notation, the mover's winning chances after it, its visits."""

    action: str
    value: float
    visits: int


@dataclass(frozen=True)
class PlyAnalysis:
    """The analysis of one ply (one decision): ``ply`` is its 1-based number in the record,
    ``seat`` the mover. ``before``: the mover's winning chances with the engine's preferred
    move ``best``; ``after``: with the move ``played`` (both None for a forced move, which
    is not searched); ``drop``: ``max(0, before - after)``;
    ``classification``: ``"inaccuracy"``, ``"mistake"``, ``"blunder"`` or None; ``forced``:
    the mover had one legal action (no search, not counted in accuracy); ``accuracy``: the
    move's accuracy (0-100, lichess's formula); ``candidates``: the root's most visited moves;
    ``iterations``: the searches' iterations (root, played move)."""

    ply: int
    seat: int
    played: str
    best: str
    before: float | None
    after: float | None
    drop: float
    classification: str | None
    forced: bool
    accuracy: float
    candidates: tuple[Candidate, ...]
    iterations: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["candidates"] = [asdict(c) for c in self.candidates]
        data["iterations"] = list(self.iterations)
        return data


@dataclass(frozen=True)
class PlayerSummary:
    """One seat's figures over the game: ``accuracy`` (0-100, :func:`game_accuracy` of its
    unforced moves; None if it had none), counts of each classification, its moves."""

    seat: int
    name: str
    accuracy: float | None
    moves: int
    inaccuracies: int
    mistakes: int
    blunders: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class GameAnalysis:
    """The analysis of a record: one :class:`PlyAnalysis` per action, one
    :class:`PlayerSummary` per seat. ``information`` is ``"mover"`` (every ply searched from
    the mover's information set) or ``"hindsight"`` (from the true state, a finished game)."""

    game: str
    seed: int
    information: str
    budget: AnalysisBudget
    plies: list[PlyAnalysis] = field(default_factory=list)
    players: list[PlayerSummary] = field(default_factory=list)
    result: dict[str, Any] | None = None
    seconds: float = 0.0
    #: The CPU time the searches used (:func:`cpu_clock`, or the clock ``analyse`` was given).
    cpu_seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "information": self.information,
            "thresholds": {name: value for name, value in THRESHOLDS},
            "budget": self.budget.to_json(),
            "result": self.result,
            "players": [p.to_json() for p in self.players],
            "plies": [p.to_json() for p in self.plies],
            "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
        }


def classify(drop: float) -> str | None:
    """The class of a move that loses ``drop`` of the mover's winning chances (0..1)."""
    for name, threshold in THRESHOLDS:
        if drop >= threshold:
            return name
    return None


def move_accuracy(before: float, after: float) -> float:
    """Lichess's accuracy of one move from the mover's win percentage before and after it
    (here winning chances 0..1, times 100): ``103.1668 * exp(-0.04354 * (before - after)) -
    3.1669``, clamped to 0..100; a move that gains scores 100."""
    drop = max(0.0, before - after) * 100.0
    raw = 103.1668 * math.exp(-0.04354 * drop) - 3.1669
    return max(0.0, min(100.0, raw))


def game_accuracy(accuracies: list[float]) -> float | None:
    """A player's accuracy over a game: the mean of the arithmetic and the harmonic mean of
    its moves' accuracies (lichess mixes these two; it also weighs moves by the position's
    volatility, which we leave out). The harmonic mean makes a few blunders count heavily."""
    if not accuracies:
        return None
    arithmetic = sum(accuracies) / len(accuracies)
    harmonic = len(accuracies) / sum(1.0 / max(a, 1e-3) for a in accuracies)
    return (arithmetic + harmonic) / 2.0


def ply_seed(seed: int, ply: int) -> int:
    """The seed of ply ``ply``'s searches: a function of the analysis seed and the ply only."""
    return (seed * 1_000_003 + ply * 7919) % (2**63)


class _Engine(ISMCTSAgent):
    """The ``ismcts`` agent's tree, driven from outside: a root search, and a search whose
    root is restricted to one action. Without the agents' pressure for a result (which
    draws a distant result's worth towards a draw's, to make a player press on): analysis
    reads what a position is worth, not how soon."""

    name = "ismcts"
    defaults = {**ISMCTSAgent.defaults, "pressure": 0.0}

    def __init__(self, game: Game, seed: int = 0, **options: Any) -> None:
        super().__init__(game, seed, **options)
        self.knowledge = self.knowledge.without_pressure()


def line_value(node: Node, seat: int) -> float:
    """``seat``'s winning chances after ``node``'s move: the mean return at the end of its
    principal variation (the most visited child, :data:`PV_DEPTH` plies at most, each with
    :data:`PV_VISITS` visits or more). A node's plain mean mixes in the replies the search
    only tried (UCT explores); following the replies it settled on reads the value of the
    line it believes in, closer to the minimax value (a reply that takes the Marshal is
    what the opponent plays, not one reply among thirty)."""
    for _ in range(PV_DEPTH):
        if not node.children:
            break
        child = max(node.children.values(), key=lambda ch: ch.visits)
        if child.visits < PV_VISITS:
            break
        node = child
    return node.totals[seat] / max(node.visits, 1)


def _worlds(state: State, seat: int, rng: random.Random, hindsight: bool) -> Callable[[], State]:
    if hindsight:
        return state.clone
    return lambda: state.determinize(seat, rng)


def analyse_position(
    state: State,
    played: Action | str,
    *,
    budget: AnalysisBudget | None = None,
    seed: int = 0,
    ply: int = 1,
    hindsight: bool = False,
    deadline: float | None = None,
    cpu_deadline: float | None = None,
    clock: Callable[[], float] | None = None,
) -> PlyAnalysis:
    """The analysis of the move ``played`` (an action or its notation) in ``state``.

    Without ``hindsight`` only ``state.determinize(mover, rng)`` and the mover's legal
    actions are read: two states the mover cannot tell apart get the same analysis (the
    searches' generators depend on ``seed`` and ``ply`` alone). ``deadline`` (a
    ``time.perf_counter`` instant) and ``cpu_deadline`` (an instant of ``clock``, by default
    :func:`cpu_clock`) cut the searches short, after ``budget.floor`` iterations.
    """
    cpu = clock or cpu_clock
    budget = budget or AnalysisBudget()
    if state.is_terminal():
        raise SengokuError("analysis: the game is over at this position; there is no move")
    seat = state.current_player
    legal: list[Action] = state.legal_actions()
    action = state.game.parse_action(state, played) if isinstance(played, str) else played
    action = pick_legal(state, action)
    if len(legal) == 1:
        return PlyAnalysis(
            ply, seat, str(action), str(action), None, None, 0.0, None, True, 100.0, (), (0, 0)
        )
    base = ply_seed(seed, ply)
    engine = _Engine(state.game, seed=base, c=EXPLORATION)
    worlds = _worlds(state, seat, random.Random(base ^ 0x9E3779B9), hindsight)

    def stop(count: int) -> bool:
        if count < budget.floor:
            return False
        if cpu_deadline is not None and cpu() >= cpu_deadline:
            return True
        return deadline is not None and time.perf_counter() >= deadline

    root = Node(None, seat, state.num_players)
    done = 0
    for done in range(1, budget.iterations + 1):
        engine.iterate(root, worlds(), seat)
        if stop(done):
            break
    children = sorted(
        root.children.values(),
        key=lambda ch: (-ch.visits, -ch.totals[seat] / max(ch.visits, 1)),
    )
    best = children[0]
    before = line_value(best, seat)
    candidates = tuple(
        Candidate(str(ch.action), round(ch.totals[seat] / max(ch.visits, 1), 4), ch.visits)
        for ch in children[:CANDIDATES]
    )
    best_action = pick_legal(state, best.action)
    if best_action == action:
        after, second = before, 0
    else:
        # The played move's own search: each world with the move applied first, the tree
        # below it grown as in the root search. A world where the mover's own move is not
        # legal cannot be (the mover's legal actions are what it sees); it is skipped.
        sub = Node(action, seat, state.num_players)
        plays = _played_worlds(worlds, action)
        wanted = max(1, budget.iterations // 2)
        second = 0
        for world in plays:
            sub.player = world.current_player
            engine.iterate(sub, world, seat)
            second += 1
            if second >= wanted or stop(second):
                break
        after = line_value(sub, seat)
    drop = max(0.0, before - after)
    return PlyAnalysis(
        ply=ply,
        seat=seat,
        played=str(action),
        best=str(best_action),
        before=round(before, 4),
        after=round(after, 4),
        drop=round(drop, 4),
        classification=classify(drop),
        forced=False,
        accuracy=round(move_accuracy(before, after), 2),
        candidates=candidates,
        iterations=(done, second),
    )


def _played_worlds(worlds: Callable[[], State], action: Action) -> Iterator[State]:
    misses = 0
    while True:
        world = worlds()
        try:
            world.apply(pick_legal(world, action))
        except SengokuError:
            misses += 1
            if misses > 64:
                raise SengokuError(
                    f"analysis: the move {action} is not legal in the mover's worlds"
                ) from None
            continue
        yield world


def analyse(
    record: GameRecord,
    budget: AnalysisBudget | int | None = None,
    *,
    seed: int = 0,
    hindsight: bool = False,
    plies: range | None = None,
    progress: Callable[[PlyAnalysis], None] | None = None,
    clock: Callable[[], float] | None = None,
) -> GameAnalysis:
    """Analyse every action of ``record`` (or the plies numbered in ``plies``, 1-based).

    ``budget``: an :class:`AnalysisBudget` or a number of root iterations a ply.
    ``hindsight=True`` searches the true states (hidden parts included): only for a
    finished game, and labelled ``information: "hindsight"``. ``progress`` is called with
    each ply's analysis as it is done (a server job's progress). ``clock`` is the CPU clock
    ``budget.cpu_seconds`` is counted on (:func:`cpu_clock`, the searching thread's CPU
    time, by default).
    """
    if isinstance(budget, int):
        budget = AnalysisBudget(iterations=budget)
    budget = budget or AnalysisBudget()
    game = record.load_game()
    if hindsight and record.result is None:
        raise SengokuError(
            "analysis: hindsight (every hidden card and piece visible) is only for a finished "
            "game; this record has no result"
        )
    cpu = clock or cpu_clock
    started = time.perf_counter()
    cpu_started = cpu()
    deadline = None if budget.seconds is None else started + budget.seconds
    cpu_end = None if budget.cpu_seconds is None else cpu_started + budget.cpu_seconds
    analysis = GameAnalysis(
        game.name,
        seed,
        "hindsight" if hindsight else "mover",
        budget,
        result=record.result,
    )
    wanted = plies if plies is not None else range(1, len(record.actions) + 1)
    steps = record.steps(check_result=False)
    before: State = next(steps).state.clone()
    total = len(wanted)
    for step in steps:
        if step.kind != "action":
            before = step.state.clone()
            continue
        if step.ply in wanted:
            assert step.action is not None
            left = total - len(analysis.plies)
            ply_deadline = None
            if deadline is not None:
                now = time.perf_counter()
                ply_deadline = now + max(0.0, deadline - now) / max(left, 1)
            ply_cpu_deadline = None
            if cpu_end is not None:
                spent = cpu()
                ply_cpu_deadline = spent + max(0.0, cpu_end - spent) / max(left, 1)
            result = analyse_position(
                before,
                step.action,
                budget=budget,
                seed=seed,
                ply=step.ply,
                hindsight=hindsight,
                deadline=ply_deadline,
                cpu_deadline=ply_cpu_deadline,
                clock=cpu,
            )
            analysis.plies.append(result)
            if progress is not None:
                progress(result)
        before = step.state.clone()
    analysis.players = summarise(analysis.plies, before.num_players, record.players)
    analysis.seconds = time.perf_counter() - started
    analysis.cpu_seconds = cpu() - cpu_started
    return analysis


def summarise(plies: list[PlyAnalysis], seats: int, names: list[str]) -> list[PlayerSummary]:
    """Each seat's accuracy and counts over ``plies`` (forced moves left out)."""
    out = []
    for seat in range(seats):
        mine = [p for p in plies if p.seat == seat and not p.forced]
        kinds = [p.classification for p in mine]
        out.append(
            PlayerSummary(
                seat=seat,
                name=names[seat] if seat < len(names) else f"seat {seat}",
                accuracy=None
                if not mine
                else round(game_accuracy([p.accuracy for p in mine]) or 0.0, 1),
                moves=len(mine),
                inaccuracies=kinds.count("inaccuracy"),
                mistakes=kinds.count("mistake"),
                blunders=kinds.count("blunder"),
            )
        )
    return out


def format_table(analysis: GameAnalysis) -> str:
    """The per-ply table and the accuracies, as text (``sengoku analyse``)."""
    lines = [
        f"{analysis.game}: analysis from the {analysis.information}'s information"
        f" (seed {analysis.seed}, {analysis.budget.iterations} iterations a ply)",
        f"{'ply':>4} {'seat':>4}  {'played':<28} {'before':>6} {'after':>6} {'drop':>5}  "
        f"{'best':<28} note",
    ]
    for p in analysis.plies:
        note = "forced" if p.forced else (p.classification or "")
        before = "" if p.before is None else f"{p.before:.3f}"
        after = "" if p.after is None else f"{p.after:.3f}"
        lines.append(
            f"{p.ply:>4} {p.seat:>4}  {p.played[:28]:<28} {before:>6} {after:>6} "
            f"{p.drop:>5.3f}  {('' if p.best == p.played else p.best)[:28]:<28} {note}"
        )
    lines.append("")
    for s in analysis.players:
        acc = "-" if s.accuracy is None else f"{s.accuracy:.1f}"
        lines.append(
            f"seat {s.seat} ({s.name}): accuracy {acc}, {s.moves} moves, "
            f"{s.inaccuracies} inaccuracies, {s.mistakes} mistakes, {s.blunders} blunders"
        )
    lines.append(f"({analysis.seconds:.1f} s)")
    return "\n".join(lines)
