"""The batched environment: the same observations, masks and rewards as one game at a time.

Each game of a :class:`VectorEnv` is rebuilt outside the batch from its seed and replayed
with the same actions through the PettingZoo environment; every step, both must show the
seat to act the same tensor and mask, and end with the same rewards.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sengoku.core.game import IllegalAction
from sengoku.interop import vector
from sengoku.interop.openspiel import load as load_spiel
from sengoku.interop.pettingzoo import raw_env, vector_env
from sengoku.interop.vector import VectorEnv

CASES = [
    ("gungi", {"mode": "intro"}),
    ("gungi", {"mode": "advanced"}),
    ("sashimono", {}),
    ("gunshi", {}),
    ("gunkimono", {"players": 3}),
]


class Twin:
    """Game ``i`` of the batch, played one action at a time in a PettingZoo environment."""

    def __init__(self, game: str, options: dict[str, object], seed: int) -> None:
        self.env = raw_env(game, **options)
        self.env.sengoku_state = self.env.game.new_state(seed=seed, **self.env.options)

    def check(self, obs: dict[str, np.ndarray], i: int) -> None:
        agent = self.env.agent_selection
        seat = self.env.agent_seat[agent]
        assert obs["agent"][i] == seat
        mine = self.env.observe(agent)
        assert np.array_equal(obs["action_mask"][i], mine["action_mask"])
        assert np.array_equal(obs["observation"][i], mine["observation"])


@pytest.mark.parametrize(("game", "options"), CASES)
@pytest.mark.parametrize("copy", [True, False])
def test_each_game_of_the_batch_is_the_game_played_alone(
    game: str, options: dict[str, object], copy: bool
) -> None:
    """Without copies Gungi's games step, restart and write the kept buffers in one native
    pass (``GungiBatch.step_observed``): the same games as one at a time, too."""
    env = vector_env(game, 3, **options) if copy else VectorEnv(game, 3, copy=False, **options)
    obs = env.reset(seed=11)
    twins = [Twin(game, options, int(s)) for s in env.game_seeds]
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(400):
        for i, twin in enumerate(twins):
            twin.check(obs, i)
        # A random legal action of each game, from its mask.
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminations, truncations, infos = env.step(actions)
        for i, twin in enumerate(twins):
            twin.env.step(int(actions[i]))
            result = twin.env.sengoku_state.outcome()
            if result is None:
                assert not terminations[i] and not truncations[i]
                assert not rewards[i].any()
                continue
            ended += 1
            assert terminations[i] == (result.reason != "length_limit")
            assert rewards[i].tolist() == list(result.returns)
            assert infos["outcome"][i] == result.to_json()
            # Autoreset: a new game, whose seed the batch tells.
            twins[i] = Twin(game, options, int(env.game_seeds[i]))
    if game == "gungi" and options["mode"] == "intro":
        assert ended, "no game ended in 400 steps: the rewards were never checked"


def test_an_illegal_action_names_the_game_and_changes_nothing() -> None:
    env = VectorEnv("sashimono", 2)
    obs = env.reset(seed=3)
    legal = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalAction, match="game 1"):
        env.step(np.array([legal[0], illegal]))
    again = env._observe()
    assert np.array_equal(again["observation"], obs["observation"])
    assert np.array_equal(again["action_mask"], obs["action_mask"])
    with pytest.raises(ValueError, match="one action per game"):
        env.step(np.array(legal[:1]))


@pytest.mark.parametrize("copy", [True, False])
def test_gungi_refuses_an_action_its_mask_does_not_hold_and_plays_no_game(copy: bool) -> None:
    """The legality check reads the kept mask without copies and the sparse lists with them:
    either way an action outside the legal list of its game (or outside the action space)
    raises, naming the game, before any game is played."""
    from sengoku.games.gungi.batch import GungiBatch

    env = VectorEnv("gungi", 3, copy=copy, mode="intro")
    batch = env.batch
    assert isinstance(batch, GungiBatch)
    obs = env.reset(seed=2)
    first = [int(env.legal_actions(obs, i)[0]) for i in range(3)]
    illegal = int(np.flatnonzero(obs["action_mask"][2] == 0)[0])
    before = [batch.position(i)["hash"] for i in range(3)]
    for bad in (illegal, env.num_actions, -1):
        with pytest.raises(IllegalAction, match="game 2"):
            env.step(np.array([first[0], first[1], bad]))
        assert [batch.position(i)["hash"] for i in range(3)] == before
    obs, *_ = env.step(np.array(first))
    assert [batch.position(i)["hash"] for i in range(3)] != before


def test_without_autoreset_a_finished_game_waits_with_an_empty_mask() -> None:
    env = VectorEnv("gungi", 2, autoreset=False, mode="intro")
    obs = env.reset(seed=0)
    for _ in range(3000):
        if (obs["agent"] < 0).all():
            break
        obs, *_ = env.step(env.sample_actions())
    assert (obs["agent"] < 0).all(), "random intro games end within 3000 plies"
    assert not obs["action_mask"].any()
    # Actions given for finished games are ignored.
    obs2, rewards, terminations, _, _ = env.step(np.array([5, 7]))
    assert not rewards.any() and not terminations.any()
    assert np.array_equal(obs2["observation"], obs["observation"])


def test_the_same_seed_plays_the_same_games() -> None:
    def run() -> list[float]:
        env = VectorEnv("gunshi", 2)
        env.reset(seed=9)
        totals: list[float] = []
        for _ in range(300):
            _, rewards, *_ = env.step(env.sample_actions())
            totals.append(float(rewards.sum()))
        return [*totals, *env.game_seeds.tolist()]

    first, second = run(), run()
    assert first == second


def test_the_openspiel_game_gives_the_same_batch() -> None:
    spiel = load_spiel("gungi", mode="intro")
    env = spiel.vector_env(2)
    assert env.options == VectorEnv("gungi", 2, mode="intro").options
    obs = env.reset(seed=1)
    assert obs["observation"].shape == (2, *spiel.encoder.shape)


@pytest.mark.parametrize(("game", "options"), CASES)
@pytest.mark.parametrize("copy", [True, False])
def test_the_sparse_legal_actions_are_the_mask_nonzero_entries(
    game: str, options: dict[str, object], copy: bool
) -> None:
    """``legal_actions``/``legal_offsets`` list each game's mask row's nonzero entries, in
    order, on every step: also after games end and restart (the mask buffer is rewritten
    only where it changed, so a stale entry would show here)."""
    env = VectorEnv(game, 3, copy=copy, **options)
    obs = env.reset(seed=4)
    ended = 0
    for _ in range(300):
        offsets = obs["legal_offsets"]
        assert offsets.shape == (4,) and offsets[0] == 0
        assert offsets[-1] == len(obs["legal_actions"])
        for i in range(3):
            want = np.flatnonzero(obs["action_mask"][i]).tolist()
            assert env.legal_actions(obs, i).tolist() == want
            assert want == env.batch.legal_actions(i)
        # The kept mask is the one the batch would make afresh.
        assert np.array_equal(obs["action_mask"], env.batch.legal_mask().astype(np.int8))
        obs, _rewards, terminations, truncations, _infos = env.step(env.sample_actions())
        ended += int((terminations | truncations).sum())
    if game == "gungi" and options["mode"] == "intro":
        assert ended, "no game ended: the restarted games' masks were never checked"


def test_with_copy_the_caller_keeps_what_it_was_given() -> None:
    """copy=True (the default): the arrays returned are the caller's; later steps do not
    change them, and changing them does not change the environment."""
    env = VectorEnv("gungi", 2, mode="intro")
    first = env.reset(seed=2)
    kept = {key: np.array(value, copy=True) for key, value in first.items()}
    first["action_mask"][:] = 1  # the caller's own array
    first["observation"][:] = 7.0
    obs, *_ = env.step(env.sample_actions())
    assert np.array_equal(first["observation"], np.full_like(first["observation"], 7.0))
    assert not np.array_equal(obs["observation"], kept["observation"])
    for i in range(2):
        assert np.flatnonzero(obs["action_mask"][i]).tolist() == env.batch.legal_actions(i)
    # The legality check is the environment's own, not the caller's (changed) mask.
    obs["action_mask"][:] = 1
    illegal = int(np.flatnonzero(env.batch.legal_mask()[0] == 0)[0])
    with pytest.raises(IllegalAction, match="game 0"):
        env.step(np.array([illegal, env.batch.legal_actions(1)[0]]))


@pytest.mark.parametrize(("game", "options"), [CASES[0], CASES[3]])
def test_switching_copy_between_steps_keeps_the_masks_true(
    game: str, options: dict[str, object]
) -> None:
    """The kept mask buffer is not followed while copies are handed out; handed out again,
    it is rebuilt, not left with the entries of the step it was last written at."""
    env = VectorEnv(game, 3, copy=False, **options)
    env.reset(seed=6)
    for step in range(60):
        env.copy = step % 7 < 3
        obs, *_ = env.step(env.sample_actions())
        assert np.array_equal(obs["action_mask"], env.batch.legal_mask().astype(np.int8))


def test_without_copy_the_buffers_are_read_only_views_overwritten_by_the_next_step() -> None:
    """copy=False: the observation and mask are read-only views of the environment's
    buffers, valid until the next step (documented); the sparse lists and ``agent`` are new
    arrays every step, so keeping them is safe."""
    env = VectorEnv("gungi", 2, copy=False, mode="intro")
    first = env.reset(seed=2)
    with pytest.raises(ValueError, match="read-only"):
        first["action_mask"][0, 0] = 1
    with pytest.raises(ValueError, match="read-only"):
        first["observation"][0, 0, 0, 0] = 1.0
    ints, offsets, agent = first["legal_actions"], first["legal_offsets"], first["agent"]
    saved = (ints.copy(), offsets.copy(), agent.copy(), first["observation"].copy())
    obs, *_ = env.step(env.sample_actions())
    assert np.shares_memory(obs["observation"], first["observation"])
    assert np.array_equal(first["observation"], obs["observation"])  # overwritten
    assert not np.array_equal(obs["observation"], saved[3])
    assert not np.shares_memory(obs["legal_actions"], ints)
    assert np.array_equal(ints, saved[0]) and np.array_equal(offsets, saved[1])
    assert np.array_equal(agent, saved[2])


def test_non_integer_actions_are_refused_by_name() -> None:
    env = VectorEnv("gunshi", 2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="integers"):
        env.step(np.array([0.5, 1.0]))


def test_gungi_batch_native_and_python_give_the_same_sparse_lists_masks_and_planes() -> None:
    """GungiBatch's ``legal_sparse`` (kept mask) and ``observations(out=...)`` (a reused
    buffer) give the same numbers from the native core as from the Python engine, game
    restarts included."""
    from sengoku.games.gungi import native_available
    from sengoku.games.gungi.batch import GungiBatch

    if not native_available():
        pytest.skip("Gungi's native core is not built")
    native, python = GungiBatch(native=True, mode="intro"), GungiBatch(native=False, mode="intro")
    masks = [np.zeros((4, native.num_actions), np.int8) for _ in range(2)]
    planes = [np.zeros((4, *native.shape), np.float32) for _ in range(2)]
    for batch in (native, python):
        batch.reset(4, seed=8)
    rng = np.random.default_rng(8)
    for ply in range(120):
        answers = []
        for batch, mask, out in zip((native, python), masks, planes, strict=True):
            ints, offsets = batch.legal_sparse(mask)
            assert np.array_equal(mask.view(bool), batch.legal_mask())
            batch.observations(out=out)
            answers.append((ints.tolist(), offsets.tolist()))
        assert answers[0] == answers[1]
        assert np.array_equal(planes[0], planes[1])
        assert np.array_equal(planes[0], native.observations())
        ints, offsets = answers[0]
        actions = np.array(
            [rng.choice(ints[offsets[i] : offsets[i + 1]]) for i in range(4)], dtype=np.int64
        )
        for batch in (native, python):
            batch.step(actions)
            if ply % 40 == 39:  # a restart: its row of the kept mask is rewritten whole
                batch.reset_game(ply % 4, seed=ply)


@pytest.mark.parametrize("mode", ["intro", "advanced"])
def test_gungi_batch_kept_observations_equal_the_engines_planes(mode: str) -> None:
    """``observations(out=..., kept=True)`` writes only what changed since the last call into
    the same buffer: across moves, restarts, the setup of a free-setup mode and seats that
    change between calls it holds the Python engine's planes; an array the batch did not
    write last (here full of 5.0) is written whole even when called kept."""
    from sengoku.games.gungi import native_available
    from sengoku.games.gungi.batch import GungiBatch

    if not native_available():
        pytest.skip("Gungi's native core is not built")
    n = 5
    native, python = GungiBatch(native=True, mode=mode), GungiBatch(native=False, mode=mode)
    for batch in (native, python):
        batch.reset(n, seed=4)
    kept = np.zeros((n, *native.shape), np.float32)
    rng = np.random.default_rng(4)
    for ply in range(150):
        seats = rng.integers(0, 2, n)
        if ply % 50 == 25:
            other = np.full((n, *native.shape), 5.0, np.float32)
            native.observations(seats, out=other, kept=True)
            assert np.array_equal(other, python.observations(seats))
        native.observations(seats, out=kept, kept=True)
        assert np.array_equal(kept, python.observations(seats)), f"ply {ply}"
        actions = native.random_actions()
        for batch in (native, python):
            batch.step(actions)
        for i in np.flatnonzero(native.done()):
            for batch in (native, python):
                batch.reset_game(int(i), seed=ply)
        if ply % 40 == 39:
            for batch in (native, python):
                batch.reset_game(ply % n, seed=ply)


GUNGI_FUSED = [
    {"mode": "intro"},
    {"mode": "intro", "self_check": "forbidden"},
    {"mode": "advanced"},
    {"mode": "beginner", "first_player": "random"},  # the seed decides the start
]


@pytest.mark.parametrize("options", GUNGI_FUSED)
@pytest.mark.parametrize("autoreset", [True, False])
def test_gungi_one_pass_steps_equal_step_then_observe(
    options: dict[str, object], autoreset: bool
) -> None:
    """``VectorEnv(copy=False)`` on Gungi's native core steps every game, restarts the
    finished ones and writes the kept mask and planes in one call (``step_observed``): on
    the same seeds and actions it returns, step after step, what stepping then observing
    returns (``copy=True``): planes, masks, seats, sparse lists, rewards, endings, outcomes
    and the restarted games' seeds."""
    from sengoku.games.gungi import native_available
    from sengoku.games.gungi.batch import GungiBatch

    if not native_available():
        pytest.skip("Gungi's native core is not built")
    fused = VectorEnv("gungi", 4, autoreset=autoreset, copy=False, **options)
    plain = VectorEnv("gungi", 4, autoreset=autoreset, copy=True, **options)
    batch = fused.batch
    assert isinstance(batch, GungiBatch)
    answers = [fused.reset(seed=6), plain.reset(seed=6)]
    stochastic = options.get("first_player") == "random"
    assert batch.fuses_steps(autoreset) == (not (autoreset and stochastic))
    rng = np.random.default_rng(6)
    ended = 0
    for _ in range(1100):  # the length guard (1000 plies) ends a game by then at the latest
        first, second = answers[0], answers[1]
        for key in ("observation", "action_mask", "agent", "legal_actions", "legal_offsets"):
            assert np.array_equal(first[key], second[key]), key
        if (first["agent"] < 0).all():
            break
        offsets = first["legal_offsets"]
        actions = np.array(
            [
                rng.choice(first["legal_actions"][offsets[i] : offsets[i + 1]])
                if offsets[i + 1] > offsets[i]
                else 0
                for i in range(4)
            ]
        )
        one, two = fused.step(actions), plain.step(actions)
        answers = [one[0], two[0]]
        for a, b in zip(one[1:4], two[1:4], strict=True):
            assert np.array_equal(a, b)
        assert one[4] == two[4]
        assert np.array_equal(fused.game_seeds, plain.game_seeds)
        ended += int((one[2] | one[3]).sum())
    assert ended, "no game ended: the one-pass restarts were never checked"


