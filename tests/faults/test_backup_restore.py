"""Backup and restore, drilled as docs/operations.md says: ``pg_dump -Fc`` of the live
database while players are moving, ``pg_restore`` into a fresh database on the same
server, ``manage.py rebuild_leaderboards`` from it into a Redis database of its own.

What "the boards at the moment of the dump" means: pg_dump reads everything in one
snapshot (REPEATABLE READ), taken when it starts, so the restore holds exactly the moves
committed by then (each move commits its log entry and its game row in one statement,
so no game is half-written in a snapshot). Moves do not change the boards; only a
verification does (the boards show verified results only). So the drill pauses
verification (a warm stop of the Celery worker: a verification in progress finishes,
the next ones wait in the queue) and reads the boards the live site serves just before
the dump starts and again once it has finished. The two readings must agree, and then
they are what the site served at the snapshot, whenever within the dump it fell. Players
keep moving throughout (practice games, and today's hard daily, whose finished games
wait unverified and must stay off the rebuilt boards as they are off the live ones).

Then it finds in the restore: every move acknowledged before pg_dump started, nothing
that was never sent, a gapless log that agrees with its game row for every game, every
verified result, and boards, rebuilt from the restore alone and served by a gunicorn on
the restored database, identical to the live ones, down to the Redis sorted sets.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis

from games.models import Game, Status, Verification, utc_today
from games.packed_log import unpack
from tests.factories import make_challenges, winning_lines
from tests.faults.pgtools import pg_tool, with_database
from tests.faults.server import Browser, gunicorn, production_env
from tests.worker_services import REDIS_SPARE_DBS, with_redis_db
from tests.workers import ROOT, own_queue, start_worker, stop, worker_database_url

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.celery,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

DEALS = {"easy": 0, "medium": 1, "hard": 68}
PLAYERS = 6
LIVE_REDIS_DB, RESTORED_REDIS_DB = REDIS_SPARE_DBS  # boards, cache and broker of each site


# ----- players --------------------------------------------------------------------------


@dataclass
class Ack:
    game_id: int
    ply: int
    text: str
    at: float  # time.monotonic() when the 200 arrived


@dataclass
class Drill:
    base: str
    stop: threading.Event = field(default_factory=threading.Event)
    paused: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    acks: list[Ack] = field(default_factory=list)
    sent: set[tuple[int, int, str]] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)

    def move(self, tab: Browser, game_id: int, ply: int, text: str) -> None:
        with self.lock:
            self.sent.add((game_id, ply, text))
        response = tab.post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": text})
        if response.status_code != 200:
            raise AssertionError(f"move {game_id}/{ply}: {response.status_code} {response.text}")
        with self.lock:
            self.acks.append(Ack(game_id, ply, text, time.monotonic()))


def play_game(
    drill: Drill, tab: Browser, start: dict[str, Any], line: list[str], stop_at: int | None = None
) -> None:
    game_id = start["id"]
    for ply in range(start["ply"], stop_at if stop_at is not None else len(line)):
        drill.move(tab, game_id, ply, line[ply])
        time.sleep(0.01)
    if stop_at is not None:
        assert tab.post(f"/api/games/{game_id}/resign/").status_code == 200


def player(drill: Drill, number: int, lines: dict[str, list[str]]) -> None:
    """Easy and medium dailies (medium resigned at a point of its own, so the board has
    an order), then practice games until told to stop; today's hard daily once
    verification is paused."""
    tab = Browser(drill.base)
    try:
        tab.sign_up(f"saver{number}")
        for tier in ("easy", "medium"):
            start = tab.post("/api/games/", {"daily": tier}).json()
            play_game(drill, tab, start, lines[tier], None if tier == "easy" else 20 + 7 * number)
        hard_played = False
        while not drill.stop.is_set():
            if drill.paused.is_set() and not hard_played:
                play_game(
                    drill, tab, tab.post("/api/games/", {"daily": "hard"}).json(), lines["hard"]
                )
                hard_played = True
                continue
            practice = tab.post("/api/games/", {"deal": DEALS["hard"]}).json()
            line = lines["hard"]
            for ply in range(len(line)):
                if drill.stop.is_set() or (drill.paused.is_set() and not hard_played):
                    break
                drill.move(tab, practice["id"], ply, line[ply])
                time.sleep(0.01)
    except Exception as exc:  # reported by the test, not lost in a thread
        drill.errors.append(f"player {number}: {exc!r}")
    finally:
        tab.close()


# ----- the drill --------------------------------------------------------------------------


def wait_for(condition: Callable[[], bool], seconds: float, what: str, drill: Drill) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert not drill.errors, drill.errors
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def boards(tab: Browser) -> dict[str, Any]:
    """Every board of today as the site serves it (each fits on its first page)."""
    served = {}
    for tier in DEALS:
        response = tab.get(f"/api/leaderboards/daily/{utc_today().isoformat()}/{tier}/")
        assert response.status_code == 200, response.text
        body = response.json()
        assert body.get("pages", 1) <= 1, "the drill's boards fit on one page"
        served[tier] = body
    return served


def sorted_sets(redis_url: str) -> dict[bytes, Any]:
    """Every board's sorted set (members and scores) in the site's Redis."""
    r = redis.Redis.from_url(redis_url)
    keys = [key for key in r.scan_iter(match="lb:day:*") if key.count(b":") == 2]
    return {key: r.zrange(key, 0, -1, withscores=True) for key in sorted(keys)}


@contextlib.contextmanager
def fresh_database(database_url: str, name: str) -> Iterator[str]:
    createdb, dropdb = pg_tool("createdb", database_url), pg_tool("dropdb", database_url)
    subprocess.run(
        [str(createdb), "--maintenance-db", database_url, name],
        check=True,
        capture_output=True,
        timeout=60,
    )
    try:
        yield with_database(database_url, name)
    finally:
        subprocess.run(
            [str(dropdb), "--maintenance-db", database_url, "--force", name],
            check=False,
            capture_output=True,
            timeout=60,
        )


def restored_log(database_url: str) -> tuple[set[tuple[int, int, str]], dict[int, int]]:
    with psycopg.connect(database_url) as conn:
        moves = conn.execute("SELECT game_id, ply, text FROM games_move").fetchall()
        packed = conn.execute(  # verified games' logs, packed into their rows
            "SELECT id, packed_log FROM games_game WHERE packed_log IS NOT NULL"
        ).fetchall()
        plies: dict[int, int] = dict(conn.execute("SELECT id, ply FROM games_game").fetchall())
    log = {(g, p, t) for g, p, t in moves}
    log |= {(game_id, e.ply, e.text) for game_id, data in packed for e in unpack(data)}
    return log, plies


def verified_ids(database_url: str) -> set[int]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute("SELECT id FROM games_game WHERE verification = 'verified'").fetchall()
    return {row[0] for row in rows}


def test_a_dump_taken_while_players_move_restores_every_acknowledged_move_and_the_boards(
    tmp_path: Path,
) -> None:
    make_challenges(numbers=DEALS)
    lines = {tier: winning_lines()[deal] for tier, deal in DEALS.items()}
    live_db = worker_database_url()
    redis_url = os.environ["REDIS_URL"]
    live_redis, restored_redis = (
        with_redis_db(redis_url, LIVE_REDIS_DB),
        with_redis_db(redis_url, RESTORED_REDIS_DB),
    )
    for url in (live_redis, restored_redis):
        redis.Redis.from_url(url).flushdb()
    pg_dump, pg_restore = pg_tool("pg_dump", live_db), pg_tool("pg_restore", live_db)
    dump = tmp_path / "yukon.dump"
    static = tmp_path / "static"
    static.mkdir()
    with (
        own_queue() as queue,
        gunicorn(
            tmp_path / "live.log",
            static,
            CELERY_TASK_DEFAULT_QUEUE=queue,
            THROTTLE_MOVES="1000/s",
            THROTTLE_SIGNUP="1000/min",
            REDIS_URL=live_redis,
        ) as base,
    ):
        worker = start_worker(queue, tmp_path / "worker.log", REDIS_URL=live_redis)
        drill = Drill(base)
        threads = [
            threading.Thread(target=player, args=(drill, n, lines), daemon=True)
            for n in range(PLAYERS)
        ]
        reader = Browser(base)
        try:
            for thread in threads:
                thread.start()
            dailies = Game.objects.filter(mode="daily", challenge__tier__in=["easy", "medium"])
            wait_for(
                lambda: dailies.filter(verification=Verification.VERIFIED).count() == 2 * PLAYERS,
                120,
                "the easy and medium results to be verified",
                drill,
            )
            stop(worker)  # verification paused: a warm stop finishes the task in hand
            drill.paused.set()
            wait_for(
                lambda: (
                    Game.objects.filter(challenge__tier="hard")
                    .exclude(status=Status.PLAYING)
                    .count()
                    >= 2
                ),
                60,
                "hard dailies finished, waiting for verification",
                drill,
            )

            served_before = boards(reader)
            verified_before = verified_ids(live_db)
            dump_started = time.monotonic()
            subprocess.run(
                [str(pg_dump), "-Fc", "-f", str(dump), "-d", live_db],
                check=True,
                capture_output=True,
                timeout=120,
            )
            dump_ended = time.monotonic()
            served_after = boards(reader)
            verified_after = verified_ids(live_db)
        finally:
            drill.stop.set()
            for thread in threads:
                thread.join(30)
            reader.close()
            stop(worker)
        assert not drill.errors, drill.errors
        assert served_before == served_after, "the boards changed while verification was paused"
        assert verified_before == verified_after
        live_sets = sorted_sets(live_redis)

    acked_before = {(a.game_id, a.ply, a.text) for a in drill.acks if a.at < dump_started}
    during = [a for a in drill.acks if dump_started <= a.at <= dump_ended]
    assert during, "no move was acknowledged while pg_dump ran: players were not moving"
    assert len(acked_before) > 500
    assert all(len(served_before[tier]["results"]) == PLAYERS for tier in ("easy", "medium"))
    assert served_before["hard"]["results"] == [], "hard results waited, unverified"

    name = f"restored_{uuid.uuid4().hex[:10]}"
    with fresh_database(live_db, name) as restored_db:
        restore = subprocess.run(
            [str(pg_restore), "--no-owner", "--exit-on-error", "-d", restored_db, str(dump)],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert restore.returncode == 0, restore.stderr

        moves, plies = restored_log(restored_db)
        later = {(a.game_id, a.ply, a.text) for a in drill.acks if a.at > dump_ended}
        assert later - moves, "moves made after the dump are in it: the check has no teeth"
        missing = acked_before - moves
        assert not missing, f"{len(missing)} acknowledged moves lost, e.g. {sorted(missing)[:3]}"
        assert moves <= drill.sent, "the restore holds moves nobody sent"
        per_game: dict[int, list[int]] = {}
        for game_id, ply, _ in moves:
            per_game.setdefault(game_id, []).append(ply)
        for game_id, ply in plies.items():
            assert sorted(per_game.get(game_id, [])) == list(range(ply)), f"game {game_id}"
        assert verified_ids(restored_db) == verified_before

        rebuild = subprocess.run(
            [sys.executable, "manage.py", "rebuild_leaderboards"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env=production_env(DATABASE_URL=restored_db, REDIS_URL=restored_redis),
        )
        assert rebuild.returncode == 0, rebuild.stderr
        assert sorted_sets(restored_redis) == live_sets
        with gunicorn(
            tmp_path / "restored.log",
            static,
            DATABASE_URL=restored_db,
            REDIS_URL=restored_redis,
            CELERY_TASK_DEFAULT_QUEUE=f"{queue}-restored",
        ) as restored_base:
            visitor = Browser(restored_base)
            try:
                assert boards(visitor) == served_before
            finally:
                visitor.close()
    for log in ("live.log", "restored.log"):
        assert "Traceback" not in (tmp_path / log).read_text(), log
    for url in (live_redis, restored_redis):
        redis.Redis.from_url(url).flushdb()
