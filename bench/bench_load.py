"""Load benchmark of the real stack: gunicorn (one worker per core), PostgreSQL, Redis and
a Celery worker, driven over loopback by simulated players (asyncio on uvloop with a
minimal HTTP client, ``Http`` below: the load generator shares the machine's two cores).

    .venv/bin/python bench/bench_load.py [--players 160] [--steps 300 400 500 600 700]
        [--step-seconds 15] [--seconds 10] [--max-rate 15] [--workers 2] [--threads 1]
        [--no-metrics] [--webs 1,2,4] [--own-addresses]

Without DATABASE_URL/REDIS_URL it runs itself under scripts/test-services (throwaway
PostgreSQL and Redis, removed afterwards). Each player logs in, starts the three daily
challenges and plays known winning lines (then practice games of the same deals). The
offered load climbs: human pace (a move every 0.5-2 s per player), then steps of a fixed
total rate of moves shared by the players, then flat out (each player as fast as the
server answers, but at most --max-rate moves/s, under the per-player limit of 20/s).
With a fixed number of players, flat out is a closed loop: latency is players / rate,
so the steps are where the latency at a given rate is measured.

Bounded in players, moves and time; it stops by itself and prints, for each phase:
accepted moves/s, median and p95 latency, error rate, the same for leaderboard reads made
meanwhile, and the CPU each part of the stack used; then pgbench one-row
insert-and-commit TPS on the same server in the same run, and a profile of the move
request (cProfile, in-process). Not a test: figures vary with what else runs.

With --webs 1,2,4 it runs the phases once per count of web processes (gunicorn workers,
fresh players each run) and ends with a table, one row per run and phase: moves/s,
p50/p95, and the CPU a move of each web process, of PostgreSQL (its postmaster's process
tree) and of the Celery worker, from each process's /proc/<pid>/stat, so that other
servers on a shared machine do not count (issue 45, item 6; docs/capacity.md, "Scale
out, measured").

Unless --no-metrics, the stack runs with a METRICS_TOKEN and the benchmark scrapes
``/metrics`` (as Prometheus would) after each phase and at the end, and prints the
figures the operator's alerts watch (docs/operations.md, "Metrics"): moves accepted and
refused by reason beside the benchmark's own count, move and board latency estimated
from the histograms, 5xx answers, verification lag and backlog, queue length, task
failures, dailies ready, Redis fallbacks.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import os
import pstats
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.stack import (  # noqa: E402 shared with bench_pooling; bench_capacity imports it here
    make_players,
    start_web,
    start_worker,
    stop,
    wait_for_gunicorn,
)

SECRET = "bench-load-" + "k3Yp9" * 10
METRICS_TOKEN = "bench-metrics-" + "t0K3n" * 6
ACCEPTED = [0]  # moves the players saw accepted, warm-up included: to compare with /metrics
DEALS = {"easy": 0, "medium": 1, "hard": 68}
# --own-addresses: the stack reads each player's address from this header, as behind a proxy
ADDRESS_SETTINGS = {"MODERATION_CLIENT_ADDRESS_HEADER": "HTTP_X_REAL_IP"}


def reexec_under_services() -> None:
    if os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"):
        return
    os.execv(
        sys.executable,
        [sys.executable, str(ROOT / "scripts" / "test-services"), "--", sys.executable, *sys.argv],
    )


def stack_env(**extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
        "DEBUG": "false",
        "SECRET_KEY": SECRET,
        "DAILY_SECRET": "bench-daily-secret",
        "RECEIPT_SIGNING_KEY": "YmVuY2gtbG9hZC1yZWNlaXB0LWtleS1ub3QtcmVhbCE=",
        "ALLOWED_HOSTS": "127.0.0.1,testserver",
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
        "LOG_LEVEL": "WARNING",
        "METRICS_TOKEN": METRICS_TOKEN,
        **extra,
    }


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.ok = 0
        self.errors: dict[str, int] = {}

    def add(self, seconds: float, ok: bool, what: str = "") -> None:
        self.latencies.append(seconds)
        if ok:
            self.ok += 1
        else:
            self.errors[what] = self.errors.get(what, 0) + 1

    def line(self, name: str, seconds: float) -> str:
        total = self.ok + sum(self.errors.values())
        rate = self.ok / seconds if seconds else 0
        return (
            f"{name}: {self.ok} ok in {seconds:.1f} s = {rate:.0f}/s; median "
            f"{1000 * statistics.median(self.latencies or [0]):.1f} ms, p95 "
            f"{1000 * percentile(self.latencies, 0.95):.1f} ms; errors {sum(self.errors.values())}"
            f"/{total} ({100 * sum(self.errors.values()) / max(total, 1):.2f}%)"
            + (f" {self.errors}" if self.errors else "")
        )


class Http:
    """A minimal HTTP/1.1 client on asyncio streams, one connection at a time: the load
    generator shares the two cores with the stack, and aiohttp cost it twice the CPU per
    request. It keeps the connection when the server allows (gthread workers) and opens a
    new one when the server closes it (sync workers answer ``Connection: close``)."""

    def __init__(self, host: str, port: int, cookie: str = "", token: str = "") -> None:
        self.host, self.port = host, port
        self.head = f"Host: {host}:{port}\r\n"
        if token:
            self.head += f"Authorization: Bearer {token}\r\n"
        if cookie:
            self.head += f"Cookie: {cookie}\r\nX-CSRFToken: {'c' * 32}\r\n"
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        data = json.dumps(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\n{self.head}"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        try:
            return await self._exchange(head.encode() + b"\r\n" + data)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            self.close()
            raise

    async def _exchange(self, request: bytes) -> tuple[int, bytes]:
        if self.streams is None:
            self.streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self.streams
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = dict(line.lower().split(": ", 1) for line in lines[1:] if ": " in line)
        payload = await reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("connection") == "close":
            self.close()
        return status, payload

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


class Phase:
    """What the players are asked to do now: a name, and a total rate of moves (None: each
    player at its own human pace; ``inf``: flat out, up to --max-rate per player)."""

    def __init__(self) -> None:
        self.name, self.stop = "setup", False
        self.rate: float | None = None
        self.ready, self.all_ready = 0, asyncio.Event()  # players set up
        self.changed = asyncio.Event()


def next_move_at(
    phase: Phase, args: argparse.Namespace, rng: random.Random, planned: float, done: float
) -> float:
    """When this player's next move is due, given the last plan and the last answer."""
    if phase.rate is None:  # human pace
        return done + rng.uniform(0.5, 2.0)
    if phase.rate == float("inf"):  # flat out: as fast as answered
        return done
    # this player's share of the phase's rate, in random (Poisson) gaps; a player kept
    # waiting by a slow answer does not make up for it with a burst (people don't)
    return max(planned + rng.expovariate(phase.rate / args.players), done)


