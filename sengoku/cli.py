"""The ``sengoku`` command (also ``python -m sengoku``).

Starting is cheap: ``sengoku --help`` imports argparse and this module, no game, no agent and
no command's module (benchmarks/startup.py measures it). A command's arguments are added, and
the modules it needs imported, only for the command that runs (or that asks for its own
``--help``); :func:`build_parser` with no argument builds them all.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Sequence

# Not typing.TYPE_CHECKING: `sengoku --help` need not import typing (type checkers read the
# constant by its name).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sengoku.core.game import Game, State


def _parse_value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def game_options(game: Game, args: argparse.Namespace) -> dict[str, Any]:
    """Options from the well-known flags (--mode, --solo, --players, --variant, --preset, --vp,
    --cards) and -o key=value."""
    from sengoku.core.game import SengokuError

    options: dict[str, Any] = {}
    if getattr(args, "solo", False):
        if "mode" not in game.options or "solo" not in game.options["mode"].allowed:
            raise SengokuError(f"{game.name} has no solo mode")
        args.mode = "solo"
    if getattr(args, "cards", None) is not None:
        # A card file the user names on their own machine: read through its own explicit path
        # and played under a name (the ``cards`` option itself only ever holds a name).
        if "cards" not in game.game_type.file_options:
            raise SengokuError(f"{game.name} reads no 'cards' option from a file")
        options["cards"] = game.option_from_file("cards", args.cards)
    for flag in ("mode", "players", "variant", "preset", "vp"):
        value = getattr(args, flag, None)
        if value is not None:
            if flag not in game.options:
                raise SengokuError(f"{game.name} has no {flag!r} option")
            options[flag] = value
    for item in getattr(args, "option", None) or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise SengokuError(f"-o takes key=value, got {item!r}")
        options[key.strip()] = _parse_value(value.strip())
    return options


def _add_option_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mode", help="the game's mode or ruleset (`sengoku games` lists them)")
    p.add_argument("--players", type=int, help="number of players, for games that vary")
    p.add_argument("--variant", help="a named variant, for games that have them")
    p.add_argument("--preset", help="a named starting preset, for games that have them")
    p.add_argument("--solo", action="store_true", help="the solo mode, for games that have one")
    p.add_argument("--vp", type=int, help="victory points to win, for games that count them")
    p.add_argument(
        "--cards",
        metavar="FILE",
        help="a card file or folder on this machine, for games that read one (their "
        "GameType.file_options)",
    )
    p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE", help="any option")


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the game server (FastAPI on uvicorn) until interrupted."""
    from sengoku.core.game import SengokuError
    from sengoku.server.extra import missing_message

    # `pip install sengoku` has no server: say what to install, before any import fails.
    missing = missing_message(args.db)
    if missing is not None:
        raise SengokuError(missing)
    from sengoku.server import serve

    serve(
        host=args.host,
        port=args.port,
        db_url=args.db,
        pubsub_url=args.pubsub,
        processes=args.processes,
    )
    return 0


def cmd_worker(args: argparse.Namespace) -> int:
    """Run the analysis jobs queued in Redis until interrupted (docs/server.md, "Analysis
    jobs")."""
    from sengoku.core.game import SengokuError
    from sengoku.server.extra import missing_message

    missing = missing_message(args.db)
    if missing is not None:
        raise SengokuError(missing)
    if not args.redis.startswith(("redis://", "rediss://", "unix://")):
        raise SengokuError(f"--redis must be a redis:// URL, not {args.redis!r}")
    from sengoku.server.analysis_worker import run

    run(args.redis, args.db, args.jobs, args.job_timeout, args.max_tries)
    return 0


def _positive(kind: type[int] | type[float]) -> Callable[[str], int | float]:
    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be a number above 0, not {text!r}")
        return value

    return parse


