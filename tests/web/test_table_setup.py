"""The setup page (issue 17): only the options that apply, human labels with a sentence each,
no raw engine names ("spec ruling 3", true/false) on screen."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.api import API

#: What must never be read on the setup page.
RAW = re.compile(r"spec ruling|\btrue\b|\bfalse\b|_[a-z]", re.IGNORECASE)


def visible_text(page: Page) -> str:
    return page.locator("form.setup .options").inner_text()


def test_every_game_setup_speaks_in_words(new_page: Any, base_url: str) -> None:
    games = [g["name"] for g in API.get(f"{base_url}/api/games").json()["games"]]
    assert {"gungi", "gunshi", "gunkimono", "sashimono"} <= set(games)
    page: Page = new_page(1280, 900)
    for game in ("gungi", "gunshi", "gunkimono", "sashimono"):
        page.goto(f"/new/{game}")
        page.wait_for_selector("form.setup .field[data-option]")
        text = visible_text(page)
        assert not RAW.search(text), (
            f"{game}: raw engine words on the setup page: {RAW.findall(text)}"
        )
        # Every shown option has a label and a one-line explanation.
        for field in page.locator(".field[data-option]:visible").all():
            assert field.locator("label").inner_text().strip()
            help_text = field.locator("small").inner_text().strip()
            assert help_text and "\n" not in help_text


def test_options_appear_only_where_they_apply(new_page: Any, base_url: str) -> None:
    page: Page = new_page(1280, 900)
    page.goto("/new/gunshi")
    page.wait_for_selector('.field[data-option="variant"]')
    modification = page.locator('.field[data-option="modification"]')
    selection = page.locator('.field[data-option="custom_selection"]')
    agreed = page.locator('.field[data-option="agreed_deck"]')
    expect(modification).to_be_hidden()
    expect(selection).to_be_hidden()
    page.select_option("#opt-variant", '"inspiration"')
    expect(modification).to_be_visible()
    expect(selection).to_be_hidden()
    page.select_option("#opt-variant", '"custom"')
    expect(modification).to_be_hidden()
    expect(selection).to_be_visible()
    expect(agreed).to_be_hidden()
    page.select_option("#opt-custom_selection", '"agreed"')
    expect(agreed).to_be_visible()
    page.goto("/new/sashimono")
    page.wait_for_selector('.field[data-option="mode"]')
    army = page.locator('.field[data-option="army"]')
    expect(army).to_be_hidden()
    expect(page.locator('.field[data-option^="challenge_"]:visible')).to_have_count(0)
    page.select_option("#opt-mode", '"solo"')
    expect(army).to_be_visible()
    expect(page.locator('.field[data-option^="challenge_"]:visible')).to_have_count(6)
    expect(page.locator("#opt-mode")).to_contain_text("The Kagemusha (solo)")


def test_a_hidden_option_is_not_sent(new_page: Any, base_url: str) -> None:
    page: Page = new_page(1280, 900)
    page.goto("/new/gunshi")
    page.wait_for_selector('.field[data-option="variant"]')
    page.click('button[data-preset="hotseat"]')
    with page.expect_request(
        lambda r: r.url.endswith("/api/matches") and r.method == "POST"
    ) as req:
        page.click("#start")
    sent = req.value.post_data_json["options"]
    assert sent["variant"] == "basic"
    assert "modification" not in sent and "custom_selection" not in sent
    page.wait_for_url("**/play/*")


def test_gunshi_tournament_clock_takes_the_place_of_the_clock_choice(
    new_page: Any, base_url: str
) -> None:
    """Gunshi's tournament clock is the match's clock: with it chosen, the other clocks are
    not offered (the server refuses a second clock beside it), and the match starts with the
    20-minute tournament clock; without it, a Fischer clock is sent and runs."""
    page: Page = new_page(1280, 900)
    page.goto("/new/gunshi")
    page.wait_for_selector('.field[data-option="time_control"]')
    page.click('button[data-preset="hotseat"]')
    page.select_option("#clock", "fischer-5-3")
    page.select_option("#opt-time_control", '"tournament"')
    expect(page.locator("#clock")).to_be_disabled()
    expect(page.locator("#clock")).to_have_value("none")
    with page.expect_response(
        lambda r: r.url.endswith("/api/matches") and r.request.method == "POST"
    ) as answer:
        page.click("#start")
    assert answer.value.status == 201, answer.value.text()
    created = answer.value.json()
    assert created["match"]["clocks"]["spec"] == {"type": "tournament", "initial": 1200.0}
    page.goto("/new/gunshi")
    page.wait_for_selector('.field[data-option="time_control"]')
    page.click('button[data-preset="hotseat"]')
    expect(page.locator("#clock")).to_be_enabled()
    page.select_option("#clock", "fischer-5-3")
    with page.expect_response(
        lambda r: r.url.endswith("/api/matches") and r.request.method == "POST"
    ) as answer:
        page.click("#start")
    assert answer.value.status == 201, answer.value.text()
    clocks = answer.value.json()["match"]["clocks"]
    assert clocks["spec"]["type"] == "fischer" and clocks["running"] == 0
