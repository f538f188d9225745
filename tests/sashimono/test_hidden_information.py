"""Hidden information: what each seat knows is kept, what it does not know never shows.

Two kinds of checks, in both modes (the duel and the solo game against the Kagemusha):

* **Pairs built without ``determinize``.** The test follows a game as one seat is told it
  (public events and its own), works out from the rules what that seat knows of the other
  seat's Sonae (:class:`Seen`), and deals everything else of the other side again
  (:func:`resample`): hand, deck, antes, looked-at cards and the Hidden Kumi the seat cannot
  identify; in the solo game the Kagemusha's decks and Army card. Both positions must give
  the seat the same view, the same legal actions whenever it decides, and the same views
  for as long as the seat is told the same things.
* **Worlds from ``determinize(seat, rng)``**: the same view, the other seat's known Hidden
  Kumi and announced card kept, legal play for every seat (also the seat not to move, also
  mid-turn) to the end of the game, no true private card of another seat in
  ``legal_actions()``, no seed and no true deck order.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sengoku.games.sashimono import Sashimono
from sengoku.games.sashimono.state import (
    CELLS,
    K_PLAY,
    KAGE,
    LINE_NAMES,
    LINES,
    SashimonoState,
    is_up,
    rank,
    types_of,
)

from .conftest import at_turn, give_sashimono, play

PRIVATE_FIELDS = ("cards", "types")
MODES = [{}, {"mode": "solo"}, {"mode": "solo", "army": "east"}]


class Seen:
    """What ``seat`` knows of the types in the other seat's Sonae, from what it is told:
    the printed starting Sonae, Kumi seen face up (also after they are turned face down),
    trained stacks, swaps and rearrangements (public), and its own peeks. ``None``: a
    Hidden Kumi it cannot identify (or an empty space)."""

    def __init__(self, st: SashimonoState, seat: int) -> None:
        self.seat = seat
        self.other = 1 - seat
        self.types: list[str | None] = [types_of(c) if c else None for c in st.cs.sonae]

    def told(self, events: list[dict[str, Any]]) -> None:
        o, types = self.other, self.types
        for ev in events:
            audience = ev["audience"]
            if audience is not None and self.seat not in audience:
                continue
            kind = ev["type"]
            where = CELLS.index(ev["cell"]) if ev.get("cell") in CELLS else None
            if kind == "flip" and ev.get("side") == o and "stack" in ev:
                types[where] = types_of(ev["stack"])  # type: ignore[index]
            elif kind == "place" and ev.get("seat") == o and audience is None:
                types[where] = ev.get("kumi")  # type: ignore[index]
            elif kind in ("casualty", "return") and ev.get("side") == o and where is not None:
                types[where] = None
            elif kind == "train" and ev.get("seat") == o:
                types[where] = types_of(ev["stack"])  # type: ignore[index]
            elif kind == "swap" and ev.get("seat") == o:
                i, j = (CELLS.index(c) for c in ev["cells"])
                types[i], types[j] = types[j], types[i]
            elif kind == "rearrange" and ev.get("seat") == o:
                line = LINES[LINE_NAMES.index(ev["line"])]
                old = [types[i] for i in line]
                for k, cell in enumerate(line):
                    types[cell] = old[line.index(CELLS.index(ev["order"][2 * k : 2 * k + 2]))]
            elif kind == "peek" and audience == [self.seat]:
                types[where] = ev["types"]  # type: ignore[index]


def _deal_hidden(ranks: dict[int, int], pool: list[str], rng: random.Random) -> dict[int, str]:
    """Distinct types of the right Rank for each space, drawn from ``pool`` (which shrinks)."""
    for _ in range(2000):
        left = list(pool)
        rng.shuffle(left)
        dealt: dict[int, str] = {}
        for i, n in ranks.items():
            stack = ""
            for t in list(left):
                if t not in stack and len(stack) < n:
                    stack += t
                    left.remove(t)
            if len(stack) < n:
                break
            dealt[i] = stack
        else:
            pool[:] = left
            return dealt
    raise AssertionError("no deal of the Hidden Kumi found")


def resample(st: SashimonoState, seat: int, seen: Seen | None, rng: random.Random) -> Any:
    """Another position ``seat`` cannot tell from ``st`` by what it sees: what it cannot see
    dealt again (cards it saw go to the bottom of a deck are dealt again too: when they come
    back, the seat is told different things and the comparison ends there)."""
    b = st.clone()
    if b.solo:
        k = b.sides[KAGE]
        rng.shuffle(k.deck)
        pool = k.sdeck + [k.marker]
        rng.shuffle(pool)
        k.marker, k.sdeck = pool[0], pool[1:]
        return b
    assert seen is not None
    o = seen.other
    s = b.sides[o]
    ante = b.battle["ante"][str(o)] if b.battle else []
    looks_kumi = b.look.owner == o and b.look.cards and isinstance(b.look.cards[0], str)
    looks_sas = b.look.owner == o and b.look.cards and not isinstance(b.look.cards[0], str)
    ranks = {i: rank(c) for i, c in enumerate(s.cells)
             if c is not None and not is_up(c) and seen.types[i] is None}  # fmt: skip
    pool = s.deck + s.hand + ante + (b.look.cards if looks_kumi else [])
    pool += [t for i in ranks for t in types_of(s.cells[i] or "")]
    for i, stack in _deal_hidden(ranks, pool, rng).items():
        s.cells[i] = stack + "v"
    rng.shuffle(pool)
    s.hand, pool = pool[: len(s.hand)], pool[len(s.hand) :]
    if ante:
        b.battle["ante"][str(o)], pool = pool[: len(ante)], pool[len(ante) :]
    if looks_kumi:
        b.look.cards, pool = pool[: len(b.look.cards)], pool[len(b.look.cards) :]
    s.deck = pool
    # a card the other seat has announced ("place X next to ...") stays in its hand
    announced = b.ctx.get("card") if b.ctx.get("seat") == o and "slot" not in b.ctx else None
    spool = s.sdeck + [c for c in s.shand if c != announced] + (b.look.cards if looks_sas else [])
    rng.shuffle(spool)
    s.shand = [c if c == announced else spool.pop() for c in s.shand]
    if looks_sas:
        b.look.cards, spool = spool[: len(b.look.cards)], spool[len(b.look.cards) :]
    s.sdeck = spool
    return b


def _told(events: list[dict[str, Any]], seat: int) -> str:
    return json.dumps([e for e in events if e["audience"] is None or seat in e["audience"]])


def _legal(st: SashimonoState) -> list[tuple[int, str]]:
    return [(int(a), str(a)) for a in st.legal_actions()]


def _games(options: dict[str, Any], games: int, seed: int) -> Any:
    """Random games: each position as it comes, with the events of the step that made it."""
    game = Sashimono()
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        st = game.new_state(rng.randrange(2**31), **options)
        assert isinstance(st, SashimonoState)
        yield st, [], rng
        while not st.is_terminal():
            events = st.apply(rng.choice(st.legal_actions()))
            yield st, events, rng


@pytest.mark.parametrize("options", MODES, ids=["duel", "solo-west", "solo-east"])
def test_pairs_the_seat_cannot_tell_apart_play_on_alike(options: dict[str, Any]) -> None:
    compared = decided = pairs = 0
    seats = [0] if options else [0, 1]
    for seat in seats:
        seen: Seen | None = None
        for st, events, rng in _games(options, 8, seed=seat):
            if st.decisions == 0:
                seen = None if st.solo else Seen(st, seat)
                continue
            if seen is not None:
                seen.told(events)
            if st.is_terminal() or st.current_player != seat or rng.random() > 0.3:
                continue
            a, b = st.clone(), resample(st, seat, seen, rng)
            pairs += 1
            assert b.view(seat) == a.view(seat)
            for _ in range(60):
                if a.is_terminal() or b.is_terminal():
                    assert a.is_terminal() and b.is_terminal()
                    break
                if a.current_player == seat:
                    # what the seat may do never depends on what it cannot see
                    assert _legal(a) == _legal(b)
                    decided += 1
                action = rng.choice(a.legal_actions())
                if action not in b.legal_actions():
                    break  # the other seat's own cards allow other choices
                told_a, told_b = _told(a.apply(action), seat), _told(b.apply(action), seat)
                if told_a != told_b:
                    break  # the seat was told different things: the positions part here
                assert a.view(seat) == b.view(seat)
                compared += 1
    assert pairs > 40 and compared > 200 and decided > 100


def _positions(options: dict[str, Any], games: int, seed: int) -> Any:
    """Sampled positions with, for each seat, what it has been told of the other side."""
    seens: list[Seen] = []
    for st, events, rng in _games(options, games, seed):
        if st.decisions == 0:
            seens = [] if st.solo else [Seen(st, 0), Seen(st, 1)]
        for seen in seens:
            seen.told(events)
        if st.is_terminal():
            continue
        assert st.prompt is not None
        # every announced card (issue 15.1) and every choice of a card (15.2), else a few
        if st.prompt["op"] in ("slot", "play") or rng.random() < 0.2:
            yield st, seens, rng


def _check_world(st: SashimonoState, world: SashimonoState, seat: int) -> None:
    assert world.view(seat) == st.view(seat)
    # no seed and nothing that is not part of a position
    assert "seed" not in json.dumps(world.to_json())
    assert not [name for name in vars(world) if "seed" in name or "rng" in name]
    me, w_me = st.sides[seat], world.sides[seat]
    assert w_me.hand == me.hand and w_me.cells == me.cells and w_me.shand == me.shand
    assert sorted(w_me.deck) == sorted(me.deck) and sorted(w_me.sdeck) == sorted(me.sdeck)
    if world.current_player not in (seat, -1):
        other = world.sides[world.current_player]
        for a in world.legal_actions():
            if a.kind == K_PLAY:
                # the other seat's choices come from the world's cards, not the true ones
                assert a.arg in other.shand


@pytest.mark.parametrize("options", MODES, ids=["duel", "solo-west", "solo-east"])
def test_worlds_keep_the_view_and_play_on_for_every_seat(options: dict[str, Any]) -> None:
    questions: set[str] = set()
    differs = same = 0
    rng = random.Random(5)  # the test's own: the games do not depend on what it draws
    for n, (st, seens, _) in enumerate(_positions(options, 6, seed=7)):
        assert st.prompt is not None
        questions.add(st.prompt["op"])
        for seat in range(st.num_players):
            world = st.determinize(seat, random.Random(rng.randrange(10**6)))
            _check_world(st, world, seat)
            if seens:
                o = 1 - seat
                for i, known in enumerate(seens[seat].types):
                    cell = st.sides[o].cells[i]
                    if cell is not None and not is_up(cell):
                        # the view shows exactly the Hidden Kumi the seat can identify
                        assert st.view(seat)["sides"][o]["sonae"][i]["types"] == known
                    if cell is not None and not is_up(cell) and known is not None:
                        # a Hidden Kumi the seat can identify stays what it is
                        assert world.sides[o].cells[i] == cell
                        assert world.view(seat)["sides"][o]["sonae"][i]["types"] == known
                if st.prompt["op"] == "play" and st.prompt["seat"] == o:
                    pool = st.sides[o].sdeck + st.sides[o].shand
                    if len(set(pool)) > len(st.sides[o].shand):
                        if world.legal_actions() == st.legal_actions():
                            same += 1
                        else:
                            differs += 1
            # the world plays on legally, whoever is to move (to the end of the game for
            # every 8th position)
            for _ in range(5000 if n % 8 == 0 else 12):
                if world.is_terminal():
                    break
                legal = world.legal_actions()
                assert legal, world.prompt
                world.apply(rng.choice(legal))
            assert world.is_terminal() or n % 8
    assert {"play", "slot", "do", "place", "place_at", "ante"} <= questions
    assert "casualty" in questions or options
    if not options:
        # the other seat's cards offered in a world are dealt, not copied
        assert differs > 4 * same


def test_world_keeps_the_card_announced_mid_turn(game: Sashimono) -> None:
    """Issue 15.1: after "play X", before its space is chosen, X is still in the hand."""
    for seed in range(5):
        st = game.new_state(seed)
        rng = random.Random(seed)
        while st.prompt is None or st.prompt["op"] != "play":
            st.apply(rng.choice(st.legal_actions()))
        mover = st.current_player
        st.apply(st.legal_actions()[-1])
        card = st.ctx["card"]
        for seat in (0, 1):
            for k in range(5):
                world = st.determinize(seat, random.Random(k))
                assert card in world.sides[mover].shand
                world.apply(world.legal_actions()[0])
                assert card in world.sides[mover].slots


def test_world_deals_the_hand_a_seat_chooses_from(game: Sashimono) -> None:
    """Issue 15.2: while the other seat chooses a card, a world lists that world's cards."""
    st = game.new_state(3)
    at_turn(st, 1)
    play(game, st, "action")
    true_hand = sorted(st.sides[1].shand)
    listed = []
    for k in range(30):
        world = st.determinize(0, random.Random(k))
        cards = sorted(a.arg for a in world.legal_actions())
        assert cards == sorted(world.sides[1].shand)
        listed.append(cards)
    assert sum(cards != true_hand for cards in listed) >= 25


