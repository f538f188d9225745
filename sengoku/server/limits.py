"""Limits per client address: a new connection does not get a fresh budget.

A client is its IP address (an IPv6 address by its /64 network, which one host usually
holds whole). Behind a reverse proxy every request comes from the proxy, so the server reads
``X-Forwarded-For`` -- but only from the peers the operator lists in
``Settings.trusted_proxies``: anyone can send that header, so believing it from anyone
would let a client pick a fresh address per request.

Budgets are token buckets (a sustained rate per second and a burst), one per client and
kind: every HTTP request (``http``), match creation (``create``), record import (``import``),
replays (``replay``), the analysis board's positions (``board``) and searches (``evaluate``), actions over HTTP or WebSocket (``action``), other WebSocket messages
(``ws``) and WebSocket connections opened (``connect``); and the bytes of request bodies
and WebSocket messages (``bytes``: each takes as many tokens as it has bytes, so a client
sending large bodies runs out long before one sending many small ones). Open WebSocket
connections per client are also capped (``Settings.ws_per_client``).

With several server processes (``--pubsub redis://...``) the buckets and the counts live in
Redis (``shared_limits.py``), so a client gains nothing by spreading over the processes; the
local ones below serve one process, and every process while Redis is unreachable. The
workers of one front that do not share Redis each apply a share of every budget
(:func:`worker_share`).
"""

from __future__ import annotations

import dataclasses
import ipaddress
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from sengoku.server.settings import Settings

#: The kinds of budget (module docstring).
_KINDS = (
    "http",
    "create",
    "import",
    "replay",
    "board",
    "evaluate",
    "action",
    "ws",
    "connect",
    "bytes",
)

#: Buckets remembered at most; the least recently used are forgotten first (a forgotten
#: client starts with a full bucket, which is what it would have after a short pause).
MAX_CLIENTS = 50_000


