"""The inputs of the capacity model (docs/capacity.md): what one move, one game start,
one finished game, one verification and one board result cost, measured on a small
synthetic day played through the real stack.

    .venv/bin/python bench/bench_capacity.py [--players 40] [--board-results 100000]

Without DATABASE_URL/REDIS_URL it runs itself under scripts/test-services (throwaway
PostgreSQL and Redis, removed afterwards). gunicorn serves the site as in production (one
sync worker per core); simulated players (bench_load's HTTP client, over loopback) each
start the three dailies, open each game's page, play the known winning lines, read their
results screens and the boards. The phases run one after another, so each cost is the
CPU that phase used divided by what it did:

- web CPU per game start, per page opened, per move, per finishing move and per read:
  gunicorn's processes, from /proc (their own time, and what the master reaped);
- PostgreSQL CPU per move: the postmaster of this cluster and its children, from /proc
  (pg_stat_statements is not loaded; the process CPU includes the WAL writer, the
  checkpointer and autovacuum, which a move also causes);
- bytes of table, index and WAL per move and per finished game (pg_relation_size,
  pg_indexes_size, pg_total_relation_size on every table, pg_current_wal_lsn());
- verification CPU per game: the Celery task's work (``games.services.verify_game``, with
  its receivers: moderation's checks, the board, the metrics), run in this process and
  timed with time.process_time; the web's finishing moves queue the tasks, which nobody
  consumes (the throwaway Redis is dropped at the end);
- Redis memory per board result: MEMORY USAGE of a board holding --board-results
  results in the live key format, and INFO memory before and after.

CPU time, not wall time, is the measure: the machine's two cores are shared, so the load
average is printed at the start and the end. The last line is JSON with every figure.
Not a test: figures vary with what else runs.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_load import (  # noqa: E402
    DEALS,
    Http,
    reexec_under_services,
    stack_env,
)
from bench.stack import start_web, stop, wait_for_gunicorn  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
# The move and game limits would refuse a flat-out player (a move costs the same either
# way); each player's address comes in a header, as a proxy in front would set it.
SETTINGS = {
    "THROTTLE_MOVES": "100000/s",
    "THROTTLE_GAMES": "100000/min",
    "MODERATION_CLIENT_ADDRESS_HEADER": "HTTP_X_REAL_IP",
}


# ----- CPU of the stack's processes ----------------------------------------------------


def process_table() -> dict[int, tuple[int, float]]:
    """pid -> (parent pid, CPU seconds of the process and of the children it reaped)."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        # fields[1] is the parent; utime, stime, cutime, cstime are 11..14
        table[int(name)] = (int(fields[1]), sum(int(f) for f in fields[11:15]) / TICK)
    return table


def tree_cpu(table: dict[int, tuple[int, float]], root: int) -> float:
    """CPU seconds of ``root`` and every live descendant. Other servers on a shared machine
    have the same names, so a role is a process tree, never a name; a child that exited
    between two readings moved its time into its parent's reaped total."""
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += table.get(pid, (0, 0.0))[1]
        todo.extend(children.get(pid, []))
    return total


@dataclass
class Roots:
    web: int  # gunicorn's master
    postgres: int  # this cluster's postmaster
    redis: int

    def cpu(self) -> dict[str, float]:
        table = process_table()
        return {
            "web": tree_cpu(table, self.web),
            "postgres": tree_cpu(table, self.postgres),
            "redis": tree_cpu(table, self.redis),
            "bench": time.process_time(),
        }


def postmaster_pid() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    return process_table()[backend][0]


def redis_client() -> Any:
    import redis
    from django.conf import settings

    return redis.Redis.from_url(settings.REDIS_URL)


def used_memory() -> int:
    return int(redis_client().info("memory")["used_memory"])


