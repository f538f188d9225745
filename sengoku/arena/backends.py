"""Where arena games run: in this process, in a local process pool, or as Ray tasks.

Every backend runs the same function (:func:`sengoku.arena.match.play_game`) on the same
picklable tasks and yields results as they finish (in any order); the tournament puts them
back in order. Closing the iterator cancels what has not started.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from sengoku.arena.match import play_game
from sengoku.core.game import SengokuError

Task = dict[str, Any]
Result = dict[str, Any]


class Backend:
    name = "backend"

    def run(self, tasks: Iterable[Task]) -> Iterator[Result]:
        raise SengokuError(f"backend {self.name!r} cannot run games")

    def describe(self) -> dict[str, Any]:
        return {"name": self.name}


class LocalBackend(Backend):
    """``workers`` processes (1: play in this process, no pool)."""

    name = "local"

    def __init__(self, workers: int = 1) -> None:
        if workers < 1:
            raise SengokuError(f"--workers must be at least 1, got {workers}")
        self.workers = workers

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "workers": self.workers}

    def run(self, tasks: Iterable[Task]) -> Iterator[Result]:
        if self.workers == 1:
            for task in tasks:
                yield play_game(task)
            return
        pending: set[Future[Result]] = set()
        source = iter(tasks)
        with ProcessPoolExecutor(max_workers=self.workers) as pool:
            try:
                exhausted = False
                while True:
                    while not exhausted and len(pending) < 2 * self.workers:
                        upcoming: Task | None = next(source, None)
                        if upcoming is None:
                            exhausted = True
                            break
                        pending.add(pool.submit(play_game, upcoming))
                    if not pending:
                        return
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        yield future.result()
            finally:
                for future in pending:
                    future.cancel()


class RayBackend(Backend):
    """Ray tasks on the cluster at ``address`` (None: the running Ray, else a local one).

    A local Ray started here gets the driver's import path, so games defined outside the
    installed package (a test's game, say) import in its workers too.
    """

    name = "ray"

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise SengokuError("the ray backend needs Ray: pip install 'sengoku[ray]'") from None
        self.ray = ray
        self.address = address
        self.num_cpus = num_cpus
        self.started = False

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "address": self.address}

    def _connect(self) -> None:
        ray = self.ray
        if ray.is_initialized():
            return
        if self.address:
            ray.init(address=self.address, log_to_driver=False)
        else:
            path = os.pathsep.join(p for p in sys.path if p and os.path.isdir(p))
            ray.init(
                num_cpus=self.num_cpus,
                include_dashboard=False,
                log_to_driver=False,
                runtime_env={"env_vars": {"PYTHONPATH": path}},
            )
        self.started = True

    def run(self, tasks: Iterable[Task]) -> Iterator[Result]:
        ray = self.ray
        self._connect()
        remote = ray.remote(play_game)
        limit = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
        source = iter(tasks)
        pending: list[Any] = []
        try:
            exhausted = False
            while True:
                while not exhausted and len(pending) < limit:
                    task = next(source, None)
                    if task is None:
                        exhausted = True
                        break
                    pending.append(remote.remote(task))
                if not pending:
                    return
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    yield ray.get(ref)
        finally:
            for ref in pending:
                ray.cancel(ref)
            if self.started:
                ray.shutdown()
                self.started = False


def make_backend(name: str, workers: int = 1, address: str | None = None) -> Backend:
    if name == "local":
        return LocalBackend(workers)
    if name == "ray":
        return RayBackend(address, num_cpus=workers if not address else None)
    raise SengokuError(f"unknown backend {name!r}; available: local, ray")