def first_move_in(phase: Phase, args: argparse.Namespace, rng: random.Random) -> float:
    """Seconds until a player's first move of a phase that just began (or its next move,
    cut short from a human pause). Drawn as the phase's own gaps are, so the phase's
    offered rate holds from its first second: when every player moved within 0.1 s of a
    phase change, the burst (160 players: 1,600 moves/s for a tenth of a second) left a
    backlog that took 1.5 s to clear, and its latencies were 15% of the phase's samples."""
    if phase.rate is None:
        return rng.uniform(0.0, 2.0)
    if phase.rate == float("inf"):
        return 0.0
    return rng.expovariate(phase.rate / args.players)


async def warm_up(  # noqa: PLR0917
    http: Http, game_id: int, line: list[str], ply: int, moves: int, args: argparse.Namespace
) -> tuple[int, list[str], int]:
    """Play ``moves`` moves of a game, unmeasured. Players start the measured phases at
    random points of their first game, as on a real site (so their wins, each a
    verification, spread out instead of arriving together)."""
    for _ in range(moves):
        status, body = await http.request(
            "POST", f"/api/games/{game_id}/moves/", {"ply": ply, "move": line[ply]}
        )
        assert status == 200, body
        ACCEPTED[0] += 1
        ply += 1
        await asyncio.sleep(1 / args.max_rate)
    return game_id, line, ply


