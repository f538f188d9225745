"""Test-wide setup: every game plugin under ``tests/plugins/`` is installed for the session.

Each folder there looks like an installed distribution (its package and its ``*.dist-info``
with the ``sengoku.games`` entry point), so putting the folder on ``sys.path`` registers its
game exactly as ``pip install`` would; ``PYTHONPATH`` carries it to subprocesses (the CLI,
arena workers). This file names no game: the registry finds them by their entry points.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

PLUGINS = Path(__file__).resolve().parent / "plugins"
_folders = [str(p) for p in sorted(PLUGINS.iterdir()) if p.is_dir()] if PLUGINS.is_dir() else []
for _folder in _folders:
    if _folder not in sys.path:
        sys.path.append(_folder)
os.environ["PYTHONPATH"] = os.pathsep.join(
    [*_folders, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
)


#: Tests that need more than Python, by the fixtures they use (their whole closure: a fixture
#: built on ``pg`` counts too). ``make test-fast`` leaves them out with
#: ``-m "not browser and not postgres and not redis and not ray"``; ``make test`` runs all.
#: Ray's one test is marked by hand (tests/arena/test_arena_tournament.py).
NEEDS = {
    "browser": {"playwright", "browser", "new_page"},  # Chromium through Playwright
    "postgres": {"pg", "pg_url", "pg_durable"},  # a throw-away PostgreSQL cluster
    "redis": {"redis_server"},  # a redis-server process
}


#: The order files run in (their lowest rank first; collection order within a rank): the
#: longest first. ``make test`` hands the files to its processes in this order
#: (pytest-xdist's ``--dist loadfile --no-loadscope-reorder``; without the flag, xdist hands
#: out the files with the most tests first), so the short ones fill the end and no process is
#: left alone with a long file after the others have finished: the wheel build (about two
#: minutes), then the browser tests (half a minute to two minutes a file), then those that
#: start servers and databases (tests/server's), then the rest. In collection order the
#: browser tests came last, and the suite's last three minutes ran one or two of them beside
#: idle processes.
RANKS = (("wheel", 0), ("browser", 1), ("postgres", 2), ("redis", 2), ("ray", 2))
SERVER_TESTS = "tests/server/"


def _rank(item: pytest.Item) -> int:
    marked = (rank for marker, rank in RANKS if item.get_closest_marker(marker))
    return min(marked, default=2 if item.nodeid.startswith(SERVER_TESTS) else 3)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        for marker, fixtures in NEEDS.items():
            if used & fixtures:
                item.add_marker(getattr(pytest.mark, marker))
    # Each file's rank is its most urgent test's, so that a file's tests stay together.
    file_rank: dict[str, int] = {}
    for item in items:
        where = item.nodeid.split("::", 1)[0]
        file_rank[where] = min(file_rank.get(where, 3), _rank(item))
    items.sort(key=lambda item: file_rank[item.nodeid.split("::", 1)[0]])