def redis_census() -> dict[str, tuple[int, int]]:
    """Redis's keys grouped by name with the ids taken out: (keys, bytes by MEMORY USAGE)."""
    r = redis_client()
    groups: dict[str, tuple[int, int]] = {}
    for key in r.scan_iter(count=1000):
        group = re.sub(r"[a-z0-9]{20,}|\d+", "#", key.decode(errors="replace"))
        count, size = groups.get(group, (0, 0))
        usage: Any = r.memory_usage(key, samples=0)
        groups[group] = (count + 1, size + int(usage or 0))
    return groups


# ----- bytes in PostgreSQL ---------------------------------------------------------------


@dataclass
class Storage:
    tables: dict[str, tuple[int, int, int]]  # name -> (heap, indexes, total)
    wal_bytes: int  # position of the WAL, bytes since the cluster began
    wal_records: int
    wal_fpi: int

    @staticmethod
    def now() -> Storage:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT c.relname, pg_relation_size(c.oid), pg_indexes_size(c.oid), "
                "pg_total_relation_size(c.oid) FROM pg_class c JOIN pg_namespace n "
                "ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname = 'public'"
            )
            tables = {name: (heap, idx, total) for name, heap, idx, total in cursor.fetchall()}
            cursor.execute(
                "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint, wal_records, "
                "wal_fpi FROM pg_stat_wal"
            )
            wal, records, fpi = cursor.fetchone()
        return Storage(tables, int(wal), int(records), int(fpi))

    def since(self, before: Storage) -> dict[str, Any]:
        """Growth by table (only those that grew), the WAL written and its records."""
        grew = {}
        for name, (heap, idx, total) in self.tables.items():
            old = before.tables.get(name, (0, 0, 0))
            if total != old[2]:
                grew[name] = (heap - old[0], idx - old[1], total - old[2])
        return {
            "tables": grew,
            "total": sum(t[2] for t in grew.values()),
            "wal": self.wal_bytes - before.wal_bytes,
            "wal_records": self.wal_records - before.wal_records,
            "wal_fpi": self.wal_fpi - before.wal_fpi,
        }


def checkpoint() -> None:
    """Settle what the last phase left (WAL flushed, a checkpoint's writes done) before
    the next phase is measured."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("CHECKPOINT")


def connections_open() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND backend_type = 'client backend'"
        )
        return int(cursor.fetchone()[0])


# ----- the players ---------------------------------------------------------------------


@dataclass
class GameRun:
    game_id: int
    tier: str
    line: list[str]
    ply: int


async def each_player(clients: list[Http], work: Callable[[Http, int], Awaitable[int]]) -> int:
    """Run ``work(client, index)`` for every player at once: what they did, summed."""

    async def one(client: Http, index: int) -> int:
        try:
            return await work(client, index)
        finally:
            client.close()

    return sum(await asyncio.gather(*(one(c, i) for i, c in enumerate(clients))))


def expect(status: int, body: bytes, *allowed: int) -> None:
    if status not in allowed:
        raise RuntimeError(f"HTTP {status}: {body[:300]!r}")


class Players:
    def __init__(self, base: str, sessions: list[str], lines: dict[str, list[str]]) -> None:
        self.host, port = base.removeprefix("http://").split(":")
        self.port = int(port)
        self.sessions = sessions
        self.lines = lines
        self.games: list[list[GameRun]] = [[] for _ in sessions]

    def clients(self) -> list[Http]:
        """A client per player, each from its own network and device, as on the real site:
        players sharing one address would all be linked games of each other (moderation's
        origins), and each verification would judge every one of them."""
        made = []
        for n, session in enumerate(self.sessions):
            http = Http(self.host, self.port, f"sessionid={session}; csrftoken={'c' * 32}")
            http.head = http.head.replace("Cookie: ", f"Cookie: yd_device={n:032x}; ")
            http.head += f"X-Real-IP: 10.{n // 250}.{n % 250}.7\r\n"
            made.append(http)
        return made

    def run(self, work: Callable[[Http, int], Awaitable[int]]) -> int:
        """One phase in its own event loop: the database work between phases is sync."""

        return uvloop.run(each_player(self.clients(), work))

    async def start(self, http: Http, index: int) -> int:
        for tier in DEALS:
            status, body = await http.request("POST", "/api/games/", {"daily": tier})
            expect(status, body, 200, 201)
            game = json.loads(body)
            self.games[index].append(GameRun(game["id"], tier, self.lines[tier], game["ply"]))
        return len(DEALS)

    async def open_pages(self, http: Http, index: int) -> int:
        """What the browser asks for when a game opens: the page, then the game's state."""
        for game in self.games[index]:
            for path in (f"/play/{game.game_id}/", f"/api/games/{game.game_id}/"):
                status, body = await http.request("GET", path)
                expect(status, body, 200)
        return len(self.games[index])

    async def play_all_but_last(self, http: Http, index: int) -> int:
        return await self._play(http, index, last=False)

    async def play_last(self, http: Http, index: int) -> int:
        return await self._play(http, index, last=True)

    async def _play(self, http: Http, index: int, *, last: bool) -> int:
        made = 0
        for game in self.games[index]:
            end = len(game.line) if last else len(game.line) - 1
            while game.ply < end:
                status, body = await http.request(
                    "POST",
                    f"/api/games/{game.game_id}/moves/",
                    {"ply": game.ply, "move": game.line[game.ply]},
                )
                expect(status, body, 200)
                game.ply += 1
                made += 1
        return made

    async def read_results(self, http: Http, index: int) -> int:
        """After a game: its results screen, and the first page of its board."""
        today = dt.datetime.now(dt.UTC).date().isoformat()
        for game in self.games[index]:
            for path in (
                f"/api/games/{game.game_id}/results/",
                f"/api/leaderboards/daily/{today}/{game.tier}/",
            ):
                status, body = await http.request("GET", path)
                expect(status, body, 200)
        return 2 * len(self.games[index])


