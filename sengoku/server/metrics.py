"""What one server process exposes to Prometheus (``GET /metrics``), through the maintained
client library ``prometheus-client``.

Each process keeps its own registry and answers for itself: several processes (the nodes
behind a balancer, or the workers of ``serve --processes N``) are scraped one by one, each
on its own port, and summed in Prometheus (docs/server.md, "Metrics"). Nothing here names a
match, a seat, a player or an address: labels are the game's name and who acted (a player
or the AI), both few, so the series stay bounded however many matches are played, and no
value says anything about hidden information.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST

__all__ = ["CONTENT_TYPE_LATEST", "Metrics"]

#: Bounds of the action latency histogram, in seconds: an action takes a few milliseconds
#: when the process has a core to itself, tens to hundreds under load (docs/server.md, Load).
ACTION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """The process's metrics. Counters and the histogram are updated where things happen;
    the gauges read the service's own state when scraped (``set_function``), so keeping
    them costs nothing between scrapes."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        # CPU seconds, resident memory, open file descriptors of this process (Linux).
        ProcessCollector(registry=self.registry)
        self.actions = Counter(
            "sengoku_actions",
            "Actions played and stored by this process (refused ones not counted)",
            ["game", "by"],
            registry=self.registry,
        )
        self.action_seconds = Histogram(
            "sengoku_action_seconds",
            "Server time of an action, from the request to the stored answer "
            "(waiting for the match's lock and the commit included)",
            buckets=ACTION_BUCKETS,
            registry=self.registry,
        )
        self.websockets = Gauge(
            "sengoku_websockets_open",
            "WebSocket connections to matches open on this process",
            registry=self.registry,
        )
        self._queue = Gauge(
            "sengoku_work_jobs",
            "Jobs waiting for or running on a worker pool of this process "
            "(ai: AI decisions; replay: replays and record imports)",
            ["pool"],
            registry=self.registry,
        )
        self._matches = Gauge(
            "sengoku_matches_in_memory",
            "Matches this process holds in memory",
            registry=self.registry,
        )

    def watch(self, matches: Callable[[], float], queues: dict[str, Callable[[], float]]) -> None:
        """Read the gauges from the service: its matches in memory and its pools' jobs."""
        self._matches.set_function(matches)
        for pool, depth in queues.items():
            self._queue.labels(pool).set_function(depth)

    def action(self, game: str, by_ai: bool, seconds: float) -> None:
        self.actions.labels(game, "ai" if by_ai else "player").inc()
        self.action_seconds.observe(seconds)

    def text(self) -> bytes:
        """The exposition in Prometheus' text format."""
        return generate_latest(self.registry)
