"""Tournaments: the schedule (seats rotated, paired openings), tallies, ratings, SPRT.

Games come in *blocks*: one opening (a game seed and a few random plies) played once for
each seat rotation (two agents: both colours; n agents at an n-seat table: every cyclic
rotation; more agents than seats in a two-player game: every pair, both colours). A block
is the unit of the schedule, so the number of games asked for is rounded up to whole
blocks, and SPRT stops only between blocks. Results are counted in schedule order, whatever
order the workers finish in, so a tournament with a given seed gives the same report on any
backend and any number of workers (for agents with iteration budgets).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from sengoku.ai import parse_spec
from sengoku.arena.backends import Backend, LocalBackend
from sengoku.arena.match import game_ref
from sengoku.arena.stats import (
    SPRT,
    elo_estimate,
    openskill_ratings,
    seat_result,
    seat_score,
)
from sengoku.core.game import Game, SengokuError
from sengoku.core.registry import load_game


@dataclass
class ArenaConfig:
    game: Game
    agents: list[str]
    games: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    opening_plies: int = 2
    #: Default agent options (a budget) for specs that set none.
    defaults: dict[str, Any] = field(default_factory=dict)
    sprt: SPRT | None = None
    #: Adjudicate a game still running after this many plies as a draw (None: play it out).
    max_plies: int | None = None


def rotations(agents: Sequence[str], num_players: int) -> list[list[str]]:
    """The seatings of one block."""
    n = len(agents)
    if n == num_players:
        return [[agents[(s + r) % n] for s in range(n)] for r in range(n)]
    if num_players == 2 and n > 2:
        out = []
        for i in range(n):
            for j in range(i + 1, n):
                out += [[agents[i], agents[j]], [agents[j], agents[i]]]
        return out
    raise SengokuError(
        f"{len(agents)} agents for a {num_players}-player game: give one agent per seat "
        f"(an agent may be named more than once), or any number for a two-player game"
    )


def schedule(config: ArenaConfig, num_players: int) -> Iterator[dict[str, Any]]:
    """Every task, block by block, until at least ``config.games`` games."""
    seatings = rotations(config.agents, num_players)
    rng = random.Random(config.seed)
    ref = game_ref(config.game)
    index = block = 0
    while index < config.games:
        game_seed = rng.randrange(2**31)
        opening_seed = rng.randrange(2**31)
        for seats in seatings:
            yield {
                "index": index,
                "block": block,
                "game_ref": ref,
                "options": dict(config.options),
                "game_seed": game_seed,
                "opening_seed": opening_seed,
                "opening_plies": config.opening_plies,
                "seats": list(seats),
                "seed": config.seed,
                "defaults": dict(config.defaults),
                "max_plies": config.max_plies,
            }
            index += 1
        block += 1


class Progress:
    """A one-line progress bar on stderr, redrawn at most ten times a second."""

    def __init__(self, total: int, stream: IO[str] | None, width: int = 30) -> None:
        self.total = total
        self.stream = stream
        self.width = width
        self.start = time.perf_counter()
        self.last = 0.0
        self.done = 0
        self.note = ""
        self.drawn = 0

    def update(self, done: int, note: str = "", force: bool = False) -> None:
        self.done = done
        if self.stream is None:
            return
        now = time.perf_counter()
        if not force and now - self.last < 0.1 and done < self.total:
            return
        self.last = now
        frac = min(1.0, done / self.total) if self.total else 1.0
        filled = int(frac * self.width)
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - done) / rate if rate > 0 else 0.0
        bar = "#" * filled + "-" * (self.width - filled)
        if note:
            self.note = note
        line = f"[{bar}] {done}/{self.total} games  {rate:.1f} games/s  ETA {eta:.0f}s  {self.note}"
        # Pad over the previous line's tail (no terminal control codes: logs stay clean).
        self.stream.write("\r" + line.ljust(self.drawn))
        self.drawn = len(line)
        self.stream.flush()

    def close(self) -> None:
        if self.stream is not None:
            self.update(self.done, force=True)
            self.stream.write("\n")
            self.stream.flush()


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score: float = 0.0
    points: float = 0.0
    seconds: float = 0.0
    moves: int = 0

    def add(self, outcome: dict[str, Any], seat: int, seconds_per_move: float, moves: int) -> None:
        self.games += 1
        result = seat_result(outcome, seat)
        self.wins += result == "win"
        self.draws += result == "draw"
        self.losses += result == "loss"
        self.score += seat_score(outcome, seat)
        self.points += float(outcome["scores"][seat])
        self.seconds += seconds_per_move * moves
        self.moves += moves

    def to_json(self) -> dict[str, Any]:
        n = max(self.games, 1)
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": round(self.score / n, 4),
            "points": round(self.points / n, 4),
            "seconds_per_move": round(self.seconds / max(self.moves, 1), 5),
        }


def summarize(
    config: ArenaConfig, num_players: int, results: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """The report: per-agent tallies and ranks, per-seat results, Elo or OpenSkill, SPRT."""
    names = list(dict.fromkeys(config.agents))
    tallies = {name: Tally() for name in names}
    seat_wins = [0] * num_players
    for res in results:
        for seat, name in enumerate(res["seats"]):
            tallies[name].add(
                res["outcome"], seat, res["seconds_per_move"][seat], res["moves"][seat]
            )
            seat_wins[seat] += seat_result(res["outcome"], seat) == "win"
    agents = {name: tallies[name].to_json() for name in names}
    ordered = sorted(names, key=lambda a: -agents[a]["score"])
    for name in names:
        agents[name]["rank"] = 1 + sum(
            1 for other in names if agents[other]["score"] > agents[name]["score"]
        )
    report: dict[str, Any] = {
        "game": config.game.name,
        "options": config.options,
        "seed": config.seed,
        "games": len(results),
        "agents": agents,
        "ranking": ordered,
        "seat_wins": seat_wins,
        "mean_plies": round(sum(r["plies"] for r in results) / max(len(results), 1), 1),
    }
    if num_players == 2 and len(names) >= 2:
        pairs = []
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                scores = pair_scores(results, a, b)
                if scores:
                    pairs.append({"a": a, "b": b, **elo_estimate(scores).to_json()})
        report["elo"] = pairs
    if num_players > 2:
        games = [
            (res["seats"], [seat_score(res["outcome"], s) for s in range(num_players)])
            for res in results
        ]
        report["openskill"] = openskill_ratings(games, names)
    if config.sprt is not None and len(names) == 2:
        size = len(rotations(config.agents, num_players))
        report["sprt"] = config.sprt.to_json(sprt_units(results, names[0], names[1], size))
    return report


def pair_scores(results: Sequence[dict[str, Any]], a: str, b: str) -> list[float]:
    """``a``'s score in each two-player game between ``a`` and ``b``."""
    out = []
    for res in results:
        seats = res["seats"]
        if set(seats) == {a, b} and a != b:
            out.append(seat_score(res["outcome"], seats.index(a)))
    return out


