"""AI speed and strength.

python benchmarks/ai.py speed [GAME ...] [--seconds S]
    MCTS iterations/s and alpha-beta nodes/s next to random-play plies/s (JSON lines).
python benchmarks/ai.py strength GAME [--games N] [--workers W] [--pairs a-b,...]
    The strength table of docs/ai.md: each level against the one below, the top level
    against random and greedy, and (two-player games) alpha-beta against MCTS at equal
    time. Prints one JSON line per pair (--out keeps every game as JSON lines) and a
    Markdown table at the end.
python benchmarks/ai.py turns [GAME ...] [--games N] [--max-turns T] [--level L] [--busy N]
    Seconds per AI *turn* (a turn: consecutive decisions by one seat) of the shipped level
    (default 5) against level 4: median, p90 and max per game, decisions per turn, and the
    load average before and after (the machine's load changes every figure). ``--busy N``
    runs it beside N loops that each keep a core busy: the wall-clock ceiling per turn
    (``sengoku.ai.TURN_CEILING``, 3 s) must hold there too.
python benchmarks/ai.py longest [GAME ...] [--games N] [--levels 1,2,3,4,5] [--cap C] [--no-pressure]
    The longest game each level allows against a passive player (``sengoku.ai.passive``):
    plies per game (the longest, the mean), how each ended, for levels 1-5 (level 5 through
    its stand-in, ``STAND_IN``, unless ``--top level5``). ``--no-pressure`` measures the
    agents as they were before issue 41 (no search pressure, no Gunshi approach term).
python benchmarks/ai.py pressure GAME [--games N] [--arms on,off]
    Level 5 (its stand-in) with the pressure and without it, each against level 4 without
    it (the opponent as it was): W-D-L and the score's 95% Wilson interval for each.
python benchmarks/ai.py iterations [GAME ...] [--rounds R] [--iterations N] [--positions P] [--pure]
    MCTS iterations per second of each game's search (level 5's agent and options with an
    iteration budget; plain MCTS in Gungi, whose level 5 is alpha-beta), with the search's
    hot loop (sengoku/ai/tree.py) compiled by mypyc and as plain Python, each in its own
    process between two python-chess random-play runs: iterations per CPU second and its
    ratio to python-chess's plies per CPU second. The rounds alternate which runs first;
    the speed-up is the ratio of the two ratios. Needs the compiled build (make install).
    ``--pure``: the plain runs with SENGOKU_PURE_PYTHON=1, every compiled module (a game's
    compiled engine too) as plain Python.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from sengoku.ai import TURN_CEILING, load_agent
from sengoku.ai.bench import ai_bench
from sengoku.arena import arena
from sengoku.core.registry import list_games, load_game

#: Level 5 plays at 1 s a move; the tables measure it through a deterministic stand-in with a
#: fixed budget (0.05-0.25 s a move here), so a row means the same under any machine load.
STAND_IN = {
    "gungi": "alphabeta:iterations=2000",
    "gunshi": "ismcts:iterations=90",
    "sashimono": "ismcts:iterations=128",
    "gunkimono": "ismcts:iterations=160",
}
#: Gungi games between the alpha-beta levels can shuffle pieces at equal material until the
#: 1000-decision limit; the tables adjudicate a game still running at 400 plies as a draw
#: (as engine tournaments do), which halves their cost and never credits either side.
MAX_PLIES = {"gungi": 400}
TOP = "level5:seconds=0.2"
EQUAL_TIME = 0.05


def pairs_for(game_name: str, num_players: int, top: str = TOP) -> list[tuple[str, str, list[str]]]:
    """(key, label, agents) for each row of the table; ``--pairs`` selects rows by key."""
    rows = [
        ("level1-random", "level 1 vs random", ["level1", "random"]),
        ("level2-level1", "level 2 vs level 1", ["level2", "level1"]),
        ("level3-level2", "level 3 vs level 2", ["level3", "level2"]),
        ("level4-level3", "level 4 vs level 3", ["level4", "level3"]),
        ("level5-level4", f"level 5 (as {top}) vs level 4", [top, "level4"]),
        ("level5-random", f"level 5 (as {top}) vs random", [top, "random"]),
        ("level5-greedy", f"level 5 (as {top}) vs greedy", [top, "greedy"]),
    ]
    if game_name == "gunkimono":
        rows.append(
            (
                "level5-random4p",
                f"level 5 (as {top}) vs 3 random, 4 players",
                [top, "random", "random", "random"],
            )
        )
    if game_name == "gungi":
        rows.append(
            (
                "alphabeta-mcts",
                f"alphabeta vs mcts, {EQUAL_TIME} s a move each",
                [f"alphabeta:seconds={EQUAL_TIME}", f"mcts:seconds={EQUAL_TIME}"],
            )
        )
    return rows


def strength(args: argparse.Namespace) -> None:
    game = load_game(args.game)
    options = dict(json.loads(args.options)) if args.options else {}
    num_players = game.new_state(0, **options).num_players
    top = args.top or STAND_IN.get(game.name, TOP)
    max_plies = MAX_PLIES.get(game.name) if args.max_plies is None else args.max_plies or None
    rows = pairs_for(game.name, num_players, top)
    if args.pairs:
        wanted = set(args.pairs.split(","))
        rows = [r for r in rows if r[0] in wanted]
    table = []
    for key, label, agents in rows:
        row_options = dict(options)
        if len(agents) > 2:
            row_options["players"] = len(agents)
        elif num_players > 2:
            agents = [agents[0]] + [agents[1]] * (num_players - 1)
        n = (
            args.games
            if key in ("level1-random", "level2-level1", "level3-level2")
            else args.top_games
        )
        n = n or args.games
        start = time.perf_counter()
        out = None if not args.out else Path(args.out) / f"{game.name}-{key}.jsonl"
        report = arena(
            game,
            agents,
            n,
            options=row_options,
            seed=args.seed,
            workers=args.workers,
            progress=sys.stderr,
            jsonl_path=out,
            max_plies=max_plies,
        )
        a = report["agents"][agents[0]]
        row: dict[str, Any] = {
            "key": key,
            "pair": label,
            "mean_plies": report["mean_plies"],
            "agents": agents,
            "games": report["games"],
            "wins": a["wins"],
            "draws": a["draws"],
            "losses": a["losses"],
            "score": a["score"],
            "seconds_per_move": {k: v["seconds_per_move"] for k, v in report["agents"].items()},
            "minutes": round((time.perf_counter() - start) / 60, 1),
            "max_plies": max_plies,
        }
        if report.get("elo"):
            row.update({k: report["elo"][0][k] for k in ("elo", "elo_ci95", "score_ci95")})
        if report.get("openskill"):
            row["openskill"] = report["openskill"]
        print(json.dumps(row), flush=True)
        table.append(row)
    print()
    print("| pair | games | W-D-L | score (95% CI) | Elo (95% CI) |")
    print("|---|---|---|---|---|")
    for row in table:
        ci = row.get("score_ci95")
        elo = row.get("elo_ci95")
        print(
            f"| {row['pair']} | {row['games']} | {row['wins']}-{row['draws']}-{row['losses']} | "
            f"{row['score']:.3f}"
            + (f" ({ci[0]:.3f}-{ci[1]:.3f})" if ci else "")
            + " | "
            + (f"{_e(row.get('elo'))} ({_e(elo[0])} to {_e(elo[1])})" if elo else "-")
            + " |"
        )


def _e(x: float | None) -> str:
    return "inf" if x is None else f"{x:+.0f}"


def speed(args: argparse.Namespace) -> None:
    for name in args.games or list_games():
        game = load_game(name)
        for preset in game.game_type.bench_presets:
            print(json.dumps(ai_bench(game, dict(preset), args.seconds)), flush=True)


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values``, nearest-rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def turn_times(game_name: str, games: int, max_turns: int, level: int, seed: int) -> dict[str, Any]:
    """Seconds of each turn of ``level`` (against level 4) over ``games`` games."""
    game = load_game(game_name)
    turns: list[float] = []
    decisions: list[int] = []
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    for g in range(games):
        state = game.new_state(seed + g)
        n = state.num_players
        top_seat = g % n
        agents = [
            load_agent(game, level if s == top_seat else 4, seed=seed * 100 + g * 10 + s)
            for s in range(n)
        ]
        rng = random.Random(seed + g)
        for _ in range(2):  # two random opening plies, as the arena plays
            if not state.is_terminal():
                state.apply(rng.choice(state.legal_actions()))
        count = 0
        while not state.is_terminal() and count < max_turns:
            seat = state.current_player
            spent = 0.0
            made = 0
            while not state.is_terminal() and state.current_player == seat:
                t = time.perf_counter()
                action = agents[seat].choose(state, seat)
                spent += time.perf_counter() - t
                state.apply(action)
                made += 1
            if seat == top_seat:
                turns.append(spent)
                decisions.append(made)
                count += 1
    return {
        "game": game_name,
        "level": level,
        "games": games,
        "turns": len(turns),
        "median_s": round(statistics.median(turns), 3),
        "p90_s": round(percentile(turns, 0.9), 3),
        "max_s": round(max(turns), 3),
        "decisions_per_turn": round(statistics.mean(decisions), 2),
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "minutes": round((time.perf_counter() - start) / 60, 2),
    }


def _spin() -> None:
    """Keep one core busy until killed (the load of ``turns --busy``)."""
    while True:
        pass


def turns_cmd(args: argparse.Namespace) -> None:
    """The turn-time table; with ``--busy N``, beside N processes that each keep a core busy
    (a loaded server), to show the wall-clock ceiling (``sengoku.ai.TURN_CEILING``) holding."""
    import multiprocessing

    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(args.busy)]
    for proc in spinners:
        proc.start()
    try:
        for name in args.games_names or list_games():
            row = turn_times(name, args.games, args.max_turns, args.level, args.seed)
            row["busy_loops"] = args.busy
            row["ceiling_s"] = TURN_CEILING
            print(json.dumps(row), flush=True)
    finally:
        for proc in spinners:
            proc.kill()
            proc.join()


def unpressed(agent: Any) -> Any:
    """``agent`` as it played before issue 41: no search pressure, and (Gunshi) no
    approach term in its evaluation (a copy of the features: the shared ones stay)."""
    if hasattr(agent, "pressure"):
        agent.pressure = 0.0
    knowledge = getattr(agent, "knowledge", None)
    if knowledge is not None and getattr(knowledge, "approach_max", 0.0):
        old = copy.copy(knowledge)
        old.approach_max = 0.0
        agent.knowledge = old
    return agent


def play_out(game: Any, agents: list[Any], seed: int, cap: int) -> tuple[int, Any]:
    """One game from ``seed`` (no random opening: the passive player's position is the
    start); (plies, outcome or None if it reached ``cap``)."""
    state = game.new_state(seed)
    plies = 0
    while not state.is_terminal() and plies < cap:
        seat = state.current_player
        state.apply(agents[seat].choose(state, seat))
        plies += 1
    return plies, state.outcome()


def level_spec(game_name: str, level: int, top: str | None) -> str:
    if level == 5:
        return top or STAND_IN.get(game_name, TOP)
    return f"level{level}"


def longest(args: argparse.Namespace) -> None:
    from sengoku.ai import make_agent
    from sengoku.ai.passive import PassiveAgent

    levels = [int(x) for x in args.levels.split(",")]
    for name in args.games_names or list_games():
        game = load_game(name)
        n = game.new_state(0).num_players
        for level in levels:
            spec = level_spec(name, level, args.top)
            plies: list[int] = []
            ends: dict[str, int] = {}
            wins = 0
            start = time.perf_counter()
            for g in range(args.games):
                seed = args.seed + g
                ai_seat = g % n
                agents = [
                    make_agent(game, spec, seed=seed * 10 + s)
                    if s == ai_seat
                    else PassiveAgent(game, seed=seed * 10 + s)
                    for s in range(n)
                ]
                if args.no_pressure:
                    unpressed(agents[ai_seat])
                length, outcome = play_out(game, agents, seed, args.cap)
                plies.append(length)
                reason = outcome.reason if outcome is not None else f"running at {args.cap}"
                ends[reason] = ends.get(reason, 0) + 1
                wins += int(outcome is not None and ai_seat in outcome.winners)
            row = {
                "game": name,
                "level": level,
                "agent": spec,
                "pressure": not args.no_pressure,
                "games": args.games,
                "longest": max(plies),
                "mean": round(statistics.mean(plies), 1),
                "plies": plies,
                "level_won": wins,
                "ends": ends,
                "minutes": round((time.perf_counter() - start) / 60, 2),
            }
            print(json.dumps(row), flush=True)


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a score (wins + half draws) over ``games``."""
    if games == 0:
        return (0.0, 1.0)
    p = score / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (round(centre - half, 3), round(centre + half, 3))