@pytest.mark.parametrize("spare", [False, True])
@pytest.mark.parametrize(
    ("options", "length_limit"),
    [
        ({"mode": "intro"}, None),
        ({"mode": "intro", "self_check": "forbidden"}, None),
        ({"mode": "advanced"}, None),  # setups, then restarts into setups
        ({"mode": "intro"}, 24),  # the length guard: truncations
    ],
)
def test_gungi_env_step_in_one_call_is_the_contract(
    options: dict[str, Any],
    length_limit: int | None,
    spare: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``VectorEnv(copy=False)`` on Gungi's native core steps in one native call
    (``GungiBatch.env_stepper``: the step, the restarts, the kept buffers, the rewards,
    endings and seats to act), into one pair of buffers or (``spare``: a large batch) two
    written in turn, each rewritten only where its rows changed since two plies before.
    Every game, rebuilt from its seed and played alone through the contract (the PettingZoo
    environment), shows at every step the same seat, planes, mask and sparse legal integers
    (``legal_action_ints``), and ends with the same rewards, termination or truncation and
    outcome, through the restarts that follow."""
    from sengoku.games.gungi import game as gungi_game
    from sengoku.games.gungi import native_available
    from sengoku.games.gungi.batch import _ENV_STEP
    from sengoku.games.gungi.game import Gungi

    if not (native_available() and _ENV_STEP):
        pytest.skip("Gungi's native core (with env_step) is not built")
    if length_limit is not None:  # the native positions read it from the new states
        monkeypatch.setattr(Gungi, "length_limit", length_limit)
        # New starts (the kept ones hold the limit they were made with).
        monkeypatch.setattr(gungi_game, "_STARTS", {})
    monkeypatch.setattr(vector, "SPARE_PAIR_FROM", 5 if spare else 6)
    monkeypatch.setattr(vector, "SPARE_PAIR_PAST", 0)  # a pair outgrows any cache
    env = VectorEnv("gungi", 5, copy=False, **options)
    obs = env.reset(seed=21)
    assert env._stepper is not None, "the one-call step is not the one under test"
    assert len(env._bound) == (2 if spare else 1)
    twins = [Twin("gungi", options, int(s)) for s in env.game_seeds]
    rng = np.random.default_rng(21)
    ended = {"terminated": 0, "truncated": 0}
    for _ in range(300):
        for i, twin in enumerate(twins):
            twin.check(obs, i)
            state = twin.env.sengoku_state
            assert env.legal_actions(obs, i).tolist() == list(state.game.legal_action_ints(state))
        offsets = obs["legal_offsets"]
        actions = np.array(
            [rng.choice(obs["legal_actions"][offsets[i] : offsets[i + 1]]) for i in range(5)]
        )
        obs, rewards, terminations, truncations, infos = env.step(actions)
        for i, twin in enumerate(twins):
            twin.env.step(int(actions[i]))
            result = twin.env.sengoku_state.outcome()
            if result is None:
                assert not terminations[i] and not truncations[i] and not rewards[i].any()
                assert infos["outcome"][i] is None
                continue
            assert truncations[i] == (result.reason == "length_limit")
            assert terminations[i] == (not truncations[i])
            ended["truncated" if truncations[i] else "terminated"] += 1
            assert rewards[i].tolist() == list(result.returns)
            assert infos["outcome"][i] == result.to_json()
            twins[i] = Twin("gungi", options, int(env.game_seeds[i]))  # the game after it
    if length_limit is not None:
        assert ended["truncated"], "no game reached the length guard"
    elif options["mode"] == "intro":
        assert ended["terminated"], "no game ended: the restarts were never checked"


def assert_same_observations(first: dict[str, Any], second: dict[str, Any], step: int) -> None:
    """Two environments' observations hold the same arrays (``step`` names the failure)."""
    for key in ("observation", "action_mask", "agent", "legal_actions", "legal_offsets"):
        assert np.array_equal(first[key], second[key]), (step, key)


def assert_same_step(one: tuple[Any, ...], two: tuple[Any, ...]) -> None:
    """Two steps' rewards, terminations, truncations and infos are the same."""
    for a, b in zip(one[1:4], two[1:4], strict=True):
        assert np.array_equal(a, b)
    assert one[4] == two[4]


def random_legal(rng: np.random.Generator, observation: dict[str, Any]) -> np.ndarray:
    """One random legal action for each game, drawn from the observation's sparse lists."""
    ints, offsets = observation["legal_actions"], observation["legal_offsets"]
    return np.array(
        [rng.choice(ints[offsets[i] : offsets[i + 1]]) for i in range(len(offsets) - 1)]
    )


def test_gungi_two_buffer_pairs_give_what_one_pair_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    """A large batch's one-call step writes two pairs of buffers in turn (each rewritten
    where its rows changed since two plies before); a small one writes one. Side by side on
    the same seeds and actions, through restarts, a refused illegal action, steps with
    copies, a reset and the length guard, both hand out the same planes, masks, seats,
    sparse lists, rewards, endings and outcomes at every step; the large batch's arrays are
    the two pairs in turn, each kept read-only until the step after next."""
    from sengoku.games.gungi import game as gungi_game
    from sengoku.games.gungi import native_available
    from sengoku.games.gungi.batch import _ENV_SPARE_PAIR
    from sengoku.games.gungi.game import Gungi

    if not (native_available() and _ENV_SPARE_PAIR):
        pytest.skip("Gungi's native core (with the spare pair) is not built")
    monkeypatch.setattr(Gungi, "length_limit", 40)  # restarts from truncations, often
    monkeypatch.setattr(gungi_game, "_STARTS", {})
    envs = [VectorEnv("gungi", 6, copy=False, mode="intro") for _ in range(2)]
    monkeypatch.setattr(vector, "SPARE_PAIR_PAST", 0)  # a pair outgrows any cache

    def reset_both(seed: int) -> list[dict[str, np.ndarray]]:
        answers = []
        for env, spare_from in zip(envs, (1, 7), strict=True):  # two pairs, one pair
            monkeypatch.setattr(vector, "SPARE_PAIR_FROM", spare_from)
            answers.append(env.reset(seed=seed))
        assert [len(env._bound) for env in envs] == [2, 1]
        return answers

    answers = reset_both(8)
    rng = np.random.default_rng(8)
    handed: list[np.ndarray] = []
    ended = 0
    for step in range(260):
        first, second = answers
        assert_same_observations(first, second, step)
        actions = random_legal(rng, first)
        if step == 30:  # refused by both, nothing played: the same games go on
            wrong = actions.copy()
            wrong[4] = Gungi.num_distinct_actions(Gungi()) - 1  # Done, once play is under way
            for env in envs:
                with pytest.raises(IllegalAction, match="game 4"):
                    env.step(wrong)
        if step == 120:
            answers = reset_both(3)
            continue
        for env in envs:
            env.copy = 60 <= step < 66
        one, two = envs[0].step(actions), envs[1].step(actions)
        answers = [one[0], two[0]]
        assert_same_step(one, two)
        assert np.array_equal(envs[0].game_seeds, envs[1].game_seeds)
        ended += int((one[2] | one[3]).sum())
        if not envs[0].copy:
            handed.append(one[0]["action_mask"])
            if len(handed) >= 3:  # the pairs in turn: the step after next rewrites a pair
                assert np.shares_memory(handed[-1], handed[-3])
                assert not np.shares_memory(handed[-1], handed[-2])
        else:
            handed.clear()
    assert ended, "no game ended: the restarts into the two pairs were never checked"


@pytest.mark.parametrize("spare", [False, True])
@pytest.mark.parametrize("games", [70, 130])
def test_gungi_large_batch_steps_in_tiles_as_one_at_a_time(
    games: int, spare: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The core's one-call step moves and then writes its games a tile (32 games) at a
    time: 70 games are two whole tiles and a part, 130 four and a part (and from 128 games
    the batch keeps its lists in huge pages). Side by side with stepping then observing
    (``copy=True``), on the same seeds and actions and through restarts, every step hands
    out the same planes, masks, seats, sparse lists, rewards and outcomes."""
    from sengoku.games.gungi import game as gungi_game
    from sengoku.games.gungi import native_available
    from sengoku.games.gungi.batch import _ENV_STEP
    from sengoku.games.gungi.game import Gungi

    if not (native_available() and _ENV_STEP):
        pytest.skip("Gungi's native core (with env_step) is not built")
    monkeypatch.setattr(Gungi, "length_limit", 30)  # restarts from truncations, often
    monkeypatch.setattr(gungi_game, "_STARTS", {})
    monkeypatch.setattr(vector, "SPARE_PAIR_FROM", 1 if spare else games + 1)
    monkeypatch.setattr(vector, "SPARE_PAIR_PAST", 0)  # a pair outgrows any cache
    fused = VectorEnv("gungi", games, copy=False, mode="intro")
    plain = VectorEnv("gungi", games, copy=True, mode="intro")
    answers = [fused.reset(seed=4), plain.reset(seed=4)]
    assert fused._stepper is not None and len(fused._bound) == (2 if spare else 1)
    rng = np.random.default_rng(4)
    ended = 0
    for step in range(70):
        assert_same_observations(*answers, step)
        actions = random_legal(rng, answers[0])
        one, two = fused.step(actions), plain.step(actions)
        answers = [one[0], two[0]]
        assert_same_step(one, two)
        ended += int((one[2] | one[3]).sum())
    assert ended >= games, "the games did not all end: the restarts were not checked"


def native_batch_of_three() -> tuple[Any, np.ndarray, np.ndarray]:
    """Three intro games in Gungi's native core (seed 1), and a zeroed mask and planes
    buffer for them; the test is skipped without the core."""
    from sengoku.games.gungi import native_available
    from sengoku.games.gungi.batch import GungiBatch

    if not native_available():
        pytest.skip("Gungi's native core is not built")
    batch = GungiBatch(native=True, mode="intro")
    batch.reset(3, seed=1)
    mask = np.zeros((3, batch.num_actions), np.int8)
    out = np.zeros((3, *batch.shape), np.float32)
    return batch, mask, out


def test_the_last_level_cache_is_read_from_linux_description(tmp_path: Path) -> None:
    """``last_level_cache_bytes`` reads the highest level that holds data (an instruction
    cache is not one), in Linux's units; an unreadable or missing description is None."""

    def cache(index: int, level: int, kind: str, size: str) -> None:
        folder = tmp_path / f"index{index}"
        folder.mkdir()
        (folder / "level").write_text(f"{level}\n")
        (folder / "type").write_text(f"{kind}\n")
        (folder / "size").write_text(f"{size}\n")

    assert vector.last_level_cache_bytes(tmp_path) is None
    cache(0, 1, "Data", "32K")
    cache(1, 1, "Instruction", "32K")
    assert vector.last_level_cache_bytes(tmp_path) == 32 << 10
    cache(2, 2, "Unified", "1024K")
    cache(3, 3, "Unified", "32M")
    cache(4, 4, "Instruction", "64M")  # no data there
    assert vector.last_level_cache_bytes(tmp_path) == 32 << 20
    (tmp_path / "index3" / "size").write_text("lots\n")  # unreadable: the level below
    assert vector.last_level_cache_bytes(tmp_path) == 1 << 20


def test_two_pairs_only_for_a_large_batch_whose_pair_outgrows_the_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A one-call step writes two pairs in turn from ``SPARE_PAIR_FROM`` games on, and only
    where one pair would not stay in the last-level cache (unknown: always), and
    ``VectorEnv`` binds what the rule says."""
    from sengoku.games.gungi import native_available
    from sengoku.games.gungi.batch import _ENV_SPARE_PAIR

    monkeypatch.setattr(vector, "SPARE_PAIR_FROM", 4)
    monkeypatch.setattr(vector, "SPARE_PAIR_PAST", 1000)
    assert not vector.wants_spare_pair(3, 10**6)  # too few games
    assert not vector.wants_spare_pair(4, 1000)  # fits in the cache
    assert vector.wants_spare_pair(4, 1001)
    monkeypatch.setattr(vector, "SPARE_PAIR_PAST", None)
    assert vector.wants_spare_pair(4, 1) and not vector.wants_spare_pair(3, 1)
    if not (native_available() and _ENV_SPARE_PAIR):
        pytest.skip("Gungi's native core (with the spare pair) is not built")
    # Four Gungi games' pair: 4 x (57,025 mask bytes + 38,880 plane bytes).
    pair = 4 * (57_025 + 38_880)
    for past, pairs in ((pair, 1), (pair - 1, 2)):
        monkeypatch.setattr(vector, "SPARE_PAIR_PAST", past)
        env = VectorEnv("gungi", 4, copy=False, mode="intro")
        env.reset(seed=1)
        assert env._stepper is not None and len(env._bound) == pairs


def test_gungi_env_stepper_refuses_a_spare_pair_it_cannot_write() -> None:
    from sengoku.games.gungi.batch import _ENV_SPARE_PAIR

    batch, mask, out = native_batch_of_three()
    if not _ENV_SPARE_PAIR:
        pytest.skip("Gungi's native core (with the spare pair) is not built")
    with pytest.raises(ValueError, match="other arrays"):
        batch.env_stepper(mask, out, True, spare=(mask, np.zeros_like(out)))
    with pytest.raises(ValueError, match="other arrays"):  # a view of the same planes
        batch.env_stepper(mask, out, True, spare=(np.zeros_like(mask), out.view()))
    with pytest.raises(ValueError, match="mask"):
        batch.env_stepper(mask, out, True, spare=(mask[:2], out[:2]))
    with pytest.raises(ValueError, match="out"):
        batch.env_stepper(mask, out, True, spare=(np.zeros_like(mask), out[:, :3]))


def test_gungi_step_observed_refuses_what_it_cannot_serve() -> None:
    """``GungiBatch.step_observed`` names a wrong array, and an illegal action names its
    game and moves none (every action is looked up before any is played; with ``strict`` a
    live game's -1 is illegal, else it leaves the game as it is); after the refusal the
    kept buffers are still true (the next steps' planes and masks are the engine's)."""
    batch, mask, out = native_batch_of_three()
    with pytest.raises(ValueError, match="mask"):
        batch.step_observed(batch.random_actions(), mask[:, :10], out, True)
    with pytest.raises(ValueError, match="out"):
        batch.step_observed(batch.random_actions(), mask, out[:2], True)
    batch.step_observed(batch.random_actions(), mask, out, True)
    actions = batch.random_actions()
    actions[1] = batch.num_actions - 1  # Done: not legal once the game is under way
    assert batch.first_illegal(actions) == 1
    assert batch.first_illegal(batch.random_actions()) == -1
    hashes = [batch.position(i)["hash"] for i in range(3)]
    with pytest.raises(ValueError, match="game 1"):
        batch.step_observed(actions, mask, out, True)
    assert [batch.position(i)["hash"] for i in range(3)] == hashes  # game 0 did not move
    actions = batch.random_actions()
    actions[2] = -1
    with pytest.raises(ValueError, match="game 2"):
        batch.step_observed(actions, mask, out, True, strict=True)
    assert [batch.position(i)["hash"] for i in range(3)] == hashes
    batch.step_observed(actions, mask, out, True)  # game 2 waits
    after = [batch.position(i)["hash"] for i in range(3)]
    assert after[2] == hashes[2] and after[:2] != hashes[:2]
    for _ in range(30):
        ints, offsets, _finished = batch.step_observed(batch.random_actions(), mask, out, True)
        assert np.array_equal(mask.view(bool), batch.legal_mask())
        assert np.array_equal(out, batch.observations(np.maximum(batch.status()[:, 0], 0)))
        assert ints.tolist() == [a for i in range(3) for a in batch.legal_actions(i)]
