"""Gunkimono's native core (C++) against the Python engine, its oracle.

Both engines play the same games decision by decision, under every ruling of the spec and
every player count: after each decision the core's legal integers must be
``Gunkimono.legal_action_ints`` and its position ``GunkimonoState.to_json()``, field for
field, and a finished game's outcome ``state.outcome()``. Positions the random and balanced
games do not reach (seats that pass, the length guard, a game over) are built here.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest

from sengoku.games.gunkimono import Gunkimono, GunkimonoState, native_core
from sengoku.games.gunkimono.actions import (
    NUM_ACTIONS,
    SCORE_BASE,
    STRONGHOLD_BASE,
    SUPPORT_BASE,
    BuildStronghold,
    GunkimonoAction,
    Score,
    SmallTile,
)
from sengoku.games.gunkimono.battlefield import FACE_DOWN, PAIRS_OF
from sengoku.games.gunkimono.data import components, tile_troops
from sengoku.games.gunkimono.encoder import GunkimonoEncoder
from sengoku.games.gunkimono.extra_support import split_board
from sengoku.games.gunkimono.formations import formations
from sengoku.games.gunkimono.honor_track import REMOVED
from sengoku.games.gunkimono.placement import _rule_4_board, why_not_cover
from sengoku.games.gunkimono.selfplay import balanced_choice
from sengoku.games.gunkimono.state import CELLS
from tests.gunkimono.helpers import GAME, hand, neutral, new, paint, play, sq

pytestmark = pytest.mark.skipif(
    not native_core.native_available(),
    reason=f"native core not in use: {native_core.UNAVAILABLE_REASON}",
)

#: The spec's rulings, each away from its default at least once, over 2 to 5 players.
RULINGS: tuple[dict[str, Any], ...] = (
    {"players": 2},
    {"players": 3, "own_double_stronghold": True, "link_own_formations": False},
    {"players": 4, "empty_banner_stack": "stay", "end_tile_replacement": False},
    {"players": 5, "removed_marker_counts": False, "own_double_stronghold": True},
    {"players": 2, "link_own_formations": False, "empty_banner_stack": "stay"},
    {"players": 3, "end_tile_replacement": False, "removed_marker_counts": False},
)


def same(state: GunkimonoState, match: Any, where: object) -> None:
    """The two engines hold the same position and offer the same decisions."""
    expected = state.to_json()
    got = match.to_json()
    differ = [key for key in expected if expected[key] != got.get(key)]
    assert not differ and set(got) == set(expected), (where, differ)
    assert match.legal_ints() == GAME.legal_action_ints(state), where
    assert match.is_terminal() == state.is_terminal(), where
    assert match.current_player == state.current_player, where


def lockstep(
    state: GunkimonoState, rng: random.Random, balanced: bool, seen: dict[str, int]
) -> Any:
    """Play ``state`` to its end in both engines (the Python one chooses), comparing after
    every decision; now and then a fresh match loads the position mid-game. Counts what
    the game went through in ``seen``. Returns the match."""
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
        seen[str(state.phase)] = seen.get(str(state.phase), 0) + 1
        if state.phase == "place" and _rule_4_board(state) is not None:
            seen["rule 4"] = seen.get("rule 4", 0) + 1
        legal = state.legal_actions()
        supports = [a for a in legal if isinstance(a, SmallTile) and a.support]
        action: GunkimonoAction
        if supports and rng.random() < 0.3:
            action = rng.choice(supports)
        elif balanced:
            action = balanced_choice(state, rng)
        else:
            action = rng.choice(legal)
        number = GAME.action_to_int(state, action)
        state.apply(action)
        assert match.apply(number), (ply, action)
        ply += 1
        if ply % 37 == 0:
            fresh = native_core.match_of(state)
            assert fresh.legal_ints() == match.legal_ints(), ply
            assert fresh.to_json() == match.to_json(), ply


def every_child_same(state: GunkimonoState) -> list[int]:
    """The two engines agree on ``state`` (a position a test built) and on the position
    after each of its legal decisions; the legal integers."""
    match = native_core.match_of(state)
    same(state, match, "before")
    for action in state.legal_actions():
        child, twin = state.clone(), match.clone()
        child.apply(action)
        assert twin.apply(GAME.action_to_int(state, action)), action
        same(child, twin, action)
    return list(match.legal_ints())


def stronghold(state: GunkimonoState, seat: int, square: str) -> None:
    state.fortresses.strongholds[seat].append(sq(square))
    state.fortresses.sh_owner[sq(square)] = seat
    state.forget_legal_actions()


@pytest.mark.parametrize(
    "options", RULINGS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items())
)
def test_both_engines_play_the_same_games(options: dict[str, Any]) -> None:
    seen: dict[str, int] = {}
    for seed in range(6):
        state = GAME.new_state(seed, **options)
        lockstep(state, random.Random(seed), balanced=seed % 2 == 1, seen=seen)
    # Every step of the turn was compared, and so were the ends the games reached.
    assert {"place", "support", "score", "draw", "end end_of_game"} <= set(seen), seen


def test_strongholds_and_rule_4_are_compared() -> None:
    # Balanced play builds strongholds; with two on the battlefield Stronghold rule 4 can
    # refuse placements, which the legal lists compared then reflect.
    seen: dict[str, int] = {}
    for seed in range(8):
        options = RULINGS[seed % len(RULINGS)]
        lockstep(GAME.new_state(100 + seed, **options), random.Random(seed), True, seen)
    assert seen.get("stronghold", 0) > 0 and seen.get("rule 4", 0) > 0, seen


def _no_tiles_left(players: int) -> dict[str, Any]:
    """A fresh game where only seat 0 holds tiles (three large ones) and seat 1 holds a
    stronghold: every other turn passes, and seat 1's stronghold is assessed as it passes."""
    data = GAME.new_state(3, players=players).to_json()
    for seat in range(1, players):
        data["hands"][seat] = []
    data["reserve"] = [[] for _ in range(players)]
    data["row"], data["stack"], data["end_stack"] = [], [], []
    data["end_stack_in_play"] = True
    data["strongholds"][1] = [0]
    data["sh_owner"][0] = 1
    data["built_at"] = [[1, 0]]
    return data


