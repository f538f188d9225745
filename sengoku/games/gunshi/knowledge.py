"""What a seat knows about the opponent's hidden cards, kept exactly, for ``determinize``.

The seat watches card backs move: it knows each deck's composition (or, with Optional Rule 3,
only the copy limits), sees cards drawn from the top of the deck, sees a card leave the hand
face down without knowing which one, sees cards revealed when resolved, sent face up,
scouted or taken from the public pool. Its knowledge of one player's unknown cards is a set of
*bags*, each a multiset constraint:

    the values of the bag's members == the bag's ``lits`` (codes known to be in it)
                                       + values drawn from its parents (``par``: id -> count)
                                       - ``gone`` (codes revealed from it, not yet traced)

A bag's members are the unknown card slots that carry its id (hand, deck, row, Lightning
position, cards about to resolve, the removed card, the Advanced cards in the box) plus, for
each child bag, the values the child draws from it. A card leaving an unordered hand face down
*mixes* the hand: the hand's cards become members of a new bag whose content is the hand's
known codes plus one value from the bag of each unknown card. A revealed card leaves its bag
and its code is taken out of the bag's content: from ``lits`` when there, else from the one
parent (recursively), else it is recorded in ``gone`` (several parents: which one is not
known). Parents are always created before their children, so ids give a topological order.

``sample`` draws every unknown slot from these constraints: top-down, each bag shuffles its
content onto its members; a draw that breaks a ``gone`` constraint is drawn again. Every
assignment consistent with what the seat saw can come out, and no other. Nothing here reads
the real hidden codes, so equal knowledge and an equal random generator give equal results.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from mypy_extensions import mypyc_attr

from sengoku.core.substate import SCALAR, Codec, Part, jsonable, part_field
from sengoku.games.gunshi.data import CARDS

if TYPE_CHECKING:
    from sengoku.games.gunshi.cards import Card
    from sengoku.games.gunshi.state import GunshiState


class Bag(TypedDict):
    """One multiset constraint on a player's unknown cards (the module's docstring); ``free``,
    ``pool`` and ``used`` only for Optional Rule 3's secret deck."""

    id: int
    lits: list[str]
    par: list[tuple[int, int]]  # parent bag id, values drawn from it
    gone: list[str]
    free: NotRequired[int]
    pool: NotRequired[list[str]]
    used: NotRequired[list[str]]


def _load_bags(saved: Any) -> list[list[Bag]]:
    """The bags as the engine keeps them: JSON has lists where a bag's ``par`` holds (parent,
    count) tuples (compiled, the engine reads them as tuples and refuses a list). ``saved``
    is JSON, typed ``Any`` so that the compiled code does not check it as bags first."""
    seats: list[list[Bag]] = []
    for seat in saved:
        bags: list[Bag] = []
        for bag in seat:
            loaded: dict[str, Any] = dict(bag)
            loaded["par"] = [(int(pair[0]), int(pair[1])) for pair in bag["par"]]
            bags.append(cast(Bag, loaded))
        seats.append(bags)
    return seats


#: The bags' codec: copied one level (copy on write, see ``consume``), saved as JSON values,
#: loaded with their tuples back.
BAGS: Codec[list[list[Bag]]] = Codec(list, jsonable, _load_bags, copy_code="{0}.copy()")


@mypyc_attr(native_class=False)
@dataclass(slots=True)
class Knowledge(Part):
    """What each player's opponent knows about that player's unknown cards: the player's bags,
    and the id the next bag gets."""

    # Copied one level only: a change to a seat's bags replaces its list and the bag dicts
    # (copy on write, see ``consume``), so clones may share them.
    bags: list[list[Bag]] = part_field(BAGS, default_factory=lambda: [[], []])
    next_bag: int = part_field(SCALAR, default=0)


#: Attempts before giving up on a draw that breaks a ``gone`` constraint (never seen needed:
#: such constraints are rare and usually met by one draw in a few).
ATTEMPTS = 4000


def bag_of(card: Card) -> int:
    """The bag id of a card tuple; -1 for cards the opponent knows (or 3-tuples from tests)."""
    return card[3] if len(card) > 3 else -1


def new_bag(
    state: GunshiState,
    p: int,
    lits: list[str],
    par: dict[int, int] | None = None,
    free: int = 0,
    pool: list[str] | None = None,
    used: list[str] | None = None,
) -> int:
    """A new bag for player p's cards; ``free``/``pool``: Optional Rule 3's unknown deck, of
    which the cards in ``used`` have been seen (they count against the copy limits)."""
    bid: int = state.knowledge.next_bag
    state.knowledge.next_bag += 1
    bag: Bag = {"id": bid, "lits": sorted(lits), "par": sorted((par or {}).items()), "gone": []}
    if pool is not None:
        bag["free"] = free
        bag["pool"] = list(pool)
        bag["used"] = sorted(used or [])
    state.knowledge.bags[p] = [*state.knowledge.bags[p], bag]
    return bid


