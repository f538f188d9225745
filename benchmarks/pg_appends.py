"""PostgreSQL appends alone: an action's rows (its move, an event, the match's clock) stored
through the server's own path (``Persistence.run`` -> ``loop_appends``), compared between
source trees in one run.

    python benchmarks/pg_appends.py                          # this tree
    python benchmarks/pg_appends.py --trees OLD_TREE .       # the first is the reference

One throw-away PostgreSQL cluster (fsync off, loopback TCP or ``--socket``) serves every
tree. Each round runs each tree in turn, in a child interpreter whose ``sengoku`` is that
tree's: ``--matches`` matches are created, then ``--appends`` appends are sent
``--concurrency`` at a time, after ``--warmup`` appends that are not counted. Printed per
tree: the client's CPU per append (the child's user + system time), PostgreSQL's CPU per
append (every backend), the append's round trip (median and p99) and the child's peak
memory, each also as a ratio to the reference tree measured in the same round; the last
line gives the medians over the rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from server_load import cluster_pids, cpu_seconds, postgres_cluster  # noqa: E402

CHILD = r"""
import asyncio, json, resource, sys, time, uuid
from sengoku.server.db import Store, make_engine, migrate
from sengoku.server.persistence import Persistence
from sengoku.server.settings import Settings

url, matches, appends, warmup, concurrency = sys.argv[1], *map(int, sys.argv[2:6])
engine = make_engine(url)
migrate(engine)
store = Store(engine)
ids = [uuid.uuid4().hex for _ in range(matches)]
for mid in ids:
    store.create_match(
        {"id": mid, "game": "gungi", "version": 1, "options": "{}", "seed": "1",
         "status": "active", "created_at": 1.0, "updated_at": 1.0},
        [{"match_id": mid, "seat": s, "kind": "human", "name": "p"} for s in (0, 1)], [],
    )
persistence = Persistence(Settings(db_url=url, db_workers=4), store)

async def main():
    seq = {mid: 0 for mid in ids}
    times = []
    async def one(k):
        mid = ids[k % len(ids)]
        n = seq[mid]
        seq[mid] += 1
        move = {"match_id": mid, "seq": n, "kind": "action", "seat": n % 2,
                "action": "9-6-1 \u5175(9-7)", "reason": None, "at": 1764288000.5 + n,
                "clocks": '{"remaining": [300.0, 300.0]}', "client_id": None}
        event = {"match_id": mid, "n": n + 1, "ply": n + 1, "audience": None,
                 "payload": '{"type": "move", "message": "White plays 9-6-1"}'}
        start = time.perf_counter()
        await persistence.run(store.record_change, mid, [move], [event],
                              {"updated_at": 1764288000.5 + n, "clock": None})
        return time.perf_counter() - start
    async def batch(first, count):
        out = []
        for i in range(first, first + count, concurrency):
            out += await asyncio.gather(*(one(k) for k in range(i, min(i + concurrency, first + count))))
        return out
    await batch(0, warmup)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime
    print("READY", flush=True)
    sys.stdin.readline()
    times = await batch(warmup, appends)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime - cpu
    await persistence.aclose()
    times.sort()
    print(json.dumps({"cpu": cpu, "median": times[len(times) // 2],
                      "p99": times[int(len(times) * 0.99)],
                      "peak_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))

asyncio.run(main())
"""


def run_tree(tree: Path, url: str, data: Path, args: argparse.Namespace) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, url, str(args.matches), str(args.appends)]
        + [str(args.warmup), str(args.concurrency)],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        ready = proc.stdout.readline()
        if ready.strip() != "READY":
            raise SystemExit(f"{tree}: the child failed before measuring ({ready!r})")
        pg_before = cpu_seconds(cluster_pids(data))
        proc.stdin.write("go\n")
        proc.stdin.flush()
        result: dict[str, Any] = json.loads(proc.stdout.readline())
        result["pg_cpu"] = cpu_seconds(cluster_pids(data)) - pg_before
    finally:
        proc.stdin.close()
        proc.wait(60)
    return result


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trees", nargs="+", type=Path, default=[Path(__file__).parent.parent])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--matches", type=int, default=200)
    p.add_argument("--appends", type=int, default=5000)
    p.add_argument("--warmup", type=int, default=500)
    p.add_argument("--concurrency", type=int, default=20)
    p.add_argument("--socket", action="store_true", help="the cluster's Unix socket, not TCP")
    args = p.parse_args()
    trees = [t.resolve() for t in args.trees]
    per_tree: dict[Path, list[dict[str, Any]]] = {t: [] for t in trees}
    with postgres_cluster(fsync=False, socket=args.socket) as (url, data):
        for r in range(args.rounds):
            ref: dict[str, Any] | None = None
            for tree in trees:
                got = run_tree(tree, url, data, args)
                per_tree[tree].append(got)
                ref = ref or got
                n = args.appends
                print(
                    f"round {r + 1} {tree.name:>16}: client CPU {got['cpu'] / n * 1e6:6.0f} µs "
                    f"({got['cpu'] / ref['cpu']:.2f}x)  PostgreSQL CPU "
                    f"{got['pg_cpu'] / n * 1e6:6.0f} µs ({got['pg_cpu'] / ref['pg_cpu']:.2f}x)  "
                    f"round trip median {got['median'] * 1e3:5.2f} ms "
                    f"({got['median'] / ref['median']:.2f}x) p99 {got['p99'] * 1e3:5.2f} ms  "
                    f"peak {got['peak_kib'] / 1024:.0f} MiB",
                    flush=True,
                )
    first = per_tree[trees[0]]
    for tree in trees:
        rows = per_tree[tree]

        def ratio(key: str, rows: list[dict[str, Any]] = rows) -> float:
            return statistics.median(a[key] / b[key] for a, b in zip(rows, first, strict=True))

        print(
            f"median of {args.rounds} rounds, {tree.name}: client CPU {ratio('cpu'):.2f}x, "
            f"PostgreSQL CPU {ratio('pg_cpu'):.2f}x, round trip {ratio('median'):.2f}x, "
            f"p99 {ratio('p99'):.2f}x of {trees[0].name}"
        )


if __name__ == "__main__":
    main()