def pressure_cmd(args: argparse.Namespace) -> None:
    from sengoku.ai import make_agent

    game = load_game(args.game)
    top = level_spec(game.name, 5, args.top)
    arms = {"on": True, "off": False}
    for pressed in [arms[a] for a in args.arms.split(",")]:
        w = d = lost = 0
        plies: list[int] = []
        start = time.perf_counter()
        for g in range(args.games):
            seed = args.seed + g
            top_seat = g % 2  # both seatings, in turn
            agents = [
                make_agent(game, top if s == top_seat else "level4", seed=seed * 10 + s)
                for s in range(2)
            ]
            unpressed(agents[1 - top_seat])
            if not pressed:
                unpressed(agents[top_seat])
            length, outcome = play_out(game, agents, seed, args.cap)
            plies.append(length)
            if outcome is None or not outcome.winners:
                d += 1
            elif top_seat in outcome.winners:
                w += 1
            else:
                lost += 1
        score = w + d / 2
        row = {
            "game": game.name,
            "top": top,
            "pressure": pressed,
            "against": "level4 without pressure",
            "games": args.games,
            "wins": w,
            "draws": d,
            "losses": lost,
            "score": round(score / args.games, 3),
            "score_ci95": wilson(score, args.games),
            "mean_plies": round(statistics.mean(plies), 1),
            "longest": max(plies),
            "minutes": round((time.perf_counter() - start) / 60, 2),
        }
        print(json.dumps(row), flush=True)