def reset(st: GunshiState, p: int) -> None:
    """The opponent knows the composition of p's unknown cards, nothing about their places:
    one bag of them all (the Advanced cards in the box keep theirs)."""
    from sengoku.games.gunshi.custom_deck import deck_pool  # custom_deck -> this module

    st.knowledge.bags[p] = [b for b in st.knowledge.bags[p] if b["id"] == st.inspiration.box_bag[p]]
    zones = [st.cards.stock[p], st.cards.hand[p], st.cards.deck[p], st.cards.row[p]]
    if st.player == p:
        zones.append(st.battle.queue)
    unknown = [c[0] for z in zones for c in z if not (c[1] or c[2])]
    lt = st.cards.lightning[p]
    if lt is not None and not (lt[1] or lt[2]):
        unknown.append(lt[0])
    if not unknown:
        bid = -1
    elif st.deck_construction.deck_public:
        bid = new_bag(st, p, unknown)
    else:
        # Optional Rule 3: only the step 2 Move and the copy limits are known.
        known = [c[0] for z in zones for c in z if c[1] or c[2]]
        if lt is not None and (lt[1] or lt[2]):
            known.append(lt[0])
        lits = list(st.deck_construction.pre_taken)
        for code in known:
            if code in lits:
                lits.remove(code)
        bid = new_bag(
            st,
            p,
            lits,
            free=len(unknown) - len(lits),
            pool=deck_pool(st),
            used=known,
        )

    def mark(c: Card) -> Card:
        return (c[0], c[1], c[2]) if (c[1] or c[2]) else (c[0], c[1], c[2], bid)

    for z in zones:
        z[:] = [mark(c) for c in z]
    if lt is not None:
        st.cards.lightning[p] = mark(lt)


def _get(state: GunshiState, p: int, bid: int) -> tuple[int, Bag]:
    for i, bag in enumerate(state.knowledge.bags[p]):
        if bag["id"] == bid:
            return i, bag
    raise AssertionError(f"no knowledge bag {bid} for seat {p}")


def consume(state: GunshiState, p: int, bid: int, code: str) -> None:
    """A card of bag ``bid`` is revealed to be ``code``: take it out of the bag's content."""
    if bid < 0:
        return
    i, old = _get(state, p, bid)
    bag = old.copy()  # copy on write: clones share bag dicts
    lits = list(bag["lits"])
    par = [list(x) for x in bag["par"]]
    parent = -1
    if "free" in bag:
        bag["used"] = [*bag["used"], code]
        if code in lits:
            lits.remove(code)
        else:
            assert bag["free"] > 0, "a secret deck revealed more cards than it holds"
            bag["free"] -= 1
    elif code in lits:
        lits.remove(code)
    elif len(par) == 1:
        par[0][1] -= 1
        parent = par[0][0]
        par = [x for x in par if x[1] > 0]
    else:
        assert par, f"card {code!r} revealed from a bag that cannot hold it"
        bag["gone"] = [*bag["gone"], code]
    bag["lits"] = lits
    bag["par"] = [(x[0], x[1]) for x in par]
    bags = list(state.knowledge.bags[p])
    bags[i] = bag
    state.knowledge.bags[p] = bags
    if parent >= 0:
        consume(state, p, parent, code)


def mix(state: GunshiState, p: int, cards: list[Card], with_known: bool) -> int:
    """The bag of the given hand cards after the hand was shuffled out of the seat's sight.

    ``with_known``: the known cards lose their identity too (a face-down send or a removal
    hides which card left). Returns the bag the cards now share (-1: all known, none mixed).
    """
    lits = [c[0] for c in cards if len(c) <= 3 or c[3] < 0] if with_known else []
    par: dict[int, int] = {}  # bag id -> unknown cards of it (a plain dict: cheaper than Counter)
    for c in cards:
        if len(c) > 3 and c[3] >= 0:
            par[c[3]] = par.get(c[3], 0) + 1
    if not lits and len(par) == 1:
        return next(iter(par))  # already one bag: nothing is forgotten
    if not lits and not par:
        return -1
    return new_bag(state, p, lits, dict(par))


def slots(state: GunshiState, p: int) -> list[tuple[str, int, int]]:
    """Player p's unknown card slots as (zone, index, bag id), in a fixed public order."""
    out: list[tuple[str, int, int]] = []
    for zone in ("stock", "hand", "deck", "row"):
        for i, c in enumerate(getattr(state.cards, zone)[p]):
            if bag_of(c) >= 0:
                out.append((zone, i, bag_of(c)))
    lt = state.cards.lightning[p]
    if lt is not None and bag_of(lt) >= 0:
        out.append(("lightning", p, bag_of(lt)))
    if state.player == p:
        for i, c in enumerate(state.battle.queue):
            if bag_of(c) >= 0:
                out.append(("queue", i, bag_of(c)))
    if state.inspiration.removed_bag[p] >= 0:
        out += [
            ("removed", i, state.inspiration.removed_bag[p])
            for i in range(len(state.inspiration.removed[p]))
        ]
    if state.inspiration.box_bag[p] >= 0:
        out += [
            ("prepared", i, state.inspiration.box_bag[p])
            for i in range(len(state.inspiration.prepared[p]))
        ]
        out += [
            ("unused", i, state.inspiration.box_bag[p])
            for i in range(len(state.inspiration.unused[p]))
        ]
    return out