def test_setup_hidden_kumi_are_public(game: Sashimono) -> None:
    """Issue 15.3: the starting Sonae is printed; its Hidden K, N, T stay in every world."""
    st = game.new_state(11)
    printed = list(st.cs.sonae)
    for seat in (0, 1, None):
        for side in st.view(seat)["sides"]:
            for cell, entry in zip(printed, side["sonae"], strict=True):
                assert entry["types"] == types_of(cell or "")
    for seat in (0, 1):
        for k in range(50):
            world = st.determinize(seat, random.Random(k))
            assert world.sides[1 - seat].cells == printed


def test_kumi_turned_face_down_in_public_stay_known(game: Sashimono) -> None:
    st = game.new_state(5)
    at_turn(st, 1)
    foe = st.sides[0]
    foe.cells[0] = "TK^"  # a1, trained, face up
    give_sashimono(st, 1, "tanaka-yoshimasa")
    play(game, st, "action", "play tanaka-yoshimasa", "slot right-2", "do No-dachi")
    play(game, st, "flip enemy a1")
    assert foe.cells[0] == "TKv"
    assert st.view(1)["sides"][0]["sonae"][0]["types"] == "TK"
    assert st.view(None)["sides"][0]["sonae"][0]["types"] == "TK"
    for k in range(50):
        assert st.determinize(1, random.Random(k)).sides[0].cells[0] == "TKv"


