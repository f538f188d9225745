"""Which of several worker processes owns a match: ``sengoku serve --processes N``.

A match belongs to ``owner(id, N)``, a stable hash of its id. The front (``front.py``) sends
every connection whose first request names a match to that match's owner, and each worker
makes only ids it owns (``tokens.new_match_id``), so a match's creation, seats, spectators,
clock and AI turns all live on one process. Paths that name no match go round the workers.

This module imports nothing heavy: the front and the load generator use it too.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from functools import lru_cache

#: The environment variable that tells a worker its place: ``"i/N"`` (index i of N).
WORKER_ENV = "SENGOKU_WORKER"

#: The most worker processes ``--processes`` allows (far more than any machine's cores
#: would use; it bounds what a typo can start).
MAX_PROCESSES = 64

#: Every route that names a match in its first segment after these prefixes: the API's match
#: routes (``/api/matches/{id}/...``, the table and chat included), the match's WebSocket,
#: its record, and the browser's pages for it (whose keep-alive connection then fetches the
#: match's API from the right worker). Ids are URL-safe base64 (``tokens.new_match_id``).
_MATCH_PATH = re.compile(
    r"^/(?:api/matches|ws/matches|api/records|play|replay)/([A-Za-z0-9_-]{1,64})(?:[/?#]|$)"
)


def owner(match_id: str, processes: int) -> int:
    """The index (0 .. processes - 1) of the worker that owns ``match_id``.

    blake2b, not ``hash()``: it must agree across processes and runs (Python salts
    ``hash`` of strings per process)."""
    digest = hashlib.blake2b(match_id.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % processes


def match_of_path(path: str) -> str | None:
    """The match id a request path names, or None for a path that names no match."""
    found = _MATCH_PATH.match(path)
    return found.group(1) if found else None


@dataclass(frozen=True)
class Worker:
    """This process's place among the workers of one front."""

    index: int
    processes: int

    def owns(self, match_id: str) -> bool:
        return owner(match_id, self.processes) == self.index

    def __str__(self) -> str:
        return f"{self.index}/{self.processes}"


def parse_worker(text: str) -> Worker:
    """``"i/N"`` as a Worker; a ValueError says what was wrong."""
    index, sep, processes = text.partition("/")
    try:
        if not sep:
            raise ValueError
        worker = Worker(int(index), int(processes))
    except ValueError:
        raise ValueError(f"{WORKER_ENV}={text!r} is not of the form i/N") from None
    if not 1 <= worker.processes <= MAX_PROCESSES or not 0 <= worker.index < worker.processes:
        raise ValueError(f"{WORKER_ENV}={text!r}: need 0 <= i < N <= {MAX_PROCESSES}")
    return worker


@lru_cache(maxsize=4)
def _cached(text: str | None) -> Worker | None:
    return None if not text else parse_worker(text)


def this_worker() -> Worker | None:
    """This process's place, from ``SENGOKU_WORKER``; None when it serves alone."""
    return _cached(os.environ.get(WORKER_ENV))
