"""Sengoku games as PettingZoo AEC environments (``pip install 'sengoku[pettingzoo]'``).

>>> from sengoku.interop.pettingzoo import env
>>> e = env("gungi", mode="beginner")
>>> e.reset(seed=42)
>>> observation, reward, termination, truncation, info = e.last()
>>> sorted(observation)
['action_mask', 'observation']
>>> int(observation["action_mask"].sum())
187

One environment per game and options: agents ``player_0`` .. ``player_<n-1>`` are the
contract's seats; ``agent_selection`` is always ``current_player`` (a seat that decides
several times in a row, as in Gunkimono, is selected several times in a row).

* Observations are ``{"observation", "action_mask"}``: the observation is the seat's
  ``view(seat)`` through :func:`sengoku.interop.encoders.encoder_for` (float32), the mask an
  ``int8`` vector over ``num_distinct_actions`` (all zeros for a seat not to act).
* Actions are the contract's integers (``Discrete(num_distinct_actions)``).
* Rewards are sparse: the contract's ``outcome().returns`` when the game ends, 0 before.
* The game's end is a termination for every agent; the contract's ``length_limit`` (a guard,
  not a rule) is a truncation instead. ``infos[agent]["outcome"]`` holds the outcome's JSON.
* Illegal actions: :func:`env` gives the raw environment the behaviour of PettingZoo's
  classic games' wrappers (``TerminateIllegalWrapper`` with reward -1,
  ``AssertOutOfBoundsWrapper``, ``OrderEnforcingWrapper``) in one wrapper,
  :class:`SengokuWrapper`, an ``OrderEnforcingWrapper`` (a chain of three wrappers forwards
  every attribute read through three ``__getattr__`` calls, a cost paid many times a step);
  the raw environment (:class:`raw_env`) raises :class:`~sengoku.core.game.IllegalAction`
  and changes nothing.
* An observation is built once per step and agent: ``observe()`` and ``last()`` return the
  same dict until the next ``step()`` or ``reset()`` (copy its arrays before changing them).
  The seat's view (the encoder's snapshot of it) and its legal integers are taken at once;
  the tensor is encoded, and the mask made, when first read
  (:class:`~sengoku.interop.lazy.LazyObservation`): play that reads only the mask does not
  pay for the encoding, play that draws from ``legal_actions()`` pays for neither.
* ``legal_actions(agent=None)`` is the sparse form of the mask: the legal integers of the
  agent selected (or ``agent``), ascending, a new list each call (OpenSpiel's
  ``legal_actions``). Read at any time, the tensor is the one of the position the
  observation was returned at. An observation holds only what its seat may see (the view,
  the mask, the seat's own encoder, which keeps parts of the views it encoded): never the
  state, its seed, another seat's actions or what another seat was shown.
* A game with a native core (``Game.native_play``: every game's, where built) is stepped in it: the
  environment holds a native match, dealt, played and encoded by the core with the numbers
  of the contract and the game's encoder (``tests/interop/test_pettingzoo_native.py`` holds
  the two to each other), at the core's speed; ``sengoku_state`` is then a copy of the
  match's position. ``native=False`` steps contract states instead.
* ``reset(seed=s)`` seeds the generator that draws one Sengoku seed per episode, so the same
  ``s`` replays the same deals; ``render_mode="ansi"`` returns the spectator's text drawing,
  ``"human"`` prints it.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Iterator
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]

from sengoku.core.game import TERMINAL, IllegalAction, Outcome, SengokuError, State
from sengoku.core.native_play import NativeMatch, NativePlay
from sengoku.core.registry import load_game
from sengoku.interop.encoders import LegalInts, capturer_of, encoder_for, mask_of
from sengoku.interop.lazy import Encoded, LazyObservation, Seat
from sengoku.interop.vector import VectorEnv


def env(game: str, render_mode: str | None = None, **options: Any) -> SengokuWrapper:
    """The wrapped environment of ``game`` (as PettingZoo wraps its classic games)."""
    return SengokuWrapper(raw_env(game, render_mode=render_mode, **options), illegal_reward=-1)


def vector_env(game: str, num_envs: int, autoreset: bool = True, **options: Any) -> VectorEnv:
    """``num_envs`` games of ``game`` stepped together, with these environments' actions,
    masks and observations (:mod:`sengoku.interop.vector`; Gungi's run in its native core)."""
    return VectorEnv(game, num_envs, autoreset, **options)


class SengokuWrapper(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's classic wrapper chain in one wrapper, on a :class:`raw_env`.

    It does what ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(
    raw, illegal_reward)))`` does: an action outside the action space fails an assertion; an
    illegal action (not in the mask) warns, gives the offender ``illegal_reward`` and the
    others 0 and ends the game for everyone (terminated and truncated, as PettingZoo's
    wrapper sets them); order is enforced as ``OrderEnforcingWrapper`` enforces it (it is
    one). The attributes read every step are properties, not ``__getattr__`` look-ups.
    """

    def __init__(self, env: raw_env, illegal_reward: float = -1) -> None:
        if not isinstance(env, raw_env):
            raise SengokuError(f"SengokuWrapper wraps a sengoku raw_env, not {env!r}")
        super().__init__(env)
        self._raw = env
        self._illegal_value = float(illegal_reward)
        self._terminated = False  # ended by an illegal action

    def _live(self, name: str) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    # The two read on every turn of ``agent_iter`` (and by ``last`` and ``step``): written
    # out rather than through ``_live``, a call fewer each.
    @property
    def agent_selection(self) -> str:
        if self._has_reset:
            return self._raw.agent_selection
        raise AttributeError("agent_selection cannot be accessed before reset")

    @property
    def agents(self) -> list[str]:
        if self._has_reset:
            return self._raw.agents
        raise AttributeError("agents cannot be accessed before reset")

    @property
    def rewards(self) -> dict[str, float]:
        return self._live("rewards")  # type: ignore[no-any-return]

    @property
    def terminations(self) -> dict[str, bool]:
        return self._live("terminations")  # type: ignore[no-any-return]

    @property
    def truncations(self) -> dict[str, bool]:
        return self._live("truncations")  # type: ignore[no-any-return]

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        return self._live("infos")  # type: ignore[no-any-return]

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self._raw._cumulative_rewards

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._terminated = False
        super().reset(seed=seed, options=options)

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        """``OrderEnforcingWrapper.agent_iter``: the agent selected, while any agent is left
        (at most ``max_iter`` times), asserting that ``step()`` or ``reset()`` came between
        two turns. One generator reading the raw environment's attributes, instead of
        PettingZoo's two iterator classes reading them through the wrapper's properties."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        raw = self._raw
        agent = raw.agent_selection  # raw_env.last, written out: it runs every turn
        observation = None
        if observe:  # raw_env.observe written out; made once per step
            observation = raw._observations.get(agent)
            if observation is None and raw._match is not None:
                observation = raw._observation(agent)
            elif observation is None:
                # raw_env._observation written out (a frame fewer on every turn): the same
                # object, made the same way (LazyObservation.of, which owns its fields).
                seat = raw.agent_seat[agent]
                observation = raw._observations[agent] = LazyObservation.of(
                    raw._seats[seat],
                    raw._capture(raw._state, seat),
                    raw._legal.list if seat == raw._to_act else [],
                )
        return (
            observation,
            raw._cumulative_rewards[agent],
            raw.terminations[agent],
            raw.truncations[agent],
            raw.infos[agent],
        )

    def legal_actions(self, agent: str | None = None) -> list[int]:
        """:meth:`raw_env.legal_actions` (none once an illegal action ended the game)."""
        if not self._has_reset:
            raise AttributeError("legal_actions cannot be read before reset")
        if self._terminated:
            return []
        if agent is None:  # the agent selected: the raw environment's list, read directly
            return self._raw._legal.list[:]
        return self._raw.legal_actions(agent)

    def step(self, action: Any) -> None:
        raw = self._raw
        if type(action) is int and self._has_reset and not self._terminated:
            # The common step first: a plain int among the legal integers of a live agent
            # (a legal integer is in the action space, and the legal list is empty once the
            # game is over); every other case takes the checks below, in PettingZoo's order.
            legal = raw._legal
            ints = legal.list
            i = bisect_left(ints, action)
            if i < len(ints) and ints[i] == action:
                agent = raw.agent_selection
                if not (raw.terminations[agent] or raw.truncations[agent]):
                    self._has_updated = True
                    match = raw._match
                    if match is not None:  # a native match (raw_env._play's first branch)
                        raw._cumulative_rewards[agent] = 0.0
                        match.apply(action)
                        raw._played_natively(match)
                        return
                    # raw_env._play written out for a game that goes on (one frame fewer on
                    # every step); the end, and rendering, are left to it.
                    state = raw._state
                    raw._cumulative_rewards[agent] = 0.0
                    actions = legal.actions
                    state.apply(
                        actions[i] if actions is not None else raw._int_to_action(state, action)
                    )
                    if state.outcome() is None and raw.render_mode is None:
                        seat = raw._to_act = state.current_player
                        raw._observations = {}
                        raw.agent_selection = raw.possible_agents[seat]
                        if legal.pair:
                            legal.update(state)
                        else:
                            legal.list = legal.ints_of(state)
                    else:
                        raw._played(state)
                    return
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
            return
        if not raw.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._has_updated = True
        agent = raw.agent_selection
        dead = raw.terminations[agent] or raw.truncations[agent]
        in_space = (
            (type(action) is int and 0 <= action < raw.num_actions)
            or (action is None and dead)
            or raw.action_spaces[agent].contains(action)
        )
        assert in_space, "action is not in action space"  # AssertOutOfBoundsWrapper's check
        if dead:
            if self._terminated:
                raw._was_dead_step(action)
            else:
                raw.step(action)
        elif action is None or (i := raw._legal.index(action)) < 0:
            # TerminateIllegalWrapper's answer: the offender loses, the game ends for all.
            EnvLogger.warn_on_illegal_move()
            raw._cumulative_rewards[agent] = 0
            raw.terminations = dict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, True)
            raw.rewards = dict.fromkeys(raw.truncations, 0)
            raw.rewards[agent] = self._illegal_value
            raw._accumulate_rewards()
            raw._deads_step_first()
            self._terminated = True
        else:
            raw._play(agent, i)  # checked above: not a second time

    def __str__(self) -> str:
        return str(self._raw)