def test_a_kumi_played_hidden_is_unknown_until_peeked(game: Sashimono) -> None:
    st = game.new_state(4)
    at_turn(st, 1)
    foe = st.sides[1]
    foe.cells[0] = None
    foe.hand = ["N", "T", "K"]
    play(game, st, "score", "no bonus", "kumi h1", "to a1 hidden")
    assert st.current_player == 0 and foe.cells[0] == "Nv"
    assert st.view(0)["sides"][1]["sonae"][0]["types"] is None
    assert st.view(1)["sides"][1]["sonae"][0]["types"] == "N"
    types = {st.determinize(0, random.Random(k)).sides[1].cells[0] for k in range(40)}
    assert len(types) > 1
    give_sashimono(st, 0, "chosokabe-morichika")
    at_turn(st, 0)
    play(game, st, "action", "play chosokabe-morichika", "slot right-2", "do Rappa")
    play(game, st, "peek enemy a1")
    assert st.view(0)["sides"][1]["sonae"][0]["types"] == "N"
    assert st.view(None)["sides"][1]["sonae"][0]["types"] is None
    for k in range(40):
        assert st.determinize(0, random.Random(k)).sides[1].cells[0] == "Nv"


def test_rearranging_is_public_and_knowledge_moves_along(game: Sashimono) -> None:
    st = game.new_state(6)
    at_turn(st, 1)
    foe = st.sides[1]
    play(game, st, "score")
    assert "bonus Gyorin" in [str(a) for a in st.legal_actions()]
    events = play(game, st, "bonus Gyorin", "rearrange row1", "order c1b1a1")
    (moved,) = [e for e in events if e["type"] == "rearrange"]
    assert moved["audience"] is None and moved["order"] == "c1b1a1"
    # b1 (Hidden, printed K) stays in the middle; a1 and c1 change places
    assert foe.cells[:3] == ["N^", "Kv", "T^"]
    seen = Seen(game.new_state(6), 0)
    seen.told(events)
    assert seen.types[:3] == ["N", "K", "T"]


