"""The Redis side of the boards: the client, key names, and sorted-set reads and writes.

Every function here may raise ``redis.RedisError``; callers decide what to do then
(reads fall back to PostgreSQL, writes mark the board stale). Settings:

- ``LEADERBOARDS_REDIS_URL`` (default ``REDIS_URL``; empty: no Redis, PostgreSQL only);
- ``LEADERBOARDS_KEY_PREFIX`` (default ``"lb:"``): the tests give each test its own.
"""

from __future__ import annotations

import uuid
import weakref
from collections.abc import Iterable, Sequence
from typing import Any

import orjson
import redis
from django.conf import settings

from apikit import redis_client

CHUNK = 10_000  # ZADD members per pipelined command during a rebuild
REBUILD_LOCK_SECONDS = 60


def redis_url() -> str:
    return str(getattr(settings, "LEADERBOARDS_REDIS_URL", settings.REDIS_URL) or "")


def prefix() -> str:
    return str(getattr(settings, "LEADERBOARDS_KEY_PREFIX", "lb:"))


def client() -> redis.Redis | None:
    """The shared client, or None when no Redis is configured. Short timeouts: a dead
    Redis must cost a request milliseconds, not seconds, before the PostgreSQL fallback."""
    url = redis_url()
    if not url:
        return None
    return redis_client.client(
        url, socket_connect_timeout=0.25, socket_timeout=1.0, health_check_interval=30
    )


# A day's board lives under ``day:``. The keys were ``daily:`` while the score took 10
# bits of the Redis score (leaderboards.ranking): those sets are never read again, and the
# first read of each board builds it anew under the new name.
BOARD = "day"


def daily_key(challenge_id: int) -> str:
    return f"{prefix()}{BOARD}:{challenge_id}"


def ready_key(challenge_id: int) -> str:
    """Set once a board has been built: an empty board has no sorted set at all."""
    return f"{prefix()}{BOARD}:{challenge_id}:ready"


# Players' results are counted in buckets of player ids: a bounded hash (at most
# RESULT_BUCKETS fields, a few MB) however many players the site has, at the price of a
# circle's kept values being computed again, needlessly, when a non-member sharing a
# member's bucket has a result (for a league of 1,000, about one result in 65).
RESULT_BUCKETS = 1 << 16


def results_key() -> str:
    """A hash: bucket of player ids -> a counter raised by every write of one of those
    players' results to the boards (``add_entries``, ``remove_entries``). What is computed
    from a circle of players' results is kept under its members' counters (``circles``),
    so a result of anyone else leaves it kept."""
    return f"{prefix()}results"


def closed_results_key() -> str:
    """The same, raised only by writes of results of closed days (a challenge dated before
    the writer's today, read after the write's commit): what is computed from a circle's
    closed days is kept under these, so a result of today leaves it kept."""
    return f"{prefix()}results:closed"


def epoch_key() -> str:
    """A counter raised by every rebuild or drop of a board. A board is rebuilt after a
    write that Redis missed (a stale board), whose counters did not move either."""
    return f"{prefix()}epoch"


def lock_key(challenge_id: int) -> str:
    return f"{prefix()}{BOARD}:{challenge_id}:lock"


def cache_key(name: str) -> str:
    return f"{prefix()}cache:{name}"


# ----- daily boards ----------------------------------------------------------------------


def replace_board(r: redis.Redis, challenge_id: int, entries: Sequence[tuple[str, int]]) -> None:
    """Write a whole board: fill a temporary key in chunks, then swap it in atomically."""
    key = daily_key(challenge_id)
    tmp = f"{key}:tmp:{uuid.uuid4().hex}"
    pipe = r.pipeline(transaction=False)
    for start in range(0, len(entries), CHUNK):
        pipe.zadd(tmp, dict(entries[start : start + CHUNK]))
    pipe.execute()
    swap = r.pipeline(transaction=True)
    if entries:
        swap.rename(tmp, key)
    else:
        swap.delete(key)
    swap.set(ready_key(challenge_id), "1")
    swap.incr(epoch_key())
    swap.execute()


def is_ready(r: redis.Redis, challenge_id: int) -> bool:
    return bool(r.exists(ready_key(challenge_id)))


def try_lock(r: redis.Redis, challenge_id: int) -> bool:
    return bool(r.set(lock_key(challenge_id), "1", nx=True, ex=REBUILD_LOCK_SECONDS))


