"""The game knowledge of Sashimono, Gunkimono and Gunshi on constructed positions: each term
moves the evaluation the way the game says it should, for the right seat."""

from __future__ import annotations

import random
from typing import Any

from sengoku.ai import knowledge_for
from sengoku.core.registry import load_game


def random_states(name: str, seed: int, count: int, **options: Any) -> list[Any]:
    """Positions along one random game (the last may be terminal)."""
    st = load_game(name).new_state(seed, **options)
    rng = random.Random(seed)
    out = [st.clone()]
    for _ in range(count):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_actions()))
        out.append(st.clone())
    return out


def assert_in_range(name: str, **options: Any) -> None:
    k = knowledge_for(name)
    for st in random_states(name, 5, 300, **options):
        for seat in range(st.num_players):
            value = k.evaluate(st.determinize(seat, random.Random(1)), seat)
            assert -1.0 <= value <= 1.0
            if not st.is_terminal():
                assert -0.9 <= value <= 0.9


# ----------------------------------------------------------------------------- Sashimono


def sashimono(seed: int = 3, **options: Any) -> Any:
    return load_game("sashimono").new_state(seed, **options)


def test_sashimono_a_bowed_sashimono_raises_its_owners_value() -> None:
    k = knowledge_for("sashimono")
    st = sashimono()
    base = k.evaluate(st, 0)
    st.sides[0].slots[0] = 0
    standing = k.evaluate(st, 0)
    st.sides[0].bowed[0] = True
    bowed = k.evaluate(st, 0)
    assert base < standing < bowed
    # ... and lowers the opponent's by as much (a two-player zero-sum race)
    assert k.evaluate(st, 1) == -bowed
    # a bowed Sashimono is worth less than the point it will score, more than half of it
    scored = st.clone()
    scored.sides[0].slots[0] = None
    scored.sides[0].bowed[0] = False
    scored.sides[0].vp += 1
    assert bowed < k.evaluate(scored, 0)


def test_sashimono_line_power_counts_the_best_line() -> None:
    k = knowledge_for("sashimono")
    st = sashimono()
    base = k.evaluate(st, 0)
    strong = st.clone()
    strong.sides[0].cells[0] = "TK^"  # a rank-2 stack, face up: attack 4, defence 2
    assert k.evaluate(strong, 0) > base
    weak = st.clone()
    weak.sides[0].cells = [None] * 9
    assert k.evaluate(weak, 0) < base


def test_sashimono_solo_reads_the_kagemusha_not_the_unused_side() -> None:
    k = knowledge_for("sashimono")
    st = sashimono(mode="solo")
    base = k.evaluate(st, 0)
    unused = st.clone()
    unused.sides[1].vp = 5
    unused.sides[1].slots[0] = 0
    unused.sides[1].bowed[0] = True
    assert k.evaluate(unused, 0) == base
    trap = st.clone()
    trap.sides[2].sbowed[0] = True  # the Kagemusha scores it on its next turn
    assert k.evaluate(trap, 0) < base
    ahead = st.clone()
    ahead.sides[2].vp += 1
    assert k.evaluate(ahead, 0) < k.evaluate(trap, 0)


def test_sashimono_values_stay_in_range() -> None:
    assert_in_range("sashimono")
    assert_in_range("sashimono", mode="solo")


# ----------------------------------------------------------------------------- Gunkimono