def test_events_for_everyone_carry_no_private_detail() -> None:
    for st, events, _ in _games({}, 6, seed=3):
        for ev in events:
            if ev["audience"] is None:
                assert not any(f in ev for f in PRIVATE_FIELDS if ev["type"] != "peek"), ev
                if ev["type"] == "place" and "Hidden" in ev["message"]:
                    assert "kumi" not in ev
        del st


def test_views_share_no_mutable_entries(game: Sashimono) -> None:
    st = game.new_state(2)
    before = json.dumps(st.view(0))
    for side in st.view(0)["sides"]:
        for entry in side["sonae"]:
            if entry is not None:
                entry["rank"] = -1
                entry["types"] = "changed"
    assert json.dumps(st.view(0)) == before


def test_positions_saved_before_knowledge_was_kept_still_load(game: Sashimono) -> None:
    st = game.new_state(8)
    data = json.loads(json.dumps(st.to_json()))
    for side in data["sides"]:
        del side["known"]
    back = game.state_from_json(data)
    # a Hidden Kumi is then taken as known to its owner only
    assert back.view(0)["sides"][1]["sonae"][1] == {**st.view(0)["sides"][1]["sonae"][1],
                                                    "types": None}  # fmt: skip
    assert back.view(1)["sides"][1] == st.view(1)["sides"][1]
    assert back.legal_actions() == st.legal_actions()


