"""Board writes wait for the replicas (REDIS_WAIT_FOR_REPLICAS, on with Sentinels): Redis
replicates asynchronously, and a failover promotes a replica, so a result the master had
but its replica had not would vanish from a board nothing marks stale. A write the
replica does not confirm in time marks the board stale instead (rebuilt from
PostgreSQL); a confirmed one is on the replica when the write returns."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import redis

from games.models import DailyChallenge, Game
from games.signals import game_verified
from leaderboards import day_board, store
from leaderboards.models import StaleBoard
from tests.factories import make_player, result
from tests.faults.server import RedisServer

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]

# A replica's first sync at once (Redis waits 5 s for more replicas to share it)
QUICK_SYNC = ("--repl-diskless-sync-delay", "0")


def verified(name: str, challenge: DailyChallenge) -> Game:
    game = result(make_player(name), challenge)
    game_verified.send(sender=Game, game=game)
    return game


def test_a_board_write_the_replica_has_not_confirmed_marks_the_board_stale(
    tmp_path: Path, settings: Any, challenge: DailyChallenge
) -> None:
    (tmp_path / "master").mkdir()
    (tmp_path / "replica").mkdir()
    master = RedisServer(tmp_path / "master", *QUICK_SYNC)
    master.start()
    replica = RedisServer(
        tmp_path / "replica", "--replicaof", "127.0.0.1", str(master.port), *QUICK_SYNC
    )
    replica.start()
    try:
        settings.LEADERBOARDS_REDIS_URL = master.url
        settings.REDIS_WAIT_FOR_REPLICAS = True
        settings.REDIS_WAIT_MS = 300
        r = store.client()
        assert r is not None
        copy = redis.Redis.from_url(replica.url)
        deadline = time.monotonic() + 20
        while not replicated(r):  # until the replica has loaded its first copy
            assert time.monotonic() < deadline, "the replica never synced"
        assert day_board.rebuild_daily(challenge.pk)  # the board is built: results go in

        # Confirmed: on the replica by the time the write returns, nothing stale.
        verified("ann", challenge)
        assert not StaleBoard.objects.exists()
        assert copy.zcard(store.daily_key(challenge.pk)) == 1

        # The replica stalls (a slow disk, a full link): the write is not confirmed in
        # time, and the board is marked stale rather than trusted.
        assert replica.process is not None
        os.kill(replica.process.pid, signal.SIGSTOP)
        try:
            started = time.monotonic()
            verified("ben", challenge)
            waited = time.monotonic() - started
        finally:
            os.kill(replica.process.pid, signal.SIGCONT)
        assert StaleBoard.objects.filter(challenge=challenge).exists()
        assert waited >= 0.3

        # A master left without replicas has nobody to promote: after one write that
        # learns so, writes no longer wait or go stale.
        StaleBoard.objects.all().delete()
        replica.stop()
        deadline = time.monotonic() + 20
        while store.online_replicas(r.info("replication")):
            assert time.monotonic() < deadline, "the master never saw its replica go"
            time.sleep(0.05)
        verified("cal", challenge)  # waits for the replica it last saw, in vain
        StaleBoard.objects.all().delete()
        verified("dee", challenge)
        assert not StaleBoard.objects.exists()
        assert r.zcard(store.daily_key(challenge.pk)) == 4
    finally:
        replica.stop()
        master.stop()


def replicated(r: redis.Redis) -> bool:
    """Whether a write now reaches the replica within 0.1 s (WAIT counts the replicas that
    have this connection's writes: the write goes in the same pipeline)."""
    pipe = r.pipeline(transaction=False)
    pipe.set("test-replicated", 1)
    pipe.wait(1, 100)
    return bool(pipe.execute()[1] >= 1)
