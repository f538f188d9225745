"""Hidden information and determinization: what each seat may see, and the worlds a seat
cannot tell apart.

``docs/rules/gunshi.md``, "Hidden information and determinization": ``view(seat)`` hides
the opponent's Shogun, hand, deck order, face-down row cards and prepared Advanced cards;
``determinize`` resamples them from exactly what the seat knows (``knowledge.py``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import sengoku.games.gunshi.custom_deck as custom_deck
import sengoku.games.gunshi.knowledge as knowledge
import sengoku.games.gunshi.tournament_clock as tournament_clock
from sengoku.games.gunshi.battlefield import CELL_NAMES, cn
from sengoku.games.gunshi.cards import SCOUTED, Card, card_order, seen
from sengoku.games.gunshi.commands.command import command_view
from sengoku.games.gunshi.data import (
    BLUE,
    CARDS,
    CELLS,
    COLOUR,
    DIR_NAMES,
    EDGE_NAMES,
    LETTERS,
    RED,
    TOKEN_TYPE,
    advanced_codes,
)
from sengoku.games.gunshi.units import OFF
from sengoku.games.gunshi.views import (
    CardSlotView,
    FenceView,
    GunshiView,
    PlayerView,
    ReserveView,
    UnitView,
)

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState


def _card_view(card: Card | None, show: bool, seat: int | None) -> CardSlotView | None:
    if card is None:
        return None
    return {"card": card[0] if seen(card, show, seat) else None, "face_up": card[2]}


def view(st: GunshiState, seat: int | None) -> GunshiView:
    o = st.options
    mod1 = o["variant"] == "inspiration" and o["modification"] == 1
    seated = seat is not None  # a Scout's look shows to seats, not to spectators
    players: list[PlayerView] = []
    for p in (RED, BLUE):
        mine = seat == p
        see_all = mine
        entry: PlayerView = {
            "colour": COLOUR[p],
            "points": st.logistics.points[p],
            "fences_left": st.fences.fences_left[p],
            "invaders": st.invader_spot.invaders[p],
            "hand": [c[0] if (see_all or c[1]) else None for c in st.cards.hand[p]],
            "deck": [c[0] if (see_all or c[1]) else None for c in st.cards.deck[p]],
            "stock": [c[0] if mine else None for c in st.cards.stock[p]],
            "row": [
                {
                    "card": c[0]
                    if mine or c[2] or c[1] is True or (c[1] == SCOUTED and seated)
                    else None,
                    "face_up": c[2],
                }
                for c in st.cards.row[p]
            ],
            "lightning": _card_view(st.cards.lightning[p], mine, seat),
            "chain_trap_beside": st.cards.beside[p] is not None,
            "face_down_next": st.cards.face_down_next[p],
            "shogun": LETTERS[st.shoguns.shogun[p]]
            if st.shoguns.shogun[p] >= 0 and (mine or st.shoguns.revealed[p])
            else None,
            "shogun_chosen": st.shoguns.shogun[p] >= 0,
            "shogun_revealed": st.shoguns.revealed[p],
            "shogun_candidates": [LETTERS[u] for u in st.shoguns.candidates[p]],
            "prepared": [c if (mine and not mod1) else None for c in st.inspiration.prepared[p]],
            "removed": len(st.inspiration.removed[p]),
            "inspiration_used": st.inspiration.swap_done[p],
            "picks": [
                c if (mine or st.deck_construction.deck_public) else None
                for c in st.deck_construction.picks[p]
            ],
            "mod3_choices": [
                c if (mine or st.phase != "mod3") else None for c in st.inspiration.m3[p]
            ],
        }
        if mine and not mod1:
            entry["advanced_in_box"] = list(st.inspiration.unused[p])
        players.append(entry)
    uloc, uown, uface, ushield = st.field.uloc, st.field.uown, st.field.uface, st.field.ushield
    units: list[UnitView] = [
        {
            "letter": LETTERS[u],
            "type": TOKEN_TYPE[u],
            "owner": uown[u],
            "cell": CELL_NAMES[loc],
            "facing": DIR_NAMES[uface[u]],
            "shield": ushield[u],
        }
        for u, loc in enumerate(uloc)
        if 0 <= loc < CELLS
    ]
    left = {"I": 0, "A": 0, "C": 0}
    for u, loc in enumerate(uloc):
        if loc == OFF and TOKEN_TYPE[u] in left:
            left[TOKEN_TYPE[u]] += 1
    reserve: ReserveView = {"I": left["I"], "A": left["A"], "C": left["C"]}
    fence = st.fences.fence
    fences: list[FenceView] = (
        []
        if fence.count(-1) == len(fence)
        else [{"edge": EDGE_NAMES[e], "owner": f} for e, f in enumerate(fence) if f >= 0]
    )
    cmd_view = None
    if st.orders.cmd is not None:
        cmd_view = command_view(st.orders.cmd)
    return {
        "game": "gunshi",
        "seat": seat,
        "phase": st.phase,
        "step": st.step if st.phase != "secret" or seat == st.player else "",
        "to_act": st.current_player,
        "turn": st.battle.turn,
        "ply": st.ply,
        "players": players,
        "units": units,
        "fences": fences,
        "reserve": reserve,
        "pool": list(st.inspiration.pool),
        "formation_piece": st.formation.fpiece,
        "formation_cell": cn(st.formation.fcell) if st.formation.fcell >= 0 else None,
        "resolving": st.battle.cur[0] if st.battle.cur is not None else None,
        "queue": [c[0] if seen(c, seat == st.player, seat) else None for c in st.battle.queue],
        "command": cmd_view,
        "sent_this_turn": st.battle.sent,
        "clock": {
            "time_control": o["time_control"],
            "seconds_each": 1200 if o["time_control"] == "tournament" else None,
            "running": tournament_clock.tournament_seat(st),
        },
        "options": dict(o),
        "outcome": st.result.to_json() if st.result else None,
    }


def determinize(st: GunshiState, seat: int, rng: random.Random) -> GunshiState:
    """Resample everything ``seat`` cannot see, from exactly what it knows.

    The opponent's Shogun: any of its candidates still on the board (units of its
    formation never named "No" by a Scout and never invaded, which a Shogun cannot do).
    The opponent's unknown cards, wherever they are (hand, deck, row, Lightning position,
    the card removed by the Inspiration, the Advanced cards prepared or in the box): from
    the seat's exact knowledge (``knowledge.py``). Secret choices still being made
    (Optional Rule 3 picks, Modification 3 choices): any the rules allow. With
    Modification 1 the seat does not know its own prepared cards either.
    """
    s = st.clone()
    s.forget_legal_actions()  # hidden parts change below; the legal actions may with them
    o = 1 - seat
    opts = st.options
    if s.shoguns.shogun[o] >= 0 and not s.shoguns.revealed[o] and s.result is None:
        cands = [u for u in s.shoguns.candidates[o] if 0 <= s.field.uloc[u] < CELLS]
        if cands:
            s.shoguns.shogun[o] = rng.choice(cands)
    if (
        st.phase == "build"
        and not st.deck_construction.deck_public
        and s.deck_construction.picks[o]
    ):
        taken = list(st.deck_construction.pre_taken)
        pool = [
            c
            for c in custom_deck.deck_pool(st)
            for _ in range(max(0, CARDS[c].copies - taken.count(c)))
        ]
        rng.shuffle(pool)
        s.deck_construction.picks[o] = pool[: len(s.deck_construction.picks[o])]
    knowledge.sample(s, o, rng)
    if (
        st.phase != "build"
        and not st.deck_construction.deck_public
        and st.deck_construction.picks[o]
    ):
        # Optional Rule 3: the secret picks are the resampled deck less the step 2 Move.
        zones = [s.cards.stock[o], s.cards.hand[o], s.cards.deck[o], s.cards.row[o]]
        if s.player == o:
            zones += [s.battle.queue, [s.battle.cur] if s.battle.cur is not None else []]
        cards = [c[0] for z in zones for c in z]
        cards += [c[0] for c in (s.cards.lightning[o], s.cards.beside[o]) if c is not None]
        for code in st.deck_construction.pre_taken:
            if code in cards:
                cards.remove(code)
        s.deck_construction.picks[o] = sorted(cards, key=card_order)
    if opts["variant"] == "inspiration":
        if opts["modification"] == 1:
            box = sorted(
                s.inspiration.prepared[seat] + s.inspiration.unused[seat]
            )  # what the seat knows
            rng.shuffle(box)
            n = len(s.inspiration.prepared[seat])
            s.inspiration.prepared[seat], s.inspiration.unused[seat] = box[:n], box[n:]
        if st.phase == "mod3" and s.inspiration.m3[o]:
            adv = list(advanced_codes(opts["sanryaku"]))
            s.inspiration.m3[o] = rng.sample(adv, len(s.inspiration.m3[o]))
    # The true seed rebuilds every secret of the setup (Modification 1's prepared cards):
    # a world carries a seed drawn from the rng instead, like everything else it hides.
    s.seed = rng.getrandbits(63)
    return s
