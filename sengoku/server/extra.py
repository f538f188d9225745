"""The server's packages: ``pip install sengoku`` leaves them out (the engines, agents and
terminal play need none of them); ``pip install 'sengoku[server]'`` adds them, and
``sengoku[postgres]`` PostgreSQL's driver as well.

``sengoku serve`` asks :func:`missing_message` first, so that a missing package is named with
the command that installs it, not met as an ``ImportError`` deep inside the server. This
module imports nothing but the standard library.
"""

from __future__ import annotations

import importlib.util

#: The ``server`` extra of pyproject.toml: each distribution, by the module it installs.
SERVER_PACKAGES: dict[str, str] = {
    "fastapi": "fastapi",
    "uvicorn": "uvicorn",
    "websockets": "websockets",
    "sqlalchemy": "sqlalchemy",
    "alembic": "alembic",
    "platformdirs": "platformdirs",
    "redis": "redis",
    "argon2-cffi": "argon2",
    "itsdangerous": "itsdangerous",
    "prometheus-client": "prometheus_client",
    "arq": "arq",
    "babel": "babel",
}
#: Also in the ``server`` extra, but uvicorn serves without them (its own event loop and HTTP
#: parser, slower): their absence is no reason to refuse to start.
SPEEDUPS: dict[str, str] = {"uvloop": "uvloop", "httptools": "httptools"}
#: The ``postgres`` extra, needed for a ``postgresql`` database URL.
POSTGRES_PACKAGES: dict[str, str] = {"psycopg": "psycopg"}


def _absent(packages: dict[str, str]) -> list[str]:
    # find_spec on a top-level name looks the module up without importing it.
    return [dist for dist, module in packages.items() if importlib.util.find_spec(module) is None]


def missing_message(db_url: str | None = None) -> str | None:
    """What to install before the server can run on ``db_url``, or None when nothing is
    missing."""
    absent = _absent(SERVER_PACKAGES)
    extra = "server"
    if db_url is not None and db_url.startswith("postgresql"):
        absent += _absent(POSTGRES_PACKAGES)
        extra = "postgres"
    if not absent:
        return None
    return (
        f"sengoku serve needs the web server's packages, and {', '.join(absent)} "
        f"{'is' if len(absent) == 1 else 'are'} not installed. "
        f"Install them with: pip install 'sengoku[{extra}]'"
    )
