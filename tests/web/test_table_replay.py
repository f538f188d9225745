"""Replays (issue 17): a step on a long Gunshi game under 30 ms, autoplay, the text export
in the game's notation."""

from __future__ import annotations

import random
import statistics
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from sengoku import load_game
from sengoku.core.record import GameRecord

#: The issue's bound for one step of a replay.
STEP_MS = 30.0


def long_gunshi_record() -> dict[str, Any]:
    """A random Gunshi game of 500+ plies (the issue's "400-900 plies")."""
    game = load_game("gunshi")
    for seed in range(20):
        state = game.new_state(seed)
        rng = random.Random(seed)
        actions = []
        while not state.is_terminal() and len(actions) < 2000:
            action = rng.choice(state.legal_actions())
            actions.append(str(action))
            state.apply(action)
        if len(actions) >= 500 and state.is_terminal():
            outcome = state.outcome()
            assert outcome is not None
            record = GameRecord(
                game="gunshi",
                version=game.version,
                options={},
                seed=seed,
                players=["Aki", "Ben"],
                actions=actions,
                result=outcome.to_json(),
            )
            return record.to_json()
    raise AssertionError("no long random Gunshi game in 20 seeds")


#: Steps forward by the keyboard and times each (the step's work is synchronous).
STEP_TIMES = """(n) => {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
    times.push(performance.now() - t);
  }
  return times;
}"""


def test_a_long_replay_steps_fast_autoplays_and_exports_text(new_page: Any, base_url: str) -> None:
    record = long_gunshi_record()
    plies = len(record["actions"])
    r = httpx.post(f"{base_url}/api/records", json=record, timeout=60)
    assert r.status_code == 201, r.text
    rid = r.json()["id"]
    page: Page = new_page(1280, 900)
    page.goto(f"/replay/{rid}")
    expect(page.locator("#replay-counter")).to_have_text(f"0 / {plies}", timeout=60_000)
    assert page.locator("#moves li[data-ply]").count() == plies
    # Warm up (first paint of each kind of position), then time 60 steps in mid-game.
    page.evaluate("(n) => { for (let i = 0; i < n; i++) document.body.dispatchEvent("
                  "new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true })); }", 200)  # fmt: skip
    times = page.evaluate(STEP_TIMES, 60)
    median = statistics.median(times)
    worst = max(times)
    print(
        f"\nreplay step on a {plies}-ply Gunshi game: median {median:.1f} ms, worst {worst:.1f} ms"
    )
    assert median < STEP_MS, f"a step takes {median:.1f} ms (median of 60)"
    expect(page.locator("#replay-counter")).to_have_text(f"260 / {plies}")
    expect(page.locator("#moves li.current")).to_have_attribute("data-ply", "260")
    assert page.locator("#moves li.current").count() == 1
    # The move list is clickable.
    page.locator('#moves li[data-ply="3"]').click()
    expect(page.locator("#replay-counter")).to_have_text(f"3 / {plies}")

    # Autoplay moves on by itself, and pauses.
    page.select_option("#replay-speed", "400")
    page.click("#replay-play")
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#replay-counter")).to_have_text(f"5 / {plies}", timeout=5_000)
    page.click("#replay-play")
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
    stopped = page.locator("#replay-counter").inner_text()
    page.wait_for_timeout(900)
    assert page.locator("#replay-counter").inner_text() == stopped

    # The text export: a header and numbered pairs in the game's notation.
    with page.expect_download() as info:
        page.click("#export-text")
    path = info.value.path()
    text = path.read_text(encoding="utf-8")
    assert info.value.suggested_filename.endswith(".txt")
    assert "Players: " in text and "Aki" in text and "Result: " in text
    assert "shogun" in text.lower() or "invasion" in text.lower()
    lines = [ln for ln in text.splitlines() if ln[:1].isdigit()]
    if len(lines) < plies:  # strictly alternating: numbered pairs
        assert lines[0] == f"1. {record['actions'][0]}  {record['actions'][1]}"
        moves = [m for ln in lines for m in ln.split(". ", 1)[1].split("  ")]
        assert moves == record["actions"]
    else:  # Gunshi: a seat takes several decisions in a row, one numbered line each
        assert len(lines) == plies
        assert [ln.split(": ", 1)[1] for ln in lines] == record["actions"]
        assert lines[0].startswith("1. ") and ": " in lines[0]