#: The child process of ``iterations``: the hot loop as plain Python if asked (its source
#: imported as ``sengoku.ai.tree`` before any agent imports it), then one figure.
ITERATIONS_CHILD = """
import importlib.util, json, sys
sys.path.insert(0, sys.argv[1])
game, iterations, positions, seconds, plain = sys.argv[2:7]
if plain == "1":
    import sengoku
    from pathlib import Path
    path = Path(sengoku.__file__).parent / "ai" / "tree.py"
    spec = importlib.util.spec_from_file_location("sengoku.ai.tree", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["sengoku.ai.tree"] = module
    spec.loader.exec_module(module)
import ai
row = ai.iterations_figure(game, int(iterations), int(positions), float(seconds))
print("ROW", json.dumps(row))
"""


def search_spec(game: Any) -> tuple[str, dict[str, Any]]:
    """The search ``iterations`` measures: level 5's agent and options without its time
    (an iteration budget instead); plain MCTS where level 5 is no tree search (Gungi)."""
    from sengoku.ai.eval import knowledge_for

    name, options = knowledge_for(game).levels(game)[5]
    if name not in ("mcts", "ismcts", "learned"):
        return "mcts", {}
    timing = {"seconds", "turn_seconds", "iterations", "floor", "ceiling"}
    return name, {k: v for k, v in options.items() if k not in timing}


