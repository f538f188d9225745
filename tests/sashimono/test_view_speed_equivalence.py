"""view(seat) is byte-for-byte what the straightforward implementation gives.

``reference_view`` is the view code as it was before the view was made cheaper (cached
stack entries, card ids looked up once); it is kept here as the slow reference. Random
positions of both modes, every seat and the spectator, must give the same JSON, key order
included, and views handed out must not share mutable parts with later views.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from sengoku.games.sashimono import Sashimono
from sengoku.games.sashimono.state import (
    KAGE,
    LINE_NAMES,
    SLOTS,
    SashimonoState,
    attack_of,
    defence_of,
    is_up,
    rank,
    types_of,
)
from tests.sampling import sampled_positions


def _ref_stack(st: str | None, show: bool) -> dict[str, Any] | None:
    if st is None:
        return None
    if is_up(st) or show:
        return {"types": types_of(st), "face": "up" if is_up(st) else "hidden", "rank": rank(st),
                "attack": attack_of(st), "defence": defence_of(st)}  # fmt: skip
    return {"types": None, "face": "hidden", "rank": rank(st), "attack": rank(st),
            "defence": rank(st)}  # fmt: skip


def reference_view(self: SashimonoState, seat: int | None) -> dict[str, Any]:
    sides = []
    for i in range(2):
        if self.solo and i == 1:
            continue
        s = self.sides[i]
        own = seat == i
        sides.append({
            "seat": i,
            "army": s.army,
            "sonae": [_ref_stack(st, own) for st in s.cells],
            "hand": list(s.hand) if own else None,
            "hand_count": len(s.hand),
            "deck_count": len(s.deck),
            "sashimono_hand": [self.card(c).id for c in s.shand] if own else None,
            "sashimono_hand_count": len(s.shand),
            "sashimono_deck_count": len(s.sdeck),
            "slots": {SLOTS[p]: {"card": self.card(c).id, "bowed": s.bowed[p]}
                      for p, c in enumerate(s.slots) if c is not None},
            "vp": s.vp,
            "scored": [self.card(c).id for c in s.scored],
        })  # fmt: skip
    out: dict[str, Any] = {
        "game": "sashimono",
        "mode": self.options["mode"],
        "vp_target": self.target,
        "cards": self.options["cards"] or "sengoku",
        "viewer": seat,
        "turn_seat": self.turn_seat,
        "turn": self.turns,
        "current_player": self.current_player,
        "sides": sides,
        "result": self.result.to_json() if self.result else None,
    }
    if self.solo:
        k = self.sides[KAGE]
        out["kagemusha"] = {
            "army": k.army,
            "kumi_line": [_ref_stack(st, True) for st in k.cells],
            "kumi_deck_count": len(k.deck),
            "sashimono_line": [{"card": self.card(c).id, "bowed": b}
                               for c, b in zip(k.sline, k.sbowed, strict=True)],
            "sashimono_deck_count": len(k.sdeck),
            "army_position": k.army_pos + 1,
            "vp": k.vp,
            "scored": [self.card(c).id for c in k.scored],
            "discarded_kumi": list(k.discard),
        }  # fmt: skip
    if self.battle is not None:
        b = self.battle
        out["battle"] = {
            "attacker": b["att"], "defender": b["dfn"],
            "attack_line": LINE_NAMES[b["aline"]], "defence_line": LINE_NAMES[b["dline"]],
            "ante_counts": {k2: len(v) for k2, v in b["ante"].items()},
            "bonus": b["bonus"],
        }  # fmt: skip
    if self.ctx.get("card") is not None and self.ctx.get("slot") is not None:
        out["played"] = {
            "card": self.card(self.ctx["card"]).id,
            "slot": SLOTS[self.ctx["slot"]],
            "line": LINE_NAMES[self.ctx["line"]],
            "used": list(self.ctx["used"]),
        }
    if self.prompt is not None and self.result is None:
        p = self.prompt
        mine = seat == p["seat"]
        out["prompt"] = {"seat": p["seat"], "question": p["op"], "rule": p["rule"],
                         "options": [o[2] for o in p["opts"]] if mine else None}  # fmt: skip
    if self.looking:
        mine = seat == self.looking_owner
        kind = "kumi" if isinstance(self.looking[0], str) else "sashimono"
        out["looking"] = {
            "owner": self.looking_owner, "kind": kind, "count": len(self.looking),
            "cards": ([c if kind == "kumi" else self.card(c).id for c in self.looking]
                      if mine else None),
        }  # fmt: skip
    return out


GAME = Sashimono()


def _positions(options: dict[str, Any], count: int) -> list[SashimonoState]:
    return sampled_positions(GAME, options, count, every=5, at=2, max_ply=600)  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("options", "seats"),
    [({}, (0, 1, None)), ({"mode": "solo"}, (0, None)), ({"mode": "solo", "army": "east"}, (0,))],
)
def test_view_matches_reference(options: dict[str, Any], seats: tuple[int | None, ...]) -> None:
    states = _positions(options, 300)
    assert any(st.is_terminal() for st in states)
    assert any(st.battle is not None for st in states)
    for st in states:
        for seat in seats:
            want = reference_view(st, seat)
            got = st.view(seat)
            assert json.dumps(got) == json.dumps(want)
            assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)


def test_views_share_no_mutable_entries() -> None:
    st = _positions({}, 40)[-1]
    first = st.view(0)
    for side in first["sides"]:
        for entry in side["sonae"]:
            if entry is not None:
                entry["rank"] = -1
                entry["types"] = "changed"
    assert json.dumps(st.view(0)) == json.dumps(reference_view(st, 0))