class _AgentIterable:
    """What :meth:`SengokuWrapper.agent_iter` returns: iterable (again from the start, as
    PettingZoo's ``AECIterable``), each iteration a :func:`_agents` generator."""

    __slots__ = ("_wrapper", "_max_iter")

    def __init__(self, wrapper: SengokuWrapper, max_iter: int) -> None:
        self._wrapper = wrapper
        self._max_iter = max_iter

    def __iter__(self) -> Iterator[str]:
        return _agents(self._wrapper, self._max_iter)


def _agents(wrapper: SengokuWrapper, max_iter: int) -> Iterator[str]:
    """``AECOrderEnforcingIterator``'s turns: stop when no agent is left or after
    ``max_iter``; else assert that the last turn stepped, and give the agent selected."""
    raw = wrapper._raw
    while raw.agents and max_iter > 0:
        max_iter -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        yield raw.agent_selection


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 - PettingZoo's name for it
    """The AEC environment of one Sengoku game with fixed options."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "human"],
        "name": "sengoku",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        render_mode: str | None = None,
        obs_size: int | None = None,
        native: bool = True,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SengokuError(
                f"render_mode {render_mode!r} is not supported; use one of "
                f"{', '.join(self.metadata['render_modes'])} or None"
            )
        self.game = load_game(game)
        self.options = self.game.resolve_options(**options)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"sengoku_{self.game.name}_v{self.game.version}"}
        self.encoder = encoder_for(self.game, self.options, obs_size)
        # The seat's snapshot for an observation (held here: what it keeps between steps
        # may be any seat's; the observations hold only the encoder).
        self._capture = capturer_of(self.encoder)
        self.num_actions = self.game.num_distinct_actions(**self.options)
        self._deals = random.Random()
        self._state: State = self.game.new_state(seed=0, **self.options)
        #: The game's native matches (``Game.native_play``: the game's core, where it is
        #: built), stepped instead of contract states when the environment encodes with the
        #: game's own encoder (no ``obs_size``) unless ``native`` is False: the same numbers
        #: at the core's speed. The match played then is ``_match`` (``_state`` is not
        #: followed).
        self._native: NativePlay | None = (
            self.game.native_play(**self.options) if native and obs_size is None else None
        )
        self._match: NativeMatch | None = None
        n = self._state.num_players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        # Each seat's observations hold an encoder of their own: an encoder keeps parts of
        # the views it encoded to be fast (Sashimono's the Sonae stacks it was last shown,
        # per observer, face-down types included), so one shared by every seat would let an
        # observation reach what another seat was shown. ``self.encoder`` serves the rest.
        self._seat_encoders = [encoder_for(self.game, self.options, obs_size) for _ in range(n)]
        #: (encoder, seat, num_actions, make_mask) of each seat, as its observations hold
        #: them.
        self._seats: list[Seat] = [
            (encoder, seat, self.num_actions, mask_of)
            for seat, encoder in enumerate(self._seat_encoders)
        ]
        #: What a native match's observation keeps until its tensor is read: the core's
        #: small record of it (its play's ``captures``: Gungi's), or the tensor itself.
        self._native_capture: Callable[[NativeMatch, int], Any] | None = None
        if self._native is not None:
            # A native match's observation is taken by the core when it is made: a small
            # record its ``captures`` expands when read (Gungi's planes are 38,880 bytes,
            # which an agent that reads only the mask never needs), or the tensor, which
            # ``Encoded`` hands over as it is. No snapshot of the match is kept.
            # The core makes the masks too where it can (Gungi's: its action space is wide).
            captures = self._native.captures
            encoded = captures or Encoded(tuple(self.encoder.shape))
            self._native_capture = self._native.observe if captures is None else captures.capture
            make_mask = self._native.mask_of or mask_of
            self._seats = [(encoded, seat, self.num_actions, make_mask) for seat in range(n)]
        self.agent_seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(
                    self.encoder.low, self.encoder.high, self.encoder.shape, np.float32
                ),
                "action_mask": gymnasium.spaces.Box(0, 1, (self.num_actions,), np.int8),
            }
        )
        action_space = gymnasium.spaces.Discrete(self.num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space)
        self._legal = LegalInts(self.game, self.num_actions)
        #: The action of a legal integer (the game's, read once: it runs every step).
        self._int_to_action = self.game.int_to_action
        #: The seat to act (TERMINAL at the end), as of the last change.
        self._to_act = TERMINAL
        #: agent -> its observation, for the current step (cleared by every change).
        self._observations: dict[str, dict[str, np.ndarray]] = {}
        self._start(0)

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episodes
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode; ``seed`` reseeds the generator of the episodes' Sengoku seeds."""
        if seed is not None:
            self._deals = random.Random(seed)
        self._start(self._deals.getrandbits(62))

    def _start(self, sengoku_seed: int) -> None:
        if self._native is not None:  # dealt by the core as new_state deals it
            self._match = self._native.deal(sengoku_seed)
        else:
            self._state = self.game.new_state(seed=sengoku_seed, **self.options)
            # Muted (``State.mute``: the same rules, no events built): the environment reads
            # none, and they are a quarter to a third of a ply (Gunshi, Sashimono, Gunkimono).
            self._state.mute()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_change()

    @property
    def native(self) -> bool:
        """Whether the environment steps a native match (``Game.native_play``: the game's
        core is built and the environment encodes with the game's own encoder)."""
        return self._native is not None

    @property
    def sengoku_state(self) -> State:
        """The contract state being played (read it; to set a position, assign a state). The
        environment's own states are muted (``State.mute``): their ``apply`` tells nothing;
        a clone tells again. A state assigned is played as it is. Where the environment
        steps a native match (``Game.native_play``), this is a contract state of the match's
        position made when read (a copy: playing it changes nothing here), and a state
        assigned is copied into a match."""
        if self._match is not None:
            assert self._native is not None  # a match is played only with its play
            return self._native.state_of(self._match)
        return self._state

    @sengoku_state.setter
    def sengoku_state(self, state: State) -> None:
        if self._native is not None:
            self._match = self._native.load(state)
        else:
            self._state = state
        self._after_change()

    def _after_change(self) -> None:
        match = self._match
        if match is not None:
            seat = self._to_act = match.current_player
            self._observations = {}
            self._legal.actions = None
            if seat != TERMINAL:
                self.agent_selection = self.possible_agents[seat]
                self._legal.list = match.legal_ints()
            else:
                self._legal.list = []
            return
        state = self._state
        seat = self._to_act = state.current_player
        self._observations = {}
        if seat != TERMINAL:
            self.agent_selection = self.possible_agents[seat]
            self._legal.update(state)
        else:
            self._legal.update(None)

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is legal for the agent to act now (its mask entry)."""
        return action in self._legal

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation, built once per step (the same dict until a change): the
        mask and the seat's view now, the tensor when first read
        (:class:`~sengoku.interop.lazy.LazyObservation`: always the tensor of this position,
        even read after later steps; it holds nothing the seat may not see)."""
        observation = self._observations.get(agent)
        return self._observation(agent) if observation is None else observation

    def _observation(self, agent: str) -> dict[str, np.ndarray]:
        """Make and keep ``agent``'s observation of this step (none kept yet)."""
        seat = self.agent_seat[agent]
        capture, match = self._native_capture, self._match
        observation = self._observations[agent] = LazyObservation.of(
            self._seats[seat],
            self._capture(self._state, seat)
            if capture is None or match is None
            else capture(match, seat),
            self._legal.list if seat == self._to_act else [],
        )
        return observation

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last``: the observation, cumulative reward, termination, truncation and
        info of the agent selected (written out: it runs every turn)."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def legal_actions(self, agent: str | None = None) -> list[int]:
        """The legal action integers of ``agent`` (default: the agent selected), ascending: the
        nonzero entries of its ``action_mask``, as OpenSpiel's ``legal_actions`` gives them (a
        player that draws from this list needs no mask; an agent not to act has none). A new
        list: the caller may keep or change it."""
        if agent is None:  # the agent selected: its list (empty once the game is over)
            return self._legal.list[:]
        if self.agent_seat[agent] != self._to_act:
            return []
        return self._legal.list[:]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        i = self._legal.index(action)
        if i < 0:
            raise IllegalAction(
                f"action {action} is not legal for {agent} here "
                f"(legal: {self._legal.preview()}...); use the action_mask"
            )
        self._play(agent, i)

    def _play(self, agent: str, i: int) -> None:
        """Play the legal action at position ``i`` of the legal list of ``agent``, the agent
        selected (checked by the caller: not a second time)."""
        self._cumulative_rewards[agent] = 0.0
        legal = self._legal
        match = self._match
        if match is not None:
            match.apply(legal.list[i])
            self._played_natively(match)
            return
        state = self._state
        actions = legal.actions  # LegalInts.action, written out: it runs every step
        state.apply(
            actions[i] if actions is not None else self._int_to_action(state, legal.list[i])
        )
        self._played(state)

    def _played(self, state: State) -> None:
        """What follows the play of a legal action in ``state`` (the environment's): the next
        agent and its legal integers, or the rewards and ends; the drawing in "human" mode."""
        legal = self._legal
        outcome = state.outcome()
        if outcome is None:
            # Rewards are 0 until the end (an illegal action ends the game in the wrapper):
            # clearing and accumulating them would change nothing. _after_change written
            # out (a seat is to act while the game goes on).
            seat = self._to_act = state.current_player
            self._observations = {}
            self.agent_selection = self.possible_agents[seat]
            if legal.pair:
                legal.update(state)
            else:  # LegalInts.update written out: the game's own integers, no actions kept
                legal.list = legal.ints_of(state)
        else:
            self._ended(outcome)
        if self.render_mode == "human":
            self.render()

    def _played_natively(self, match: NativeMatch) -> None:
        """:meth:`_played` for a native match."""
        if not match.is_terminal():
            seat = self._to_act = match.current_player
            self._observations = {}
            self.agent_selection = self.possible_agents[seat]
            self._legal.list = match.legal_ints()
        else:
            assert self._native is not None  # a match is played only with its play
            outcome = self._native.outcome(match)
            assert outcome is not None  # the match is over
            self._ended(outcome)
        if self.render_mode == "human":
            self.render()

    def _ended(self, outcome: Outcome) -> None:
        """The game ended with ``outcome``: every agent's reward, end and outcome."""
        self._clear_rewards()
        truncated = outcome.reason == "length_limit"
        for seat, name in enumerate(self.possible_agents):
            self.rewards[name] = float(outcome.returns[seat])
            self.terminations[name] = not truncated
            self.truncations[name] = truncated
            self.infos[name] = {"outcome": outcome.to_json()}
        self._after_change()
        self._accumulate_rewards()

    # ------------------------------------------------------------------ rendering
    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'ansi' or 'human')")
            return None
        text = self.game.render_text(self.sengoku_state, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no window or process."""


__all__ = ["SengokuWrapper", "env", "raw_env", "vector_env"]