@pytest.mark.parametrize("players", [2, 3, 5])
def test_seats_that_cannot_place_pass_until_the_game_ends(players: int) -> None:
    data = _no_tiles_left(players)
    state = GAME.state_from_json(data)
    match = lockstep(state, random.Random(players), balanced=False, seen={})
    assert state.ending.reason == "no_placement"
    assert state.sequence.passes >= players
    assert state.victory_points.vp_strongholds[1] > 0  # assessed on its passing turns
    assert match.outcome() == state.outcome().to_json()  # type: ignore[union-attr]


def test_the_length_guard_ends_both_alike() -> None:
    game = Gunkimono()
    game.length_limit = 41  # a guard, not a rule: a test may set it on its game
    state = game.new_state(5, players=3)
    rng = random.Random(5)
    match = native_core.match_of(state)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply(action)
        assert match.apply(GAME.action_to_int(state, action))
    assert state.ending.reason == "length_limit" and state.sequence.decisions == 41
    assert match.to_json() == state.to_json()
    assert match.outcome() == state.outcome().to_json()  # type: ignore[union-attr]


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state = GAME.new_state(2, players=4)
    match = native_core.match_of(state)
    before = match.to_json()
    legal = set(match.legal_ints())
    illegal = next(n for n in range(NUM_ACTIONS) if n not in legal)
    assert not match.is_legal(illegal) and not match.apply(illegal)
    assert match.to_json() == before and set(match.legal_ints()) == legal
    with pytest.raises(ValueError, match="0..") as refused:
        match.apply(NUM_ACTIONS)
    assert str(NUM_ACTIONS) in str(refused.value)
    for wrong in ("3", 1.0, True, None):
        with pytest.raises(TypeError, match="whole number"):
            match.apply(wrong)
    assert match.to_json() == before


def test_a_finished_game_refuses_every_action() -> None:
    state = GAME.state_from_json(_no_tiles_left(2))
    match = lockstep(state, random.Random(0), balanced=False, seen={})
    assert match.is_terminal() and match.current_player == -1 and match.legal_ints() == []
    assert not any(match.apply(n) for n in range(0, NUM_ACTIONS, 97))


