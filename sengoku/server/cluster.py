"""Several server processes on one database: any process serves any match.

* **State of record**: the database. Every change inserts numbered events (and moves) under
  unique keys, so of two processes changing one match at once exactly one commits; the other
  gets ``Conflict`` -> ``409 conflict`` (an action catches up and is judged once more).
* **News**: each commit is published (``pubsub.py``); a process that holds the match in
  memory applies the published rows (an action: its move, events and columns) or, when they
  do not simply follow what it holds, reads what it lacks from the database; then it pushes
  the events to its own WebSocket subscribers, who resume by event number as always.
* **Nodes and leases**: every process (a *node*) beats a heartbeat row every ``node_beat``
  seconds. Each active match has one node (``matches.node``) that runs its clock timer and its
  AI turns; a match whose node is none or has not beaten for ``node_ttl`` seconds is claimed
  by another (a conditional ``UPDATE``: one claimant wins). On PostgreSQL a node is also
  dead once its session-level advisory lock is free (its connection dropped with its
  process: ``Store.claim``), so a killed process's matches move at the next round. A process
  stopping cleanly hands its matches back at once.
* **Catching up without Redis**: in the same round a node compares the last event number of
  every match it holds with the database's and catches up where it is behind, so a message
  lost while Redis restarts delays a client by at most one round.

With ``memory://`` (one process, the default) none of this runs: the process owns every
match, and nothing is read back.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from sengoku.server.chat import Chat
from sengoku.server.live import Live
from sengoku.server.pubsub import PubSub

if TYPE_CHECKING:
    from sengoku.server.service import MatchService

log = logging.getLogger("sengoku.server")

#: With the pub/sub up, every how many heartbeat rounds a node compares the matches it holds
#: with the database.
CHECK_EVERY = 10


class Cluster:
    """This process's part in a cluster of server processes (see the module's docstring)."""

    def __init__(self, service: MatchService, pubsub: PubSub) -> None:
        self.service = service
        self.settings = service.settings
        self.pubsub = pubsub
        self.shared = self.settings.pubsub_url != "memory://"
        self.node = f"{socket.gethostname()[:30]}-{os.getpid()}-{secrets.token_hex(4)}"
        self._task: asyncio.Task[None] | None = None
        self._syncing: set[str] = set()
        self._claiming: set[str] = set()
        self._since_check = 0
        self._epoch = -1

    # -- life cycle -----------------------------------------------------------------------
    async def start(self) -> None:
        db = self.service.db
        db.on_conflict = self.sync_soon
        self.service.bus.publish = self._publish
        if not self.shared:
            return
        db.node = self.node
        await db.run(db.store.heartbeat, self.node, self.service.now())
        await self.pubsub.start(self._on_message)
        self._task = asyncio.get_running_loop().create_task(self._rounds())
        log.info("node %s: one of several processes on the database", self.node)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        await self.pubsub.close()
        if self.shared:
            db = self.service.db
            try:
                # the others take this node's matches at once, not after node_ttl
                await db.run(db.store.release, self.node)
            except Exception:
                log.warning("node %s: could not hand its matches back", self.node)

    # -- which process runs a match's timer and AI ------------------------------------------
    def owns(self, live: Live) -> bool:
        """Whether this process runs ``live``'s clock timer and AI turns. A match without a
        known node is claimed in the background (``after_change`` runs again if won)."""
        if not self.shared:
            return True
        if live.node == self.node:
            return True
        if live.node is None and live.status == "active":
            self._spawn(self._claim_one(live))
        return False

    async def _claim_one(self, live: Live) -> None:
        if live.id in self._claiming:
            return
        self._claiming.add(live.id)
        try:
            db = self.service.db
            cutoff = self.service.now() - self.settings.node_ttl
            mine = await db.run(db.store.claim, self.node, cutoff, [live.id])
            if live.id in mine:
                live.node = self.node
                self.service.after_change(live)
            else:
                heads = await db.run(db.store.heads, [live.id])
                live.node = heads[live.id][0] if live.id in heads else None
        except Exception:
            log.exception("node %s: claiming match %s failed", self.node, live.id)
        finally:
            self._claiming.discard(live.id)

    # -- news of changes ------------------------------------------------------------------
    def _publish(
        self,
        live: Live,
        rows: list[dict[str, Any]],
        moves: list[dict[str, Any]] | None,
        values: dict[str, Any] | None,
    ) -> None:
        if not self.shared:
            return
        # n: the last event; s: the moves stored (an action may come without an event)
        message: dict[str, Any] = {"o": self.node, "m": live.id, "n": len(live.events)}
        message["s"] = live.seq
        if moves is not None:
            message.update(events=rows, moves=moves, values=values or {})
        self.pubsub.publish(message)

    def publish_chat(self, live: Live, row: dict[str, Any], muted: set[int]) -> None:
        """A chat message stored by this process, for the other processes' connections to
        the match (chat is not a game event: a process that misses one shows it on the
        next history read, from the database)."""
        if self.shared:
            self.pubsub.publish({"o": self.node, "m": live.id, "chat": row, "muted": sorted(muted)})

    def _on_message(self, message: dict[str, Any]) -> None:
        if message.get("o") == self.node:
            return
        match_id = message.get("m")
        live = self.service.live.get(match_id) if isinstance(match_id, str) else None
        if live is None:
            return  # not held here: it is read from the database when first asked for
        chat = message.get("chat")
        if isinstance(chat, dict):
            muted = {m for m in message.get("muted", []) if isinstance(m, int)}
            Chat.deliver(live, chat, muted)
            return
        n, seq = message.get("n"), message.get("s")
        if not isinstance(n, int) or not isinstance(seq, int):
            return
        if n <= len(live.events) and seq <= live.seq:
            return
        if "moves" in message and not live.lock.locked():
            self._spawn(self._apply(live, message))
        else:
            self.sync_soon(live.id)

    async def _apply(self, live: Live, message: dict[str, Any]) -> None:
        """The published rows of an action, applied without reading the database when they
        follow what this process holds (else it reads what it lacks)."""
        try:
            async with live.lock:
                entries = self.service.db.apply_rows(
                    live, message["moves"], message["events"], message["values"]
                )
                if entries is None:
                    entries = await self.service.db.catch_up(live)
                if entries is not None:
                    self.service.bus.send(live, entries)
        except Exception:  # a message this process cannot use: read the stored match instead
            log.exception("node %s: applying news of match %s failed", self.node, live.id)
            self.sync_soon(live.id)
            return
        self.service.after_change(live)

    def sync_soon(self, match_id: str) -> None:
        """Catch up with the stored match ``match_id`` soon (once, however often asked)."""
        if match_id in self._syncing or match_id not in self.service.live:
            return
        self._syncing.add(match_id)
        self._spawn(self._sync(match_id))

    async def _sync(self, match_id: str) -> None:
        try:
            live = self.service.live.get(match_id)
            if live is None:
                return
            async with live.lock:
                self._syncing.discard(match_id)
                await self.service.turns.catch_up(live)
            self.service.after_change(live)
        except Exception:
            log.exception("node %s: catching up with match %s failed", self.node, match_id)
        finally:
            self._syncing.discard(match_id)

    # -- the heartbeat round ------------------------------------------------------------------
    async def _rounds(self) -> None:
        while True:
            await asyncio.sleep(self.settings.node_beat)
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database may be down a moment: the next round tries again
                log.exception("node %s: heartbeat round failed", self.node)

    async def round(self) -> None:
        """Beat; take over the active matches of nodes that stopped beating; catch up with
        every match held here that the database has further (news lost on the way)."""
        db = self.service.db
        now = self.service.now()
        await db.run(db.store.heartbeat, self.node, now)
        taken = await db.run(db.store.claim, self.node, now - self.settings.node_ttl)
        for match_id in taken:
            live = await self.service.get(match_id)
            if live is not None and live.node != self.node:
                log.info("node %s: took over match %s", self.node, match_id)
                live.node = self.node
                async with live.lock:
                    await self.service.turns.catch_up(live)
                    await self.service.turns.check_flag(live)
                self.service.after_change(live)
        # The look at the database for news that did not come: every round while the
        # pub/sub is down and once after it subscribed again, else every CHECK_EVERY rounds
        # (a safety net: Redis delivers what it accepted to a subscribed process).
        self._since_check += 1
        epoch = self.pubsub.epoch
        if self.pubsub.healthy and epoch == self._epoch and self._since_check < CHECK_EVERY:
            return
        self._since_check, self._epoch = 0, epoch
        held = list(self.service.live)
        heads = await db.run(db.store.heads, held)
        for match_id, (node, last, played) in heads.items():
            live = self.service.live.get(match_id)
            if live is None:
                continue
            lost = live.node == self.node and node != self.node
            live.node = node
            if last > len(live.events) or played > live.seq:
                self.sync_soon(match_id)
            elif lost:
                self.service.after_change(live)  # another node runs it now: stop the timer

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        spawn: Callable[[Coroutine[Any, Any, None]], None] = self.service._spawn
        spawn(coro)
