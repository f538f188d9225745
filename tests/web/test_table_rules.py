"""Rules in the game (issue 17): the rules ship in the package, agree with docs/rules, and a
"Rules" panel on every game page shows them with a reference of the game's catalog."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect

import sengoku.web
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
        catalog = httpx.get(f"{base_url}/api/games/{game}").json()["catalog"]
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
