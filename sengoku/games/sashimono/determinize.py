"""Worlds for a seat (IS-MCTS): a full position the seat cannot tell from this one, the
hidden parts dealt again from what that seat knows."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING

import sengoku.games.sashimono.action_turn as action_turn
import sengoku.games.sashimono.effects as effects
import sengoku.games.sashimono.score_turn as score_turn
import sengoku.games.sashimono.training as training
from sengoku.games.sashimono.cards import KUMI_TYPES
from sengoku.games.sashimono.decisions import (
    K_DO,
    K_DONE,
    K_HAND,
    K_OWN,
    K_PLAY,
    KIND_OFFSET,
    Choice,
    Question,
    Step,
    Task,
)
from sengoku.games.sashimono.pieces import CELLS, KAGE, Side, is_up, rank, seat_bit, types_of

if TYPE_CHECKING:
    from sengoku.games.sashimono.state import SashimonoState


def determinize(state: SashimonoState, seat: int, rng: random.Random) -> SashimonoState:
    """A full position the seat cannot tell from this one, hidden parts resampled.

    Kept: everything in ``view(seat)``, the seat's own cards and what it is looking at,
    every Hidden Kumi whose types it knows (the printed starting Sonae, a Kumi turned face
    down in public, one it peeked at) and a Sashimono another seat has chosen to play but
    not yet placed. Resampled from the multisets the seat knows are unseen: deck orders
    (its own too), the other seat's hands, ante cards, looked-at cards and unknown Hidden
    Kumi; the Kagemusha's decks and Army card. The other seat's pending question is
    rebuilt from the new deal (its options may depend on that seat's cards); a deal
    under which that question would have no answer is inconsistent with the view and is
    dealt again. The position holds no seed: no later draw depends on one.
    """
    for _ in range(100):
        st = deal(state, seat, rng, keep_hidden=False)
        if refresh_prompt(st, seat, rng):
            return st
    # Practically unreachable: fall back to keeping the other seat's Kumi hand and Hidden
    # Kumi (decks and Sashimono are still dealt again), which is always consistent.
    st = deal(state, seat, rng, keep_hidden=True)
    refresh_prompt(st, seat, rng)
    return st


def deal(state: SashimonoState, seat: int, rng: random.Random, keep_hidden: bool) -> SashimonoState:
    """A copy of the position with what ``seat`` cannot see dealt again."""
    st = state.clone()
    st.forget_legal()
    bit = seat_bit(seat)
    looking_kumi = bool(st.look.cards) and isinstance(st.look.cards[0], str)
    looking_sas = bool(st.look.cards) and not looking_kumi
    seats = [0] if state.solo else [0, 1]
    for o in seats:
        s = st.sides[o]
        other = o != seat and not keep_hidden
        # Kumi: the cards of this owner the seat cannot see, as a sorted multiset, dealt
        # again into the same places; deck cards the seat saw go to the bottom stay.
        dmarks = s.marks("kumi")
        kept = [bool(m & bit) for m in dmarks]
        pool = [t for t, k in zip(s.deck, kept, strict=True) if not k]
        hidden_cells = []
        ante = st.battle["ante"][str(o)] if st.battle is not None else []
        if other:
            pool += s.hand + ante
            for i, cell in enumerate(s.cells):
                if cell is not None and not is_up(cell) and not s.known[i] & bit:
                    hidden_cells.append(i)
                    pool += list(types_of(cell))
            if looking_kumi and st.look.owner == o:
                pool += st.look.cards
        pool.sort()
        rng.shuffle(pool)
        pool = deal_hidden(s, hidden_cells, pool, rng)
        if other:
            n = len(s.hand)
            s.hand, pool = pool[:n], pool[n:]
            if ante:
                na = len(ante)
                st.battle["ante"][str(o)], pool = pool[:na], pool[na:]  # type: ignore[index]
            if looking_kumi and st.look.owner == o:
                nl = len(st.look.cards)
                st.look.cards, pool = pool[:nl], pool[nl:]
        s.deck = [t if k else pool.pop() for t, k in zip(s.deck, kept, strict=True)]
        s.dknown = dmarks
        # Sashimono: deck orders, and the other seat's hand and looked-at cards. A card
        # it has chosen to play (named in the public question "place X") stays in hand.
        pinned = None
        if (
            o != seat
            and st.ctx.get("seat") == o
            and st.ctx.get("slot") is None
            and st.ctx.get("card") in s.shand
        ):
            pinned = st.ctx["card"]
        smarks = s.marks("sas")
        skept = [bool(m & bit) for m in smarks]
        spool = [c for c, k in zip(s.sdeck, skept, strict=True) if not k]
        if o != seat:
            spool += [c for c in s.shand if c != pinned]
            if looking_sas and st.look.owner == o:
                spool += st.look.cards
        spool.sort()
        rng.shuffle(spool)
        if o != seat:
            hand = list(s.shand)
            for h, c in enumerate(hand):
                if c != pinned:
                    hand[h] = spool.pop()
            s.shand = hand
            if looking_sas and st.look.owner == o:
                nl = len(st.look.cards)
                st.look.cards, spool = spool[:nl], spool[nl:]
        s.sdeck = [c if k else spool.pop() for c, k in zip(s.sdeck, skept, strict=True)]
        s.sknown = smarks
    if state.solo:
        k = st.sides[KAGE]
        kpool = sorted(k.deck)
        rng.shuffle(kpool)
        k.deck = kpool
        # its Army card and deck order are unknown; Sashimono it discarded to the bottom
        # of its deck in public stay there
        smarks = k.marks("sas")
        skept = [bool(m & bit) for m in smarks]
        spool = [c for c, kp in zip(k.sdeck, skept, strict=True) if not kp]
        spool = sorted(spool + ([k.marker] if k.marker is not None else []))
        rng.shuffle(spool)
        k.marker = spool.pop() if k.marker is not None else None
        k.sdeck = [c if kp else spool.pop() for c, kp in zip(k.sdeck, skept, strict=True)]
        k.sknown = smarks
    return st


def refresh_prompt(state: SashimonoState, seat: int, rng: random.Random) -> bool:
    """Rebuild another seat's pending question from the new deal, where its options
    depend on that seat's hidden cards; False if it would have no answer."""
    p = state.prompt
    if p is None or p.seat in (seat, KAGE):
        return True
    s, q = p.seat, p.kind
    opts: list[tuple[int, int, str, str]] | None = None
    if q is Question.PLACE_AT:
        # Which hand Kumi is being placed is not shown until it lands: any of the new hand.
        state.prompt = replace(p, hand=rng.randrange(len(state.sides[s].hand)))
        state.forget_legal()
        return True
    if q is Question.PLAY:
        opts = [(K_PLAY, c, f"play {state.card(c).id}", state.card(c).id)
                for c in state.sides[s].shand]  # fmt: skip
    elif q is Question.DO:
        lid = state.ctx["line"]
        opts = [(K_DO, i, f"do {a.name}", a.name) for i, a in action_turn.card_actions(state)
                if i not in state.ctx["used"] and action_turn.action_ready(state, s, lid, a.requires)]  # fmt: skip
        opts.append((K_DONE, 0, "done", "done"))
    elif q is Question.BONUS:
        state.prompt = None
        score_turn.step_bonus(state, Task(Step.BONUS, seat=s))
        state.drop_events()
        return True
    elif q is Question.PERM:
        # identical stacks give one option: how many depends on the Hidden Kumi
        assert p.line is not None
        state.prompt = None
        effects.ask_perm(state, s, p.line)
        state.drop_events()
        return True
    elif q is Question.GUNBAI:
        act = dict(action_turn.card_actions(state))[p.act]
        cells = action_turn.action_ready(state, s, state.ctx["line"], act.requires)
        assert isinstance(cells, list)
        opts = [(K_OWN, i, f"gunbai {CELLS[i]}", CELLS[i]) for i in cells]
    elif q is Question.TRAIN:
        targets = training.train_targets(state, s, p.line)
        opts = [(K_OWN, i, f"train {CELLS[i]}", CELLS[i]) for i, _ in targets]
        opts.append((K_DONE, 0, "no training", "none"))
    elif q is Question.TRAIN_WITH:
        st = state.sides[s].cells[p.cell] or ""
        opts = [(K_HAND, h, f"with h{h + 1}", f"h{h + 1}")
                for h, t in enumerate(state.sides[s].hand) if t not in st]  # fmt: skip
    if opts is None:
        return True
    if not opts:
        return False
    options = sorted(opts, key=lambda o: KIND_OFFSET[o[0]] + o[1])
    state.prompt = replace(p, options=tuple(Choice(*o) for o in options))
    state.forget_legal()
    return True


def deal_hidden(s: Side, cells: list[int], pool: list[str], rng: random.Random) -> list[str]:
    """Give each Hidden stack of ``cells`` its Rank in distinct types from ``pool``; the
    rest of the pool is returned. Random tries first; if they fail, the plentiful types
    go to the biggest stacks first, which always succeeds when any deal can."""
    ranks = {i: rank(s.cells[i] or "") for i in cells}
    for _ in range(20):
        left = list(pool)
        rng.shuffle(left)
        dealt: dict[int, str] = {}
        for i in cells:
            chosen = ""
            for t in list(left):
                if t not in chosen:
                    chosen += t
                    left.remove(t)
                    if len(chosen) == ranks[i]:
                        break
            if len(chosen) < ranks[i]:
                break
            dealt[i] = chosen
        else:
            for i, types in dealt.items():
                s.cells[i] = types + "v"
            return left
    left = list(pool)
    for i in sorted(cells, key=lambda c: -ranks[c]):
        counts = {t: left.count(t) for t in KUMI_TYPES}
        chosen = "".join(sorted(KUMI_TYPES, key=lambda t: -counts[t])[: ranks[i]])
        for t in chosen:
            left.remove(t)
        s.cells[i] = chosen + "v"
    rng.shuffle(left)
    return left
