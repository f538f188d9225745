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
values given to :func:`register`).

What OpenSpiel is told, per game and options (the game's declared ``Game.traits(**options)``:
chance, utility and information; a game that declares none is described in the way that is
always safe: stochastic, general-sum, with its ``perfect_information``):

* dynamics sequential, reward model terminal, utilities the contract's
  ``outcome().returns`` (in [-1, 1]);
* chance mode explicit-stochastic where the setup draws from the seed: Gunkimono and
  Sashimono (shuffles), Gunshi's Inspiration variant with Modification 1 (random prepared
  cards) and Gungi with ``first_player=random``; deterministic otherwise (Gunshi's other
  configurations ignore the seed). The contract draws every shuffle from its seed, so the
  chance is the seed: a new episode starts with :data:`CHANCE_NODES` chance nodes of 256
  equally likely outcomes each, the seed's bytes (big-endian), then the game. Deterministic
  configurations start at the game with seed 0;
* information as the game declares it (``Traits.perfect_information``): perfect for Gungi,
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
  runs on it unchanged. The world is told only the events the player was told, and it has
  the true state's ``move_number()``; its ``history()`` keeps the player's own actions (and,
  in a perfect-information game, everyone's) and writes :data:`pyspiel.INVALID_ACTION` (-1)
  for the chance outcomes (the seed) and for other players' actions, which the player may
  not know: a world is sampled, not played from a history;
* ``new_initial_state(position)`` takes a contract ``State`` or its ``to_json`` (a position
  without its history: its information state starts there, with a ``position_loaded``
  event), or a :class:`~sengoku.core.record.GameRecord` or its JSON, which is replayed from
  its seed, so the loaded state has the full history and information states of the game.

Serialization: ``pyspiel.serialize_game_and_state`` and ``deserialize_game_and_state`` work in
every configuration (the game holds no random generator: chance is explicit); a state's own
serialization stores the contract's ``to_json`` and the events told.
"""

from __future__ import annotations

import base64
import hashlib
import json
import pickle
import random
from bisect import bisect_left
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from sengoku.core.game import TERMINAL, Event, Game, SengokuError, State, event
from sengoku.core.native_play import NativeMatch, NativePlay
from sengoku.core.record import GameRecord
from sengoku.core.registry import load_game
from sengoku.interop.encoders import Encoder, canonical_json, capturer_of, encoder_for
from sengoku.interop.vector import VectorEnv

PREFIX = "sengoku_"
#: Chance nodes at the start of a stochastic configuration: the bytes of the Sengoku seed.
CHANCE_NODES = 4
#: Outcomes of each chance node (one byte), all equally likely.
CHANCE_OUTCOMES = 256
_UNIFORM = [(b, 1.0 / CHANCE_OUTCOMES) for b in range(CHANCE_OUTCOMES)]


_registered: dict[str, dict[str, Any]] = {}


#: The OpenSpiel parameter value of an option whose value is None (OpenSpiel parameters
#: cannot be None: an unset parameter accepts no value and does not survive serialization).
NONE_PARAM = -1


def _to_spiel(options: Mapping[str, Any]) -> dict[str, Any]:
    return {k: NONE_PARAM if v is None else v for k, v in options.items()}


def _from_spiel(game: Game, params: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(params)
    for name, value in params.items():
        option = game.options.get(name)
        if option is not None and option.default is None and value == NONE_PARAM:
            out[name] = None
    return out


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
    info = _GameDescription(game, defaults)
    spec = _to_spiel(defaults)
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

    def __init__(self, game: Game, options: Mapping[str, Any]) -> None:
        self.game = game
        self.options = dict(options)
        traits = game.traits(**self.options)
        self.traits = traits
        probe = game.new_state(seed=0, **options)
        self.num_players = probe.num_players
        self.stochastic = traits.stochastic
        self.zero_sum = traits.zero_sum and self.num_players > 1

    def game_type(self, spec: Mapping[str, Any], short: str) -> pyspiel.GameType:
        gt = pyspiel.GameType
        return gt(
            short_name=short,
            long_name=f"Sengoku {self.game.game_type.title or self.game.name}",
            dynamics=gt.Dynamics.SEQUENTIAL,
            chance_mode=(
                gt.ChanceMode.EXPLICIT_STOCHASTIC
                if self.stochastic
                else gt.ChanceMode.DETERMINISTIC
            ),
            information=(
                gt.Information.PERFECT_INFORMATION
                if self.traits.perfect_information
                else gt.Information.IMPERFECT_INFORMATION
            ),
            utility=gt.Utility.ZERO_SUM if self.zero_sum else gt.Utility.GENERAL_SUM,
            reward_model=gt.RewardModel.TERMINAL,
            max_num_players=self.game.game_type.max_players,
            min_num_players=self.game.game_type.min_players,
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=dict(spec),
        )

    def game_info(self) -> pyspiel.GameInfo:
        return pyspiel.GameInfo(
            num_distinct_actions=self.game.num_distinct_actions(**self.options),
            max_chance_outcomes=CHANCE_OUTCOMES if self.stochastic else 0,
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
        self.perfect_information = self.game.traits(**self.options).perfect_information
        self.stochastic = self.game.traits(**self.options).stochastic
        self.encoder: Encoder = encoder_for(self.game, self.options)
        #: The game's ``action_int`` where its ``legal_action_ints`` is the contract's (its
        #: integers are then ``action_int`` of the legal actions, which the states keep
        #: beside them: the action applied is read back, not rebuilt), else None.
        action_int = self.game.action_int
        plain = type(self.game).legal_action_ints is Game.legal_action_ints
        self.action_int = action_int if plain else None
        #: The game's ``legal_actions_and_ints`` (the actions and their integers in one
        #: call, kept the same way), where ``action_int`` is not used; else None.
        self.with_ints = self.game.legal_actions_and_ints if self.action_int is None else None
        #: The game's native matches (``Game.native_play``: the game's core, where it is
        #: built), which encode observation tensors at the core's speed (``_Match.shadow``).
        self.native: NativePlay | None = self.game.native_play(**self.options)

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
        options = game.resolve_options(**_from_spiel(game, params))
        description = _GameDescription(game, options)
        spec = _to_spiel(options)
        super().__init__(
            description.game_type(spec, short_name(game.name)), description.game_info(), spec
        )
        self.context = _Context(game.name, options)
        self.sengoku_game = game
        self.sengoku_options = options
        self.perfect_information = self.context.perfect_information
        self.stochastic = self.context.stochastic
        self.encoder = self.context.encoder

    def vector_env(self, num_envs: int, autoreset: bool = True) -> VectorEnv:
        """``num_envs`` games of this game and options stepped together, with numpy masks
        and observation tensors (:mod:`sengoku.interop.vector`; native for Gungi)."""
        return VectorEnv(self.sengoku_game.name, num_envs, autoreset, **self.sengoku_options)

    def max_chance_nodes_in_history(self) -> int:
        return CHANCE_NODES if self.stochastic else 0

    def new_initial_state(self, position: Any = None) -> SengokuSpielState:
        """A new episode (the seed's chance nodes first, where the setup draws from it).

        ``position`` may be a contract ``State`` or its ``to_json`` dict (a position without
        its history), or a :class:`~sengoku.core.record.GameRecord` or its JSON (replayed
        from its seed: the state has the game's whole history).
        """
        if position is None:
            return SengokuSpielState(self)
        if isinstance(position, GameRecord) or (
            isinstance(position, Mapping) and "actions" in position and "seed" in position
        ):
            return self._replay(position)
        if isinstance(position, Mapping):
            position = self.sengoku_game.state_from_json(position)
        if not isinstance(position, State) or position.game.name != self.sengoku_game.name:
            raise SengokuError(f"not a {self.sengoku_game.name} state: {position!r}")
        spiel_state = SengokuSpielState(self)
        loaded = event("position_loaded", None, message="A position loaded without its history.")
        deferred = not self.perfect_information
        spiel_state._match = _Match(position.clone(), [loaded], None, deferred)
        return spiel_state

    def _replay(self, data: Any) -> SengokuSpielState:
        record = data if isinstance(data, GameRecord) else GameRecord.from_json(data)
        game = self.sengoku_game
        if record.game != game.name:
            raise SengokuError(f"a {record.game} record cannot be loaded into {game.name}")
        options = game.resolve_options(**record.options)
        if options != self.sengoku_options:
            raise SengokuError(
                f"the record's options {options} differ from this game's {self.sengoku_options}"
            )
        state = SengokuSpielState(self)
        if self.stochastic:
            if not 0 <= record.seed < CHANCE_OUTCOMES**CHANCE_NODES:
                raise SengokuError(
                    f"record seed {record.seed} does not fit the {CHANCE_NODES} chance nodes "
                    f"(0 <= seed < 2**{8 * CHANCE_NODES})"
                )
            for byte in record.seed.to_bytes(CHANCE_NODES, "big"):
                state.apply_action(byte)
        else:
            state._match = _Match(
                game.new_state(seed=record.seed, **options), [], None, not self.perfect_information
            )
        for _step in record.steps(
            target=_SpielReplay(state, self.perfect_information), check_result=False
        ):
            pass
        return state

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


class _SpielReplay:
    """Replays a record (:meth:`GameRecord.steps`) through an OpenSpiel state, so that its
    history, the events each seat was told and its caches are those of the game played."""

    def __init__(self, spiel_state: SengokuSpielState, perfect_information: bool) -> None:
        self.spiel_state = spiel_state
        self.perfect_information = perfect_information

    @property
    def state(self) -> State:
        contract: State = self.spiel_state.sengoku_state
        return contract

    def play(self, action: Any) -> list[Event]:
        contract = self.state
        self.spiel_state.apply_action(contract.game.action_to_int(contract, action))
        return []

    def concede(self, seat: int, reason: str) -> list[Event]:
        match = self.spiel_state._match
        if self.perfect_information:
            told = match.state.concede(seat, reason)
            match.reset()
            return told
        return match.concede(seat, reason)


class _Match:
    """The contract state of one OpenSpiel state, with the events each seat has been told.

    OpenSpiel clones a Python state by deep-copying its attributes: this holder makes that a
    cheap contract ``clone()``, and pickling (serialization) the contract's ``to_json``.
    ``told`` caches, per seat, a digest of the events that seat was told (events looked at,
    events told, SHA-256 chained over those told), extended only by the events added since.

    The events are told late where ``deferred`` (the states OpenSpiel makes for a new
    episode, a loaded position or record, and their clones, in a game with hidden
    information): the state played is muted (``State.mute``: the same rules, no events
    built), and the actions played are kept instead; :attr:`events`, read only for an
    information-state string, a resampled world or a serialization, first plays them on the
    *scribe*, an unmuted clone of the state taken before the first of them, and keeps what
    it tells. Play that never reads them (random play, rollouts, learners reading
    observations) builds no event and keeps none: building them was a third of a Gunshi
    ply, and keeping a game's worth of them (dicts the collector walks again and again)
    about as much again (docs/interop.md, issue 40, thirteenth part). A resampled world is
    not deferred: IS-MCTS asks its information-state string after every action.
    """

    __slots__ = (
        "_state",
        "lag",
        "keeps_events",
        "_events",
        "pending",
        "scribe",
        "legal",
        "actions",
        "player",
        "told",
        "views",
        "shadow",
    )

    def __init__(
        self,
        state: State,
        events: list[Event],
        told: dict[int, tuple[int, int, str]] | None = None,
        deferred: bool = False,
    ) -> None:
        self._state = state
        #: The integers played on :attr:`shadow` and not yet on the contract state, in order
        #: (a game with native play: the state is brought up to date when first read).
        self.lag: list[int] = []
        #: Whether the events of a ply are kept (hidden information: the information-state
        #: strings and resampled worlds read them); set with the first action of the lag.
        self.keeps_events = True
        #: The events told so far, up to the scribe's position (all of them where nothing
        #: is pending).
        self._events = events
        #: The actions played since the scribe's position, in order, where the events are
        #: deferred (the state is then muted); None where every apply's events are kept.
        self.pending: list[Any] | None = None
        #: An unmuted state at the position of the first pending action (or the current one
        #: where none is pending); None until the first action of a deferred match.
        self.scribe: State | None = None
        if deferred:
            state.mute()
            self.pending = []
        self.told: dict[int, tuple[int, int, str]] = dict(told or {})
        #: The legal action integers of the current position (reset by apply).
        self.legal: list[int] | None = None
        #: The legal actions, ``actions[i]`` the one of ``legal[i]``, where the game's
        #: integers need no state (``_Context.action_int``; else None). Reset with ``legal``.
        self.actions: list[Any] | None = None
        #: OpenSpiel's current player of the current position (reset by apply): it asks
        #: several times a ply.
        self.player: int | None = None
        #: seat (None: spectator) -> its view, for the current position (reset by apply).
        self.views: dict[int | None, dict[str, Any]] = {}
        #: The game's native match at the state's position (``_Context.native``), dealt with
        #: the state or made from it when first needed, then played along (an action is an
        #: integer to it, a microsecond): the core lists the legal integers and encodes the
        #: observation tensors; None until then, and again where the position changes
        #: otherwise (a concession).
        self.shadow: NativeMatch | None = None

    @property
    def state(self) -> State:
        """The contract state, brought up to date with the native match where it lags."""
        if self.lag:
            self._catch_up()
        return self._state

    def _catch_up(self) -> None:
        """Play the lagging integers on the contract state as ``_apply_action`` plays an
        action there (the events kept, or the actions kept for the scribe, alike)."""
        lag, self.lag = self.lag, []
        state = self._state
        to_action = state.game.int_to_action
        pending = self.pending
        for number in lag:
            played = to_action(state, number)
            if pending is None:
                events = state.apply(played)
                if self.keeps_events:
                    self._events.extend(events)
            else:
                if self.scribe is None:
                    self.scribe = state.clone()  # before the first action: a clone is unmuted
                state.apply(played)
                pending.append(played)

    @property
    def events(self) -> list[Event]:
        """Every event told so far, in order (the pending actions told first)."""
        if self.lag:
            self._catch_up()
        pending = self.pending
        if pending:
            scribe = self.scribe
            assert scribe is not None  # taken before the first pending action
            events = self._events
            for action in pending:
                events.extend(scribe.apply(action))
            pending.clear()
        return self._events

    def concede(self, seat: int, reason: str) -> list[Event]:
        """``state.concede(seat, reason)``, its events kept (told after the pending ones)."""
        events = self.events  # the pending actions told first, in order
        told = self.state.concede(seat, reason)
        events.extend(told)
        self.scribe = None  # behind now; the game is over, nothing more is played
        self.reset()
        return told

    def reset(self) -> None:
        """Forget what was cached of the position (it changed)."""
        self.legal = None
        self.actions = None
        self.player = None
        self.views = {}
        self.shadow = None

    def told_to(self, seat: int) -> list[Event]:
        """The events ``seat`` was told, in order."""
        return [e for e in self.events if e.get("audience") is None or seat in e["audience"]]

    def view(self, seat: int | None) -> dict[str, Any]:
        """``view(seat)`` of the current position, built once per position and seat."""
        view = self.views.get(seat)
        if view is None:
            view = self.views[seat] = self.state.view(seat)
        return view

    def __deepcopy__(self, memo: dict[int, Any]) -> _Match:
        # The clone is deferred where this match is: its own scribe is taken at its first
        # action (a search's clone that is never played on takes none).
        # The lagging integers are copied, not played: each match brings its own contract
        # state up to date when it is first read (a search's clone may never be).
        clone = _Match(
            self._state.clone(), self._told_so_far(), self.told, self.pending is not None
        )
        clone.lag = list(self.lag)
        clone.keeps_events = self.keeps_events
        # The same position: its legal table and views hold (never changed in place, only
        # replaced), so a search that clones and then asks for them does not rebuild them.
        clone.legal = self.legal
        clone.actions = self.actions
        clone.player = self.player
        clone.views = dict(self.views)
        if self.shadow is not None:
            clone.shadow = self.shadow.clone()
        return clone

    def __getstate__(self) -> dict[str, Any]:
        return {
            "game": self.state.game.name,
            "state": self.state.to_json(),
            "events": self.events,
            "told": self.told,
            "deferred": self.pending is not None,
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__init__(  # type: ignore[misc]
            load_game(data["game"]).state_from_json(data["state"]),
            list(data["events"]),
            data["told"],
            bool(data.get("deferred", False)),
        )

    def _told_so_far(self) -> list[Event]:
        """The events told up to the contract state's position (the pending actions told
        first, the lagging integers not played)."""
        pending = self.pending
        if pending:
            scribe = self.scribe
            assert scribe is not None  # taken before the first pending action
            for action in pending:
                self._events.extend(scribe.apply(action))
            pending.clear()
        return list(self._events)

    def native_match(self, native: NativePlay) -> NativeMatch:
        """:attr:`shadow`, made from the state where there is none yet."""
        shadow = self.shadow
        if shadow is None:
            shadow = self.shadow = native.load(self.state)
        return shadow

    def legal_ints(self, ctx: _Context) -> list[int]:
        """The legal integers of the position, made once (with the actions beside them where
        ``ctx.action_int`` or ``ctx.with_ints`` is set; by the native match played along
        where the game has native play, the action played then being ``int_to_action`` of
        its integer, checked by the contract): never changed in place."""
        ints = self.legal
        if ints is None:
            native = ctx.native
            if native is not None:
                ints = self.legal = self.native_match(native).legal_ints()
                return ints
            action_int = ctx.action_int
            if action_int is not None:
                actions = self.actions = self.state.legal_actions()
                ints = self.legal = list(map(action_int, actions))
            elif ctx.with_ints is not None:
                self.actions, ints = ctx.with_ints(self.state)
                self.legal = ints
            else:
                ints = self.legal = ctx.game.legal_action_ints(self.state)
        return ints

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


def _plays(match: NativeMatch, action: int) -> bool:
    """Play ``action`` on a native match: whether it was legal (nothing changed if not; a
    core answers an illegal integer with False or a ValueError)."""
    try:
        return match.apply(action) is not False
    except ValueError:
        return False


class SengokuSpielState(pyspiel.State):  # type: ignore[misc]
    """One OpenSpiel state wrapping one contract state.

    In a stochastic configuration the first :data:`CHANCE_NODES` decisions are chance's:
    the bytes of the Sengoku seed. The contract state exists once they are drawn (in a
    deterministic configuration: on first use, with seed 0).
    """

    def __init__(self, game: SengokuSpielGame) -> None:
        super().__init__(game)
        self._ctx = game.context
        #: The seed bytes drawn so far, while the deal is being drawn; None once it is made
        #: (or in a deterministic configuration).
        self._dealing: list[int] | None = [] if game.stochastic else None
        self._lazy: _Match | None = None

    @property
    def _match(self) -> _Match:
        if self._lazy is None:
            if self._dealing is not None:
                raise SengokuError(
                    f"the deal is not drawn yet: {CHANCE_NODES - len(self._dealing)} chance "
                    "outcome(s) (the seed's bytes) to apply first"
                )
            ctx = self._ctx
            self._lazy = _Match(
                ctx.game.new_state(seed=0, **ctx.options), [], None, not ctx.perfect_information
            )
        return self._lazy

    @_match.setter
    def _match(self, match: _Match) -> None:
        self._lazy = match
        self._dealing = None

    @property
    def sengoku_state(self) -> State:
        """The contract state (read it, never change it behind OpenSpiel's back)."""
        return self._match.state

    # ------------------------------------------------------------------ the State API
    def current_player(self) -> int:
        if self._dealing is not None:
            return int(pyspiel.PlayerId.CHANCE)
        match = self._lazy or self._match
        player = match.player
        if player is None:
            shadow = match.shadow
            seat = shadow.current_player if shadow is not None else match.state.current_player
            player = match.player = pyspiel.PlayerId.TERMINAL if seat == TERMINAL else seat
        return player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_UNIFORM) if self._dealing is not None else []

    def legal_actions(self, player: int | None = None) -> list[int]:
        """``pyspiel.State.legal_actions`` answered here for the player to act, without the
        round trip through C++ (OpenSpiel's would call back into :meth:`_legal_actions` and
        copy the list into a C++ vector and out again): the same list, a new one each call.
        Asked for another player, OpenSpiel answers as it does; C++ callers (OpenSpiel's own
        algorithms) still go through OpenSpiel, to the same answer."""
        if player is not None and player != self.current_player():
            return pyspiel.State.legal_actions(self, player)  # type: ignore[no-any-return]
        if self._dealing is not None:  # a chance node: the seed bytes
            return list(range(CHANCE_OUTCOMES))
        match = self._lazy or self._match
        if self.current_player() == pyspiel.PlayerId.TERMINAL:
            return []
        ints = match.legal
        if ints is None:
            ints = match.legal_ints(self._ctx)
        return ints[:]

    def _legal_actions(self, player: int) -> list[int]:
        match = self._lazy or self._match
        if player != self.current_player():
            return []
        ints = match.legal
        if ints is None:  # once per position: OpenSpiel may ask several times
            ints = match.legal_ints(self._ctx)
        return ints  # pybind11 copies it into a C++ vector: the cache cannot be changed

    def _apply_action(self, action: int) -> None:
        dealing = self._dealing
        if dealing is not None:
            if not 0 <= action < CHANCE_OUTCOMES:
                raise SengokuError(f"a chance outcome is a seed byte 0..255, not {action}")
            dealing.append(action)
            if len(dealing) == CHANCE_NODES:
                ctx = self._ctx
                seed = int.from_bytes(bytes(dealing), "big")
                match = _Match(
                    ctx.game.new_state(seed=seed, **ctx.options),
                    [],
                    None,
                    not ctx.perfect_information,
                )
                if ctx.native is not None:  # dealt by the core too (cheaper than a load)
                    match.shadow = ctx.native.deal(seed)
                self._match = match
            return
        match = self._lazy or self._match
        native = self._ctx.native
        if native is not None and _plays(match.native_match(native), action):
            # Played by the core; the contract state follows when it is first read
            # (_Match.lag): random play, rollouts and observations never read it.
            match.lag.append(action)
            match.keeps_events = not self._ctx.perfect_information
            match.legal = None
            match.actions = None
            match.player = None
            match.views = {}
            return
        state = match.state
        played = None
        actions = match.actions
        if actions is not None:  # the legal actions kept: the one played read back
            legal = match.legal
            assert legal is not None  # kept together
            i = bisect_left(legal, action)
            if i < len(legal) and legal[i] == action:
                played = actions[i]
        if played is None:  # not kept, or not legal: the contract refuses it as before
            played = self._ctx.game.int_to_action(state, action)
        pending = match.pending
        if pending is None:
            events = state.apply(played)
            if not self._ctx.perfect_information:
                match._events.extend(events)
        else:  # deferred (_Match): the state is muted, the action kept to be told later
            if match.scribe is None:
                match.scribe = state.clone()  # before the first action: a clone is unmuted
            state.apply(played)
            pending.append(played)
        match.legal = None
        match.actions = None
        match.player = None
        match.views = {}
        if native is not None:  # the core refused what the contract took: they disagree
            raise SengokuError(
                f"{self._ctx.game.name}: the native core refused action {action}, which the "
                "contract played (please report this)"
            )

    def _action_to_string(self, player: int, action: int) -> str:
        if self._dealing is not None:
            return f"seed byte {action}"
        try:
            return str(self._ctx.game.int_to_action(self._match.state, action))
        except (SengokuError, ValueError):
            return f"#{action}"

    def is_terminal(self) -> bool:
        if self._dealing is not None:
            return False
        return bool(self.current_player() == pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        if self._dealing is not None:
            return [0.0] * self.num_players()
        native, shadow = self._ctx.native, self._match.shadow
        if native is not None and shadow is not None:
            outcome = native.outcome(shadow)
            return [0.0] * self.num_players() if outcome is None else list(outcome.returns)
        return list(self._match.state.returns())

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> SengokuSpielState:
        """A state ``player_id`` cannot tell from this one: the contract's ``determinize``.

        The world is told only the events ``player_id`` was told; its history keeps the
        player's own actions (the whole history in a perfect-information game) and writes
        ``INVALID_ACTION`` for chance outcomes and other players' actions; its move number
        is this state's.
        """
        game = self.get_game()
        if self._dealing is not None:  # nothing is known yet: any deal will do
            return game.new_initial_state()  # type: ignore[no-any-return]
        seed = int(probability_sampler() * 2**53)
        match = self._match
        world = match.state.determinize(player_id, random.Random(seed))
        perfect = self._ctx.perfect_information
        invalid = int(pyspiel.INVALID_ACTION)
        history = ",".join(
            f"{h.player}:{h.action if perfect or h.player == player_id else invalid}"
            for h in self.full_history()
        )
        text = f"history={history}\nmove_number={self.move_number()}\n__dict__={_EMPTY_DICT}"
        resampled: SengokuSpielState = game.deserialize_state(text)
        told = match.told_to(player_id)
        count, digest = match.digest_for(player_id)
        resampled._match = _Match(world, told, {player_id: (len(told), count, digest)})
        return resampled

    def __str__(self) -> str:
        if self._dealing is not None:
            return f"(drawing the deal: {len(self._dealing)} of {CHANCE_NODES} seed bytes)"
        return str(self._match.state)


#: A pickled empty ``__dict__``, base64: a deserialized state's Python side, set afterwards.
_EMPTY_DICT = base64.b64encode(pickle.dumps({})).decode("ascii")


def _view_of(state: SengokuSpielState, seat: int | None) -> dict[str, Any] | None:
    """``view(seat)``; None while the deal is being drawn (there is no position yet)."""
    if state._dealing is not None:
        return None
    return state._match.view(seat)


def _dealing_text(state: SengokuSpielState) -> str:
    assert state._dealing is not None
    return f"drawing the deal: {len(state._dealing)} of {CHANCE_NODES} seed bytes drawn"


class _ViewObserver:
    """OpenSpiel's observer protocol over ``view(player)`` (or ``view(None)``: public only)."""

    def __init__(self, game: SengokuSpielGame, public_only: bool) -> None:
        self.encoder = game.encoder
        self.public_only = public_only
        #: Whether the encoder has a snapshot of its own (cheaper than the view).
        self._snapshots = type(self.encoder).capture is not Encoder.capture
        #: Its kept capture (``capturer_of``: Gunshi's reuses the parts of its last snapshots
        #: that did not change). What it keeps is the views of the players this observer was
        #: set from, which its caller may ask for anyway.
        self._capture = capturer_of(self.encoder)
        #: The game's native matches, where it has them: the tensor is then the core's.
        self._native = game.context.native
        shape = self.encoder.shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: SengokuSpielState, player: int) -> None:
        seat = None if self.public_only else player
        if state._dealing is not None:  # while the deal is drawn: all zeros
            self.tensor.fill(0.0)
            return
        match = state._match
        native = self._native
        if native is not None:  # the core encodes, from the match played along
            native.observe_into(match.native_match(native), seat, self.tensor)
            return
        self.tensor.fill(0.0)
        source = match.views.get(seat)
        if source is None:
            # The encoder's snapshot where it has a cheaper one than the view (Gungi's: the
            # view's FEN, names and dicts cost several times the planes); else the view,
            # kept for the position's strings.
            if self._snapshots:
                source = self._capture(match.state, seat)
            else:
                source = match.view(seat)
        self.encoder.encode_into(source, seat, self.dict["observation"])

    def string_from(self, state: SengokuSpielState, player: int) -> str:
        view = _view_of(state, None if self.public_only else player)
        return _dealing_text(state) if view is None else canonical_json(view)


class _InfoStateObserver:
    """Perfect recall: what the player was told so far, then what it sees now (strings only).

    For hidden-information games the history is the chained SHA-256 of the events addressed to
    the player (a constant-size key, so long games do not pay for their whole history on
    every call); for perfect-information games it is the action history.
    """

    def __init__(self, game: SengokuSpielGame) -> None:
        self.perfect_information = game.sengoku_game.traits(
            **game.sengoku_options
        ).perfect_information
        self.tensor = None
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: SengokuSpielState, player: int) -> None:
        raise SengokuError("Sengoku games provide information-state strings, not tensors")

    def string_from(self, state: SengokuSpielState, player: int) -> str:
        seen = _view_of(state, player)
        if seen is None:
            return _dealing_text(state)
        view = canonical_json(seen)
        if self.perfect_information:
            return " ".join(map(str, state.history())) + "\n" + view
        count, digest = state._match.digest_for(player)
        return f"told {count} events, sha256 {digest}\n{view}"


__all__ = [
    "CHANCE_NODES",
    "CHANCE_OUTCOMES",
    "NONE_PARAM",
    "PREFIX",
    "SengokuSpielGame",
    "SengokuSpielState",
    "load",
    "register",
    "short_name",
]