async def player(  # noqa: PLR0917 one simulated player's whole state
    http: Http,
    lines: dict[str, list[str]],
    phase: Phase,
    stats: dict[str, Stats],
    args: argparse.Namespace,
    rng: random.Random,
) -> None:
    games: list[tuple[int, list[str], int]] = []
    for tier in DEALS:  # today's three challenges, then practice games of the same deals
        status, body = await http.request("POST", "/api/games/", {"daily": tier})
        assert status in (200, 201), body
        game = json.loads(body)
        games.append((game["id"], lines[tier], game["ply"]))
    games[0] = await warm_up(http, *games[0], rng.randrange(len(games[0][1])), args)
    phase.ready += 1
    if phase.ready == args.players:
        phase.all_ready.set()
    practice = 0
    next_at = time.perf_counter()
    while not phase.stop:
        if not games:
            deal = list(DEALS.values())[practice % len(DEALS)]
            status, body = await http.request("POST", "/api/games/", {"deal": deal})
            assert status == 201, body
            game = json.loads(body)
            games.append((game["id"], lines[list(DEALS)[practice % len(DEALS)]], 0))
            practice += 1
        game_id, line, ply = games[0]
        if phase.name == "setup":
            await phase.changed.wait()
            next_at = time.perf_counter() + first_move_in(phase, args, rng)
            await asyncio.sleep(next_at - time.perf_counter())
            continue
        name = phase.name
        started = time.perf_counter()
        try:
            status, _ = await http.request(
                "POST", f"/api/games/{game_id}/moves/", {"ply": ply, "move": line[ply]}
            )
            ok, what = status == 200, str(status)
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            ok, what = False, type(exc).__name__
        done = time.perf_counter()
        stats[name].add(done - started, ok, what)
        if ok:
            ply += 1
        games[0] = (game_id, line, ply)
        if ply >= len(line):
            games.pop(0)
        next_at = next_move_at(phase, args, rng, next_at, done)
        # never faster than --max-rate (under the server's per-player limit)
        wake = max(next_at, started + 1 / args.max_rate)
        pause = wake - time.perf_counter()
        if pause > 0.2:  # a human pause: cut short when the next phase starts
            try:
                await asyncio.wait_for(phase.changed.wait(), pause)
                next_at = time.perf_counter() + first_move_in(phase, args, rng)
            except TimeoutError:
                continue
            wake = next_at
        await asyncio.sleep(max(0.0, wake - time.perf_counter()))


async def watcher(http: Http, url: str, phase: Phase, stats: dict[str, Stats]) -> None:
    while not phase.stop:
        if phase.name == "setup":
            await phase.changed.wait()
            continue
        name = phase.name
        started = time.perf_counter()
        try:
            status, _ = await http.request("GET", url)
            ok, what = status == 200, str(status)
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            ok, what = False, type(exc).__name__
        stats["boards " + name].add(time.perf_counter() - started, ok, what)
        await asyncio.sleep(0.05)


def cpu_seconds() -> dict[tuple[str, str], float]:
    """CPU seconds so far, by (role, pid): each process's user and system time
    (/proc/<pid>/stat; the role "<role> sys" holds the system part), keyed by what the process
    is; ``softirq`` is the kernel's network work outside any process (/proc/stat),
    ``idle`` what nobody used."""
    tick = os.sysconf("SC_CLK_TCK")
    roles = {
        "gunicorn": "web",
        "celery": "celery worker",
        "postgres": "postgres",
        "redis-server": "redis",
    }
    used: dict[tuple[str, str], float] = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, UnicodeDecodeError):
            continue  # gone, or not ours to read
        role = (
            "load generator"
            if int(pid) == os.getpid()
            else next((name for marker, name in roles.items() if marker in command), "other")
        )
        used[role, pid] = (int(fields[11]) + int(fields[12])) / tick
        used[role + " sys", pid] = int(fields[12]) / tick
    machine = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    used["softirq", ""] = int(machine[6]) / tick
    used["idle", ""] = (int(machine[3]) + int(machine[4])) / tick
    return used


def cpu_line(
    before: dict[tuple[str, str], float],
    after: dict[tuple[str, str], float],
    seconds: float,
    moves: int,
) -> str:
    """Each role's share of the machine between two ``cpu_seconds``. A process that
    started meanwhile counts in full; one that ended (a database connection Django
    closed after CONN_MAX_AGE) is missed, instead of taking its past off its role."""
    spent: dict[str, float] = {}
    for (role, pid), cpu in after.items():
        spent[role] = spent.get(role, 0.0) + cpu - before.get((role, pid), 0.0)
    capacity = (os.cpu_count() or 1) * seconds
    parts = [
        f"{name} {100 * cpu / capacity:.0f}% ({1000 * cpu / max(moves, 1):.2f} ms/move"
        + (
            f", {100 * spent[name + ' sys'] / cpu:.0f}% in the kernel)"
            if name + " sys" in spent
            else ")"
        )
        for name, cpu in sorted(spent.items(), key=lambda kv: -kv[1])
        if cpu > 0 and not name.endswith(" sys")
    ]
    return "CPU, share of the machine: " + ", ".join(parts)


