"""Issue 41, "Defects": what a player reads and taps at the table, at 390x844 where the defect
was on a phone. Each test here failed on the code before its fix."""

from __future__ import annotations

import random
import re
import time
from typing import Any

from playwright.sync_api import Page, expect

from tests.waiting import GENEROUS, GENEROUS_MS
from tests.web.api import API
from tests.web.helpers import shot


def api(base_url: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    """One API call; a 429 (the per-client rate limit) is waited out as Retry-After says."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    for _ in range(20):
        r = API.request(method, f"{base_url}{path}", headers=headers, json=body, timeout=GENEROUS)
        if r.status_code != 429:
            assert r.status_code < 400, (r.status_code, r.text)
            return r.json()
        time.sleep(float(r.headers.get("retry-after", "1")))
    raise AssertionError(f"{path}: still rate-limited")


def create(base_url: str, game: str, seats: list[dict[str, Any]], **extra: Any) -> Any:
    r = API.post(f"{base_url}/api/matches", json={"game": game, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def open_with(page: Page, match_id: str, tokens: dict[str, str]) -> None:
    page.goto("/")
    page.evaluate(
        "([id, t]) => localStorage.setItem('sengoku.tokens', JSON.stringify({[id]: t}))",
        [match_id, tokens],
    )
    page.goto(f"/play/{match_id}")


def gunshi_battle_with_a_short_hand(base_url: str) -> tuple[str, dict[str, str]]:
    """A hot-seat Gunshi battle led through the API to Red's turn to send, with one or two
    cards in Red's hand: the moment the phone squeezed the hand cards to slivers."""
    m = create(base_url, "gunshi", [{"kind": "local"}, {"kind": "local"}])
    mid, tokens = m["id"], m["tokens"]
    rank = {"send": 0, "shogun": 1, "chain": 1, "end": 3, "lightning": 4, "hit": 5, "invade": 5}
    rng = random.Random(3)
    for _ in range(2000):
        snap = api(base_url, "GET", f"/api/matches/{mid}", tokens["0"])
        view = snap["view"]
        hand = view["players"][0]["hand"]
        sending = any(row["kind"] == "send" for row in snap["legal"])
        if view["phase"] == "battle" and snap["to_act"] == 0 and sending and len(hand) <= 2:
            return mid, tokens
        seat = str(snap["to_act"])
        mine = api(base_url, "GET", f"/api/matches/{mid}", tokens[seat])
        choice = min(mine["legal"], key=lambda c: rank.get(c["kind"], 2) + rng.random())
        api(
            base_url,
            "POST",
            f"/api/matches/{mid}/actions",
            tokens[seat],
            {"action": choice["action"], "ply": mine["ply"]},
        )
    raise AssertionError("Red never had one or two cards to send")


#: Each card of your hand: its width, and whether its name fits in it.
HAND_CARDS = """() => [...document.querySelectorAll('.gs-side.mine [data-zone="hand"] .gs-card')]
  .map((c) => { const n = c.querySelector('.gs-card-name');
    return {name: n.textContent, width: c.getBoundingClientRect().width,
            fits: n.scrollWidth <= n.clientWidth + 1 && n.getBoundingClientRect().width
              <= c.getBoundingClientRect().width}; })"""

#: The height on screen of each unit's type mark and of its letter.
UNIT_MARKS = """() => [...document.querySelectorAll('.gunshi-board .gunit:not(.ghost)')].map((g) => ({
  type: g.querySelector('.gunit-type').getBoundingClientRect().height,
  letter: g.querySelector('.gunit-letter').getBoundingClientRect().height}))"""


def test_gunshi_on_a_phone_hand_cards_stay_readable_and_units_show_their_type(
    new_page: Any, base_url: str
) -> None:
    mid, tokens = gunshi_battle_with_a_short_hand(base_url)
    page: Page = new_page(390, 844)
    open_with(page, mid, tokens)
    page.wait_for_selector('.board-area[data-interactive="true"] .gs-card.playable')
    shot(page, "polish-gunshi-hand-390")
    cards = page.evaluate(HAND_CARDS)
    assert 1 <= len(cards) <= 2, cards
    for card in cards:
        # A card you must tap keeps a readable width, and its whole name shows.
        assert card["width"] >= 84, cards
        assert card["fits"], cards
    # The type is the first thing seen (big), the letter second; on a phone, the type's
    # kanji is no 8 px corner mark.
    marks = page.evaluate(UNIT_MARKS)
    assert marks
    for mark in marks:
        assert mark["type"] > mark["letter"], marks
        assert mark["type"] >= 14, marks
    # The same in English: the type's word leads.
    page.click("#labels-toggle")
    page.wait_for_selector(".gunshi-board .gunit-type.en")
    for mark in page.evaluate(UNIT_MARKS):
        assert mark["type"] > mark["letter"]


#: What the page asks the player now: every prompt on screen, and the snapshot's ply.
PROMPTS = """() => [...document.querySelectorAll('#prompt, #gs-prompt, #kimono-prompt, .s-prompt')]
  .filter((e) => e.offsetParent !== null && e.textContent.trim())
  .map((e) => e.textContent.trim())"""

#: Engine wording a player must never read in a prompt.
ENGINE = re.compile(r"\(\d+ ways\)|pick a choice|^Choose:|pick a cells", re.IGNORECASE)


def check_prompts_while_playing(
    page: Page, base_url: str, game: str, decisions: int, seed: int, **extra: Any
) -> int:
    """Play ``decisions`` random decisions of ``game`` against the computer, each shown on
    the page first; at each, one prompt in a player's words. Returns how many were checked."""
    m = create(base_url, game, [{"kind": "local"}, {"kind": "ai", "level": 1}], **extra)
    mid, token = m["id"], m["tokens"]["0"]
    open_with(page, mid, {"0": token})
    rng = random.Random(seed)
    checked = 0
    deadline = time.monotonic() + 300  # a safety net only: a stuck page fails, not hangs
    while checked < decisions:
        assert time.monotonic() < deadline, f"{game}: {checked} decisions seen"
        snap = api(base_url, "GET", f"/api/matches/{mid}?short=true", token)
        if snap["status"] != "active":
            break
        if snap["to_act"] != 0:
            time.sleep(0.1)  # the computer's turn: poll until it is ours again
            continue
        page.wait_for_function(
            "n => { const s = document.getElementById('status');"
            " return !!s && Number(s.dataset.ply) === n && document.querySelector("
            "'.board-area[data-interactive=\"true\"]'); }",
            arg=snap["ply"],
        )
        prompts = page.evaluate(PROMPTS)
        rule = ((snap["view"] or {}).get("prompt") or {}).get("rule")
        assert len(prompts) == 1, f"{game} ply {snap['ply']}: prompts {prompts}"
        text = prompts[0]
        assert not ENGINE.search(text), f"{game} ply {snap['ply']}: {text!r}"
        assert text[0].isupper(), f"{game} ply {snap['ply']}: {text!r}"
        # The engine's own rule text, lower-case and terse, is for programs (Sashimono's
        # "perform each available action of the card ..."); the page words it anew.
        if isinstance(rule, str) and rule[:1].islower() and len(rule) > 30:
            assert rule.lower() not in text.lower(), f"{game}: the engine's rule {rule!r}"
        checked += 1
        choice = rng.choice(snap["legal"])
        r = API.post(
            f"{base_url}/api/matches/{mid}/actions",
            headers={"Authorization": f"Bearer {token}"},
            json={"action": choice["action"], "ply": snap["ply"]},
        )
        assert r.status_code in (200, 409), r.text
    return checked


def test_every_game_asks_each_decision_once_in_a_players_words(
    new_page: Any, base_url: str
) -> None:
    page: Page = new_page(390, 844)
    for game, extra in (
        ("gungi", {"options": {"mode": "beginner"}}),
        ("gunshi", {}),
        ("gunkimono", {}),
        ("sashimono", {}),
    ):
        # Random play may end a game early (a Marshal taken): still a few decisions seen.
        assert check_prompts_while_playing(page, base_url, game, 25, seed=5, **extra) >= 4


def test_the_resign_dialog_opens_on_the_safe_choice_and_escape_closes_it(
    new_page: Any, base_url: str
) -> None:
    m = create(base_url, "gungi", [{"kind": "local"}, {"kind": "ai", "level": 1}])
    page: Page = new_page(390, 844)
    open_with(page, m["id"], {"0": m["tokens"]["0"]})
    page.focus("#resign")
    page.keyboard.press("Enter")
    dialog = page.locator(".overlay[role=dialog]")
    expect(dialog).to_be_visible()
    # Enter, Enter does not resign: the focus is on "Keep playing".
    assert page.evaluate("document.activeElement.textContent") == "Keep playing"
    # Escape closes it, and the focus is back on what opened it.
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    assert page.evaluate("document.activeElement.id") == "resign"
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    page.keyboard.press("Enter")  # "Keep playing"
    expect(dialog).to_have_count(0)
    expect(page.locator("#status")).not_to_contain_text("Game over")
    assert page.evaluate("document.activeElement.id") == "resign"


#: The animations of the page that never end, and what each runs on.
ENDLESS = """() => document.getAnimations()
  .filter((a) => a.effect && a.effect.getComputedTiming().iterations === Infinity)
  .map((a) => `${a.animationName || 'animation'} on ${a.effect.target?.tagName}#${a.effect.target?.id}`)"""


#: Every change to the page from now on, in a list the page keeps.
WATCH_CHANGES = """() => { window.seenChanges = [];
  new MutationObserver((records) => { for (const r of records) window.seenChanges.push(
    `${r.type} ${r.attributeName || ''} on ${r.target.tagName || r.target.nodeName}#${r.target.id}`); })
  .observe(document, {subtree: true, childList: true, attributes: true, characterData: true}); }"""


def test_a_table_at_rest_changes_nothing(new_page: Any, base_url: str) -> None:
    """A table waiting for the player draws nothing anew: an endless animation makes the
    browser paint every frame, and so does a timer that writes the same text again (a fifth
    of a core, on a phone its battery). Gungi's pulsing ring for a Marshal in danger once ran,
    unseen, on the Resign button of every table; the clocks' and the sound button's timers
    wrote their unchanged text four times a second, and each write set every square's
    tabindex again (keyboard.js)."""
    page: Page = new_page(1280, 900)
    for game in ("gungi", "gunkimono", "gunshi", "sashimono"):
        m = create(base_url, game, [{"kind": "local"}, {"kind": "ai", "level": 1}])
        open_with(page, m["id"], {"0": m["tokens"]["0"]})
        expect(page.locator("#resign")).to_be_visible()
        # Our turn: nothing more is on its way from the server.
        page.wait_for_function(
            "document.getElementById('status')?.dataset.state === 'active'"
            " && document.querySelector('.board-area[data-interactive=\"true\"]') !== null"
        )
        assert page.evaluate(ENDLESS) == [], game
        page.evaluate(WATCH_CHANGES)
        # Windows of several ticks of the page's timers (250 and 400 ms) until one passes
        # with no change: news (the presence the page asks for every 3 s) is drawn once and
        # the page is quiet again; a timer that rewrites what it shows is never quiet.
        for _window in range(5):
            page.evaluate("window.seenChanges = []")
            page.wait_for_timeout(1_300)
            changes = page.evaluate("window.seenChanges")
            if not changes:
                break
        assert changes == [], game


def test_players_and_results_in_a_players_words(new_page: Any, base_url: str) -> None:
    m = create(base_url, "gunshi", [{"kind": "local"}, {"kind": "ai", "level": 1}])
    page: Page = new_page(390, 844)
    open_with(page, m["id"], {"0": m["tokens"]["0"]})
    page.wait_for_selector("#presence .presence")
    text = page.locator(".match").inner_text()
    # No name said twice, no engine placeholder, no empty count.
    assert "Player 1 (Player 1)" not in text and "(Player 1)" not in text, text
    assert "AI (1)" not in text, text
    assert "0 spectators" not in text, text
    # A spectator sees the players as players, nobody's "friend".
    h = create(base_url, "gungi", [{"kind": "local"}, {"kind": "local"}])
    watcher: Page = new_page(390, 844)
    watcher.goto(f"/play/{h['id']}")
    watcher.wait_for_selector(".player .player-sub")
    subs = watcher.locator(".player .player-sub").all_inner_texts()
    assert subs and not any("friend" in s for s in subs), subs
    # Results, as the end panel and the status word them.
    words = page.evaluate(
        """async () => {
      const { resultText } = await import('/js/match.js');
      const r = { seatName: (s) => ['Red', 'Blue'][s] };
      const seats = [{ kind: 'human' }, { kind: 'human' }];
      return [resultText({ winners: [0], reason: 'shogun_captured' }, seats, r),
              resultText({ winners: [1], reason: 'end_of_game' }, seats, r),
              resultText({ winners: [], reason: 'agreement' }, seats, r)];
    }"""
    )
    assert words[0] == "Red wins — the Shogun was removed from the field", words
    assert "end of game" not in words[1] and "_" not in words[1], words
    assert words[2] == "Draw by agreement", words


def test_gungi_in_english_keeps_no_kanji_in_the_move_list(new_page: Any, base_url: str) -> None:
    m = create(
        base_url, "gungi", [{"kind": "local"}, {"kind": "local"}], options={"mode": "beginner"}
    )
    mid, tokens = m["id"], m["tokens"]
    for _ in range(2):
        snap = api(base_url, "GET", f"/api/matches/{mid}", tokens["0"])
        seat = str(snap["to_act"])
        mine = api(base_url, "GET", f"/api/matches/{mid}", tokens[seat])
        api(
            base_url,
            "POST",
            f"/api/matches/{mid}/actions",
            tokens[seat],
            {"action": mine["legal"][0]["action"], "ply": mine["ply"]},
        )
    page: Page = new_page(1280, 900)
    page.goto("/")
    page.evaluate("localStorage.setItem('sengoku.labels', 'english')")
    open_with(page, mid, tokens)
    page.wait_for_function("() => document.querySelectorAll('#moves li[data-ply]').length >= 2")
    moves = page.locator("#moves").inner_text()
    assert not re.search(r"[\u4e00-\u9fff]", moves), moves


def test_small_faults_of_the_table(new_page: Any, base_url: str) -> None:
    # Gunkimono's map has no sides to turn to: no "Flip board" that does nothing.
    k = create(base_url, "gunkimono", [{"kind": "local"}, {"kind": "ai", "level": 1}])
    page: Page = new_page(1280, 900)
    open_with(page, k["id"], {"0": k["tokens"]["0"]})
    page.wait_for_selector("#resign")
    expect(page.locator("#flip")).to_have_count(0)
    # The table panel keeps its elements across its polls when nothing changed: a click
    # across a poll lands on the button it was aimed at.
    m = create(base_url, "gungi", [{"kind": "local"}, {"kind": "ai", "level": 1}])
    page = new_page(1280, 900)
    open_with(page, m["id"], {"0": m["tokens"]["0"]})
    with page.expect_response(lambda r: r.url.endswith("/table"), timeout=GENEROUS_MS):
        pass
    # Settled: our seat online (the socket connected), then nothing changes at the table.
    page.wait_for_selector('#presence .presence[data-seat="0"][data-online="true"]')
    with page.expect_response(lambda r: r.url.endswith("/table"), timeout=GENEROUS_MS):
        pass
    page.evaluate("window.kept = document.querySelector('#presence .presence')")
    # Three polls: the first two have been drawn by the time the third answers.
    for _ in range(3):
        with page.expect_response(lambda r: r.url.endswith("/table"), timeout=GENEROUS_MS):
            pass
    assert page.evaluate("window.kept === document.querySelector('#presence .presence')")
    # A move meant for a position that is gone (the server answers 409) is dropped quietly:
    # no red error toast, and the page shows the position as it is.
    page.route(
        "**/actions",
        lambda route: route.fulfill(
            status=409,
            content_type="application/json",
            body='{"error": {"code": "stale", "message": "stale action: it was meant for ply 0"}}',
        ),
    )
    page.wait_for_selector('.board-area[data-interactive="true"]')
    page.evaluate(
        "() => { window.toasts = []; new MutationObserver(() => { const t ="
        " document.getElementById('toast'); if (t && t.className.includes('error'))"
        " window.toasts.push(t.textContent); }).observe(document.body,"
        " {childList: true, subtree: true, attributes: true, characterData: true}); }"
    )
    snap = api(base_url, "GET", f"/api/matches/{m['id']}", m["tokens"]["0"])
    page.fill("#notation", snap["legal"][0]["action"])
    # Refused, the page fetches the position anew.
    with page.expect_response(lambda r: r.url.endswith("?short=true")):
        page.press("#notation", "Enter")
    toasts = page.evaluate("window.toasts")
    assert not toasts, toasts


def test_gunkimono_moves_read_as_words_and_show_their_own_position(
    new_page: Any, base_url: str
) -> None:
    m = create(base_url, "gunkimono", [{"kind": "local"}, {"kind": "local"}])
    mid, tokens = m["id"], m["tokens"]
    rng = random.Random(11)
    # The moves, as the page lists them: every event that names an action. Most are large
    # tiles placed; random play also lays a small tile face down as extra support now and
    # then (its own move, its own event type; played here when first legal): four moves, so
    # that the third, a position of the past, is a turn later than the first whatever the
    # turns held.
    moves: list[dict[str, Any]] = []
    while len(moves) < 4:
        snap = api(base_url, "GET", f"/api/matches/{mid}", tokens["0"])
        seat = str(snap["to_act"])
        mine = api(base_url, "GET", f"/api/matches/{mid}", tokens[seat])
        # One support, the first time one is legal: the list shows it as a move of its own.
        supports = [a for a in mine["legal"] if a["action"].startswith("support ")]
        played_support = any(e["event"]["type"] == "support" for e in moves)
        choice = rng.choice(supports if supports and not played_support else mine["legal"])
        api(
            base_url,
            "POST",
            f"/api/matches/{mid}/actions",
            tokens[seat],
            {"action": choice["action"], "ply": mine["ply"]},
        )
        events = api(base_url, "GET", f"/api/matches/{mid}/events?after=0", tokens["0"])
        moves = [e for e in events["events"] if isinstance(e["event"].get("action"), str)]
    page: Page = new_page(1920, 1080)
    open_with(page, mid, tokens)
    # In the other seat's turn, the moves wait behind the screen that passes the device.
    page.wait_for_function(
        "() => document.querySelectorAll('#moves li[data-ply]').length >= 4"
        " || document.querySelector('.pass-screen:not([hidden])') !== null"
    )
    if page.locator(".pass-screen:not([hidden])").count():
        page.click("#pass-ready")
    page.wait_for_function("() => document.querySelectorAll('#moves li[data-ply]').length >= 4")
    entries = page.locator("#moves li[data-ply] .notation").all_inner_texts()
    # Words, not notation ("I2@g7 A1@h7", "small C@h3").
    for text in entries:
        assert "@" not in text and " on " in text, entries
    # Each entry shows the position after its own placement: a turn is several actions.
    plies = [
        int(p)
        for p in page.eval_on_selector_all("#moves li[data-ply]", "l => l.map(e => e.dataset.ply)")
    ]
    assert plies == [e["ply"] for e in moves], (plies, moves)
    # A turn's placement is followed by its scoring and a draw: the third entry's ply is past
    # its place in the list (a list that numbered its entries would show "after move 3").
    assert plies[2] > 3, plies
    page.locator("#moves li[data-ply] button").nth(2).click()
    expect(page.locator(".browse-bar")).to_contain_text(f"after move {plies[2]} of")


#: Kumi names that do not show whole (cut with an ellipsis, or running out of their card).
CUT_NAMES = """() => [...document.querySelectorAll('.s-kumi-name')].filter((n) =>
  getComputedStyle(n).textOverflow === 'ellipsis' || n.scrollWidth > n.clientWidth + 1)
  .map((n) => n.textContent)"""


def test_sashimono_on_a_phone_names_show_whole_and_the_opponents_hand_has_a_legend(
    new_page: Any, base_url: str
) -> None:
    m = create(base_url, "sashimono", [{"kind": "local"}, {"kind": "ai", "level": 1}])
    page: Page = new_page(390, 844)
    open_with(page, m["id"], {"0": m["tokens"]["0"]})
    page.wait_for_selector(".s-kumi-name")
    shot(page, "polish-sashimono-390")
    assert not page.evaluate(CUT_NAMES)
    # The backs of the opponent's hand say what they are, and how many.
    legend = page.locator(".s-backs-legend").first.inner_text()
    assert re.fullmatch(r"\d+ Kumi \(兵\) · \d+ Sashimono \(指\)", legend), legend


def test_setup_pages_offer_presets_and_fold_the_house_rules(new_page: Any) -> None:
    page: Page = new_page(1920, 1080)
    page.goto("/new/gunshi")
    page.wait_for_selector("#start")
    shot(page, "polish-setup-gunshi-1920")
    # Start is on screen with everything a first game needs.
    box = page.locator("#start").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 1080, box
    # The house rules are folded away, and no value reads as an engine's note.
    house = page.locator("details#house-rules")
    assert house.get_attribute("open") is None
    expect(house.locator("#opt-fence_diagonal")).to_be_hidden()
    assert "(spec)" not in page.locator("form.setup").inner_text()
    assert "(spec)" not in " ".join(page.locator("#opt-fence_diagonal option").all_inner_texts())
    # rulebook: "First-Time Player? Try a game with the First Battle Guide!"
    expect(page.locator("#opt-preset")).to_have_value('"first_battle"')
    # The Tournament preset chooses the tournament clock, which takes the clock's place.
    page.click('[data-option-preset="tournament"]')
    expect(page.locator("#opt-time_control")).to_have_value('"tournament"')
    expect(page.locator("#clock")).to_be_disabled()
    page.click('[data-option-preset="standard"]')
    expect(page.locator("#opt-preset")).to_have_value('"none"')
    expect(page.locator("#clock")).to_be_enabled()
    # Sashimono's card set names its choice.
    page.goto("/new/sashimono")
    page.wait_for_selector("#opt-cards")
    chosen = page.eval_on_selector("#opt-cards", "s => s.options[s.selectedIndex].textContent")
    assert chosen.strip(), "the Card Set select is blank"


def test_a_hover_tip_does_not_outstay_what_it_describes(new_page: Any, base_url: str) -> None:
    m = create(base_url, "gungi", [{"kind": "local"}, {"kind": "ai", "level": 1}])
    page: Page = new_page(1280, 900)
    open_with(page, m["id"], {"0": m["tokens"]["0"]})
    tipped = page.locator("[data-tip]").first
    tipped.wait_for()
    tipped.hover()
    expect(page.locator("#tip")).to_be_visible()
    # A redraw replaces the element under the pointer (no mouseleave comes): the next move
    # of the pointer hides the tip.
    page.evaluate(
        "document.querySelector('[data-tip]').replaceWith(document.createElement('span'))"
    )
    box = page.locator(".board").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + 5, box["y"] + 5)
    expect(page.locator("#tip")).to_be_hidden()


def test_five_gunkimono_scores_are_all_on_screen(new_page: Any, base_url: str) -> None:
    seats = [{"kind": "local"}] + [{"kind": "ai", "level": 1}] * 4
    m = create(base_url, "gunkimono", seats, options={"players": 5})
    page: Page = new_page(1920, 1080)
    open_with(page, m["id"], {"0": m["tokens"]["0"]})
    page.wait_for_selector('.kimono-player[data-seat="4"] .kp-score')
    shot(page, "polish-gunkimono-five-1920")
    for seat in range(5):
        score = page.locator(f'.kimono-player[data-seat="{seat}"] .kp-score')
        # The table may be drawn again as the match's state arrives (a box is None while
        # its element is not shown): wait until it is shown, and ask again if a redraw
        # came between the two.
        box = None
        for _ in range(20):
            expect(score).to_be_visible()
            box = score.bounding_box()
            if box is not None:
                break
        assert box is not None and box["y"] + box["height"] <= 1080, (seat, box)
