"""Waiting for a condition, and reading a server's answer, the one way every test does it.

Tests never wait a fixed time for something to happen and never bound how long something
took: on a busy machine (load 25-70) any fixed number is wrong. They wait for the condition
itself, with a generous overall timeout only as a safety net, and a timeout fails naming
what was waited for. Speed figures live in ``benchmarks/`` (``make bench``), not in tests.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: The safety net for a wait: far longer than anything takes on an idle machine, so that only
#: a condition that never comes fails, not a slow machine.
GENEROUS = 120.0
#: The same in milliseconds, as Playwright takes its timeouts.
GENEROUS_MS = int(GENEROUS * 1000)


def wait_until(
    predicate: Callable[[], T],
    what: str,
    timeout: float = GENEROUS,
    interval: float = 0.05,
    detail: Callable[[], object] | None = None,
) -> T:
    """Poll ``predicate`` until it returns something true, and return that.

    Fails after ``timeout`` seconds with an ``AssertionError`` naming ``what`` was awaited
    (and ``detail()``, e.g. a server's log, when given). ``interval`` is only how often to
    look again, never a wait for something to happen.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            extra = f"\n{detail()}" if detail is not None else ""
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}{extra}")
        time.sleep(interval)


async def wait_until_async(
    predicate: Callable[[], T], what: str, timeout: float = GENEROUS, interval: float = 0.01
) -> T:
    """:func:`wait_until` inside an event loop: the loop runs on between looks."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(interval)


#: For Playwright's ``page.evaluate``: resolves once the page has painted a new frame (two
#: animation frames: the next one starts after the current one was drawn), e.g. after a
#: rendering setting changed through the DevTools protocol.
NEXT_FRAME = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def ok(response: Any, status: int | None = None) -> Any:
    """The JSON body of a successful HTTP answer (httpx or Starlette's test client).

    Checks the status first (2xx, or exactly ``status`` when given) so that a failure shows
    what the server answered, not a ``KeyError`` on a body that is an error.
    """
    code = response.status_code
    good = code == status if status is not None else 200 <= code < 300
    assert good, (
        f"{response.request.method} {response.request.url} answered {code} "
        f"(expected {status or '2xx'}): {response.text}"
    )
    return response.json()