def unlock(r: redis.Redis, challenge_id: int) -> None:
    r.delete(lock_key(challenge_id))


def add_entries(
    r: redis.Redis,
    entries: Iterable[tuple[int, str, int]],
    players: Iterable[int] = (),
    closed: Iterable[int] = (),
) -> None:
    """ZADD (challenge_id, member, composite) into boards that are built (others rebuild
    on their first read anyway, and will include these results); raise the counters of
    ``players``, whose results these are, and the closed-day counters of ``closed``, those
    of them whose results are of closed days."""
    rows = list(entries)
    if not rows:
        return
    ready = r.pipeline(transaction=False)
    for challenge_id, _, _ in rows:
        ready.exists(ready_key(challenge_id))
    flags = ready.execute()
    pipe = r.pipeline(transaction=False)
    for (challenge_id, member, composite), flag in zip(rows, flags, strict=True):
        if flag:
            pipe.zadd(daily_key(challenge_id), {member: composite})
    _count_results(pipe, players, closed)
    _execute_replicated(r, pipe)


def remove_entries(
    r: redis.Redis,
    entries: Iterable[tuple[int, str]],
    players: Iterable[int] = (),
    closed: Iterable[int] = (),
) -> None:
    """ZREM, and the counters as ``add_entries`` raises them."""
    pipe = r.pipeline(transaction=False)
    for challenge_id, member in entries:
        pipe.zrem(daily_key(challenge_id), member)
    _count_results(pipe, players, closed)
    _execute_replicated(r, pipe)


class NotReplicated(redis.RedisError):
    """A write to the boards that a replica did not confirm in time: a failover now could
    promote that replica without it. The caller marks the board stale, as for any
    failed write, and the board is rebuilt from PostgreSQL."""


# How many replicas the master had at a client's last write (INFO), this process's last
# view: the next write waits for that many.
_replicas_seen: weakref.WeakKeyDictionary[redis.Redis, int] = weakref.WeakKeyDictionary()


def online_replicas(replication: dict[str, Any]) -> int:
    """The replicas a master streams to (INFO replication), not those waiting for their
    first copy. One still loading that copy acknowledges nothing until it is done: a
    write then is marked stale needlessly, which costs a rebuild and nothing more."""
    return sum(
        1
        for field, value in replication.items()
        if field.startswith("slave") and isinstance(value, dict) and value.get("state") == "online"
    )


def _execute_replicated(r: redis.Redis, pipe: Any) -> list[Any]:
    """Run a pipeline of result writes; with ``REDIS_WAIT_FOR_REPLICAS`` (on with
    Sentinels), in the same round trip WAIT until the replicas the master had at the last
    write confirm them, and raise NotReplicated if they do not within ``REDIS_WAIT_MS``.

    Redis replicates asynchronously, and Sentinel promotes a replica when the master
    dies: a result on the master but not yet on that replica would vanish from a board
    that nothing marks stale. A master with no replica needs no wait (there is nobody to
    promote; a replica that connects later copies everything)."""
    if not getattr(settings, "REDIS_WAIT_FOR_REPLICAS", False):
        return list(pipe.execute())
    expected = _replicas_seen.get(r)
    if expected is None:
        found: dict[str, Any] = r.info("replication")  # type: ignore[assignment]
        expected = online_replicas(found)
    if expected:
        pipe.wait(expected, int(settings.REDIS_WAIT_MS))
    pipe.info("replication")
    *results, replication = pipe.execute()
    _replicas_seen[r] = online_replicas(replication)
    if expected and int(results.pop()) < expected:
        raise NotReplicated(f"a board write reached fewer than {expected} replicas in time")
    return results


def _bucket(player_id: int) -> int:
    return player_id % RESULT_BUCKETS


def _count_results(pipe: Any, players: Iterable[int], closed: Iterable[int]) -> None:
    for key, ids in ((results_key(), players), (closed_results_key(), closed)):
        for bucket in sorted({_bucket(pid) for pid in ids}):
            pipe.hincrby(key, str(bucket), 1)


