"""The contract every Sengoku game keeps.

A :class:`Game` is the static description of a game (name, rules version, player range,
options, notation, integer action mapping). A :class:`State` is one position of one match,
advanced in place by :meth:`State.apply`. Agents, the server, the CLI and the research
adapters know games only through these two classes, :class:`Outcome` and events.

The shape follows OpenSpiel's ``State`` API and python-chess's value objects:

* one action is one decision of one seat; ``str(action)`` is its canonical notation;
* ``apply`` validates first and changes nothing when it refuses (:class:`IllegalAction`);
* ``view(seat)`` is the only thing a player is ever shown;
* ``determinize(seat, rng)`` resamples what that seat cannot see, from what it can.
"""

from __future__ import annotations

import json
import operator
import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, SupportsIndex

from typing_extensions import TypeVar

from sengoku.core.describe import PERMISSIVE_VIEW_SCHEMA, ActionDescription, generic_description

# Events are built every ply: their module is compiled (mypyc), this one is not. Both names
# stay importable from here, where the contract names them.
from sengoku.core.events import Event as Event
from sengoku.core.events import event as event
from sengoku.core.features import GENERIC_FEATURES, Features
from sengoku.core.game_type import GameType
from sengoku.core.observation import Encoder
from sengoku.core.sentence import Said, Sentence, say
from sengoku.core.traits import Traits

if TYPE_CHECKING:  # the batch and native play modules import this one
    from sengoku.core.batch import GameBatch
    from sengoku.core.native_play import NativePlay

#: An action is a frozen, hashable value object whose ``str`` is its canonical notation.
Action = Hashable
#: The action type of a game's states: a game declares ``class MyState(State[MyAction])``
#: and its states' ``legal_actions`` and ``apply`` are typed with it (no ``type: ignore``).
#: A bare ``State`` (code that plays any game) is ``State[Any]``.
ActionT = TypeVar("ActionT", bound=Hashable, default=Any)

#: The seat index used for "nobody is to act": the game is over.
TERMINAL = -1


class SengokuError(ValueError):
    """Base class of every error a user of the library can cause.

    Raised with a :class:`~sengoku.core.sentence.Sentence` (``IllegalAction(say(...))``), its
    text is the English sentence and ``say`` keeps the parts a reader's language translates
    (docs/i18n.md); raised with plain text, ``say`` is None."""

    say: Sentence | None = None

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], Sentence):
            self.say = args[0]
            args = (str(args[0]), *args[1:])
        elif args and isinstance(args[0], Said):
            self.say = args[0].sentence
        super().__init__(*args)


class IllegalAction(SengokuError):
    """An action that the rules do not allow here. The message names the rule."""


class InvalidOption(SengokuError):
    """An unknown option, or a value the option does not allow."""


class ParseError(SengokuError):
    """Text that names no legal action, or several (the message lists the candidates)."""


class NotSupported(SengokuError):
    """An optional ability (a FEN, a fast perft, ...) that this game does not declare."""


def action_number(n: object, count: int) -> int:
    """``n`` checked as an action number of a game with ``count`` of them (``int_to_action``):
    an integer (a NumPy one too), not a bool, in ``0..count-1``; else :class:`ParseError`
    naming the field, never a TypeError or IndexError from deeper down."""
    if type(n) is int and 0 <= n < count:  # the common case, without the protocol check
        return n
    if isinstance(n, bool):
        raise ParseError(f"action number: an integer in 0..{count - 1}, not the bool {n!r}")
    if not isinstance(n, SupportsIndex):  # ints and NumPy integers; floats and text refuse
        raise ParseError(
            f"action number: an integer in 0..{count - 1}, not {type(n).__name__} {n!r}"
        )
    value = operator.index(n)
    if not 0 <= value < count:
        raise ParseError(f"action number: {value} is outside 0..{count - 1}")
    return value


