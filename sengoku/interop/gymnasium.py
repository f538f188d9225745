"""One-player Sengoku games as Gymnasium environments (``pip install 'sengoku[pettingzoo]'``).

>>> import gymnasium
>>> import sengoku.interop.gymnasium  # registers the environments
>>> env = gymnasium.make("sengoku/SashimonoSolo-v1")
>>> observation, info = env.reset(seed=7)
>>> sorted(observation)
['action_mask', 'observation']

Every game declares its environments (``GameType.gymnasium_environments``); Sashimono's solo mode
(one player against the Kagemusha automaton, whose turns the contract plays inside ``apply``)
is the registered environment ``sengoku/SashimonoSolo-v1``;
:class:`SoloEnv` wraps any contract game whose options make it a one-player game.

* Observations are ``{"observation", "action_mask"}`` as in the PettingZoo environments: the
  seat's ``view(0)`` through :func:`sengoku.interop.encoders.encoder_for`, and an ``int8``
  mask of the legal actions (also returned by :meth:`SoloEnv.action_masks`, the name
  sb3-contrib's ``MaskablePPO`` looks for). As in PettingZoo, each is made on its first read
  (:class:`~sengoku.interop.lazy.LazyObservation`, a ``dict``): the seat's snapshot is taken
  at once, so the tensor is the one of the position the observation was returned at whenever
  it is read; a step whose caller reads only the mask does not pay for the encoding. Each
  step returns a new observation with new arrays.
* Actions are the contract's integers; the reward is the outcome's return (+1 won, -1 lost)
  when the game ends and 0 before; the contract's ``length_limit`` is a truncation.
* An illegal action (``illegal_action="terminate"``, the default) ends the episode with reward
  -1 and ``info["illegal_action"] = True``, changing nothing in the game - what PettingZoo's
  ``TerminateIllegalWrapper`` does; ``illegal_action="raise"`` raises ``IllegalAction``.
* ``reset(seed=s)`` seeds ``np_random``, which draws the Sengoku seed of the episode. That
  seed decides every hidden card (in solo Sashimono the Kagemusha's decks and Army card), so
  it is never handed out: ``reset`` returns an empty ``info``, a step's ``info`` holds only
  ``outcome`` (at the end) or ``illegal_action``, and observations and ``render()`` come from
  ``view(0)`` alone. ``sengoku_state`` is the referee's true state (for the trainer's own
  checks and for loading a position), never an agent's input.
* A game with a native core (``Game.native_play``: Sashimono's) is stepped in it, with the
  contract's numbers and the encoder's tensors (each observation's encoded by the core when
  it is made); ``native=False`` steps contract states.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from sengoku.core.game import TERMINAL, IllegalAction, SengokuError, State
from sengoku.core.native_play import NativeMatch, NativePlay
from sengoku.core.registry import GameLoadError, list_games, load_game
from sengoku.interop.encoders import LegalInts, capturer_of, encoder_for, mask_of
from sengoku.interop.lazy import Encoded, LazyObservation, Seat

ILLEGAL_REWARD = -1.0


class SoloEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """A one-player contract game (``game`` with ``options``) as a Gymnasium environment."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        game: str,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        obs_size: int | None = None,
        native: bool = True,
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SengokuError(
                f"render_mode {render_mode!r} is not supported; use 'ansi', 'human' or None"
            )
        if illegal_action not in ("terminate", "raise"):
            raise SengokuError(
                f"illegal_action {illegal_action!r}: use 'terminate' (reward -1) or 'raise'"
            )
        self.game = load_game(game)
        self.options = self.game.resolve_options(**options)
        probe = self.game.new_state(seed=0, **self.options)
        if probe.num_players != 1:
            raise SengokuError(
                f"{self.game.name} with {self.options} has {probe.num_players} players; the "
                "Gymnasium environment is for one-player games (use sengoku.interop.pettingzoo)"
            )
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.encoder = encoder_for(self.game, self.options, obs_size)
        self.num_actions = self.game.num_distinct_actions(**self.options)
        self.observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(
                    self.encoder.low, self.encoder.high, self.encoder.shape, np.float32
                ),
                "action_mask": gymnasium.spaces.Box(0, 1, (self.num_actions,), np.int8),
            }
        )
        self.action_space = gymnasium.spaces.Discrete(self.num_actions)
        self._state: State = probe
        self._legal = LegalInts(self.game, self.num_actions)
        self._over = True
        #: The seat's snapshot for an observation (the encoder's kept capture where it has
        #: one: only seat 0's views, the one seat) and (encoder, seat, num_actions) as the
        #: observations hold them.
        self._capture = capturer_of(self.encoder)
        self._seat: Seat = (self.encoder, 0, self.num_actions, mask_of)
        #: The game's native matches (``Game.native_play``: Sashimono's core, where it is
        #: built), stepped instead of contract states when the environment encodes with the
        #: game's own encoder (no ``obs_size``) unless ``native`` is False: the same numbers at
        #: the core's speed; the match played is then ``_match`` (``_state`` is not followed),
        #: and an observation holds what the core took when it was made: the tensor, or the
        #: small record of it the play's ``captures`` expands when read.
        self._native: NativePlay | None = (
            self.game.native_play(**self.options) if native and obs_size is None else None
        )
        self._match: NativeMatch | None = None
        self._native_capture: Callable[[NativeMatch, int], Any] | None = None
        if self._native is not None:
            make_mask = self._native.mask_of or mask_of
            captures = self._native.captures
            encoded = captures or Encoded(tuple(self.encoder.shape))
            self._native_capture = self._native.observe if captures is None else captures.capture
            self._seat = (encoded, 0, self.num_actions, make_mask)

    # ------------------------------------------------------------------ episodes
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        # The seed decides the hidden cards: it stays here (issue 40), the info is empty.
        sengoku_seed = int(self.np_random.integers(0, 2**62))
        if self._native is not None:  # dealt by the core as new_state deals it
            self._match = self._native.deal(sengoku_seed)
        else:
            self._state = self.game.new_state(seed=sengoku_seed, **self.options)
            # Muted (``State.mute``: the same rules, no events built): the environment reads
            # none, and in Sashimono they are about a quarter of a ply.
            self._state.mute()
        self._over = False
        self._refresh()
        return self._observe(), {}

    @property
    def native(self) -> bool:
        """Whether the environment steps a native match (``Game.native_play``)."""
        return self._native is not None

    @property
    def sengoku_state(self) -> State:
        """The contract state being played: the referee's, hidden cards included (read it
        for checks; to play from a position, assign a one-player state of this game). The
        environment's own states are muted (``State.mute``): their ``apply`` tells nothing;
        a clone tells again. A state assigned is played as it is. Where the environment
        steps a native match, this is a contract state of its position made when read (a
        copy), and a state assigned is copied into a match."""
        if self._native is not None and self._match is not None:
            return self._native.state_of(self._match)
        return self._state

    @sengoku_state.setter
    def sengoku_state(self, state: State) -> None:
        if state.game.name != self.game.name or state.num_players != 1:
            raise SengokuError(
                f"sengoku_state: a one-player {self.game.name} state is needed, not "
                f"{state.game.name} with {state.num_players} players"
            )
        if self._native is not None:
            self._match = self._native.load(state)
            self._refresh()
        else:
            self._refresh(state)
            self._state = state
        self._over = state.outcome() is not None

    def step(
        self, action: Any
    ) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool, dict[str, Any]]:
        if self._over:
            raise SengokuError("the episode is over: call reset() before step()")
        i = self._legal.index(int(action))
        if i < 0:
            if self.illegal_action == "raise":
                raise IllegalAction(
                    f"action {action} is not legal here; legal: {self._legal.preview()}..."
                )
            self._over = True
            return self._observe(), ILLEGAL_REWARD, True, False, {"illegal_action": True}
        match = self._match
        if match is not None:
            assert self._native is not None  # a match is played only with its play
            match.apply(self._legal.list[i])
            self._refresh()
            outcome = self._native.outcome(match) if match.is_terminal() else None
        else:
            state = self._state
            state.apply(self._legal.action(state, i))
            self._refresh()
            outcome = state.outcome()
        reward = 0.0
        terminated = truncated = False
        info: dict[str, Any] = {}
        if outcome is not None:
            self._over = True
            reward = float(outcome.returns[0])
            truncated = outcome.reason == "length_limit"
            terminated = not truncated
            info["outcome"] = outcome.to_json()
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions as a boolean vector (sb3-contrib's MaskablePPO asks for it)."""
        return self._mask().astype(bool)

    # ------------------------------------------------------------------ helpers
    def _refresh(self, state: State | None = None) -> None:
        match = self._match if state is None else None
        if match is not None:
            seat = match.current_player
            self._legal.actions = None
            self._legal.list = [] if seat == TERMINAL else match.legal_ints()
        else:
            state = self._state if state is None else state
            seat = state.current_player
            if seat == TERMINAL:
                self._legal.update(None)
                return
            self._legal.update(state)
        if seat not in (0, TERMINAL):
            raise SengokuError(f"{self.game.name}: seat {seat} is to act in a one-player game")

    def _mask(self) -> np.ndarray:
        return self._legal.mask()

    def _observe(self) -> dict[str, np.ndarray]:
        # The snapshot now (later play must not change it), the tensor and the mask when
        # first read; the legal list is never changed in place (LegalInts.update replaces it).
        match = self._match
        if match is not None:  # taken by the core now
            assert self._native_capture is not None  # a match is played only with its play
            return LazyObservation.of(self._seat, self._native_capture(match, 0), self._legal.list)
        return LazyObservation.of(self._seat, self._capture(self._state, 0), self._legal.list)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'ansi' or 'human')")
            return None
        text = self.game.render_text(self.sengoku_state, 0)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def declared_environments() -> dict[str, dict[str, Any]]:
    """Environment id -> the game and options it plays, as every registered game declares
    them (``GameType.gymnasium_environments``). A game whose plugin cannot be loaded offers none
    (it raises its own error when it is loaded by name)."""
    found: dict[str, dict[str, Any]] = {}
    for name in list_games():
        try:
            game = load_game(name)
        except GameLoadError:
            continue
        for env_id, options in game.game_type.gymnasium_environments.items():
            found[env_id] = {"game": game.name, **options}
    return found


#: Registered environment ids -> the game and options they play.
ENVIRONMENTS: dict[str, dict[str, Any]] = declared_environments()


def register_environments() -> None:
    """Register :data:`ENVIRONMENTS` with Gymnasium (done once, on import)."""
    for env_id, kwargs in ENVIRONMENTS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=f"{__name__}:SoloEnv", kwargs=dict(kwargs))


register_environments()

__all__ = [
    "ENVIRONMENTS",
    "ILLEGAL_REWARD",
    "SoloEnv",
    "declared_environments",
    "register_environments",
]