# The epoch and the sums of the counters of the players' buckets in both hashes, in one
# round trip with one argument (the buckets, comma-separated): HMGET with a thousand
# fields cost a league page 4 ms of argument packing and reply parsing in redis-py. The
# counters only ever go up, so a sum changes whenever one of its counters does.
_RESULTS_VERSION = """
local buckets = {}
for bucket in string.gmatch(ARGV[1], '%d+') do buckets[#buckets + 1] = bucket end
local totals = {tonumber(redis.call('GET', KEYS[3]) or '0'), 0, 0}
for first = 1, #buckets, 1000 do
  local last = math.min(first + 999, #buckets)
  for hash = 1, 2 do
    local found = redis.call('HMGET', KEYS[hash], unpack(buckets, first, last))
    for _, count in ipairs(found) do
      if count then totals[hash + 1] = totals[hash + 1] + tonumber(count) end
    end
  end
end
return totals
"""


def results_version(r: redis.Redis, player_ids: Iterable[int]) -> tuple[int, int, int]:
    """(the epoch, the sum of the counters of each player's bucket, the same of the
    closed-day counters): the sums change with any write of one of these players' results
    (of a closed day), the epoch with any rebuild."""
    script = r.register_script(_RESULTS_VERSION)
    buckets = ",".join(str(_bucket(pid)) for pid in player_ids)
    keys = [results_key(), closed_results_key(), epoch_key()]
    epoch, total, closed = script(keys=keys, args=[buckets])
    return int(epoch), int(total), int(closed)


def page(
    r: redis.Redis, challenge_id: int, start: int, stop: int
) -> tuple[bool, int, list[tuple[str, int]], int]:
    """(ready, size, [(member, composite)] of positions start..stop inclusive, number of
    results strictly better than the first one), in two round trips."""
    key = daily_key(challenge_id)
    pipe = r.pipeline(transaction=False)
    pipe.exists(ready_key(challenge_id))
    pipe.zcard(key)
    pipe.zrange(key, start, stop, withscores=True)
    ready, size, raw = pipe.execute()
    rows = [(m.decode(), int(s)) for m, s in raw]
    better = count_better(r, challenge_id, rows[0][1]) if rows and start > 0 else 0
    return bool(ready), int(size), rows, better


def count_better(r: redis.Redis, challenge_id: int, composite: int) -> int:
    """Results strictly better than ``composite``: the shared rank is this plus one."""
    found: Any = r.zcount(daily_key(challenge_id), "-inf", f"({composite}")
    return int(found)


def position_of(r: redis.Redis, challenge_id: int, member: str) -> int | None:
    found: Any = r.zrank(daily_key(challenge_id), member)
    return None if found is None else int(found)


def drop_board(r: redis.Redis, challenge_id: int) -> None:
    pipe = r.pipeline(transaction=True)
    pipe.delete(daily_key(challenge_id), ready_key(challenge_id))
    pipe.incr(epoch_key())
    pipe.execute()


def board_ids(r: redis.Redis) -> list[int]:
    """Challenge ids of every board Redis holds (SCAN, for the rebuild command)."""
    out = set()
    for key in r.scan_iter(match=f"{prefix()}{BOARD}:*:ready", count=1000):
        out.add(int(key.decode().split(":")[-2]))
    return sorted(out)


# ----- computed boards (streaks, all-time): JSON with a short life -----------------------


def encode(value: Any) -> bytes:
    """A computed value as kept: JSON (orjson, several times quicker both ways than the
    standard library on a 1,000-row table; dict keys become text, as json.dumps makes
    them)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def cache_get(r: redis.Redis, name: str) -> Any:
    raw: Any = r.get(cache_key(name))
    return None if raw is None else orjson.loads(raw)


def cache_set(r: redis.Redis, name: str, value: Any, seconds: int) -> None:
    r.set(cache_key(name), encode(value), ex=seconds)


def cache_get_many(r: redis.Redis, names: Sequence[str]) -> list[Any]:
    """Several computed values in one round trip (None for each one not kept)."""
    if not names:
        return []
    found: Any = r.mget([cache_key(name) for name in names])
    return [None if raw is None else orjson.loads(raw) for raw in found]


def cache_clear(r: redis.Redis) -> None:
    keys = list(r.scan_iter(match=f"{prefix()}cache:*", count=1000))
    if keys:
        r.delete(*keys)


def flush_prefix(r: redis.Redis) -> None:
    """Delete every key under the prefix (tests)."""
    keys = list(r.scan_iter(match=f"{prefix()}*", count=1000))
    for start in range(0, len(keys), 1000):
        r.delete(*keys[start : start + 1000])