def _slot_bags(state: GunshiState, p: int) -> set[int]:
    """The bag ids of player p's unknown card slots: ``{b for _, _, b in slots(state, p)}``."""
    out: set[int] = set()
    for zone in (
        state.cards.stock[p],
        state.cards.hand[p],
        state.cards.deck[p],
        state.cards.row[p],
    ):
        for c in zone:
            if len(c) > 3 and c[3] >= 0:
                out.add(c[3])
    lt = state.cards.lightning[p]
    if lt is not None and bag_of(lt) >= 0:
        out.add(lt[3])
    if state.player == p:
        for c in state.battle.queue:
            if len(c) > 3 and c[3] >= 0:
                out.add(c[3])
    if state.inspiration.removed_bag[p] >= 0 and state.inspiration.removed[p]:
        out.add(state.inspiration.removed_bag[p])
    if state.inspiration.box_bag[p] >= 0 and (
        state.inspiration.prepared[p] or state.inspiration.unused[p]
    ):
        out.add(state.inspiration.box_bag[p])
    return out


def collect_garbage(state: GunshiState, p: int) -> None:
    """Drop bags with no member, no content and no pending constraint."""
    while True:
        live = _slot_bags(state, p)  # bags with a direct member
        for bag in state.knowledge.bags[p]:
            for pid, n in bag["par"]:
                if n > 0:
                    live.add(pid)  # and bags a child draws from
        dead = [
            bag["id"]
            for bag in state.knowledge.bags[p]
            if bag["id"] not in live
            and not bag["gone"]
            and not bag["lits"]
            and not bag["par"]
            and not bag.get("free")
        ]
        if not dead:
            return
        state.knowledge.bags[p] = [bag for bag in state.knowledge.bags[p] if bag["id"] not in dead]


def _draw_free(bag: Bag, rng: random.Random) -> list[str]:
    """Optional Rule 3: the unseen rest of a secret deck, within one colour's copies."""
    taken: Counter[str] = Counter(bag["used"]) + Counter(bag["lits"])
    avail = [c for c in bag["pool"] for _ in range(max(0, CARDS[c].copies - taken[c]))]
    rng.shuffle(avail)
    return avail[: bag["free"]]


def _members(state: GunshiState, p: int) -> list[tuple[Bag, list[int]]]:
    """Each bag in id order with its members: -1 per direct slot, a child's id per value it
    draws from the bag."""
    direct = Counter(b for _, _, b in slots(state, p))
    members: dict[int, list[int]] = {
        bag["id"]: [-1] * direct[bag["id"]] for bag in state.knowledge.bags[p]
    }
    for bag in state.knowledge.bags[p]:
        for pid, n in bag["par"]:
            members[pid] += [bag["id"]] * n
    return [
        (bag, members[bag["id"]]) for bag in sorted(state.knowledge.bags[p], key=lambda b: b["id"])
    ]


def _draw_once(
    state: GunshiState, p: int, rng: random.Random, plan: list[tuple[Bag, list[int]]] | None = None
) -> dict[int, list[str]] | None:
    """One top-down draw: the codes of each bag's direct slots, or None if a constraint broke."""
    received: dict[int, list[str]] = {}
    out: dict[int, list[str]] = {}
    for bag, members in plan if plan is not None else _members(state, p):
        bid = bag["id"]
        content = list(bag["lits"]) + received.pop(bid, [])
        if "free" in bag:
            content += _draw_free(bag, rng)
        for code in bag["gone"]:
            if code not in content:
                return None
            content.remove(code)
        if len(members) != len(content):
            raise AssertionError(f"knowledge bag {bag} has {len(members)} members")
        content.sort()
        rng.shuffle(content)
        for who, code in zip(members, content, strict=True):
            if who < 0:
                out.setdefault(bid, []).append(code)
            else:
                received.setdefault(who, []).append(code)
    return out


def sample(state: GunshiState, p: int, rng: random.Random) -> None:
    """Redraw every card of player p that the opponent cannot see, from what it knows."""
    where = slots(state, p)
    if not where:
        return
    drawn = None
    plan = _members(state, p)
    for _ in range(ATTEMPTS):
        drawn = _draw_once(state, p, rng, plan)
        if drawn is not None:
            break
    if drawn is None:
        return  # keep the real cards: they are consistent (never observed to happen)
    for zone, i, bid in where:
        code = drawn[bid].pop()
        if zone in ("removed", "prepared", "unused"):
            getattr(state.inspiration, zone)[p][i] = code
        elif zone == "lightning":
            c = state.cards.lightning[p]
            assert c is not None, "a Lightning slot was listed: it holds a card"
            state.cards.lightning[p] = (code, *c[1:])
        elif zone == "queue":
            c = state.battle.queue[i]
            state.battle.queue[i] = (code, *c[1:])
        else:
            z = getattr(state.cards, zone)[p]
            z[i] = (code, *z[i][1:])
