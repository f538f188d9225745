"""Storage: the tables, the engine, and the few queries the server needs.

Only portable SQL (SQLAlchemy Core, JSON stored as text), so any SQLAlchemy URL works:
SQLite by default, PostgreSQL included. The schema is created and upgraded by the Alembic
migrations in ``sengoku/server/migrations`` (see :func:`migrate`), never by ``create_all``.

Everything here is synchronous; the service calls it from a small pool of storage threads
(one match's changes are serialised by the match's lock), so the event loop never waits on
the database and one slow query or locked row does not hold up the other games. The one
exception is an action's append on SQLite with ``synchronous`` NORMAL or OFF, committed on
the loop's own connection (:meth:`Store.loop_connection`): such a commit does not wait for
the disk, and a lock held elsewhere sends it to a storage thread instead of waiting.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy import exc as sa_exc

log = logging.getLogger("sengoku.server")

metadata = MetaData()

#: One row per match (a game played on the server, or an imported record).
matches = Table(
    "matches",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("version", Integer, nullable=False),
    Column("options", Text, nullable=False),
    # text: seeds are 128-bit numbers, more than an SQL integer holds (migration 0002)
    Column("seed", Text, nullable=False),
    Column("clock", Text, nullable=True),
    Column("status", String(16), nullable=False),
    Column("result", Text, nullable=True),
    Column("close_reason", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch_id", String(32), nullable=True),
    #: SHA-256 of the owner token of a match no human plays (all-AI): it may stop the match.
    Column("owner_hash", String(64), nullable=True),
    #: The server process (``nodes.id``) that runs the match's clock timer and AI turns
    #: (several processes on one database: sengoku/server/cluster.py); null: none yet.
    Column("node", String(64), nullable=True),
    #: A rated match (docs/ratings.md): its end stores its players' rating changes.
    Column("rated", Boolean, nullable=False, default=False, server_default=false()),
    Index("ix_matches_status", "status"),
    # The lists, newest first (``/api/records``, the lobby), read in index order: no sort.
    Index("ix_matches_created", "created_at", "id"),
    Index("ix_matches_game_created", "game", "created_at", "id"),
)

#: Who holds each seat. Tokens are stored only as SHA-256 hashes.
seats = Table(
    "seats",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("invite_hash", String(64), nullable=True),
    Column("agent", String(32), nullable=True),
    Column("level", Integer, nullable=True),
    # An account claims its seats by the tokens its browser holds (accounts.py).
    Index("ix_seats_token_hash", "token_hash"),
)

#: The moves: accepted actions (canonical notation) and concessions, in order.
moves = Table(
    "moves",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=True),
    Column("reason", String(64), nullable=True),
    Column("at", Float, nullable=False),
    Column("clocks", Text, nullable=True),
    #: The client's id for the action (``POST .../actions`` ``id``): a retry is not replayed.
    Column("client_id", String(64), nullable=True),
)

#: The numbered events of a match, each with its audience (null: everyone).
events = Table(
    "events",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("ply", Integer, nullable=False),
    Column("audience", Text, nullable=True),
    Column("payload", Text, nullable=False),
)

#: The server processes sharing the database, each with its last heartbeat: a match whose
#: node has not beaten for ``Settings.node_ttl`` seconds is taken over by another.
nodes = Table(
    "nodes",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("heartbeat", Float, nullable=False),
    Column("started_at", Float, nullable=False),
)

#: Player accounts (sengoku/server/accounts.py): optional, a guest plays by seat tokens
#: alone. ``name_key`` is the name folded for comparison (NFKC, casefold): names are unique
#: regardless of case. A deleted account keeps its row, anonymised (no name, no password).
accounts = Table(
    "accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(64), nullable=False, unique=True),
    Column("password_hash", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("deleted", Boolean, nullable=False, default=False),
    #: An optional address for "it is your turn" mails (sengoku/server/mail.py; 0008).
    Column("email", String(254), nullable=True),
)

#: Signed-in browsers: the session id (the ``sengoku_session`` cookie) only as a SHA-256.
account_sessions = Table(
    "account_sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Index("ix_account_sessions_account", "account_id"),
)

#: The seats an account owns (claimed with their tokens, or taken while signed in).
account_seats = Table(
    "account_seats",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id"), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_account_seats_account", "account_id"),
)

#: Secrets every server process on the database shares (the CSRF tokens' signing key).
server_secrets = Table(
    "server_secrets",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)

#: Each player's rating in each pool (a game and a rating system: docs/ratings.md), by
#: account (``accounts.id``; no foreign key: a deleted account keeps its row anonymised). Glicko-2 fills rating / deviation / volatility, Plackett-Luce
#: mu / sigma. Written only with a finished match's result (sengoku/server/ratings.py).
ratings = Table(
    "ratings",
    metadata,
    Column("account_id", String(64), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("system", String(16), primary_key=True),
    Column("rating", Float, nullable=True),
    Column("deviation", Float, nullable=True),
    Column("volatility", Float, nullable=True),
    Column("mu", Float, nullable=True),
    Column("sigma", Float, nullable=True),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    # A game's leaderboard: the pool's ratings in order (sengoku/server/ratings.py).
    Index("ix_ratings_pool", "game", "system", "rating", "mu"),
)

#: One row per rated player of a finished match: the rating before and after (JSON of the
#: rating's fields) and the change of the number shown. The key makes a match rated once.
rating_changes = Table(
    "rating_changes",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("account_id", String(64), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("system", String(16), nullable=False),
    Column("before", Text, nullable=False),
    Column("after", Text, nullable=False),
    Column("delta", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_rating_changes_account", "account_id", "at"),
)

#: Seeks: a player's standing offer of a game in the lobby (sengoku/server/seeks.py, issue
#: 37; migration 0012_seeks). ``token_hash``: the SHA-256 of the seat token the seeker got
#: when making the seek (the seat it will hold); ``owner``: whom the limit of open seeks
#: counts (the account, or a guest's client address, hashed), each open seek in one of its
#: ``slot``s (unique: the limit holds for requests at once; a closed seek's slot is null);
#: ``session_hash``: the seeker's session (a seek lapses with it). A seek is taken once:
#: the conditional update that accepts it commits with the match it creates.
seeks = Table(
    "seeks",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("clock", Text, nullable=True),
    Column("rated", Boolean, nullable=False, default=False),
    Column("rating_min", Integer, nullable=True),
    Column("rating_max", Integer, nullable=True),
    Column("name", String(64), nullable=False),
    Column("account_id", String(32), nullable=True),
    Column("session_hash", String(64), nullable=True),
    Column("token_hash", String(64), nullable=False),
    Column("owner", String(80), nullable=False),
    Column("slot", Integer, nullable=True),
    Column("status", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
    Column("closed_at", Float, nullable=True),
    Column("match_id", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
    Index("ix_seeks_owner_slot", "owner", "slot", unique=True),
    Index("ix_seeks_status", "status", "created_at"),
    Index("ix_seeks_account", "account_id"),
    Index("ix_seeks_token_hash", "token_hash"),
    Index("ix_seeks_expires", "expires_at"),
)

#: Post-game analyses (sengoku/server/analyses.py, migration 0010): one row per match and
#: kind ("mover" or "hindsight"). ``status`` is queued, running, done or failed; ``done`` of
#: ``total`` plies are analysed; ``result`` (JSON) is written once, by the first job to
#: finish: the key makes a second completion find it stored and discard its own.
analyses = Table(
    "analyses",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id"), primary_key=True),
    Column("kind", String(16), primary_key=True),
    Column("status", String(16), nullable=False),
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("result", Text, nullable=True),
    Column("error", Text, nullable=True),
    #: How many times a job started on it (a worker killed mid-job: its retry counts).
    Column("tries", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    #: The last sign of life of its job (each progress step): a local job's lease.
    Column("updated_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
)

#: Each signed-in player's puzzle rating per game (Glicko-2 on the Glicko scale, as
#: ``ratings``; docs/analysis.md, *Puzzles on the server*). Apart from the players' ratings:
#: solving puzzles is not playing games.
puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    Column("account_id", String(64), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)

#: One row per rated puzzle attempt of a signed-in player: the moves tried, solved or not,
#: the puzzle rating before and after and the change shown. The key makes a puzzle rated
#: once per player (a second try is answered, not rated).
puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("account_id", String(64), primary_key=True),
    Column("puzzle_id", String(64), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("moves", Text, nullable=False),
    Column("correct", Boolean, nullable=False),
    Column("before", Float, nullable=False),
    Column("after", Float, nullable=False),
    Column("delta", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_puzzle_attempts_account", "account_id", "game", "at"),
)

MIGRATIONS = Path(__file__).with_name("migrations")

#: The PostgreSQL advisory lock that lets one process at a time run the migrations.
MIGRATION_LOCK = 0x5E6C0C0

#: On PostgreSQL each node holds the session-level advisory lock (NODE_LOCK_CLASS,
#: hashtext(node id)) on a connection of its own for as long as it runs: when the process
#: dies its connection drops and PostgreSQL frees the lock, so the others take its matches
#: over at their next heartbeat round instead of ``node_ttl`` later (docs/server.md).
NODE_LOCK_CLASS = 0x53474B4E

#: The nodes whose lock is held now, as ``hashtext(nodes.id)`` (an advisory lock's second
#: key is ``objid`` in ``pg_locks``, ``objsubid`` 2 for the two-key form), in this database.
NODE_LOCK_HELD = (
    "hashtext(nodes.id)::oid IN (SELECT objid FROM pg_locks WHERE locktype = 'advisory' "
    f"AND granted AND classid = {NODE_LOCK_CLASS} AND objsubid = 2 AND database = "
    "(SELECT oid FROM pg_database WHERE datname = current_database()))"
)


class Conflict(Exception):
    """Another process stored a change to the match first: an event (or move) number this
    change meant to take is taken. Nothing of this change was stored."""


#: SQLite's synchronous settings (https://sqlite.org/pragma.html#pragma_synchronous).
SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
#: PostgreSQL's ``synchronous_commit`` for the server's sessions: ``on`` (a commit waits for
#: its log to reach the disk) or ``off`` (it does not: the last commits before a crash of
#: PostgreSQL or the machine may be lost, never half of one; docs/server.md).
PG_SYNCHRONOUS_COMMIT = ("on", "off")


def pg_options(lock_timeout: float, synchronous_commit: str = "on") -> str:
    """The libpq ``options`` of every PostgreSQL session the server opens."""
    level = synchronous_commit.lower()
    if level not in PG_SYNCHRONOUS_COMMIT:
        raise ValueError(
            f"PostgreSQL synchronous_commit must be one of {', '.join(PG_SYNCHRONOUS_COMMIT)}"
        )
    return f"-c lock_timeout={int(lock_timeout * 1000)} -c synchronous_commit={level}"


def make_engine(
    url: str,
    synchronous: str = "FULL",
    lock_timeout: float = 10.0,
    pool_size: int = 8,
    pg_synchronous_commit: str = "on",
) -> Engine:
    """An engine for ``url``. SQLite gets WAL, a busy timeout and ``synchronous`` (FULL, the
    default: an acknowledged action survives power loss; NORMAL: it survives ``kill -9`` but
    the last commits may be lost on power loss). Errors never carry parameter values into
    logs or messages (``hide_parameters``): they may hold names, tokens' hashes, records.

    ``lock_timeout`` bounds how long a statement waits for a lock another connection holds
    (SQLite's busy timeout, PostgreSQL's ``lock_timeout``); past it the statement fails and
    the request gets ``503 db_busy`` instead of hanging. ``pool_size`` connections are kept
    (one per storage thread, and a few spare). ``pg_synchronous_commit`` is PostgreSQL's
    ``synchronous_commit`` (``on``, the default, or ``off``: :data:`PG_SYNCHRONOUS_COMMIT`).
    """
    options = pg_options(lock_timeout, pg_synchronous_commit)  # checked for every database
    if url.startswith("sqlite"):
        level = synchronous.upper()
        if level not in SYNCHRONOUS:
            raise ValueError(f"sqlite synchronous must be one of {', '.join(SYNCHRONOUS)}")
        memory = url.rstrip("/") in {"sqlite:", "sqlite:///:memory:"}
        pool_args: dict[str, Any] = (
            {} if memory else {"pool_size": pool_size, "max_overflow": pool_size}
        )
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": lock_timeout},
            hide_parameters=True,
            **pool_args,
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={level}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    connect_args = {"options": options} if url.startswith("postgresql") else {}
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_size=pool_size,
        max_overflow=pool_size,
        connect_args=connect_args,
        hide_parameters=True,
    )


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # Several processes starting together: the first upgrades, the others wait here
            # and then find nothing to do (the lock ends with the transaction).
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        cfg.attributes["connection"] = conn
        # "heads": migrations added side by side (each revising the same parent) all apply
        command.upgrade(cfg, "heads")


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Store:
    """The queries, each one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        #: This node's advisory lock's connection (PostgreSQL, several processes).
        self._node_lock: Connection | None = None
        # The hot path (one action: a move, its events, the match's clock) runs these
        # statements, compiled once for the engine's dialect, on the driver's own cursor:
        # the same SQL SQLAlchemy would send, without its per-statement bookkeeping.
        dialect = engine.dialect
        self._insert_move = insert(moves).compile(dialect=dialect)
        self._insert_event = insert(events).compile(dialect=dialect)
        self._update_clock = (
            update(matches)
            .where(matches.c.id == bindparam("match_id"))
            .values(updated_at=bindparam("updated_at"), clock=bindparam("clock"))
            .compile(dialect=dialect)
        )
        self._sql = {
            "move": str(self._insert_move),
            "event": str(self._insert_event),
            "clock": str(self._update_clock),
        }

    @contextlib.contextmanager
    def _conflict(self) -> Any:
        """Turn a taken event or move number (a unique key: the optimistic check of several
        processes writing one match) into :class:`Conflict`."""
        dbapi_error = getattr(self.engine.dialect.dbapi, "IntegrityError", sa_exc.IntegrityError)
        try:
            yield
        except (sa_exc.IntegrityError, dbapi_error) as exc:
            orig = getattr(exc, "orig", exc)
            # Only a taken key is a conflict; any other failed constraint stays a fault.
            taken = getattr(orig, "sqlstate", None) == "23505" or getattr(
                orig, "sqlite_errorname", ""
            ) in ("SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE")
            if not taken:
                raise
            raise Conflict(type(exc).__name__) from None

    @staticmethod
    def _params(compiled: Any, row: dict[str, Any]) -> Any:
        if compiled.positional:
            return tuple(row.get(name) for name in compiled.positiontup)
        return {name: row.get(name) for name in compiled.binds}

    def create_match(
        self,
        match: dict[str, Any],
        seat_rows: list[dict[str, Any]],
        event_rows: list[dict[str, Any]],
        move_rows: list[dict[str, Any]] | None = None,
        owner_rows: list[dict[str, Any]] | None = None,
        first: Callable[[Connection], None] | None = None,
    ) -> None:
        """A new match with its seats, events and (an imported record's) moves: one
        transaction; ``owner_rows``: ``account_seats`` rows (a rated match's seats belong to
        their accounts from the start). ``first`` runs first in the transaction and may
        raise to store nothing (a seek taken once: sengoku/server/seeks.py)."""
        with self.engine.begin() as conn:
            if first is not None:
                first(conn)
            self._create(conn, match, seat_rows, event_rows, move_rows or [])
            if owner_rows:
                conn.execute(insert(account_seats), owner_rows)

    @staticmethod
    def _create(
        conn: Connection,
        match: dict[str, Any],
        seat_rows: list[dict[str, Any]],
        event_rows: list[dict[str, Any]],
        move_rows: list[dict[str, Any]],
    ) -> None:
        conn.execute(insert(matches), [match])
        conn.execute(insert(seats), seat_rows)
        if event_rows:
            conn.execute(insert(events), event_rows)
        if move_rows:
            conn.execute(insert(moves), move_rows)

    def join(
        self,
        match_id: str,
        seat: int,
        seat_values: dict[str, Any],
        event_rows: list[dict[str, Any]],
        match_values: dict[str, Any],
        owner_rows: list[dict[str, Any]] | None = None,
    ) -> None:
        """A player takes a seat: the seat, the events and the match's status, all or nothing
        (with ``owner_rows``, the seat's ``account_seats`` row: a rated match's seat)."""
        with self._conflict(), self.engine.begin() as conn:
            conn.execute(
                update(seats)
                .where(seats.c.match_id == match_id, seats.c.seat == seat)
                .values(**seat_values)
            )
            if owner_rows:
                conn.execute(insert(account_seats), owner_rows)
            self._change(conn, match_id, [], event_rows, match_values, None)

    def seat_owners(self, match_id: str) -> dict[int, str]:
        """The accounts that own seats of ``match_id``: seat -> account id."""
        with self.engine.connect() as conn:
            return {
                int(r.seat): str(r.account_id)
                for r in conn.execute(
                    select(account_seats.c.seat, account_seats.c.account_id).where(
                        account_seats.c.match_id == match_id
                    )
                )
            }

    def create_rematch(
        self,
        match: dict[str, Any],
        seat_rows: list[dict[str, Any]],
        event_rows: list[dict[str, Any]],
        old_id: str,
        old_event_rows: list[dict[str, Any]],
        old_values: dict[str, Any],
    ) -> None:
        """The rematch and the old match's link to it, all or nothing."""
        with self.engine.begin() as conn:
            self._create(conn, match, seat_rows, event_rows, [])
            self._change(conn, old_id, [], old_event_rows, old_values, None)

    def record_change(
        self,
        match_id: str,
        move_rows: list[dict[str, Any]],
        event_rows: list[dict[str, Any]],
        match_values: dict[str, Any] | None = None,
        drop_moves_from: int | None = None,
        then: Callable[[Connection], object] | None = None,
    ) -> None:
        """Append moves and events and update the match, all or nothing; :class:`Conflict`
        when another process stored an event or move of the same number first. ``then``
        runs last in the same transaction (a finished match's ratings: an error there
        stores nothing of the change either)."""
        with self._conflict():
            self._record_change(
                match_id, move_rows, event_rows, match_values, drop_moves_from, then
            )

    def _record_change(
        self,
        match_id: str,
        move_rows: list[dict[str, Any]],
        event_rows: list[dict[str, Any]],
        match_values: dict[str, Any] | None,
        drop_moves_from: int | None,
        then: Callable[[Connection], object] | None = None,
    ) -> None:
        if (
            then is None
            and drop_moves_from is None
            and match_values is not None
            and set(match_values)
            == {
                "updated_at",
                "clock",
            }
        ):
            self._append(match_id, move_rows, event_rows, match_values)
            return
        with self.engine.begin() as conn:
            self._change(conn, match_id, move_rows, event_rows, match_values, drop_moves_from)
            if then is not None:
                then(conn)

    @staticmethod
    def _change(
        conn: Connection,
        match_id: str,
        move_rows: list[dict[str, Any]],
        event_rows: list[dict[str, Any]],
        match_values: dict[str, Any] | None,
        drop_moves_from: int | None,
    ) -> None:
        if drop_moves_from is not None:
            conn.execute(
                delete(moves).where(moves.c.match_id == match_id, moves.c.seq >= drop_moves_from)
            )
        if move_rows:
            conn.execute(insert(moves), move_rows)
        if event_rows:
            conn.execute(insert(events), event_rows)
        if match_values:
            conn.execute(update(matches).where(matches.c.id == match_id).values(**match_values))

    def _append(
        self,
        match_id: str,
        move_rows: list[dict[str, Any]],
        event_rows: list[dict[str, Any]],
        match_values: dict[str, Any],
    ) -> None:
        conn = self.engine.raw_connection()
        try:
            # psycopg sends the whole transaction in one network round trip (pipeline mode)
            # instead of one per statement: each round trip waits for the database process.
            pipeline = getattr(conn.driver_connection, "pipeline", None)
            cur = conn.cursor()
            try:
                with pipeline() if pipeline is not None else contextlib.nullcontext():
                    self._write_action(cur, match_id, move_rows, event_rows, match_values)
                conn.commit()
            except BaseException:
                conn.rollback()
                raise
            finally:
                cur.close()
        finally:
            conn.close()

    def _write_action(
        self,
        cur: Any,
        match_id: str,
        move_rows: list[dict[str, Any]],
        event_rows: list[dict[str, Any]],
        match_values: dict[str, Any],
    ) -> None:
        """One action's rows on an open cursor: its move, its events, the match's clock."""
        for sql, params, many in self.action_statements(
            match_id, move_rows, event_rows, match_values
        ):
            if many:
                cur.executemany(sql, params)
            else:
                cur.execute(sql, params)

    def action_statements(
        self,
        match_id: str,
        move_rows: list[dict[str, Any]],
        event_rows: list[dict[str, Any]],
        match_values: dict[str, Any],
    ) -> list[tuple[str, Any, bool]]:
        """An action's append as the driver's statements: (SQL, parameters, whether the
        parameters are a list of rows for ``executemany``), in order: its moves, its events,
        the match's clock. The storage threads run them; the event loop's own connections
        on PostgreSQL (``sengoku.server.loop_appends``) store the same rows in the same
        order through prepared statements."""
        statements: list[tuple[str, Any, bool]] = [
            (self._sql["move"], self._params(self._insert_move, row), False) for row in move_rows
        ]
        if event_rows:
            rows = [self._params(self._insert_event, r) for r in event_rows]
            statements.append((self._sql["event"], rows, True))
        values = {"match_id": match_id, **match_values}
        statements.append((self._sql["clock"], self._params(self._update_clock, values), False))
        return statements

    def append_many(
        self, items: list[tuple[str, list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]]
    ) -> list[Conflict | None]:
        """Several actions' appends (``record_change`` of a move, its events and the clock) in
        one transaction: one commit, so one sync of the disk for all of them (SQLite with
        ``synchronous=FULL`` waits for the disk at each commit, which capped the server at
        the disk's syncs per second). Each is all or nothing on its own (a savepoint): one
        whose move or event number is taken (:class:`Conflict`) is undone alone. The rows
        are written in the order of the matches' ids (one lock order). Returns each one's
        outcome, in the order given (None: stored); any other error fails (and undoes) them
        all. The server uses it on SQLite only (``Persistence._append_together``)."""
        conn = self.engine.raw_connection()
        try:
            return self.append_on(conn, items)
        finally:
            conn.close()

    def append_on(
        self,
        conn: Any,
        items: list[tuple[str, list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]],
    ) -> list[Conflict | None]:
        """:meth:`append_many` on the DB-API connection ``conn`` (left open): the server's
        own SQLite connection for appends made on the event loop (:meth:`loop_connection`)."""
        order = sorted(range(len(items)), key=lambda i: items[i][0])
        outcomes: list[Conflict | None] = [None] * len(items)
        cur = conn.cursor()
        try:
            if self.engine.dialect.name == "sqlite":
                cur.execute("BEGIN")  # else a savepoint would begin (and end) it
            for i in order:
                match_id, move_rows, event_rows, match_values = items[i]
                cur.execute("SAVEPOINT sengoku_action")
                try:
                    with self._conflict():
                        self._write_action(cur, match_id, move_rows, event_rows, match_values)
                except Conflict as exc:
                    cur.execute("ROLLBACK TO sengoku_action")
                    outcomes[i] = exc
                cur.execute("RELEASE sengoku_action")
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        finally:
            cur.close()
        return outcomes

    def loop_connection(self) -> Any:
        """A SQLite connection of its own for appends committed on the server's event loop
        (``Persistence``, with ``synchronous`` NORMAL or OFF, where a commit does not wait
        for the disk): it never waits for a lock (busy timeout 0: the append goes to a
        storage thread instead) and never checkpoints (a checkpoint syncs the disk; the
        storage threads run :meth:`checkpoint`). The caller closes it."""
        conn = self.engine.raw_connection()
        cur = conn.cursor()
        try:
            cur.execute("PRAGMA busy_timeout=0")
            cur.execute("PRAGMA wal_autocheckpoint=0")
        finally:
            cur.close()
        return conn

    def checkpoint(self) -> None:
        """Copy SQLite's write-ahead log into the database as far as readers allow (a passive
        checkpoint: it waits for nobody), so that the log does not grow."""
        with self.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").all()

    def update_seat(self, match_id: str, seat: int, values: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(seats)
                .where(seats.c.match_id == match_id, seats.c.seat == seat)
                .values(**values)
            )

    def load(self, match_id: str) -> dict[str, Any] | None:
        """The match with its seats, moves and events, or None."""
        return self.since(match_id, 0, 0)

    def ids_with_status(self, statuses: list[str]) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(matches.c.id)
                .where(matches.c.status.in_(statuses))
                .order_by(matches.c.created_at)
            )
            return [r[0] for r in rows]

    def seed_in_play(self, game: str, seed: int) -> bool:
        """Whether a match of ``game`` waiting or in play, on any server process, was dealt
        from ``seed`` or ``-seed`` (``random.Random`` deals both alike)."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(matches.c.id)
                .where(
                    matches.c.status.in_(["waiting", "active"]),
                    matches.c.game == game,
                    matches.c.seed.in_([str(seed), str(-seed)]),
                )
                .limit(1)
            ).first()
            return found is not None

    def list_matches(
        self,
        statuses: list[str],
        game: str | None,
        limit: int,
        offset: int,
        exclude: list[str] | None = None,
    ) -> list[dict[str, Any]]:
        """Matches with one of ``statuses`` (or, given ``exclude``, any status but those),
        newest first, with their seats.

        A list of the many finished matches is asked for by exclusion: the database then
        walks ``ix_matches_created`` backwards and stops after ``limit`` rows, instead of
        sorting every finished match (1.2 s for 400k of them).
        """
        with self.engine.connect() as conn:
            if exclude is not None:
                q = select(matches).where(matches.c.status.not_in(exclude))
            else:
                q = select(matches).where(matches.c.status.in_(statuses))
            if game:
                q = q.where(matches.c.game == game)
            q = (
                q.order_by(matches.c.created_at.desc(), matches.c.id.desc())
                .limit(limit)
                .offset(offset)
            )
            rows = [dict(r) for r in conn.execute(q).mappings()]
            if not rows:
                return rows
            ids = [r["id"] for r in rows]
            seat_rows = conn.execute(
                select(seats.c.match_id, seats.c.seat, seats.c.kind, seats.c.name, seats.c.level)
                .where(seats.c.match_id.in_(ids))
                .order_by(seats.c.match_id, seats.c.seat)
            ).mappings()
            by_match: dict[str, list[dict[str, Any]]] = {}
            for s in seat_rows:
                by_match.setdefault(s["match_id"], []).append(dict(s))
            for r in rows:
                r["seats"] = by_match.get(r["id"], [])
            return rows

    # -- several processes on one database (sengoku/server/cluster.py) -------------------
    def since(self, match_id: str, seq_from: int, n_after: int) -> dict[str, Any] | None:
        """What a process holding the match up to move ``seq_from`` and event ``n_after``
        lacks: the match row, its seats, the moves from ``seq_from`` and the later events."""
        with self.engine.connect() as conn:
            row = conn.execute(select(matches).where(matches.c.id == match_id)).mappings().first()
            if row is None:
                return None
            seat_rows = conn.execute(
                select(seats).where(seats.c.match_id == match_id).order_by(seats.c.seat)
            ).mappings()
            move_rows = conn.execute(
                select(moves)
                .where(moves.c.match_id == match_id, moves.c.seq >= seq_from)
                .order_by(moves.c.seq)
            ).mappings()
            event_rows = conn.execute(
                select(events)
                .where(events.c.match_id == match_id, events.c.n > n_after)
                .order_by(events.c.n)
            ).mappings()
            return {
                "match": dict(row),
                "seats": [dict(r) for r in seat_rows],
                "moves": [dict(r) for r in move_rows],
                "events": [dict(r) for r in event_rows],
            }

    def ping(self) -> None:
        """One round trip to the database (``GET /health``); raises if it does not answer."""
        with self.engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")

    def heartbeat(self, node: str, now: float) -> None:
        """``node`` is alive at ``now`` (only the node itself writes its row). On PostgreSQL
        it also (re)takes the node's advisory lock if its connection was lost."""
        if self.engine.dialect.name == "postgresql":
            self._hold_node_lock(node)
        with self.engine.begin() as conn:
            done = conn.execute(update(nodes).where(nodes.c.id == node).values(heartbeat=now))
            if done.rowcount == 0:
                conn.execute(insert(nodes).values(id=node, heartbeat=now, started_at=now))

    def _hold_node_lock(self, node: str) -> None:
        """Hold ``node``'s advisory lock on a connection kept for it (PostgreSQL): checked
        with one round trip each beat, taken again on a new connection if that one broke."""
        held = self._node_lock
        if held is not None:
            try:
                held.exec_driver_sql("SELECT 1")
                held.commit()  # never left idle in a transaction
                return
            except sa_exc.DBAPIError:
                with contextlib.suppress(Exception):
                    held.close()
                self._node_lock = None
        conn = self.engine.connect()
        try:
            got = conn.execute(
                text("SELECT pg_try_advisory_lock(:cls, hashtext(:node))"),
                {"cls": NODE_LOCK_CLASS, "node": node},
            ).scalar()
            conn.commit()  # the lock is the session's: it outlives the transaction
        except BaseException:
            conn.close()
            raise
        if not got:
            # Another live node's id hashes the same (1 in 2**32): the lease alone decides.
            log.warning("node %s: its advisory lock is held by another session", node)
        self._node_lock = conn

    def claim(
        self, node: str, cutoff: float, match_ids: list[str] | None = None, limit: int = 50
    ) -> list[str]:
        """Make ``node`` the node of active matches whose node is none or dead (at most
        ``limit``, of ``match_ids`` only if given); the ids of the matches it took
        (``RETURNING``: PostgreSQL, SQLite 3.35 or newer). A node is dead when it has not
        beaten since ``cutoff`` (the lease) or, on PostgreSQL, when its advisory lock is
        free: its process, and so its lock's connection, is gone.

        The outer condition repeats the check on the row itself, so when two processes claim
        the same orphan at once the second finds it taken (PostgreSQL re-reads a row it
        waited for) and leaves it."""
        alive = select(nodes.c.id).where(nodes.c.heartbeat >= cutoff)
        if self.engine.dialect.name == "postgresql":
            alive = alive.where(text(NODE_LOCK_HELD))
        orphan = or_(matches.c.node.is_(None), matches.c.node.not_in(alive))
        pick = select(matches.c.id).where(matches.c.status == "active", orphan)
        if match_ids is not None:
            pick = pick.where(matches.c.id.in_(match_ids))
        pick = pick.order_by(matches.c.id).limit(limit)
        with self.engine.begin() as conn:
            taken = conn.execute(
                update(matches)
                .where(matches.c.id.in_(pick.scalar_subquery()), orphan)
                .values(node=node)
                .returning(matches.c.id)
            )
            return [r[0] for r in taken]

    def heads(self, match_ids: list[str]) -> dict[str, tuple[str | None, int, int]]:
        """Each match's node, last event number and number of moves, as stored (an action
        may come without an event)."""
        if not match_ids:
            return {}
        last = (
            select(func.max(events.c.n))
            .where(events.c.match_id == matches.c.id)
            .correlate(matches)
            .scalar_subquery()
        )
        played = (
            select(func.max(moves.c.seq))
            .where(moves.c.match_id == matches.c.id)
            .correlate(matches)
            .scalar_subquery()
        )
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(matches.c.id, matches.c.node, last, played).where(
                    matches.c.id.in_(match_ids)
                )
            )
            return {
                r[0]: (r[1], int(r[2] or 0), -1 if r[3] is None else int(r[3]) + 1) for r in rows
            }

    def release(self, node: str) -> None:
        """``node`` stops: its matches are free for another at once, and it is forgotten
        (its advisory lock with it)."""
        with self.engine.begin() as conn:
            conn.execute(update(matches).where(matches.c.node == node).values(node=None))
            conn.execute(delete(nodes).where(nodes.c.id == node))
        held, self._node_lock = self._node_lock, None
        if held is not None:
            with contextlib.suppress(Exception):
                held.exec_driver_sql("SELECT pg_advisory_unlock_all()")
                held.commit()
            held.close()