def package_file(package: str, *parts: str) -> Path:
    """A file shipped in ``package``'s folder (package data), found through
    :mod:`importlib.resources`: a game's trained weights are ``data/weights/<file>`` of its
    own package. An installation on a file system (pip's, the checkout's) is supported; a
    package imported from a zip file raises :class:`NotSupported`, naming it."""
    found: Any = resources.files(package)
    for part in parts:
        found = found / part
    if not isinstance(found, Path):
        raise NotSupported(f"{package}: its data files must be on a file system, not {found!r}")
    return found


@dataclass(frozen=True)
class Option:
    """One documented option of a game.

    ``allowed`` is either a tuple of the values allowed, or a ``range`` for integers.
    """

    name: str
    default: Any
    allowed: tuple[Any, ...] | range
    doc: str

    def check(self, value: Any) -> Any:
        if isinstance(self.allowed, range):
            ok = isinstance(value, int) and not isinstance(value, bool) and value in self.allowed
        else:
            ok = value in self.allowed and type(value) in {type(v) for v in self.allowed}
        if not ok:
            raise InvalidOption(
                f"option {self.name!r}: {value!r} is not allowed; allowed: {self.describe_allowed()}"
            )
        return value

    def describe_allowed(self) -> str:
        if isinstance(self.allowed, range):
            return f"integers {self.allowed.start}..{self.allowed.stop - 1}"
        return ", ".join(repr(v) for v in self.allowed)

    def to_json(self) -> dict[str, Any]:
        allowed: Any = (
            {"min": self.allowed.start, "max": self.allowed.stop - 1}
            if isinstance(self.allowed, range)
            else list(self.allowed)
        )
        return {"name": self.name, "default": self.default, "allowed": allowed, "doc": self.doc}


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``reason`` is a short code (``marshal_captured``, ``mate``, ``resignation``, ``timeout``,
    ``repetition``, ``length_limit``, ...). ``winners`` lists seats (empty: no winner).
    ``scores`` are the game's own points (VP where it counts VP, else 1 win / 0 loss).
    ``returns`` are utilities in [-1, 1]: two players +1 / -1 / 0; more players by rank.
    """

    reason: str
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    returns: tuple[float, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "returns": list(self.returns),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            reason=str(data["reason"]),
            winners=tuple(int(s) for s in data["winners"]),
            scores=tuple(float(s) for s in data["scores"]),
            returns=tuple(float(r) for r in data["returns"]),
        )

    @classmethod
    def win(cls, winner: int, num_players: int, reason: str) -> Outcome:
        """One seat wins, every other seat loses."""
        scores = tuple(1.0 if s == winner else 0.0 for s in range(num_players))
        returns = tuple(1.0 if s == winner else -1.0 for s in range(num_players))
        return cls(reason, (winner,), scores, returns)

    @classmethod
    def no_winner(
        cls, num_players: int, reason: str, scores: Sequence[float] | None = None
    ) -> Outcome:
        """Nobody wins: every return is 0; ``scores`` default to 0 (a game's VP if given)."""
        zeros = tuple(0.0 for _ in range(num_players))
        given = zeros if scores is None else tuple(float(x) for x in scores)
        return cls(reason, (), given, zeros)

    @classmethod
    def loss(
        cls, loser: int, num_players: int, reason: str, scores: Sequence[float] | None = None
    ) -> Outcome:
        """One seat loses (a concession or a timeout); every other seat shares the win.

        Two players: the other seat wins (+1 / -1). One player (a solo game): no winner and
        a return of -1. Three or more: the loser is ranked last (-1) and the others share
        first place, each ``+1 / (n - 1)`` (the same as :meth:`ranked` with the others tied),
        so the returns still sum to 0 and no seat is ranked by an unfinished position.
        ``scores`` default to 1 for the winners and 0 for the loser (a game's VP if given).
        """
        if not 0 <= loser < num_players:
            raise SengokuError(f"seat {loser!r} is not in this game (seats 0..{num_players - 1})")
        others = tuple(s for s in range(num_players) if s != loser)
        default = tuple(0.0 if s == loser else 1.0 for s in range(num_players))
        given = default if scores is None else tuple(float(x) for x in scores)
        if num_players == 1:
            return cls(reason, (), given, (-1.0,))
        share = 1.0 / (num_players - 1)
        returns = tuple(-1.0 if s == loser else share for s in range(num_players))
        return cls(reason, others, given, returns)

    @classmethod
    def ranked(cls, scores: Sequence[float], reason: str, ranks: Sequence[int]) -> Outcome:
        """Multi-player result by rank (0 = best; equal ranks share).

        Returns spread linearly from +1 (best) to -1 (worst); tied seats share the mean.
        """
        n = len(scores)
        order = sorted(range(n), key=lambda s: ranks[s])
        slot_value = [1.0 - 2.0 * i / (n - 1) for i in range(n)] if n > 1 else [0.0]
        returns = [0.0] * n
        i = 0
        while i < n:
            j = i
            while j + 1 < n and ranks[order[j + 1]] == ranks[order[i]]:
                j += 1
            mean = sum(slot_value[i : j + 1]) / (j - i + 1)
            for k in range(i, j + 1):
                returns[order[k]] = mean
            i = j + 1
        best = min(ranks)
        winners = tuple(s for s in range(n) if ranks[s] == best)
        return cls(reason, winners, tuple(float(x) for x in scores), tuple(returns))


class Game(ABC):
    """The static description of one game: everything that does not change during play.

    A game declares its static facts as one :class:`GameType` value (``game_type``: name,
    title, rules version, players range, information, the renderer, the environments and
    presets others read, its ``provides_*`` abilities) and its behaviour as methods. ``name``
    and ``version``, the identity every record carries, are read from it when the class is
    made, so ``game.name`` stays the registry's key.
    """

    #: The game's static facts (see :class:`GameType`).
    game_type: ClassVar[GameType]
    #: ``game_type.name``: the registry's key (set from ``game_type``).
    name: ClassVar[str]
    #: ``game_type.version``: the rules version records carry (set from ``game_type``).
    version: ClassVar[int]
    options: ClassVar[Mapping[str, Option]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = cls.__dict__.get("game_type")
        if declared is None:
            return
        if not isinstance(declared, GameType):
            raise TypeError(f"{cls.__name__}.game_type must be a GameType, not {declared!r}")
        cls.name = declared.name
        cls.version = declared.version

    def data_file(self, *parts: str) -> Path:
        """A file the game ships in its ``data/`` folder, beside its game module (trained
        weights under ``data/weights/``): :func:`package_file` of the game's package. The
        agents and trainers find a game's files through it, never by a path into ai."""
        module = sys.modules[type(self).__module__]
        return package_file(module.__package__ or module.__name__, "data", *parts)

    def resolve_options(self, **options: Any) -> dict[str, Any]:
        """All options with defaults filled in; unknown names or bad values raise."""
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            raise InvalidOption(
                f"{self.name}: unknown option(s) {', '.join(map(repr, unknown))}; "
                f"known options: {', '.join(sorted(self.options)) or 'none'}"
            )
        resolved = {}
        for name, opt in self.options.items():
            resolved[name] = opt.check(options[name]) if name in options else opt.default
        return resolved

    @abstractmethod
    def new_state(self, seed: int = 0, **options: Any) -> State:
        """The starting state; ``seed`` drives every shuffle and random draw."""

    @abstractmethod
    def num_distinct_actions(self, **options: Any) -> int:
        """The size of the integer action space."""

    @abstractmethod
    def action_to_int(self, state: State, action: Action) -> int: ...

    @abstractmethod
    def int_to_action(self, state: State, n: int) -> Action: ...

    def legal_action_ints(self, state: State) -> list[int]:
        """``action_to_int`` of each of ``state.legal_actions()``, in that order (the research
        adapters ask for it every ply: a game may answer without making the actions)."""
        action_int = self.action_int
        if action_int is not None:
            return list(map(action_int, state.legal_actions()))
        return [self.action_to_int(state, action) for action in state.legal_actions()]

    #: ``action_to_int`` of a legal action without the state, where the game's integer is the
    #: action's own (Gunshi's ``GunshiAction.to_int``), as a ``staticmethod``; None where it
    #: reads the state. The adapters turn every position's legal list into integers: one
    #: call per action instead of ``action_to_int``'s Python frame and type check (a legal
    #: action is always the game's own type).
    action_int: Callable[[Any], int] | None = None

    #: ``(state.legal_actions(), legal_action_ints(state))`` in one call, as a
    #: ``staticmethod``, where the game has its own ``legal_action_ints`` that reads the
    #: integers off the actions it makes (Gunkimono's stored integers); None elsewhere. The
    #: adapters then keep the legal actions beside their integers, so the action played is
    #: read back by its index instead of being rebuilt by ``int_to_action`` on every step.
    legal_actions_and_ints: Callable[[Any], tuple[list[Any], list[int]]] | None = None

    #: The length guard's limit when it is the same for every option set (each of the four
    #: games): decisions after which the game ends with ``length_limit`` (a guard, not a
    #: rule). The guard reads it (:meth:`State._end_if_too_long`, one attribute read on every
    #: decision) and :meth:`max_game_length` gives it; set it on the game or its class to
    #: change the limit (tests do). None: the limit depends on the options, and the guard asks
    #: ``max_game_length(**options)``, which the game then defines.
    length_limit: int | None = None

    def max_game_length(self, **options: Any) -> int:
        """Decisions after which the game ends with ``length_limit`` (a guard, not a rule):
        :attr:`length_limit`; a game whose limit depends on the options overrides this."""
        if self.length_limit is None:
            raise NotImplementedError(
                f"{type(self).__name__} sets no length_limit and does not define max_game_length"
            )
        return self.length_limit

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> State: ...

    def format_action(self, state: State, action: Action) -> str:
        """The short form a player writes; by default the canonical notation."""
        return str(action)

    def format_actions(self, state: State, actions: Sequence[Action]) -> list[str]:
        """:meth:`format_action` of each of ``actions`` (a whole legal list), in order; games
        whose short forms depend on the whole list override it to work the list out once."""
        return [self.format_action(state, a) for a in actions]

    def parse_action(self, state: State, text: str) -> Action:
        """Accept canonical or short notation naming exactly one legal action."""
        if not isinstance(text, str):
            raise ParseError(f"notation must be text, not {type(text).__name__}")
        wanted = normalize_notation(text)
        legal: list[Action] = state.legal_actions()
        exact = [a for a in legal if normalize_notation(str(a)) == wanted]
        if len(exact) == 1:
            return exact[0]
        short = [a for a in legal if normalize_notation(self.format_action(state, a)) == wanted]
        return pick_one(text, exact or short, legal)

    def render_text(self, state: State, seat: int | None) -> str:
        """A terminal drawing of what ``seat`` may see (``None``: a spectator)."""
        return str(state)

    def from_fen(self, fen: str, **options: Any) -> State:
        """The position a FEN describes (``game_type.provides_fen``); games without a FEN
        raise :class:`NotSupported`."""
        raise NotSupported(f"{self.name} has no FEN (a position notation)")

    def option_from_file(self, option: str, path: str) -> Any:
        """The value of ``option`` (one of ``game_type.file_options``) read from a file the
        user names on their own machine (the command line's ``--cards FILE``); games that
        read none raise :class:`NotSupported`."""
        raise NotSupported(f"{self.name} reads no option from a file (asked for {option!r})")

    def scripted_players(self) -> Mapping[str, Callable[[State, random.Random], Action]]:
        """Named scripted players for self-play reports (``sengoku selfplay --agent NAME``):
        each picks a legal action of the state from a random generator. Default: none."""
        return {}

    def selfplay_figures(self, finals: Sequence[State]) -> dict[str, Any]:
        """The game's own figures for a self-play report over these finished games (its
        milestones); they are added to the generic ones. Default: none."""
        return {}

    def features(self) -> Features:
        """The game's evaluation features for the AI (default: the rules only)."""
        return GENERIC_FEATURES

    def observation_encoder(self, **options: Any) -> Encoder | None:
        """The game's observation encoder for ``options`` (resolved), or None (the default):
        the research adapters then use their generic, lossless encoding of the view."""
        return None

    def batch(self, **options: Any) -> GameBatch:
        """``n`` games with ``options`` stepped together, for research (numpy masks and
        observations; :mod:`sengoku.core.batch`). Default: one contract ``State`` a game; a
        game with a compiled core (``game_type.provides_native_batch``) returns its own,
        with the same numbers."""
        from sengoku.core.batch import ContractBatch

        return ContractBatch(self, **options)

    def native_play(self, **options: Any) -> NativePlay | None:
        """The game's native matches for ``options`` (resolved), which the research adapters
        step instead of contract states where a game's native core is built
        (:mod:`sengoku.core.native_play`: the same numbers at the core's speed). Default:
        None (the adapters step contract states)."""
        return None

    def traits(self, **options: Any) -> Traits:
        """The game type for resolved ``options`` (default: the always-safe description,
        general-sum, with the :class:`GameType`'s ``chance`` and ``perfect_information``)."""
        facts = self.game_type
        return Traits(
            stochastic=facts.chance,
            zero_sum=False,
            perfect_information=facts.perfect_information,
        )

    def describe_action(self, state: State, action: Action) -> ActionDescription:
        """``action``, legal in ``state``, as data for a client (:mod:`sengoku.core.describe`):
        notation, kind, label, sentence and the objects it involves, in the rulebook's terms,
        revealing nothing the seat to act may not see. Default: the notation alone."""
        return generic_description(str(action))

    def describe_actions(self, state: State, actions: Sequence[Action]) -> list[ActionDescription]:
        """:meth:`describe_action` of each of ``actions`` (a whole legal list), in order."""
        return [self.describe_action(state, a) for a in actions]

    def view_schema(self) -> dict[str, Any]:
        """The JSON Schema (draft 2020-12) every ``view(seat)`` of this game satisfies; by
        default a permissive one (any object). Games ship theirs as ``view.schema.json``."""
        schema: dict[str, Any] = json.loads(json.dumps(PERMISSIVE_VIEW_SCHEMA))
        return schema

    def catalog(self, **options: Any) -> dict[str, Any]:
        """The game's objects as a client renders them, from its data files: pieces, units,
        cards or tiles with their names and ability text, keyed by the ids views and action
        descriptions use, for a match with ``options`` (Sashimono's card set is one).
        Default: nothing."""
        return {}

    def describe(self) -> dict[str, Any]:
        """JSON-ready description for listings and the API."""
        facts = self.game_type
        return {
            "name": facts.name,
            "title": facts.title,
            "version": facts.version,
            "min_players": facts.min_players,
            "max_players": facts.max_players,
            "options": [opt.to_json() for opt in self.options.values()],
            "renderer": facts.renderer,
        }


def normalize_notation(text: str) -> str:
    """Case-folded with every run of white space removed."""
    return "".join(text.split()).casefold()


def pick_one(text: str, candidates: Sequence[Action], legal: Sequence[Action]) -> Action:
    """The single candidate, or a ParseError that says why there is not exactly one."""
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        sample = ", ".join(str(a) for a in legal[:12])
        if len(legal) > 12:
            raise ParseError(
                say(
                    "{text} names no legal action; legal here: {sample} (and {more} more)",
                    text=repr(text),
                    sample=sample,
                    more=len(legal) - 12,
                )
            )
        if not legal:
            raise ParseError(say("{text} names no legal action; legal here: none", text=repr(text)))
        raise ParseError(
            say(
                "{text} names no legal action; legal here: {sample}", text=repr(text), sample=sample
            )
        )
    raise ParseError(
        say(
            "{text} is ambiguous; it could mean: {candidates}",
            text=repr(text),
            candidates=", ".join(str(a) for a in candidates),
        )
    )


class State(ABC, Generic[ActionT]):
    """One position of one match, advanced in place by :meth:`apply`.

    Generic over the game's action type (``State[MyMove]``); see :data:`ActionT`.
    """

    game: Game
    options: dict[str, Any]
    num_players: int

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to decide, or ``TERMINAL`` (-1) once the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[ActionT]:
        """The legal actions, in ascending ``action_to_int`` order; empty once terminal."""

    @abstractmethod
    def apply(self, action: ActionT) -> list[Event]:
        """Play ``action``; raise :class:`IllegalAction` (changing nothing) if not legal, with
        :meth:`why_illegal`'s reason."""

    def why_illegal(self, action: ActionT) -> str | None:
        """Why ``action`` is illegal here, naming the rule, or None if it is legal; changes
        nothing. The server and the command line explain a refusal with it, and ``apply``
        refuses with it.

        The default reads :meth:`legal_actions`: the game is over, or the action is not among
        the legal ones (a sample of which is listed). Games with better reasons (the rule a
        move breaks) override it."""
        ended = self.outcome()
        if ended is not None:
            return f"the game is over ({ended.reason}): no action is legal"
        legal = self.legal_actions()
        if any(a is action for a in legal) or action in legal:
            return None
        sample = ", ".join(str(a) for a in legal[:12])
        more = f" (and {len(legal) - 12} more)" if len(legal) > 12 else ""
        return f"{action} is not a legal action here; legal here: {sample or 'none'}{more}"

    def concede(self, seat: int, reason: str = "resignation") -> list[Event]:
        """End the game as a loss for ``seat`` (resignation, surrender, abandonment).

        The same for every game: the outcome is :meth:`Outcome.loss` (see there for one, two
        and more seats) with the game's :meth:`interim_scores`. A seat that is not in the
        game, an empty reason, or a game that is already over raises :class:`IllegalAction`
        and changes nothing, so a game ends exactly once. Games supply only
        :meth:`_end_game` (how they store a result).
        """
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalAction(f"concede: the seat must be an integer, not {seat!r}")
        if not 0 <= seat < self.num_players:
            raise IllegalAction(
                f"concede: seat {seat} is not in this game (seats 0..{self.num_players - 1})"
            )
        if not isinstance(reason, str) or not reason:
            raise IllegalAction(f"concede: the reason must be a non-empty code, not {reason!r}")
        ended = self.outcome()
        if ended is not None:
            raise IllegalAction(f"concede: the game is already over ({ended.reason})")
        result = Outcome.loss(seat, self.num_players, reason, self.interim_scores())
        self._end_game(result)
        return [
            event(
                "game_over",
                None,
                **result.to_json(),
                seat=seat,
                message=f"Seat {seat} concedes ({reason}).",
            )
        ]

    def timeout(self, seat: int) -> list[Event]:
        """``seat`` ran out of time: a :meth:`concede` with the reason ``timeout``."""
        return self.concede(seat, "timeout")

    @property
    def clock_seat(self) -> int | None:
        """The seat whose clock runs now, or None (no clock runs).

        By default the seat to act, unless :attr:`clock_running` is false or the game is over.
        A game whose rules say otherwise (phases without a clock, a clock that runs for the
        seat that is not to act) overrides this and sets ``GameType.provides_clock_rules``.
        """
        if self.is_terminal() or not self.clock_running:
            return None
        return self.current_player

    @property
    def clock_running(self) -> bool:
        """False while the game's rules stop the clocks (default: they always run)."""
        return True

    def perft(self, depth: int) -> int:
        """Leaf count of the move tree at ``depth`` plies, through the contract (games may
        override with a faster count; perft tests pin both)."""
        if depth == 0:
            return 1
        total = 0
        for action in self.legal_actions():
            child = self.clone()
            child.apply(action)
            total += child.perft(depth - 1)
        return total

    def interim_scores(self) -> tuple[float, ...] | None:
        """The game's own points now, for a result that cuts the game short (a concession,
        a timeout, the length limit); ``None`` (the default) means 1 win / 0 loss."""
        return None

    def _end_game(self, result: Outcome) -> None:
        """Make the state terminal with ``result`` (how the game stores it).

        After this, ``is_terminal()`` is true, ``current_player`` is ``TERMINAL``,
        ``legal_actions()`` is empty, ``outcome()`` is ``result`` and ``to_json`` keeps it.
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement _end_game")

    def _end_if_too_long(self, decisions: int) -> list[Event]:
        """Call at the end of ``apply``: past ``max_game_length`` decisions the game ends with
        ``length_limit`` and no winner (a guard, not a rule). Returns the events to add."""
        # The game's fixed limit in one attribute read: no call of max_game_length(**options)
        # on every decision unless the limit depends on the options.
        limit = self.game.length_limit
        if limit is None:
            limit = self.game.max_game_length(**self.options)
        if decisions < limit or self.outcome() is not None:
            return []
        result = Outcome.no_winner(self.num_players, "length_limit", self.interim_scores())
        self._end_game(result)
        return [
            event(
                "game_over",
                None,
                **result.to_json(),
                message="The game reached the length limit (a guard, not a rule): no winner.",
            )
        ]

    def mute(self) -> None:
        """From now on, :meth:`apply` may return no events: for a search, which plays
        thousands of plies and reads none of their sentences. The rules played are exactly
        the same; only the telling is left out. A clone is not muted (it tells again).

        The default does nothing (the events are built and dropped); a game whose events cost
        a large share of a ply overrides it (Gunshi, Sashimono)."""

    @abstractmethod
    def clone(self) -> State[ActionT]: ...

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once terminal, else ``None``."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-ready: exactly what ``seat`` may see (``None``: a spectator)."""

    @abstractmethod
    def determinize(self, seat: int, rng: random.Random) -> State[ActionT]:
        """A full state consistent with ``view(seat)``, hidden parts resampled."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Everything, hidden parts included: for storage, never for a player."""

    def returns(self) -> tuple[float, ...]:
        """Utilities per seat: the outcome's returns once terminal, zeros before."""
        result = self.outcome()
        return result.returns if result else tuple(0.0 for _ in range(self.num_players))

    def __str__(self) -> str:  # pragma: no cover - games override with a board drawing
        return f"<{self.game.name} state, player {self.current_player} to act>"


#: Builds a game (a class, or a function that imports it first).
GameFactory = Callable[[], Game]


class Registry:
    """Game names to factories, imported lazily so a game costs nothing until used.

    ``discover`` (if given) fills the table on first use: :mod:`sengoku.core.registry` reads
    the ``sengoku.games`` entry points with it. :meth:`register` adds a game by hand (tests).
    """

    def __init__(self, discover: Callable[[Registry], None] | None = None) -> None:
        self.factories: dict[str, GameFactory] = {}
        self._cache: dict[str, Game] = {}
        self._discover = discover
        self._discovered = discover is None

    def _ensure(self) -> None:
        if not self._discovered:
            self._discovered = True
            assert self._discover is not None
            self._discover(self)

    def register(self, name: str, factory: GameFactory) -> None:
        self.factories[name] = factory

    def load(self, name: str) -> Game:
        self._ensure()
        key = name.strip().lower()
        if key not in self.factories:
            known = ", ".join(sorted(self.factories)) or (
                "none (is sengoku installed? `pip install -e .` registers its games)"
            )
            raise SengokuError(f"unknown game {name!r}; available: {known}")
        if key not in self._cache:
            self._cache[key] = self.factories[key]()
        return self._cache[key]

    def names(self) -> list[str]:
        self._ensure()
        return sorted(self.factories)