def phases(args: argparse.Namespace) -> list[tuple[str, float | None, float]]:
    """(name, total moves/s or None for human pace, seconds), in order."""
    steps = [(f"{rate:g}/s", float(rate), args.step_seconds) for rate in args.steps]
    return [
        ("human pace", None, args.human_seconds),
        *steps,
        ("flat out", float("inf"), args.seconds),
    ]


def process_cpu(roots: Roots) -> dict[str, float]:
    """CPU seconds so far of each gunicorn worker ("web <pid>", its master apart), of
    PostgreSQL (the postmaster's tree: backends that exited are in its reaped total) and
    of the Celery worker's tree, from /proc/<pid>/stat."""
    from bench.bench_capacity import process_table, tree_cpu

    table = process_table()
    used = {f"web {pid}": cpu for pid, (parent, cpu) in table.items() if parent == roots.web_master}
    used["gunicorn master"] = table.get(roots.web_master, (0, 0.0))[1]
    used["postgres"] = tree_cpu(table, roots.postmaster)
    used["worker"] = tree_cpu(table, roots.worker)
    return used


@dataclass
class Roots:
    """The processes whose CPU a run reports, by pid."""

    web_master: int
    worker: int
    postmaster: int


async def drive(
    base: str,
    sessions: list[str],
    args: argparse.Namespace,
    date: str,
    roots: Roots | None = None,
) -> list[dict[str, Any]]:
    """Runs the phases; prints each one's figures, and returns them (with each process's
    CPU seconds a move when ``roots`` names the processes)."""
    from tests.factories import winning_lines

    host, port = base.removeprefix("http://").split(":")
    by_deal = winning_lines()
    lines = {tier: by_deal[deal] for tier, deal in DEALS.items()}
    plan = phases(args)
    stats = {key: Stats() for name, _, _ in plan for key in (name, "boards " + name)}
    phase = Phase()
    rng = random.Random(1)
    clients = [Http(host, int(port), f"sessionid={s}; csrftoken={'c' * 32}") for s in sessions]
    if args.own_addresses:
        for n, client in enumerate(clients):
            client.head += f"X-Real-IP: 10.{n // 250}.{n % 250}.7\r\n"
    tasks = [asyncio.create_task(player(c, lines, phase, stats, args, rng)) for c in clients]
    tasks += [
        asyncio.create_task(
            watcher(Http(host, int(port)), f"/api/leaderboards/daily/{date}/{tier}/", phase, stats)
        )
        for tier in DEALS
    ]
    await phase.all_ready.wait()
    lines_out = []
    figures = []
    for name, rate, seconds in plan:
        phase.name, phase.rate = name, rate
        changed, phase.changed = phase.changed, asyncio.Event()
        changed.set()
        started, cpu_before = time.perf_counter(), cpu_seconds()
        by_process_before = process_cpu(roots) if roots else {}
        await asyncio.sleep(seconds)
        elapsed, cpu_after = time.perf_counter() - started, cpu_seconds()
        by_process_after = process_cpu(roots) if roots else {}
        moves = stats[name]
        figures.append(
            {
                "phase": name,
                "moves_per_s": moves.ok / elapsed,
                "p50_ms": 1000 * statistics.median(moves.latencies or [0]),
                "p95_ms": 1000 * percentile(moves.latencies, 0.95),
                "errors": sum(moves.errors.values()),
                "cpu_ms_per_move": {
                    what: 1000 * (cpu - by_process_before.get(what, 0.0)) / max(moves.ok, 1)
                    for what, cpu in by_process_after.items()
                },
                "load": os.getloadavg()[0],
            }
        )
        offered = (
            "each player at 0.5-2 s a move"
            if rate is None
            else (f"offered {min(rate, args.max_rate * args.players):g}/s")
        )
        lines_out.append(moves.line(f"moves, {name} ({offered})", elapsed))
        lines_out.append(stats["boards " + name].line(f"  board reads, {name}", elapsed))
        lines_out.append("  " + cpu_line(cpu_before, cpu_after, elapsed, moves.ok))
        if args.metrics:
            lines_out.append("  /metrics: " + metrics_line(await scrape(host, int(port))))
    phase.stop = True
    phase.changed.set()
    await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 30)
    for client in clients:
        client.close()
    print(
        f"{len(sessions)} players, up to {args.max_rate:g} moves/s each; "
        f"gunicorn {args.workers} workers x {args.threads} threads"
    )
    print("\n".join(lines_out))
    if args.metrics:
        ACCEPTED[0] += sum(stats[name].ok for name, _, _ in plan)
        await asyncio.sleep(2)  # the last wins' verifications
        print(metrics_report(await scrape(host, int(port))))
    return figures


