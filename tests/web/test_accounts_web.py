"""Accounts in the browser: the sign-up form, the "signed in as" mark, and the claim of the
seats whose tokens the browser holds (docs/api.md "Accounts")."""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.waiting import GENEROUS
from tests.web.helpers import shot


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (390, 844)])
def test_signing_up_claims_this_browsers_seats_and_marks_the_header(
    new_page: Callable[..., Page], base_url: str, width: int, height: int
) -> None:
    with httpx.Client(base_url=base_url, timeout=GENEROUS) as http:  # a guest's match, no cookies
        r = http.post(
            "/api/matches", json={"game": "gungi", "seats": [{"kind": "local"}, {"kind": "local"}]}
        )
        assert r.status_code == 201, r.text
        m = r.json()
    page = new_page(width, height)
    page.goto("/")
    expect(page.locator("#sign-in-link")).to_be_visible()
    stored = {m["id"]: m["tokens"]}
    page.evaluate(f"localStorage.setItem('sengoku.tokens', JSON.stringify({json.dumps(stored)}))")
    page.locator("#sign-in-link").click()
    expect(page.locator("#signup")).to_be_visible()
    shot(page, f"account-form-{width}x{height}")
    name = f"Web{width}"
    page.get_by_label("Name").nth(1).fill(name)
    page.get_by_label("Password").nth(1).fill("web password")
    page.locator("#signup button[type=submit]").click()
    expect(page.locator("#account-name")).to_have_text(name)
    expect(page.locator("#sign-out")).to_be_visible()
    shot(page, f"account-signed-in-{width}x{height}")
    seats = page.request.get(f"{base_url}/api/account/seats")
    assert seats.status == 200, seats.text()
    assert {(s["match_id"], s["seat"]) for s in seats.json()["seats"]} == {
        (m["id"], 0),
        (m["id"], 1),
    }
    page.locator("#sign-out").click()
    expect(page.locator("#sign-in-link")).to_be_visible()
    me = page.request.get(f"{base_url}/api/account/me")
    assert me.status == 200 and me.json()["account"] is None, me.text()
