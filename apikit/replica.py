"""Reads that can bear a second of lag, from the read replica (docs/operations.md,
"Read replica").

With ``DATABASE_REPLICA_URL`` set the settings add a second database, ``replica`` (a
streaming replica of the primary, ``default``), and ``ReplicaRouter``. Nothing goes to the
replica by default: only the reads made inside ``replica_reads()``, which the few
lag-tolerant read paths enter (the boards, the archive, player pages, a closed day's
games file). Writes, migrations and every other read stay on the primary, so a player's
own game, a move, a verification, a session or anything read and then written never sees
the replica's lag. Without the replica the context changes nothing.

The flag is a context variable: it belongs to the request's thread (or task), and
``primary_reads()`` turns it off again for a part of a lag-tolerant path that must not
lag (a Redis board rebuilt or trimmed from what PostgreSQL says).

Here, in the kit, rather than in yukon_site: the apps enter the context, and no app may
import the site's top.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from typing import Any, TypeVar

from django.db import DatabaseError, connections

from apikit.metrics import REPLICA_FALLBACKS

REPLICA = "replica"
PRIMARY = "default"
# A replica that did not answer is left alone this long: its reads go to the primary.
REPLICA_RETRY_SECONDS = 30.0

logger = logging.getLogger(__name__)
_replica_down_until = [0.0]  # time.monotonic() of this process

T = TypeVar("T")

_from_replica: ContextVar[bool] = ContextVar("reads_from_replica", default=False)


def has_replica() -> bool:
    return REPLICA in connections.settings


@contextlib.contextmanager
def replica_reads() -> Iterator[None]:
    """Reads inside go to the replica (when there is one): only for data a second old
    will do."""
    token = _from_replica.set(True)
    try:
        yield
    finally:
        _from_replica.reset(token)


@contextlib.contextmanager
def primary_reads() -> Iterator[None]:
    """Back to the primary inside a ``replica_reads()`` block."""
    token = _from_replica.set(False)
    try:
        yield
    finally:
        _from_replica.reset(token)


def replica_iter(items: Iterable[T]) -> Iterator[T]:
    """``items`` produced from the replica one step at a time: a streamed response runs
    after its view returned, outside the view's ``replica_reads()``. Entered and left
    around each step, the flag never stays on in the server's thread, even when the
    client goes away mid-stream and the rest is never read."""
    iterator = iter(items)
    while True:
        with replica_reads():
            try:
                item = next(iterator)
            except StopIteration:
                return
        yield item


def reads_from() -> str:
    """The alias a read made here goes to."""
    if not _from_replica.get() or not has_replica():
        return PRIMARY
    # Inside a transaction on the primary a read belongs to it (read, then written).
    if connections[PRIMARY].in_atomic_block:
        return PRIMARY
    return REPLICA if replica_answers() else PRIMARY


def replica_answers() -> bool:
    """Whether the replica can take a read now: connected (or connecting at once), and
    not found dead in the last REPLICA_RETRY_SECONDS. A replica that is down costs the
    site its offload, not its pages: the primary answers those reads meanwhile (it can,
    it has every row), each process trying the replica again after the pause.

    The connection's own checks decide: a kept connection is health-checked once a
    request (``CONN_HEALTH_CHECKS``), a new one is opened here, within the replica's
    ``connect_timeout``."""
    if time.monotonic() < _replica_down_until[0]:
        return False
    try:
        connections[REPLICA].ensure_connection()
    except DatabaseError as exc:
        _replica_down_until[0] = time.monotonic() + REPLICA_RETRY_SECONDS
        REPLICA_FALLBACKS.inc()
        logger.warning(
            "read replica unavailable, reading from the primary for %.0f s: %s",
            REPLICA_RETRY_SECONDS,
            exc,
        )
        return False
    return True


class ReplicaRouter:
    """settings.DATABASE_ROUTERS: the replica for reads inside ``replica_reads()``, the
    primary for everything else."""

    def db_for_read(self, model: Any, **hints: Any) -> str:
        return reads_from()

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return PRIMARY

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        # the replica is the primary's copy: rows from either are the same rows
        return True

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        # the replica replays the primary's migrations; it cannot run its own
        return db == PRIMARY
