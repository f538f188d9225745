"""``Settings``: everything the server can be told (``config.py`` reads them from the
environment). Plain data: importing this module starts nothing and imports no web framework."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Settings:
    """Everything the server can be told; tests replace the time source and the AI pool."""

    db_url: str
    now: Callable[[], float] = time.time
    ai_mode: str = "process"
    ai_workers: int = field(default_factory=lambda: max(1, (os.cpu_count() or 2) // 2))
    ai_initializer: Callable[[], None] | None = None
    #: Budget caps of AI seats (``mcts:seconds=86400`` is refused), the wall-clock limit of
    #: one decision (past it the worker is replaced), the tries before a match whose AI
    #: keeps failing is aborted, and how long an all-AI match runs unwatched.
    ai_max_seconds: float = 5.0
    #: Level 5's thinking time per turn, shared over the turn's decisions.
    ai_turn_seconds: float = 1.0
    #: The most wall-clock seconds a level's turn takes, queueing for a worker included, at
    #: any load: its search's budget (CPU time) and its floor yield to it (sengoku.ai.base).
    ai_turn_ceiling: float = 3.0
    ai_max_iterations: int = 20_000
    ai_timeout: float = 60.0
    ai_retries: int = 2
    ai_idle_after: float = 600.0
    #: Worker processes ("process"; "thread" for tests) for replays and imports, and the
    #: seconds one may take before its worker is replaced (``503 too_slow``).
    work_mode: str = "process"
    work_workers: int = 1
    work_timeout: float = 30.0
    #: Post-game analyses (sengoku/server/analyses.py): a job's budget (root iterations a
    #: ply, the CPU seconds the job's searching thread may spend on the whole game, and a
    #: larger wall-clock cap as a safety net, both shared over its plies), the
    #: server's own analysis processes ("process"; "thread" for tests) on one machine, the
    #: seconds without progress after which another server process on the database takes a
    #: job as lost, and the queue: empty, the ``pubsub_url``'s Redis if it is one (then
    #: ``sengoku worker`` runs the jobs), else the server's own pool.
    analysis_iterations: int = 200
    analysis_cpu_seconds: float = 300.0
    analysis_seconds: float = 900.0
    analysis_mode: str = "process"
    analysis_workers: int = 1
    analysis_lease: float = 120.0
    analysis_queue: str = ""
    #: Seconds an opponent must be gone before a seat may claim the win.
    claim_after: float = 60.0
    #: Seconds on the clock of a player who comes back to the seat the computer took when
    #: their flag fell (docs/api.md, *Players who leave*).
    return_time: float = 60.0
    #: Token buckets per client address (sengoku/server/limits.py): sustained rate per
    #: second and burst. ``http``: every request; ``ws``: WebSocket messages other than
    #: actions; ``action``: actions over HTTP and WebSocket together; ``connect``: WebSocket
    #: connections opened; ``create``/``import``/``replay``: those requests; ``bytes``: the
    #: bytes of request bodies and WebSocket messages together (a rate in bytes per second,
    #: a burst in bytes), so that parsing what one client sends stays bounded whatever the
    #: size of its requests.
    http_rate: float = 50.0
    http_burst: float = 200.0
    ws_rate: float = 20.0
    ws_burst: float = 60.0
    action_rate: float = 20.0
    action_burst: float = 100.0
    create_rate: float = 0.2
    create_burst: float = 20.0
    import_rate: float = 0.2
    import_burst: float = 10.0
    replay_rate: float = 2.0
    replay_burst: float = 20.0
    #: The analysis board (routes/board.py): ``board`` its positions, ``evaluate`` its
    #: engine searches (each up to ``board_cpu_seconds`` of a worker's CPU).
    board_rate: float = 5.0
    board_burst: float = 60.0
    evaluate_rate: float = 0.5
    evaluate_burst: float = 20.0
    connect_rate: float = 2.0
    connect_burst: float = 40.0
    bytes_rate: float = 250_000.0
    bytes_burst: float = 8_000_000.0
    #: WebSocket connections one client address may hold open at once.
    ws_per_client: int = 64
    #: Spectator connections (WebSocket, no seat) per match.
    max_spectators: int = 50
    #: Seconds a match may wait for players before it expires (aborted, reason "expired").
    waiting_ttl: float = 86_400.0
    #: Peers whose X-Forwarded-For header is believed (addresses or networks; "*": any).
    trusted_proxies: tuple[str, ...] = ()
    #: Client addresses the per-client limits do not apply to (a load test's own address).
    limit_exempt: tuple[str, ...] = ()
    #: SQLite's synchronous setting: FULL survives power loss for acknowledged actions;
    #: NORMAL is faster but may lose the last commits (never corrupts) on power loss.
    sqlite_synchronous: str = "FULL"
    #: PostgreSQL's synchronous_commit: on (the default) keeps every acknowledged action
    #: through a crash of PostgreSQL or the machine; off is faster but may lose the last
    #: commits (never half of one) in such a crash.
    pg_synchronous_commit: str = "on"
    #: The bytes a request body may hold, by route (guard.py ``body_cap``; a larger one is
    #: ``413 too_large`` before any of it is parsed): ``max_body`` for a record
    #: (``POST /api/records``, ``/api/replay``), ``max_create_body`` for a new match (16 KiB
    #: of options and 16 seats), ``max_chat_body`` for a chat message (300 characters, each
    #: possibly written as a 6-byte ``\\uXXXX`` escape), ``max_small_body`` for every other
    #: request (an action: at most 500 characters of notation, a ply and an id).
    max_body: int = 2_000_000
    max_create_body: int = 65_536
    max_chat_body: int = 8_192
    max_small_body: int = 4_096
    #: The analysis board's requests (``/api/board/...``): a start record or a line of a few
    #: thousand actions (each at most 5,000; a Gunshi game of 1,000 plies is about 20 kB).
    max_board_body: int = 262_144
    #: The analysis board's engine (``POST /api/board/evaluate``): iterations by default and
    #: at most, and the CPU seconds one search may take (it stops then, after 16 iterations).
    board_iterations: int = 800
    board_max_iterations: int = 4000
    board_cpu_seconds: float = 2.0
    #: The characters a WebSocket message may hold (a longer one is refused); uvicorn closes
    #: a connection whose frame exceeds the UTF-8 bytes of that many characters
    #: (``UVICORN_OPTIONS``' ``ws_max_size``, sengoku/server/__init__.py).
    max_ws_message: int = 16_384
    #: Storage threads for moves and loads, and (apart, so slow lists never delay a move)
    #: for the lists of matches and records.
    db_workers: int = 4
    #: PostgreSQL: the event loop's own connections for actions' appends (``loop_appends``):
    #: each holds its transaction for a few turns of the busy loop, so more than the threads.
    db_loop_connections: int = 16
    db_list_workers: int = 2
    #: Seconds a statement waits for a lock held elsewhere before ``503 db_busy``.
    db_lock_timeout: float = 10.0
    #: Arm real timers for clock flags (tests with a fake clock turn this off).
    timers: bool = True
    #: Seconds between two looks at every running clock this process runs, beside each
    #: match's own timer: a flag that a timer missed (its delay is counted on the process's
    #: monotonic clock, while deadlines are wall-clock times) falls within this time.
    flag_sweep: float = 30.0
    #: TESTS ONLY, never in production: a file holding a number of seconds added to the
    #: server's wall-clock time (``SENGOKU_TEST_CLOCK_FILE``), re-read at each look at the
    #: time, so that a test moves a real server process's clock (days of a turn-based game
    #: pass at once). Empty (the default): the server's clock is the machine's. A warning
    #: is logged at start when it is set (sengoku/server/testing_clock.py).
    test_clock_file: str = ""
    #: "It is your turn" e-mails of turn-based games (sengoku/server/mail.py), off while
    #: ``smtp_host`` is empty: the SMTP server, its port, the sender's address, STARTTLS and
    #: a login (both empty: none), and the site's address for the links in the mails
    #: (``https://example.org``; empty: the first of ``public_origins``).
    smtp_host: str = ""
    smtp_port: int = 25
    smtp_from: str = ""
    smtp_starttls: bool = False
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_timeout: float = 20.0
    public_url: str = ""
    #: Where committed changes are published to the other server processes:
    #: ``memory://`` (one process, the default) or ``redis://host:port/db``. Any other value
    #: makes this process one of several on a shared database (sengoku/server/cluster.py).
    pubsub_url: str = "memory://"
    #: Several processes: seconds between a process's heartbeats (and its look at the
    #: database for changes it was not told of), and the seconds without one after which
    #: another process takes over the clocks and AI turns of its matches.
    node_beat: float = 1.0
    node_ttl: float = 5.0
    #: ``--processes N``: seconds the front waits for a connection's first request line
    #: before it closes the connection (front.py); a client sends it at once.
    front_timeout: float = 5.0
    #: Player accounts (sengoku/server/accounts.py, docs/server.md "Accounts"). The session
    #: cookie's life in seconds (from sign-in; signing in again starts a new one).
    session_ttl: float = 30 * 86_400.0
    #: Mark the session and CSRF cookies ``Secure`` (sent over https only): on whenever the
    #: server is reached over https (directly or behind a proxy that terminates TLS).
    cookie_secure: bool = False
    #: The origins (``https://example.org``) a cookie-authenticated request may come from;
    #: empty: the origin the request itself names (its scheme and ``Host``).
    public_origins: tuple[str, ...] = ()
    #: Sign-in attempts: per account name and per client address (rate per second, burst).
    #: Sign-ups, password changes and deletions draw on the address's budget too.
    signin_name_rate: float = 1 / 60
    signin_name_burst: float = 10.0
    signin_client_rate: float = 0.2
    signin_client_burst: float = 20.0
    #: Argon2id's cost (argon2-cffi; the default is RFC 9106's low-memory profile). Stored
    #: hashes made with other costs still verify, and are rehashed at the next sign-in.
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 65_536
    argon2_parallelism: int = 4
    #: Seeks in the lobby (sengoku/server/seeks.py, docs/api.md "Seeks"): seconds a seek
    #: stands at most, seconds it stands without its owner looking at it
    #: (``GET /api/seeks/mine``: the seeker's page asks every few seconds, so a seek lapses
    #: soon after the page is gone), and the open seeks one player (an account, or a guest's
    #: address) may have at once.
    seek_ttl: float = 600.0
    seek_idle: float = 60.0
    seek_max_open: int = 3
    #: Argon2 computations at once (each holds ``argon2_memory_kib``); more wait their turn.
    argon2_at_once: int = 2
