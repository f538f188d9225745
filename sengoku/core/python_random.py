"""What a native core needs to draw the numbers Python's ``random.Random(seed)`` draws.

The native cores deal games (shuffles of tiles, decks) exactly as the Python engines deal
them from the same seed, with CPython's generator mirrored in C++
(``sengoku/native/python_random.hpp``); CPython seeds it with the 32-bit words of the seed's
absolute value, which :func:`seed_key` makes.
"""

from __future__ import annotations


def seed_key(seed: int) -> list[int]:
    """The 32-bit words CPython seeds ``random.Random(seed)`` with (the absolute value's,
    lowest first; one word for 0): what a native core's deal takes."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"a seed is a whole number (an int), not {type(seed).__name__}")
    value = abs(seed)
    return [(value >> (32 * i)) & 0xFFFFFFFF for i in range(max(1, -(-value.bit_length() // 32)))]


__all__ = ["seed_key"]
