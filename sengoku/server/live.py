"""A match in memory (``Live``) and its seats: plain data every part of the server shares.

The collaborators of ``MatchService`` (seats, turns, offers, persistence, broadcast, AI turns)
all work on a ``Live``; this module holds it and the small pure helpers around it, and imports
no web framework and no storage.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import traceback
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar

from sengoku.core.describe import ActionDescription
from sengoku.core.game import Game, Option, SengokuError, State
from sengoku.core.game_type import GameType
from sengoku.core.record import GameRecord
from sengoku.server.clocks import Clocks, ClockSpec
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_
from sengoku.server.wire import encode

log = logging.getLogger("sengoku.server")

LIVE_STATUSES = ["waiting", "active"]
DONE_STATUSES = ["finished", "aborted", "closed", "archived"]
#: The size of the seeds the server draws.
SEED_BITS = 128
#: Each legal action's JSON text, by (id of its description, notation, short form), with
#: the description it was made from (``Live.legal_text``), in two generations: when the
#: newer holds ``FRAGMENTS_MAX``, it becomes the older and the older is dropped; a part found
#: in the older moves back to the newer. So the parts in use stay (about 500 bytes each).
_Fragments = dict[tuple[int, str, str | None], tuple[ActionDescription, str]]
_FRAGMENTS: list[_Fragments] = [{}, {}]
FRAGMENTS_MAX = 30_000
#: The AI level that takes the seat of a player who leaves a game of three or more players
#: (resigns, runs out of time, or is gone past ``claim_after``), unless the match's creator
#: chose another (``replacement_level``; docs/api.md, *Players who leave*).
DEFAULT_REPLACEMENT_LEVEL = 2
#: The fewest seats a match has for the computer to replace a player who leaves (with two,
#: the other player wins, as before).
REPLACE_FROM_SEATS = 3


@dataclass
class Seat:
    seat: int
    kind: str  # "human" or "ai"
    name: str
    token_hash: str | None = None
    invite_hash: str | None = None
    agent: str | None = None
    level: int | None = None
    connections: int = 0
    last_seen: float = 0.0

    @property
    def joined(self) -> bool:
        return self.kind == "ai" or self.token_hash is not None

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "joined": self.joined,
            "open": self.kind == "human" and self.token_hash is None and self.invite_hash is None,
            "invited": self.invite_hash is not None,
            "level": self.level,
            "agent": self.agent,
            "connected": self.kind == "ai" or self.connections > 0,
        }


@dataclass(eq=False)
class Subscriber:
    """One WebSocket connection: its seat (None: spectator) and its outgoing queue."""

    seat: int | None
    #: Whether its state messages carry the legal actions' short forms too.
    short: bool = False
    #: Messages to send: JSON text (encoded once for every connection it goes to), a dict
    #: (encoded by the writer), or None (close the connection).
    queue: asyncio.Queue[str | dict[str, Any] | None] = field(default_factory=asyncio.Queue)


@contextmanager
def clocks_until_stored(live: Live, clocks: Clocks | None) -> Iterator[None]:
    """Set ``live.clocks`` to ``clocks`` for the write that stores them (``clock_json(live)``
    reads them there); if the write fails or is cancelled, the match keeps the clocks it had,
    so memory never runs ahead of storage."""
    old = live.clocks
    live.clocks = clocks
    try:
        yield
    except BaseException:
        live.clocks = old
        raise


@dataclass(eq=False)
class Live:
    id: str
    game: Game
    options: dict[str, Any]
    seed: int
    version: int
    status: str
    seats: list[Seat]
    created_at: float
    state: State | None = None
    clock_spec: ClockSpec | None = None
    clocks: Clocks | None = None
    actions: list[str] = field(default_factory=list)
    action_seats: list[int] = field(default_factory=list)
    #: The client's id of each action (``POST .../actions`` ``id``), or None.
    action_ids: list[str | None] = field(default_factory=list)
    concessions: list[dict[str, Any]] = field(default_factory=list)
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    close_reason: str | None = None
    rematch_of: str | None = None
    rematch_id: str | None = None
    takeback: dict[str, Any] | None = None
    rematch_offers: set[int] = field(default_factory=set)
    subscribers: set[Subscriber] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.TimerHandle | None = None
    ai_busy: bool = False
    #: The task thinking for the AI seat to act, if any (a takeback cancels it).
    ai_task: asyncio.Task[None] | None = None
    #: The AI's turn under way: its seat, the ply its next decision in the turn would be, and
    #: the seconds of thinking the turn has used (level 5's time is per turn, shared over the
    #: turn's decisions; the server makes a fresh agent for each decision).
    ai_turn_seat: int | None = None
    ai_turn_next_ply: int = -1
    ai_turn_spent: float = 0.0
    #: The AI's last decision: its seat, the ply it was played at and the wall-clock seconds
    #: it took, queueing included (shown to the players: ``ai_thought`` in a snapshot).
    ai_thought: dict[str, Any] | None = None
    #: Counts every change of the state: an AI answer for an older count is stale.
    turn: int = 0
    #: SHA-256 of the owner token of an all-AI match (it may stop the match).
    owner_hash: str | None = None
    #: When somebody last looked at the match (all-AI matches stop when nobody does).
    watched_at: float = 0.0
    #: The server process that runs its clock timer and AI turns (``matches.node``; several
    #: processes on one database, sengoku/server/cluster.py), as last read or claimed.
    node: str | None = None
    #: Rated at its creation (docs/ratings.md): its end stores its players' rating changes.
    rated: bool = False
    #: The state the caches below were computed for.
    legal_state: State | None = None
    #: Its legal actions with their canonical notation, and by that exact text.
    legal_rows: list[tuple[Any, str]] = field(default_factory=list)
    legal_by_text: dict[str, Any] = field(default_factory=dict)
    #: Their short forms (``format_action`` can be slow: computed only when asked for).
    legal_short: list[str] | None = None
    #: Their descriptions (``Game.describe_actions``: kind, label, text, objects).
    legal_described: list[ActionDescription] | None = None
    #: ``legal_json`` as JSON text, by ``short`` (the state messages splice it in).
    legal_texts: dict[bool, str] = field(default_factory=dict)
    #: Whether every seat sees every action (the game's traits), once known.
    _perfect: bool | None = None
    #: Copies of the replayed state every few actions, for looking back (positions.py).
    kept_positions: dict[int, tuple[int, State]] = field(default_factory=dict)
    #: The AI level that takes a leaving player's seat (None: the match has two seats, and
    #: a player who leaves loses). Stored in the ``match_created`` event.
    replacement_level: int | None = None
    #: The players who left, in order: ``{"seat", "reason", "ply", "level", "returned"}``
    #: (the computer played the seat from ``ply`` on, until the player came back at ply
    #: ``returned``, or to the end: None). Read from the ``seat_left`` and
    #: ``seat_returned`` events (``follow_seats``).
    left: list[dict[str, Any]] = field(default_factory=list)

    def replaced(self, seat: int) -> dict[str, Any] | None:
        """The ``left`` entry of ``seat`` while the computer plays it, else None."""
        for entry in reversed(self.left):
            if entry["seat"] == seat:
                return entry if entry["returned"] is None else None
        return None

    def legal(self) -> list[tuple[Any, str]]:
        """The legal actions of the current state, computed once per state."""
        state = self.state
        if state is None:
            return []
        if self.legal_state is not state:
            self.legal_rows = [(a, str(a)) for a in state.legal_actions()]
            # Exact canonical text only: other spellings go through the game's parse_action.
            self.legal_by_text = {t: a for a, t in self.legal_rows}
            self.legal_short = None
            self.legal_described = None
            self.legal_texts = {}
            self.legal_state = state
        return self.legal_rows

    def ratings(self) -> dict[str, Any] | None:
        """A rated match's rating changes, once stored with its result: the payload of its
        ``ratings`` event (sengoku/server/ratings.py), the last of its events but chat."""
        if not self.rated or self.status != "finished":
            return None
        for entry in reversed(self.events):
            if entry["event"].get("type") == "ratings":
                return {k: v for k, v in entry["event"].items() if k not in ("type", "message")}
        return None

    @property
    def perfect_information(self) -> bool:
        """Whether every seat sees every action (then played moves carry their description)."""
        cached = self._perfect
        if cached is None:
            cached = self._perfect = self.game.traits(**self.options).perfect_information
        return cached

    def _descriptions(self) -> list[ActionDescription]:
        """The legal actions' descriptions (``Game.describe_actions``), once per position."""
        rows = self.legal()
        if self.legal_described is None:
            assert self.state is not None
            self.legal_described = self.game.describe_actions(self.state, [a for a, _t in rows])
        return self.legal_described

    def _shorts(self) -> list[str]:
        """The legal actions' short forms (``format_action``), once per position."""
        rows = self.legal()
        if self.legal_short is None:
            assert self.state is not None
            self.legal_short = self.game.format_actions(self.state, [a for a, _t in rows])
        return self.legal_short

    def legal_json(self, short: bool) -> list[dict[str, Any]]:
        """Each legal action as the client gets it: its canonical notation (``action``), its
        description as data (``kind``, ``label``, ``text`` and the pieces, cards, tiles and
        cells it involves: the client never parses notation) and, when ``short``, the short
        form players type."""
        rows = self.legal()
        if self.state is None:
            return []
        described = [d.to_json() for d in self._descriptions()]
        if not short:
            return [{**d, "action": t} for (_a, t), d in zip(rows, described, strict=True)]
        shorts = self._shorts()
        return [
            {**d, "action": t, "short": sh}
            for (_a, t), sh, d in zip(rows, shorts, described, strict=True)
        ]

    def legal_text(self, short: bool) -> str:
        """``legal_json(short)`` as JSON text, made once per position: each action's part is
        kept while its game hands out the same description object again (Gungi and
        Gunkimono keep theirs), so a position mostly joins parts made before."""
        rows = self.legal()
        text = self.legal_texts.get(short)
        if text is not None:
            return text
        state = self.state
        if state is None or not rows:
            text = self.legal_texts[short] = "[]"
            return text
        described = self._descriptions()
        shorts: list[str | None] = list(self._shorts()) if short else [None] * len(rows)
        parts = []
        newer, older = _FRAGMENTS
        for (_a, notation), d, sh in zip(rows, described, shorts, strict=True):
            key = (id(d), notation, sh)
            kept = newer.get(key)
            if kept is None or kept[0] is not d:
                kept = older.get(key)
                if kept is None or kept[0] is not d:
                    item = {**d.to_json(), "action": notation}
                    if sh is not None:
                        item["short"] = sh
                    # the description is held with its text: its id is not reused meanwhile
                    kept = (d, encode(item))
                if len(newer) >= FRAGMENTS_MAX:
                    _FRAGMENTS[:] = newer, older = {}, newer
                newer[key] = kept
            parts.append(kept[1])
        text = self.legal_texts[short] = "[" + ",".join(parts) + "]"
        return text

    @property
    def ply(self) -> int:
        return len(self.actions)

    @property
    def to_act(self) -> int:
        if self.status != "active" or self.state is None:
            return -1
        return self.state.current_player

    def record(self) -> GameRecord:
        return GameRecord(
            game=self.game.name,
            version=self.version,
            options=dict(self.options),
            seed=self.seed,
            players=[s.name for s in self.seats],
            actions=list(self.actions),
            concessions=[dict(c) for c in self.concessions],
            result=self.result,
        )

    def can_abort(self) -> bool:
        """Whether the match may still be aborted: waiting, or not every human has moved."""
        if self.status == "waiting":
            return True
        if self.status != "active":
            return False
        humans = {s.seat for s in self.seats if s.kind == "human"}
        return not humans.issubset(set(self.action_seats))


