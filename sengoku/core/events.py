"""Events: what ``apply`` returns, one JSON-ready dict per thing that happened.

Its own module, apart from the contract's base classes (:mod:`sengoku.core.game`, which
re-exports both names), because every ply of every game builds events: this module is
compiled with mypyc (docs/architecture.md, "The core compiled"), the base classes that the
games subclass in Python are not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sengoku.core.sentence import Sentence

#: An event is a JSON-ready dict with at least ``type`` and ``audience``
#: (``None``: everyone; else the list of seats that may see it).
Event = dict[str, Any]


def event(type_: str, audience: Sequence[int] | None = None, **details: Any) -> Event:
    """Build an event: ``audience`` None means every seat and spectator may see it.

    A ``message`` given as a :class:`~sengoku.core.sentence.Sentence` is stored as its English
    text, with its parts under ``say`` for a reader's language (sengoku/core/sentence.py)."""
    message = details.get("message")
    if isinstance(message, Sentence):
        details["message"] = str(message)
        details["say"] = message.wire()
    return {"type": type_, "audience": None if audience is None else list(audience), **details}


__all__ = ["Event", "event"]
