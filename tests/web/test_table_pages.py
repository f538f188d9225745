"""Pages around the table (issue 17): unknown addresses get a page, sounds are served."""

from __future__ import annotations

import wave
from collections.abc import Callable
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Page, expect

from sengoku.server import Settings, create_app

ROOT = Path(__file__).resolve().parents[2]
HTML = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


@pytest.fixture
def client(tmp_path: Path) -> Any:
    app = create_app(Settings(db_url=f"sqlite:///{tmp_path / 's.db'}", ai_mode="thread"))
    with TestClient(app) as c:
        yield c


def test_an_unknown_address_is_a_page_for_a_browser_and_json_for_a_program(
    client: TestClient,
) -> None:
    for path in ("/no/such/page", "/playz", "/secret.py", "/favicon.svg/x"):
        r = client.get(path, headers=HTML)
        assert r.status_code == 404, path
        assert r.headers["content-type"].startswith("text/html"), path
        assert '<main id="app"' in r.text
    # Programs (no text/html) and the API keep the JSON error.
    assert client.get("/no/such/page").json()["error"]["code"] == "not_found"
    r = client.get("/api/nothing", headers=HTML)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_sounds_are_served_and_are_what_the_script_makes(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_sounds", ROOT / "tools" / "make_sounds.py")
    assert spec is not None and spec.loader is not None
    make: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    monkeypatch.setattr(make, "OUT", tmp_path)
    for name in ("move", "capture", "turn", "lowtime"):
        r = client.get(f"/sounds/{name}.wav")
        assert r.status_code == 200, name
        with wave.open(BytesIO(r.content)) as w:
            assert (w.getnchannels(), w.getframerate()) == (1, 22_050)
            assert 0.05 < w.getnframes() / w.getframerate() < 0.6  # short cues
        # The shipped file is the script's output, byte for byte.
        assert make.write(name).read_bytes() == r.content
    assert "CC0" in client.get("/sounds/CREDITS.txt").text


def test_the_not_found_page_says_so_in_words(new_page: Callable[..., Page]) -> None:
    page = new_page(1280, 800)
    response = page.goto("/this/is/not/here")
    assert response is not None and response.status == 404
    expect(page.locator("#not-found h1")).to_have_text("Page not found")
    expect(page.locator("#not-found")).to_contain_text("/this/is/not/here")
    assert page.title().startswith("Page not found")
    page.click("#not-found a[href='/']")
    expect(page.locator("#not-found")).to_have_count(0)
    assert not page.title().startswith("Page not found")