def sprt_units(results: Sequence[dict[str, Any]], a: str, b: str, block_size: int) -> list[float]:
    """``a``'s result in each complete block that seats ``a`` against ``b``: the SPRT's units.

    A unit is ``a``'s mean score over the block's games between the two (in each game, the
    mean of ``a``'s seats): with two agents in a two-player game, a game pair with colours
    swapped (pentanomial: 0, 1/4, 1/2, 3/4, 1); at a table of three or more, one game per
    seat rotation. Blocks not yet complete are left out.
    """
    blocks: dict[int, list[dict[str, Any]]] = {}
    for res in results:
        blocks.setdefault(int(res["block"]), []).append(res)
    units = []
    for block in sorted(blocks):
        games = [r for r in blocks[block] if set(r["seats"]) == {a, b} and a != b]
        if len(blocks[block]) < block_size or not games:
            continue
        per_game = []
        for res in games:
            seats = [s for s, who in enumerate(res["seats"]) if who == a]
            per_game.append(sum(seat_score(res["outcome"], s) for s in seats) / len(seats))
        units.append(sum(per_game) / len(per_game))
    return units


def run_arena(
    config: ArenaConfig,
    backend: Backend | None = None,
    progress: IO[str] | None = None,
    jsonl: IO[str] | None = None,
) -> dict[str, Any]:
    """Play the tournament; the report (also written last to ``jsonl`` when given)."""
    if config.games < 1:
        raise SengokuError(f"--games must be at least 1, got {config.games}")
    if not config.agents:
        raise SengokuError("name at least one agent")
    for spec in config.agents:
        parse_spec(spec)
    probe = config.game.new_state(0, **config.options)
    num_players = probe.num_players
    options = dict(probe.options)
    config.options = options
    tasks = list(schedule(config, num_players))
    if config.sprt is not None and len(set(config.agents)) != 2:
        raise SengokuError("SPRT compares exactly two agents")
    backend = backend or LocalBackend(1)
    block_size = len(rotations(config.agents, num_players))
    bar = Progress(len(tasks), progress)
    waiting: dict[int, dict[str, Any]] = {}
    counted: list[dict[str, Any]] = []
    stopped: str | None = None
    stream = backend.run(tasks)
    try:
        for result in stream:
            waiting[result["index"]] = result
            while len(counted) in waiting:
                res = waiting.pop(len(counted))
                counted.append(res)
                if jsonl is not None:
                    jsonl.write(json.dumps({"type": "game", **res}, ensure_ascii=False) + "\n")
                    # A long match stopped midway (a time limit, Ctrl-C) keeps its games.
                    jsonl.flush()
                if config.sprt is not None and len(counted) % block_size == 0:
                    names = list(dict.fromkeys(config.agents))
                    stopped = config.sprt.decide(
                        sprt_units(counted, names[0], names[1], block_size)
                    )
                    if stopped:
                        break
            bar.update(len(counted) + len(waiting), _note(counted, config.agents))
            if stopped:
                break
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
        bar.close()
    report = summarize(config, num_players, counted)
    report["games_scheduled"] = len(tasks)
    report["opening_plies"] = config.opening_plies
    report["max_plies"] = config.max_plies
    report["agent_defaults"] = config.defaults
    report["backend"] = backend.describe()
    if config.sprt is not None:
        report["sprt"]["stopped_early"] = stopped is not None
    if jsonl is not None:
        jsonl.write(json.dumps({"type": "summary", **report}, ensure_ascii=False) + "\n")
    return report