def scale_out_table(runs: dict[int, list[dict[str, Any]]]) -> str:
    """One row per web-process count and phase: throughput, latency, CPU a move."""
    out = [
        "| web processes | phase | moves/s | p50 | p95 | errors | CPU ms a move: each web "
        "process | all webs | PostgreSQL | worker | load average |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for webs, figures in runs.items():
        for f in figures:
            cpu = f["cpu_ms_per_move"]
            each = sorted((v for k, v in cpu.items() if k.startswith("web ")), reverse=True)
            out.append(
                f"| {webs} | {f['phase']} | {f['moves_per_s']:.0f} | {f['p50_ms']:.1f} ms "
                f"| {f['p95_ms']:.1f} ms | {f['errors']} | "
                f"{', '.join(f'{v:.2f}' for v in each)} | {sum(each):.2f} "
                f"| {cpu['postgres']:.2f} | {cpu['worker']:.2f} | {f['load']:.2f} |"
            )
    return "\n".join(out)


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(host: str, port: int) -> Samples:
    """/metrics with the token, as Prometheus scrapes it: {(name, labels): value}."""
    from prometheus_client.parser import text_string_to_metric_families

    http = Http(host, port, token=METRICS_TOKEN)
    try:
        status, body = await http.request("GET", "/metrics")
    finally:
        http.close()
    assert status == 200, body[:300]
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(body.decode())
        for sample in family.samples
    }


