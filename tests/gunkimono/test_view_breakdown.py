"""What the view tells a client about scoring: each player's breakdown (formations,
strongholds, banners), the latest turn's squares and scorings, the faces of the tiles it
names and the formations; and what the choices say they are worth. Nothing hidden leaks."""

from __future__ import annotations

import json
import random

from sengoku.games.gunkimono import BuildStronghold, Place, Score, SmallTile
from sengoku.games.gunkimono.actions import CELL_NAMES, tile_name
from sengoku.games.gunkimono.describe import describe
from sengoku.games.gunkimono.state import GunkimonoState
from tests.gunkimono.helpers import GAME, new


def finished(players: int, seed: int) -> tuple[GunkimonoState, list[GunkimonoState]]:
    """A game played to its end by random choices, and a position before every decision."""
    st = new(players, seed=seed)
    rng = random.Random(seed)
    seen = []
    while not st.is_terminal():
        seen.append(st.clone())
        st.apply(rng.choice(st.legal_actions()))
    return st, seen


def test_the_breakdown_adds_up_and_the_final_total_is_the_result() -> None:
    for players, seed in ((2, 3), (5, 4)):
        st, positions = finished(players, seed)
        for pos in positions[::7] + [st]:
            v = pos.view(None)
            for s, p in enumerate(v["players"]):
                assert p["vp_formations"] + p["vp_strongholds"] == p["score"] == pos.score[s]
                assert p["vp_formations"] >= 0 and p["vp_strongholds"] >= 0
        outcome = st.outcome()
        assert outcome is not None
        for s, p in enumerate(st.view(None)["players"]):
            assert p["total"] == p["score"] + p["banner_points"] == outcome.scores[s]
            assert p["controlled_troops"] == st.controlled_troops(s)


def test_strongholds_assessed_count_apart_from_formations() -> None:
    # Seeds where some player builds a stronghold and its assessments score.
    for seed in range(40):
        st, _ = finished(4, seed)
        if any(st.vp_strongholds):
            break
    else:
        raise AssertionError("no stronghold scored in 40 random games")
    seat = max(range(4), key=lambda s: st.vp_strongholds[s])
    assert st.view(seat)["players"][seat]["vp_strongholds"] == st.vp_strongholds[seat] > 0


def test_the_latest_turn_names_its_squares_and_each_scoring() -> None:
    st = new(3, seed=5)
    seat = st.turn
    place = next(a for a in st.legal_actions() if isinstance(a, Place))
    st.apply(place)
    last = st.view(None)["last_turn"]
    assert last == {
        "seat": seat,
        "squares": [CELL_NAMES[place.a], CELL_NAMES[place.b]],
        "scores": [],
    }
    worth = st.pending[0].vp
    vp = next(a for a in st.legal_actions() if isinstance(a, Score) and not a.honor)
    st.apply(vp)
    scores = st.view(None)["last_turn"]["scores"]
    assert scores == [
        {"kind": "vp", "troop": "ISCPA"[vp.troop], "square": CELL_NAMES[vp.cell], "points": worth}
    ]
    honor = next(a for a in st.legal_actions() if isinstance(a, Score) and a.honor)
    st.apply(honor)
    assert st.view(None)["last_turn"]["scores"][1]["kind"] == "honor"
    # The record stays for the next player to read until that player places a tile.
    while st.turn == seat:
        st.apply(st.legal_actions()[0])
    assert st.view(st.turn)["last_turn"]["seat"] == seat
    small = next(a for a in st.legal_actions() if isinstance(a, SmallTile) and not a.support)
    st.apply(small)
    assert st.view(None)["last_turn"] == {
        "seat": st.turn,
        "squares": [CELL_NAMES[small.cell]],
        "scores": [],
    }


def test_the_view_draws_only_tiles_the_seat_may_see() -> None:
    st, positions = finished(3, 6)
    pos = positions[len(positions) // 2]
    for seat in range(3):
        v = pos.view(seat)
        visible = set(v["row"]) | set(v["placed"]) | set(v["players"][seat]["hand"])
        for p in v["players"]:
            visible |= set(p["hand_known"])
        assert set(v["tiles"]) == visible
        for tid, face in v["tiles"].items():
            assert "".join(f"{h['troop']}{h['symbols']}" for h in face["halves"]) == tid
        others = {tile_name(t) for s in range(3) if s != seat for t in pos.hands[s]}
        hidden = others - visible
        assert not hidden & set(v["tiles"])
    spectator = pos.view(None)
    public = set(spectator["row"]) | set(spectator["placed"])
    for p in spectator["players"]:
        public |= set(p["hand_known"])
    assert set(spectator["tiles"]) == public
    # Banner values stay hidden from others until the end.
    pos.banners[0].append([0, 13, 2])
    assert pos.view(1)["players"][0]["banner_points"] is None
    assert pos.view(1)["players"][0]["total"] is None
    assert pos.view(0)["players"][0]["banner_points"] >= 13


def test_formations_group_the_squares_of_one_formation() -> None:
    st, positions = finished(2, 7)
    for pos in positions[::25]:
        ids = pos.view(None)["board"]["formation"]
        for cell in range(0, len(ids), 9):
            same = {c for c, f in enumerate(ids) if f == ids[cell]}
            assert same == pos.formation(cell)


def test_choices_say_what_a_scoring_and_a_stronghold_are_worth() -> None:
    st, positions = finished(4, 8)
    checked = set()
    for pos in positions:
        for action in pos.legal_actions():
            if isinstance(action, Score):
                d = describe(pos, action).to_json()
                points = pos.pending[0].symbols if action.honor else pos.pending[0].vp
                assert d["points"] == points and f"+{points}" in d["label"]
                checked.add("honor" if action.honor else "vp")
            elif isinstance(action, BuildStronghold):
                d = describe(pos, action).to_json()
                assert d["points"] == pos.formation_size(action.cell)
                checked.add("stronghold")
            elif isinstance(action, Place):
                d = describe(pos, action).to_json()
                assert d["squares"] == [action.a, action.b]
                assert [t["square"] for t in d["troops"]] == [action.a, action.b]
                checked.add("place")
    assert {"honor", "vp", "place"} <= checked


def test_json_keeps_the_record_and_reads_states_saved_before_it() -> None:
    st, positions = finished(2, 9)
    pos = positions[40]
    data = json.loads(json.dumps(pos.to_json()))
    back = GAME.state_from_json(data)
    assert back.view(0) == pos.view(0)
    old = {k: v for k, v in data.items() if k not in ("vp_strongholds", "last_turn")}
    legacy = GAME.state_from_json(old)
    assert legacy.view(0)["last_turn"] is None
    assert legacy.view(0)["players"][0]["vp_strongholds"] == 0
