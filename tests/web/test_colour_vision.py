"""Sides told apart by shape and label as well as colour (issue 17), in every game, checked
under deuteranopia and protanopia emulation (Chromium's DevTools emulation, the same filter
the screenshots go through), and the last-move and selection marks at 3:1 against the board.

For each game one piece (unit, marker, Sonae) of each side is screenshotted; its ink (the
pixels that differ from the clip's background) must differ between the sides under each
emulation, and each side must carry a non-colour cue (a shape, an orientation or a mark) and
an accessible name that says whose it is.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from tests.waiting import NEXT_FRAME
from tests.web.helpers import ARTIFACTS, shot
from tests.web.labels_setup import create, decode_png, open_as, play_until

VISIONS = ("none", "deuteranopia", "protanopia")

#: Per game: one piece of each side (``sides``), where its side's colour is painted
#: (``paint``; with ``dark``, as an outline or mark on a light ground) and the sides' names.
GAMES: dict[str, dict[str, Any]] = {
    "gungi": {
        "sides": [
            '.board .piece.white[data-piece="pawn"]',
            '.board .piece.black[data-piece="pawn"]',
        ],
        "paint": [
            '.board .piece.white[data-piece="pawn"] .piece-body',
            '.board .piece.black[data-piece="pawn"] .piece-body',
        ],
        "dark": False,
        "names": ["White", "Black"],
    },
    "gunshi": {
        "sides": ['.gunit[data-owner="0"]', '.gunit[data-owner="1"]'],
        "dark": True,
        "names": ["Red", "Blue"],
    },
    "gunkimono": {
        "sides": ['.honor-marker[data-seat="0"]', '.honor-marker[data-seat="1"]'],
        "dark": True,
        "names": ["Player 1", "Player 2"],
    },
    "sashimono": {
        "sides": [".s-sonae.army-west .s-sonae-mark", ".s-sonae.army-east .s-sonae-mark"],
        "dark": True,
        "names": ["West", "East"],
    },
}

#: What an element shows besides colour, and whose it says it is (its accessible name: an
#: aria-label, an SVG <title>, or the label of the group it belongs to).
CUES = """sel => {
  const e = document.querySelector(sel);
  const named = e.closest('[aria-label]');
  const title = e.querySelector(':scope > title');
  const name = (title ? title.textContent : '') + ' ' + (named ? named.getAttribute('aria-label') : '');
  let shape = '';
  if (e.matches('.piece')) {
    // Gungi: the pentagon's tip points at the opponent; Black's has an inner outline.
    const pts = e.querySelector('.piece-body').getAttribute('points').split(' ').map(p => p.split(',').map(Number));
    const mid = pts.reduce((s, p) => s + p[1], 0) / pts.length;
    shape = (pts[0][1] < mid ? 'up' : 'down') + (e.querySelector('.piece-inner') ? '+inner' : '');
  } else if (e.matches('.gunit')) {
    shape = e.firstElementChild.tagName;
  } else if (e.matches('.honor-marker')) {
    shape = e.querySelector('[data-shape]').dataset.shape;
  } else {
    shape = e.textContent;
  }
  return {name, shape};
}"""

#: WCAG contrast of the marks, from the styles the page applies: each mark is drawn in a probe
#: (so no game has to reach a state that shows it) and compared with each background colour of
#: the board, composited over it when translucent. A mark made of two lines (a dark and a light
#: one) counts the better of the two.
CONTRAST = """([board, marks, backgrounds]) => {
  // The first colour of a value (a box-shadow lists several, with their lengths).
  const parse = (c) => { const v = c.match(/rgba?\\([^)]*\\)/)[0].match(/[\\d.]+/g).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
  const over = (fg, bg) => [0, 1, 2].map(i => fg[i] * fg[3] + bg[i] * (1 - fg[3]));
  const lum = (c) => { const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const host = document.querySelector(board);
  const bgs = backgrounds.map(c => parse(c));
  const out = {};
  for (const [name, probes] of Object.entries(marks)) {
    const colours = [];
    for (const [wrapper, tag, cls, prop] of probes) {
      const svgNS = 'http://www.w3.org/2000/svg';
      const make = (t) => host.namespaceURI === svgNS ? document.createElementNS(svgNS, t) : document.createElement(t);
      const e = make(tag);
      e.setAttribute('class', cls);
      let top = e;
      if (wrapper) {
        top = make(host.namespaceURI === svgNS ? 'g' : 'div');
        top.setAttribute('class', wrapper);
        top.append(e);
      }
      // The mark as it stays, not as its entrance animation starts.
      e.style.animation = top.style.animation = 'none';
      host.append(top);
      const colour = parse(getComputedStyle(e)[prop]);
      const opacity = Number(getComputedStyle(e).opacity) * Number(getComputedStyle(top).opacity);
      top.remove();
      colour[3] *= opacity;
      colours.push(colour);
    }
    // On each background the better line of the mark counts; the worst background decides.
    out[name] = Math.min(...bgs.map(bg => Math.max(...colours.map(c => ratio(over(c, bg), bg)))));
  }
  return out;
}"""

#: The marks of each game: (wrapper class, element, class, colour property) probes, the board they go in,
#: and the colours they are seen against (the board's squares, cells, tiles or table).
MARKS: dict[str, dict[str, Any]] = {
    "gungi": {
        "board": ".board-area svg.board",
        "marks": {
            "last move": [
                ["last-move last-to", "rect", "last-halo", "stroke"],
                ["last-move last-to", "rect", "last-line", "stroke"],
            ],
            "target": [["target", "circle", "", "fill"]],
            "capture target": [["target capture", "rect", "", "stroke"]],
            "selection": [["", "rect", "selected", "fill"], ["", "rect", "selected", "stroke"]],
        },
        "backgrounds": "() => [...document.querySelectorAll('#wood stop')].map(s => getComputedStyle(s).stopColor)",
    },
    "gunshi": {
        "board": ".board-area svg.board",
        "marks": {
            "last move": [["", "rect", "gs-last", "stroke"]],
            "target": [["", "rect", "gtarget", "stroke"]],
            "attack target": [["", "rect", "gtarget attack", "stroke"]],
            "focus": [["", "rect", "gfocus", "stroke"]],
        },
        "backgrounds": "() => [...new Set([...document.querySelectorAll('.gcell')].map(c => getComputedStyle(c).fill))]",
    },
    "gunkimono": {
        "board": ".board-area svg.board",
        "marks": {
            "last move": [
                ["", "rect", "last-outer", "stroke"],
                ["", "rect", "last-inner", "stroke"],
            ],
            "target": [["", "rect", "target-under", "stroke"], ["", "rect", "target", "stroke"]],
        },
        "backgrounds": "() => [...new Set([...document.querySelectorAll('.printed-bg, .printed-paper, .half-bg')].map(c => getComputedStyle(c).fill))]",
    },
    "sashimono": {
        "board": ".s-sonae",
        "marks": {
            "target": [["", "div", "s-cell s-target", "outlineColor"]],
            "focus": [["", "div", "s-cell s-focus", "outlineColor"]],
            "last move": [["", "div", "s-cell s-changed", "boxShadow"]],
        },
        "backgrounds": "() => [getComputedStyle(document.querySelector('.s-sonae')).backgroundColor, getComputedStyle(document.querySelector('.s-side')).backgroundColor]",
    },
}


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG relative luminance of an sRGB colour."""
    lin = [
        c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb
    ]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def side_colour(page: Page, selector: str, dark: bool) -> tuple[int, int, int]:
    """The colour a side's piece is painted in, as the screen shows it: the most common colour
    of the element's clip (with ``dark``, among its dark, coloured pixels only: the side's
    colour drawn as an outline or a mark on a light ground)."""
    # The element's own screenshot: scrolled into view, clipped to its box. A redraw (the
    # window resized, the table polled) may replace the element being shot: shoot the new one.
    for _ in range(20):
        try:
            image = page.locator(selector).first.screenshot()
            break
        except PlaywrightError as e:
            if "not attached" not in str(e):
                raise
            page.evaluate(NEXT_FRAME)
    else:
        raise AssertionError(f"{selector} was replaced by a redraw on 20 shots running")
    _, _, pixels = decode_png(image)
    if dark:
        # Dark and coloured: not the near-black ink of letters and Shields both sides share.
        pixels = [p for p in pixels if luminance(p) < 0.3 and max(p) - min(p) >= 24] or pixels
    return Counter(pixels).most_common(1)[0][0]


def open_game(new_page: Any, base_url: str, game: str) -> Page:
    """A page of ``game`` with both sides' pieces on screen, as seat 0."""
    m = create(base_url, game)
    if game == "gunshi":
        play_until(base_url, m, lambda v: v["phase"] == "battle")
    elif game == "sashimono":
        play_until(base_url, m, lambda v: v.get("turn", 0) >= 1)
    page: Page = new_page(1920, 1080)
    open_as(page, m, 0)
    for selector in GAMES[game]["sides"]:
        page.locator(selector).first.wait_for()
    # The renderer's own stylesheet is linked when its module loads: wait until it applies.
    page.wait_for_function(
        "() => [...document.querySelectorAll('link[data-renderer-style]')].every(l => l.sheet)"
    )
    page.evaluate("document.fonts.ready")
    return page


@pytest.mark.parametrize("game", list(GAMES))
def test_sides_differ_by_shape_label_and_colour_under_colour_blindness(
    new_page: Any, base_url: str, game: str
) -> None:
    spec = GAMES[game]
    page = open_game(new_page, base_url, game)
    # Besides colour: a different shape or mark, and a name that says whose.
    cues = [page.evaluate(CUES, sel) for sel in spec["sides"]]
    assert cues[0]["shape"] != cues[1]["shape"], cues
    for cue, name in zip(cues, spec["names"], strict=True):
        assert name in cue["name"], (name, cue)
    cdp = page.context.new_cdp_session(page)
    seen: dict[str, list[tuple[int, int, int]]] = {}
    paint = spec.get("paint", spec["sides"])
    for width, height in ((1920, 1080), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        for vision in VISIONS:
            cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": vision})
            page.evaluate(NEXT_FRAME)  # drawn with the new vision
            seen[vision] = [side_colour(page, sel, spec["dark"]) for sel in paint]
            page.evaluate("window.scrollTo(0, 0)")
            shot(page, f"vision-{game}-{vision}-{width}")
            gap = math.dist(*seen[vision])
            assert gap >= 60, (
                f"{game} at {width}px under {vision}: the sides' colours {seen[vision]}"
                f" differ by {gap:.0f}"
            )
    # The emulation took effect (a red or a green side changes colour under it; Gungi's sides
    # are ivory and ink, unchanged).
    assert game == "gungi" or any(
        math.dist(a, b) > 10
        for v in VISIONS[1:]
        for a, b in zip(seen["none"], seen[v], strict=True)
    ), seen


@pytest.mark.parametrize("game", list(MARKS))
def test_last_move_and_selection_marks_contrast_with_the_board(
    new_page: Any, base_url: str, game: str
) -> None:
    spec = MARKS[game]
    page = open_game(new_page, base_url, game)
    backgrounds = page.evaluate(spec["backgrounds"])
    assert backgrounds, "no background colour found"
    ratios = page.evaluate(CONTRAST, [spec["board"], spec["marks"], backgrounds])
    for mark, ratio in ratios.items():
        assert ratio >= 3, (
            f"{game}: the {mark} mark reaches only {ratio:.2f}:1 against {backgrounds}"
        )


#: Gunkimono's board drawn again beside the live one from the match's own view, with a
#: stronghold of each player put on it (reaching strongholds in play takes a whole game).
STRONGHOLDS = """async (id) => {
  const { default: renderer } = await import('/js/games/gunkimono.js');
  const view = (await (await fetch(`/api/matches/${id}`)).json()).view;
  view.players.forEach((_, seat) => { view.board.strongholds[seat * 12] = seat; });
  const box = document.createElement('div');
  box.id = 'stronghold-probe';
  box.style.width = '1100px';
  document.querySelector('.board-area').prepend(box);
  renderer.create(box).update({ view, legal: [], seat: null, interactive: false, labels: 'kanji',
    flipped: false, send: () => {} });
  return [...box.querySelectorAll('.stronghold-mark')].map((m) => ({
    seat: Number(m.dataset.seat), shape: m.querySelector('[data-shape]').dataset.shape,
    name: m.querySelector(':scope > title').textContent }));
}"""


def test_five_gunkimono_players_strongholds_and_markers_differ_by_shape(
    new_page: Any, base_url: str
) -> None:
    m = create(base_url, "gunkimono", seats=5, players=5)
    page: Page = new_page(1280, 900)
    open_as(page, m, 0)
    page.locator(".honor-marker").first.wait_for()
    markers = page.evaluate(
        "() => [...document.querySelectorAll('.honor-track .honor-marker')].map(m =>"
        " [m.dataset.seat, m.querySelector('[data-shape]').dataset.shape])"
    )
    shapes = {seat: shape for seat, shape in markers}
    assert len(shapes) == 5 and len(set(shapes.values())) == 5, shapes
    marks = page.evaluate(STRONGHOLDS, m["id"])
    assert sorted(s["seat"] for s in marks) == [0, 1, 2, 3, 4], marks
    assert len({s["shape"] for s in marks}) == 5, marks
    for s in marks:
        assert f"Player {s['seat'] + 1}" in s["name"], s
        # The same shape as the player's honor markers.
        assert s["shape"] == shapes[str(s["seat"])], (s, shapes)
    cdp = page.context.new_cdp_session(page)
    for vision in VISIONS:
        cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": vision})
        page.evaluate(NEXT_FRAME)  # drawn with the new vision
        page.locator("#stronghold-probe .honor-track").screenshot(
            path=str(ARTIFACTS / f"vision-gunkimono-honor-{vision}.png")
        )
        shot(page, f"vision-gunkimono-5-{vision}")
        page.locator("#stronghold-probe .kimono-board").screenshot(
            path=str(ARTIFACTS / f"vision-gunkimono-strongholds-{vision}.png")
        )
