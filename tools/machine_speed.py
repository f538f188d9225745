"""Print how fast this machine runs plain Python, before the test suite: the suite's time
(20 minutes on 2 cores, README's contract) is read beside it.

The same suite took 931-1,072 s on some days and 2,124-2,598 s on others (1 December 2026),
on machines of the same kind: the figure printed here is what tells a slower suite from a
slower machine. On 1 December 2026 (04:50 UTC, load 2.4) this machine printed 1.05 s.
"""

from __future__ import annotations

import os
import time

#: Additions in the timed loop: about a second on a current desktop core.
LOOP = 20_000_000


def loop_seconds() -> float:
    """CPU seconds of a plain ``for`` loop of ``LOOP`` additions (the best of three)."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        total = 0
        for i in range(LOOP):
            total += i
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    load = os.getloadavg()[0]
    print(
        f"machine speed: {LOOP:,} Python additions in {loop_seconds():.2f} CPU s "
        f"(best of 3; load {load:.1f} on {os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    main()