class TokenBucket:
    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self, cost: float = 1.0) -> bool:
        """Take ``cost`` tokens if the bucket holds them. A cost above the burst is taken
        from a full bucket, leaving it in debt (a body larger than a worker's share of the
        byte burst must not be refused for ever)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= min(cost, self.burst):
            self.tokens -= cost
            return True
        return False

    def retry_after(self, cost: float = 1.0) -> float:
        """Seconds until a request of ``cost`` tokens is allowed."""
        need = min(cost, self.burst)
        return max(0.0, (need - self.tokens) / self.rate) if self.rate > 0 else 3600.0


def _network(address: str) -> str:
    """The client key for an address: IPv4 as it is, IPv6 by its /64 network."""
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def _trusted(address: str, proxies: Iterable[str]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return False
    for entry in proxies:
        if entry == "*":
            return True
        try:
            if ip in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            continue
    return False


def client_address(
    peer: str, headers: Iterable[tuple[bytes, bytes]], proxies: tuple[str, ...]
) -> str:
    """The client's address: the peer's, or -- when the peer is a trusted proxy -- the nearest
    address in ``X-Forwarded-For`` that is not itself a trusted proxy."""
    if not proxies or not _trusted(peer, proxies):
        return peer
    chain: list[str] = []
    for name, value in headers:
        if name.lower() == b"x-forwarded-for":
            chain.extend(p.strip() for p in value.decode("latin-1").split(",") if p.strip())
    for hop in reversed(chain):
        if not _trusted(hop, proxies):
            return hop
    return chain[0] if chain else peer


def shared_in(pubsub_url: str) -> bool:
    """Whether processes on ``pubsub_url`` count the per-client limits together (Redis)."""
    return pubsub_url.startswith(("redis://", "rediss://", "unix://"))


#: The per-client budgets' settings: each kind's (rate, burst).
BUDGETS = tuple((f"{kind}_rate", f"{kind}_burst") for kind in _KINDS)


def worker_share(settings: Settings, processes: int) -> Settings:
    """The per-client limits one of ``processes`` workers applies when the workers do not
    count together (``sengoku serve --processes N`` without ``--pubsub redis://``): 1/N of
    every rate and burst and of the open WebSocket connections (rounded down; a burst or a
    cap at least 1), so that a client whose requests are spread over the workers (match
    creations go round them; a match's requests go to its owner) never gets more than the
    configured budget in all (unless a burst or cap under N was raised to 1). A client whose requests all reach one worker gets
    1/N of it. Counted together (Redis), every worker applies the whole budget."""
    if processes <= 1 or shared_in(str(settings.pubsub_url)):
        return settings
    changes: dict[str, Any] = {}
    for rate, burst in BUDGETS:
        changes[rate] = getattr(settings, rate) / processes
        changes[burst] = max(1.0, getattr(settings, burst) / processes)
    changes["ws_per_client"] = max(1, settings.ws_per_client // processes)
    return dataclasses.replace(settings, **changes)


class ClientLimits:
    """Every client's buckets and open WebSocket connections."""

    def __init__(self, settings: Any) -> None:
        self.settings = settings
        self.buckets: OrderedDict[tuple[str, str], TokenBucket] = OrderedDict()
        self.sockets: dict[str, int] = {}
        url = str(getattr(settings, "pubsub_url", "memory://"))
        self.shared: Any = None
        if shared_in(url):
            from sengoku.server.shared_limits import SharedLimits

            self.shared = SharedLimits(url)

    # -- checks that count across every server process when they share Redis ---------------
    async def check(self, kind: str, client: str, cost: float = 1.0) -> float | None:
        """:meth:`take`, counted in Redis when several processes share it."""
        if self.exempt(client):
            return None
        if self.shared is not None:
            rate, burst = self.rates()[kind]
            wait = await self.shared.take(kind, client, rate, burst, cost)
            if wait is not False:
                return float(wait) if wait is not None else None
        return self.take(kind, client, cost)

    async def open_ws(self, client: str) -> str | None:
        """Count a WebSocket connection of ``client``: where it was counted ("shared",
        "local"), or None (nothing counted) if the client holds too many already."""
        if self.exempt(client):
            return "exempt"
        if self.shared is not None:
            ok = await self.shared.open(f"ws:{client}", int(self.settings.ws_per_client))
            if ok is not None:
                return "shared" if ok else None
        return "local" if self.open_socket(client) else None

    async def close_ws(self, client: str, ticket: str) -> None:
        if ticket == "shared":
            await self.shared.close(f"ws:{client}")
        elif ticket == "local":
            self.close_socket(client)

    async def open_spectator(self, match_id: str, watching_here: int) -> str | None:
        """Count a spectator of ``match_id`` (``watching_here``: this process's): "shared",
        "local", or None when the match has ``max_spectators`` already."""
        cap = int(self.settings.max_spectators)
        if self.shared is not None:
            ok = await self.shared.open(f"spec:{match_id}", cap)
            if ok is not None:
                return "shared" if ok else None
        return "local" if watching_here < cap else None

    async def close_spectator(self, match_id: str, ticket: str | None) -> None:
        if ticket == "shared":
            await self.shared.close(f"spec:{match_id}")

    # -- a seat's connections over every process (a claim that the opponent left) -------------
    async def seat_connected(self, match_id: str, seat: int) -> bool:
        """Count a connection of ``seat``; whether it was counted in Redis."""
        if self.shared is None:
            return False
        return bool(await self.shared.open(f"seat:{match_id}:{seat}", 1 << 30))

    async def seat_left(self, match_id: str, seat: int, counted: bool, now: float) -> None:
        if self.shared is not None and counted:
            await self.shared.close(f"seat:{match_id}:{seat}")
            await self.shared.stamp(f"seen:{match_id}:{seat}", now)

    async def seat_presence(self, match_id: str, seat: int) -> tuple[int, float | None] | None:
        """The seat's open connections in every process and when its last one closed; None
        without Redis (the process's own counts are all there is)."""
        if self.shared is None:
            return None
        count = await self.shared.count(f"seat:{match_id}:{seat}")
        if count is None:
            return None
        return count, await self.shared.read_stamp(f"seen:{match_id}:{seat}")

    async def aclose(self) -> None:
        if self.shared is not None:
            await self.shared.aclose()

    def rates(self) -> Mapping[str, tuple[float, float]]:
        s = self.settings
        return {
            kind: (getattr(s, rate), getattr(s, burst))
            for kind, (rate, burst) in zip(_KINDS, BUDGETS, strict=True)
        }

    def client_of(self, scope: Mapping[str, Any]) -> str:
        """The client key of an ASGI connection scope."""
        peer = scope.get("client") or ("?", 0)
        address = client_address(
            str(peer[0]), scope.get("headers", []), tuple(self.settings.trusted_proxies)
        )
        return _network(address)

    def exempt(self, client: str) -> bool:
        return client in self.settings.limit_exempt

    def bucket(self, kind: str, client: str) -> TokenBucket:
        key = (kind, client)
        bucket = self.buckets.get(key)
        if bucket is None:
            rate, burst = self.rates()[kind]
            bucket = self.buckets[key] = TokenBucket(rate, burst)
            while len(self.buckets) > MAX_CLIENTS:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return bucket

    def take(self, kind: str, client: str, cost: float = 1.0) -> float | None:
        """None if ``client`` may go on (``cost`` tokens taken); else the seconds to wait
        before it may."""
        if self.exempt(client):
            return None
        bucket = self.bucket(kind, client)
        return None if bucket.take(cost) else bucket.retry_after(cost)

    def open_socket(self, client: str) -> bool:
        """Count a WebSocket connection; False (counting nothing) if the client has too many."""
        if self.exempt(client):
            return True
        n = self.sockets.get(client, 0)
        if n >= self.settings.ws_per_client:
            return False
        self.sockets[client] = n + 1
        return True

    def close_socket(self, client: str) -> None:
        if self.exempt(client):
            return
        n = self.sockets.get(client, 0) - 1
        if n > 0:
            self.sockets[client] = n
        else:
            self.sockets.pop(client, None)
