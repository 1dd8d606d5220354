"""PostgreSQL restarts in the middle of a burst of moves (a throwaway cluster of this
test's own): clients get clean answers (200, 409 for a ply already taken, 503 with a
message while the database is away; never a 500) and retry; afterwards every
acknowledged move is in the log exactly once and no game is half-written."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from games.packed_log import unpack
from tests.factories import winning_lines
from tests.faults.server import Browser, free_port, gunicorn, production_env
from tests.workers import ROOT
from yukon.engine import Position

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


class Cluster:
    """initdb + pg_ctl, as scripts/test-services does (as the postgres user under root)."""

    def __init__(self, workdir: Path) -> None:
        bindirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
        on_path = shutil.which("pg_ctl")
        self.bindir = Path(os.path.realpath(on_path)).parent if on_path else Path(bindirs[-1])
        self.workdir = workdir
        self.data = workdir / "data"
        self.port = free_port()
        self.run_as: list[str] = []
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(workdir, owner.pw_uid, owner.pw_gid)
            self.run_as = ["runuser", "-u", "postgres", "--"]
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/yukon"

    def pg(self, *args: str) -> None:
        subprocess.run(
            [*self.run_as, str(self.bindir / args[0]), *args[1:]],
            cwd=self.workdir,
            check=True,
            capture_output=True,
            timeout=120,
        )

    def init(self) -> None:
        self.pg("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")
        self.start()
        self.pg("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "yukon")

    def start(self) -> None:
        # Durable commits (synchronous_commit on): an acknowledged move must survive the
        # immediate stop below; fsync off only matters if the machine itself crashes.
        options = f"-p {self.port} -k {self.workdir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.pg(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.workdir / "pg.log"),
            "-o",
            options,
            "-w",
            "start",
        )

    def stop(self) -> None:
        self.pg("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")


@contextlib.contextmanager
def cluster() -> Iterator[Cluster]:
    # Directly under /tmp: pytest's tmp_path is private to root, and the server runs as
    # the postgres user.
    workdir = Path(tempfile.mkdtemp(prefix="yukon-faults-pg-"))
    pg = Cluster(workdir)
    try:
        pg.init()
        yield pg
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            pg.stop()
        shutil.rmtree(workdir, ignore_errors=True)


class Player(threading.Thread):
    """Plays a winning line as fast as the server answers, retrying whatever failed."""

    def __init__(self, tab: Browser, game_id: int, line: list[str]) -> None:
        super().__init__(daemon=True)
        self.tab, self.game_id, self.line = tab, game_id, line
        self.acknowledged: list[int] = []
        self.statuses: dict[int, int] = {}
        self.bad: list[str] = []
        self.errors = 0

    def run(self) -> None:
        ply = 0
        deadline = time.monotonic() + 90
        while ply < len(self.line) and time.monotonic() < deadline:
            try:
                response = self.tab.post(
                    f"/api/games/{self.game_id}/moves/", {"ply": ply, "move": self.line[ply]}
                )
            except httpx.HTTPError:
                self.errors += 1
                time.sleep(0.05)
                continue
            code = response.status_code
            self.statuses[code] = self.statuses.get(code, 0) + 1
            body = response.json() if "json" in response.headers.get("content-type", "") else None
            if code == 200:
                self.acknowledged.append(ply)
                ply = body["ply"]
            elif code == 409 and body and "ply" in body:
                ply = body["ply"]  # the move did commit, only its answer was lost
            elif code == 503 and body and "database" in body["detail"]:
                time.sleep(0.05)
            else:
                self.bad.append(f"{code}: {response.text[:300]}")
                time.sleep(0.05)
        self.final_ply = ply


def test_moves_through_a_postgres_restart(tmp_path: Path) -> None:
    lines = winning_lines()
    static = tmp_path / "static"
    static.mkdir()
    with cluster() as pg:
        env = production_env(DATABASE_URL=pg.url)
        migrate = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
        assert migrate.returncode == 0, migrate.stderr
        with gunicorn(
            tmp_path / "gunicorn.log", static, DATABASE_URL=pg.url, THROTTLE_MOVES="1000/s"
        ) as base:
            players = []
            for index, (deal, line) in enumerate(sorted(lines.items()) * 2):
                tab = Browser(base)
                tab.sign_up(f"p{index}")
                started = tab.post("/api/games/", {"deal": deal})
                assert started.status_code == 201, started.text
                players.append((deal, Player(tab, started.json()["id"], line)))
            for _, player in players:
                player.start()
            time.sleep(0.3)  # mid-burst
            pg.stop()
            with httpx.Client(base_url=base, timeout=10) as probe:
                down = probe.get("/healthz")
            assert down.status_code == 503 and down.json()["database"] == "down"
            time.sleep(1.0)
            pg.start()
            for _, player in players:
                player.join(120)

        # The log, read back from the cluster
        with psycopg.connect(pg.url) as conn:
            for deal, player in players:
                assert not player.bad, player.bad
                assert player.final_ply == len(player.line), (player.statuses, player.errors)
                game = conn.execute(
                    "SELECT id, ply, moves, position, status FROM games_game WHERE id = %s",
                    [player.game_id],
                ).fetchone()
                assert game is not None
                log = conn.execute(
                    "SELECT ply, text FROM games_move WHERE game_id = %s ORDER BY ply",
                    [player.game_id],
                ).fetchall()
                packed = conn.execute(  # a verified game's log is packed into its row
                    "SELECT packed_log FROM games_game WHERE id = %s AND packed_log IS NOT NULL",
                    [player.game_id],
                ).fetchone()
                if packed is not None:
                    log = [(entry.ply, entry.text) for entry in unpack(packed[0])]
                plies = [ply for ply, _ in log]
                assert plies == list(range(len(player.line)))  # gapless, each ply once
                assert len(set(player.acknowledged)) == len(player.acknowledged)
                assert set(player.acknowledged) <= set(plies)
                position = Position.deal(deal)
                for _, text in log:
                    position.play_text(text)
                # not half-written: the game row agrees with its log
                assert (game[1], game[2], game[3], game[4]) == (
                    len(log),
                    len(log),
                    position.to_text(),
                    "won",
                )
    statuses: dict[int, int] = {}
    for _, player in players:
        for code, count in player.statuses.items():
            statuses[code] = statuses.get(code, 0) + count
    assert 503 in statuses, f"the restart was not seen: {statuses}"
    assert "Traceback" not in (tmp_path / "gunicorn.log").read_text()
