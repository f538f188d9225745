"""One worker of ``sengoku serve --processes N``: the full server, fed connections by a front.

The front (``front.py``) accepts each TCP connection, reads nothing from it, and passes the
connected socket itself over a Unix socket pair (``socket.send_fds``). The worker serves it
with uvicorn's own protocol objects, built as ``uvicorn.Server.startup`` builds them (uvicorn
0.54), through ``loop.connect_accepted_socket``: so the app sees the client's real address,
and from then on the front costs nothing per request.

Run by the front as ``python -m sengoku.server.worker --channel FD --db URL --pubsub URL
--parent PID`` with ``SENGOKU_WORKER=i/N`` in its environment. On Linux the worker gets SIGTERM
when the front dies, even of ``kill -9`` (``children.py``), and stops as when the front stops
it; its own pools' workers die with it.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import socket
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import uvicorn
from uvicorn.config import STARTUP_FAILURE

from sengoku.server.routing import Worker, match_of_path, this_worker

log = logging.getLogger("sengoku.server")

#: What a worker sends the front once its app has started: it then takes connections.
READY = b"R"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class CloseForeign:
    """Answers a request for a match another worker owns with ``Connection: close``.

    Such a request comes on a keep-alive connection the front gave this worker for an
    earlier request; it is served all the same (the cluster path loads the match from the
    database), and closing the connection afterwards makes the client's next request come
    through the front again, which sends it to the match's owner. uvicorn's protocols keep
    a connection open or not by the response's own ``connection`` header."""

    def __init__(self, app: ASGIApp, worker: Worker) -> None:
        self.app = app
        self.worker = worker

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        match_id = match_of_path(scope["path"])
        if match_id is None or self.worker.owns(match_id):
            await self.app(scope, receive, send)
            return

        async def closing(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), (b"connection", b"close")]
            await send(message)

        await self.app(scope, receive, closing)


class HandedServer(uvicorn.Server):
    """A uvicorn server that listens on nothing: it serves the sockets the front hands it."""

    def __init__(self, config: uvicorn.Config, channel: socket.socket) -> None:
        super().__init__(config)
        self.channel = channel
        self._opening: set[asyncio.Task[Any]] = set()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        # As uvicorn.Server.startup, up to where it would create a listening server.
        await self.lifespan.startup()
        if self.lifespan.should_exit:
            sys.exit(STARTUP_FAILURE)
        config = self.config

        def create_protocol(_loop: asyncio.AbstractEventLoop | None = None) -> asyncio.Protocol:
            protocol: asyncio.Protocol = config.http_protocol_class(  # type: ignore[call-arg]
                config=config,
                server_state=self.server_state,
                app_state=self.lifespan.state,
                _loop=_loop,
            )
            return protocol

        loop = asyncio.get_running_loop()
        self.servers = []  # nothing to close at shutdown: the front holds the listener
        self.channel.setblocking(False)
        loop.add_reader(self.channel.fileno(), self._receive, loop, create_protocol)
        self.channel.send(READY)
        log.info("worker %s (pid %d) takes connections", this_worker(), os.getpid())
        self.started = True

    def _receive(
        self, loop: asyncio.AbstractEventLoop, factory: Callable[[], asyncio.Protocol]
    ) -> None:
        """Every connection the front has passed since the last call."""
        while True:
            try:
                data, fds, _flags, _addr = socket.recv_fds(self.channel, 16, 4)
            except BlockingIOError:
                return
            except OSError:
                data, fds = b"", []
            if not data and not fds:  # the front is gone: stop, as on SIGTERM
                loop.remove_reader(self.channel.fileno())
                self.should_exit = True
                return
            for fd in fds:
                sock = socket.socket(fileno=fd)
                sock.setblocking(False)
                task = loop.create_task(self._open(loop, factory, sock))
                self._opening.add(task)
                task.add_done_callback(self._opening.discard)

    async def _open(
        self,
        loop: asyncio.AbstractEventLoop,
        factory: Callable[[], asyncio.Protocol],
        sock: socket.socket,
    ) -> None:
        try:
            await loop.connect_accepted_socket(factory, sock)
        except OSError:  # the client left before it was served
            sock.close()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        loop = asyncio.get_running_loop()
        if self.channel.fileno() >= 0:
            loop.remove_reader(self.channel.fileno())
            self.channel.close()
        await super().shutdown(sockets)


def run_worker(channel_fd: int, db_url: str, pubsub_url: str) -> None:
    """Serve the connections the front passes on ``channel_fd`` until told to stop."""
    from sengoku.server import UVICORN_OPTIONS, served_app

    worker = this_worker()
    if worker is None:
        raise SystemExit("a worker needs SENGOKU_WORKER=i/N (it is started by the front)")
    channel = socket.socket(fileno=channel_fd)
    app = CloseForeign(served_app(db_url, pubsub_url), worker)
    config = uvicorn.Config(app, **UVICORN_OPTIONS)
    HandedServer(config, channel).run()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m sengoku.server.worker")
    p.add_argument("--channel", type=int, required=True, help="the Unix socket from the front")
    p.add_argument("--db", required=True)
    p.add_argument("--pubsub", required=True)
    p.add_argument("--parent", type=int, help="the front's pid: stop when it dies")
    args = p.parse_args(argv)
    if args.parent is not None:
        from sengoku.server.children import die_with_parent

        die_with_parent(signal.SIGTERM, args.parent)
    run_worker(args.channel, args.db, args.pubsub)


if __name__ == "__main__":
    main()