def test_spectator_sees_no_hand(game: Sashimono) -> None:
    st = game.new_state(1)
    view = st.view(None)
    for side in view["sides"]:
        assert side["hand"] is None and side["sashimono_hand"] is None
    assert view["looking"]["cards"] is None and view["prompt"]["options"] is None


# ---------------------------------------------------------------- what went to the bottom


def test_sashimono_returned_at_setup_are_remembered_by_their_owner_only(
    game: Sashimono,
) -> None:
    st = game.new_state(9)
    shown = st.view(0)["looking"]["cards"]
    play(game, st, "bottom L1", "bottom L1")  # the first two looked-at cards, in that order
    returned = [st.cs.index[c] for c in shown[:2]]
    assert st.sides[0].sdeck[-2:] == returned
    others = set()
    for k in range(30):
        assert st.determinize(0, random.Random(k)).sides[0].sdeck[-2:] == returned
        others.add(tuple(st.determinize(1, random.Random(k)).sides[0].sdeck[-2:]))
    assert len(others) > 5


def test_a_sashimono_buried_from_play_stays_at_the_bottom(game: Sashimono) -> None:
    st = game.new_state(10)
    at_turn(st, 0)
    c = give_sashimono(st, 0, "mori-terumoto")  # 8 Kumi in hand: not bowed here
    me = st.sides[0]
    me.shand.remove(c)
    me.slots[0] = c
    play(game, st, "score", "keep", "bonus Bakufu", "bury top-a")
    assert me.sdeck[-1] == c and me.slots[0] is None
    for k in range(20):
        assert st.determinize(1, random.Random(k)).sides[0].sdeck[-1] == c


