"""Counting the funnel: what may be counted, the counting itself, and the reads.

A count goes first to a Redis hash (one HINCRBY: cheap under any load, and no row of
PostgreSQL that every request would wait on), and a beat job (``metrics.flush_counts``,
every METRICS_FLUSH_SECONDS) adds what gathered there to ``DailyCount``. Without Redis, or
while it fails, a count goes straight to PostgreSQL. Losing Redis loses at most the counts
since the last flush. Reads (the staff page, Prometheus) see PostgreSQL only: they are at
most one flush behind.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import redis
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Sum
from django.http import HttpRequest
from django.utils import timezone

from apikit import redis_client
from games.models import ChallengeTier, utc_today
from metrics.models import DailyCount, FlushedBatch

logger = logging.getLogger(__name__)

# The funnel, in its order. Visits and returns come from the browser's beacon (once a day
# per browser); start, finish and sign-up are counted by the server where they happen;
# share from the results screen's buttons.
VISIT = "visit"
START = "start"
FINISH = "finish"
SHARE = "share"
SIGN_UP = "sign_up"
RETURN_NEXT_DAY = "return_next_day"
RETURN_7_DAYS = "return_7_days"
EVENTS = (VISIT, START, FINISH, SHARE, SIGN_UP, RETURN_NEXT_DAY, RETURN_7_DAYS)
EVENT_TITLES = {
    VISIT: "Visits",
    START: "Starts",
    FINISH: "Finishes",
    SHARE: "Shares",
    SIGN_UP: "Sign-ups",
    RETURN_NEXT_DAY: "Back the next day",
    RETURN_7_DAYS: "Back within 7 days",
}
# The events of a game carry its tier; the others are the site's, with tier "".
GAME_EVENTS = (START, FINISH, SHARE)
SITE_EVENTS = tuple(event for event in EVENTS if event not in GAME_EVENTS)
# A daily's tier, or the kind of a game that is no daily, counted apart.
PRACTICE = "practice"
ARCHIVE = "archive"
DAILY_TIERS = tuple(ChallengeTier.values)
TIERS = (*DAILY_TIERS, PRACTICE, ARCHIVE)

# What the browser says about the day of its last visit (js/shared/metrics.js).
FIRST = "first"
NEXT_DAY = "next_day"
WITHIN_7_DAYS = "within_7_days"
LATER = "later"
RETURNS = (FIRST, NEXT_DAY, WITHIN_7_DAYS, LATER)
RETURN_EVENTS = {
    FIRST: (),
    NEXT_DAY: (RETURN_NEXT_DAY, RETURN_7_DAYS),  # the next day is within 7 days too
    WITHIN_7_DAYS: (RETURN_7_DAYS,),
    LATER: (),
}

PENDING_KEY = "yukon:metrics:funnel:pending"
BATCH_PREFIX = "yukon:metrics:funnel:batch:"
BATCHES_KEPT = dt.timedelta(days=7)

Key = tuple[dt.date, str, str]  # day, event, tier


def declines_tracking(request: HttpRequest) -> bool:
    """The browser asks not to be tracked: Global Privacy Control (``Sec-GPC: 1``) or Do
    Not Track (``DNT: 1``). Its beacon then counts nothing."""
    return request.headers.get("Sec-GPC", "").strip() == "1" or (
        request.headers.get("DNT", "").strip() == "1"
    )


def is_counted(event: str, tier: str) -> bool:
    """Whether (event, tier) is a series the funnel keeps."""
    if event in GAME_EVENTS:
        return tier in TIERS
    return event in SITE_EVENTS and tier == ""


def count(event: str, tier: str = "", *, day: dt.date | None = None) -> None:
    """Add one to ``event`` in ``tier`` on ``day`` (today, UTC)."""
    add_pending({(day or utc_today(), event, tier): 1})


def count_visit(returned: str, *, day: dt.date | None = None) -> None:
    """One browser's first visit of the day, and what it says of its last one."""
    day = day or utc_today()
    add_pending({(day, event, ""): 1 for event in (VISIT, *RETURN_EVENTS[returned])})


def add_pending(counts: Mapping[Key, int]) -> None:
    for _, event, tier in counts:
        if not is_counted(event, tier):
            raise ValueError(f"the funnel keeps no {event!r} in tier {tier!r}")
    client = _redis()
    if client is not None:
        try:
            pipe = client.pipeline(transaction=False)
            for key, amount in counts.items():
                pipe.hincrby(PENDING_KEY, _field(key), amount)
            pipe.execute()
            return
        except redis.RedisError as exc:
            logger.warning("metrics: Redis failed, counting in PostgreSQL: %s", exc)
    add_counts(counts)