def _worker_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--redis", required=True, metavar="URL", help="the queue: redis://host:port/db")
    p.add_argument("--db", required=True, metavar="URL", help="the servers' database URL")
    p.add_argument("--jobs", type=_positive(int), default=1, help="analyses at once (default 1)")
    p.add_argument(
        "--job-timeout",
        type=_positive(float),
        default=600.0,
        metavar="S",
        help="a job's time limit; a worker killed mid-job is replaced S + 10 s after it took "
        "the job (default 600)",
    )
    p.add_argument(
        "--max-tries", type=_positive(int), default=3, help="runs of one job at most (default 3)"
    )
    p.set_defaults(func=cmd_worker)


def _processes(text: str) -> int:
    """``--processes``: a whole number of server processes, 1 to MAX_PROCESSES."""
    from sengoku.server.routing import MAX_PROCESSES

    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_PROCESSES:
        raise argparse.ArgumentTypeError(
            f"must be a whole number from 1 to {MAX_PROCESSES}, not {text!r}"
        )
    return value


def cmd_games(args: argparse.Namespace) -> int:
    from sengoku.core.registry import list_games, load_game

    for name in list_games():
        game = load_game(name)
        if args.json:
            print(json.dumps(game.describe(), ensure_ascii=False))
            continue
        facts = game.game_type
        print(
            f"{name} (rules v{facts.version}, {facts.min_players}-{facts.max_players} "
            f"players): {facts.title}"
        )
        for opt in game.options.values():
            print(f"    {opt.name} = {opt.default!r}  [{opt.describe_allowed()}]  {opt.doc}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    import secrets

    from sengoku.core.registry import load_game
    from sengoku.terminal import play_terminal

    game = load_game(args.game)
    options = game_options(game, args)
    # Without --seed every game deals anew (shuffles, Gunshi Modification 1's Advanced
    # cards); the record keeps the seed, so any game replays exactly.
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    state = game.new_state(seed, **options)
    if args.vs == "human":
        humans = set(range(state.num_players))
        agent = "random"
    else:
        humans = {args.seat}
        agent = f"level{args.level}" if args.vs in {"ai", "computer"} else args.vs
    record = play_terminal(game, options, humans, agent_name=agent, seed=seed)
    if args.save:
        record.save(args.save)
        print(f"Saved the record to {args.save}")
    return 0


def perft(state: State, depth: int) -> int:
    """Leaf count at ``depth`` (the state's declared ``perft``: generic, or the game's own)."""
    return state.perft(depth)


def cmd_perft(args: argparse.Namespace) -> int:
    import time

    from sengoku.core.game import SengokuError
    from sengoku.core.registry import load_game

    if args.depth < 0:
        raise SengokuError(f"perft --depth: the number of plies, 0 or more; got {args.depth}")
    game = load_game(args.game)
    options = game_options(game, args)
    if args.fen:
        if not game.game_type.provides_fen:
            raise SengokuError(f"perft --fen: {game.name} has no FEN (a position notation)")
        state = game.from_fen(args.fen, **options)
    else:
        state = game.new_state(args.seed, **options)
    start = time.perf_counter()
    if args.divide:
        total = 0
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            n = perft(child, args.depth - 1)
            total += n
            print(f"{action}: {n}")
        print()
    else:
        total = perft(state, args.depth)
    elapsed = time.perf_counter() - start
    print(total)
    print(f"({elapsed:.2f} s)", file=sys.stderr)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from sengoku.core.bench import measure

    if args.game == "ai":
        from sengoku.ai.bench import run_cli

        return run_cli(args, game_options)
    from sengoku.core.registry import load_game

    game = load_game(args.game)
    options = game_options(game, args)
    presets = [options] if options else [dict(p) for p in game.game_type.bench_presets]
    runs = []
    for preset in presets:
        # Speed untraced, peak memory in a separate traced run (tracemalloc slows play ~10x).
        runs.append(measure(game, preset, args.seconds / len(presets), args.seed))
    total_plies = sum(r["plies"] for r in runs)
    total_seconds = sum(r["seconds"] for r in runs)
    total_cpu = sum(r["cpu_seconds"] for r in runs)
    summary = {
        "game": game.name,
        "plies_per_second": round(total_plies / total_seconds, 1) if total_seconds else 0.0,
        # One ply is one decision in every Sengoku game (a Gunshi turn is several).
        "decisions_per_second": round(total_plies / total_seconds, 1) if total_seconds else 0.0,
        "cpu_plies_per_second": round(total_plies / total_cpu, 1) if total_cpu else 0.0,
        # The figure to compare between runs and machines: speed over the reference's,
        # measured interleaved under the same load (sengoku/core/bench.py).
        "ratio": round(sum(r["ratio"] * r["seconds"] for r in runs) / total_seconds, 3)
        if total_seconds
        else 0.0,
        "runs": runs,
    }
    if args.json:
        print(json.dumps(summary))
    else:
        for r in runs:
            print(
                f"{game.name} {r['options'] or 'default'}: {r['ratio']:.3f}x reference "
                f"(CPU {r['cpu_ratio']:.3f}x); {r['plies_per_second']:.0f} plies/s wall, "
                f"{r['cpu_plies_per_second']:.0f} CPU ({r['games']} games, {r['plies']} plies, "
                f"peak {r['peak_memory_bytes'] / 1e6:.1f} MB)"
            )
        print(
            f"overall: {summary['ratio']:.3f}x reference (plies/s over reference units/s, "
            f"interleaved after a warm-up); {summary['plies_per_second']:.0f} plies/s wall, "
            f"{summary['cpu_plies_per_second']:.0f} CPU"
        )
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from sengoku.core.record import GameRecord
    from sengoku.core.registry import load_game

    record = GameRecord.load(args.file)
    game = load_game(record.game)
    state = record.replay()
    print(game.render_text(state, None))
    result = state.outcome()
    print(
        f"{len(record.actions)} actions replayed; result: {result.to_json() if result else 'unfinished'}"
    )
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    from sengoku.arena.cli import run as run_arena

    return run_arena(args, game_options)


def cmd_selfplay(args: argparse.Namespace) -> int:
    from sengoku.arena.selfplay import selfplay
    from sengoku.core.registry import load_game

    game = load_game(args.game)
    options = game_options(game, args)
    report = selfplay(game, args.games, args.agent, args.seed, options)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    from sengoku.core.game import SengokuError
    from sengoku.core.registry import load_game

    game = load_game(args.game)
    if args.texel:
        # The game's features say which tuner fits their evaluation (Features.texel).
        tuner = game.features().texel
        if tuner == "tables":
            from sengoku.arena.texel import run as run_texel
        elif tuner == "terms":
            from sengoku.arena.texel_terms import run as run_texel
        else:
            raise SengokuError(f"--texel: {game.name}'s evaluation declares nothing to tune")
        return run_texel(args, game_options(game, args), game)
    from sengoku.arena.training import run as run_train

    return run_train(args, game_options(game, args), game)


def cmd_analyse(args: argparse.Namespace) -> int:
    from sengoku.analysis.cli import run_analyse

    return run_analyse(args)


def cmd_puzzles(args: argparse.Namespace) -> int:
    from sengoku.analysis.cli import run_puzzles

    return run_puzzles(args)


def _record_formats() -> dict[str, str]:
    """Every registered game's record formats (``GameType.record_formats``): format name ->
    the ``"module:function"`` that converts it."""
    from sengoku.core.registry import list_games, load_game

    out: dict[str, str] = {}
    for name in list_games():
        out.update(load_game(name).game_type.record_formats)
    return out


def cmd_convert(args: argparse.Namespace) -> int:
    """The converter of the format named (``--from`` / ``--to``, the one that is not
    ``sengoku``), or of the only one the games declare."""
    import importlib

    formats = _record_formats()
    named = [f for f in (args.source, args.target) if f not in (None, "sengoku")]
    if not named and len(formats) != 1:
        print(f"sengoku convert: name the format with --from or --to: {', '.join(formats)}")
        return 2
    module, _, function = formats[named[0] if named else next(iter(formats))].partition(":")
    run: Callable[[argparse.Namespace], int] = getattr(importlib.import_module(module), function)
    return run(args)


def package_version() -> str:
    """The installed distribution's version (its metadata, as pip sees it)."""
    import importlib.metadata

    try:
        return importlib.metadata.version("sengoku")
    except importlib.metadata.PackageNotFoundError:
        # Run from a source tree that was never installed: say so rather than guess.
        return "unknown (not installed)"


class _Version(argparse.Action):
    """``--version``: the installed version, read from the package's metadata only when
    asked (importlib.metadata is slow to import; ``--help`` never needs it)."""

    def __init__(
        self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any
    ) -> None:
        super().__init__(
            option_strings,
            dest,
            nargs=0,
            default=argparse.SUPPRESS,
            help="show the version and exit",
            **kwargs,
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        print(f"{parser.prog} {package_version()}")
        parser.exit()


def _game_names() -> list[str]:
    from sengoku.core.registry import list_games

    return list_games()


def _games_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_games)


def _serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default loopback)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument(
        "--db", metavar="URL", help="SQLAlchemy database URL (default: SQLite in the data dir)"
    )
    p.add_argument(
        "--pubsub",
        metavar="URL",
        help="redis://host:port/db or none://: run as one of several processes on a shared "
        "database (default memory://, one process; none:// with --processes; docs/server.md)",
    )
    p.add_argument(
        "--processes",
        type=_processes,
        default=1,
        metavar="N",
        help="N >= 2: a front on --host/--port hands each connection to one of N server "
        "processes, every match's traffic to the one that made it (default 1; docs/server.md)",
    )
    p.set_defaults(func=cmd_serve)