def test_a_bad_position_names_its_field() -> None:
    data = GAME.new_state(1, players=2).to_json()
    match = native_core.module().Match(native_core.rules(data["options"], 1000))
    for name, value, said in (
        ("top", data["top"][:-1], "one value per square"),
        ("phase", "lunch", "names no phase"),
        ("hands", [[1, 2]], "one list per seat"),
        ("turn", 7, "must be a seat"),
        ("score", "many", "list of whole numbers"),
    ):
        with pytest.raises(ValueError, match=f"'{name}'.*{said}"):
            match.load_json({**data, name: value})
    missing = {k: v for k, v in data.items() if k != "pending"}
    with pytest.raises(ValueError, match="'pending' is missing"):
        match.load_json(missing)


def test_rules_refuse_a_spec_that_is_not_the_game() -> None:
    options = GAME.resolve_options(players=2)
    spec = native_core.rules_spec(options, 1000)
    native_core.module().Rules(spec)
    with pytest.raises(ValueError, match="'phases'"):
        native_core.module().Rules({**spec, "phases": list(reversed(spec["phases"]))})
    with pytest.raises(ValueError, match="action blocks"):
        native_core.module().Rules({**spec, "draw_base": spec["draw_base"] + 1})
    with pytest.raises(ValueError, match="'printed'"):
        native_core.module().Rules({**spec, "printed": spec["printed"][:-1]})


def test_a_position_the_core_played_goes_on_in_python() -> None:
    # The core's position, read back by GunkimonoState.from_json, is the game itself: the
    # Python engine plays on from it as from its own.
    state = GAME.new_state(9, players=3)
    match = native_core.match_of(state)
    rng = random.Random(9)
    for _ in range(60):
        legal = match.legal_ints()
        assert match.apply(legal[rng.randrange(len(legal))])
    copy = native_core.state_of(GAME, match)
    assert copy.to_json() == match.to_json()
    lockstep(copy, rng, balanced=True, seen={})


def test_a_clone_is_independent() -> None:
    state = GAME.new_state(4, players=2)
    match = native_core.match_of(state)
    twin = match.clone()
    assert twin.apply(twin.legal_ints()[0])
    assert match.to_json() == state.to_json() and twin.to_json() != match.to_json()
    assert match.random_playouts(2, 1) > 0  # playouts from here leave it as it was
    assert match.to_json() == state.to_json()


@pytest.mark.parametrize("link_own", [True, False])
@pytest.mark.parametrize("owners", [(0, 0), (0, 1)])
def test_stronghold_rule_4_and_ruling_6_alike(link_own: bool, owners: tuple[int, int]) -> None:
    # Samurai a1-b1 and d1 each hold a stronghold; a samurai on c1 would link them: rule 4
    # refuses it for two players' formations, ruling 6 (link_own_formations) rules on one
    # player's two. Large tiles, small tiles and supports are all asked.
    state = neutral(new(2, link_own_formations=link_own))
    paint(state, {"a1": "S", "d1": "S"})
    stronghold(state, owners[0], "a1")
    stronghold(state, owners[1], "d1")
    hand(state, 0, ["S1C1", "S2P2", "I2P2"])
    paint(state, {"h5": "I"}, level=1)  # a raised square: supports on its neighbours
    legal = every_child_same(state)
    small_samurai_c1 = GAME.action_to_int(state, SmallTile(1, sq("c1"), False))
    refused = owners[0] != owners[1] or not link_own
    assert (small_samurai_c1 not in legal) is refused


def test_a_support_that_only_a_linking_tile_would_cover_is_refused_alike() -> None:
    # c1 stands one level up, a cavalry; c2 below it. The hand's one tile (samurai and
    # cavalry) could cover a support on c2 only with its samurai on c1 (its cavalry there
    # would cover a cavalry), which would link two players' samurai formations: no support
    # on c2 (rule 4), where one is allowed without the strongholds.
    def position(with_strongholds: bool) -> GunkimonoState:
        state = neutral(new(2))
        paint(state, {"a1": "S", "d1": "S"})
        paint(state, {"c1": "C"}, level=1)
        if with_strongholds:
            stronghold(state, 0, "a1")
            stronghold(state, 1, "d1")
        hand(state, 0, ["S1C1"])
        return state

    support_c2 = GAME.action_to_int(position(False), SmallTile(0, sq("c2"), True))
    assert support_c2 in every_child_same(position(False))
    assert support_c2 not in every_child_same(position(True))


