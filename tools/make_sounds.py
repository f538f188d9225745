"""Write the client's sounds (sengoku/web/sounds/*.wav) from code: nothing recorded, nothing
downloaded, so they are ours to ship (CC0, like the rest of the package's data).

Each sound is a few enveloped partials of a plain synthesis: a wooden "tok" for a move (a
piece set down on a board), two knocks for a capture, a soft two-note chime for your turn,
and a short high double beep for low time. Run ``python tools/make_sounds.py`` to write them
again; the output is the same bytes every time (a test checks the files are these).
"""

from __future__ import annotations

import math
import struct
import sys
import wave
from pathlib import Path

RATE = 22_050
OUT = Path(__file__).resolve().parents[1] / "sengoku" / "web" / "sounds"

#: name -> notes (start s, length s, frequency Hz, loudness 0-1, decay per second)
SOUNDS: dict[str, list[tuple[float, float, float, float, float]]] = {
    "move": [(0.0, 0.09, 880.0, 0.5, 45.0), (0.0, 0.09, 1320.0, 0.25, 60.0)],
    "capture": [
        (0.0, 0.08, 700.0, 0.55, 45.0),
        (0.09, 0.1, 520.0, 0.6, 35.0),
        (0.09, 0.1, 1040.0, 0.2, 50.0),
    ],
    "turn": [(0.0, 0.25, 660.0, 0.35, 9.0), (0.12, 0.35, 990.0, 0.3, 7.0)],
    "lowtime": [(0.0, 0.07, 1760.0, 0.3, 12.0), (0.12, 0.07, 1760.0, 0.3, 12.0)],
}


def samples(notes: list[tuple[float, float, float, float, float]]) -> list[int]:
    length = max(start + dur for start, dur, *_ in notes) + 0.02
    out = [0.0] * int(length * RATE)
    for start, dur, freq, loud, decay in notes:
        first = int(start * RATE)
        for i in range(int(dur * RATE)):
            t = i / RATE
            attack = min(1.0, t / 0.004)  # no click at the start
            out[first + i] += (
                loud * attack * math.exp(-decay * t) * math.sin(2 * math.pi * freq * t)
            )
    return [max(-32767, min(32767, round(v * 32767 * 0.8))) for v in out]


def write(name: str) -> Path:
    path = OUT / f"{name}.wav"
    data = samples(SOUNDS[name])
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(struct.pack(f"<{len(data)}h", *data))
    return path


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in SOUNDS:
        print(write(name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