def _note(counted: Sequence[dict[str, Any]], agents: Sequence[str]) -> str:
    names = list(dict.fromkeys(agents))[:4]
    parts = []
    for name in names:
        w = d = losses = 0
        for res in counted:
            for seat, who in enumerate(res["seats"]):
                if who == name:
                    r = seat_result(res["outcome"], seat)
                    w += r == "win"
                    d += r == "draw"
                    losses += r == "loss"
        parts.append(f"{name} +{w}={d}-{losses}")
    return "  ".join(parts)


def format_report(report: dict[str, Any]) -> str:
    """The report as a table for people."""
    lines = [
        f"{report['game']} {report['options']}: {report['games']} games "
        f"(seed {report['seed']}, {report['opening_plies']} random opening plies, "
        f"mean length {report['mean_plies']} plies)",
        "",
        f"{'rank':>4}  {'agent':<28} {'games':>6} {'wins':>6} {'draws':>6} {'losses':>6} "
        f"{'score':>6} {'points':>7} {'s/move':>8}",
    ]
    for name in report["ranking"]:
        a = report["agents"][name]
        lines.append(
            f"{a['rank']:>4}  {name:<28} {a['games']:>6} {a['wins']:>6} {a['draws']:>6} "
            f"{a['losses']:>6} {a['score']:>6.3f} {a['points']:>7.3f} {a['seconds_per_move']:>8.4f}"
        )
    lines.append("")
    lines.append(f"wins by seat: {report['seat_wins']}")
    for pair in report.get("elo", []):
        low, high = pair["elo_ci95"]
        elo = pair["elo"]
        lines.append(
            f"{pair['a']} vs {pair['b']}: Elo {_fmt(elo, pair['score'] <= 0.5)} "
            f"[{_fmt(low, True)}, {_fmt(high, False)}] (95%), score {pair['score']:.3f} "
            f"[{pair['score_ci95'][0]:.3f}, {pair['score_ci95'][1]:.3f}] over "
            f"{pair['games']} games, LOS {100 * pair['los']:.1f}%"
        )
    if "openskill" in report:
        lines.append("OpenSkill (Plackett-Luce):")
        for name, r in sorted(report["openskill"].items(), key=lambda kv: -kv[1]["ordinal"]):
            lines.append(
                f"  {name:<28} mu {r['mu']:7.3f}  sigma {r['sigma']:6.3f}  ordinal {r['ordinal']:7.3f}"
            )
    if "sprt" in report:
        s = report["sprt"]
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "no decision"}[s["decision"]]
        lines.append(
            f"SPRT elo0={s['elo0']} elo1={s['elo1']} alpha={s['alpha']} beta={s['beta']}: "
            f"LLR {s['llr']:.2f} in {s['bounds']}: {verdict}"
            + (" (stopped early)" if s.get("stopped_early") else "")
        )
    return "\n".join(lines)


def _fmt(x: float | None, low: bool) -> str:
    if x is None:
        return "-inf" if low else "+inf"
    return f"{int(round(x)):+d}"


def arena(
    game: Game | str,
    agents: Sequence[str],
    games: int,
    *,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    workers: int = 1,
    backend: str | Backend = "local",
    ray_address: str | None = None,
    opening_plies: int = 2,
    defaults: dict[str, Any] | None = None,
    sprt: SPRT | None = None,
    progress: IO[str] | None = None,
    jsonl_path: str | Path | None = None,
    max_plies: int | None = None,
) -> dict[str, Any]:
    """Convenience wrapper: ``arena("gungi", ["mcts", "random"], 100, workers=2)``."""
    if max_plies is not None and max_plies < 1:
        raise SengokuError(f"max_plies must be at least 1, got {max_plies}")
    from sengoku.arena.backends import make_backend

    g = load_game(game) if isinstance(game, str) else game
    config = ArenaConfig(
        g,
        list(agents),
        games,
        dict(options or {}),
        seed,
        opening_plies,
        dict(defaults or {}),
        sprt,
        max_plies,
    )
    chosen = (
        backend if isinstance(backend, Backend) else make_backend(backend, workers, ray_address)
    )
    if jsonl_path is None:
        return run_arena(config, chosen, progress)
    with open(jsonl_path, "w", encoding="utf-8") as fh:
        return run_arena(config, chosen, progress, fh)
