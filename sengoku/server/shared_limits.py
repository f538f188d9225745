"""Per-client limits and spectator caps shared by several server processes, in Redis.

With ``--pubsub redis://...`` a client's budgets (token buckets), its open WebSocket
connections and a match's spectators are counted in Redis, so that spreading requests over
the processes behind a proxy gives no client a larger budget. Each check is one Lua script
(atomic in Redis, one round trip); the time is Redis's own (``TIME``), so the processes' clocks
need not agree.

Connection counts are kept per process (a hash field per process, beside a key the process
refreshes every few seconds): the counts of a process that died stop counting as soon as its
key expires, so a killed process leaks no connection slots. While Redis is unreachable each
process falls back on its own counts (``ClientLimits``), so a Redis outage never refuses
everybody.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

log = logging.getLogger("sengoku.server")

PREFIX = "sengoku:"
#: Seconds a process's liveness key lives (it is refreshed every third of that).
NODE_TTL = 15

_TAKE = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local need = math.min(cost, burst)
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local v = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(v[1]) or burst
local at = tonumber(v[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local ok = 0
if tokens >= need then
  tokens = tokens - cost
  ok = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - math.min(tokens, 0)) / rate * 1000) + 1000)
if ok == 1 then return '' end
return tostring((need - tokens) / rate)
"""

#: KEYS[1]: the hash of counts per process; ARGV: this process, the cap, the key prefix of
#: the processes' liveness keys. Counts of processes whose key is gone are dropped.
_OPEN = """
local h = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #h, 2 do
  if redis.call('EXISTS', ARGV[3] .. h[i]) == 1 then
    total = total + tonumber(h[i + 1])
  else
    redis.call('HDEL', KEYS[1], h[i])
  end
end
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], 86400)
return 1
"""

#: The open count of KEYS[1] over the living processes (ARGV[1]: their keys' prefix).
_COUNT = """
local h = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #h, 2 do
  if redis.call('EXISTS', ARGV[1] .. h[i]) == 1 then total = total + tonumber(h[i + 1]) end
end
return total
"""

_CLOSE = """
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return n
"""


class SharedLimits:
    """Token buckets and capped counts in Redis (see the module's docstring)."""

    def __init__(self, url: str) -> None:
        import redis.asyncio as aioredis

        self._client = aioredis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=1)
        self.node = secrets.token_hex(8)
        self._take = self._client.register_script(_TAKE)
        self._open = self._client.register_script(_OPEN)
        self._close = self._client.register_script(_CLOSE)
        self._count = self._client.register_script(_COUNT)
        self._beat: asyncio.Task[None] | None = None
        self._beaten = 0.0
        #: Until when Redis is taken as unreachable (checks fall back on local counts).
        self._down_until = 0.0

    async def _alive(self) -> None:
        """Refresh this process's liveness key (and keep doing so)."""
        if self._beat is None:
            self._beat = asyncio.get_running_loop().create_task(self._beats())
        if time.monotonic() - self._beaten > NODE_TTL / 3:
            await self._client.set(f"{PREFIX}node:{self.node}", "1", ex=NODE_TTL)
            self._beaten = time.monotonic()

    async def _beats(self) -> None:
        while True:
            await asyncio.sleep(NODE_TTL / 3)
            try:
                await self._client.set(f"{PREFIX}node:{self.node}", "1", ex=NODE_TTL)
                self._beaten = time.monotonic()
            except Exception:  # Redis down: the next beat tries again
                pass

    async def _call(self, script: Any, keys: list[str], args: list[Any]) -> Any:
        """Run ``script``; None while Redis is unreachable (the caller counts locally)."""
        if time.monotonic() < self._down_until:
            return None
        try:
            await self._alive()
            return await script(keys=keys, args=args)
        except Exception as exc:
            log.warning("shared limits: Redis is unreachable (%s)", type(exc).__name__)
            self._down_until = time.monotonic() + 2.0
            return None

    async def take(
        self, kind: str, client: str, rate: float, burst: float, cost: float = 1.0
    ) -> float | None | bool:
        """Take ``cost`` tokens (``ClientLimits.take``'s rule). None: allowed; seconds to
        wait: refused; False: Redis is unreachable."""
        out = await self._call(self._take, [f"{PREFIX}tb:{kind}:{client}"], [rate, burst, cost])
        if out is None:
            return False
        text = out.decode() if isinstance(out, bytes) else str(out)
        return None if text == "" else float(text)

    async def open(self, what: str, cap: int) -> bool | None:
        """Count one more of ``what`` if fewer than ``cap`` are open in every process; None
        when Redis is unreachable."""
        out = await self._call(self._open, [f"{PREFIX}{what}"], [self.node, cap, f"{PREFIX}node:"])
        return None if out is None else bool(int(out))

    async def close(self, what: str) -> None:
        await self._call(self._close, [f"{PREFIX}{what}"], [self.node])

    async def count(self, what: str) -> int | None:
        """How many of ``what`` are open in every living process; None: Redis unreachable."""
        out = await self._call(self._count, [f"{PREFIX}{what}"], [f"{PREFIX}node:"])
        return None if out is None else int(out)

    async def stamp(self, what: str, value: float) -> None:
        """Remember ``value`` (a time) under ``what`` for a day."""
        if time.monotonic() >= self._down_until:
            try:
                await self._client.set(f"{PREFIX}{what}", repr(value), ex=86400)
            except Exception:
                self._down_until = time.monotonic() + 2.0

    async def read_stamp(self, what: str) -> float | None:
        if time.monotonic() < self._down_until:
            return None
        try:
            out = await self._client.get(f"{PREFIX}{what}")
        except Exception:
            self._down_until = time.monotonic() + 2.0
            return None
        return None if out is None else float(out)

    async def aclose(self) -> None:
        if self._beat is not None:
            self._beat.cancel()
        try:
            await self._client.delete(f"{PREFIX}node:{self.node}")
        except Exception:
            pass
        await self._client.aclose()
