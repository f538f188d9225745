"""The access log: a line per HTTP answer, written a batch at a time.

uvicorn's access log formats each line through the logging module and writes it to its
stream as the answer starts: at 500 games (250 actions a second, two requests each) that
was about 4% of a server process's event loop (py-spy, docs/server.md, *Load*). This
middleware, the outermost layer of the served app, writes the same line, in uvicorn's
default layout (``INFO:     127.0.0.1:50000 - "GET /api/games HTTP/1.1" 200 OK``), to the
same stream (standard output), collected for at most ``interval`` seconds and written with
one call. Nothing secret is in a line: seat tokens travel in headers and WebSocket
messages, never in a URL (docs/api.md). WebSocket handshakes are logged by uvicorn itself.
"""

from __future__ import annotations

import asyncio
import http
import sys
import urllib.parse
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, TextIO

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


#: ``200 OK``, ``404 Not Found``... by status.
_STATUS = {s.value: f"{s.value} {s.phrase}" for s in http.HTTPStatus}


class AccessLog:
    """ASGI middleware: an access-log line per HTTP answer, flushed every ``interval``
    seconds, at ``max_lines`` lines, and when the app shuts down."""

    def __init__(
        self,
        app: App,
        stream: TextIO | None = None,
        interval: float = 0.25,
        max_lines: int = 1000,
    ) -> None:
        self.app = app
        self.stream = stream
        self.interval = interval
        self.max_lines = max_lines
        self.lines: list[str] = []
        self._timer: asyncio.TimerHandle | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http":

            async def noting(message: Message) -> None:
                if message["type"] == "http.response.start":
                    self.note(scope, int(message["status"]))
                await send(message)

            await self.app(scope, receive, noting)
            return
        if kind == "lifespan":

            async def flushing(message: Message) -> None:
                if message["type"].startswith("lifespan.shutdown"):
                    self.flush()
                await send(message)

            await self.app(scope, receive, flushing)
            return
        await self.app(scope, receive, send)

    def note(self, scope: Scope, status: int) -> None:
        """Add the line of an answer with ``status`` to the request ``scope``."""
        client = scope.get("client")
        address = f"{client[0]}:{client[1]}" if client else "-"
        path = urllib.parse.quote(scope.get("root_path", "") + scope["path"])
        query = scope.get("query_string", b"")
        if query:
            path += "?" + query.decode("ascii", "replace")
        status_text = _STATUS.get(status) or str(status)
        self.lines.append(
            f'INFO:     {address} - "{scope["method"]} {path} '
            f'HTTP/{scope.get("http_version", "1.1")}" {status_text}\n'
        )
        if len(self.lines) >= self.max_lines:
            self.flush()
        elif self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # noted outside a loop: nothing would flush it later
                self.flush()
                return
            self._timer = loop.call_later(self.interval, self.flush)

    def flush(self) -> None:
        """Write the lines noted so far, in one call."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        lines, self.lines = self.lines, []
        if not lines:
            return
        stream = self.stream if self.stream is not None else sys.stdout
        try:
            stream.write("".join(lines))
            stream.flush()
        except (OSError, ValueError):  # a closed or broken stream: the lines are dropped
            pass
