"""A synthetic day at scale: the reads of a closed day of --players players (issue 45, item 6).

    .venv/bin/python bench/bench_synthetic_day.py [--players 100000] [--history-players N]
        [--history-days 28] [--repeat 20] [--file-tiers easy] [--through-gunicorn]

Without DATABASE_URL/REDIS_URL it runs itself under scripts/test-services (throwaway
PostgreSQL and Redis, removed afterwards). It writes yesterday (a closed day) as a
busy day would leave it: every player played the three tiers, each game finished,
verified and packed (``Game.packed_log``, games/packed_log.py; no Move rows), wins
carrying a real winning line and losses a prefix of it, both with plausible random move
times; a sample of players (--history-players, default 1%) also played the 28 days
before, and 1% more replayed the day in the archive. Rows go in with bulk_create in
batches (memory stays flat); the logs are packed once per (tier, length, timing) variant
from the entries of a game played through the service, so the turned cards are the
engine's.

Then, through Django's test client (in-process, DEBUG off, the production settings), it
times the day's board (first page and a deep page; cold: the Redis board dropped, so the
read rebuilds it from PostgreSQL; warm: from Redis), the archive board and the archive
calendar of that day, the page of a player with history, and the games file of the
closed day (streamed whole: seconds and bytes; with --through-gunicorn also from a real
gunicorn, as production serves it, which ends a sync worker's response at
GUNICORN_TIMEOUT), and the day's counts the home page shows (played, won, guests per
tier), counted and kept. Then the same file stored as a sealed day's is (leaderboards/
stored_files.py, in a temporary MEDIA_ROOT): the time and CPU of writing it once, and of
serving it gzip and inflated, checked byte for byte against the stream (with
--through-gunicorn also from gunicorn, with the web process's CPU). It prints a table and
the database size at rest. Not a test: the
figures vary with what else runs. ``--players 2000`` is the quick mode (15 s; the full
size builds for about 3.5 minutes, its process holding about 300 MiB, and streams a
434 MiB file).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import os
import random
import statistics
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_load import DEALS, percentile, reexec_under_services, stack_env  # noqa: E402
from bench.stack import set_up_as_stack  # noqa: E402

BATCH = 5_000
VARIANTS = 48  # packed logs per (tier, outcome): timings and loss lengths vary among them
WIN_RATE = {"easy": 0.6, "medium": 0.4, "hard": 0.2}


def played_lines() -> dict[str, tuple[list[tuple[int, str, str]], str]]:
    """Per tier, the (ply, text, turned) entries of its winning line as the engine logs
    them, and the won position: one practice game of the deal played through the service,
    read back from its log."""
    from accounts.models import User
    from games import services
    from games.models import Game
    from games.services import move_log
    from tests.factories import winning_lines

    user = User.objects.create_user(username="synthetic-seed", display_name="Synthetic Seed")
    actor = services.Actor(user_id=user.pk)
    lines = winning_lines()
    out = {}
    for tier, deal in DEALS.items():
        game = services.start_practice_game(actor, deal)
        for ply, text in enumerate(lines[deal]):
            services.play_move(actor, game.pk, ply, text)
        played = Game.objects.get(pk=game.pk)
        entries = [(e.ply, e.text, e.turned) for e in move_log.log_entries(played)]
        out[tier] = (entries, played.position)
    return out


class Logs:
    """Packed logs to hand out: per tier, VARIANTS wins and VARIANTS losses, each
    (packed bytes, entries, last at_ms)."""

    def __init__(
        self, played: dict[str, tuple[list[tuple[int, str, str]], str]], rng: random.Random
    ) -> None:
        from games.packed_log import pack

        self.positions = {tier: position for tier, (_, position) in played.items()}
        self.wins: dict[str, list[tuple[bytes, int, int]]] = {}
        self.losses: dict[str, list[tuple[bytes, int, int]]] = {}
        for tier in DEALS:
            line = played[tier][0]
            for outcome, store in (("win", self.wins), ("loss", self.losses)):
                made = []
                for _ in range(VARIANTS):
                    length = len(line) if outcome == "win" else rng.randrange(8, len(line) - 5)
                    at_ms, timed = 0, []
                    for ply, text, turned in line[:length]:
                        at_ms += rng.randrange(600, 9_000)
                        timed.append((ply, text, turned, at_ms))
                    made.append((pack(timed), length, at_ms))
                store[tier] = made


def make_day(  # noqa: PLR0917 one builder's inputs
    rng: random.Random,
    logs: Logs,
    player_ids: list[int],
    challenges: dict[str, Any],
    mode: str,
    finished_on: dt.date,
    play_rate: float = 1.0,
) -> list[Any]:
    from games.models import Game, Status, Verification

    games = []
    base = dt.datetime.combine(finished_on, dt.time(), tzinfo=dt.UTC)
    for player_id in player_ids:
        for tier, challenge in challenges.items():
            if play_rate < 1.0 and rng.random() > play_rate:
                continue
            won = rng.random() < WIN_RATE[tier]
            packed, length, last_ms = rng.choice((logs.wins if won else logs.losses)[tier])
            elapsed = last_ms + rng.randrange(50, 2_000)
            started = base + dt.timedelta(seconds=rng.randrange(60, 86_400 - 3_600))
            finished = started + dt.timedelta(milliseconds=elapsed)
            games.append(
                Game(
                    player_id=player_id,
                    deal_id=challenge.deal_id,
                    challenge_id=challenge.pk,
                    mode=mode,
                    status=Status.WON if won else rng.choice([Status.STUCK, Status.RESIGNED]),
                    verification=Verification.VERIFIED,
                    score=625 if won else 5 * rng.randrange(0, 120),
                    ply=length,
                    moves=length,
                    started_at=started,
                    finished_at=finished,
                    elapsed_ms=elapsed,
                    verified_at=finished + dt.timedelta(seconds=1),
                    position=logs.positions[tier],
                    packed_log=packed,
                )
            )
    return games


def insert(games: Iterator[list[Any]]) -> int:
    from games.models import Game

    count = 0
    for batch in games:
        Game.objects.bulk_create(batch, batch_size=BATCH)
        count += len(batch)
    return count


def make_users(prefix: str, count: int) -> list[int]:
    from accounts.models import User

    ids: list[int] = []
    for first in range(0, count, BATCH):
        made = User.objects.bulk_create(
            [
                User(username=f"{prefix}{n}", display_name=f"{prefix} {n}", password="!")
                for n in range(first, min(count, first + BATCH))
            ]
        )
        ids.extend(u.pk for u in made)
    return ids


def build(args: argparse.Namespace, day: dt.date) -> dict[str, Any]:
    """The day, its archive replays and the sample's history; what was made, and how fast."""
    from django.db import connection

    from tests.factories import make_challenges

    rng = random.Random(45)
    started = time.perf_counter()
    logs = Logs(played_lines(), rng)
    by_day = {
        day - dt.timedelta(days=back): make_challenges(day - dt.timedelta(days=back), numbers=DEALS)
        for back in range(args.history_days + 1)
    }
    players = make_users("player", args.players)
    archivists = make_users("archivist", max(1, args.players // 100))
    history = args.history_players
    if history is None:
        history = max(10, args.players // 100)

    def batches() -> Iterator[list[Any]]:
        for first in range(0, len(players), BATCH):
            yield make_day(rng, logs, players[first : first + BATCH], by_day[day], "daily", day)
        for first in range(0, len(archivists), BATCH):
            chunk = archivists[first : first + BATCH]
            yield make_day(rng, logs, chunk, by_day[day], "archive", day + dt.timedelta(days=1))
        for back in range(1, args.history_days + 1):
            past = day - dt.timedelta(days=back)
            yield make_day(rng, logs, players[:history], by_day[past], "daily", past, 0.8)

    games = insert(batches())
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    return {
        "games": games,
        "history_players": history,
        "archivists": len(archivists),
        "seconds": time.perf_counter() - started,
        "sample_player": f"player {history // 2}",
    }


def timed(
    client: Any, url: str, repeat: int, before: Callable[[], object] | None = None
) -> list[float]:
    """Milliseconds of ``repeat`` GETs of ``url``; ``before`` runs ahead of each, untimed."""
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        response = client.get(url)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        times.append(1000 * (time.perf_counter() - start))
        assert response.status_code == 200, (url, response.status_code, body[:300])
    return times


def timed_call(
    call: Callable[[], object], repeat: int, before: Callable[[], object]
) -> list[float]:
    """Milliseconds of ``repeat`` calls of ``call``; ``before`` runs ahead of each, untimed."""
    times = []
    for _ in range(repeat):
        before()
        start = time.perf_counter()
        call()
        times.append(1000 * (time.perf_counter() - start))
    return times


def streamed(client: Any, url: str, **headers: str) -> tuple[float, int, float, str]:
    """(seconds, bytes, CPU seconds of this process, SHA-256 of the bytes) of one GET read
    to its end, chunk by chunk (the file is never held whole)."""
    cpu, start = time.process_time(), time.perf_counter()
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.content[:300]
    hashed, size = hashlib.sha256(), 0
    for chunk in response.streaming_content:
        hashed.update(chunk)
        size += len(chunk)
    return time.perf_counter() - start, size, time.process_time() - cpu, hashed.hexdigest()


def stored_rows(client: Any, day: dt.date, tier: str, count: int, streamed_sha: str) -> list[str]:
    """The sealed day's stored file (leaderboards/stored_files.py): written once, as the
    worker does after the seal, then served gzip (as stored) and inflated, in-process."""
    import gzip

    from games.models import DailyChallenge
    from leaderboards import stored_files

    challenge = DailyChallenge.objects.get(date=day, tier=tier)
    cpu, start = time.process_time(), time.perf_counter()
    copy = stored_files.write(challenge)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert copy is not None
    assert copy.sha256 == streamed_sha, "the stored file is not the streamed one"
    rows = [
        f"| stored file, {tier}: written once (the worker) | {seconds:.1f} s | "
        f"{copy.size / 2**20:,.1f} MiB gzip of {copy.length / 2**20:,.1f} MiB "
        f"({copy.length / copy.size:.1f}x) | {copy.size / count:,.0f} B a game | "
        f"{1000 * cpu / count:.2f} ms CPU a game |"
    ]
    url = f"/api/daily/{day.isoformat()}/{tier}/games.jsonl"
    for label, headers in (("gzip", {"Accept-Encoding": "gzip"}), ("identity", {})):
        seconds, size, cpu, sha = streamed(client, url, **headers)
        if label == "identity":
            assert sha == streamed_sha, "the inflated file is not the streamed one"
        else:
            with stored_files.storage().open(copy.name, "rb") as handle:
                assert hashlib.sha256(gzip.decompress(handle.read())).hexdigest() == streamed_sha
        rows.append(
            f"| stored file, {tier}, served {label} (in-process) | {1000 * seconds:,.0f} ms | "
            f"{size / 2**20:,.1f} MiB | {size / count:,.0f} B a game | "
            f"{1000 * cpu:,.0f} ms CPU ({1e6 * cpu / count:.2f} us a game) |"
        )
    return rows


def through_gunicorn(url: str, gzipped: bool = False) -> str:
    """One GET of ``url`` from gunicorn as production runs it (sync workers, the
    yukon_site/gunicorn.py config and its GUNICORN_TIMEOUT), read to its end: seconds,
    bytes, and whether the file arrived whole (its last line is the end line). With
    ``gzipped`` it asks for gzip and counts the bytes as sent (not inflated), as well as
    the web process's CPU."""
    import tempfile

    import httpx

    from bench.stack import start_web, stop, wait_for_gunicorn

    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "web.log"
        with log_path.open("wb") as log:
            web = start_web(stack_env(THROTTLE_DAILY_GAMES="100000/hour"), log, workers=1)
            try:
                base = wait_for_gunicorn(log_path, web)
                cpu_before = _process_cpu(web.pid)
                start, size, first, tail = time.perf_counter(), 0, None, b""
                inflate, encoding = zlib.decompressobj(wbits=31), "?"
                headers = {"Accept-Encoding": "gzip" if gzipped else "identity"}
                try:
                    with httpx.stream("GET", base + url, headers=headers, timeout=None) as response:
                        encoding = response.headers.get("content-encoding", "identity")
                        for chunk in response.iter_raw():
                            first = first or time.perf_counter() - start
                            size += len(chunk)
                            plain = inflate.decompress(chunk) if encoding == "gzip" else chunk
                            tail = (tail + plain)[-200:]
                    cut = ""
                except httpx.HTTPError as exc:
                    cut = f" ({type(exc).__name__})"
                seconds = time.perf_counter() - start
                web_cpu = _process_cpu(web.pid) - cpu_before
            finally:
                stop(web)
        whole = b'{"end":true' in tail.rstrip().rsplit(b"\n", 1)[-1]
        timeout = os.environ.get("GUNICORN_TIMEOUT", "30")
        killed = "WORKER TIMEOUT" in log_path.read_text()
    return (
        f"through gunicorn (1 sync worker, GUNICORN_TIMEOUT {timeout} s), "
        f"Content-Encoding {encoding}: {seconds:.1f} s, "
        f"{size / 2**20:,.1f} MiB, first bytes after {1000 * (first or 0):.0f} ms, "
        f"{1000 * web_cpu:,.0f} ms CPU of gunicorn; "
        + ("whole" if whole else "CUT SHORT" + cut)
        + ("; the log says WORKER TIMEOUT" if killed else "")
    )


def _process_cpu(pid: int) -> float:
    """CPU seconds (user + system) of ``pid`` and its children so far (Linux /proc)."""
    total = 0.0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(child) for child in children.read_text().split()]
    for one in pids:
        fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        total += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    return total / os.sysconf("SC_CLK_TCK")


def row(name: str, times: list[float], note: str = "") -> str:
    return (
        f"| {name} | {statistics.median(times):.1f} ms | {percentile(times, 0.95):.1f} ms "
        f"| {len(times)} | {note} |"
    )


def measure(args: argparse.Namespace, day: dt.date, built: dict[str, Any]) -> list[str]:
    from django.conf import settings
    from django.test import Client

    from games.models import DailyChallenge, Game
    from leaderboards import circles, day_board, store

    # one client address asks for everything here: lift the per-address file limit
    settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["daily_games"] = "100000/hour"
    r = store.client()
    assert r is not None
    client = Client()
    easy = DailyChallenge.objects.get(date=day, tier="easy")
    board = f"/api/leaderboards/daily/{day.isoformat()}/easy/"
    results = Game.objects.filter(challenge=easy, mode="daily").count()
    deep = max(1, results // day_board.PAGE_SIZE // 2)

    def forget() -> None:
        day_board.process_cache.clear()
        circles.process_copies.clear()

    def cold() -> None:
        forget()
        store.drop_board(r, easy.pk)

    rows = [
        "| read | median | p95 | requests | note |",
        "|---|---|---|---|---|",
        row("board, first page, cold", timed(client, board, 3, cold), "Redis board rebuilt"),
        row("board, first page, warm", timed(client, board, args.repeat, forget), "from Redis"),
        row(f"board, page {deep}, cold", timed(client, f"{board}?page={deep}", 3, cold), ""),
        row(
            f"board, page {deep}, warm",
            timed(client, f"{board}?page={deep}", args.repeat, forget),
            "",
        ),
    ]
    rows.append(
        row(
            "archive board (API)",
            timed(client, f"/api/leaderboards/archive/{day.isoformat()}/easy/", args.repeat),
            f"{built['archivists']} replays a tier, ranked by PostgreSQL",
        )
    )
    from games import daily

    # What the home page and /api/daily/ show of a day: counted once per DAY_COUNTS_SECONDS
    # by each web process, kept between (this day is closed, but the count is the same).
    played = sum(counts[0] for counts in daily.day_counts(day).values())
    rows.append(
        row(
            "the day's counts, counted",
            timed_call(lambda: daily.day_counts(day), 5, daily.counts_kept.clear),
            f"{played:,} games, every tier: once per DAY_COUNTS_SECONDS per process",
        )
    )
    kept = timed_call(lambda: daily.day_counts(day), args.repeat, lambda: None)
    rows.append(
        f"| the day's counts, kept | {1000 * statistics.median(kept):.1f} µs "
        f"| {1000 * percentile(kept, 0.95):.1f} µs | {len(kept)} "
        "| every other home page and /api/daily/ of the window |"
    )
    from accounts.models import User

    sample = User.objects.get(display_name=built["sample_player"])
    logged_in = Client()
    logged_in.force_login(sample)
    rows.append(
        row(
            "archive calendar (API, logged in)",
            timed(logged_in, f"/api/calendar/{day.strftime('%Y-%m')}/", args.repeat),
            "the archive page's data",
        )
    )
    player = f"/api/players/{sample.display_name}/"
    history = Game.objects.filter(player=sample).count()
    # not kept in Redis (unlike the streak and all-time boards): every read is PostgreSQL's
    rows.append(row("player page (API)", timed(client, player, args.repeat), f"{history} games"))
    files: list[str] = []
    served: list[str] = []
    for tier in args.file_tiers:
        count = Game.objects.filter(challenge__date=day, challenge__tier=tier, mode="daily").count()
        url = f"/api/daily/{day.isoformat()}/{tier}/games.jsonl"
        seconds, size, cpu, sha = streamed(client, url, **{"Accept-Encoding": "gzip"})
        files.append(
            f"| games file, {tier} ({count:,} games), streamed from PostgreSQL | {seconds:.1f} s "
            f"| {size / 2**20:,.1f} MiB | {size / count:,.0f} B a game | "
            f"{count / seconds:,.0f} games/s, {1000 * cpu / count:.2f} ms CPU a game |"
        )
        if args.through_gunicorn and tier == (args.file_tiers or ["easy"])[0]:
            from django.db import connections

            connections.close_all()
            served.append(through_gunicorn(url))  # before its copy exists: the stream
        files += stored_rows(client, day, tier, count, sha)
        if args.through_gunicorn and tier == (args.file_tiers or ["easy"])[0]:
            from django.db import connections

            connections.close_all()
            served.append("stored, " + through_gunicorn(url, gzipped=True))
            served.append("stored, " + through_gunicorn(url))
    return [
        *rows,
        "",
        "| games file | time | bytes | per game | rate |",
        "|---|---|---|---|---|",
        *files,
        *served,
    ]


def sizes() -> list[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("CHECKPOINT")
        cursor.execute("SELECT pg_database_size(current_database())")
        database = int(cursor.fetchone()[0])
        cursor.execute(
            "SELECT pg_table_size('games_game'), pg_indexes_size('games_game'), "
            "count(*), coalesce(sum(octet_length(packed_log)), 0), coalesce(sum(ply), 0) "
            "FROM games_game"
        )
        heap, indexes, games, packed, moves = (int(v) for v in cursor.fetchone())
    return [
        f"database at rest: {database / 2**20:,.0f} MiB; games_game {heap / 2**20:,.0f} MiB "
        f"heap (with TOAST) + {indexes / 2**20:,.0f} MiB indexes for {games:,} games "
        f"({(heap + indexes) / games:,.0f} B a game); packed logs {packed / 2**20:,.1f} MiB "
        f"for {moves:,} moves ({packed / max(moves, 1):.2f} B a move)"
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument(
        "--history-players", type=int, default=None, help="default: 1%% of --players"
    )
    parser.add_argument("--history-days", type=int, default=28)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument(
        "--file-tiers", nargs="*", default=["easy"], help="tiers whose games file is streamed"
    )
    parser.add_argument(
        "--through-gunicorn",
        action="store_true",
        help="also stream the first --file-tiers file from a real gunicorn (one sync worker)",
    )
    args = parser.parse_args()
    reexec_under_services()
    import shutil
    import tempfile

    media = tempfile.mkdtemp(prefix="bench-games-files-")  # the stored files, removed after
    set_up_as_stack(
        stack_env(METRICS_TOKEN="", MEDIA_ROOT=media),
        (
            "MEDIA_ROOT",
            "DJANGO_SETTINGS_MODULE",
            "DEBUG",
            "SECRET_KEY",
            "DAILY_SECRET",
            "RECEIPT_SIGNING_KEY",
            "ALLOWED_HOSTS",
            "LOG_LEVEL",
            "SECURE_SSL_REDIRECT",
        ),
    )
    from games.models import utc_today

    day = utc_today() - dt.timedelta(days=1)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    built = build(args, day)
    print(
        f"built {built['games']:,} verified, packed games in {built['seconds']:.0f} s "
        f"({built['games'] / built['seconds']:,.0f} a second): {args.players:,} players x 3 "
        f"tiers on {day}, {built['archivists']:,} archive replayers, "
        f"{built['history_players']:,} players with {args.history_days} days of history"
    )
    print("\n".join(sizes()))
    try:
        print("\n".join(measure(args, day, built)))
    finally:
        shutil.rmtree(media, ignore_errors=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end (others share this machine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
