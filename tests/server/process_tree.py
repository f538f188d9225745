"""The processes a server started, read from ``/proc`` (Linux), so a test can see that they
die with it and reap any that do not.

A process is named by its pid and its start time (so a pid used again by another process
later is not mistaken for it); a zombie counts as gone (it runs nothing, and who reaps it is
up to whatever adopted it).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

Proc = tuple[int, int]  # (pid, start time in clock ticks since boot)


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of ``pid``, or None when there is no such process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    # "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0], int(fields[19])


def descendants(pid: int) -> list[Proc]:
    """Every process below ``pid`` now: its children, theirs, and so on."""
    children: dict[int, list[Proc]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (st := _stat(int(entry))) is not None:
            children.setdefault(st[0], []).append((int(entry), st[2]))
    found: list[Proc] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child[0])
    return found


def command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def alive(procs: list[Proc]) -> list[Proc]:
    """Those of ``procs`` that still run (not gone, not a zombie, not a newer namesake)."""
    out = []
    for pid, start in procs:
        st = _stat(pid)
        if st is not None and st[2] == start and st[1] not in "ZX":
            out.append((pid, start))
    return out


def wait_gone(procs: list[Proc], timeout: float = 60.0) -> list[Proc]:
    """Wait until none of ``procs`` runs; those still running after ``timeout`` (a safety net,
    not a measure) are returned."""
    deadline = time.monotonic() + timeout
    while (left := alive(procs)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def reap(procs: list[Proc]) -> None:
    """Kill (SIGKILL) whichever of ``procs`` still run and wait until they are gone: a test
    leaves nothing behind, even when what it tests failed."""
    for pid, _start in alive(procs):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    wait_gone(procs, timeout=30)


def kill_tree(proc: subprocess.Popen[bytes]) -> None:
    """``kill -9`` of ``proc``, then wait for it, and reap whatever it had started (which
    should die with it: this makes sure a test leaves nothing behind either way)."""
    procs = descendants(proc.pid)
    proc.kill()
    proc.wait(timeout=30)
    reap(procs)


def interrupt_tree(proc: subprocess.Popen[bytes], grace: float = 15.0) -> None:
    """Stop ``proc`` with SIGINT (SIGKILL past ``grace`` seconds), and reap its children."""
    procs = descendants(proc.pid)
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    reap(procs)
