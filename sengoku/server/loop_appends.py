"""PostgreSQL: an action's append sent from the event loop on connections of its own.

On PostgreSQL an action's rows (its move, its events, the match's clock) used to go to a
storage thread, which sent them in one network round trip and waited for the commit. At 500
games the hand-over cost more than the database: each statement's reply made the thread
take its turn at the interpreter lock against the busy event loop, and the server saturated
at about 200 actions a second with its PostgreSQL idle most of the time (docs/server.md,
*Load*). Here the loop sends the action's statements through asynchronous connections of its
own and awaits its commit like any other network reply: no thread, and every other game goes
on meanwhile.

The driver does the wire: psycopg's pipeline mode sends an action's statements (the same
ones, from :meth:`Store.action_statements`, that the storage threads run) with one Sync, so
an action is one network round trip and one transaction (PostgreSQL runs what comes before
a Sync as one transaction: all or nothing). Each connection prepares the statements the
first time it runs them (``prepare_threshold=0``: PostgreSQL parses and plans them once, not
at every action), and psycopg binds the values as parameters.

A few connections are kept (``Settings.db_workers``), one transaction each at a time, so a
row locked by another session stalls only the actions on that connection. The errors are
those of the threads' path: a taken move or event number is :class:`Conflict`, a lock held
past ``lock_timeout`` ``503 db_busy``, anything else ``503 storage_error`` with nothing
stored; only the error's class is logged (the parameters may hold secrets). An append cut
short (its request's task cancelled) is cancelled in the server by psycopg, and its
connection closed rather than reused.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy.engine import make_url

from sengoku.server.db import Conflict, Store, pg_options
from sengoku.server.errors import database_busy, storage_failed

log = logging.getLogger("sengoku.server")


def conninfo(url: str) -> str:
    """The libpq connection string of a SQLAlchemy PostgreSQL URL (its driver name left out)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


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
                statements = self.store.action_statements(
                    match_id, move_rows, event_rows, match_values
                )
                try:
                    await _send(conn, statements)
                except psycopg.errors.InvalidSqlStatementName:
                    # The session lost its prepared statements (a pooler's reset, DEALLOCATE)
                    # and psycopg's cache still names them: nothing ran. A fresh connection
                    # prepares them again and sends the action once more.
                    await _close(conn)
                    conn = None
                    conn = await self._connect()
                    await _send(conn, statements)
                reusable = True
            except psycopg.errors.UniqueViolation:
                reusable = True  # rolled back: the connection is as good as before
                raise Conflict("UniqueViolation") from None
            except psycopg.errors.LockNotAvailable:
                reusable = True
                log.error("database: LockNotAvailable")
                raise database_busy() from None
            except (psycopg.Error, UnicodeError) as exc:
                # (a UnicodeError: a text no encoding writes, refused before any sending)
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

        # autocommit: psycopg opens no transaction of its own; an action's pipeline, up to
        # its one Sync, is the transaction (_send). prepare_threshold=0: every statement is
        # prepared on the connection the first time it runs.
        return await psycopg.AsyncConnection.connect(
            self._conninfo, options=self._options, autocommit=True, prepare_threshold=0
        )

    @staticmethod
    def _idle_now(conn: Any) -> bool:
        from psycopg.pq import TransactionStatus

        return not conn.closed and conn.info.transaction_status == TransactionStatus.IDLE

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for conn in idle:
            await _close(conn)


async def _send(conn: Any, statements: list[tuple[str, Any, bool]]) -> None:
    """Run an action's ``statements`` (SQL, parameters, many rows or one) on ``conn`` in
    pipeline mode: sent together with one Sync and answered together, one round trip and one
    transaction (the first error undoes the rest and is raised as psycopg's exception)."""
    async with conn.pipeline(), conn.cursor() as cur:
        for sql, params, many in statements:
            if many:
                await cur.executemany(sql, params)
            else:
                await cur.execute(sql, params)


async def _close(conn: Any) -> None:
    try:
        await conn.close()
    except Exception:  # closing a broken connection: nothing more to do
        log.debug("database: a connection failed to close", exc_info=True)