def follow_seats(live: Live, entries: list[dict[str, Any]]) -> None:
    """Who left and who came back, and the level that replaces a player, as the stored
    events tell them (a process that did not make the change learns it from its event)."""
    for e in entries:
        ev = e["event"]
        kind = ev.get("type")
        if kind == "match_created" and ev.get("replacement_level") is not None:
            live.replacement_level = int(ev["replacement_level"])
        elif kind == "seat_left":
            live.left.append(
                {
                    "seat": int(ev["seat"]),
                    "reason": str(ev["reason"]),
                    "ply": int(ev["ply"]),
                    "level": int(ev["level"]),
                    "returned": None,
                }
            )
        elif kind == "seat_returned":
            entry = live.replaced(int(ev["seat"]))
            if entry is not None:
                entry["returned"] = int(ev["ply"])


def visible(audience: list[int] | None, seat: int | None) -> bool:
    """Whether an event for ``audience`` (None: everybody) may be shown to ``seat``."""
    return audience is None or (seat is not None and seat in audience)


def engine_fault(live: Live, what: str, exc: BaseException) -> ApiError:
    """The error for an unexpected engine exception (a bug): logged with its type and where it
    was raised, never its message or values (they may name hidden cards); the client gets a
    409 that names no secret, and the caller has changed nothing."""
    where = "".join(traceback.format_tb(exc.__traceback__, limit=-3)).strip()
    log.error(
        "match %s: the engine failed during %s (%s)\n%s", live.id, what, type(exc).__name__, where
    )
    return ApiError(
        409,
        "engine_error",
        N_(
            "the game engine could not process %(what)s here (%(error)s); the match is "
            "unchanged. Please report this match id"
        ),
        params={"what": what, "error": type(exc).__name__},
    )