def _play_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=_game_names())
    _add_option_flags(p)
    p.add_argument(
        "--vs",
        default="ai",
        help="ai (the computer at --level), human (hot seat), or an agent: random, greedy, "
        "mcts, ismcts, alphabeta, level1..level5",
    )
    p.add_argument("--level", type=int, default=2, choices=range(1, 6), help="AI level 1-5")
    p.add_argument("--seat", type=int, default=0, help="your seat when playing the computer")
    p.add_argument(
        "--seed", type=int, default=None, help="deal this game (default: a new random deal)"
    )
    p.add_argument("--save", metavar="FILE", help="save the record when the game ends")
    p.set_defaults(func=cmd_play)


def _perft_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=_game_names())
    _add_option_flags(p)
    p.add_argument("--fen", help="start from this position (games with a FEN)")
    p.add_argument("--depth", type=int, required=True)
    p.add_argument("--divide", action="store_true", help="count per first move")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_perft)


def _bench_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=[*_game_names(), "ai"])
    p.add_argument("--game", dest="ai_game", help="with `bench ai`: the game to measure")
    _add_option_flags(p)
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)


def _selfplay_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=_game_names())
    _add_option_flags(p)
    p.add_argument("--games", type=int, default=100)
    p.add_argument(
        "--agent",
        default="random",
        help="random, a scripted player that the game declares, or an AI agent (level3, mcts, ...)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_selfplay)


def _replay_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file")
    p.set_defaults(func=cmd_replay)


def _arena_arguments(p: argparse.ArgumentParser) -> None:
    from sengoku.arena.cli import add_arguments

    add_arguments(p)
    _add_option_flags(p)
    p.set_defaults(func=cmd_arena)


def _train_arguments(p: argparse.ArgumentParser) -> None:
    from sengoku.arena.texel import add_arguments as texel_arguments
    from sengoku.arena.training import add_arguments as training_arguments

    p.add_argument("game", choices=_game_names())
    training_arguments(p)
    p.add_argument(
        "--texel",
        action="store_true",
        help="tune the evaluation on self-play results (numpy only), as the game's features "
        "declare: a compiled search's tables or per-side terms' weights (default out: "
        "./GAME_eval.json; shipped: sengoku/games/GAME/data/weights/GAME_eval.json)",
    )
    texel_arguments(p)
    _add_option_flags(p)
    p.set_defaults(func=cmd_train)


def _analyse_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", help="a game record (JSON)")
    p.add_argument("--iterations", type=int, default=200, help="search iterations a ply")
    p.add_argument("--seconds", type=float, help="a wall-clock cap for the whole game")
    p.add_argument(
        "--cpu-seconds", type=float, help="a CPU-time budget for the whole game (this thread's)"
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--hindsight",
        action="store_true",
        help="search the true positions, hidden parts included (finished games only)",
    )
    p.add_argument("--json", action="store_true")
    p.add_argument("--progress", action="store_true", help="report each ply on stderr")
    p.set_defaults(func=cmd_analyse)


def _puzzles_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=["mine"])
    p.add_argument("game", choices=_game_names())
    p.add_argument("--records", metavar="DIR", help="a folder of finished JSON records")
    p.add_argument("--selfplay", metavar="N", type=int, help="mine N self-play games")
    p.add_argument("--agent", default="level1", help="the self-play agent (default level1)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--limit", type=int, help="stop after this many puzzles")
    p.add_argument(
        "--last-plies",
        type=int,
        default=6,
        help="positions searched per record, from its end (0: every one)",
    )
    p.add_argument("--out", required=True, metavar="FILE")
    p.add_argument(
        "--checkpoint",
        action="store_true",
        help="write FILE after each puzzle (its command says --limit of the count so far)",
    )
    p.set_defaults(func=cmd_puzzles)