def test_a_face_up_casualty_stays_at_the_bottom_for_everyone(game: Sashimono) -> None:
    found = 0
    for g in range(25):
        rng = random.Random(g)
        st = game.new_state(g)
        while not st.is_terminal() and found < 12:
            before = st.view(None)
            events = st.apply(rng.choice(st.legal_actions()))
            lost = [k for k, e in enumerate(events)
                    if e["type"] == "casualty" and e.get("side") in (0, 1) and "cell" in e]  # fmt: skip
            if not lost or "battle" not in before:
                continue
            ev = events[lost[0]]
            side = ev["side"]
            stack = before["sides"][side]["sonae"][CELLS.index(ev["cell"])]
            later = events[lost[0] :]
            if stack["face"] != "up" or any(e["type"] == "draw" for e in later):
                continue  # (a draw could take it back)
            n, antes = len(stack["types"]), before["battle"]["ante_counts"][str(side)]
            deck = st.sides[side].deck
            lost_at = slice(len(deck) - antes - n, len(deck) - antes)
            assert "".join(deck[lost_at]) == stack["types"]
            for seat in (0, 1):
                for k in range(5):
                    world = st.determinize(seat, random.Random(k))
                    assert world.sides[side].deck[lost_at] == deck[lost_at]
            found += 1
    assert found >= 5


def test_the_kagemushas_discarded_sashimono_stay_at_the_bottom() -> None:
    found = 0
    for st, events, _ in _games({"mode": "solo"}, 20, seed=5):
        n = sum(1 for e in events if e["type"] == "kage_discard" and "Sashimono" in e["message"])
        if not n or st.is_terminal():
            continue
        bottom = st.sides[KAGE].sdeck[-n:]
        for k in range(10):
            assert st.determinize(0, random.Random(k)).sides[KAGE].sdeck[-n:] == bottom
        found += 1
    assert found >= 5


# ---------------------------------------------------------------- how many questions


def _question(st: SashimonoState, seat: int) -> Any:
    return st.view(seat).get("prompt")


def test_whether_a_gunbai_action_is_asked_does_not_tell_a_hidden_kumi(
    game: Sashimono, tmp_path: Any
) -> None:
    from sengoku.games.sashimono.cards import DATA_DIR, load_cards

    west = (DATA_DIR / "west.toml").read_text()
    old = '{ name = "Gennin", requires = ["gunbai"], effect = [{ op = "draw", what = "kumi", count = 1 }] },'
    assert old in west
    (tmp_path / "west.toml").write_text(
        west.replace(old, old.replace('["gunbai"]', '["gunbai", "T"]'), 1)
    )
    (tmp_path / "east.toml").write_text((DATA_DIR / "east.toml").read_text())
    cs = load_cards([tmp_path / "west.toml", tmp_path / "east.toml"])
    questions = []
    for hidden in ("T", "N"):
        st = SashimonoState(game, game.resolve_options(), cs)
        st.setup(1)
        at_turn(st, 0)
        st.sides[0].cells[3:6] = [hidden + "v", "K^", "N^"]  # row 2: flipping a2 gives a T?
        give_sashimono(st, 0, "shima-sakon")
        at_turn(st, 0)
        play(game, st, "action", "play shima-sakon", "slot right-2")
        ready = "do Gennin" in [str(a) for a in st.legal_actions()]
        assert ready == (hidden == "T")
        questions.append(_question(st, 1))
    assert questions[0] == questions[1] and questions[0]["question"] == "do"


def test_whether_training_is_asked_does_not_tell_the_hand(game: Sashimono) -> None:
    questions = []
    for hand in (["T"], ["N"]):
        st = game.new_state(2)
        at_turn(st, 0)
        me = st.sides[0]
        me.cells = ["T^", "Kv", "Nv", "Nv", "K^", "Kv", "Kv", "Nv", "Tv"]
        me.hand = list(hand)
        give_sashimono(st, 0, "ukita-hideie")
        at_turn(st, 0)
        play(game, st, "action", "play ukita-hideie", "slot right-2", "do Dojo")
        # only a1 (a Teppo-Gumi) could be trained: by the Nagae-Gumi, not by a Teppo-Gumi
        assert [str(a) for a in st.legal_actions()] == (
            ["train a1", "no training"] if hand == ["N"] else ["no training"]
        )
        questions.append(_question(st, 1))
        play(game, st, "no training")
        assert me.cells[0] == "T^"
    assert questions[0] == questions[1] and questions[0]["question"] == "train"
