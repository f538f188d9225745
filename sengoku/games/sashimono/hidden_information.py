"""Hidden information: what a seat sees (:func:`view`): its own hand and deck counts, the
Hidden Kumi whose types it knows, the question only when it is its own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict, cast

from sengoku.games.sashimono.decisions import Question
from sengoku.games.sashimono.pieces import (
    CELLS,
    KAGE,
    LINE_NAMES,
    SLOTS,
    attack_of,
    defence_of,
    is_up,
    rank,
    seat_bit,
    types_of,
)

if TYPE_CHECKING:
    from sengoku.games.sashimono.state import SashimonoState


class SideView(TypedDict):
    """One seat's side as a seat sees it (``view.schema.json``: sides.items)."""

    seat: int
    army: str
    sonae: list[dict[str, Any] | None]
    hand: list[str] | None
    hand_count: int
    deck_count: int
    sashimono_hand: list[str] | None
    sashimono_hand_count: int
    sashimono_deck_count: int
    slots: dict[str, dict[str, Any]]
    vp: int
    scored: list[str]


class KagemushaView(TypedDict):
    """The Kagemusha's side and its next turn, all public (solo; ``kagemusha``)."""

    army: str
    kumi_line: list[dict[str, Any] | None]
    kumi_deck_count: int
    sashimono_line: list[dict[str, Any]]
    sashimono_deck_count: int
    army_position: int
    vp: int
    scored: list[str]
    discarded_kumi: list[str]
    next_position: int
    column_attacked: str
    row_attacked: str
    challenges: list[str]


class BattleView(TypedDict):
    """The battle under way (``battle``)."""

    attacker: int
    defender: int
    attack_line: str
    defence_line: str
    ante_counts: dict[str, int]
    bonus: int


class PlayedView(TypedDict):
    """The Sashimono card played this Action turn (``played``)."""

    card: str
    slot: str
    line: str
    used: list[int]


class PromptView(TypedDict):
    """The question asked; its options only for the seat asked (``prompt``)."""

    seat: int
    question: str
    rule: str
    options: list[str] | None
    cell: NotRequired[str]


class LookingView(TypedDict):
    """The cards a seat is looking at; which, only for that seat (``looking``)."""

    owner: int
    kind: str
    count: int
    cards: list[str] | None


class SashimonoView(TypedDict):
    """What :func:`view` returns: the shape ``view.schema.json`` publishes (a test holds
    the two together)."""

    game: Literal["sashimono"]
    mode: str
    vp_target: int
    cards: str
    viewer: int | None
    turn_seat: int
    turn: int
    current_player: int
    sides: list[SideView]
    result: dict[str, Any] | None
    kagemusha: NotRequired[KagemushaView]
    battle: NotRequired[BattleView]
    played: NotRequired[PlayedView]
    prompt: NotRequired[PromptView]
    looking: NotRequired[LookingView]


#: (stack, shown) -> its view entry; view() hands out copies. Stacks are short strings of
#: distinct Kumi types, so this stays small.
_STACK_VIEWS: dict[tuple[str, bool], dict[str, Any]] = {}


def stack_entry(st: str, show: bool) -> dict[str, Any]:
    """The shared, cached view entry of a stack: copy it before handing it out."""
    key = (st, show)
    cached = _STACK_VIEWS.get(key)
    if cached is None:
        if is_up(st) or show:
            cached = {"types": types_of(st), "face": "up" if is_up(st) else "hidden",
                      "rank": rank(st), "attack": attack_of(st), "defence": defence_of(st)}  # fmt: skip
        else:
            cached = {"types": None, "face": "hidden", "rank": rank(st), "attack": rank(st),
                      "defence": rank(st)}  # fmt: skip
        _STACK_VIEWS[key] = cached
    return cached


def stack_view(st: str | None, show: bool) -> dict[str, Any] | None:
    """The view entry of a stack (a copy), or ``None`` for an empty space."""
    if st is None:
        return None
    return dict(stack_entry(st, show))


