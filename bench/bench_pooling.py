"""Web processes and their workers on a fixed number of PostgreSQL server connections:
PgBouncer in transaction mode, as docker-compose.yml runs it (issue 45, item 3).

    .venv/bin/python bench/bench_pooling.py [--players 8] [--seconds 10] [--pool-size 4]

Without DATABASE_URL/REDIS_URL it runs itself under scripts/test-services (throwaway
PostgreSQL and Redis, removed afterwards). PgBouncer runs the shipped configuration
(deploy/pgbouncer/pgbouncer.ini, through tests/deploy/pgbouncer.py) with
--pool-size server connections instead of the shipped 20, so that the pool is smaller
than the number of processes on this small machine. For 1, 2 and 4 web processes
(gunicorn, sync, DATABASE_POOLER=pgbouncer as in compose) and a Celery worker with as
many processes, fresh players play today's three dailies flat out for --seconds (every
finished game is a verification for the worker: 8 players finish two games each); then
the same with four web processes straight to PostgreSQL, as before PgBouncer. Every
0.2 s it counts:

- server connections: pg_stat_activity's client backends in the app's database (the
  bench's own connection left out), and how many of them are running a query;
- client connections: PgBouncer's SHOW POOLS (cl_active, cl_waiting, maxwait), on its
  admin console.

Not a test: the figures vary with what else runs on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_capacity import postmaster_pid, process_table, tree_cpu  # noqa: E402
from bench.bench_load import (  # noqa: E402
    DEALS,
    Http,
    percentile,
    reexec_under_services,
    stack_env,
)
from bench.stack import (  # noqa: E402
    make_players,
    set_up_as_stack,
    start_web,
    start_worker,
    wait_for_gunicorn,
)
from bench.stack import stop as stop_processes  # noqa: E402


@dataclass
class Census:
    """The largest counts seen while the players played."""

    servers: int = 0  # PostgreSQL backends of the app's database
    running: int = 0  # of them, running a statement at that moment
    clients: int = 0  # connections of the app's processes to PgBouncer
    waiting: int = 0  # clients queued for a server connection
    max_wait_ms: float = 0.0
    samples: int = 0

    def add(self, servers: int, running: int, pools: list[dict[str, Any]] | None) -> None:
        self.samples += 1
        self.servers, self.running = max(self.servers, servers), max(self.running, running)
        for pool in pools or []:
            self.clients = max(self.clients, int(pool["cl_active"]) + int(pool["cl_waiting"]))
            self.waiting = max(self.waiting, int(pool["cl_waiting"]))
            wait = int(pool["maxwait"]) * 1000 + int(pool.get("maxwait_us", 0)) / 1000
            self.max_wait_ms = max(self.max_wait_ms, wait)


@dataclass
class Played:
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)


def sample(database_url: str, admin_url: str | None, census: Census, stop: threading.Event) -> None:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as db:
        console = (
            psycopg.connect(admin_url, autocommit=True, cursor_factory=psycopg.ClientCursor)
            if admin_url
            else None
        )
        try:
            while not stop.is_set():
                row = db.execute(
                    "SELECT count(*), count(*) FILTER (WHERE state = 'active') "
                    "FROM pg_stat_activity WHERE datname = current_database() "
                    "AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
                ).fetchone()
                assert row is not None
                pools = None
                if console is not None:
                    cursor = console.execute("SHOW POOLS")
                    names = [column.name for column in cursor.description or []]
                    pools = [
                        dict(zip(names, values, strict=True))
                        for values in cursor.fetchall()
                        if values[0] != "pgbouncer"
                    ]
                census.add(int(row[0]), int(row[1]), pools)
                stop.wait(0.2)
        finally:
            if console is not None:
                console.close()


async def play(base: str, sessions: list[str], seconds: float, played: Played) -> None:
    """Each player starts today's three dailies and plays their lines flat out."""
    from tests.factories import winning_lines

    host, port = base.removeprefix("http://").split(":")
    lines = winning_lines()
    deadline = time.perf_counter() + seconds

    async def one(session: str) -> None:
        http = Http(host, int(port), f"sessionid={session}; csrftoken={'c' * 32}")
        try:
            for tier, deal in DEALS.items():
                status, body = await http.request("POST", "/api/games/", {"daily": tier})
                assert status in (200, 201), body
                game = json.loads(body)
                line, ply = lines[deal], game["ply"]
                while ply < len(line) and time.perf_counter() < deadline:
                    started = time.perf_counter()
                    try:
                        status, body = await http.request(
                            "POST",
                            f"/api/games/{game['id']}/moves/",
                            {"ply": ply, "move": line[ply]},
                        )
                    except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                        status, body = 0, type(exc).__name__.encode()
                    if status == 200:
                        played.latencies.append(time.perf_counter() - started)
                        ply += 1
                    else:
                        what = f"{status} {body[:80]!r}"
                        played.errors[what] = played.errors.get(what, 0) + 1
                        await asyncio.sleep(0.05)
                if time.perf_counter() >= deadline:
                    return
        finally:
            http.close()

    await asyncio.gather(*(one(session) for session in sessions))