def _split_by_a_support(link_own: bool, tile: str, raised: str) -> GunkimonoState:
    """Infantry c3-d3-e3 holds seat 0's two strongholds (c3, e3: own_double_stronghold);
    d4, beside d3, stands one level up and shows ``raised``; the hand's one tile is ``tile``.
    A support on d3 would split the formation in two, each part with a stronghold."""
    state = neutral(new(2, own_double_stronghold=True, link_own_formations=link_own))
    paint(state, {"c3": "I", "d3": "I", "e3": "I"})
    paint(state, {"d4": raised}, level=1)
    stronghold(state, 0, "c3")
    stronghold(state, 0, "e3")
    hand(state, 0, [tile])
    return state


def test_a_support_that_rule_4_then_refuses_is_refused_alike() -> None:
    # The hand's tile, infantry and samurai, could cover a support on d3 with its infantry
    # on d3 (its samurai on d4) or its samurai on d3 (its infantry on d4, over an infantry:
    # the Troop Duplication rule). On the board before the support, infantry on d3 joins
    # nothing new; after it, it links the two parts, each holding a stronghold of seat 0,
    # which Stronghold rule 4 refuses without link_own_formations. The Extra Support rule
    # asks that the large tile may then cover the support: no support on d3 (it would leave
    # seat 0 in step 1 without a legal action, the game not over).
    state = _split_by_a_support(False, "I1S1", "I")
    support = SmallTile(0, sq("d3"), True)
    legal = every_child_same(state)
    assert GAME.action_to_int(state, support) not in legal
    why = state.why_illegal(support)
    assert why is not None and "Extra Support rule" in why and "cover" in why
    # The supports on d4's other neighbours stay (they split nothing), each can be covered.
    supports = [n for n in legal if SUPPORT_BASE <= n < SCORE_BASE]
    assert {(n - SUPPORT_BASE) % CELLS for n in supports} == {sq("c4"), sq("e4"), sq("d5")}
    for n in supports:
        child = state.clone()
        child.apply(GAME.int_to_action(state, n))
        assert child.legal_actions(), n


@pytest.mark.parametrize(
    ("link_own", "tile", "raised"),
    [
        (True, "I1S1", "I"),  # link_own_formations: one's own two parts may be linked again
        (False, "S1C1", "I"),  # samurai or cavalry on d3 links nothing
        (False, "I1S1", "S"),  # samurai on d3, infantry on the samurai of d4
    ],
)
def test_a_support_that_splits_two_strongholds_may_still_be_covered(
    link_own: bool, tile: str, raised: str
) -> None:
    # The same split formation, but a large tile may cover the support on the board after
    # it: the second look is no stricter than the rules.
    state = _split_by_a_support(link_own, tile, raised)
    support = SmallTile(0, sq("d3"), True)
    assert GAME.action_to_int(state, support) in every_child_same(state)
    assert state.why_illegal(support) is None
    state.apply(support)
    assert state.legal_actions()


#: The honor scores' block of the action space (``Score(True, ...)``).
HONOR = range(SCORE_BASE + 5 * CELLS, STRONGHOLD_BASE)
#: Every combination of the five rule options (four booleans, the empty banner stack's two
#: rulings), the players cycling 2..5.
SOAK_OPTIONS: list[dict[str, Any]] = [
    {
        "players": 2 + k % 4,
        "own_double_stronghold": own_double,
        "empty_banner_stack": "stay" if stay else "remove",
        "removed_marker_counts": removed_counts,
        "end_tile_replacement": replacement,
        "link_own_formations": link_own,
    }
    for k, (own_double, stay, removed_counts, replacement, link_own) in enumerate(
        itertools.product((False, True), repeat=5)
    )
]


