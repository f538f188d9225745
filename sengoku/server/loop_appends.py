"""PostgreSQL: an action's append sent from the event loop on connections of its own.

On PostgreSQL an action's rows (its move, its events, the match's clock) used to go to a
storage thread, which sent them in one network round trip and waited for the commit. At 500
games the hand-over cost more than the database: each statement's reply made the thread
take its turn at the interpreter lock against the busy event loop, and the server saturated
at about 200 actions a second with its PostgreSQL idle most of the time (docs/server.md,
*Load*). Here the loop sends the action's statements through connections of its own, as one
query that is one transaction, and awaits its commit like any other network reply: no
thread, and every other game goes on meanwhile.

Each connection prepares the three statements an action runs when it opens (``PREPARE``:
PostgreSQL parses and plans them once, not at every action), and an action is one query of
``EXECUTE``\\ s whose values libpq quotes (``PQescapeLiteral``), sent and read on the
connection's socket directly (psycopg's general machinery cost the loop more than the rest
of the append: docs/server.md, *Load*, 28 November 2026).

A few connections are kept (``Settings.db_workers``), one transaction each at a time, so a
row locked by another session stalls only the actions on that connection. The errors are
those of the threads' path: a taken move or event number is :class:`Conflict`, a lock held
past ``lock_timeout`` ``503 db_busy``, anything else ``503 storage_error`` with nothing
stored; only the error's class is logged (the parameters may hold secrets).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy import Table
from sqlalchemy.engine import Dialect, make_url

from sengoku.server.db import Conflict, Store, events, matches, moves, pg_options
from sengoku.server.errors import database_busy, storage_failed

log = logging.getLogger("sengoku.server")


def conninfo(url: str) -> str:
    """The libpq connection string of a SQLAlchemy PostgreSQL URL (its driver name left out)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


#: A prepared statement: its ``PREPARE`` and the columns whose values it takes, in order.
Prepared = tuple[str, tuple[str, ...]]


def _prepare(
    dialect: Dialect, name: str, table: Table, set_columns: tuple[str, ...] = ()
) -> Prepared:
    """An insert of a whole row of ``table``, or with ``set_columns`` an update of those
    columns of the row whose primary key (one column, the first parameter) is given."""
    quote = dialect.identifier_preparer.quote
    if set_columns:
        (key,) = table.primary_key.columns
        columns = [key, *(table.c[c] for c in set_columns)]
        sets = ", ".join(f"{quote(c.name)} = ${i}" for i, c in enumerate(columns[1:], 2))
        body = f"UPDATE {quote(table.name)} SET {sets} WHERE {quote(key.name)} = $1"
    else:
        columns = list(table.columns)
        names = ", ".join(quote(c.name) for c in columns)
        numbers = ", ".join(f"${i}" for i in range(1, len(columns) + 1))
        body = f"INSERT INTO {quote(table.name)} ({names}) VALUES ({numbers})"
    types = ", ".join(c.type.compile(dialect=dialect) for c in columns)
    return f"PREPARE {name} ({types}) AS {body}", tuple(c.name for c in columns)


def prepared_statements(dialect: Dialect) -> dict[str, Prepared]:
    """The statements of an action, prepared on each connection, by name."""
    return {
        "sengoku_move": _prepare(dialect, "sengoku_move", moves),
        "sengoku_event": _prepare(dialect, "sengoku_event", events),
        "sengoku_clock": _prepare(dialect, "sengoku_clock", matches, ("updated_at", "clock")),
    }


def _literal(escape: Any, encoding: str, value: Any) -> bytes:
    """``value`` (None, an int, a float or a str) as a literal of PostgreSQL's SQL: text
    quoted by libpq for this connection; a number in quotes too, which the parameter's type
    reads exactly as Python writes it (``'inf'`` and ``'nan'`` included)."""
    kind = type(value)
    if value is None:
        return b"NULL"
    if kind is int or kind is float:
        return b"'" + repr(value).encode() + b"'"
    if kind is str:
        if "\x00" in value:  # libpq would cut the text there: refuse it as psycopg does
            import psycopg

            raise psycopg.DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
        return bytes(escape.escape_literal(value.encode(encoding)))
    raise TypeError(f"no SQL literal for a {kind.__name__}")


def action_query(
    prepared: dict[str, Prepared],
    escape: Any,
    encoding: str,
    match_id: str,
    move_rows: list[dict[str, Any]],
    event_rows: list[dict[str, Any]],
    match_values: dict[str, Any],
) -> bytes:
    """An action's append as one query of ``EXECUTE``\\ s of the prepared statements: its
    moves, its events, then the match's clock and time (the order of ``Store``'s threads)."""
    parts = []
    for name, rows in (("sengoku_move", move_rows), ("sengoku_event", event_rows)):
        columns = prepared[name][1]
        for row in rows:
            values = b", ".join([_literal(escape, encoding, row.get(c)) for c in columns])
            parts.append(b"EXECUTE " + name.encode() + b" (" + values + b")")
    clock = {"id": match_id, **match_values}
    values = b", ".join(
        [_literal(escape, encoding, clock[c]) for c in prepared["sengoku_clock"][1]]
    )
    parts.append(b"EXECUTE sengoku_clock (" + values + b")")
    return b";\n".join(parts)


