"""Child processes that die with the server: its AI and replay pools, and the front's workers.

A server killed with ``kill -9`` runs no clean-up, so its children must go by themselves.
On Linux each child asks the kernel for a signal when its parent dies (``prctl`` with
``PR_SET_PDEATHSIG``): a pool worker gets SIGKILL (it holds nothing worth saving), a front's
worker SIGTERM (it stops as when the front stops it). multiprocessing's resource tracker,
which the pools start, reads a pipe whose other ends only the server and its pool workers
hold: once they are gone it reads the end of the pipe and exits by itself.

Elsewhere (macOS, Windows) there is no such signal; there the workers live on until their
pipes to the server break, as before.

The signal is sent when the *thread* that started the child ends. Pools are started from
the event loop's thread (``submit``), which lives as long as the server.
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import multiprocessing
import multiprocessing.context
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

#: ``prctl`` option numbers (linux/prctl.h).
PR_SET_PDEATHSIG = 1


def die_with_parent(sig: int, parent: int) -> None:
    """Have this process get ``sig`` when its parent (pid ``parent``) dies; exit at once if
    it died already (then this process was adopted before it could ask). Linux only: a no-op
    elsewhere."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"prctl(PR_SET_PDEATHSIG): {os.strerror(errno)}")
    if os.getppid() != parent:
        os._exit(1)


def _start_worker(parent: int, initializer: Callable[[], None] | None) -> None:
    """A pool worker's initializer: die with the server, then the pool's own initializer."""
    die_with_parent(signal.SIGKILL, parent)
    if initializer is not None:
        initializer()


class _TrackingSpawn(multiprocessing.context.SpawnContext):
    """The spawn context, keeping the processes it starts: ``ProcessPoolExecutor`` has no
    public way to name its workers, and a pool must kill a worker stuck past its limit."""

    def __init__(self) -> None:
        super().__init__()
        self.started: list[multiprocessing.context.SpawnProcess] = []

    def Process(  # type: ignore[override]  # noqa: N802 - multiprocessing's name
        self, *args: Any, **kwargs: Any
    ) -> multiprocessing.context.SpawnProcess:
        process = multiprocessing.context.SpawnProcess(*args, **kwargs)
        self.started = [p for p in self.started if p.exitcode is None]  # forget the dead
        self.started.append(process)
        return process


class ProcessPool(concurrent.futures.ProcessPoolExecutor):
    """A pool of spawned workers that die with the server and can be killed by the server."""

    def __init__(self, workers: int, initializer: Callable[[], None] | None) -> None:
        self._spawning = _TrackingSpawn()
        super().__init__(
            max_workers=workers,
            mp_context=self._spawning,
            initializer=_start_worker,
            initargs=(os.getpid(), initializer),
        )

    def worker_pids(self) -> list[int]:
        """The pids of the workers alive now."""
        return [p.pid for p in self._spawning.started if p.pid is not None and p.is_alive()]

    def kill_workers(self) -> None:
        """Kill every worker (SIGKILL) and drop the pool: a job running now fails with
        ``BrokenProcessPool``, the next pool starts fresh workers."""
        for process in self._spawning.started:
            if process.is_alive():
                process.kill()
        self.shutdown(wait=False, cancel_futures=True)