def pooler_counts(admin_url: str | None) -> tuple[int, int]:
    """Transactions and queries PgBouncer has passed on for the app's database so far."""
    if admin_url is None:
        return 0, 0
    import psycopg

    with psycopg.connect(admin_url, autocommit=True, cursor_factory=psycopg.ClientCursor) as a:
        cursor = a.execute("SHOW STATS")
        names = [column.name for column in cursor.description or []]
        rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    (stats,) = [row for row in rows if row["database"] != "pgbouncer"]
    return int(stats["total_xact_count"]), int(stats["total_query_count"])


def run(  # noqa: PLR0917
    label: str,
    webs: int,
    database_url: str,
    pooled: bool,
    admin_url: str | None,
    sessions: list[str],
    seconds: float,
    tmp: Path,
    pids: dict[str, int],
) -> dict[str, Any]:
    from django.db import connections

    connections.close_all()  # the bench's own: only the stack's are counted
    env = stack_env(
        DATABASE_URL=database_url,
        DATABASE_POOLER="pgbouncer" if pooled else "",
        THROTTLE_MOVES="100000/s",
        METRICS_TOKEN="",
    )
    log_path = tmp / f"{label}.log"
    log = log_path.open("wb")
    web = start_web(env, log, workers=webs)
    worker = start_worker(env, log, concurrency=webs)
    census, played, stop = Census(), Played(), threading.Event()
    served = ""
    try:
        base = wait_for_gunicorn(log_path, web)
        sampler = threading.Thread(
            target=sample, args=(os.environ["DATABASE_URL"], admin_url, census, stop)
        )
        sampler.start()
        roots = {"web": web.pid, **pids}
        table = process_table()
        before = {role: tree_cpu(table, pid) for role, pid in roots.items()}
        counts_before = pooler_counts(admin_url)
        started = time.perf_counter()
        asyncio.run(play(base, sessions, seconds, played))
        elapsed = time.perf_counter() - started
        table = process_table()
        after = {role: tree_cpu(table, pid) for role, pid in roots.items()}
        counts_after = pooler_counts(admin_url)
        time.sleep(1.0)  # the last finished games' verifications
        stop.set()
        sampler.join()
        # stopping ends verifications under way: only what came before counts
        log.flush()
        served = log_path.read_text()
    finally:
        stop.set()
        stop_processes(web, worker)
        log.close()
    if "Traceback" in served:
        print(f"{label}: server log has tracebacks:\n" + served[-3000:])
    moves = len(played.latencies)
    per_move = {
        f"{role}_cpu_ms_per_move": round(1000 * (after[role] - before[role]) / max(moves, 1), 3)
        for role in after
    }
    transactions, queries = (b - a for a, b in zip(counts_before, counts_after, strict=True))
    return {
        **per_move,
        "transactions_per_move": round(transactions / max(moves, 1), 2) if pooled else None,
        "queries_per_move": round(queries / max(moves, 1), 2) if pooled else None,
        "label": label,
        "webs": webs,
        "worker_processes": webs,
        "pooled": pooled,
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "median_ms": round(1000 * statistics.median(played.latencies or [0]), 1),
        "p95_ms": round(1000 * percentile(played.latencies, 0.95), 1),
        "errors": played.errors,
        "server_connections_max": census.servers,
        "server_connections_running_max": census.running,
        "client_connections_max": census.clients if pooled else None,
        "clients_waiting_max": census.waiting if pooled else None,
        "max_wait_ms": round(census.max_wait_ms, 1) if pooled else None,
        "samples": census.samples,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--pool-size", type=int, default=4)
    args = parser.parse_args()
    reexec_under_services()
    set_up_as_stack(
        stack_env(),
        (
            "DJANGO_SETTINGS_MODULE",
            "DEBUG",
            "SECRET_KEY",
            "DAILY_SECRET",
            "RECEIPT_SIGNING_KEY",
            "ALLOWED_HOSTS",
            "LOG_LEVEL",
        ),
    )
    from tests.deploy.pgbouncer import pgbouncer
    from tests.factories import make_challenges

    make_challenges(numbers=DEALS)
    postmaster = postmaster_pid()
    direct_url = os.environ["DATABASE_URL"]
    database = direct_url.rsplit("/", 1)[1]
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    results = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        with pgbouncer(direct_url, tmp / "pgbouncer", pool_size=args.pool_size) as pooler:
            for webs in (1, 2, 4):
                label = f"pooled-{webs}"
                sessions = make_players(f"p{webs}w", args.players)
                results.append(
                    run(
                        label,
                        webs,
                        pooler.url(database),
                        True,
                        pooler.url("pgbouncer"),
                        sessions,
                        args.seconds,
                        tmp,
                        {"postgres": postmaster, "pgbouncer": pooler.pid},
                    )
                )
        sessions = make_players("d4w", args.players)
        results.append(
            run(
                "direct-4",
                4,
                direct_url,
                False,
                None,
                sessions,
                args.seconds,
                tmp,
                {"postgres": postmaster},
            )
        )
    print(f"load average {os.getloadavg()[0]:.2f} at the end (others share this machine)")
    print(
        f"{args.players} players flat out for {args.seconds:g} s each run; PgBouncer "
        f"default_pool_size {args.pool_size} (transaction mode)"
    )
    print(
        "| web processes | worker processes | to PostgreSQL | client connections (max) "
        "| clients waiting (max) | server connections (max) | running at once (max) "
        "| moves/s | median | p95 | CPU a move: web, PostgreSQL, PgBouncer |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r['webs']} | {r['worker_processes']} | "
            f"{'PgBouncer' if r['pooled'] else 'direct'} | "
            f"{r['client_connections_max'] if r['pooled'] else '-'} | "
            f"{r['clients_waiting_max'] if r['pooled'] else '-'} | "
            f"{r['server_connections_max']} | {r['server_connections_running_max']} | "
            f"{r['moves_per_s']:.0f} | {r['median_ms']} ms | {r['p95_ms']} ms | "
            f"{r['web_cpu_ms_per_move']}, {r['postgres_cpu_ms_per_move']}, "
            f"{r.get('pgbouncer_cpu_ms_per_move', '-')} ms |"
        )
        if r["pooled"]:
            print(
                f"  through PgBouncer, a move: {r['transactions_per_move']} transactions, "
                f"{r['queries_per_move']} queries (verifications and health checks included)"
            )
        if r["errors"]:
            print(f"  errors: {r['errors']}")
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
