"""Positions for the label and colour-vision tests: a match of two local seats driven through
the API (each seat's first legal choice) to a point where both sides' pieces are on screen,
then opened in the browser as one seat (its token in localStorage) or as a spectator."""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

from tests.web.api import API


def create(base_url: str, game: str, seats: int = 2, **options: Any) -> dict[str, Any]:
    r = API.post(
        f"{base_url}/api/matches",
        json={"game": game, "options": options, "seats": [{"kind": "local"}] * seats},
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def snapshot(base_url: str, match: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {match['tokens'][str(seat)]}"} if seat is not None else {}
    r = API.get(f"{base_url}/api/matches/{match['id']}", headers=headers)
    assert r.status_code == 200, r.text
    return dict(r.json())


def play_until(
    base_url: str,
    match: dict[str, Any],
    done: Callable[[dict[str, Any]], bool],
    limit: int = 200,
) -> dict[str, Any]:
    """Each seat to act plays its first legal choice until ``done(view)``; the last view."""
    for _ in range(limit):
        public = snapshot(base_url, match)
        if done(public["view"]):
            return dict(public["view"])
        seat = public["to_act"]
        snap = snapshot(base_url, match, seat)
        r = API.post(
            f"{base_url}/api/matches/{match['id']}/actions",
            json={"action": snap["legal"][0]["action"], "ply": snap["ply"]},
            headers={"Authorization": f"Bearer {match['tokens'][str(seat)]}"},
        )
        assert r.status_code == 200, r.text
    raise AssertionError(f"not reached in {limit} choices")


def open_as(page: Page, match: dict[str, Any], seat: int | None, labels: str = "kanji") -> None:
    """The play page of ``match`` as ``seat`` (None: a spectator), labels as given."""
    page.goto("/")
    tokens = {match["id"]: {str(seat): match["tokens"][str(seat)]}} if seat is not None else {}
    page.evaluate(
        "([t, l]) => { localStorage.setItem('sengoku.tokens', t);"
        " localStorage.setItem('sengoku.labels', l); }",
        [json.dumps(tokens), labels],
    )
    page.goto(f"/play/{match['id']}")
    page.wait_for_selector(".board-area .board, .board-area .s-table")


def decode_png(data: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
    """(width, height, RGB pixels row by row) of an 8-bit RGB or RGBA, non-interlaced PNG (what
    Chromium's screenshots are): enough to sample colours without an image library."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos = 8
    idat = b""
    width = height = 0
    channels = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * channels
    prev = bytearray(stride)
    pixels: list[tuple[int, int, int]] = []
    for y in range(height):
        line = raw[y * (stride + 1) : (y + 1) * (stride + 1)]
        kind, row = line[0], bytearray(line[1:])
        for i in range(stride):
            a = row[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 2:
                row[i] = (row[i] + b) & 255
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                row[i] = (row[i] + pred) & 255
        prev = row
        pixels.extend(
            (row[x * channels], row[x * channels + 1], row[x * channels + 2]) for x in range(width)
        )
    return width, height, pixels
