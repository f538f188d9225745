"""The error a client caused (or may retry), as the API reports it."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error a client caused (or may retry): HTTP status, a short code, a message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


def database_busy() -> ApiError:
    """A lock held elsewhere past the lock timeout: nothing changed, the client may retry."""
    return ApiError(503, "db_busy", "the database is busy (a lock is held); try again shortly")


def storage_failed() -> ApiError:
    """Any other storage error: nothing was stored, the client may retry."""
    return ApiError(
        503, "storage_error", "the change could not be stored, so nothing changed; retry"
    )