def new_seed() -> int:
    """A secret seed: 128 bits from ``secrets`` (no player can guess or search it)."""
    return secrets.randbits(SEED_BITS)


def replay_problem(exc: Exception) -> str:
    """Why a stored match does not replay, for everyone's eyes: the move number only, never
    the engine's message (it may quote a secret action)."""
    found = re.search(r"move (\d+)", str(exc))
    where = f" at move {found.group(1)}" if found else ""
    return f"this match no longer replays on this server's rules{where}"


class MissingGame(Game):
    """Stands in for a game this server cannot load, so its stored matches stay readable."""

    options: ClassVar[Mapping[str, Option]] = {}

    def __init__(self, name: str) -> None:
        # Its own facts (no shared class-level ones): the name the stored matches give.
        self.game_type = GameType(  # type: ignore[misc]
            name=name.lower() or "unknown",
            title=f"{name} (not on this server)",
            version=-1,
            min_players=0,
            max_players=0,
        )
        self.name = name  # type: ignore[misc]
        self.version = -1  # type: ignore[misc]

    def new_state(self, seed: int = 0, **options: Any) -> State:
        raise SengokuError(f"unknown game {self.name!r}")

    def num_distinct_actions(self, **options: Any) -> int:
        return 0

    def action_to_int(self, state: State, action: Any) -> int:
        raise SengokuError(f"unknown game {self.name!r}")

    def int_to_action(self, state: State, n: int) -> Any:
        raise SengokuError(f"unknown game {self.name!r}")

    def max_game_length(self, **options: Any) -> int:
        return 0

    def state_from_json(self, data: Any) -> State:
        raise SengokuError(f"unknown game {self.name!r}")
