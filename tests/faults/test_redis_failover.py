"""The Sentinel drill (docs/operations.md, "Redis that fails over"): a Redis master, its
replica and three Sentinels of this test's own; gunicorn, a Celery worker and beat reach
Redis only through the Sentinels (REDIS_URL names a host that does not exist). The master
is killed while players move. Play goes on, the Sentinels promote the replica, the worker
verifies on through the new master, the boards recover, and no result is lost: every
game won is verified and on the board, in PostgreSQL and in the new master's board."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import httpx
import pytest
import redis

from games.models import DailyChallenge, Game, Verification, utc_today
from leaderboards.models import StaleBoard
from tests.factories import make_challenges, winning_lines
from tests.faults.server import (
    Browser,
    RedisServer,
    SentinelServer,
    collected_static,
    gunicorn,
)
from tests.workers import own_queue, start_beat, start_worker, stop

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.celery,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

MASTER = "yukon"
PLAYERS = ("ben", "cal", "dee")


def wait_for(what: str, check: object, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.1)


def role(server: RedisServer) -> str | None:
    """The server's replication role, or None while it cannot answer: a Sentinel that turns
    a returning master into a replica closes that server's client connections as it does."""
    try:
        return str(redis.Redis(port=server.port).info("replication")["role"])
    except redis.ConnectionError:
        return None


def ask(sentinel: SentinelServer, *command: str) -> list[bytes]:
    """A SENTINEL command's raw reply (redis-py's parsers want a Sentinel client)."""
    reply: list[bytes] = redis.Redis(port=sentinel.port).execute_command("SENTINEL", *command)
    return reply


def watching(sentinel: SentinelServer) -> dict[str, str]:
    """What a Sentinel knows of the master: SENTINEL MASTER's fields."""
    reply = [item.decode() for item in ask(sentinel, "MASTER", MASTER)]
    return dict(zip(reply[::2], reply[1::2], strict=True))


def master_port(sentinels: list[SentinelServer]) -> int | None:
    """The master's port as a majority of the Sentinels name it, None if they disagree."""
    ports = []
    for sentinel in sentinels:
        found = ask(sentinel, "GET-MASTER-ADDR-BY-NAME", MASTER)
        ports.append(int(found[1]) if found else None)
    best = max(set(ports), key=ports.count)
    return best if ports.count(best) * 2 > len(ports) else None


def test_play_goes_on_and_no_result_is_lost_when_the_redis_master_dies(tmp_path: Path) -> None:
    challenge = make_challenges(numbers={"easy": 0, "medium": 1, "hard": 68})["easy"]
    line = winning_lines()[0]
    board_url = f"/api/leaderboards/daily/{utc_today().isoformat()}/easy/"
    for name in ("primary", "replica", "beat"):
        (tmp_path / name).mkdir()
    primary = RedisServer(tmp_path / "primary")
    primary.start()
    replica = RedisServer(tmp_path / "replica", "--replicaof", "127.0.0.1", str(primary.port))
    replica.start()
    sentinels = [SentinelServer(tmp_path / f"sentinel{i}", primary) for i in range(3)]
    assert sentinels[0].master_name == MASTER  # what the app asks for (REDIS_SENTINEL_MASTER)
    processes = []
    try:
        for sentinel in sentinels:
            sentinel.start()
        wait_for(
            "the Sentinels to see the replica and each other",
            lambda: all(
                (state := watching(s))["num-slaves"] == "1" and state["num-other-sentinels"] == "2"
                for s in sentinels
            ),
        )
        with own_queue() as queue:
            env = {
                "REDIS_URL": "redis://no-such-host.invalid:6379/0",  # only the Sentinels lead
                "REDIS_SENTINELS": ",".join(s.address for s in sentinels),
                "REDIS_SENTINEL_MASTER": MASTER,
                "CELERY_TASK_ALWAYS_EAGER": "false",
                "THROTTLE_MOVES": "1000/s",
                # the sweepers that pick up what a failover dropped, every two seconds
                "VERIFY_SWEEP_SECONDS": "2",
                "VERIFY_PENDING_GRACE_SECONDS": "3",
                "STALE_BOARDS_SWEEP_SECONDS": "2",
            }
            processes.append(start_worker(queue, tmp_path / "worker.log", **env))
            processes.append(start_beat(queue, tmp_path / "beat", tmp_path / "beat.log", **env))
            served = {**env, "CELERY_TASK_DEFAULT_QUEUE": queue}
            with gunicorn(tmp_path / "gunicorn.log", collected_static(), **served) as base:
                drill(
                    base,
                    challenge=challenge,
                    line=line,
                    board_url=board_url,
                    primary=primary,
                    sentinels=sentinels,
                )
                # the old master returns: the Sentinels make it a replica of the new one
                primary.start()
                wait_for("the old master to follow the new one", lambda: role(primary) == "slave")
    finally:
        for process in processes:
            stop(process)
        for sentinel in sentinels:
            sentinel.stop()
        replica.stop()
        primary.stop()
    log = (tmp_path / "gunicorn.log").read_text()
    assert "Internal Server Error" not in log


