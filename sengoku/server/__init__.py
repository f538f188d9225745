"""The Sengoku game server: HTTP + WebSocket play, storage, seats and tokens, clocks.

``create_app(Settings(db_url=...))`` builds the FastAPI application; ``sengoku serve`` runs
it on uvicorn. The server knows games only through the core contract.

The package imports lazily: ``import sengoku.server.clocks`` (or any other plain module)
loads neither FastAPI nor the service; the names below are resolved on first use.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sengoku.server.settings import Settings as _Settings  # plain data, imports nothing else

if TYPE_CHECKING:
    from sengoku.server.app import create_app
    from sengoku.server.errors import ApiError
    from sengoku.server.service import MatchService
    from sengoku.server.settings import Settings

#: Where each lazily imported name lives.
_LAZY = {
    "create_app": "sengoku.server.app",
    "ApiError": "sengoku.server.errors",
    "MatchService": "sengoku.server.service",
    "Settings": "sengoku.server.settings",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def default_db_url() -> str:
    """An SQLite file in the user's data directory (created if missing)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("sengoku", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'sengoku.db'}"


#: How uvicorn runs the app, alone or as a worker of a front (``worker.py``). No per-message
#: compression: positions are small and deflate costs more CPU than it saves on the wire.
#: uvloop and httptools are used when installed (they are dependencies). X-Forwarded-For is
#: read by the server itself, from Settings.trusted_proxies only (uvicorn would otherwise
#: believe it from any loopback peer). The access log is the served app's own
#: (``access_log.py``: the same lines, written a batch at a time). A WebSocket frame larger
#: than the UTF-8 bytes of the longest message the server reads (``Settings.max_ws_message``
#: characters, at most 4 bytes each) closes the connection (1009) before it is buffered; a
#: shorter one over the character limit gets a ``refused`` message.
UVICORN_OPTIONS: dict[str, Any] = {
    "log_level": "info",
    "access_log": False,
    "ws_max_size": 4 * _Settings.max_ws_message,
    "ws_per_message_deflate": False,
    "proxy_headers": False,
}


def log_to_stderr() -> None:
    """The server's own log lines on stderr, beside uvicorn's."""
    import logging

    logger = logging.getLogger("sengoku.server")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:     %(name)s: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)


def served_app(db_url: str, pubsub_url: str | None) -> Any:
    """The app one server process runs (with its access log), with the process's garbage
    collector tuned."""
    import gc

    from sengoku.server.access_log import AccessLog
    from sengoku.server.app import create_app
    from sengoku.server.config import settings_from_env
    from sengoku.server.limits import worker_share
    from sengoku.server.routing import this_worker

    log_to_stderr()
    settings = settings_from_env(db_url)
    if pubsub_url:
        settings.pubsub_url = pubsub_url
    worker = this_worker()
    if worker is not None:  # one of a front's workers: its share of each client's budget
        settings = worker_share(settings, worker.processes)
    app = AccessLog(create_app(settings))
    # Fewer, cheaper garbage collections: the server holds many long-lived game states, and a
    # full collection over all of them stalls every game's round trip (p99 measured by
    # benchmarks/server_load.py). What exists at start-up is never collected.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    return app


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    pubsub_url: str | None = None,
    processes: int = 1,
) -> None:
    """Run the server until interrupted; ``pubsub_url`` (``redis://...``) makes it one of
    several processes on the database ``db_url``; ``processes`` >= 2 runs a front on
    ``host:port`` that hands each connection to one of that many worker processes, by the
    match its first request names (docs/server.md, "Several processes")."""
    if processes > 1:
        from sengoku.server.front import run_front

        run_front(host, port, db_url or default_db_url(), pubsub_url or "none://", processes)
        return

    import uvicorn

    app = served_app(db_url or default_db_url(), pubsub_url)
    uvicorn.run(app, host=host, port=port, **UVICORN_OPTIONS)


__all__ = [
    "UVICORN_OPTIONS",
    "ApiError",
    "MatchService",
    "Settings",
    "create_app",
    "default_db_url",
    "log_to_stderr",
    "serve",
    "served_app",
]
