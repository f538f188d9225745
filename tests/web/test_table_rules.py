"""Rules in the game (issue 17): the rules ship in the package, agree with docs/rules, and a
"Rules" panel on every game page shows them with a reference of the game's catalog."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

import sengoku.web
from tests.web.api import API
from tests.web.helpers import shot
from tests.web.test_table_features import base_url, create  # noqa: F401  (fixture)

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "rules"
SHIPPED = Path(sengoku.web.__file__).resolve().parent / "rules"


def test_the_shipped_rules_are_the_docs() -> None:
    docs = {p.name: p.read_bytes() for p in DOCS.glob("*.md")}
    shipped = {p.name: p.read_bytes() for p in SHIPPED.glob("*.md")}
    assert docs, "docs/rules is empty"
    assert shipped == docs, "sengoku/web/rules differs from docs/rules: run `make rules`"
    assert sengoku.web.RULES_DIR == SHIPPED
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "rules/*.md" in data["tool"]["setuptools"]["package-data"]["sengoku.web"]


def test_every_game_page_has_a_rules_panel(new_page: Any, base_url: str) -> None:  # noqa: F811
    page: Page = new_page(1280, 900)
    for game in ("gungi", "gunshi", "gunkimono", "sashimono"):
        m = create(base_url, game)
        page.goto("/")
        page.evaluate(
            "t => localStorage.setItem('sengoku.tokens', t)",
            json.dumps({m["id"]: {"0": m["tokens"]["0"]}}),
        )
        page.goto(f"/play/{m['id']}")
        page.click("#rules-open")
        dialog = page.locator("#rules-dialog")
        expect(dialog).to_be_visible()
        doc = (SHIPPED / f"{game}.md").read_text(encoding="utf-8")
        first_heading = next(ln for ln in doc.splitlines() if ln.startswith("## "))[3:]
        expect(dialog.locator('[data-part="rules"]')).to_contain_text(first_heading.split("`")[0])
        # The reference: every catalog list with entries, named in words, no engine ids.
        catalog = API.get(f"{base_url}/api/games/{game}").json()["catalog"]
        lists = [k for k, v in catalog.items() if isinstance(v, list) and k != "reconstructed"]
        for key in lists:
            entries = dialog.locator(f'[data-catalog="{key}"] > li')
            expect(entries).to_have_count(len(catalog[key]))
        named = [
            i["name"] for k in lists for i in catalog[k] if isinstance(i, dict) and "name" in i
        ]
        text = dialog.locator('[data-part="reference"]').inner_text()
        assert all(n in text for n in named), game
        if game == "gunshi":  # cards say what they do
            assert "Choose a Unit on the board" in text
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        assert page.evaluate("document.activeElement.id") == "rules-open"


# ---------------------------------------------------------------- "Now": the phase reference

PHASES = Path(sengoku.web.__file__).resolve().parent / "phases"


def phase_data(game: str) -> dict[str, Any]:
    return dict(json.loads((PHASES / f"{game}.json").read_text(encoding="utf-8")))


def test_every_phase_of_every_game_has_its_reference() -> None:
    """Each phase (or question) an engine can put in its view has words in the game's
    phase file; every entry is a title and two to four short lines (one for a small step)."""
    from sengoku.games.gunkimono.turn_sequence import Phase
    from sengoku.games.gunshi.state import PHASES as GUNSHI_PHASES
    from sengoku.games.sashimono.decisions import Question

    engine = {
        "gungi": {"setup", "play"},
        "gunshi": set(GUNSHI_PHASES),
        "gunkimono": {p.value for p in Phase},
        "sashimono": {q.value for q in Question},
    }
    for game, keys in engine.items():
        data = phase_data(game)
        assert data["key"], game
        entries = data["phases"]
        assert keys <= set(entries), (game, keys - set(entries))
        assert {"over", "default"} <= set(entries), game
        for key, entry in entries.items():
            assert entry["title"] and 1 <= len(entry["lines"]) <= 4, (game, key)
            assert all(20 <= len(line) <= 220 for line in entry["lines"]), (game, key)


def make(url: str, game: str, options: dict[str, Any]) -> dict[str, Any]:
    r = API.post(
        f"{url}/api/matches",
        json={"game": game, "options": options, "seats": [{"kind": "local"}, {"kind": "local"}]},
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def act(url: str, m: dict[str, Any], count: int) -> None:
    """Play ``count`` decisions, each by the seat to act (its first legal choice)."""
    for _ in range(count):
        snap = API.get(f"{url}/api/matches/{m['id']}").json()
        token = m["tokens"][str(snap["to_act"])]
        mine = API.get(
            f"{url}/api/matches/{m['id']}", headers={"Authorization": f"Bearer {token}"}
        ).json()
        r = API.post(
            f"{url}/api/matches/{m['id']}/actions",
            headers={"Authorization": f"Bearer {token}"},
            json={"action": mine["legal"][0]["action"], "ply": mine["ply"]},
        )
        assert r.status_code == 200, r.text


def now_shown(page: Page, m: dict[str, Any], seat: int = 0) -> Any:
    """Open the match as ``seat`` and its Rules panel; the "Now" section."""
    page.goto("/")
    page.evaluate(
        "t => localStorage.setItem('sengoku.tokens', t)",
        json.dumps({m["id"]: {str(seat): m["tokens"][str(seat)]}}),
    )
    page.goto(f"/play/{m['id']}")
    page.click("#rules-open")
    now = page.locator('#rules-dialog [data-part="now"]')
    expect(now).to_be_visible()
    return now


def test_the_rules_panel_starts_with_the_current_phase(new_page: Any, base_url: str) -> None:  # noqa: F811
    """The "Now: <phase>" section first, from the game's phase file, in two phases of each game; it
    follows the game while open, and never names another seat's secret step."""
    page: Page = new_page(1280, 900)
    cases = [
        ("gungi", {"mode": "intro"}, 0, 0, "play"),
        ("gungi", {"mode": "advanced"}, 0, 0, "setup"),
        ("gunshi", {}, 0, 0, "formation"),
        ("gunshi", {"preset": "first_battle"}, 0, 0, "secret.shogun"),
        # Blue while Red chooses in secret: the phase only, not Red's step.
        ("gunshi", {"preset": "first_battle"}, 1, 0, "secret"),
        ("gunshi", {"preset": "first_battle"}, 0, 3, "battle.send"),
        ("sashimono", {}, 0, 0, "look_bottom"),
        ("sashimono", {}, 0, 4, "turn"),
    ]
    for game, options, seat, plies, key in cases:
        m = make(base_url, game, options)
        act(base_url, m, plies)
        now = now_shown(page, m, seat)
        entry = phase_data(game)["phases"][key]
        expect(now).to_have_attribute("data-phase", key)
        expect(now.locator("h2")).to_have_text(f"Now: {entry['title']}")
        expect(now.locator("li")).to_have_count(len(entry["lines"]))
        expect(now.locator("li").first).to_have_text(entry["lines"][0])
        # The phase comes first, before the rules themselves.
        first = page.evaluate(
            "() => document.querySelector('#rules-dialog [data-part]:not([hidden])').dataset.part"
        )
        assert first == "now", (game, key)
        page.keyboard.press("Escape")
    # Live: the panel stays open while the game moves on to another step of the turn.
    m = make(base_url, "gunkimono", {})
    now = now_shown(page, m)
    expect(now).to_have_attribute("data-phase", "place")
    expect(now).to_contain_text("Your move")
    act(base_url, m, 1)
    expect(now).to_have_attribute("data-phase", "score")
    expect(now.locator("h2")).to_have_text(
        f"Now: {phase_data('gunkimono')['phases']['score']['title']}"
    )
    shot(page, "rules-now-gunkimono-1280")
    page.keyboard.press("Escape")
    # A finished game: "over".
    API.post(
        f"{base_url}/api/matches/{m['id']}/resign",
        headers={"Authorization": f"Bearer {m['tokens']['0']}"},
    )
    page.wait_for_selector(".end-panel:not([hidden])")
    page.click("#end-close")
    page.click("#rules-open")
    expect(page.locator('#rules-dialog [data-part="now"]')).to_have_attribute("data-phase", "over")
