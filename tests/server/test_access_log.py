"""The served app's access log (``sengoku.server.access_log``): uvicorn's line for every HTTP
answer, collected and written a batch at a time, on a timer, when the batch is full and at
shutdown; never a header (a seat's token travels in one)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import httpx
from real_server import auth, new_gungi, play_first_legal, server

from sengoku.server.access_log import AccessLog
from tests.waiting import ok, wait_until, wait_until_async


async def _app(scope: Any, receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            else:
                await send({"type": "lifespan.shutdown.complete"})
                return
    status = 404 if scope["path"] == "/missing" else 200
    await send({"type": "http.response.start", "status": status, "headers": []})
    await send({"type": "http.response.body", "body": b"{}"})


def _scope(method: str, path: str, query: bytes = b"") -> dict[str, Any]:
    return {
        "type": "http",
        "method": method,
        "path": path,
        "root_path": "",
        "query_string": query,
        "http_version": "1.1",
        "client": ("203.0.113.7", 50123),
        "headers": [(b"authorization", b"Bearer s3cret-seat-token")],
    }


async def _request(log: AccessLog, scope: dict[str, Any]) -> None:
    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(_message: Any) -> None:
        return None

    await log(scope, receive, send)


def test_lines_are_uvicorns_written_together_after_the_interval() -> None:
    stream = io.StringIO()
    log = AccessLog(_app, stream=stream, interval=0.05)

    async def main() -> tuple[str, str]:
        await _request(log, _scope("POST", "/api/matches/abc/actions"))
        await _request(log, _scope("GET", "/api/matches/abc/events", b"after=12"))
        await _request(log, _scope("GET", "/missing"))
        # a decoded %0A in a path cannot start a forged line of its own
        await _request(log, _scope("GET", '/x\nINFO:     1.2.3.4:1 - "GET /admin'))
        before = stream.getvalue()
        await wait_until_async(
            lambda: len(stream.getvalue().splitlines()) >= 4, "the timer to write the batch"
        )
        return before, stream.getvalue()

    before, after = asyncio.run(main())
    assert before == ""  # nothing written per request
    assert after.splitlines() == [
        'INFO:     203.0.113.7:50123 - "POST /api/matches/abc/actions HTTP/1.1" 200 OK',
        'INFO:     203.0.113.7:50123 - "GET /api/matches/abc/events?after=12 HTTP/1.1" 200 OK',
        'INFO:     203.0.113.7:50123 - "GET /missing HTTP/1.1" 404 Not Found',
        'INFO:     203.0.113.7:50123 - "GET /x%0AINFO%3A%20%20%20%20%201.2.3.4%3A1%20-%20%22GET'
        '%20/admin HTTP/1.1" 200 OK',
    ]
    assert "s3cret" not in after


def test_a_full_batch_is_written_at_once_and_shutdown_writes_the_rest() -> None:
    stream = io.StringIO()
    log = AccessLog(_app, stream=stream, interval=60.0, max_lines=3)

    async def lifespan() -> None:
        messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])

        async def receive() -> Any:
            return next(messages)

        async def send(_message: Any) -> None:
            return None

        await log({"type": "lifespan"}, receive, send)

    async def main() -> tuple[int, int]:
        for i in range(4):
            await _request(log, _scope("GET", f"/api/matches/m{i}"))
        full = len(stream.getvalue().splitlines())
        await lifespan()
        return full, len(stream.getvalue().splitlines())

    assert asyncio.run(main()) == (3, 4)


def test_a_real_server_writes_each_answer_once_and_no_token(tmp_path: Path) -> None:
    """``sengoku serve``: one line per answer (uvicorn's own access log is off, so none
    twice), within the interval, the seat's token nowhere in the output."""
    log = tmp_path / "server.log"
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    with server(db, log) as base, httpx.Client(base_url=base, timeout=30) as http:
        match: Any = new_gungi(http)
        mid, token = match["id"], match["tokens"]["0"]
        ok(play_first_legal(http, mid, token))
        ok(http.get(f"/api/matches/{mid}/events?after=0", headers=auth(token)))
        events = f'"GET /api/matches/{mid}/events?after=0 HTTP/1.1" 200 OK'
        wait_until(lambda: events in log.read_text(), "the access log's batch in the log")
        text = log.read_text()
    lines = [line for line in text.splitlines() if '" 2' in line or '" 4' in line]
    assert sum(f'"POST /api/matches/{mid}/actions HTTP/1.1" 200 OK' in x for x in lines) == 1
    assert sum(f'"GET /api/matches/{mid}/events?after=0 HTTP/1.1" 200 OK' in x for x in lines) == 1
    assert token not in text
