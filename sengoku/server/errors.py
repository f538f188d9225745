"""The error a client caused (or may retry), as the API reports it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sengoku.core.game import SengokuError
from sengoku.server.i18n import N_


class ApiError(Exception):
    """An error a client caused (or may retry): HTTP status, a short code, a message.

    A message a player sees is marked for translation (``N_`` from sengoku/server/i18n.py,
    docs/i18n.md); one with values in it names them (``%(name)s``) and passes them as
    ``params``, so that the answer is translated first and filled in after.
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        params: Mapping[str, Any] | None = None,
        *,
        say: Mapping[str, Any] | None = None,
    ) -> None:
        self.template = message
        self.params = dict(params) if params else None
        #: An engine's sentence (``SengokuError.say``'s wire form), translated as a whole
        #: where the answer is written (sengoku/core/sentence.py).
        self.say = say
        text = message % self.params if self.params else message
        super().__init__(text)
        self.status = status
        self.code = code
        self.message = text

    def localized(self, translate: Any, sentence: Any = None) -> str:
        """The message in a language: ``translate`` is that language's gettext, ``sentence``
        its translation of an engine's sentence (``i18n.sentence_``)."""
        if self.say is not None and sentence is not None:
            said: str = sentence(self.say)
            return said
        text: str = translate(self.template)
        if self.params:
            try:
                return text % self.params
            except (KeyError, ValueError, TypeError):  # a broken translation: the English
                return self.message
        return text

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


def engine_error(status: int, code: str, exc: SengokuError) -> ApiError:
    """An error the library raised, passed on: its English text, and its sentence where it
    was raised with one (sengoku/core/sentence.py), so the answer is in the request's
    language."""
    return ApiError(status, code, str(exc), say=exc.say.wire() if exc.say is not None else None)


def database_busy() -> ApiError:
    """A lock held elsewhere past the lock timeout: nothing changed, the client may retry."""
    return ApiError(503, "db_busy", N_("the database is busy (a lock is held); try again shortly"))


def storage_failed() -> ApiError:
    """Any other storage error: nothing was stored, the client may retry."""
    return ApiError(
        503, "storage_error", N_("the change could not be stored, so nothing changed; retry")
    )