def iterations_figure(
    game_name: str, iterations: int, positions: int, chess_seconds: float
) -> dict[str, Any]:
    """One figure of ``iterations`` (in this process): python-chess, then ``iterations``
    per decision from each of ``positions`` sampled positions, then python-chess again."""
    from run import chess_random_play

    import sengoku.ai.tree as tree
    from sengoku.ai import make_agent
    from sengoku.ai.base import Budget
    from sengoku.ai.bench import sample_positions
    from sengoku.compiled import is_compiled

    game = load_game(game_name)
    name, options = search_spec(game)
    states = sample_positions(game, {}, positions, seed=5)
    agent = make_agent(game, name, seed=3, **options)
    agent.choose(states[0], states[0].current_player, Budget(iterations=10))  # warm-up
    chess_random_play(0.2, seed=3)  # warm-up: discarded
    before = chess_random_play(chess_seconds, seed=2)
    count, cpu, wall = 0, 0.0, 0.0
    for state in states:
        start_cpu, start = time.process_time(), time.perf_counter()
        agent.choose(state, state.current_player, Budget(iterations=iterations))
        cpu += time.process_time() - start_cpu
        wall += time.perf_counter() - start
        count += int(agent.last_stats.get("iterations", 0))
    after = chess_random_play(chess_seconds, seed=2)
    chess_cpu = (before["cpu_plies_per_second"] + after["cpu_plies_per_second"]) / 2
    per_cpu_second = count / cpu if cpu > 0 else 0.0
    return {
        "game": game_name,
        "agent": name,
        "options": options,
        "compiled": is_compiled(tree),
        "iterations": count,
        "cpu_seconds": round(cpu, 3),
        "wall_seconds": round(wall, 3),
        "per_cpu_second": round(per_cpu_second, 1),
        "per_second": round(count / wall, 1) if wall > 0 else 0.0,
        "chess_cpu_plies_per_second": [
            before["cpu_plies_per_second"],
            after["cpu_plies_per_second"],
        ],
        "cpu_ratio_vs_chess": round(per_cpu_second / chess_cpu, 4) if chess_cpu else 0.0,
    }


