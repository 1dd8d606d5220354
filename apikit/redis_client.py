"""The one way every part of the site reaches Redis: the cache, the boards, the metrics,
the health check (docs/operations.md, "Redis that fails over").

Without ``REDIS_SENTINELS`` a client talks to the server its URL names. With it (a list
of ``host:port``), the URL names only the database and the password: the client asks the
Sentinels which server is the master of ``REDIS_SENTINEL_MASTER`` now, on each new
connection. When the master dies, commands fail (every caller already carries on
without Redis: see ``yukon_site/cache.py``, ``leaderboards/services.py``) until the
Sentinels have promoted a replica; the next connection goes to the new master, and one
still open to a master demoted since is closed on its first write (redis-py's
``SentinelManagedConnection``).

Clients are shared per URL and options: each holds its connection pool, and building one
costs more than a round trip.

Here, in the kit: the apps use it, and no app may import the site's top.
"""

from __future__ import annotations

import threading
from typing import Any
from urllib.parse import unquote, urlsplit

import redis
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry
from redis.sentinel import Sentinel

_clients: dict[tuple[Any, ...], redis.Redis] = {}
_lock = threading.Lock()


def sentinels() -> list[tuple[str, int]]:
    """The Sentinels' addresses (``REDIS_SENTINELS``), empty without them."""
    found = []
    for item in getattr(settings, "REDIS_SENTINELS", ()):
        host, _, port = str(item).strip().rpartition(":")
        found.append((host, int(port)))
    return found


def _build(url: str, options: dict[str, Any]) -> redis.Redis:
    # One retry, at once: a pooled connection to a master that died (or was demoted) fails
    # once and the retry connects afresh, through the Sentinels to the new master. redis-py's
    # default (three, backing off from a second) would hold a move for seconds while
    # Redis is away, where every caller has a way to carry on without it.
    options = {"retry": Retry(NoBackoff(), 1), **options}
    addresses = sentinels()
    if not addresses:
        return redis.Redis.from_url(url, **options)
    parts = urlsplit(url)
    database = int(parts.path.strip("/") or 0)
    password = unquote(parts.password) if parts.password else None
    username = unquote(parts.username) if parts.username else None
    # The Sentinels answer with the same short timeouts: a dead one costs a connect
    # timeout before the next is asked.
    asking = {k: v for k, v in options.items() if k.startswith("socket_")}
    asking["retry"] = Retry(NoBackoff(), 0)  # an unreachable Sentinel: ask the next one
    sentinel = Sentinel(addresses, sentinel_kwargs=asking, **asking)
    master: redis.Redis = sentinel.master_for(
        str(settings.REDIS_SENTINEL_MASTER),
        db=database,
        password=password,
        username=username,
        **options,
    )
    return master


def client(url: str, **options: Any) -> redis.Redis:
    """The shared client of ``url`` (with ``options``: socket timeouts and the like)."""
    key = (url, tuple(sorted(options.items())))
    found = _clients.get(key)
    if found is None:
        with _lock:
            found = _clients.get(key)
            if found is None:
                found = _clients[key] = _build(url, options)
    return found
