"""``sengoku worker``: runs the post-game analyses queued in Redis, on any machine.

The servers (``sengoku serve --pubsub redis://...``) queue each analysis as an ``arq`` job
(sengoku/server/analyses.py); this process is an ``arq.Worker`` on that queue. Each job runs
in a spawned process of its own pool (``--jobs`` at once; they die with the worker, even of
``kill -9``), under the job's analysis budget (iterations a ply, a CPU budget counted on the
searching thread's CPU time, a wall-clock safety net) with both its CPU budget and its
wall-clock cap cut to half of ``--job-timeout``, and writes its progress and result to the
database (``--db``) itself.

What a dead worker leaves (arq's semantics, arq 0.26-0.28): a job stays in the queue until it
ends; a worker that takes it sets a claim in Redis that expires ``--job-timeout`` + 10 seconds
later. A worker killed mid-job (``kill -9``) leaves its claim to expire, and another worker then
runs the job again from its first ply (``--max-tries`` runs at most). A worker told to stop
(SIGTERM, SIGINT) gives its running jobs back to the queue at once. A result is stored only
where none is (``AnalysisStore.finish``), so a job run twice is stored once.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor
from typing import Any

from sengoku.server.analyses import (
    JOB_FUNCTION,
    QUEUE_NAME,
    json_deserializer,
    json_serializer,
    run_job,
)

log = logging.getLogger("sengoku.server")

#: The share of a job's time limit its analysis may use (its CPU budget and its wall-clock
#: cap are each cut to it): the analysis stops by itself well before arq would cancel the
#: job, with time left to replay the record, search each ply's floor of iterations and store
#: the result.
TIME_SHARE = 0.5


def time_cap(job_timeout: float) -> float:
    """The analysis time (CPU and wall clock, each) a job of this worker may use."""
    return max(1.0, job_timeout * TIME_SHARE)


def warm_up() -> None:
    """Run in each pool process at the worker's start: the analysis and every game are
    imported before the first job, whose time limit then pays for none of it."""
    import sengoku.analysis  # noqa: F401
    from sengoku.core.registry import list_games, load_game

    for name in list_games():
        load_game(name)


async def analyse_match(
    ctx: dict[str, Any],
    match_id: str,
    kind: str,
    record: dict[str, Any],
    budget: dict[str, Any],
) -> str:
    """The arq job: one analysis, in this worker's process pool."""
    executor: Executor = ctx["executor"]
    log.info("analysis %s/%s: try %s", match_id, kind, ctx.get("job_try"))
    outcome: str = await asyncio.get_running_loop().run_in_executor(
        executor, run_job, ctx["db_url"], match_id, kind, record, budget, ctx["max_seconds"]
    )
    log.info("analysis %s/%s: %s", match_id, kind, outcome)
    return outcome


def make_worker(
    redis_url: str,
    db_url: str,
    jobs: int = 1,
    job_timeout: float = 600.0,
    max_tries: int = 3,
    burst: bool = False,
) -> Any:
    """An ``arq.Worker`` for the analysis queue (its event loop is made here)."""
    from arq import Worker, func
    from arq.connections import RedisSettings

    from sengoku.server.children import ProcessPool

    async def startup(ctx: dict[str, Any]) -> None:
        from sengoku.server.db import make_engine, migrate

        # the table may be newer than the database (a worker started before any server)
        engine = make_engine(db_url, pool_size=1)
        await asyncio.get_running_loop().run_in_executor(None, migrate, engine)
        engine.dispose()
        # Spawned from the loop's thread, which lives as long as the worker: the processes
        # get SIGKILL when the worker dies, even of kill -9 (children.py).
        ctx["executor"] = executor = ProcessPool(jobs, None)
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(executor, warm_up) for _ in range(jobs)))
        log.info("worker: %d job(s) at once on %s, time limit %g s", jobs, QUEUE_NAME, job_timeout)

    async def shutdown(ctx: dict[str, Any]) -> None:
        executor = ctx.get("executor")
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    return Worker(
        functions=[
            func(
                analyse_match,
                name=JOB_FUNCTION,
                timeout=job_timeout,
                max_tries=max_tries,
                keep_result=0,
            )
        ],
        queue_name=QUEUE_NAME,
        redis_settings=RedisSettings.from_dsn(redis_url),
        on_startup=startup,
        on_shutdown=shutdown,
        max_jobs=jobs,
        job_timeout=job_timeout,
        max_tries=max_tries,
        # No result kept in Redis (the database holds it): the job's id is free again once
        # it ends, so a later request may queue it anew (after a failure).
        keep_result=0,
        ctx={"db_url": db_url, "max_seconds": time_cap(job_timeout)},
        job_serializer=json_serializer,
        job_deserializer=json_deserializer,
        burst=burst,
    )


def run(
    redis_url: str,
    db_url: str,
    jobs: int = 1,
    job_timeout: float = 600.0,
    max_tries: int = 3,
) -> None:
    """Run a worker until SIGTERM or SIGINT."""
    from sengoku.server import log_to_stderr

    log_to_stderr()
    logging.getLogger("arq").setLevel(logging.INFO)
    if not logging.getLogger("arq").handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:     %(name)s: %(message)s"))
        logging.getLogger("arq").addHandler(handler)
    make_worker(redis_url, db_url, jobs, job_timeout, max_tries).run()