# ----- the phases ----------------------------------------------------------------------


@dataclass
class Measured:
    name: str
    count: int
    cpu: dict[str, float]
    storage: dict[str, Any]
    seconds: float

    def per(self, role: str) -> float:
        """Milliseconds of CPU of ``role`` per thing done in this phase."""
        return 1000 * self.cpu[role] / max(self.count, 1)

    def line(self, unit: str) -> str:
        return (
            f"{self.name}: {self.count} {unit} in {self.seconds:.1f} s; CPU per {unit.rstrip('s')}"
            f": web {self.per('web'):.2f} ms, PostgreSQL {self.per('postgres'):.2f} ms, "
            f"Redis {self.per('redis'):.2f} ms; storage +{self.storage['total']:,} B, "
            f"WAL +{self.storage['wal']:,} B"
        )


def measure(name: str, roots: Roots, action: Callable[[], int]) -> Measured:
    checkpoint()
    before_cpu, before_bytes = roots.cpu(), Storage.now()
    started = time.perf_counter()
    count = action()
    seconds = time.perf_counter() - started
    after_cpu, after_bytes = roots.cpu(), Storage.now()
    cpu = {role: after_cpu[role] - before_cpu[role] for role in after_cpu}
    return Measured(name, count, cpu, after_bytes.since(before_bytes), seconds)


