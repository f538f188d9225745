"""The languages (docs/i18n.md, issue 41 "Languages"): every string the server and the web
client mark for translation is in the Japanese and French catalogs, translated; the plural
rules are the languages' own; GET /api/i18n/<lang>.json serves the client's messages; the
API's error messages come back in the request's language."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from conftest import new_match
from fastapi.testclient import TestClient

from sengoku.server import i18n

ROOT = Path(__file__).resolve().parents[2]
#: Named places a message carries: the client's {name}, the server's %(name)s.
PLACES = re.compile(r"\{\w+\}|%\(\w+\)s")


def extracted() -> dict[str, str | tuple[str, ...]]:
    """Every marked string of the server's Python, the engines' sentences and the client's
    JavaScript, as ``pybabel extract -F babel.cfg -k say`` finds them (``make i18n``)."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    found: dict[str, str | tuple[str, ...]] = {}
    keywords = {**DEFAULT_KEYWORDS, "say": None}  # the engines' sentences (make i18n's -k say)
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=keywords
    ):
        key = message[0] if isinstance(message, tuple) else message
        found[key] = message
    return found


def test_the_extraction_finds_the_client_and_the_server() -> None:
    found = extracted()
    assert "Start the game" in found  # sengoku/web/js/app.js
    assert "match ids are 1-32 letters, digits, - or _" in found  # sengoku/server/routes
    assert isinstance(found["{n} day per move"], tuple)  # an ngettext() of the client
    # The long texts are the "texts" domain's (tests/server/test_texts_i18n.py), not these.
    assert "Welcome to Gungi" not in found  # a tutorial's step (sengoku/web/tutorials/gungi.json)
    assert "Play: move or drop" not in found  # the Rules panel's phase (sengoku/web/phases)


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_every_marked_string_is_translated(lang: str) -> None:
    catalog = i18n.catalog(lang)
    problems: list[str] = []
    for key, message in sorted(extracted().items()):
        entry = catalog.get(message if isinstance(message, str) else message[0])
        if entry is None:
            problems.append(f"missing (run `make i18n`): {key!r}")
            continue
        if entry.fuzzy:
            problems.append(f"fuzzy: {key!r}")
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if isinstance(message, tuple) != isinstance(entry.id, tuple):
            problems.append(f"plural in one, not the other (run `make i18n`): {key!r}")
        if not all(forms):
            problems.append(f"untranslated: {key!r}")
        wanted = sorted(
            set(PLACES.findall(" ".join(message if isinstance(message, tuple) else (message,))))
        )
        for form in forms:
            if form and sorted(set(PLACES.findall(form))) != wanted:
                problems.append(f"places {wanted} differ in {form!r} ({key!r})")
    assert not problems, f"{lang}: {len(problems)} problems:\n" + "\n".join(problems)


def test_the_catalogs_hold_no_message_nobody_marks() -> None:
    """`make i18n` drops what the code no longer marks: the catalogs are the code's."""
    marked = set(extracted())
    for lang in i18n.LANGUAGES:
        stale = {m.id if isinstance(m.id, str) else m.id[0] for m in i18n.catalog(lang) if m.id}
        assert not stale - marked, f"{lang}: {sorted(stale - marked)}"


# rulebook-free: the languages' own plural rules (CLDR, which Babel carries)
@pytest.mark.parametrize(
    ("lang", "n", "expected"),
    [
        ("fr", 0, "{n} jour par coup"),  # French counts 0 as singular
        ("fr", 1, "{n} jour par coup"),
        ("fr", 2, "{n} jours par coup"),
        ("fr", 7, "{n} jours par coup"),
        ("en", 0, "{n} days per move"),  # English does not
        ("en", 1, "{n} day per move"),
        ("en", 2, "{n} days per move"),
        ("ja", 1, "1手 {n} 日"),  # Japanese has one form
        ("ja", 7, "1手 {n} 日"),
    ],
)
def test_plural_forms_follow_the_language(lang: str, n: int, expected: str) -> None:
    assert i18n.ngettext(lang, "{n} day per move", "{n} days per move", n) == expected


