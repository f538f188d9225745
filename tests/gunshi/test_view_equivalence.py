"""view(seat) is byte-for-byte what the straightforward implementation gives.

``reference_view`` is the view code as it was before the view was made cheaper (cell names
and unit facts looked up once, fences and the Reserve counted in one pass); it is kept here
as the slow reference. Random positions of the variants, every seat and the spectator, must
give the same JSON, key order included.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from sengoku.games.gunshi import Gunshi, GunshiState
from sengoku.games.gunshi.data import (
    BLUE,
    CELLS,
    COLOUR,
    DIR_NAMES,
    EDGE_NAMES,
    EDGES,
    LETTERS,
    NUM_TOKENS,
    RED,
    TOKEN_TYPE,
    cell_name,
)
from sengoku.games.gunshi.state import OFF, SCOUTED, Card, _command_view, _seen
from tests.sampling import sampled_positions


def _ref_card(card: Card | None, show: bool, seat: int | None) -> Any:
    if card is None:
        return None
    return {"card": card[0] if _seen(card, show, seat) else None, "face_up": card[2]}


def reference_view(self: GunshiState, seat: int | None) -> dict[str, Any]:
    o = self.options
    mod1 = o["variant"] == "inspiration" and o["modification"] == 1
    players = []
    for p in (RED, BLUE):
        mine = seat == p
        see_all = mine
        entry: dict[str, Any] = {
            "colour": COLOUR[p],
            "points": self.points[p],
            "fences_left": self.fences_left[p],
            "invaders": self.invaders[p],
            "hand": [c[0] if (see_all or c[1]) else None for c in self.hand[p]],
            "deck": [c[0] if (see_all or c[1]) else None for c in self.deck[p]],
            "stock": [c[0] if mine else None for c in self.stock[p]],
            "row": [_ref_card(c, mine, seat) for c in self.row[p]],
            "lightning": _ref_card(self.lightning[p], mine, seat),
            "chain_trap_beside": self.beside[p] is not None,
            "face_down_next": self.face_down_next[p],
            "shogun": LETTERS[self.shogun[p]]
            if self.shogun[p] >= 0 and (mine or self.revealed[p])
            else None,
            "shogun_chosen": self.shogun[p] >= 0,
            "shogun_revealed": self.revealed[p],
            "shogun_candidates": [LETTERS[u] for u in self.candidates[p]],
            "prepared": [c if (mine and not mod1) else None for c in self.prepared[p]],
            "removed": len(self.removed[p]),
            "inspiration_used": self.swap_done[p],
            "picks": [c if (mine or self.deck_public) else None for c in self.picks[p]],
            "mod3_choices": [c if (mine or self.phase != "mod3") else None for c in self.m3[p]],
        }
        if mine and not mod1:
            entry["advanced_in_box"] = list(self.unused[p])
        players.append(entry)
    units = [
        {
            "letter": LETTERS[u],
            "type": TOKEN_TYPE[u],
            "owner": self.uown[u],
            "cell": cell_name(self.uloc[u]),
            "facing": DIR_NAMES[self.uface[u]],
            "shield": self.ushield[u],
        }
        for u in range(NUM_TOKENS)
        if 0 <= self.uloc[u] < CELLS
    ]
    reserve = {
        t: sum(1 for u in range(NUM_TOKENS) if TOKEN_TYPE[u] == t and self.uloc[u] == OFF)
        for t in "IAC"
    }
    cmd_view = None
    if self.cmd is not None:
        cmd_view = _command_view(self.cmd)
    return {
        "game": "gunshi",
        "seat": seat,
        "phase": self.phase,
        "step": self.step if self.phase != "secret" or seat == self.player else "",
        "to_act": self.current_player,
        "turn": self.turn,
        "ply": self.ply,
        "players": players,
        "units": units,
        "fences": [
            {"edge": EDGE_NAMES[e], "owner": self.fence[e]}
            for e in range(EDGES)
            if self.fence[e] >= 0
        ],
        "reserve": reserve,
        "pool": list(self.pool),
        "formation_piece": self.fpiece,
        "formation_cell": cell_name(self.fcell) if self.fcell >= 0 else None,
        "resolving": self.cur[0] if self.cur is not None else None,
        "queue": [c[0] if _seen(c, seat == self.player, seat) else None for c in self.queue],
        "command": cmd_view,
        "sent_this_turn": self.sent,
        "clock": {
            "time_control": o["time_control"],
            "seconds_each": 1200 if o["time_control"] == "tournament" else None,
            "running": self.clock_seat,
        },
        "options": dict(o),
        "outcome": self.result.to_json() if self.result else None,
    }


GAME = Gunshi()


def _positions(options: dict[str, Any], count: int) -> list[GunshiState]:
    return sampled_positions(GAME, options, count, every=6, at=1, max_ply=1500)  # type: ignore[return-value]


VARIANTS = [
    {},
    {"variant": "inspiration"},
    {"variant": "inspiration", "modification": 2},
    {"variant": "inspiration", "modification": 3, "sanryaku": True},
    {"variant": "custom", "custom_selection": "secret", "time_control": "tournament"},
]


@pytest.mark.parametrize("options", VARIANTS)
def test_view_matches_reference(options: dict[str, Any]) -> None:
    states = _positions(options, 300)
    assert any(st.is_terminal() for st in states)
    assert any(st.cmd is not None for st in states)
    for st in states:
        for seat in (0, 1, None):
            want = reference_view(st, seat)
            got = st.view(seat)
            assert json.dumps(got) == json.dumps(want)
            assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)


def test_positions_cover_scouted_cards_and_empty_fences() -> None:
    """The sample holds Command Row cards only a Scout has seen (shown to seats, not to
    spectators) and positions without any Fence, the two shortcuts of the faster view."""
    states = _positions(VARIANTS[-1], 300)
    scouted = [(st, p) for st in states for p in (0, 1) if any(c[1] == SCOUTED for c in st.row[p])]
    assert scouted
    st, p = scouted[0]
    spectator = st.view(None)["players"][p]["row"]
    opponent = st.view(1 - p)["players"][p]["row"]
    assert [e["card"] for e in spectator].count(None) > [e["card"] for e in opponent].count(None)
    assert any(all(f < 0 for f in st.fence) for st in states)
