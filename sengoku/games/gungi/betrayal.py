"""Betrayal (寝返り): a Captain (謀) stacked onto enemy pieces turns them.

When a Captain is stacked, by a move or by a drop, onto a tower that holds enemy pieces,
each enemy piece whose kind its owner also holds in hand may be turned: the enemy piece
leaves the game and the hand piece of the same kind takes its place. Option ``betrayal``:
``any_subset`` (any choice of the eligible pieces) or ``all_or_nothing``. Each choice is a
move of its own (its code names the turned tiers and kinds; ``GungiState.make`` turns them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.games.gungi.zobrist import hand_key

if TYPE_CHECKING:
    from sengoku.games.gungi.state import GungiState


def gen_betrayals(
    state: GungiState,
    codes: list[int],
    color: int,
    target: tuple[int, ...],
    base: int,
    hand: list[int],
    quiet: bool = True,
) -> None:
    """The Captain stacked onto ``target``: one code per choice of enemy pieces to turn
    (and ``base``, turning none, unless ``quiet`` is False)."""
    if quiet:
        codes.append(base)
    eligible = [
        (tier, p >> 1)
        for tier, p in enumerate(target, start=1)
        if p & 1 != color and hand[p >> 1] > 0
    ]
    if not eligible:
        return
    choices = []
    for mask in range(1, 4):
        picked = [(t, k) for t, k in eligible if mask >> (t - 1) & 1]
        if len(picked) != bin(mask).count("1"):
            continue
        need: dict[int, int] = {}
        for _, k in picked:
            need[k] = need.get(k, 0) + 1
        if all(hand[k] >= n for k, n in need.items()):
            choices.append((mask, picked))
    if state.options["betrayal"] == "all_or_nothing":
        masks = [m for m, _ in choices]
        choices = [(m, p) for m, p in choices if not any(o != m and o & m == m for o in masks)]
    for mask, picked in choices:
        extra = mask << 14
        for t, k in picked:
            extra |= k << (10 if t == 1 else 6)
        codes.append(base | extra)


def turn(
    code: int,
    color: int,
    tower: tuple[int, ...],
    hand: list[int],
    captured: list[int],
    hand_changes: list[tuple[int, int]],
    key: int,
) -> tuple[tuple[int, ...], int]:
    """Play the betrayal of ``code`` on ``tower`` (the Captain already on top): each turned
    enemy piece goes to ``captured``, the hand piece of its kind takes its place (its old
    count to ``hand_changes``). Returns the new tower and ``key`` updated for the hand."""
    mask = (code >> 14) & 3
    turned = list(tower)
    for tier_index, shift in ((0, 10), (1, 6)):
        if mask >> tier_index & 1:
            turned_kind = (code >> shift) & 15
            captured.append(turned[tier_index])
            turned[tier_index] = turned_kind * 2 + color
            hand_changes.append((turned_kind, hand[turned_kind]))
            key ^= hand_key(color, turned_kind, hand[turned_kind])
            hand[turned_kind] -= 1
            key ^= hand_key(color, turned_kind, hand[turned_kind])
    return tuple(turned), key
