"""A test hook that moves a real server process's clock: ``SENGOKU_TEST_CLOCK_FILE``.

FOR TESTS ONLY. When ``Settings.test_clock_file`` names a file, the server's time
(``Settings.now``: clocks, deadlines, sessions, heartbeats) is the machine's wall-clock time
plus the number of seconds the file holds, read again at every look at the time, so a test
lets the days of a turn-based game pass at once on a ``sengoku serve`` process. The server
logs a warning at start while it is set; a production server never sets it (it is off
unless that variable names a file).
"""

from __future__ import annotations

import logging
import math
import time
from pathlib import Path

log = logging.getLogger("sengoku.server")

#: What the warning at start says (the tests look for it).
WARNING = (
    "SENGOKU_TEST_CLOCK_FILE is set (%s): this server's clock is moved by that file. "
    "This is a test hook: never set it in production"
)


class FileClock:
    """``time.time()`` plus the seconds the file holds (none while it is missing).

    A file being rewritten (empty, or not a number) leaves the last offset read in force."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)
        self.offset = 0.0

    def read_offset(self) -> float:
        try:
            text = self.path.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            return 0.0
        except OSError:
            return self.offset
        try:
            value = float(text)
        except ValueError:
            return self.offset
        if math.isfinite(value):
            self.offset = value
        return self.offset

    def __call__(self) -> float:
        return time.time() + self.read_offset()


def warn(path: str) -> None:
    log.warning(WARNING, path)