def _convert_arguments(p: argparse.ArgumentParser) -> None:
    formats = ["sengoku", *_record_formats()]
    p.add_argument("input", metavar="IN", help="the record to read ('-': standard input)")
    p.add_argument("output", metavar="OUT", help="where to write ('-': standard output)")
    p.add_argument(
        "--from",
        dest="source",
        choices=formats,
        help="IN's format: sengoku (a JSON record) or another program's (a game's record "
        "format); default: from the name (.json is sengoku, anything else the other)",
    )
    p.add_argument("--to", dest="target", choices=formats, help="OUT's format (likewise)")
    p.add_argument(
        "--fen",
        help="the starting position of an input format that needs one (default: the format's)",
    )
    p.add_argument("--width", type=int, default=6, help="a text output's moves a line")
    p.set_defaults(func=cmd_convert)


#: Every command, in the order ``--help`` lists them: its line of help, and what adds its
#: arguments (run only for a command that is built, see :func:`build_parser`).
COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "games": ("list the games and their options", _games_arguments),
    "serve": ("run the web server (HTTP API, WebSocket, web app)", _serve_arguments),
    "play": ("play a game in the terminal", _play_arguments),
    "perft": ("count the leaves of the move tree", _perft_arguments),
    "bench": ("random-play speed (or `bench ai --game G`: AI speed)", _bench_arguments),
    "selfplay": ("a self-play report (scores, turns, milestones)", _selfplay_arguments),
    "replay": ("replay a saved record and show the final position", _replay_arguments),
    "arena": ("AI matches and tournaments: wins, Elo, ratings", _arena_arguments),
    "train": ("train a game's value network by self-play (needs torch)", _train_arguments),
    "analyse": (
        "analyse a record: winning chances, blunders, accuracy",
        _analyse_arguments,
    ),
    "puzzles": ("mine puzzles from records or self-play", _puzzles_arguments),
    "convert": ("convert records: Sengoku JSON <-> other programs' formats", _convert_arguments),
    "worker": ("run queued analysis jobs (Redis) for the servers", _worker_arguments),
}


def build_parser(commands: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The ``sengoku`` parser. Every command is listed; the arguments of those named in
    ``commands`` are added (all of them when None), so a parser built for one command
    imports that command's modules only."""
    built = set(COMMANDS) if commands is None else set(commands)
    parser = argparse.ArgumentParser(
        prog="sengoku", description="Play, study and serve the registered games (`sengoku games`)."
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (help_line, add_arguments) in COMMANDS.items():
        p = sub.add_parser(name, help=help_line)
        if name in built:
            add_arguments(p)
    return parser


def command_named(argv: Sequence[str]) -> str | None:
    """The command an argument list runs: its first word that is not an option (the
    top-level options, ``--help`` and ``--version``, take no value). None when there is none."""
    return next((word for word in argv if not word.startswith("-")), None)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = command_named(argv)
    parser = build_parser([command] if command is not None else [])
    args = parser.parse_args(argv)
    from sengoku.core.game import SengokuError

    try:
        return int(args.func(args))
    except SengokuError as exc:
        print(f"sengoku: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