def seek_honor(state: GunkimonoState, legal: list[int], rng: random.Random) -> int:
    """A policy that scores honor whenever it may (so markers climb and strongholds are
    built), builds a stronghold in a formation holding its own where it may (so Stronghold
    rule 4 and ruling 1 meet: formations holding two of a seat's strongholds), lays a
    support now and then, else plays at random."""
    for n in legal:
        if n in HONOR:
            return n
    if state.phase == "stronghold":
        board = formations(state)
        seat = state.current_player
        beside_own = [
            n
            for n in legal
            if any(
                state.fortresses.sh_owner[c] == seat
                for c in board.held.get(board.comp[n - STRONGHOLD_BASE], [])
            )
        ]
        if beside_own:
            return rng.choice(beside_own)
    supports = [n for n in legal if SUPPORT_BASE <= n < SCORE_BASE]
    if supports and rng.random() < 0.3:
        return rng.choice(supports)
    return rng.choice(legal)


def supports_by_the_rule(state: GunkimonoState) -> set[int]:
    """The squares where the seat to act may lay a support, by the Extra Support rule itself:
    with the support laid there (face down, one level up), some side of a large tile of the
    hand may cover it by every rule (``why_not_cover``, Stronghold rule 4 with the
    formations after the support). Worked out square by square, not as the engine does."""
    top, level, sh = state.battlefield.top, state.battlefield.level, state.fortresses.sh_owner
    sides = set()
    for code in state.supply.hands[state.current_player]:
        (t1, _), (t2, _) = tile_troops(code)
        sides |= {(t1, t2), (t2, t1)}
    found = set()
    for x in range(CELLS):
        if sh[x] >= 0:  # Stronghold rule 1
            continue
        old = top[x], level[x]
        top[x], level[x] = FACE_DOWN, level[x] + 1
        try:
            if any(
                why_not_cover(state, ta, a, tb, b) is None
                for _i, a, b in PAIRS_OF[x]
                for ta, tb in sides
            ):
                found.add(x)
        finally:
            top[x], level[x] = old
    return found


def soak(options: dict[str, Any], seed: int, seen: dict[str, int]) -> None:
    """One game under ``seek_honor`` in both engines, in lockstep: the same legal integers
    at every decision, never an empty list while the game is not over, the same position
    now and then and at the end, the same outcome. Counts in ``seen`` the positions of
    step 1 where a support could split a formation holding two strongholds: there, and at
    every tenth position of step 1, the supports offered are those of the rule's definition
    (``supports_by_the_rule``)."""
    state = GAME.new_state(seed, **options)
    match = native_core.match_of(state)
    rng = random.Random(seed)
    ply = 0
    while True:
        legal = GAME.legal_action_ints(state)
        assert match.legal_ints() == legal, (options, seed, ply)
        if state.is_terminal():
            assert match.is_terminal() and match.to_json() == state.to_json(), (options, seed)
            outcome = state.outcome()
            assert outcome is not None and match.outcome() == outcome.to_json()
            seen["games"] = seen.get("games", 0) + 1
            return
        assert legal, f"no legal action, the game not over: {options}, seed {seed}, ply {ply}"
        if state.phase == "place" and state.supply.reserve[state.current_player]:
            split = split_board(state) is not None
            seen["split"] = seen.get("split", 0) + split
            if split or ply % 10 == 0:
                offered = {(n - SUPPORT_BASE) % CELLS for n in legal if n >= SUPPORT_BASE}
                assert offered == supports_by_the_rule(state), (options, seed, ply)
                seen["judged"] = seen.get("judged", 0) + 1
        n = seek_honor(state, legal, rng)
        state.apply(GAME.int_to_action(state, n))
        assert match.apply(n), (options, seed, ply, n)
        ply += 1
        if ply % 50 == 0:
            assert match.to_json() == state.to_json(), (options, seed, ply)


def test_games_seeking_honor_never_stall_under_any_options() -> None:
    # Four games under each of the 32 combinations (a few seconds).
    seen: dict[str, int] = {}
    for k, options in enumerate(SOAK_OPTIONS):
        for game in range(4):
            soak(options, 500 + 100 * game + k, seen)
    assert seen["games"] == 4 * len(SOAK_OPTIONS)
    # Formations holding two strongholds were met (own_double_stronghold, or linking one's
    # own formations), where the supports were judged on the board after them, and the
    # supports offered were held to the rule's definition many times.
    assert seen.get("split", 0) > 0 and seen["judged"] > 100, seen


