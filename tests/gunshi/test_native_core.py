"""Gunshi's native core (C++) against the Python engine, its oracle.

Both engines play the same games decision by decision, under every option value and every
variant: after each decision the core's legal integers must be the Python engine's, its
position ``GunshiState.to_json()`` field for field (hidden cards, the Shogun and the
opponent's knowledge bags included), a finished game's outcome ``state.outcome()``, and
its observation of every seat's view (and a spectator's) ``GunshiEncoder``'s of
``capture(state, seat)``, entry for entry: the proof that the core hides what the view
hides. Positions random play seldom reaches (a Chain Trap, an invasion win, Scout, the
Inspiration's swap, the length guard) are built here or picked by the core from many seeds.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import sengoku.games.gunshi.custom_deck as custom_deck
from sengoku.games.gunshi import Gunshi, GunshiState, native_core
from sengoku.games.gunshi.actions import NUM_ACTIONS, GunshiAction
from sengoku.games.gunshi.encoder import GunshiEncoder
from tests.gunshi.helpers import GAME, battle

pytestmark = pytest.mark.skipif(
    not native_core.native_available(),
    reason=f"native core not in use: {native_core.UNAVAILABLE_REASON}",
)

#: Every option away from its default at least once, every variant and Modification, every
#: deck selection rule and every preset.
OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"variant": "inspiration", "modification": 1},
    {"variant": "inspiration", "modification": 2, "sanryaku": True},
    {"variant": "inspiration", "modification": 3},
    {"variant": "custom"},
    {"variant": "custom", "custom_selection": "alternate_all", "sanryaku": True},
    {"variant": "custom", "custom_selection": "secret", "sanryaku": True},
    {"variant": "custom", "custom_selection": "secret", "move_up_for_selection": True},
    {
        "variant": "custom",
        "custom_selection": "agreed",
        "agreed_deck": "M Re F Rapid Scout Light Fire",
    },
    {
        "variant": "custom",
        "custom_selection": "agreed",
        "move_up_for_selection": True,
        "agreed_deck": "Re Re F Switch Scout Light Trap",
    },
    {"preset": "first_battle", "time_control": "tournament"},
    {"preset": "advanced_1", "shield_hit_facing": "keep"},
    {"preset": "advanced_2", "shoot_block": "any_crossed"},
    {"preset": "advanced_3", "shield_hit_breaks_fences": True},
    {"preset": "wave_after_wave", "lightning_alone_resupply": 1},
    {"preset": "fire_at_will", "invasion_zone": "centre_three"},
    {"preset": "logistical_nightmare", "logistics_cap": 24},
    {"preset": "who_dares_wins", "fence_diagonal": "front_cell_sides"},
    {"formation_fences": "inside_home", "time_control": "tournament", "logistics_cap": 18},
    {"variant": "inspiration", "invasion_zone": "centre_three", "shield_hit_facing": "keep"},
)

ENCODER = GunshiEncoder()


def _id(options: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def same(state: GunshiState, match: Any, where: object) -> None:
    """The two engines hold the same position, offer the same decisions and show every
    seat (and a spectator) the same observation."""
    expected = state.to_json()
    got = match.to_json()
    differ = [key for key in expected if expected[key] != got.get(key)]
    assert not differ and set(got) == set(expected), (where, differ)
    assert match.legal_ints() == [a.to_int() for a in state.legal_actions()], where
    assert match.is_terminal() == state.is_terminal(), where
    assert match.current_player == state.current_player, where
    encoding = native_core.encoding()
    mine = np.empty(ENCODER.shape, dtype=np.float32)
    for seat in (0, 1, None):
        want = ENCODER.encode(ENCODER.capture(state, seat), seat)
        match.encode(encoding, -1 if seat is None else seat, mine)
        assert np.array_equal(mine, want), (where, seat, np.nonzero(mine != want)[0][:8])


def lockstep(
    state: GunshiState, rng: random.Random, seen: dict[str, int], plies: int = 10**6
) -> Any:
    """Play ``state`` in both engines (the Python one chooses at random) to its end or for
    ``plies`` decisions, comparing after every one; now and then a fresh match loads the
    position mid-game. Counts the kinds of decisions played and the ends in ``seen``."""
    match = native_core.match_of(state)
    ply = 0
    while True:
        same(state, match, ply)
        if state.is_terminal():
            outcome = state.outcome()
            assert outcome is not None
            assert match.outcome() == outcome.to_json()
            seen[f"end {outcome.reason}"] = seen.get(f"end {outcome.reason}", 0) + 1
            return match
        if ply >= plies:
            return match
        action = rng.choice(state.legal_actions())
        seen[action.kind] = seen.get(action.kind, 0) + 1
        state.apply(action)
        match.apply(action.to_int())
        ply += 1
        if ply % 37 == 0:
            fresh = native_core.match_of(state)
            assert fresh.legal_ints() == match.legal_ints(), ply
            assert fresh.to_json() == match.to_json(), ply


def native_seeds(options: dict[str, Any], kinds: set[str], seeds: range) -> dict[str, int]:
    """For each kind of decision, a seed whose random game (the core's, drawn as
    :func:`lockstep` draws) plays one: the core finds them fast, the Python engine then
    checks those games."""
    found: dict[str, int] = {}
    for seed in seeds:
        match = native_core.new_match(GAME, seed, **options)
        rng = random.Random(seed)
        while not match.is_terminal() and not kinds <= set(found):
            action = rng.choice(match.legal_ints())
            kind = GunshiAction.from_int(action).kind
            found.setdefault(kind, seed)
            match.apply(action)
        if kinds <= set(found):
            break
    return found


@pytest.mark.parametrize("options", OPTIONS, ids=_id)
def test_both_engines_play_the_same_games(options: dict[str, Any]) -> None:
    seen: dict[str, int] = {}
    for seed in range(3):
        lockstep(GAME.new_state(seed, **options), random.Random(seed), seen)
    # Whole games, from the setup's first choice to a win, were compared.
    assert {"unit", "send", "end"} <= set(seen) and any(k.startswith("end ") for k in seen), seen


@pytest.mark.parametrize(
    ("options", "kinds"),
    [
        ({"variant": "inspiration", "modification": 1}, {"blind", "remove", "invade"}),
        ({"variant": "inspiration", "modification": 2}, {"take", "remove"}),
        ({"variant": "inspiration", "modification": 3}, {"take", "remove"}),
        ({"variant": "custom", "sanryaku": True}, {"look", "ask", "swap", "invade", "to"}),
    ],
    ids=["mod1", "mod2", "mod3", "custom"],
)
def test_rare_decisions_alike(options: dict[str, Any], kinds: set[str]) -> None:
    # The Inspiration follows an invasion only; Scout and Strategic Switch need their cards.
    found = native_seeds(options, kinds, range(400))
    assert kinds <= set(found), found
    seen: dict[str, int] = {}
    for seed in sorted({found[k] for k in kinds}):
        lockstep(GAME.new_state(seed, **options), random.Random(seed), seen)
    assert kinds <= set(seen), seen


def every_child_same(state: GunshiState, depth: int) -> int:
    """The two engines agree on ``state`` and on every position ``depth`` decisions on;
    the positions compared."""
    match = native_core.match_of(state)
    same(state, match, "start")
    count = 1
    if depth == 0 or state.is_terminal():
        return count
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        twin = match.clone()
        twin.apply(action.to_int())
        same(child, twin, action)
        count += every_child_same(child, depth - 1)
    return count


def _positions() -> list[tuple[str, GunshiState]]:
    out: list[tuple[str, GunshiState]] = []
    # Chain Trap: Blue lays it, Red's one-space Move springs it and drags its neighbours.
    s = battle(
        ["B I a1 n", "B I c4 n", "R I d5 s", "R C c5 n", "R A e5 w", "R I d6 s"],
        to_act=1,
        row=(("M",), ("Trap",)),
        shogun=("C", None),
    )
    s.cards.beside[1] = ("Trap", True, False)
    s.forget_legal_actions()
    out.append(("chain trap", s))
    # An invasion win: one invader on the Spot, a shielded Infantry (worth 2) at Blue's back
    # line's doorstep; Move, then Light Infantry.
    s = battle(
        ["R I d6 n", "R C b5 n", "R A e5 n", "B A a1 n"],
        row=(("M", "Light"), ()),
        hand=(("M", "M", "Light"), ("M", "Re", "F")),
        shogun=("K", None),
    )
    s.invader_spot.invaders[0] = 1
    out.append(("invasion", s))
    # Scout: the opponent's row and Lightning position to look at, units to ask about.
    s = battle(
        ["R I d3 n", "R A c3 n", "B I d5 s", "B C e6 s", "B A c6 s"],
        to_act=1,
        row=(("Scout",), ("M", "Re")),
    )
    s.cards.lightning[0] = ("Re", False, False)
    s.cards.row[1] = [("M", False, False), ("Re", True, True)]
    for p in (0, 1):
        s.reset_knowledge(p)  # the opponent knows what it knows of these cards
    s.forget_legal_actions()
    out.append(("scout", s))
    # Rapid Fire, Strategic Switch, Crossbow, Reinforce en Route in one row.
    out.append(
        (
            "sanryaku",
            battle(
                ["R A d3 n", "R A c3 n", "R I d4 n", "B I d5 s", "B i c5 s", "B C e6 s"],
                to_act=1,
                row=(("Fire", "Switch", "Crossbow", "EnRoute"), ()),
                points=(18, 18),
                fences=("B d4n",),
            ),
        )
    )
    # Rapid-Move and Reinforce with points to spare, a Cavalry charge over its own units.
    out.append(
        (
            "rapid",
            battle(
                ["R C d1 n", "R I d2 n", "R A e2 n", "B I d6 s", "B I d5 s"],
                to_act=1,
                row=(("Rapid", "Rf", "Review"), ()),
            ),
        )
    )
    return out


@pytest.mark.parametrize(("name", "state"), _positions(), ids=[n for n, _ in _positions()])
def test_hand_built_positions_alike(name: str, state: GunshiState) -> None:
    # Every decision two deep, then random games from the position to their ends.
    assert every_child_same(state.clone(), 2) > 3
    seen: dict[str, int] = {}
    for seed in range(3):
        lockstep(state.clone(), random.Random(seed), seen)
    assert any(k.startswith("end ") for k in seen), seen


def test_the_chain_trap_and_the_invasion_happen_as_built() -> None:
    # The positions above do what they are built for, in both engines.
    positions = dict(_positions())
    trap = positions["chain trap"].clone()
    match = native_core.match_of(trap)
    for text in ("send M", "end", "unit d5", "dir s", "done"):
        action = GAME.parse_action(trap, text)
        trap.apply(action)
        match.apply(action.to_int())
    assert trap.cards.beside[1] is None and trap.cards.deck[1][-1][0] == "Trap"
    assert match.to_json() == trap.to_json()
    win = positions["invasion"].clone()
    match = native_core.match_of(win)
    for text in ("send M", "end", "send M", "end", "unit d6", "dir n", "invade"):
        action = GAME.parse_action(win, text)
        win.apply(action)
        match.apply(action.to_int())
    assert win.is_terminal() and win.outcome().reason == "invasion"  # type: ignore[union-attr]
    assert match.outcome() == win.outcome().to_json()  # type: ignore[union-attr]


def test_the_length_guard_ends_both_alike() -> None:
    game = Gunshi()
    game.length_limit = 41  # a guard, not a rule: a test may set it on its game
    state = game.new_state(5)
    match = native_core.match_of(state)
    rng = random.Random(5)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply(action)
        match.apply(action.to_int())
    assert state.ply == 41 and state.outcome().reason == "length_limit"  # type: ignore[union-attr]
    assert match.to_json() == state.to_json()
    assert match.outcome() == state.outcome().to_json()  # type: ignore[union-attr]


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    match = native_core.new_match(GAME, 2)
    before = match.to_json()
    legal = set(match.legal_ints())
    illegal = next(n for n in range(NUM_ACTIONS) if n not in legal)
    assert not match.is_legal(illegal)
    with pytest.raises(ValueError, match=f"action {illegal} is not legal"):
        match.apply(illegal)
    assert match.to_json() == before and set(match.legal_ints()) == legal
    with pytest.raises(ValueError, match="0..") as refused:
        match.apply(NUM_ACTIONS)
    assert str(NUM_ACTIONS) in str(refused.value)
    for wrong in ("3", 1.0, True, None):
        with pytest.raises(TypeError, match="whole number"):
            match.apply(wrong)
    assert match.to_json() == before


def test_a_finished_game_refuses_every_action() -> None:
    match = lockstep(GAME.new_state(1), random.Random(1), {})
    assert match.is_terminal() and match.current_player == -1 and match.legal_ints() == []
    for n in range(0, NUM_ACTIONS, 13):
        with pytest.raises(ValueError, match="not legal"):
            match.apply(n)


def test_a_bad_position_names_its_field() -> None:
    data = GAME.new_state(1).to_json()
    match = native_core.module().Match(native_core.rules(data["options"], 1000))
    for name, value, said in (
        ("uloc", data["uloc"][:-1], "wrong length"),
        ("phase", "lunch", "phase"),
        ("hand", [[]], "one entry per seat"),
        ("player", 7, "is not 0 or 1"),
        ("stock", [[["Nope", False, False]], []], "unknown card"),
        ("fpiece", "Q", "I, A, C or F"),
        ("board", [99] * 49, "names no unit"),
        ("shogun", [-1, 24], "names no unit"),
    ):
        with pytest.raises(ValueError, match=f"{name}|{said}"):
            match.load_json({**data, name: value})
    missing = {k: v for k, v in data.items() if k != "bags"}
    with pytest.raises(ValueError, match="'bags' is missing"):
        match.load_json(missing)
    with pytest.raises(ValueError, match="'points'"):
        match.load_json({**data, "points": "many"})
    with pytest.raises(ValueError, match="command step"):
        match.load_json({**data, "cmd": {"card": "M", "type": "move", "step": "lunch"}})
    with pytest.raises(ValueError, match="'leader'"):
        match.load_json({**data, "cmd": {"card": "M", "type": "move", "leader": "d4"}})
    match.load_json(data)  # a refused position leaves nothing half loaded: a good one loads
    assert match.to_json() == data


def test_rules_and_an_encoding_of_another_game_are_refused() -> None:
    options = GAME.resolve_options()
    spec = native_core.rules_spec(options, 1000)
    native_core.module().Rules(spec)
    offsets = {k: v for k, v in spec["offsets"].items() if k != "swap"}
    with pytest.raises(ValueError, match="swap"):
        native_core.module().Rules({**spec, "offsets": offsets})
    with pytest.raises(ValueError, match="24 unit tokens"):
        native_core.module().Rules({**spec, "token_types": spec["token_types"][:-1]})
    encoding = native_core.encoding_spec(GunshiEncoder())
    with pytest.raises(ValueError, match="cmd_steps"):
        native_core.module().Encoding({**encoding, "cmd_steps": encoding["cmd_steps"][::-1]})
    with pytest.raises(ValueError, match="shape"):
        native_core.match_of(GAME.new_state(0)).encode(
            native_core.encoding(), 0, np.empty(3, dtype=np.float32)
        )
    with pytest.raises(ValueError, match="no such seat"):
        native_core.match_of(GAME.new_state(0)).encode(
            native_core.encoding(), 2, np.empty(ENCODER.shape, dtype=np.float32)
        )


@pytest.mark.parametrize("options", OPTIONS, ids=_id)
def test_the_core_sets_up_as_the_setup_does(options: dict[str, Any]) -> None:
    # The same deck, variant and preset; Modification 1's random.sample of the Advanced
    # cards from the same random.Random(seed) (CPython's generator seeded from the seed's
    # words: an int's absolute value, all of its bits).
    seeds = [*range(12), -1, -977, 2**31 - 1, 2**32, 2**40 + 7, 2**64 + 3, 10**30]
    for seed in seeds:
        match = native_core.new_match(GAME, seed, **options)
        assert match.to_json() == GAME.new_state(seed, **options).to_json(), seed


def test_a_position_the_core_played_goes_on_in_python() -> None:
    # The core's position, read back by GunshiState.from_json, is the game itself.
    match = native_core.new_match(GAME, 9, variant="inspiration", modification=2)
    rng = random.Random(9)
    for _ in range(150):
        match.apply(rng.choice(match.legal_ints()))
    copy = native_core.state_of(GAME, match)
    assert copy.to_json() == match.to_json()
    lockstep(copy, rng, {}, plies=200)


@pytest.mark.parametrize("sanryaku", [False, True])
def test_the_custom_deck_pool_handed_to_the_core_is_the_rules(sanryaku: bool) -> None:
    state = GAME.new_state(0, variant="custom", sanryaku=sanryaku)
    assert native_core.deck_pool(state.options) == custom_deck.deck_pool(state)


def test_a_clone_is_independent() -> None:
    match = native_core.new_match(GAME, 4)
    twin = match.clone()
    twin.apply(twin.legal_ints()[0])
    assert match.to_json() == GAME.new_state(4).to_json() and twin.to_json() != match.to_json()
    assert match.random_playouts(2, 1) > 0  # playouts from here leave it as it was
    assert match.to_json() == GAME.new_state(4).to_json()