def gunkimono_board(formation: int) -> Any:
    """A two-player start whose battlefield is a checkerboard of troops 1 and 2 (formations of
    one square) but for a formation of troop 0 on the first ``formation`` squares of row 1."""
    from sengoku.games.gunkimono.actions import CELLS, WIDTH

    st = load_game("gunkimono").new_state(3)
    for c in range(CELLS):
        st.top[c] = 1 + (c // WIDTH + c % WIDTH) % 2
    for c in range(formation):
        st.top[c] = 0
    return st


def build(st: Any, seat: int, cell: int) -> None:
    st.strongholds[seat].append(cell)
    st.sh_owner[cell] = seat


def test_gunkimono_a_stronghold_in_a_larger_formation_is_worth_more() -> None:
    k = knowledge_for("gunkimono")
    small, large = gunkimono_board(2), gunkimono_board(5)
    for st in (small, large):
        st.honor[0] = [9, 9, 9, 9, 9]  # both strongholds already built: no potential left
        build(st, 0, 0)
        build(st, 0, 40)
    assert k.evaluate(large, 0) > k.evaluate(small, 0)
    assert k.evaluate(large, 1) < k.evaluate(small, 1)


def test_gunkimono_a_large_free_formation_counts_when_a_stronghold_is_due() -> None:
    k = knowledge_for("gunkimono")
    row = 3  # the first stronghold row in a two-player game

    def value(formation: int, honor: int) -> float:
        st = gunkimono_board(formation)
        st.honor[0] = [honor] * 5
        return k.evaluate(st, 0)

    due = value(6, row) - value(1, row)
    far = value(6, 0) - value(1, 0)  # as far from a stronghold as the opponent: no edge
    assert due > 0
    assert due > far
    # being due for a stronghold is itself worth more than being far from it
    assert value(6, row) > value(6, row - 1)


def test_gunkimono_leading_an_honor_race_raises_the_value() -> None:
    k = knowledge_for("gunkimono")
    st = gunkimono_board(1)
    st.honor = [[0] * 5, [4, 0, 0, 0, 0]]
    behind = k.evaluate(st, 0)
    st.honor = [[4, 0, 0, 0, 0], [0] * 5]
    ahead = k.evaluate(st, 0)
    st.honor = [[8, 0, 0, 0, 0], [0] * 5]
    near_banner = k.evaluate(st, 0)
    assert behind < 0 < ahead < near_banner


def test_gunkimono_values_stay_in_range() -> None:
    assert_in_range("gunkimono")
    assert_in_range("gunkimono", players=3)


# ----------------------------------------------------------------------------- Gunshi


def gunshi_battle() -> Any:
    """A Gunshi game in its battle phase with every unit taken off the field."""
    st = load_game("gunshi").new_state(3)
    rng = random.Random(3)
    while st.phase != "battle":
        st.apply(rng.choice(st.legal_actions()))
    for u, cell in enumerate(st.field.uloc):
        if cell >= 0:
            st.field.board[cell] = -1
            st.field.uloc[u] = -1
    return st


def put(st: Any, seat: int, cell: int, other_than: tuple[int, ...] = ()) -> int:
    """Put one of ``seat``'s units (not one of ``other_than``) on ``cell``; its token."""
    u = next(u for u, owner in enumerate(st.field.uown) if owner == seat and u not in other_than)
    st.field.uloc[u] = cell
    st.field.board[cell] = u
    return u


def test_gunshi_a_unit_next_to_the_enemy_shogun_raises_the_value() -> None:
    k = knowledge_for("gunshi")
    values = {}
    for name, mine in (("far", 0), ("adjacent", 17)):  # a1, or d3 next to d4
        st = gunshi_battle()
        st.shoguns.candidates[0] = []  # our unit is no Shogun: no threat the other way
        enemy = put(st, 1, 24)  # d4
        st.shoguns.candidates[1] = [enemy, *(u for u in st.shoguns.candidates[1] if u != enemy)]
        put(st, 0, mine)
        values[name] = k.evaluate(st, 0)
        # with more candidates left, the same unit is less likely the Shogun: a smaller threat
        st.shoguns.candidates[1] = [enemy]
        values[name + " sole"] = k.evaluate(st, 0)
        st.shoguns.revealed[1] = True
        st.shoguns.shogun[1] = put(st, 1, 48, other_than=(enemy,))  # g7, far from everyone
        values[name + " revealed elsewhere"] = k.evaluate(st, 0)
    assert values["far"] < values["adjacent"] < values["adjacent sole"]
    assert values["far sole"] == values["far"]
    assert values["adjacent revealed elsewhere"] == values["far revealed elsewhere"]
    assert values["adjacent sole"] > 0 > -values["adjacent sole"]


def test_gunshi_a_unit_next_to_an_advanced_invader_raises_the_value() -> None:
    k = knowledge_for("gunshi")

    def value(invader: int, mine: int) -> float:
        st = gunshi_battle()
        st.shoguns.candidates = [[], []]  # no Shogun term
        put(st, 1, invader)  # Blue invades towards row 1
        put(st, 0, mine)
        return k.evaluate(st, 0)

    blocking = value(10, 17)  # d2 (one row from Blue's zone), with d3 next to it
    far = value(10, 48)
    assert blocking > far
    # an enemy unit still near its own side is no invader to stop
    assert value(24, 17) == value(24, 0)  # d4 (halfway) with d3 next to it, or a1


def test_gunshi_invaders_count_for_their_side() -> None:
    k = knowledge_for("gunshi")
    st = gunshi_battle()
    base = k.evaluate(st, 0)
    st.invader_spot.invaders[0] = 1
    assert k.evaluate(st, 0) > base
    assert k.evaluate(st, 1) == -k.evaluate(st, 0) < 0


def test_gunshi_values_stay_in_range() -> None:
    assert_in_range("gunshi")
