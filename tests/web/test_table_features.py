"""The table in the browser (issue 17): a chat exchange seen by a spectator, a draw offer
accepted, a claim after the opponent leaves, the "Your turn" title, sound and `f` to flip.

Players and spectators each have their own browser context (their own localStorage), as
three people on three computers would.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from sengoku.server import Settings, create_app
from tests.waiting import GENEROUS_MS, wait_until
from tests.web.api import API
from tests.web.conftest import ServerThread, free_port
from tests.web.helpers import shot

#: Seconds an opponent must be gone before a claim: short, so the test waits little.
CLAIM_AFTER = 2.0


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own server: the shared one waits an hour before a claim."""
    db = tmp_path_factory.mktemp("table") / "server.sqlite3"
    app = create_app(
        Settings(
            db_url=f"sqlite:///{db}",
            ai_mode="thread",
            claim_after=CLAIM_AFTER,
            # The lists' tests make dozens of matches at once from this one address.
            limit_exempt=("127.0.0.1",),
        )
    )
    thread = ServerThread(app, free_port())
    thread.start()
    wait_until(lambda: thread.server.started or not thread.is_alive(), "the test server to start")
    if not thread.is_alive():
        raise RuntimeError("the test server did not start")
    yield f"http://127.0.0.1:{thread.server.config.port}"
    thread.stop()