def view(state: SashimonoState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) sees of the position, JSON-ready (the
    contract's plain dict: :func:`typed_view` is the same, typed by the schema)."""
    return cast("dict[str, Any]", typed_view(state, seat))


def typed_view(state: SashimonoState, seat: int | None) -> SashimonoView:
    """:func:`view`, typed as ``view.schema.json`` says it is."""
    cards = state.cs.cards
    cached = _STACK_VIEWS.get
    entry = stack_entry
    sides: list[SideView] = []
    bit = seat_bit(seat)
    for i in range(2):
        if state.solo and i == 1:
            continue
        s = state.sides[i]
        own = seat == i
        bowed = s.bowed
        # a Hidden Kumi shows its types to its owner and to whoever knows them
        shows = [own or bool(k & bit) for k in s.known]
        sides.append({
            "seat": i,
            "army": s.army,
            "sonae": [None if st is None else dict(cached((st, show)) or entry(st, show))
                      for st, show in zip(s.cells, shows, strict=True)],
            "hand": list(s.hand) if own else None,
            "hand_count": len(s.hand),
            "deck_count": len(s.deck),
            "sashimono_hand": [cards[c].id for c in s.shand] if own else None,
            "sashimono_hand_count": len(s.shand),
            "sashimono_deck_count": len(s.sdeck),
            "slots": {SLOTS[p]: {"card": cards[c].id, "bowed": bowed[p]}
                      for p, c in enumerate(s.slots) if c is not None},
            "vp": s.vp,
            "scored": [cards[c].id for c in s.scored],
        })  # fmt: skip
    out: SashimonoView = {
        "game": "sashimono",
        "mode": state.options["mode"],
        "vp_target": state.target,
        "cards": state.options["cards"] or "sengoku",
        "viewer": seat,
        "turn_seat": state.turn_order.seat,
        "turn": state.turn_order.count,
        "current_player": state.current_player,
        "sides": sides,
        "result": state.result.to_json() if state.result else None,
    }
    if state.solo:
        k = state.sides[KAGE]
        plans = _kagemusha_plans(state)
        out["kagemusha"] = {
            "army": k.army,
            "kumi_line": [stack_view(st, True) for st in k.cells],
            "kumi_deck_count": len(k.deck),
            "sashimono_line": [{"card": state.card(c).id, "bowed": b}
                               for c, b in zip(k.sline, k.sbowed, strict=True)],
            "sashimono_deck_count": len(k.sdeck),
            "army_position": k.army_pos + 1,
            "vp": k.vp,
            "scored": [state.card(c).id for c in k.scored],
            "discarded_kumi": list(k.discard),
            "next_position": plans["next_position"],
            "column_attacked": plans["column_attacked"],
            "row_attacked": plans["row_attacked"],
            "challenges": plans["challenges"],
        }  # fmt: skip
    if state.battle is not None:
        b = state.battle
        out["battle"] = {
            "attacker": b["att"], "defender": b["dfn"],
            "attack_line": LINE_NAMES[b["aline"]], "defence_line": LINE_NAMES[b["dline"]],
            "ante_counts": {k2: len(v) for k2, v in b["ante"].items()},
            "bonus": b["bonus"],
        }  # fmt: skip
    if state.ctx.get("card") is not None and state.ctx.get("slot") is not None:
        out["played"] = {
            "card": state.card(state.ctx["card"]).id,
            "slot": SLOTS[state.ctx["slot"]],
            "line": LINE_NAMES[state.ctx["line"]],
            "used": list(state.ctx["used"]),
        }
    if state.prompt is not None and state.result is None:
        p = state.prompt
        mine = seat == p.seat
        out["prompt"] = {"seat": p.seat, "question": p.kind.value, "rule": p.rule,
                         "options": [o.text for o in p.options] if mine else None}  # fmt: skip
        if p.kind is Question.TRAIN_WITH:
            # The Kumi being trained was pointed at on the table: everyone knows which it is
            # (and which hand Kumi can go on top depends on it).
            out["prompt"]["cell"] = CELLS[p.cell]
    if state.look.cards:
        mine = seat == state.look.owner
        kind = "kumi" if isinstance(state.look.cards[0], str) else "sashimono"
        out["looking"] = {
            "owner": state.look.owner, "kind": kind, "count": len(state.look.cards),
            "cards": ([c if kind == "kumi" else state.card(c).id for c in state.look.cards]
                      if mine else None),
        }  # fmt: skip
    return out


class _Plans(TypedDict):
    next_position: int
    column_attacked: str
    row_attacked: str
    challenges: list[str]


def _kagemusha_plans(state: SashimonoState) -> _Plans:
    """What everyone can work out of the Kagemusha's next turn (all of it public): where its
    Army moves next, the player's lines its Teppo-Gumi (columns) and Nagae-Gumi (rows) battle,
    and the solo challenges in play, in words."""
    from sengoku.games.sashimono.kagemusha import nearest_line

    k = state.sides[KAGE]
    mine = state.sides[0].slots
    nxt = k.army_pos
    for _ in range(12):
        nxt = (nxt + 1) % 12
        if mine[nxt] is None:
            break
    else:
        nxt = k.army_pos
    options = state.game.options
    challenges = [
        options[name].doc.removeprefix("solo challenge: ")
        for name in sorted(options)
        if name.startswith("challenge_") and state.options.get(name)
    ]
    return {
        "next_position": nxt + 1,
        "column_attacked": LINE_NAMES[nearest_line(state, "column")],
        "row_attacked": LINE_NAMES[nearest_line(state, "row")],
        "challenges": challenges,
    }
