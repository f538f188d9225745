"""Sengoku games as OpenSpiel games (``pip install 'sengoku[openspiel]'``).

>>> import pyspiel
>>> from sengoku.interop import openspiel
>>> openspiel.register("gungi")
'sengoku_gungi'
>>> game = pyspiel.load_game("sengoku_gungi", {"mode": "beginner"})
>>> state = game.new_initial_state()
>>> len(state.legal_actions())
187

:func:`register` registers ``sengoku_<name>`` with ``pyspiel.register_game``. Every option of
the Sengoku game is an OpenSpiel game parameter (the defaults are the Sengoku defaults, or the
values given to :func:`register`), plus ``seed``: the seed of the generator that draws one
Sengoku seed per ``new_initial_state()`` (so every episode of a game that shuffles is a new
deal, and the same ``seed`` replays the same sequence of deals).

What OpenSpiel is told, per game (the contract's ``Game.perfect_information``; chance and
utility from :data:`TRAITS`, where a game not listed is described in the way that is always
safe: sampled-stochastic, general-sum):

* dynamics sequential, reward model terminal, utilities the contract's
  ``outcome().returns`` (in [-1, 1]);
* chance mode sampled-stochastic for games that shuffle (Gunkimono, Gunshi, Sashimono) and
  for Gungi with ``first_player=random``; deterministic otherwise. Chance happens inside
  ``new_initial_state`` (the seeded shuffles of the contract), so there are no chance nodes;
* information as the game declares it (``Game.perfect_information``): perfect for Gungi,
  imperfect for the others (hands, decks, secret choices);
* integer actions are the contract's ``action_to_int`` / ``int_to_action``; the action space
  is ``num_distinct_actions``; ``max_game_length`` is the contract's;
* observation string: the canonical JSON of ``view(player)``; the public observation (an
  observer asked for no private information) is ``view(None)``, the spectator's view;
* observation tensor: :func:`sengoku.interop.encoders.encoder_for` applied to the same view;
* information-state string (perfect recall): a chained SHA-256 of the events addressed to the
  player so far (the contract's events carry their audience; equal strings mean equal
  histories) followed by the player's current view; for a perfect-information game the
  action history followed by the view;
* ``resample_from_infostate`` is the contract's ``determinize``: OpenSpiel's Python IS-MCTS
  runs on it unchanged.

Serialization (``pyspiel.serialize_game_and_state``) stores the contract's ``to_json``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from sengoku.core.game import TERMINAL, Event, Game, SengokuError, State
from sengoku.core.registry import load_game
from sengoku.interop.encoders import Encoder, canonical_json, encoder_for

PREFIX = "sengoku_"
#: Extra game parameter (besides the game's own options): seed of the deal generator.
SEED_PARAM = "seed"


@dataclass(frozen=True)
class Traits:
    """What the contract does not declare about a game, from its resolved options."""

    stochastic: Callable[[Mapping[str, Any]], bool]
    zero_sum: Callable[[Mapping[str, Any]], bool]


def _always(_options: Mapping[str, Any]) -> bool:
    return True


def _never(_options: Mapping[str, Any]) -> bool:
    return False


#: Chance and utility of the known games. Gunkimono's ranked returns and every concession sum to zero; so do Gunshi's and
#: two-player Sashimono's +1/-1. Solo Sashimono has one player: general-sum.
TRAITS: dict[str, Traits] = {
    "gungi": Traits(lambda o: o.get("first_player") == "random", _always),
    "gunkimono": Traits(_always, _always),
    "gunshi": Traits(_always, _always),
    "sashimono": Traits(_always, lambda o: o.get("mode") != "solo"),
}
UNKNOWN_TRAITS = Traits(_always, _never)

_registered: dict[str, dict[str, Any]] = {}


def short_name(name: str) -> str:
    return PREFIX + name


def register(name: str, **options: Any) -> str:
    """Register Sengoku game ``name`` with OpenSpiel as ``sengoku_<name>``; return that name.

    ``options`` become the default game parameters (checked by the game). Registering the
    same name again with the same defaults does nothing; other defaults raise: pass them as
    parameters to ``pyspiel.load_game`` instead.
    """
    game = load_game(name)
    defaults = game.resolve_options(**options)
    short = short_name(game.name)
    if short in _registered:
        if _registered[short] != defaults:
            raise SengokuError(
                f"{short} is already registered with defaults {_registered[short]}; pass other "
                f"options as parameters: pyspiel.load_game({short!r}, {{...}})"
            )
        return short
    info = _GameDescription(game, defaults, 0)
    spec: dict[str, Any] = {**defaults, SEED_PARAM: 0}
    # OpenSpiel keeps the factory until after the interpreter has finalized: a class (as
    # OpenSpiel's own Python games register) lives that long, a closure would be freed late
    # and abort the process at exit.
    factory = type(
        f"SengokuSpielGame_{game.name}",
        (SengokuSpielGame,),
        {"GAME_NAME": game.name, "DEFAULTS": spec, "__module__": __name__},
    )
    pyspiel.register_game(info.game_type(spec, short), factory)
    _registered[short] = defaults
    return short


def load(name: str, **params: Any) -> SengokuSpielGame:
    """Register ``name`` (with its defaults) if needed and load it with ``params``."""
    short = register(name)
    game = pyspiel.load_game(short, params)
    assert isinstance(game, SengokuSpielGame)
    return game


class _GameDescription:
    """The OpenSpiel game type and game info of a Sengoku game with resolved options."""

    def __init__(self, game: Game, options: Mapping[str, Any], seed: int) -> None:
        self.game = game
        self.options = dict(options)
        traits = TRAITS.get(game.name, UNKNOWN_TRAITS)
        self.traits = traits
        probe = game.new_state(seed=seed, **options)
        self.num_players = probe.num_players
        self.stochastic = traits.stochastic(options)
        self.zero_sum = traits.zero_sum(options) and self.num_players > 1

    def game_type(self, spec: Mapping[str, Any], short: str) -> pyspiel.GameType:
        gt = pyspiel.GameType
        return gt(
            short_name=short,
            long_name=f"Sengoku {self.game.title or self.game.name}",
            dynamics=gt.Dynamics.SEQUENTIAL,
            chance_mode=(
                gt.ChanceMode.SAMPLED_STOCHASTIC if self.stochastic else gt.ChanceMode.DETERMINISTIC
            ),
            information=(
                gt.Information.PERFECT_INFORMATION
                if self.game.perfect_information
                else gt.Information.IMPERFECT_INFORMATION
            ),
            utility=gt.Utility.ZERO_SUM if self.zero_sum else gt.Utility.GENERAL_SUM,
            reward_model=gt.RewardModel.TERMINAL,
            max_num_players=self.game.max_players,
            min_num_players=self.game.min_players,
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=dict(spec),
        )

    def game_info(self) -> pyspiel.GameInfo:
        return pyspiel.GameInfo(
            num_distinct_actions=self.game.num_distinct_actions(**self.options),
            max_chance_outcomes=0,
            num_players=self.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if self.zero_sum else None,
            max_game_length=self.game.max_game_length(**self.options),
        )


class _Context:
    """What every state of one OpenSpiel game shares: never copied by a clone.

    OpenSpiel clones a Python state by deep-copying each attribute; this one is shared, and
    pickles as the game's name and options.
    """

    def __init__(self, name: str, options: Mapping[str, Any]) -> None:
        self.game = load_game(name)
        self.options = dict(options)
        self.perfect_information = self.game.perfect_information
        self.encoder: Encoder = encoder_for(self.game, self.options)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Context:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Context, (self.game.name, self.options))


class SengokuSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A Sengoku game with fixed options, as an OpenSpiel game."""

    GAME_NAME: str = ""
    DEFAULTS: Mapping[str, Any] = {}

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game = load_game(self.GAME_NAME)
        params = {**self.DEFAULTS, **(params or {})}
        seed = int(params.pop(SEED_PARAM, 0))
        options = game.resolve_options(**params)
        description = _GameDescription(game, options, seed)
        spec = {**options, SEED_PARAM: seed}
        super().__init__(
            description.game_type(spec, short_name(game.name)), description.game_info(), spec
        )
        self.context = _Context(game.name, options)
        self.sengoku_game = game
        self.sengoku_options = options
        self.perfect_information = self.context.perfect_information
        self.encoder = self.context.encoder
        self._deals = random.Random(seed)

    def next_seed(self) -> int:
        """The Sengoku seed of the next initial state (one draw per episode)."""
        return self._deals.getrandbits(62)

    def new_initial_state(self, state: Any = None) -> SengokuSpielState:
        """A new episode; ``state`` may be a contract ``State`` or its ``to_json`` dict."""
        if state is None:
            return SengokuSpielState(self)
        if isinstance(state, Mapping):
            state = self.sengoku_game.state_from_json(state)
        if not isinstance(state, State) or state.game.name != self.sengoku_game.name:
            raise SengokuError(f"not a {self.sengoku_game.name} state: {state!r}")
        spiel_state = SengokuSpielState(self)
        spiel_state._match = _Match(state.clone(), [])
        return spiel_state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> _ViewObserver | _InfoStateObserver:
        if params:
            raise SengokuError(f"observation parameters are not supported; got {dict(params)}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return _InfoStateObserver(self)
        public_only = (
            iig_obs_type is not None and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        )
        return _ViewObserver(self, public_only)


class _Match:
    """The contract state of one OpenSpiel state, with the events each seat has been told.

    OpenSpiel clones a Python state by deep-copying its attributes: this holder makes that a
    cheap contract ``clone()``, and pickling (serialization) the contract's ``to_json``.
    ``told`` caches, per seat, a digest of the events that seat was told (events looked at,
    events told, SHA-256 chained over those told), extended only by the events added since.
    """

    __slots__ = ("state", "events", "legal", "player", "told", "views")

    def __init__(
        self, state: State, events: list[Event], told: dict[int, tuple[int, int, str]] | None = None
    ) -> None:
        self.state = state
        self.events = events
        self.told: dict[int, tuple[int, int, str]] = dict(told or {})
        #: The legal action integers of the current position (reset by apply).
        self.legal: list[int] | None = None
        #: OpenSpiel's current player of the current position (reset by apply): it asks
        #: several times a ply.
        self.player: int | None = None
        #: seat (None: spectator) -> its view, for the current position (reset by apply).
        self.views: dict[int | None, dict[str, Any]] = {}

    def view(self, seat: int | None) -> dict[str, Any]:
        """``view(seat)`` of the current position, built once per position and seat."""
        view = self.views.get(seat)
        if view is None:
            view = self.views[seat] = self.state.view(seat)
        return view

    def __deepcopy__(self, memo: dict[int, Any]) -> _Match:
        clone = _Match(self.state.clone(), list(self.events), self.told)
        # The same position: its legal table and views hold (never changed in place, only
        # replaced), so a search that clones and then asks for them does not rebuild them.
        clone.legal = self.legal
        clone.player = self.player
        clone.views = dict(self.views)
        return clone

    def __getstate__(self) -> dict[str, Any]:
        return {
            "game": self.state.game.name,
            "state": self.state.to_json(),
            "events": self.events,
            "told": self.told,
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.state = load_game(data["game"]).state_from_json(data["state"])
        self.events = list(data["events"])
        self.told = dict(data["told"])
        self.legal = None
        self.player = None
        self.views = {}

    def digest_for(self, seat: int) -> tuple[int, str]:
        """(events told to ``seat`` so far, their chained SHA-256), updated incrementally."""
        done, count, digest = self.told.get(seat, (0, 0, ""))
        for e in self.events[done:]:
            audience = e.get("audience")
            if audience is None or seat in audience:
                text = json.dumps(e, sort_keys=True, separators=(",", ":"), default=str)
                digest = hashlib.sha256((digest + text).encode("utf-8")).hexdigest()
                count += 1
        self.told[seat] = (len(self.events), count, digest)
        return count, digest


class SengokuSpielState(pyspiel.State):  # type: ignore[misc]
    """One OpenSpiel state wrapping one contract state (created on first use)."""

    def __init__(self, game: SengokuSpielGame) -> None:
        super().__init__(game)
        self._ctx = game.context
        # Drawn now, used lazily: a clone (which OpenSpiel starts from a new initial state)
        # overwrites _match before anything creates it, so it costs no setup.
        self._seed = game.next_seed()
        self._lazy: _Match | None = None

    @property
    def _match(self) -> _Match:
        if self._lazy is None:
            ctx = self._ctx
            self._lazy = _Match(ctx.game.new_state(seed=self._seed, **ctx.options), [])
        return self._lazy

    @_match.setter
    def _match(self, match: _Match) -> None:
        self._lazy = match

    @property
    def sengoku_state(self) -> State:
        """The contract state (read it, never change it behind OpenSpiel's back)."""
        return self._match.state

    # ------------------------------------------------------------------ the State API
    def current_player(self) -> int:
        match = self._lazy or self._match
        player = match.player
        if player is None:
            seat = match.state.current_player
            player = match.player = pyspiel.PlayerId.TERMINAL if seat == TERMINAL else seat
        return player

    def _legal_actions(self, player: int) -> list[int]:
        match = self._lazy or self._match
        state = match.state
        if player != state.current_player:
            return []
        ints = match.legal
        if ints is None:  # once per position: OpenSpiel may ask several times
            to_int = functools.partial(self._ctx.game.action_to_int, state)
            ints = match.legal = list(map(to_int, state.legal_actions()))
        return ints  # pybind11 copies it into a C++ vector: the cache cannot be changed

    def _apply_action(self, action: int) -> None:
        match = self._lazy or self._match
        state = match.state
        events = state.apply(self._ctx.game.int_to_action(state, action))
        match.legal = None
        match.player = None
        match.views = {}
        if not self._ctx.perfect_information:
            match.events.extend(events)

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return str(self._ctx.game.int_to_action(self._match.state, action))
        except (SengokuError, ValueError):
            return f"#{action}"

    def is_terminal(self) -> bool:
        return self._match.state.is_terminal()

    def returns(self) -> list[float]:
        return list(self._match.state.returns())

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> SengokuSpielState:
        """A state ``player_id`` cannot tell from this one: the contract's ``determinize``."""
        seed = int(probability_sampler() * 2**53)
        match = self._match
        world = match.state.determinize(player_id, random.Random(seed))
        resampled: SengokuSpielState = self.get_game().new_initial_state()
        resampled._match = _Match(world, list(match.events))
        return resampled

    def __str__(self) -> str:
        return str(self._match.state)


def _view_of(state: SengokuSpielState, seat: int | None) -> dict[str, Any]:
    return state._match.view(seat)


class _ViewObserver:
    """OpenSpiel's observer protocol over ``view(player)`` (or ``view(None)``: public only)."""

    def __init__(self, game: SengokuSpielGame, public_only: bool) -> None:
        self.encoder = game.encoder
        self.public_only = public_only
        shape = self.encoder.shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: SengokuSpielState, player: int) -> None:
        seat = None if self.public_only else player
        self.tensor.fill(0.0)
        self.encoder.encode_into(_view_of(state, seat), seat, self.dict["observation"])

    def string_from(self, state: SengokuSpielState, player: int) -> str:
        return canonical_json(_view_of(state, None if self.public_only else player))


class _InfoStateObserver:
    """Perfect recall: what the player was told so far, then what it sees now (strings only).

    For hidden-information games the history is the chained SHA-256 of the events addressed to
    the player (a constant-size key, so long games do not pay for their whole history on
    every call); for perfect-information games it is the action history.
    """

    def __init__(self, game: SengokuSpielGame) -> None:
        self.perfect_information = game.perfect_information
        self.tensor = None
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: SengokuSpielState, player: int) -> None:
        raise SengokuError("Sengoku games provide information-state strings, not tensors")

    def string_from(self, state: SengokuSpielState, player: int) -> str:
        view = canonical_json(_view_of(state, player))
        if self.perfect_information:
            return " ".join(map(str, state.history())) + "\n" + view
        count, digest = state._match.digest_for(player)
        return f"told {count} events, sha256 {digest}\n{view}"


__all__ = [
    "PREFIX",
    "SEED_PARAM",
    "TRAITS",
    "SengokuSpielGame",
    "SengokuSpielState",
    "Traits",
    "load",
    "register",
    "short_name",
]