def add_counts(counts: Mapping[Key, int]) -> None:
    """Add ``counts`` to their rows of DailyCount, making those missing (one upsert each,
    in the order of their keys: two writers never wait on each other in a circle)."""
    table = DailyCount._meta.db_table
    upsert = (
        f"INSERT INTO {table} (day, event, tier, count) VALUES (%s, %s, %s, %s) "
        f"ON CONFLICT (day, event, tier) DO UPDATE SET count = {table}.count + excluded.count"
    )
    rows = [(*key, amount) for key, amount in sorted(counts.items()) if amount]
    if rows:
        with connection.cursor() as cursor:
            cursor.executemany(upsert, rows)


def flush_pending() -> int:
    """Move the counts gathered in Redis into PostgreSQL; returns how many series moved.

    The pending hash is renamed to a batch of its own (atomic: a count that comes in
    meanwhile starts a new pending hash), then each batch is added in one transaction
    that also records its name, so a batch whose key outlived an interrupted flush, or
    that two flushes took at once, is added once.
    """
    client = _redis()
    if client is None:
        return 0
    with contextlib.suppress(redis.ResponseError):  # "no such key": nothing pending
        client.rename(PENDING_KEY, f"{BATCH_PREFIX}{uuid.uuid4().hex}")
    moved = 0
    for key in client.scan_iter(match=f"{BATCH_PREFIX}*"):
        moved += _move_batch(client, key)
    FlushedBatch.objects.filter(at__lt=timezone.now() - BATCHES_KEPT).delete()
    return moved


def _move_batch(client: redis.Redis, key: bytes) -> int:
    name = key.decode()
    counts: dict[Key, int] = {}
    table: dict[bytes, bytes] = client.hgetall(name)  # type: ignore[assignment]  # sync client
    for field, value in table.items():
        parsed = _parse_field(field.decode())
        if parsed is None:
            logger.warning("metrics: left out a malformed field %r of %s", field, name)
            continue
        counts[parsed] = counts.get(parsed, 0) + int(value)
    try:
        with transaction.atomic():
            FlushedBatch.objects.create(name=name.removeprefix(BATCH_PREFIX))
            add_counts(counts)
    except IntegrityError:
        counts = {}  # added before: the flush that did it stopped before deleting the key
    client.delete(key)
    return len(counts)


def _field(key: Key) -> str:
    day, event, tier = key
    return f"{day.isoformat()}|{event}|{tier}"


def _parse_field(text: str) -> Key | None:
    day, _, rest = text.partition("|")
    event, _, tier = rest.partition("|")
    try:
        parsed = dt.date.fromisoformat(day)
    except ValueError:
        return None
    return (parsed, event, tier) if is_counted(event, tier) else None


def _redis() -> redis.Redis | None:
    """The shared client, or None without Redis. Short timeouts: a dead Redis must cost
    a count milliseconds before it goes to PostgreSQL instead."""
    url = str(settings.REDIS_URL or "")
    if not url:
        return None
    return redis_client.client(url, socket_connect_timeout=0.25, socket_timeout=0.5)


# ----- reads ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Funnel:
    """The counts of ``days`` (oldest first): ``counts[(day, event, tier)]``, 0 if absent."""

    days: list[dt.date]
    counts: dict[Key, int]

    def of(self, event: str, tier: str = "") -> list[int]:
        """The event's count on each day, in one tier."""
        return [self.counts.get((day, event, tier), 0) for day in self.days]

    def of_dailies(self, event: str) -> list[int]:
        """A game event's count on each day, over the daily tiers (no practice, archive)."""
        return [
            sum(self.counts.get((day, event, tier), 0) for tier in DAILY_TIERS) for day in self.days
        ]


def funnel(days: int = 30, *, today: dt.date | None = None) -> Funnel:
    """The last ``days`` days' counts, today's included."""
    today = today or utc_today()
    span = [today - dt.timedelta(days=back) for back in range(days - 1, -1, -1)]
    rows = DailyCount.objects.filter(day__gte=span[0], day__lte=today).values_list(
        "day", "event", "tier", "count"
    )
    return Funnel(days=span, counts={(day, event, tier): n for day, event, tier, n in rows})


def totals(
    *, today: dt.date | None = None
) -> tuple[dict[tuple[str, str], int], dict[tuple[str, str], int]]:
    """(every day's counts, today's) per (event, tier): every series the funnel keeps,
    0 where nothing was counted."""
    today = today or utc_today()
    series = list(all_series())
    ever = dict.fromkeys(series, 0)
    for event, tier, n in (
        DailyCount.objects.values_list("event", "tier")
        .annotate(n=Sum("count"))
        .values_list("event", "tier", "n")
    ):
        if (event, tier) in ever:
            ever[(event, tier)] = int(n)
    now = dict.fromkeys(series, 0)
    for event, tier, n in DailyCount.objects.filter(day=today).values_list(
        "event", "tier", "count"
    ):
        if (event, tier) in now:
            now[(event, tier)] = n
    return ever, now


def all_series() -> Iterable[tuple[str, str]]:
    for event in EVENTS:
        for tier in TIERS if event in GAME_EVENTS else ("",):
            yield event, tier