def drill(
    base: str,
    *,
    challenge: DailyChallenge,
    line: list[str],
    board_url: str,
    primary: RedisServer,
    sentinels: list[SentinelServer],
) -> None:
    ann = Browser(base)
    ann.sign_up("ann")
    game = ann.post("/api/games/", {"daily": "easy"}).json()["id"]
    for ply, move in enumerate(line):
        response = ann.post(f"/api/games/{game}/moves/", {"ply": ply, "move": move})
        assert response.status_code == 200, response.text
    wait_for("Ann's win on the board", lambda: board_names(ann, board_url) == ["Ann"])
    old_master = master_port(sentinels)
    assert old_master == primary.port

    # Three more players play at once; the master dies a third of the way through.
    tabs = {name: Browser(base) for name in PLAYERS}
    games = {}
    for name, tab in tabs.items():
        tab.sign_up(name)
        games[name] = tab.post("/api/games/", {"daily": "easy"}).json()["id"]
    progress = dict.fromkeys(PLAYERS, 0)
    failures: list[str] = []
    slowest = [0.0]

    def play(name: str) -> None:
        tab = tabs[name]
        try:
            for ply, move in enumerate(line):
                started = time.monotonic()
                response = tab.post(f"/api/games/{games[name]}/moves/", {"ply": ply, "move": move})
                slowest[0] = max(slowest[0], time.monotonic() - started)
                if response.status_code != 200:
                    failures.append(f"{name} ply {ply}: {response.status_code} {response.text}")
                    return
                progress[name] = ply + 1
                time.sleep(0.02)  # a quick human: the game outlasts the failover
        except httpx.HTTPError as exc:
            failures.append(f"{name}: {exc!r}")

    threads = [threading.Thread(target=play, args=(name,)) for name in PLAYERS]
    for thread in threads:
        thread.start()
    wait_for("a third of the moves", lambda: min(progress.values()) >= len(line) // 3)
    primary.kill()
    killed = time.monotonic()
    wait_for("a new master", lambda: master_port(sentinels) not in (None, old_master))
    promoted = time.monotonic() - killed
    played_during = min(progress.values())
    for thread in threads:
        thread.join(120)
    assert not failures, failures
    assert all(count == len(line) for count in progress.values()), progress
    assert played_during < len(line), "the games ended before the Sentinels acted"

    # No result lost: all four won, verified, on the board, in the new master's board too.
    every = ["Ann", *(name.title() for name in PLAYERS)]
    wait_for(
        "every win verified and on the board",
        lambda: (
            Game.objects.filter(challenge=challenge, verification=Verification.VERIFIED)
            .exclude(finished_at=None)
            .count()
            == 4
            and sorted(board_names(ann, board_url)) == every
            and not StaleBoard.objects.exists()
        ),
    )
    port = master_port(sentinels)
    assert port is not None
    new_master = redis.Redis(port=port)
    assert new_master.zcard(f"lb:day:{challenge.pk}") == 4
    health = ann.get("/healthz").json()
    assert health["redis"] == "ok", health
    print(
        f"failover drill: a new master {promoted:.1f} s after the kill; "
        f"the slowest move took {slowest[0] * 1000:.0f} ms"
    )
    for tab in (ann, *tabs.values()):
        tab.close()


def board_names(tab: Browser, board_url: str) -> list[str]:
    response = tab.get(board_url)
    assert response.status_code == 200, response.text
    return [row["display_name"] for row in response.json()["results"]]