def iterations_cmd(args: argparse.Namespace) -> None:
    """Compiled and plain hot loop, each in its own process, round after round."""
    import subprocess

    here = str(Path(__file__).resolve().parent)
    for name in args.games_names or ["gunshi", "gunkimono", "sashimono", "gungi"]:
        rows: dict[str, list[dict[str, Any]]] = {"compiled": [], "plain": []}
        for r in range(args.rounds):
            modes = ["compiled", "plain"] if r % 2 == 0 else ["plain", "compiled"]
            for mode in modes:
                argv = [here, name, args.iterations, args.positions, args.chess_seconds]
                argv.append(1 if mode == "plain" else 0)
                env = dict(os.environ)
                if args.pure and mode == "plain":  # the engines' plain Python too
                    env["SENGOKU_PURE_PYTHON"] = "1"
                run = subprocess.run(
                    [sys.executable, "-c", ITERATIONS_CHILD, *map(str, argv)],
                    capture_output=True,
                    text=True,
                    check=False,
                    env=env,
                )
                if run.returncode != 0:
                    raise SystemExit(f"{name} ({mode}): {run.stderr}")
                row = json.loads(run.stdout.rsplit("ROW ", 1)[1])
                if row["compiled"] != (mode == "compiled"):
                    raise SystemExit(
                        f"{name}: the {mode} run's sengoku/ai/tree.py was "
                        f"{'compiled' if row['compiled'] else 'plain'} (make install compiles it)"
                    )
                rows[mode].append(row)
                print(json.dumps({"round": r, "mode": mode, **row}), flush=True)
        summary = {"game": name, "agent": rows["compiled"][0]["agent"]}
        for mode in ("compiled", "plain"):
            summary[f"{mode}_per_cpu_second"] = round(
                statistics.median(x["per_cpu_second"] for x in rows[mode]), 1
            )
            summary[f"{mode}_ratio_vs_chess"] = round(
                statistics.median(x["cpu_ratio_vs_chess"] for x in rows[mode]), 4
            )
        plain = summary["plain_ratio_vs_chess"]
        summary["speedup"] = round(summary["compiled_ratio_vs_chess"] / plain, 3) if plain else 0.0
        print(json.dumps({"summary": summary}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("speed")
    p.add_argument("games", nargs="*")
    p.add_argument("--seconds", type=float, default=3.0)
    p.set_defaults(func=speed)
    p = sub.add_parser("strength")
    p.add_argument("game")
    p.add_argument("--games", type=int, default=200, help="games per pair (level pairs)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--options", help="game options as JSON")
    p.add_argument("--pairs", help="only these rows, e.g. level1-random,level5-greedy")
    p.add_argument("--out", help="folder for the games as JSON lines")
    p.add_argument(
        "--top-games",
        type=int,
        help="games for the rows with level 4 or 5 (default: --games)",
    )
    p.add_argument("--top", help="the spec that stands for level 5 (default: STAND_IN)")
    p.add_argument(
        "--max-plies",
        type=int,
        help="adjudicate games still running after this many plies as draws "
        "(default: MAX_PLIES, 400 in Gungi; 0: play every game out)",
    )
    p.set_defaults(func=strength)
    p = sub.add_parser("turns")
    p.add_argument("games_names", nargs="*", metavar="GAME")
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--max-turns", type=int, default=15, help="turns of the level per game")
    p.add_argument("--level", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--busy",
        type=int,
        default=0,
        metavar="N",
        help="run beside N busy loops (N = 2 * cores makes a load of about 3)",
    )
    p.set_defaults(func=turns_cmd)
    p = sub.add_parser("longest")
    p.add_argument("games_names", nargs="*", metavar="GAME")
    p.add_argument("--games", type=int, default=4, help="games per level (seats in turn)")
    p.add_argument("--levels", default="1,2,3,4,5")
    p.add_argument("--cap", type=int, default=2000, help="stop a game at this many plies")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--top", help="the spec that stands for level 5 (default: STAND_IN)")
    p.add_argument("--no-pressure", action="store_true", help="the agents as before issue 41")
    p.set_defaults(func=longest)
    p = sub.add_parser("pressure")
    p.add_argument("game")
    p.add_argument("--games", type=int, default=40, help="games per arm (seats in turn)")
    p.add_argument("--cap", type=int, default=4000)
    p.add_argument("--seed", type=int, default=100)
    p.add_argument("--top", help="the spec that stands for level 5 (default: STAND_IN)")
    p.add_argument("--arms", default="on,off", help="on: with the pressure, off: without")
    p.set_defaults(func=pressure_cmd)
    p = sub.add_parser("iterations")
    p.add_argument("games_names", nargs="*", metavar="GAME")
    p.add_argument("--rounds", type=int, default=3, help="processes per build, alternating")
    p.add_argument("--iterations", type=int, default=300, help="per decision")
    p.add_argument("--positions", type=int, default=6, help="sampled positions (decisions)")
    p.add_argument("--chess-seconds", type=float, default=1.0, help="each python-chess run")
    p.add_argument(
        "--pure",
        action="store_true",
        help="the plain runs with SENGOKU_PURE_PYTHON=1: every compiled module (the engines "
        "too) as plain Python, not only the search's hot loop",
    )
    p.set_defaults(func=iterations_cmd)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