def create(base_url: str, game: str) -> dict[str, Any]:
    r = API.post(
        f"{base_url}/api/matches",
        json={
            "game": game,
            "seats": [{"kind": "local", "name": "Aki"}, {"kind": "local", "name": "Ben"}],
        },
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def open_as(new_page: Any, match_id: str, seat: int | None, token: str | None) -> Page:
    page: Page = new_page(1280, 900)
    page.goto("/")
    if seat is not None:
        tokens = json.dumps({match_id: {str(seat): token}})
        page.evaluate("t => localStorage.setItem('sengoku.tokens', t)", tokens)
    page.goto(f"/play/{match_id}")
    page.wait_for_selector("#chat")
    return page


def play_first_legal(base_url: str, match_id: str, token: str) -> None:
    snap = API.get(
        f"{base_url}/api/matches/{match_id}", headers={"Authorization": f"Bearer {token}"}
    ).json()
    r = API.post(
        f"{base_url}/api/matches/{match_id}/actions",
        json={"action": snap["legal"][0]["action"], "ply": snap["ply"]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 200, r.text


def test_a_chat_exchange_and_what_a_spectator_sees(new_page: Any, base_url: str) -> None:
    m = create(base_url, "gungi")
    mid = m["id"]
    aki = open_as(new_page, mid, 0, m["tokens"]["0"])
    ben = open_as(new_page, mid, 1, m["tokens"]["1"])
    watcher = open_as(new_page, mid, None, None)
    # Presence: both players online, one spectator (polled every few seconds).
    expect(aki.locator("#spectator-count")).to_have_text("1 spectator", timeout=GENEROUS_MS)
    expect(aki.locator('.presence[data-seat="1"]')).to_have_attribute("data-online", "true")

    aki.fill("#chat-input", "good luck <b>Ben</b>")
    aki.click("#chat-send")
    for page in (ben, watcher):
        expect(page.locator("#chat-players .chat-text")).to_have_text(["good luck <b>Ben</b>"])
    # Text, never markup: no <b> element was made from the message.
    assert watcher.locator("#chat-players .chat-text b").count() == 0
    expect(watcher.locator("#chat-players .chat-who")).to_have_text(["Aki"])

    watcher.fill("#chat-name", "Kibitzer")
    watcher.fill("#chat-input", "what an opening")
    watcher.click("#chat-send")
    for page in (aki, ben):
        expect(page.locator("#chat-spectators .chat-text")).to_have_text(["what an opening"])
    # The spectator writes only to the spectators: the players' channel is unchanged.
    expect(watcher.locator("#chat-players .chat-text")).to_have_count(1)

    ben.check("#chat-mute")
    expect(ben.locator('section[data-channel="spectators"]')).to_be_hidden()
    watcher.fill("#chat-input", "psst")
    watcher.click("#chat-send")
    expect(aki.locator("#chat-spectators .chat-text")).to_have_text(["what an opening", "psst"])
    expect(watcher.locator("#chat-spectators .chat-text")).to_have_text(["what an opening", "psst"])
    # Proved by order: a players' message sent after "psst" reaches Ben, so "psst" reached
    # him before it (one connection, in order) and was not shown.
    aki.fill("#chat-input", "gg")
    aki.click("#chat-send")
    expect(ben.locator("#chat-players .chat-text")).to_have_text(["good luck <b>Ben</b>", "gg"])
    assert ben.locator("#chat-spectators .chat-text").count() == 0
    # A reload reads the stored chat back, and Ben's mute with it.
    ben.reload()
    expect(ben.locator("#chat-players .chat-text")).to_have_text(["good luck <b>Ben</b>", "gg"])
    expect(ben.locator("#chat-mute")).to_be_checked()
    shot(watcher, "table-chat-spectator")
    shot(aki, "table-chat-player")


def test_each_chat_message_shows_who_wrote_it_whatever_the_name(
    new_page: Any, base_url: str
) -> None:
    """Issue 39: the marker is the server's role and seat, not text in the name; a spectator's
    name that imitates a seat is refused."""
    m = create(base_url, "gungi")
    mid = m["id"]
    ben = open_as(new_page, mid, 1, m["tokens"]["1"])
    watcher = open_as(new_page, mid, None, None)
    ben.fill("#chat-input", "hello")
    ben.click("#chat-send")
    watcher.fill("#chat-name", "Ben (seat 2)")
    watcher.fill("#chat-input", "resign now")
    watcher.click("#chat-send")
    expect(watcher.locator("#toast")).to_contain_text("may not name a seat")
    watcher.fill("#chat-name", "Kibitzer")
    watcher.click("#chat-send")
    for page in (ben, watcher):
        players = page.locator("#chat-players .chat-message")
        expect(players.locator(".chat-role")).to_have_text(["Seat 2"])
        expect(players.locator(".chat-role")).to_have_attribute("data-role", "player")
        spectators = page.locator("#chat-spectators .chat-message")
        expect(spectators.locator(".chat-who")).to_have_text(["Kibitzer"])
        expect(spectators.locator(".chat-role")).to_have_text(["Spectator"])


def test_a_draw_offer_accepted(new_page: Any, base_url: str) -> None:
    m = create(base_url, "gungi")
    mid = m["id"]
    aki = open_as(new_page, mid, 0, m["tokens"]["0"])
    ben = open_as(new_page, mid, 1, m["tokens"]["1"])
    aki.click("#draw-offer")
    expect(aki.locator("#draw-pending")).to_be_visible()
    expect(ben.locator("#draw-offered")).to_be_visible(timeout=GENEROUS_MS)
    shot(ben, "table-draw-offered")
    ben.click("#draw-accept")
    for page in (aki, ben):
        expect(page.locator("#status")).to_have_attribute("data-state", "finished")
        expect(page.locator("#status")).to_contain_text("Draw by agreement")
    assert API.get(f"{base_url}/api/matches/{mid}").json()["result"]["reason"] == "agreement"


def test_a_claim_after_the_opponent_leaves_and_the_tab_title(new_page: Any, base_url: str) -> None:
    m = create(base_url, "gungi")
    mid, tokens = m["id"], m["tokens"]
    first = API.get(f"{base_url}/api/matches/{mid}").json()["to_act"]
    second = 1 - first
    stayer = open_as(new_page, mid, first, tokens[str(first)])
    leaver = open_as(new_page, mid, second, tokens[str(second)])
    stayer.wait_for_function("() => document.title.startsWith('Your turn')")
    assert not leaver.title().startswith("Your turn")
    play_first_legal(base_url, mid, tokens[str(first)])
    leaver.wait_for_function("() => document.title.startsWith('Your turn')")
    stayer.wait_for_function("() => !document.title.startsWith('Your turn')")
    # A move by the opponent rang a sound on the stayer's page (sound is on online).
    assert stayer.evaluate(
        "async () => (await import('/js/sound.js')).sounds.log.some(s => s.name === 'move' && s.on)"
    )
    expect(stayer.locator("#claim")).to_have_count(0)
    leaver.close()
    expect(stayer.locator(f'.presence[data-seat="{second}"]')).to_have_attribute(
        "data-online", "false", timeout=GENEROUS_MS
    )
    expect(stayer.locator("#claim")).to_be_visible()
    # The behaviour under test, not a wait for something: a claim is allowed only once the
    # opponent has been gone CLAIM_AFTER seconds.
    stayer.wait_for_timeout(CLAIM_AFTER * 1000 + 300)
    stayer.click("#claim")
    expect(stayer.locator("#status")).to_have_attribute("data-state", "finished")
    result = API.get(f"{base_url}/api/matches/{mid}").json()["result"]
    assert result["winners"] == [first] and result["reason"] == "abandoned"
    shot(stayer, "table-claimed")


def test_sound_switch_hot_seat_default_and_f_flips(new_page: Any, base_url: str) -> None:
    m = create(base_url, "gungi")
    mid = m["id"]
    page: Page = new_page(1280, 900)
    page.goto("/")
    page.evaluate(
        "t => localStorage.setItem('sengoku.tokens', t)",
        json.dumps({mid: {"0": m["tokens"]["0"], "1": m["tokens"]["1"]}}),
    )
    page.goto(f"/play/{mid}")
    # Hot seat: sound is off until switched on, and the switch is remembered.
    expect(page.locator("#sound-toggle")).to_have_text("Sound: off")
    page.click("#sound-toggle")
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("localStorage.getItem('sengoku.sound')") == "on"
    # Hot seat has no draw offers to itself.
    expect(page.locator("#draw-offer")).to_have_count(0)
    page.evaluate(
        "() => { window.flips = 0; document.querySelector('#flip')"
        ".addEventListener('click', () => window.flips++); }"
    )
    page.locator("body").press("f")
    page.wait_for_function("() => window.flips === 1")
    page.fill("#chat-input", "f")  # typing an f in a text field flips nothing
    assert page.evaluate("window.flips") == 1


def test_capture_and_low_time_sounds(new_page: Any, base_url: str) -> None:
    r = API.post(
        f"{base_url}/api/matches",
        json={
            "game": "gungi",
            "seats": [{"kind": "local"}, {"kind": "local"}],
            "clock": {"type": "sudden_death", "initial": 11},
        },
    )
    assert r.status_code == 201, r.text
    m = r.json()
    first = m["match"]["to_act"]
    page = open_as(new_page, m["id"], first, m["tokens"][str(first)])
    # Under 10 s on my own running clock: the low-time sound, once.
    page.wait_for_function(
        "async () => (await import('/js/sound.js')).sounds.log.some(s => s.name === 'lowtime')",
        timeout=GENEROUS_MS,
        polling=250,
    )
    # The behaviour under test: the clock runs on (several more ticks) and the low-time
    # sound is still played once, not at every tick.
    page.wait_for_timeout(800)
    names = page.evaluate(
        """async () => {
             const { sounds } = await import('/js/sound.js');
             sounds.onEvent({ type: 'move', action: '7-6-1 兵', message: 'captures a Pawn' }, null);
             sounds.onEvent({ type: 'move', action: '7-6-1 兵(7-7)' }, null);
             sounds.onEvent({ type: 'player_joined', message: 'hello' }, null);
             return sounds.log.map((s) => s.name);
           }"""
    )
    assert names.count("lowtime") == 1
    assert names[-2:] == ["capture", "move"]


#: A stand-in for the browser's notifications (headless Chromium shows none): it records
#: them, and the page believes it is in the background.
FAKE_NOTIFICATIONS = """
window.__notes = [];
window.Notification = class {
  static permission = "default";
  static requestPermission() { window.Notification.permission = "granted"; return Promise.resolve("granted"); }
  constructor(title, options) { window.__notes.push([title, options && options.body]); }
};
document.hasFocus = () => false;
"""


def test_an_optional_notification_when_it_is_your_turn(new_page: Any, base_url: str) -> None:
    m = create(base_url, "gungi")
    mid, tokens = m["id"], m["tokens"]
    first = m["match"]["to_act"]
    second = 1 - first
    page: Page = new_page(1280, 900)
    page.add_init_script(FAKE_NOTIFICATIONS)
    page.goto("/")
    tokens_json = json.dumps({mid: {str(second): tokens[str(second)]}})
    page.evaluate("t => localStorage.setItem('sengoku.tokens', t)", tokens_json)
    page.goto(f"/play/{mid}")
    page.wait_for_selector("#notify-toggle")
    play_first_legal(base_url, mid, tokens[str(first)])
    page.wait_for_function("() => document.title.startsWith('Your turn')")
    assert page.evaluate("window.__notes") == []  # off until asked for
    page.click("#notify-toggle")
    expect(page.locator("#notify-toggle")).to_have_attribute("aria-pressed", "true")
    play_first_legal(base_url, mid, tokens[str(second)])
    page.wait_for_function("() => !document.title.startsWith('Your turn')")
    play_first_legal(base_url, mid, tokens[str(first)])
    page.wait_for_function("() => window.__notes.length === 1")
    assert page.evaluate("window.__notes[0][0]") == "Your turn"