class LoopAppends:
    """Actions' appends on PostgreSQL, sent from the event loop (module docstring)."""

    def __init__(
        self,
        store: Store,
        url: str,
        lock_timeout: float,
        connections: int,
        synchronous_commit: str = "on",
    ) -> None:
        self.store = store
        self._prepared = prepared_statements(store.engine.dialect)
        self._prepare_all = ";\n".join(sql for sql, _columns in self._prepared.values()).encode()
        self._conninfo = conninfo(url)
        self._options = pg_options(lock_timeout, synchronous_commit)
        self._idle: list[Any] = []
        self._connections = max(1, connections)
        self._slots: asyncio.Semaphore | None = None

    async def append(
        self,
        match_id: str,
        move_rows: list[dict[str, Any]],
        event_rows: list[dict[str, Any]],
        match_values: dict[str, Any],
    ) -> None:
        """Store an action's rows in one transaction, answered once committed; all or
        nothing. :class:`Conflict` when another process took its move or event number."""
        import psycopg

        if self._slots is None:
            self._slots = asyncio.Semaphore(self._connections)
        async with self._slots:
            conn = self._idle.pop() if self._idle else None
            reusable = False
            try:
                if conn is None:
                    conn = await self._connect()
                    await _run(conn, self._prepare_all)
                query = action_query(
                    self._prepared,
                    psycopg.pq.Escaping(conn.pgconn),
                    conn.info.encoding,
                    match_id,
                    move_rows,
                    event_rows,
                    match_values,
                )
                try:
                    await _run(conn, query)
                except psycopg.errors.InvalidSqlStatementName:
                    # The statements are gone (the session was reset, by a pooler say):
                    # nothing ran; prepare them again and send the action once more.
                    await _run(conn, self._prepare_all)
                    await _run(conn, query)
                reusable = True
            except psycopg.errors.UniqueViolation:
                reusable = True  # rolled back: the connection is as good as before
                raise Conflict("UniqueViolation") from None
            except psycopg.errors.LockNotAvailable:
                reusable = True
                log.error("database: LockNotAvailable")
                raise database_busy() from None
            except (psycopg.Error, TypeError, UnicodeError) as exc:
                # (a TypeError or UnicodeError: a value with no literal, before any sending)
                log.error("database: %s", type(exc).__name__)
                raise storage_failed() from None
            finally:
                if conn is not None:
                    if reusable and self._idle_now(conn):
                        self._idle.append(conn)
                    else:  # broken, or cancelled mid-transaction: its state is unknown
                        await _close(conn)

    async def _connect(self) -> Any:
        import psycopg

        # autocommit: the one query an action sends is its own transaction (_run)
        return await psycopg.AsyncConnection.connect(
            self._conninfo, options=self._options, autocommit=True
        )

    @staticmethod
    def _idle_now(conn: Any) -> bool:
        from psycopg.pq import TransactionStatus

        return not conn.closed and conn.info.transaction_status == TransactionStatus.IDLE

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for conn in idle:
            await _close(conn)


async def _run(conn: Any, query: bytes) -> None:
    """Send ``query`` on ``conn`` (the simple protocol: PostgreSQL runs its statements as one
    transaction, all or nothing, committed when the last succeeds) and wait for its end on
    the connection's socket; the first error's psycopg exception class is raised. Cut short
    (the request's task cancelled), the query is cancelled in the server, as psycopg does:
    else it could still commit, after its caller was told it failed."""
    import psycopg
    from psycopg.pq import DiagnosticField, ExecStatus, TransactionStatus

    pgconn = conn.pgconn
    loop = asyncio.get_running_loop()
    pgconn.send_query(query)
    try:
        while pgconn.flush():  # a long query: the rest waits until the socket takes it
            await _socket_ready(loop, pgconn.socket, write=True)
        while True:
            pgconn.consume_input()
            if not pgconn.is_busy():
                break
            await _socket_ready(loop, pgconn.socket, write=False)
    except BaseException:
        if pgconn.transaction_status == TransactionStatus.ACTIVE:
            try:
                await conn.cancel_safe(timeout=5.0)
            except Exception as exc:  # the caller closes the connection all the same
                log.warning("database: cancelling failed: %s", type(exc).__name__)
        raise
    failed = None
    while (result := pgconn.get_result()) is not None:
        if result.status == ExecStatus.FATAL_ERROR and failed is None:
            failed = result
    if failed is not None:
        sqlstate = (failed.error_field(DiagnosticField.SQLSTATE) or b"").decode()
        try:
            error = psycopg.errors.lookup(sqlstate)
        except KeyError:
            error = psycopg.DatabaseError
        raise error(f"database error {sqlstate}")


async def _socket_ready(loop: asyncio.AbstractEventLoop, fd: int, write: bool) -> None:
    ready: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    if write:
        loop.add_writer(fd, wake)
    else:
        loop.add_reader(fd, wake)
    try:
        await ready
    finally:
        if write:
            loop.remove_writer(fd)
        else:
            loop.remove_reader(fd)


async def _close(conn: Any) -> None:
    try:
        await conn.close()
    except Exception:  # closing a broken connection: nothing more to do
        log.debug("database: a connection failed to close", exc_info=True)
