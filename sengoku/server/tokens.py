"""Secret tokens: seats and invitations are held by random tokens, stored only as hashes.

A token is 32 random bytes (URL-safe base64), so a plain SHA-256 is the right hash: there is
nothing to brute-force, and lookups by hash need no per-row salt.
"""

from __future__ import annotations

import hashlib
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_match_id() -> str:
    return secrets.token_urlsafe(9)
