"""Publish and subscribe: how one server process tells the others of a committed change.

``memory://`` (the default: one process) delivers inside the process; ``redis://...`` goes
through Redis pub/sub on one channel, so every process pushes each change to its own
WebSocket subscribers. Redis only carries news: the database stays the state of record, and a
message lost while Redis is down or restarting is made up for by each process's look at the
database (``Cluster``'s heartbeat round), never by Redis itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger("sengoku.server")

#: Messages waiting to be published; past it the newest are dropped (the others catch up
#: from the database).
MAX_OUTBOX = 10_000

Handler = Callable[[dict[str, Any]], None]


class PubSub(Protocol):
    """Where committed changes go to, and come from."""

    #: False while the channel is known to be down (messages are being lost).
    healthy: bool
    #: Counts the subscriptions made: a new one means messages may have been lost before it.
    epoch: int

    async def start(self, handler: Handler) -> None: ...

    def publish(self, message: dict[str, Any]) -> None: ...

    async def close(self) -> None: ...


class MemoryPubSub:
    """One process: a message goes to this process's handler (which ignores its own).
    ``carries=False`` (``none://``): several processes that tell each other nothing, so each
    looks at the database every heartbeat round."""

    def __init__(self, carries: bool = True) -> None:
        self.healthy = carries
        self.epoch = 1
        self._handler: Handler | None = None

    async def start(self, handler: Handler) -> None:
        self._handler = handler

    def publish(self, message: dict[str, Any]) -> None:
        if self._handler is not None:
            self._handler(message)

    async def close(self) -> None:
        self._handler = None


class RedisPubSub:
    """Redis pub/sub on one channel (``redis.asyncio``): a publisher task sends what the
    event loop queued (a pipeline per batch, so a burst costs one round trip), a listener
    task hands every message to ``handler``. Both reconnect by themselves after Redis
    restarts; until then ``healthy`` is False and messages are dropped, not queued."""

    def __init__(self, url: str, channel: str = "sengoku:changes") -> None:
        import redis.asyncio as aioredis

        self.url = url
        self.channel = channel
        self.healthy = False
        self.epoch = 0
        self._client = aioredis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=2)
        self._outbox: asyncio.Queue[str] = asyncio.Queue(MAX_OUTBOX)
        self._tasks: list[asyncio.Task[None]] = []
        self._handler: Handler | None = None
        self._dropped = 0

    async def start(self, handler: Handler) -> None:
        self._handler = handler
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._send())]
        # Wait (briefly) until subscribed, so that nothing published after start is missed.
        for _ in range(100):
            if self.healthy:
                break
            await asyncio.sleep(0.02)

    def publish(self, message: dict[str, Any]) -> None:
        try:
            self._outbox.put_nowait(json.dumps(message, separators=(",", ":")))
        except asyncio.QueueFull:
            self._dropped += 1

    async def _send(self) -> None:
        import redis.exceptions

        while True:
            first = await self._outbox.get()
            batch = [first]
            while not self._outbox.empty() and len(batch) < 500:
                batch.append(self._outbox.get_nowait())
            try:
                async with self._client.pipeline(transaction=False) as pipe:
                    for text in batch:
                        pipe.publish(self.channel, text)
                    await pipe.execute()
            except (redis.exceptions.RedisError, OSError) as exc:
                self._down(exc)
                self._dropped += len(batch)

    async def _listen(self) -> None:
        import redis.exceptions

        while True:
            pubsub = self._client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                if not self.healthy:
                    log.info("pub/sub: subscribed to %s", self.channel)
                self.healthy = True
                self.epoch += 1
                while True:
                    msg = await pubsub.get_message(timeout=1.0)
                    if msg is None or msg.get("type") != "message":
                        continue
                    try:
                        data = json.loads(msg["data"])
                    except ValueError:
                        continue
                    if self._handler is not None and isinstance(data, dict):
                        self._handler(data)
            except asyncio.CancelledError:
                raise
            except (redis.exceptions.RedisError, OSError) as exc:
                self._down(exc)
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]

    def _down(self, exc: BaseException) -> None:
        if self.healthy:
            log.warning("pub/sub: Redis is unreachable (%s); retrying", type(exc).__name__)
        self.healthy = False

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self._client.aclose()


def make_pubsub(url: str) -> PubSub:
    """The pub/sub for ``url``: ``memory://`` (one process), ``none://`` (several, no
    pub/sub) or ``redis://`` (``rediss://``, ``unix://``)."""
    if url in ("", "memory://"):
        return MemoryPubSub()
    if url == "none://":
        # several processes without Redis; each finds the others' changes in the database at
        # its next heartbeat round (``Settings.node_beat``)
        return MemoryPubSub(carries=False)
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisPubSub(url)
    raise ValueError(f"unknown pub/sub URL {url!r}: use memory:// or redis://host:port/db")
