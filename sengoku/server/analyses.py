"""Post-game analyses on the server (issue 38): jobs on a queue, results stored once.

``POST /api/matches/{id}/analysis`` asks for the analysis of a match that is over; the job
(:func:`run_job`: ``sengoku.analysis.analyse`` over the match's record) runs off the event
loop, counts its progress in the ``analyses`` table and stores its result there, where
``GET`` reads it. A result is computed once and then served from storage.

Two queues, one job:

* **One machine** (``--pubsub memory://``, the default, or ``none://``): :class:`LocalQueue`,
  the server's own process pool (``Settings.analysis_workers`` spawned processes that die
  with the server). A job whose process died is started again: at the server's next start
  (one process) or at the next ``POST`` once its row has shown no progress for
  ``Settings.analysis_lease`` seconds (several processes on one database).
* **Several processes** (``--pubsub redis://``): :class:`ArqQueue`, a Redis queue of the
  maintained ``arq`` library, consumed by ``sengoku worker`` processes on any machine
  (``sengoku/server/analysis_worker.py``). The job's id is the match and kind, so arq keeps
  one job per analysis however often it is asked for; a job whose worker died (``kill -9``)
  stays in the queue and is run again by another worker once its claim in Redis expires.

Whatever the queue, a result is written once: :meth:`AnalysisStore.finish` stores it only
where none is stored (a unique row per match and kind), so a job run twice (its first worker
was thought dead but finished after all) finds the result stored and discards its own; and a
job that finds its analysis done does not compute it again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, insert, select, update
from sqlalchemy import exc as sa_exc

from sengoku.analysis import AnalysisBudget, analyse
from sengoku.core.game import SengokuError
from sengoku.core.record import GameRecord
from sengoku.server.db import analyses, dumps, make_engine
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_
from sengoku.server.live import LIVE_STATUSES, Live

if TYPE_CHECKING:
    from sengoku.server.service import MatchService
    from sengoku.server.settings import Settings

log = logging.getLogger("sengoku.server")

#: "mover": every ply searched from what its mover could see; "hindsight": from the true
#: position, hidden parts included (finished games only).
KINDS = ("mover", "hindsight")
#: The arq queue of analysis jobs, and the name its workers know the job by.
QUEUE_NAME = "sengoku:analysis"
JOB_FUNCTION = "analyse_match"
#: The queue URLs that are Redis (arq); any other keeps the jobs in the server's own pool.
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
#: Progress is written at most this often (seconds), and at the last ply.
PROGRESS_EVERY = 0.25
#: The seed of every server analysis (an iteration budget makes the result reproducible).
SEED = 0


def job_id(match_id: str, kind: str) -> str:
    """The job's id in the queue: one job per match and kind (arq's de-duplication)."""
    return f"analysis:{match_id}:{kind}"


def now() -> float:
    # Wall-clock time: jobs run in other processes and machines, beside any test clock.
    return time.time()


class AnalysisStore:
    """The ``analyses`` rows, each method one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def get(self, match_id: str, kind: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = (
                conn.execute(
                    select(analyses).where(analyses.c.match_id == match_id, analyses.c.kind == kind)
                )
                .mappings()
                .first()
            )
        return None if row is None else dict(row)

    def ask(self, match_id: str, kind: str, total: int, at: float) -> tuple[dict[str, Any], bool]:
        """The row of this analysis, made ``queued`` if there is none (or queued again if
        its job failed); and whether a job is to be queued now (it is new or re-queued)."""
        fresh = self._insert(match_id, kind, "queued", total, 0, at)
        with self.engine.begin() as conn:
            if not fresh:  # asked before: that row stands, unless its job failed
                again = conn.execute(
                    update(analyses)
                    .where(
                        analyses.c.match_id == match_id,
                        analyses.c.kind == kind,
                        analyses.c.status == "failed",
                    )
                    .values(status="queued", done=0, error=None, updated_at=at)
                )
                fresh = again.rowcount > 0
            row = (
                conn.execute(
                    select(analyses).where(analyses.c.match_id == match_id, analyses.c.kind == kind)
                )
                .mappings()
                .one()
            )
        return dict(row), fresh

    def _insert(
        self, match_id: str, kind: str, status: str, total: int, tries: int, at: float
    ) -> bool:
        """Insert the row if absent: False when it is there already (the key holds)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(analyses).values(
                        match_id=match_id,
                        kind=kind,
                        status=status,
                        done=0,
                        total=total,
                        tries=tries,
                        created_at=at,
                        updated_at=at,
                    )
                )
        except sa_exc.IntegrityError:
            return False
        return True

    def start(self, match_id: str, kind: str, total: int, at: float) -> bool:
        """A job starts: ``running``, no plies done, one more try. False when the analysis
        is stored already (nothing to do); a row that is missing is made."""
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(analyses)
                .where(
                    analyses.c.match_id == match_id,
                    analyses.c.kind == kind,
                    analyses.c.status != "done",
                )
                .values(
                    status="running",
                    done=0,
                    total=total,
                    error=None,
                    tries=analyses.c.tries + 1,
                    updated_at=at,
                )
            )
            if moved.rowcount:
                return True
        # no row that is not done: none at all (made here), or a stored result
        return self._insert(match_id, kind, "running", total, 1, at)

    def progress(self, match_id: str, kind: str, done: int, at: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(analyses)
                .where(
                    analyses.c.match_id == match_id,
                    analyses.c.kind == kind,
                    analyses.c.status == "running",
                )
                .values(done=done, updated_at=at)
            )

    def finish(self, match_id: str, kind: str, result: str, done: int, at: float) -> bool:
        """Store the result, only where none is stored: True if this call stored it, False
        if another job's result was there first (this one is discarded)."""
        with self.engine.begin() as conn:
            stored = conn.execute(
                update(analyses)
                .where(
                    analyses.c.match_id == match_id,
                    analyses.c.kind == kind,
                    analyses.c.status != "done",
                )
                .values(
                    status="done",
                    done=done,
                    result=result,
                    error=None,
                    updated_at=at,
                    finished_at=at,
                )
            )
        return bool(stored.rowcount)

    def fail(self, match_id: str, kind: str, error: str, at: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(analyses)
                .where(
                    analyses.c.match_id == match_id,
                    analyses.c.kind == kind,
                    analyses.c.status != "done",
                )
                .values(status="failed", error=error[:500], updated_at=at, finished_at=at)
            )

    def unfinished(self) -> list[tuple[str, str]]:
        """The analyses queued or running (a restarted server's lost jobs)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(analyses.c.match_id, analyses.c.kind).where(
                    analyses.c.status.in_(("queued", "running"))
                )
            ).all()
        return [(r[0], r[1]) for r in rows]


# -- the job -------------------------------------------------------------------------------
_engines: dict[str, Engine] = {}
_engines_lock = threading.Lock()


def store_for(db_url: str) -> AnalysisStore:
    """This process's store on ``db_url`` (one engine per database, made once)."""
    with _engines_lock:
        engine = _engines.get(db_url)
        if engine is None:
            engine = _engines[db_url] = make_engine(db_url, pool_size=2)
    return AnalysisStore(engine)


def job_budget(budget: dict[str, Any], max_seconds: float | None = None) -> AnalysisBudget:
    """The analysis budget a job was given: its iterations a ply, its CPU budget
    (``cpu_seconds``, the searching thread's CPU time for the whole game) and its wall-clock
    safety net (``seconds``), each cut to ``max_seconds`` (the worker's own cap) when it
    asks for more or for none: a job never holds its worker longer than that."""

    def capped(value: Any) -> float | None:
        if max_seconds is not None:
            return max_seconds if value is None else min(float(value), max_seconds)
        return None if value is None else float(value)

    return AnalysisBudget(
        iterations=int(budget.get("iterations", 200)),
        seconds=capped(budget.get("seconds")),
        cpu_seconds=capped(budget.get("cpu_seconds")),
    )


def compute(
    store: AnalysisStore,
    match_id: str,
    kind: str,
    record_data: dict[str, Any],
    budget: AnalysisBudget,
) -> str:
    """Analyse the record and store the result once: ``"done"`` (this job stored it),
    ``"stored"`` (it was stored already, by this job's twin: nothing computed or discarded),
    or ``"failed"`` (the record cannot be analysed; the row says why)."""
    record = GameRecord.from_json(record_data)
    total = len(record.actions)
    if not store.start(match_id, kind, total, now()):
        return "stored"
    done = 0
    last = 0.0

    def progress(_ply: Any) -> None:
        nonlocal done, last
        done += 1
        if done == total or time.monotonic() - last >= PROGRESS_EVERY:
            last = time.monotonic()
            store.progress(match_id, kind, done, now())

    try:
        analysis = analyse(
            record, budget, seed=SEED, hindsight=kind == "hindsight", progress=progress
        )
    except SengokuError as exc:
        store.fail(match_id, kind, str(exc), now())
        return "failed"
    data = analysis.to_json()
    described = best_described(record, {p["ply"]: p["best"] for p in data["plies"]})
    for p in data["plies"]:
        p["best_described"] = described.get(p["ply"])
    if not store.finish(match_id, kind, dumps(data), done, now()):
        log.info("analysis %s/%s was stored by another job: this one is discarded", match_id, kind)
        return "stored"
    return "done"


def best_described(record: GameRecord, best: dict[int, str]) -> dict[int, dict[str, Any]]:
    """The engine's preferred move of each ply as data (``ActionDescription``: its squares
    or cards), described on the position before that ply: what a board draws as a hint.
    The record is public once the game is over, and each move is the mover's own."""
    game = record.load_game()
    out: dict[int, dict[str, Any]] = {}
    for step in record.steps(check_result=False):
        if step.kind == "concession":
            continue
        coming = step.ply + 1  # described now: the engine may reuse its state object
        if coming in best:
            try:
                action = game.parse_action(step.state, best[coming])
                out[coming] = game.describe_action(step.state, action).to_json()
            except SengokuError:
                pass  # described where it can be; the notation is always there
    return out


def run_job(
    db_url: str,
    match_id: str,
    kind: str,
    record_data: dict[str, Any],
    budget: dict[str, Any],
    max_seconds: float | None = None,
) -> str:
    """One analysis job, in a worker process (or thread): :func:`compute` on ``db_url``.
    An unexpected fault marks the analysis failed (asking again queues it again)."""
    store = store_for(db_url)
    try:
        return compute(store, match_id, kind, record_data, job_budget(budget, max_seconds))
    except Exception:
        log.exception("analysis %s/%s failed", match_id, kind)
        store.fail(match_id, kind, "the analysis failed on the server", now())
        return "failed"


# -- the queues ----------------------------------------------------------------------------
def json_serializer(value: Any) -> bytes:
    """arq's jobs as JSON, not its default pickle: what Redis holds is data, never code."""
    return json.dumps(value, separators=(",", ":"), default=str).encode()


def json_deserializer(data: bytes) -> Any:
    return json.loads(data)


class LocalQueue:
    """Jobs in this server's own process pool (one machine)."""

    shared = False

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.executor: Executor | None = None
        #: The jobs of this process, running or waiting for a worker, by (match, kind).
        self.tasks: dict[tuple[str, str], asyncio.Task[None]] = {}

    def _executor(self) -> Executor:
        if self.executor is None:
            from sengoku.server.ai import make_executor

            self.executor = make_executor(
                self.settings.analysis_mode,
                self.settings.analysis_workers,
                self.settings.ai_initializer,
            )
        return self.executor

    def holds(self, match_id: str, kind: str) -> bool:
        return (match_id, kind) in self.tasks

    async def submit(
        self, match_id: str, kind: str, record: dict[str, Any], budget: dict[str, Any]
    ) -> None:
        key = (match_id, kind)
        if key in self.tasks:
            return
        task = asyncio.get_running_loop().create_task(self._run(key, record, budget))
        self.tasks[key] = task
        task.add_done_callback(lambda _t: self.tasks.pop(key, None))

    async def _run(
        self, key: tuple[str, str], record: dict[str, Any], budget: dict[str, Any]
    ) -> None:
        loop = asyncio.get_running_loop()
        try:
            outcome = await loop.run_in_executor(
                self._executor(),
                run_job,
                self.settings.db_url,
                key[0],
                key[1],
                record,
                budget,
                self.settings.analysis_seconds,
            )
            log.info("analysis %s/%s: %s", key[0], key[1], outcome)
        except asyncio.CancelledError:
            raise
        except Exception:  # its worker died: the row's lease lets a later request retry
            log.exception("analysis %s/%s: its worker failed", key[0], key[1])
            self.executor = None

    async def close(self) -> None:
        for task in list(self.tasks.values()):
            task.cancel()
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None


class ArqQueue:
    """Jobs in a Redis queue of ``arq``, run by ``sengoku worker`` processes."""

    shared = True

    def __init__(self, redis_url: str) -> None:
        self.redis_url = redis_url
        self.pool: Any = None

    async def _pool(self) -> Any:
        if self.pool is None:
            from arq import create_pool
            from arq.connections import RedisSettings

            self.pool = await create_pool(
                RedisSettings.from_dsn(self.redis_url),
                default_queue_name=QUEUE_NAME,
                job_serializer=json_serializer,
                job_deserializer=json_deserializer,
            )
        return self.pool

    def holds(self, match_id: str, kind: str) -> bool:
        return False  # arq keeps one job per id: asking again is always safe

    async def submit(
        self, match_id: str, kind: str, record: dict[str, Any], budget: dict[str, Any]
    ) -> None:
        pool = await self._pool()
        # None when the job is in the queue or running already: arq de-duplicates by id.
        await pool.enqueue_job(
            JOB_FUNCTION, match_id, kind, record, budget, _job_id=job_id(match_id, kind)
        )

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.aclose()
            self.pool = None


def view(row: dict[str, Any] | None, match_id: str, kind: str) -> dict[str, Any]:
    """What the API says of an analysis."""
    if row is None:
        return {
            "match": match_id,
            "kind": kind,
            "status": "none",
            "progress": {"done": 0, "total": 0},
            "result": None,
        }
    out: dict[str, Any] = {
        "match": match_id,
        "kind": kind,
        "status": row["status"],
        "progress": {"done": row["done"], "total": row["total"]},
        "result": json.loads(row["result"]) if row["result"] else None,
        "created_at": row["created_at"],
        "finished_at": row["finished_at"],
    }
    if row["error"]:
        out["error"] = row["error"]
    return out


class Analyses:
    """The service's analyses: asked for by the routes, queued, served from storage."""

    def __init__(self, service: MatchService, settings: Settings) -> None:
        self.service = service
        self.settings = settings
        self.store = AnalysisStore(service.store.engine)
        url = settings.analysis_queue or settings.pubsub_url
        self.queue: LocalQueue | ArqQueue = (
            ArqQueue(url) if url.startswith(REDIS_SCHEMES) else LocalQueue(settings)
        )
        #: One server process alone on its database: a row it does not run is a lost job.
        self.alone = settings.pubsub_url in ("", "memory://")

    def budget(self) -> dict[str, Any]:
        return {
            "iterations": self.settings.analysis_iterations,
            "cpu_seconds": self.settings.analysis_cpu_seconds,
            "seconds": self.settings.analysis_seconds,
        }

    async def _record(self, live: Live, kind: str) -> dict[str, Any]:
        if live.status in LIVE_STATUSES:
            # A player must not get the engine's help in their own game, nor a spectator of
            # a hidden-information game a look the analysis could give.
            raise ApiError(
                409,
                "not_finished",
                N_("this match is still in play; it can be analysed once it is over"),
            )
        record = live.record()
        if kind == "hindsight" and record.result is None:
            raise ApiError(
                409,
                "not_finished",
                N_(
                    "a hindsight analysis (every hidden card and piece visible) is only for a "
                    "finished game; this one has no result"
                ),
            )
        return record.to_json()

    async def ask(self, live: Live, kind: str) -> dict[str, Any]:
        record = await self._record(live, kind)
        row, fresh = await self.service.db.run(
            self.store.ask, live.id, kind, len(record["actions"]), now()
        )
        if row["status"] != "done" and (fresh or self._lost(row)):
            await self.queue.submit(live.id, kind, record, self.budget())
        return view(row, live.id, kind)

    def _lost(self, row: dict[str, Any]) -> bool:
        """Whether an unfinished analysis is to be queued again: arq keeps one job per id
        (asking again is safe); here, when no job of this process holds it and either no
        other process could (one process) or it has shown no life for the lease."""
        if self.queue.shared:
            return True
        if self.queue.holds(row["match_id"], row["kind"]):
            return False
        return self.alone or now() - float(row["updated_at"]) > self.settings.analysis_lease

    async def look(self, live: Live, kind: str) -> dict[str, Any]:
        if live.status in LIVE_STATUSES:
            raise ApiError(
                409, "not_finished", N_("this match is still in play; it has no analysis yet")
            )
        row = await self.service.db.run(self.store.get, live.id, kind)
        return view(row, live.id, kind)

    async def resume(self) -> None:
        """One process alone on its database: queue again the jobs its last run left."""
        if not self.alone or self.queue.shared:
            return
        for match_id, kind in await self.service.db.run(self.store.unfinished):
            try:
                live = await self.service.require(match_id)
                record = await self._record(live, kind)
            except (ApiError, SengokuError):
                continue
            await self.queue.submit(match_id, kind, record, self.budget())

    async def close(self) -> None:
        await self.queue.close()


__all__ = [
    "KINDS",
    "QUEUE_NAME",
    "Analyses",
    "AnalysisStore",
    "ArqQueue",
    "LocalQueue",
    "compute",
    "run_job",
    "view",
]
