"""Secret tokens: seats and invitations are held by random tokens, stored only as hashes.

A token is 32 random bytes (URL-safe base64), so a plain SHA-256 is the right hash: there is
nothing to brute-force, and lookups by hash need no per-row salt.
"""

from __future__ import annotations

import hashlib
import secrets

from sengoku.server.routing import Worker, this_worker


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_match_id(worker: Worker | None = None) -> str:
    """A fresh match id. A worker of ``sengoku serve --processes N`` (``worker``, or this
    process's own from ``SENGOKU_WORKER``) draws until the id is one it owns, so the front
    sends every later request for the match to the process that made it (routing.py); that
    takes N draws on average, nothing beside a match's creation."""
    worker = worker or this_worker()
    while True:
        match_id = secrets.token_urlsafe(9)
        if worker is None or worker.owns(match_id):
            return match_id
