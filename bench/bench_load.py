"""Load benchmark of the real stack: gunicorn (one worker per core), PostgreSQL, Redis and
a Celery worker, driven over loopback by simulated players (asyncio + aiohttp, the
lightest Python client: the load generator shares the machine's two cores).

    .venv/bin/python bench/bench_load.py [--players 64] [--seconds 20] [--max-rate 15]

Without DATABASE_URL/REDIS_URL it runs itself under scripts/test-services (throwaway
PostgreSQL and Redis, removed afterwards). Each player logs in, starts the three daily
challenges and plays known winning lines; phase 1 at human pace (a move every 0.5-2 s),
phase 2 flat out (each player as fast as the server answers, but under the per-player
move limit of 20/s: at most --max-rate moves/s). Bounded in players, moves and time; it
stops by itself and prints: accepted moves/s in the flat-out phase, median and p95
latency, error rate, the same for leaderboard reads made while players play, pgbench
one-row insert-and-commit TPS on the same server in the same run, and a profile of the
move request (cProfile, in-process). Not a test: figures vary with what else runs.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import os
import pstats
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SECRET = "bench-load-" + "k3Yp9" * 10
DEALS = {"easy": 0, "medium": 1, "hard": 68}


def reexec_under_services() -> None:
    if os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"):
        return
    os.execv(
        sys.executable,
        [sys.executable, str(ROOT / "scripts" / "test-services"), "--",
         sys.executable, *sys.argv],
    )


def stack_env(**extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
        "DEBUG": "false",
        "SECRET_KEY": SECRET,
        "DAILY_SECRET": "bench-daily-secret",
        "ALLOWED_HOSTS": "127.0.0.1,testserver",
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
        "LOG_LEVEL": "WARNING",
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


async def player(  # noqa: PLR0917 one simulated player's whole state
    http: Any, session: str, lines: dict[str, list[str]], phase: dict[str, Any],
    stats: dict[str, Stats], max_rate: float, rng: random.Random,
) -> None:
    import aiohttp

    headers = {"Cookie": f"sessionid={session}; csrftoken={'c' * 32}", "X-CSRFToken": "c" * 32}
    games = []
    for tier in DEALS:
        async with http.post("/api/games/", json={"daily": tier}, headers=headers) as response:
            body = await response.json()
            assert response.status in (200, 201), body
        games.append((body["id"], lines[tier], body["ply"]))
    for game_id, line, start in games:
        ply = start
        while ply < len(line) and not phase["stop"]:
            started = time.perf_counter()
            try:
                async with http.post(
                    f"/api/games/{game_id}/moves/", json={"ply": ply, "move": line[ply]},
                    headers=headers,
                ) as response:
                    await response.read()
                    ok, what = response.status == 200, str(response.status)
            except aiohttp.ClientError as exc:
                ok, what = False, type(exc).__name__
            elapsed = time.perf_counter() - started
            stats[phase["name"]].add(elapsed, ok, what)
            if ok:
                ply += 1
            if phase["name"] == "human":
                await asyncio.sleep(rng.uniform(0.5, 2.0))
            else:
                await asyncio.sleep(max(0.0, 1 / max_rate - elapsed))


async def watcher(http: Any, url: str, phase: dict[str, Any], stats: dict[str, Stats]) -> None:
    import aiohttp

    while not phase["stop"]:
        started = time.perf_counter()
        try:
            async with http.get(url) as response:
                await response.read()
                ok, what = response.status == 200, str(response.status)
        except aiohttp.ClientError as exc:
            ok, what = False, type(exc).__name__
        stats["boards-" + phase["name"]].add(time.perf_counter() - started, ok, what)
        await asyncio.sleep(0.05)


async def drive(base: str, sessions: list[str], args: argparse.Namespace, date: str) -> None:
    import aiohttp

    from tests.games.conftest import winning_lines

    by_deal = winning_lines()
    lines = {tier: by_deal[deal] for tier, deal in DEALS.items()}
    stats = {k: Stats() for k in ("human", "flat", "boards-human", "boards-flat")}
    phase: dict[str, Any] = {"name": "human", "stop": False}
    connector = aiohttp.TCPConnector(limit=len(sessions) + 8)
    timeout = aiohttp.ClientTimeout(total=10)
    async with aiohttp.ClientSession(base, connector=connector, timeout=timeout) as http:
        rng = random.Random(1)
        tasks = [
            asyncio.create_task(player(http, s, lines, phase, stats, args.max_rate, rng))
            for s in sessions
        ]
        tasks += [
            asyncio.create_task(
                watcher(http, f"/api/leaderboards/daily/{date}/{tier}/", phase, stats)
            )
            for tier in DEALS
        ]
        await asyncio.sleep(args.human_seconds)
        phase["name"] = "flat"
        flat_start = time.perf_counter()
        await asyncio.sleep(args.seconds)
        flat_seconds = time.perf_counter() - flat_start
        phase["stop"] = True
        await asyncio.gather(*tasks, return_exceptions=True)
    print(stats["human"].line(f"moves, human pace ({len(sessions)} players)", args.human_seconds))
    print(stats["flat"].line(f"moves, flat out (<= {args.max_rate:g}/s/player)", flat_seconds))
    print(stats["boards-human"].line("board reads during human-pace play", args.human_seconds))
    print(stats["boards-flat"].line("board reads during flat-out play", flat_seconds))
    print(f"FLAT_RATE {stats['flat'].ok / flat_seconds:.0f}")


def pgbench(seconds: int) -> float:
    from urllib.parse import urlsplit

    url = urlsplit(os.environ["DATABASE_URL"])
    binary = shutil.which("pgbench") or "/usr/lib/postgresql/15/bin/pgbench"
    env = {**os.environ, "PGPASSWORD": url.password or ""}
    conn = ["-h", url.hostname or "127.0.0.1", "-p", str(url.port or 5432),
            "-U", url.username or "postgres"]
    db = url.path.lstrip("/")
    table = "CREATE TABLE IF NOT EXISTS bench_insert (id bigserial PRIMARY KEY, v int)"
    subprocess.run(["psql", *conn, "-q", "-c", table, db], env=env, check=True,
                   capture_output=True)
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as script:
        script.write("INSERT INTO bench_insert (v) VALUES (1);\n")
    out = subprocess.run(
        [binary, *conn, "-n", "-c", "4", "-j", "2", "-T", str(seconds), "-f", script.name, db],
        env=env, check=True, capture_output=True, text=True,
    ).stdout
    os.unlink(script.name)
    for line in out.splitlines():
        if line.startswith("tps"):
            return float(line.split("=")[1].split()[0])
    raise RuntimeError(out)


def profile_moves(count: int) -> str:
    """cProfile of ``count`` move requests in-process (Django test client, same settings)."""
    from django.conf import settings
    from django.test import Client

    from accounts.models import User
    from tests.games.conftest import winning_lines

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
                f"/api/games/{game['id']}/moves/", {"ply": ply, "move": move},
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=20.0, help="flat-out phase")
    parser.add_argument("--human-seconds", type=float, default=5.0)
    parser.add_argument("--max-rate", type=float, default=15.0, help="moves/s per player")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument(
        "--threads", type=int, default=1, help="threads per gunicorn worker (>1: gthread)"
    )
    parser.add_argument("--pgbench-seconds", type=int, default=10)
    parser.add_argument("--profile-moves", type=int, default=300)
    args = parser.parse_args()
    reexec_under_services()
    os.environ.update({k: v for k, v in stack_env().items() if k not in os.environ or k in (
        "DEBUG", "SECRET_KEY", "DAILY_SECRET", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT",
        "SECURE_COOKIES", "LOG_LEVEL")})
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT,
                   env=stack_env(), check=True)

    import django

    django.setup()
    from django.test import Client

    from accounts.models import User
    from games.models import utc_today
    from tests.games.conftest import make_challenges

    make_challenges(numbers=DEALS)
    sessions = []
    for n in range(args.players):
        user = User.objects.create_user(username=f"bench{n}", display_name=f"Bench {n}")
        client = Client()
        client.force_login(user)
        sessions.append(client.cookies["sessionid"].value)

    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    tps = pgbench(args.pgbench_seconds)
    print(f"pgbench one-row INSERT + COMMIT: {tps:.0f} TPS (4 clients, {args.pgbench_seconds} s;"
          " this throwaway cluster runs with fsync=off, synchronous_commit=off)")

    with tempfile.TemporaryDirectory() as tmp:
        log = open(Path(tmp) / "stack.log", "wb")  # noqa: SIM115 closed below
        web = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "yukon_site.wsgi:application", "--config",
             "python:yukon_site.gunicorn", "--bind", "127.0.0.1:0", "--workers",
             str(args.workers), "--threads", str(args.threads)],
            cwd=ROOT, env=stack_env(), stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "yukon_site", "worker", "--pool=solo",
             "--loglevel=WARNING"],
            cwd=ROOT, env=stack_env(), stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            base = wait_for_gunicorn(Path(tmp) / "stack.log", web)
            asyncio.run(drive(base, sessions, args, utc_today().isoformat()))
        finally:
            for process in (web, worker):
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(30)
            log.close()
            errors = (Path(tmp) / "stack.log").read_text()
            if "Traceback" in errors:
                print("server log has tracebacks:\n" + errors[-3000:])
    print(f"load average {os.getloadavg()[0]:.2f} at the end (others share this machine)")
    print(profile_moves(args.profile_moves))
    return 0


def wait_for_gunicorn(log: Path, process: subprocess.Popen[bytes]) -> str:
    import re

    import httpx

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("gunicorn exited:\n" + log.read_text())
        found = re.search(r"Listening at: (http://127\.0\.0\.1:\d+)", log.read_text())
        if found:
            base = found.group(1)
            while httpx.get(f"{base}/healthz").status_code != 200:
                time.sleep(0.1)
            return base
        time.sleep(0.1)
    raise RuntimeError("gunicorn did not start:\n" + log.read_text())


if __name__ == "__main__":
    sys.exit(main())