def verify_in_process(roots: Roots) -> tuple[Measured, list[float]]:
    """Every finished game's verification, as the Celery task runs it; CPU per game."""
    from games import services
    from games.models import Game, Status, Verification

    pending = list(
        Game.objects.filter(verification=Verification.PENDING)
        .exclude(status=Status.PLAYING)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    each: list[float] = []

    def verify_all() -> int:
        for game_id in pending:
            started = time.process_time()
            outcome = services.verify_game(game_id)
            each.append(time.process_time() - started)
            if outcome != "verified":
                raise RuntimeError(f"game {game_id}: {outcome}")
        return len(pending)

    return measure("verification (in-process)", roots, verify_all), each


def replay_only() -> list[float]:
    """The replay alone (read the log, replay it from the deal), per game: the part of a
    verification that grows with the log."""
    from games.models import Game
    from games.services import log_entries
    from games.services.verification import replay_game_log

    times = []
    for game in Game.objects.select_related("deal", "challenge").order_by("pk"):
        started = time.process_time()
        log = log_entries(game)  # packed once verified
        replay_game_log(game, log)
        times.append(time.process_time() - started)
    return times


def row_bytes_per_game(games: int) -> dict[str, tuple[float, float]]:
    """Rows the day left in each table but the moves', per game: (rows, heap bytes: each
    row's own bytes plus 28 of tuple header and line pointer). A table's size on disk
    moves in 8 kB pages, too coarse for a hundred games."""
    from django.db import connection

    out = {}
    with connection.cursor() as cursor:
        for name in Storage.now().tables:
            if name == "games_move":
                continue
            cursor.execute(f'SELECT count(*), sum(pg_column_size(t.*)) FROM "{name}" t')
            rows, size = cursor.fetchone()
            if rows:
                out[name] = (rows / games, (int(size) + 28 * rows) / games)
    return out


def redis_per_result(results: int) -> dict[str, float]:
    """Bytes of Redis per board result, in the live key format (leaderboards.ranking), on
    a board of ``results`` results and on a small one (a small sorted set is a compact
    listpack; past 128 members Redis keeps a skip list and a hash table)."""
    from django.conf import settings

    from leaderboards import ranking, store

    settings.LEADERBOARDS_KEY_PREFIX = f"bench-capacity-{uuid.uuid4().hex[:8]}:"
    r = store.client()
    assert r is not None
    base = dt.datetime(2026, 12, 5, tzinfo=dt.UTC)
    out: dict[str, float] = {}
    try:
        for size, challenge_id in ((100, 1), (results, 2)):
            entries = [
                (
                    ranking.member(10**9 + n, base + dt.timedelta(milliseconds=n * 37)),
                    ranking.encode(n % 3 == 0, 625 - 5 * (n % 100), 60_000 + n, 80 + n % 150),
                )
                for n in range(size)
            ]
            r.memory_purge()
            before = used_memory()
            store.replace_board(r, challenge_id, entries)
            after = used_memory()
            found: Any = r.memory_usage(store.daily_key(challenge_id), samples=0)
            usage = int(found or 0)
            out[f"memory_usage_per_result_{size}"] = usage / size
            out[f"used_memory_per_result_{size}"] = (after - before) / size
    finally:
        store.flush_prefix(r)
    return out


# ----- the run -------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=40, help="each plays the three dailies")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--board-results", type=int, default=100_000)
    return parser.parse_args()


def prepare(players: int, static_root: Path) -> list[str]:
    """Migrate, collect the static files (pages name them by their hashed names), make
    today's three dailies and the players: their session ids."""
    os.environ.update(stack_env(**SETTINGS, STATIC_ROOT=str(static_root)))
    for step in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([sys.executable, "manage.py", *step], cwd=ROOT, env=os.environ, check=True)
    import django

    django.setup()
    from django.test import Client

    from accounts.models import User
    from tests.factories import make_challenges

    make_challenges(numbers=DEALS)
    sessions = []
    for n in range(players):
        client = Client()
        client.force_login(User.objects.create_user(username=f"cap{n}", display_name=f"Cap {n}"))
        sessions.append(client.cookies["sessionid"].value)
    return sessions


def main() -> int:
    args = parse_args()
    reexec_under_services()
    load_at_start = os.getloadavg()
    print(f"load average at start: {load_at_start[0]:.2f} (1 min), {load_at_start[1]:.2f} (5 min)")
    with tempfile.TemporaryDirectory() as tmp:
        results = run(args, Path(tmp))
    report(results, args, load_at_start)
    return 0


def run(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    sessions = prepare(args.players, tmp / "static")
    from tests.factories import winning_lines

    lines = {tier: winning_lines()[deal] for tier, deal in DEALS.items()}
    print(
        f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} "
        f"(1 min) after the set-up; {args.players} players x "
        f"{len(DEALS)} dailies, lines of {', '.join(str(len(v)) for v in lines.values())} moves; "
        f"gunicorn {args.workers} sync workers"
    )
    log_path = tmp / "web.log"
    with log_path.open("wb") as log:
        web = start_web(dict(os.environ), log, workers=args.workers)
        try:
            base = wait_for_gunicorn(log_path, web)
            roots = Roots(
                web.pid, postmaster_pid(), int(redis_client().info("server")["process_id"])
            )
            results = run_phases(Players(base, sessions, lines), roots)
            results["connections"] = connections_open()
        finally:
            stop(web)
            errors = log_path.read_text()
            if "Traceback" in errors or '"level": "ERROR"' in errors:
                print("the server logged errors:\n" + errors[-3000:])
    results["redis"] = redis_per_result(args.board_results)
    return results


def run_phases(players: Players, roots: Roots) -> dict[str, Any]:
    out: dict[str, Any] = {}
    out["starts"] = measure(
        "game starts (POST /api/games/)", roots, lambda: players.run(players.start)
    )
    out["pages"] = measure(
        "game opened (GET /play/<id>/, GET /api/games/<id>/)",
        roots,
        lambda: players.run(players.open_pages),
    )
    out["moves"] = measure(
        "moves (all but each game's last)", roots, lambda: players.run(players.play_all_but_last)
    )
    out["finishes"] = measure(
        "finishing moves (won: receipt signed, verification queued)",
        roots,
        lambda: players.run(players.play_last),
    )
    out["census"] = redis_census()
    out["verification"], out["verify_each"] = verify_in_process(roots)
    out["reads"] = measure(
        "reads (results screen, board's first page)",
        roots,
        lambda: players.run(players.read_results),
    )
    out["replay_each"] = replay_only()
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE games_move, games_game")
        cursor.execute("SELECT count(*), avg(pg_column_size(m.*)) FROM games_move m")
        out["move_rows"], out["move_row_bytes"] = cursor.fetchone()
        cursor.execute("SELECT count(*), avg(pg_column_size(g.*)) FROM games_game g")
        out["game_rows"], out["game_row_bytes"] = cursor.fetchone()
        # Verified games keep their log packed in the row (games/packed_log.py).
        cursor.execute(
            "SELECT coalesce(sum(ply), 0), coalesce(sum(octet_length(packed_log)), 0) "
            "FROM games_game WHERE packed_log IS NOT NULL"
        )
        out["packed_moves"], out["packed_bytes"] = cursor.fetchone()
    out["at_rest"] = Storage.now().tables
    out["rows_per_game"] = row_bytes_per_game(int(out["game_rows"]))
    from django.db.models import Count

    from moderation.models import Flag

    # Scripted players at machine pace: every game trips the timing checks, and the flags'
    # rows (kilobytes of measurements each) are not what an honest player's game stores.
    out["flags"] = dict(Flag.objects.values_list("kind").annotate(Count("id")).order_by("kind"))
    return out


def report(
    results: dict[str, Any], args: argparse.Namespace, load_at_start: tuple[float, ...]
) -> None:
    starts, pages, moves, finishes = (results[k] for k in ("starts", "pages", "moves", "finishes"))
    verification, reads = results["verification"], results["reads"]
    print(starts.line("games"))
    print(pages.line("games"))
    print(moves.line("moves"))
    print(finishes.line("games"))
    print(verification.line("games"))
    print(reads.line("requests"))
    print()
    m = moves.storage
    move_table = m["tables"].get("games_move", (0, 0, 0))
    game_table = m["tables"].get("games_game", (0, 0, 0))
    n = moves.count
    print(
        f"per move: web CPU {moves.per('web'):.2f} ms, PostgreSQL CPU "
        f"{moves.per('postgres'):.2f} ms, Redis CPU {moves.per('redis'):.2f} ms; "
        f"the load generator {moves.per('bench'):.2f} ms"
    )
    print(
        f"per move, bytes: games_move heap {move_table[0] / n:.1f} B + indexes "
        f"{move_table[1] / n:.1f} B (total {move_table[2] / n:.1f} B); games_game "
        f"{game_table[2] / n:.1f} B (its row rewritten in place: HOT); all tables "
        f"{m['total'] / n:.1f} B; WAL {m['wal'] / n:.0f} B ({m['wal_records'] / n:.1f} records, "
        f"{m['wal_fpi']} full-page images: this cluster runs full_page_writes=off)"
    )
    finished = finishes.count
    extra_web = finishes.per("web") - moves.per("web")
    print(
        f"per finished game: the finishing move {finishes.per('web'):.2f} ms of web CPU "
        f"({extra_web:+.2f} ms over a move), PostgreSQL {finishes.per('postgres'):.2f} ms; "
        f"storage +{finishes.storage['total'] / finished:,.0f} B, WAL "
        f"+{finishes.storage['wal'] / finished:,.0f} B "
        f"({', '.join(f'{k} {v[2]:+,}' for k, v in finishes.storage['tables'].items())})"
    )
    ver_each, rep_each = results["verify_each"], results["replay_each"]
    print(
        "verification per game (in-process CPU): median "
        f"{1000 * statistics.median(ver_each):.1f} ms, mean "
        f"{1000 * statistics.mean(ver_each):.1f} ms, max {1000 * max(ver_each):.1f} ms; "
        f"PostgreSQL {verification.per('postgres'):.2f} ms, Redis "
        f"{verification.per('redis'):.2f} ms a game; storage "
        f"+{verification.storage['total'] / verification.count:,.0f} B, WAL "
        f"+{verification.storage['wal'] / verification.count:,.0f} B a game; of which reading and "
        f"replaying the log: median {1000 * statistics.median(rep_each):.1f} ms ("
        + ", ".join(f"{k} {v[2]:+,}" for k, v in verification.storage["tables"].items())
        + ")"
    )
    print(
        f"per game start: web {starts.per('web'):.2f} ms, PostgreSQL "
        f"{starts.per('postgres'):.2f} ms, +{starts.storage['total'] / starts.count:,.0f} B, "
        f"WAL +{starts.storage['wal'] / starts.count:,.0f} B; "
        f"opening its page: web {pages.per('web'):.2f} ms; a read after the game: web "
        f"{reads.per('web'):.2f} ms, PostgreSQL {reads.per('postgres'):.2f} ms"
    )
    print(
        "automatic flags raised on the scripted players' games (their rows are most of a "
        f"verification's bytes): {results['flags']}"
    )
    per_game = results["rows_per_game"]
    print(
        "rows per game at the end (heap bytes; indexes not included): "
        + ", ".join(
            f"{name} {rows:.2f} x = {size:,.0f} B"
            for name, (rows, size) in sorted(per_game.items(), key=lambda kv: -kv[1][1])
            if size >= 10
        )
    )
    rows, game_rows = results["move_rows"], results["game_rows"]
    packed_moves, packed_bytes = results["packed_moves"], results["packed_bytes"]
    rest = results["at_rest"]
    move_rest = rest["games_move"]
    if rows:
        print(
            f"at rest (after VACUUM): {rows:,} moves in rows, games_move {move_rest[2]:,} B = "
            f"{move_rest[2] / rows:.1f} B a move (heap {move_rest[0] / rows:.1f}, indexes "
            f"{move_rest[1] / rows:.1f}; a row's own bytes "
            f"{float(results['move_row_bytes']):.1f} + 28 of tuple header and line pointer)"
        )
    print(
        f"at rest, packed (verified games): {packed_moves:,} moves in {packed_bytes:,} B = "
        f"{packed_bytes / max(packed_moves, 1):.1f} B a move; {game_rows} games, a game row "
        f"{float(results['game_row_bytes']):.0f} B (bench/bench_packed_logs.py: before/after)"
    )
    redis_figures = results["redis"]
    big = args.board_results
    print(
        f"Redis per board result: {redis_figures[f'memory_usage_per_result_{big}']:.1f} B "
        f"(MEMORY USAGE, board of {big:,}; used_memory "
        f"{redis_figures[f'used_memory_per_result_{big}']:.1f} B), "
        f"{redis_figures['memory_usage_per_result_100']:.1f} B on a board of 100 (listpack)"
    )
    census = results["census"]
    print(
        "Redis keys after the games (MEMORY USAGE): "
        + "; ".join(
            f"{group} {count} x {size / count:,.0f} B"
            for group, (count, size) in sorted(census.items(), key=lambda kv: -kv[1][1])
        )
    )
    session = next(
        (size / count for group, (count, size) in census.items() if "session" in group), 0.0
    )
    queued = sum(size for group, (_, size) in census.items() if group == "celery")
    load_end = os.getloadavg()
    print(
        f"PostgreSQL client connections at the end: {results['connections']} "
        f"({args.workers} web processes x 1 thread, and this process)"
    )
    print(
        f"load average {load_end[0]:.2f} (1 min), {load_end[1]:.2f} (5 min) at the end "
        f"(the machine is shared: CPU times, not wall times, are the figures)"
    )
    figures = {
        "date": dt.datetime.now(dt.UTC).date().isoformat(),
        "load_average": [round(load_at_start[0], 2), round(load_end[0], 2)],
        "players": args.players,
        "games": finished,
        "moves": n + finished,
        "web_ms_per_move": round(moves.per("web"), 3),
        "postgres_ms_per_move": round(moves.per("postgres"), 3),
        "redis_ms_per_move": round(moves.per("redis"), 3),
        "web_ms_per_start": round(starts.per("web"), 3),
        "postgres_ms_per_start": round(starts.per("postgres"), 3),
        "web_ms_per_open": round(pages.per("web"), 3),
        "web_ms_per_finishing_move": round(finishes.per("web"), 3),
        "postgres_ms_per_finishing_move": round(finishes.per("postgres"), 3),
        "web_ms_per_read": round(reads.per("web"), 3),
        "postgres_ms_per_read": round(reads.per("postgres"), 3),
        "verify_ms_per_game_median": round(1000 * statistics.median(ver_each), 2),
        "verify_ms_per_game_mean": round(1000 * statistics.mean(ver_each), 2),
        "verify_postgres_ms_per_game": round(verification.per("postgres"), 3),
        "replay_ms_per_game_median": round(1000 * statistics.median(rep_each), 2),
        "move_table_bytes_per_move": round(move_table[0] / n, 1),
        "move_index_bytes_per_move": round(move_table[1] / n, 1),
        "all_tables_bytes_per_move": round(m["total"] / n, 1),
        "wal_bytes_per_move": round(m["wal"] / n, 1),
        "wal_records_per_move": round(m["wal_records"] / n, 2),
        "at_rest_bytes_per_move": round(move_rest[2] / rows, 1) if rows else None,
        "packed_bytes_per_move": round(packed_bytes / max(packed_moves, 1), 2),
        "bytes_per_start": round(starts.storage["total"] / starts.count, 1),
        "wal_bytes_per_start": round(starts.storage["wal"] / starts.count, 1),
        "bytes_per_finish": round(finishes.storage["total"] / finished, 1),
        "wal_bytes_per_finish": round(finishes.storage["wal"] / finished, 1),
        "bytes_per_verification": round(verification.storage["total"] / verification.count, 1),
        "wal_bytes_per_verification": round(verification.storage["wal"] / verification.count, 1),
        "game_row_bytes": round(float(results["game_row_bytes"]), 1),
        "row_bytes_per_game": {
            name: round(size) for name, (_, size) in per_game.items() if size >= 10
        },
        "redis_bytes_per_result": round(redis_figures[f"memory_usage_per_result_{big}"], 1),
        "redis_bytes_per_result_small_board": round(
            redis_figures["memory_usage_per_result_100"], 1
        ),
        "redis_bytes_per_session": round(session),
        "redis_bytes_per_queued_verification": round(queued / finished),
        "connections": results["connections"],
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    sys.exit(main())
