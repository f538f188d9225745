"""The part of a seat's view that Sashimono's observation encoder reads, taken from the
state's fields (:meth:`~sengoku.games.sashimono.encoder.SashimonoEncoder.capture`).

Compiled with mypyc (``[tool.sengoku] compiled``): a research environment takes one snapshot
every step (the Gymnasium environment, a PettingZoo observation), and reading the compiled
state's fields from compiled code costs a fraction of the Python's reads. The encoder module
is compiled too (for issue 40's batched play: docs/interop.md).
"""

from __future__ import annotations

from typing import Any

from sengoku.games.sashimono.hidden_information import stack_entry
from sengoku.games.sashimono.pieces import KAGE, LINE_NAMES, SLOTS, seat_bit
from sengoku.games.sashimono.state import SashimonoState

#: (stack, shown) -> ``hidden_information.stack_entry`` of it, read here without a call.
_STACKS: dict[tuple[str, bool], dict[str, Any]] = {}


def _stack(st: str, own: bool, known: int, bit: int) -> dict[str, Any]:
    """The view's entry of the stack ``st`` (kept in :data:`_STACKS`)."""
    show = own or bool(known & bit)
    entry = _STACKS[(st, show)] = stack_entry(st, show)
    return entry


def snapshot(state: SashimonoState, seat: int | None) -> dict[str, Any]:
    """The encoder's capture of ``state`` for ``seat``: ``hidden_information.typed_view``'s
    choices for the fields the encoder reads, hidden as the view hides them (a hand and the
    Sashimono hand for their owner only, a Hidden Kumi's types for whoever knows them, the
    cards looked at for their looker), without the rest (the Kagemusha's plans, the prompt's
    rule and options, the result, the mode, the card set, the viewer). A new dict of new
    lists; its stacks are the view's shared entries (the encoder only reads them). The tests
    ``test_capture_encodes_as_the_view_and_stays_put`` and
    ``test_a_snapshot_holds_only_what_its_seat_sees`` hold it to the view."""
    cards = state.cs.cards
    bit = seat_bit(seat)
    stack = _STACKS.get
    sides: list[dict[str, Any]] = []
    for i in (0,) if state.solo else (0, 1):
        s = state.sides[i]
        own = seat == i
        bowed = s.bowed
        sides.append(
            {
                "seat": i,
                "army": s.army,
                # a Hidden Kumi shows its types to its owner and to whoever knows them
                "sonae": [
                    None
                    if st is None
                    else stack((st, own or bool(k & bit))) or _stack(st, own, k, bit)
                    for st, k in zip(s.cells, s.known, strict=True)
                ],
                "hand": list(s.hand) if own else None,
                "hand_count": len(s.hand),
                "deck_count": len(s.deck),
                "sashimono_hand": [cards[c].id for c in s.shand] if own else None,
                "sashimono_hand_count": len(s.shand),
                "sashimono_deck_count": len(s.sdeck),
                "slots": {
                    SLOTS[p]: {"card": cards[c].id, "bowed": bowed[p]}
                    for p, c in enumerate(s.slots)
                    if c is not None
                },
                "vp": s.vp,
                "scored": [cards[c].id for c in s.scored],
            }
        )
    out: dict[str, Any] = {
        "vp_target": state.target,
        "turn_seat": state.turn_order.seat,
        "turn": state.turn_order.count,
        "current_player": state.current_player,
        "sides": sides,
    }
    if state.solo:
        k = state.sides[KAGE]
        out["kagemusha"] = {
            "army": k.army,
            "kumi_line": [
                None if st is None else stack((st, True)) or _stack(st, True, 0, 0)
                for st in k.cells
            ],
            "kumi_deck_count": len(k.deck),
            "sashimono_line": [
                {"card": cards[c].id, "bowed": b} for c, b in zip(k.sline, k.sbowed, strict=True)
            ],
            "sashimono_deck_count": len(k.sdeck),
            "army_position": k.army_pos + 1,
            "vp": k.vp,
            "scored": [cards[c].id for c in k.scored],
            "discarded_kumi": list(k.discard),
        }
    b = state.battle
    if b is not None:
        out["battle"] = {
            "attacker": b["att"],
            "defender": b["dfn"],
            "attack_line": LINE_NAMES[b["aline"]],
            "defence_line": LINE_NAMES[b["dline"]],
            "ante_counts": {k2: len(v) for k2, v in b["ante"].items()},
            "bonus": b["bonus"],
        }
    ctx = state.ctx
    if ctx.get("card") is not None and ctx.get("slot") is not None:
        out["played"] = {
            "card": cards[ctx["card"]].id,
            "slot": SLOTS[ctx["slot"]],
            "line": LINE_NAMES[ctx["line"]],
            "used": list(ctx["used"]),
        }
    p = state.prompt
    if p is not None and state.result is None:
        out["prompt"] = {"seat": p.seat, "question": p.kind.value}
    look = state.look
    if look.cards:
        kind = "kumi" if isinstance(look.cards[0], str) else "sashimono"
        out["looking"] = {
            "owner": look.owner,
            "kind": kind,
            "count": len(look.cards),
            "cards": (
                [c if kind == "kumi" else cards[c].id for c in look.cards]
                if seat == look.owner
                else None
            ),
        }
    return out