def test_the_plural_tables_map_cldr_categories_to_the_catalogs_forms() -> None:
    assert i18n.plural_table("en") == {"one": 0, "other": 1}
    assert i18n.plural_table("ja") == {"other": 0}
    fr = i18n.plural_table("fr")
    assert fr["one"] == 0 and fr["other"] != 0
    assert fr.get("many", fr["other"]) != 0  # "un million de ..." is no singular


def test_accept_language_and_the_cookie_choose_the_language() -> None:
    assert i18n.choose({}, "fr-CA,en;q=0.5") == "fr"
    assert i18n.choose({}, "de, ja;q=0.3, fr;q=0.2") == "ja"
    assert i18n.choose({}, "en;q=0.1, fr;q=0.9") == "fr"
    assert i18n.choose({}, "de") == "en"
    assert i18n.choose({}, None) == "en"
    assert i18n.choose({"sengoku_lang": "ja"}, "fr") == "ja"  # the switch wins
    assert i18n.choose({"sengoku_lang": "xx"}, "fr") == "fr"  # an unknown cookie does not


def test_the_client_catalog_is_served(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:
        r = client.get("/api/i18n/fr.json")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["lang"] == "fr"
        assert body["messages"]["Start the game"] == "Commencer la partie"
        forms = body["messages"]["{n} day per move"]
        assert isinstance(forms, list) and forms[body["plural"]["one"]] == "{n} jour par coup"
        assert forms[body["plural"]["other"]] == "{n} jours par coup"
        r = client.get("/api/i18n/ja.json")
        assert r.status_code == 200, r.text
        assert r.json()["plural"] == {"other": 0}
        r = client.get("/api/i18n/de.json")
        assert r.status_code == 404, r.text
        assert r.json()["error"]["code"] == "unknown_language"


def test_error_messages_come_in_the_requests_language(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client() as client:
        english = "match ids are 1-32 letters, digits, - or _"
        r = client.get("/api/matches/bad!id")
        assert r.status_code == 404, r.text
        assert r.json()["error"]["message"] == english
        r = client.get("/api/matches/bad!id", headers={"Accept-Language": "ja,en;q=0.5"})
        assert r.status_code == 404, r.text
        assert r.json()["error"] == {
            "code": "no_such_match",
            "message": "対局IDは英数字・-・_ の1〜32文字です",
        }
        client.cookies.set("sengoku_lang", "fr")
        r = client.get("/api/matches/bad!id", headers={"Accept-Language": "ja"})
        assert r.status_code == 404, r.text
        assert r.json()["error"]["message"].startswith("un identifiant de partie")
        # the move's hot route (sengoku/server/hot.py) answers in the language too
        match = new_match(client)
        r = client.get(f"/api/matches/{match['id']}/events", headers={"Authorization": "Basic abc"})
        assert r.status_code == 401, r.text
        assert r.json()["error"]["message"] == "Authorization doit valoir 'Bearer <jeton de place>'"
        # a message with values: translated, then filled in (%(seat)s)
        r = client.post(
            f"/api/matches/{match['id']}/actions",
            json={"action": "take 1", "ply": 0},
            headers={"Authorization": f"Bearer {match['tokens']['1']}"},
        )
        assert r.status_code == 409, r.text
        assert r.json()["error"] == {
            "code": "not_your_turn",
            "message": "ce n’est pas votre tour : c’est à la place 0 de jouer",
        }


def test_websocket_errors_and_refusals_come_in_the_handshakes_language(
    make_client: Callable[..., TestClient],
) -> None:
    """The WebSocket's ``error`` and ``refused`` messages: in the handshake's cookie's or
    Accept-Language's language, values filled in after; the codes never change."""
    from test_server_websocket import receive_until

    with make_client() as client:
        with client.websocket_connect("/ws/matches/nobody-here") as ws:
            assert ws.receive_json() == {
                "type": "error",
                "code": "no_such_match",
                "message": "there is no match 'nobody-here'",
            }
        client.cookies.set("sengoku_lang", "ja")
        with client.websocket_connect("/ws/matches/nobody-here") as ws:
            assert ws.receive_json()["message"] == "対局 'nobody-here' はありません"
        client.cookies.clear()
        match = new_match(client)
        french = {"Accept-Language": "fr-CA, en;q=0.5"}
        with client.websocket_connect(f"/ws/matches/{match['id']}", headers=french) as spec:
            spec.send_json({"type": "hello"})
            receive_until(spec, "state")
            spec.send_json({"type": "action", "action": "take 1", "ply": 0, "id": "a"})
            refused = receive_until(spec, "refused")[-1]
            assert refused["code"] == "spectator"
            assert refused["reason"] == "les spectateurs ne peuvent pas jouer"
            spec.send_json({"type": "dance", "id": "b"})
            refused = receive_until(spec, "refused")[-1]
            assert refused["reason"] == (
                "type de message inconnu 'dance' ; envoyez action, resign, chat ou ping"
            )
        # the service's own errors (ApiError) too, translated then filled in
        with client.websocket_connect(f"/ws/matches/{match['id']}", headers=french) as seat1:
            seat1.send_json({"type": "hello", "token": match["tokens"]["1"]})
            receive_until(seat1, "state")
            seat1.send_json({"type": "action", "action": "take 1", "ply": 0, "id": "c"})
            refused = receive_until(seat1, "refused")[-1]
            assert refused["code"] == "not_your_turn"
            assert refused["reason"] == "ce n’est pas votre tour : c’est à la place 0 de jouer"


def test_the_guards_refusals_come_in_the_requests_language() -> None:
    """The request guard's own answers (a body over the route's cap, a rate limit), which
    no route sees, are in the request's language too."""
    import asyncio

    from sengoku.server import guard

    scope = {"type": "http", "headers": [(b"cookie", b"sengoku_lang=fr")]}
    assert guard.language(scope) == "fr"
    assert guard.language({"type": "http", "headers": [(b"accept-language", b"ja")]}) == "ja"
    sent: list[dict[str, object]] = []

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    async def run() -> None:
        gate = guard.GuardMiddleware.__new__(guard.GuardMiddleware)
        await gate._limited(scope, send, 2.4, "replays")
        await gate._too_large(scope, send, "POST", "/api/matches", 10)

    asyncio.run(run())
    bodies = [m["body"] for m in sent if m["type"] == "http.response.body"]
    assert bodies[0] == guard.error_body(
        "rate_limited", "trop de rejeux depuis votre adresse ; réessayez dans 2 s"
    )
    assert b"sont limit" in bodies[1] and b"POST" in bodies[1]


def test_error_messages_with_values_come_in_the_requests_language(
    make_client: Callable[..., TestClient],
) -> None:
    """Messages once built with f-strings: marked, translated, then filled in."""
    with make_client() as client:
        r = client.get("/api/matches/nobody-here", headers={"Accept-Language": "ja"})
        assert r.status_code == 404, r.text
        assert r.json()["error"] == {
            "code": "no_such_match",
            "message": "対局 'nobody-here' はありません",
        }
        r = client.get("/api/games/chess", headers={"Accept-Language": "fr"})
        assert r.status_code == 404, r.text
        assert r.json()["error"]["message"] == "jeu inconnu 'chess' ; voir /api/games"
        r = client.get("/api/i18n/de.json", headers={"Accept-Language": "fr"})
        assert r.status_code == 404, r.text
        assert r.json()["error"]["message"] == "langue inconnue 'de' ; une parmi en, ja, fr"
        r = client.get("/api/matches/nobody-here")
        assert r.status_code == 404, r.text
        assert r.json()["error"]["message"] == "there is no match 'nobody-here'"
        # a turn's check: an action id used for another action, its values filled in after
        match = new_match(client, options={"pile": 9})
        url = f"/api/matches/{match['id']}/actions"
        seat0 = {"Authorization": f"Bearer {match['tokens']['0']}", "Accept-Language": "fr"}
        r = client.post(url, json={"action": "take 1", "id": "same"}, headers=seat0)
        assert r.status_code == 200, r.text
        r = client.post(url, json={"action": "take 2", "id": "same"}, headers=seat0)
        assert r.status_code == 409, r.text
        assert r.json()["error"] == {
            "code": "id_used",
            "message": "cet identifiant d'action a servi pour une autre action (coup 1 : take 1) ; "
            "utilisez un nouvel identifiant pour une nouvelle action",
        }
        # the lobby's seeks
        r = client.post("/api/seeks/nope/accept", json={}, headers={"Accept-Language": "ja"})
        assert r.status_code == 404, r.text
        assert r.json()["error"] == {"code": "no_such_seek", "message": "募集 'nope' はありません"}
        # a message that was plain English, never marked: now marked and translated
        seat1 = {"Authorization": f"Bearer {match['tokens']['1']}", "Accept-Language": "ja"}
        r = client.post(url, json={"action": "take 1"}, headers=seat1)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "missing_ply"
        assert r.json()["error"]["message"].startswith("手には 'ply'（見た手の数）")
        # Starlette's own words, for a path no route serves
        r = client.get("/api/no-such-thing", headers={"Accept-Language": "fr"})
        assert r.status_code == 404, r.text
        assert r.json()["error"] == {"code": "not_found", "message": "Introuvable"}
        r = client.get("/api/ratings/chess", headers={"Accept-Language": "fr"})
        assert r.status_code == 404, r.text
        assert r.json()["error"]["message"].startswith("'chess' n'est pas classé ; jeux classés : ")


def test_an_engines_sentence_is_translated_with_its_words() -> None:
    """An engine's sentence (sengoku/core/sentence.py): the template from the messages
    catalog, a marked word from the games' catalogs, other values as they are."""
    from sengoku.server.errors import ApiError

    words = i18n.client_catalog("fr")["words"]
    assert words["Cavalry"] == i18n.word_("fr", "Cavalry") != "Cavalry"  # Gunkimono's troop
    say = {"text": "Start the game", "args": {}}
    assert i18n.sentence_("fr", say) == i18n.gettext_("fr", "Start the game") != "Start the game"
    # a template the catalog lacks shows in English, its words still in the language
    odd = {"text": "{troop} on {square}", "args": {"troop": "Cavalry", "square": "c4"}}
    assert i18n.sentence_("fr", odd) == "Cavalry on c4"  # not marked as a word: as it is
    assert i18n.sentence_("fr", {**odd, "words": ["troop"]}) == f"{words['Cavalry']} on c4"
    # an error raised with a sentence answers in the language; without one, its text
    exc = ApiError(422, "illegal_action", "Start the game", say=say)
    fr = exc.localized(lambda t: i18n.gettext_("fr", t), lambda s: i18n.sentence_("fr", s))
    assert fr == i18n.gettext_("fr", "Start the game")
    # a template whose places the values do not fill is shown as it is, never an exception
    assert i18n.sentence_("fr", {"text": "{a}", "args": {"b": 1}}) == "{a}"


def test_an_illegal_gungi_move_is_refused_in_the_requests_language(
    make_client: Callable[..., TestClient],
) -> None:
    """Gungi's reasons are sentences (sengoku/games/gungi/illegal.py, game.py): the server
    answers an illegal move in the cookie's language, the English unchanged without one."""
    with make_client() as client:
        match = new_match(client, game="gungi", options={"mode": "intro"})
        url = f"/api/matches/{match['id']}/actions"
        seat = next(s for s, t in match["tokens"].items() if t)
        headers = {"Authorization": f"Bearer {match['tokens'][seat]}"}
        body = {"action": "7-6-4 兵", "ply": 0}  # rulebook: the intro's towers are 2 high
        r = client.post(url, json=body, headers=headers)
        assert r.status_code in (409, 422), r.text
        if r.json()["error"]["code"] == "not_your_turn":  # the other seat moves first
            seat = next(s for s in match["tokens"] if s != seat)
            headers = {"Authorization": f"Bearer {match['tokens'][seat]}"}
            r = client.post(url, json=body, headers=headers)
        assert r.status_code == 422, r.text
        english = r.json()["error"]
        assert english["code"] == "illegal_action"
        assert english["message"].startswith(
            "'7-6-4 兵': tier 4: towers are at most 2 high in this mode (intro). Write "
        ), english
        client.cookies.set("sengoku_lang", "fr")
        r = client.post(url, json=body, headers=headers)
        assert r.status_code == 422, r.text
        french = r.json()["error"]
        assert french["code"] == "illegal_action"
        assert french["message"].startswith(
            "'7-6-4 兵' : étage 4 : dans ce mode (intro), les tours ont au plus 2 étages. "
            "Écrivez colonne-rangée-étage pièce"
        ), french
        # Done outside a free setup names no move: the reason and its advice in Japanese
        client.cookies.set("sengoku_lang", "ja")
        r = client.post(url, json={"action": "done", "ply": 0}, headers=headers)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["message"].startswith(
            "'done' はどの合法手にも当たりません。筋-段-段目 駒 の順に書いてください"
        ), r.text


def test_the_routes_refusals_with_values_come_in_the_requests_language(
    make_client: Callable[..., TestClient],
) -> None:
    """Match creation, the analysis board and the puzzles: messages once built with
    f-strings are marked templates with values, and an engine's reason inside one (the
    board's line, a puzzle's move) is the engine's sentence in the language."""
    from sengoku.analysis.puzzles import load

    with make_client() as client:
        fr = {"Accept-Language": "fr"}
        body = {"game": "secretnim", "seats": [{"kind": "local"}]}
        r = client.post("/api/matches", json=body)
        assert r.status_code == 422, r.text
        english = r.json()["error"]
        assert english == {
            "code": "bad_seats",
            "message": "secretnim with these options has 2 seats; 'seats' lists 1",
        }
        r = client.post("/api/matches", json=body, headers=fr)
        assert r.status_code == 422, r.text
        assert r.json()["error"] == {
            "code": "bad_seats",
            "message": "secretnim avec ces options a 2 places ; 'seats' en donne 1",
        }
        body = {"game": "secretnim", "seats": [{"kind": "local"}, {"kind": "invite"}], "seed": 5}
        r = client.post("/api/matches", json=body, headers={"Accept-Language": "ja"})
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "seed_not_allowed"
        assert "席 1 は invite です" in r.json()["error"]["message"], r.text
        # the analysis board: a line with an illegal Gungi move, the engine's reason inside
        board = {
            "game": "gungi",
            "options": {"mode": "intro"},
            "from": {"setup": True},
            "actions": ["7-6-4 兵"],
        }
        r = client.post("/api/board/position", json=board)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["message"].startswith(
            "actions[0] ('7-6-4 兵'): '7-6-4 兵': tier 4: towers are at most 2 high"
        ), r.text
        r = client.post("/api/board/position", json=board, headers=fr)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["message"].startswith(
            "actions[0] ('7-6-4 兵') : '7-6-4 兵' : étage 4 : dans ce mode (intro), les tours"
        ), r.text
        r = client.post("/api/board/position", json={**board, "from": {}}, headers=fr)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["message"] == (
            "from : donnez exactement un de setup (true), record, match_id, fen ou position"
        )
        # the puzzles: an unknown game, then a move the position refuses
        r = client.get("/api/puzzles/next", params={"game": "chess"}, headers=fr)
        assert r.status_code == 404, r.text
        assert r.json()["error"]["message"].startswith("aucun problème pour 'chess' ; il y en a"), (
            r.text
        )
        puzzle = load("gungi")[0]
        r = client.post(f"/api/puzzles/{puzzle.id}/move", json={"moves": ["0-6-1 兵"]}, headers=fr)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["message"].startswith(
            "moves[0] : '0-6-1 兵' n’est pas un coup ici : '0-6-1 兵' : la colonne 0 est hors du "
            "plateau : les colonnes vont de 1 à 9."
        ), r.text


def test_pydantics_words_come_in_the_requests_language(
    make_client: Callable[..., TestClient],
) -> None:
    """A body that does not validate (422 bad_request): the field names as the API spells
    them, pydantic's words translated by the error's type; English unchanged."""
    with make_client() as client:
        body = {"game": "secretnim", "seats": [{"kind": "local"}, {"kind": "robot"}]}
        r = client.post("/api/matches", json=body)
        assert r.status_code == 422, r.text
        assert r.json()["error"] == {
            "code": "bad_request",
            "message": "seats.1.kind: Input should be 'local', 'invite', 'open' or 'ai'",
        }
        r = client.post("/api/matches", json=body, headers={"Accept-Language": "fr"})
        assert r.status_code == 422, r.text
        assert r.json()["error"]["message"] == (
            "seats.1.kind: la valeur doit être 'local', 'invite', 'open' or 'ai'"
        )
        client.cookies.set("sengoku_lang", "ja")
        r = client.post("/api/matches", json={"seats": []})
        assert r.status_code == 422, r.text
        assert r.json()["error"]["message"].startswith("game: 必須の欄です"), r.text


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_every_pydantic_template_fills_with_its_types_context(lang: str) -> None:
    """Each error type listed is one pydantic_core has, and its translation fills with the
    context pydantic gives that type (no place the context lacks)."""
    from pydantic_core._pydantic_core import list_all_errors

    from sengoku.server.routes.errors import PYDANTIC_WORDS, pydantic_words

    known = {e["type"]: e for e in list_all_errors()}
    for kind, template in PYDANTIC_WORDS.items():
        assert kind in known, kind
        ctx = known[kind].get("example_context") or {}
        err = {"type": kind, "msg": "ENGLISH", "ctx": ctx}
        words = pydantic_words(err, lang)
        assert words != "ENGLISH" and words == i18n.gettext_(lang, template) % {
            k: str(v) for k, v in ctx.items()
        }, (kind, words)
        assert pydantic_words(err, "en") == "ENGLISH"  # English: pydantic's own message


def test_a_records_field_problems_come_in_the_requests_language(
    make_client: Callable[..., TestClient],
) -> None:
    """A record that does not validate (the import, the analysis board's from.record):
    pydantic's words by type, the field named as the record spells it; English unchanged."""
    with make_client() as client:
        record = {"game": "gungi", "version": 1, "actions": "not a list"}
        r = client.post("/api/records", json=record)
        assert r.status_code == 422, r.text
        english = r.json()["error"]["message"]
        assert "record field 'actions': Input should be a valid list" in english, r.text
        r = client.post("/api/records", json=record, headers={"Accept-Language": "fr"})
        assert r.status_code == 422, r.text
        assert (
            "champ 'actions' de la partie : la valeur doit être une liste"
            in (r.json()["error"]["message"])
        ), r.text
        board = {"game": "gungi", "from": {"record": record}}
        r = client.post("/api/board/position", json=board, headers={"Accept-Language": "ja"})
        assert r.status_code == 422, r.text
        message = r.json()["error"]["message"]
        assert message.startswith("from.record：棋譜の欄 "), r.text
        assert "棋譜の欄 'actions'：リストでなければなりません" in message, r.text
        r = client.post("/api/records", json=[1], headers={"Accept-Language": "fr"})
        assert r.status_code == 422, r.text
        assert r.json()["error"]["message"] == "une partie est un objet JSON"


def test_an_engines_option_refusal_comes_in_the_requests_language(
    make_client: Callable[..., TestClient],
) -> None:
    """Match creation passes an engine's refusal on with its sentence (errors.engine_error)."""
    with make_client() as client:
        body = {
            "game": "gungi",
            "seats": [{"kind": "local"}, {"kind": "local"}],
            "options": {"mode": "beginner", "betrayal": "all_or_nothing"},
        }
        r = client.post("/api/matches", json=body)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "bad_option"
        assert r.json()["error"]["message"].startswith("option 'betrayal' rules the Captain")
        r = client.post("/api/matches", json=body, headers={"Accept-Language": "fr"})
        assert r.status_code == 422, r.text
        assert r.json()["error"]["message"].startswith(
            "l’option 'betrayal' règle la pièce Capitaine (謀)"
        ), r.text