@pytest.mark.parametrize("empty_stack", ["remove", "stay"])
@pytest.mark.parametrize("banners_left", [0, 2])
def test_a_marker_reaching_the_ending_row_alike(empty_stack: str, banners_left: int) -> None:
    # With four players the third banner goes before the fourth marker arrives: an empty
    # stack takes the marker off (remove) or leaves it on the ending row (stay).
    state = neutral(new(4, empty_banner_stack=empty_stack))
    end = components().ending_row[4]
    state.honor_track.honor[0][1] = end - 1
    del state.war_banners.banner_stacks[1][banners_left:]
    play(state, "small S@a3")
    legal = every_child_same(state)
    honor = GAME.action_to_int(state, Score(True, 1, sq("a3")))
    assert honor in legal
    play(state, "honor S@a3")
    stays = banners_left == 0 and empty_stack == "stay"
    assert state.honor_track.honor[0][1] == (end if stays else REMOVED)


@pytest.mark.parametrize("counts", [True, False])
@pytest.mark.parametrize("own_double", [True, False])
def test_stronghold_due_and_its_squares_alike(counts: bool, own_double: bool) -> None:
    # Ruling 3 (a removed marker counts as every row) decides whether the second stronghold
    # is due; ruling 1 (own_double_stronghold) where it may go.
    state = neutral(new(2, removed_marker_counts=counts, own_double_stronghold=own_double))
    second = components().stronghold_rows[2][1]
    state.honor_track.honor[0] = [second, second, second, second, REMOVED]
    paint(state, {"a1": "S", "c1": "S"})
    stronghold(state, 0, "b1")
    play(state, "small A@a5")
    every_child_same(state)
    play(state, "vp A@a5")
    assert (state.phase == "stronghold") is counts
    legal = every_child_same(state)
    if counts:
        on_own = GAME.action_to_int(state, BuildStronghold(sq("a1")))
        assert (on_own in legal) is own_double


def test_the_core_encodes_each_seats_view_as_the_encoder_does() -> None:
    # Every seat's observation and a spectator's, after every decision of games under
    # several rulings (hands shown to their owner alone, banner values to their owner and
    # to all at the end, strongholds and marks by slot from the observer).
    encoder = GunkimonoEncoder()
    encoding = native_core.encoding()
    got = np.empty(encoder.shape, dtype=np.float32)
    checked = 0
    for seed, options in enumerate(RULINGS[:4]):
        state = GAME.new_state(seed, **options)
        match = native_core.match_of(state)
        rng = random.Random(seed)
        while True:
            for seat in (None, *range(state.num_players)):
                want = encoder.encode(encoder.capture(state, seat), seat)
                match.encode(encoding, -1 if seat is None else seat, got)
                assert np.array_equal(got, want), (seed, state.decisions, seat)
                checked += 1
            if state.is_terminal():
                break
            action = balanced_choice(state, rng) if seed % 2 else rng.choice(state.legal_actions())
            state.apply(action)
            assert match.apply(GAME.action_to_int(state, action))
    assert checked > 1000
    with pytest.raises(ValueError, match="shape"):
        match.encode(encoding, 0, np.empty(3, dtype=np.float32))
    with pytest.raises(ValueError, match="no such seat"):
        match.encode(encoding, 9, got)


def test_an_encoder_of_another_layout_is_refused() -> None:
    spec = native_core.encoding_spec(GunkimonoEncoder())
    with pytest.raises(ValueError, match="'player_size'"):
        native_core.module().Encoding({**spec, "player_size": spec["player_size"] + 1})
    with pytest.raises(ValueError, match="'size'"):
        native_core.module().Encoding({**spec, "cell": 18})


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_core_deals_as_the_setup_does(players: int) -> None:
    # The same shuffles of the same random.Random(seed): CPython's generator seeded from
    # the seed's words (an int's absolute value, all of its bits).
    options = GAME.resolve_options(players=players)
    match = native_core.module().Match(native_core.rules(options, 1000))
    seeds = [*range(40), -1, -977, 2**31 - 1, 2**32, 2**40 + 7, 2**64 + 3, 10**30]
    for seed in seeds:
        match.deal(native_core.seed_key(seed))
        assert match.to_json() == GAME.new_state(seed, players=players).to_json(), seed
    assert native_core.seed_key(0) == [0] and native_core.seed_key(-(2**32 + 5)) == [5, 1]
    with pytest.raises(TypeError, match="whole number"):
        native_core.seed_key(1.5)  # type: ignore[arg-type]