def summed(samples: Samples, name: str, **labels: str) -> float:
    """The sum of ``name`` over every series whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and wanted <= set(ls))


def quantile(samples: Samples, histogram: str, q: float, **labels: str) -> float:
    """``histogram_quantile`` as Prometheus computes it: linear within the bucket."""
    buckets = sorted(
        (float(dict(ls)["le"]), v)
        for (n, ls), v in samples.items()
        if n == f"{histogram}_bucket" and set(labels.items()) <= set(ls)
    )
    total = buckets[-1][1] if buckets else 0.0
    if not total:
        return float("nan")
    rank, lower, below = q * total, 0.0, 0.0
    for upper, count in buckets:
        if count >= rank:
            if upper == float("inf"):
                return lower
            return lower + (upper - lower) * (rank - below) / max(count - below, 1e-9)
        lower, below = upper, count
    return lower


MOVES_LATENCY = "django_http_requests_latency_seconds_by_view_method"


def metrics_line(samples: Samples) -> str:
    return (
        f"accepted {summed(samples, 'yukon_moves_accepted_total'):.0f}, refused "
        f"{summed(samples, 'yukon_moves_refused_total'):.0f}, move p95 "
        f"{1000 * quantile(samples, MOVES_LATENCY, 0.95, view='api:moves'):.1f} ms, queue "
        f"{summed(samples, 'yukon_celery_queue_length'):.0f}, verified "
        f"{summed(samples, 'yukon_verification_lag_seconds_count'):.0f}, waiting "
        f"{summed(samples, 'yukon_verification_pending_games'):.0f}"
    )


def metrics_report(samples: Samples) -> str:
    refused = {
        dict(ls)["reason"]: v
        for (n, ls), v in samples.items()
        if n == "yukon_moves_refused_total" and v
    }
    fivexx = sum(
        v
        for (n, ls), v in samples.items()
        if n == "django_http_responses_total_by_status_view_method_total"
        and dict(ls)["status"].startswith("5")
    )
    lag = "yukon_verification_lag_seconds"
    board = "leaderboards:daily"
    return "\n".join(
        [
            "/metrics at the end of the run:",
            f"  moves accepted {summed(samples, 'yukon_moves_accepted_total'):.0f} (the players "
            f"saw {ACCEPTED[0]} accepted), refused {refused or 'none'}; 5xx answers {fivexx:.0f}",
            f"  move latency (histogram): median "
            f"{1000 * quantile(samples, MOVES_LATENCY, 0.5, view='api:moves'):.1f} ms, p95 "
            f"{1000 * quantile(samples, MOVES_LATENCY, 0.95, view='api:moves'):.1f} ms; board "
            f"reads p95 {1000 * quantile(samples, MOVES_LATENCY, 0.95, view=board):.1f} ms",
            f"  verification lag: {summed(samples, f'{lag}_count'):.0f} verified, median "
            f"{quantile(samples, lag, 0.5):.2f} s, p95 {quantile(samples, lag, 0.95):.2f} s; "
            f"waiting {summed(samples, 'yukon_verification_pending_games'):.0f}, oldest "
            f"{summed(samples, 'yukon_verification_pending_oldest_seconds'):.1f} s",
            f"  celery queue {summed(samples, 'yukon_celery_queue_length'):.0f}, unacked "
            f"{summed(samples, 'yukon_celery_unacked_tasks'):.0f}, task failures "
            f"{summed(samples, 'yukon_celery_task_failures_total'):.0f}",
            "  dailies ready: today "
            f"{summed(samples, 'yukon_daily_challenges_ready', day='today'):.0f}, tomorrow "
            f"{summed(samples, 'yukon_daily_challenges_ready', day='tomorrow'):.0f} of "
            f"{summed(samples, 'yukon_daily_tiers'):.0f}; Redis fallbacks "
            f"{summed(samples, 'yukon_redis_fallbacks_total'):.0f}; stale boards "
            f"{summed(samples, 'yukon_leaderboard_stale_boards'):.0f}",
        ]
    )


def pgbench(seconds: int) -> str:
    from urllib.parse import urlsplit

    url = urlsplit(os.environ["DATABASE_URL"])
    binary = shutil.which("pgbench") or "/usr/lib/postgresql/15/bin/pgbench"
    env = {**os.environ, "PGPASSWORD": url.password or ""}
    conn = [
        "-h",
        url.hostname or "127.0.0.1",
        "-p",
        str(url.port or 5432),
        "-U",
        url.username or "postgres",
    ]
    db = url.path.lstrip("/")
    table = "CREATE TABLE IF NOT EXISTS bench_insert (id bigserial PRIMARY KEY, v int)"
    subprocess.run(["psql", *conn, "-q", "-c", table, db], env=env, check=True, capture_output=True)
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as script:
        script.write("INSERT INTO bench_insert (v) VALUES (1);\n")
    out = subprocess.run(
        [binary, *conn, "-n", "-c", "4", "-j", "2", "-T", str(seconds), "-f", script.name, db],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    os.unlink(script.name)
    tps = next(
        float(line.split("=")[1].split()[0]) for line in out.splitlines() if line.startswith("tps")
    )
    return (
        f"pgbench one-row INSERT + COMMIT: {tps:.0f} TPS (4 clients, {seconds} s; this "
        "throwaway cluster runs with fsync=off, synchronous_commit=off)"
    )


def game_row_updates() -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'games_game'"
        )
        updates, hot = cursor.fetchone()
    return f"game row updates: {updates}, of which HOT (no index touched): {hot}"


def profile_moves(count: int) -> str:
    """cProfile of ``count`` move requests in-process (Django test client, same settings)."""
    from django.conf import settings
    from django.test import Client

    from accounts.models import User
    from tests.factories import winning_lines

    # one player flat out, in-process: far past the per-player limit on purpose
    settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["moves"] = "100000/s"
    client = Client()
    user, _ = User.objects.get_or_create(username="profiled", defaults={"display_name": "Profiled"})
    client.force_login(user)
    line = winning_lines()[68]
    done = 0
    profiler = cProfile.Profile()
    while done < count:
        game = client.post("/api/games/", {"deal": 68}, content_type="application/json").json()
        for ply, move in enumerate(line[: count - done]):
            profiler.enable()
            response = client.post(
                f"/api/games/{game['id']}/moves/",
                {"ply": ply, "move": move},
                content_type="application/json",
            )
            profiler.disable()
            assert response.status_code == 200, response.content
            done += 1
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    total = stats.total_tt  # type: ignore[attr-defined]
    out.write(f"in-process: {1000 * total / count:.2f} ms CPU-profiled per move\n")
    stats.sort_stats("tottime").print_stats(25)  # self time: where the CPU goes
    return out.getvalue()


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=160)
    parser.add_argument("--human-seconds", type=float, default=5.0)
    parser.add_argument(
        "--steps",
        type=float,
        nargs="*",
        default=[300, 400, 500, 600, 700],
        help="total offered moves/s of each step after the human-pace phase",
    )
    parser.add_argument("--step-seconds", type=float, default=15.0)
    parser.add_argument("--seconds", type=float, default=10.0, help="flat-out phase")
    parser.add_argument("--max-rate", type=float, default=15.0, help="moves/s per player")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="gunicorn workers")
    parser.add_argument(
        "--webs",
        type=lambda text: [int(n) for n in text.split(",")],
        default=None,
        help="run once per count of web processes (gunicorn workers), e.g. 1,2,4, with "
        "fresh players each, and print a table of each run's phases: moves/s, p50/p95, "
        "CPU a move of each web process, PostgreSQL and the worker (implies --no-metrics)",
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="threads per gunicorn worker (>1: gthread)"
    )
    parser.add_argument(
        "--own-addresses",
        action="store_true",
        help="each player on an address of its own (X-Real-IP): without it all share "
        "127.0.0.1, and each verification judges every game linked by that address "
        "(docs/capacity.md, notes on the inputs), so the worker and PostgreSQL cost more",
    )
    parser.add_argument("--pgbench-seconds", type=int, default=10)
    parser.add_argument("--profile-moves", type=int, default=300)
    parser.add_argument(
        "--no-metrics",
        dest="metrics",
        action="store_false",
        help="do not scrape /metrics after each phase and at the end",
    )
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    if args.webs:
        args.metrics = False  # /metrics would add up across the runs' processes
    reexec_under_services()
    os.environ.update(
        {
            k: v
            for k, v in stack_env().items()
            if k not in os.environ
            or k
            in (
                "DEBUG",
                "SECRET_KEY",
                "DAILY_SECRET",
                "RECEIPT_SIGNING_KEY",
                "ALLOWED_HOSTS",
                "SECURE_SSL_REDIRECT",
                "SECURE_COOKIES",
                "LOG_LEVEL",
            )
        }
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=stack_env(),
        check=True,
    )

    import django

    django.setup()

    from bench.bench_capacity import postmaster_pid
    from games.models import utc_today
    from tests.factories import make_challenges

    make_challenges(numbers=DEALS)
    postmaster = postmaster_pid()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    print(pgbench(args.pgbench_seconds))
    runs: dict[int, list[dict[str, Any]]] = {}
    for webs in args.webs or [args.workers]:
        args.workers = webs  # this run's gunicorn workers
        # fresh players each run: the last run's finished its dailies
        sessions = make_players(f"bench{webs}w" if args.webs else "bench", args.players)
        if args.webs:
            print(f"\n--- {webs} web process(es) ---")
        runs[webs] = run_stack(args, sessions, postmaster, utc_today().isoformat())
    if args.webs:
        print(
            f"\n{args.players} players; CPU seconds a move of each process, from "
            "/proc/<pid>/stat (PostgreSQL and the worker: their process trees)"
        )
        print(scale_out_table(runs))
    print(f"load average {os.getloadavg()[0]:.2f} at the end (others share this machine)")
    print(game_row_updates())
    print(profile_moves(args.profile_moves))
    return 0


def run_stack(
    args: argparse.Namespace, sessions: list[str], postmaster: int, date: str
) -> list[dict[str, Any]]:
    """gunicorn with --workers workers and a Celery worker, driven through the phases."""
    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "stack.log"
        log = log_path.open("wb")
        env = stack_env(**ADDRESS_SETTINGS) if args.own_addresses else stack_env()
        web = start_web(env, log, workers=args.workers, threads=args.threads)
        # at a lower CPU priority, as docker-compose.yml's cpu_shares has it
        worker = start_worker(env, log, niceness=10)
        try:
            base = wait_for_gunicorn(log_path, web)
            roots = Roots(web_master=web.pid, worker=worker.pid, postmaster=postmaster)
            return uvloop.run(drive(base, sessions, args, date, roots))
        finally:
            stop(web, worker)
            log.close()
            errors = log_path.read_text()
            if "Traceback" in errors:
                print("server log has tracebacks:\n" + errors[-3000:])


if __name__ == "__main__":
    sys.exit(main())
