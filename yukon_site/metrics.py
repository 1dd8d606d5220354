"""Prometheus metrics: the counters the app keeps, the figures read at scrape time, and
``/metrics`` (bearer token only; docs/operations.md, "Metrics").

Where each figure lives, and why:

- Per request and per move (latency by route, moves accepted and refused, Redis
  fallbacks): prometheus_client metrics in the web process. gunicorn runs several worker
  processes, so with ``PROMETHEUS_MULTIPROC_DIR`` set (yukon_site/gunicorn.py sets it)
  each process writes its values to files there and a scrape adds them up
  (prometheus_client's multiprocess mode): whichever process answers the scrape, the
  totals are the site's, and they survive a worker's restart.
- From the Celery worker (task failures, verification lag): the worker is another
  process, in docker-compose another container, so it adds its counts to a Redis hash
  that every web process reads at scrape time (without Redis, when tasks run in-process,
  to a dict in the process). Counters there reset only if Redis loses its data, which
  Prometheus reads as a counter reset.
- Read at scrape time (queue length, tomorrow's dailies, games waiting for
  verification, stale boards, the practice pool's size and refill failures): queried
  from Redis and PostgreSQL by the scrape itself; a source that is down yields
  ``yukon_scrape_source_up{source=...} 0`` instead.
"""

from __future__ import annotations

import datetime as dt
import hmac
import logging
import os
import threading
from collections.abc import Iterator
from typing import Any

import redis
from celery.signals import task_failure
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.metrics_core import CounterMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from apikit import redis_client
from apikit.replica import PRIMARY, REPLICA, has_replica
from games.signals import game_verified

logger = logging.getLogger(__name__)

# ----- counted in the Celery worker, read by the web's scrape -------------------------

LAG_BUCKETS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0, 3600.0)
_FAILURES_KEY = "yukon:metrics:task_failures"
_LAG_KEY = "yukon:metrics:verification_lag"


class WorkerEvents:
    """Task failures and verification lags, kept where every process can read them:
    Redis (REDIS_URL), else this process (tasks run in-process then)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._local: dict[str, dict[str, float]] = {_FAILURES_KEY: {}, _LAG_KEY: {}}

    def _redis(self) -> redis.Redis | None:
        url = str(settings.REDIS_URL or "")
        if not url:
            return None
        return redis_client.client(url, socket_connect_timeout=0.25, socket_timeout=0.5)

    def _add(self, key: str, increments: dict[str, float]) -> None:
        client = self._redis()
        if client is None:
            with self._lock:
                table = self._local[key]
                for field, amount in increments.items():
                    table[field] = table.get(field, 0) + amount
            return
        try:
            pipe = client.pipeline(transaction=True)  # a scrape sees all of it or none
            for field, amount in increments.items():
                pipe.hincrbyfloat(key, field, amount)
            pipe.execute()
        except redis.RedisError as exc:
            logger.warning("metrics: could not record %s in Redis: %s", key, exc)

    def count_failure(self, task: str) -> None:
        self._add(_FAILURES_KEY, {task: 1})

    def observe_lag(self, seconds: float) -> None:
        bucket = next((str(i) for i, bound in enumerate(LAG_BUCKETS) if seconds <= bound), "inf")
        self._add(_LAG_KEY, {bucket: 1, "sum": seconds, "count": 1})

    def read(self) -> tuple[dict[str, float], dict[str, float]]:
        """(failures by task, lag table); raises RedisError when Redis is down."""
        client = self._redis()
        if client is None:
            with self._lock:
                return dict(self._local[_FAILURES_KEY]), dict(self._local[_LAG_KEY])
        pipe = client.pipeline(transaction=True)
        pipe.hgetall(_FAILURES_KEY)
        pipe.hgetall(_LAG_KEY)
        failures, lag = pipe.execute()
        return _decoded(failures), _decoded(lag)


def _decoded(table: dict[bytes, bytes]) -> dict[str, float]:
    return {key.decode(): float(value) for key, value in table.items()}


worker_events = WorkerEvents()


def _known_task(name: str | None) -> str:
    """The task's name if it is one of ours (a bounded label), else ``other``."""
    from yukon_site.celery import app

    return name if name and name in app.tasks and not name.startswith("celery.") else "other"


def _on_task_failure(sender: Any = None, **kwargs: Any) -> None:
    worker_events.count_failure(_known_task(getattr(sender, "name", None)))


def _on_game_verified(sender: Any, game: Any, **kwargs: Any) -> None:
    if game.finished_at is not None and game.verified_at is not None:
        lag = (game.verified_at - game.finished_at).total_seconds()
        worker_events.observe_lag(max(lag, 0.0))


# Connected in every process that imports the Celery app (yukon_site/celery.py imports
# this module): the worker, and the web when tasks run in-process.
task_failure.connect(_on_task_failure, weak=False, dispatch_uid="yukon-metrics-task-failure")
game_verified.connect(_on_game_verified, weak=False, dispatch_uid="yukon-metrics-lag")


# ----- read at scrape time ------------------------------------------------------------

_KOMBU_PRIORITY_SEPARATOR = "\x06\x16"  # kombu's Redis transport: <queue>SEP<priority>
_KOMBU_PRIORITIES = (3, 6, 9)


class ScrapeCollector:
    """Figures computed when Prometheus scrapes: each source on its own, so a Redis
    outage still leaves the PostgreSQL figures (and says which source failed)."""

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily(
            "yukon_scrape_source_up", "1 if the scrape could read this source.", labels=["source"]
        )
        sources = [
            ("database", self._database),
            ("broker", self._broker),
            ("worker_events", self._worker_events),
            ("funnel", self._funnel),
        ]
        if has_replica():
            sources.append(("replica", self._replica))
        for source, read in sources:
            try:
                families = list(read())
            except Exception as exc:  # a scrape must answer whatever is down
                logger.warning("metrics: %s unavailable: %s", source, exc)
                up.add_metric([source], 0)
                continue
            up.add_metric([source], 1)
            yield from families
        yield up

    def _database(self) -> Iterator[Metric]:
        from django.db.models import Count, Min

        from games.models import (
            DailyChallenge,
            Game,
            Status,
            Tier,
            Verification,
            tiers_of,
            utc_today,
        )
        from leaderboards.models import StaleBoard

        today = utc_today()
        tomorrow = today + dt.timedelta(days=1)
        ready = dict(
            DailyChallenge.objects.filter(date__in=[today, tomorrow])
            .values_list("date")
            .annotate(n=Count("id"))
            .values_list("date", "n")
        )
        dailies = GaugeMetricFamily(
            "yukon_daily_challenges_ready",
            "Challenges published for the day (of yukon_daily_tiers_due).",
            labels=["day"],
        )
        dailies.add_metric(["today"], ready.get(today, 0))
        dailies.add_metric(["tomorrow"], ready.get(tomorrow, 0))
        yield dailies
        yield GaugeMetricFamily(
            "yukon_daily_tiers", "Tiers each day must have.", value=len(Tier.values)
        )
        due = GaugeMetricFamily(
            "yukon_daily_tiers_due",
            "Challenges the day must have: its tiers, and on Sundays the weekly challenge.",
            labels=["day"],
        )
        due.add_metric(["today"], len(tiers_of(today)))
        due.add_metric(["tomorrow"], len(tiers_of(tomorrow)))
        yield due
        pending = (
            Game.objects.filter(verification=Verification.PENDING)
            .exclude(status=Status.PLAYING)
            .aggregate(n=Count("id"), oldest=Min("finished_at"))
        )
        yield GaugeMetricFamily(
            "yukon_verification_pending_games",
            "Finished games waiting for their replay to be verified.",
            value=pending["n"],
        )
        oldest = pending["oldest"]
        waited = (dt.datetime.now(dt.UTC) - oldest).total_seconds() if oldest else 0.0
        yield GaugeMetricFamily(
            "yukon_verification_pending_oldest_seconds",
            "How long the oldest finished, unverified game has waited (0: none waits).",
            value=max(waited, 0.0),
        )
        yield GaugeMetricFamily(
            "yukon_leaderboard_stale_boards",
            "Boards that missed an update while Redis was down, waiting for a rebuild.",
            value=StaleBoard.objects.count(),
        )
        yield from self._practice_pool()

    def _replica(self) -> Iterator[Metric]:
        """How far the read replica is behind the primary (docs/operations.md, "Read
        replica"). In time: since the last transaction it replayed, 0 once it has replayed
        all it received (a quiet primary writes nothing, and the time since its last write
        is no lag). In bytes: the primary's WAL position less the replica's replay
        position, read in that order so it is never less than the lag; this one also
        grows when the replica stops receiving (its received WAL all replayed, its time lag
        0)."""
        from django.db import connections

        with connections[REPLICA].cursor() as cursor:
            cursor.execute(
                "SELECT CASE WHEN NOT pg_is_in_recovery() "
                "  OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0 "
                "  ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0)"
                " END, "
                # a test mirror of the primary is no standby: its own position
                "COALESCE(pg_last_wal_replay_lsn(), pg_current_wal_lsn())::text"
            )
            seconds, replayed = cursor.fetchone()
        with connections[PRIMARY].cursor() as cursor:
            cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), %s::pg_lsn)", [replayed])
            (behind,) = cursor.fetchone()
        yield GaugeMetricFamily(
            "yukon_database_replica_lag_seconds",
            "Seconds since the read replica replayed its last transaction, while it is behind.",
            value=max(float(seconds), 0.0),
        )
        yield GaugeMetricFamily(
            "yukon_database_replica_lag_bytes",
            "Bytes of WAL the primary has written that the read replica has not replayed.",
            value=max(float(behind), 0.0),
        )

    def _practice_pool(self) -> Iterator[Metric]:
        from games import practice_pool
        from games.models import PracticePoolStatus, Tier

        undealt = practice_pool.fresh_counts()
        size = GaugeMetricFamily(
            "yukon_practice_pool_deals",
            "Proven, rated practice deals nobody has been dealt yet, by variant and tier.",
            labels=["variant", "tier"],
        )
        for variant in practice_pool.pool_variants():
            for tier in Tier.values:
                size.add_metric([variant, tier], undealt.get((variant, tier), 0))
        yield size
        target = GaugeMetricFamily(
            "yukon_practice_pool_target",
            "Undealt deals each tier's pool is topped up to, by variant (PRACTICE_POOL_SIZE; "
            "PRACTICE_POOL_MULTI_DECK_SIZE for the multi-deck variants).",
            labels=["variant"],
        )
        for variant in practice_pool.pool_variants():
            target.add_metric([variant], practice_pool.pool_size(variant))
        yield target
        failures = CounterMetricFamily(
            "yukon_practice_pool_refill_failures",
            "Refill runs that found none of the deals a tier needed, or broke off.",
            labels=["variant", "tier"],
        )
        for status in PracticePoolStatus.objects.order_by("variant", "tier"):
            failures.add_metric([status.variant, status.tier], status.failures)
        yield failures

    def _broker(self) -> Iterator[Metric]:
        url = str(settings.REDIS_URL or "")
        if not url:
            return  # tasks run in-process: no queue
        # the broker is the site's Redis (settings: CELERY_BROKER_URL), the master the
        # Sentinels name when there are Sentinels
        queue = str(settings.CELERY_TASK_DEFAULT_QUEUE)
        client = redis_client.client(url, socket_connect_timeout=0.25, socket_timeout=0.5)
        pipe = client.pipeline(transaction=False)
        pipe.llen(queue)
        for priority in _KOMBU_PRIORITIES:
            pipe.llen(f"{queue}{_KOMBU_PRIORITY_SEPARATOR}{priority}")
        pipe.hlen("unacked")
        *lengths, unacked = pipe.execute()
        waiting = GaugeMetricFamily(
            "yukon_celery_queue_length", "Tasks waiting in the broker's queue.", labels=["queue"]
        )
        waiting.add_metric([queue], sum(lengths))
        yield waiting
        yield GaugeMetricFamily(
            "yukon_celery_unacked_tasks",
            "Tasks a worker has taken and not yet finished (all queues).",
            value=unacked,
        )

    def _funnel(self) -> Iterator[Metric]:
        """The product funnel's counts (metrics/prometheus.py, docs/metrics.md)."""
        from metrics.prometheus import funnel_families

        yield from funnel_families()

    def _worker_events(self) -> Iterator[Metric]:
        failures, lag = worker_events.read()
        failed = CounterMetricFamily(
            "yukon_celery_task_failures",
            "Celery tasks that failed for good (after their retries), by task.",
            labels=["task"],
        )
        for task, count in sorted(failures.items()):
            failed.add_metric([task], count)
        yield failed
        cumulative, buckets = 0.0, []
        for i, bound in enumerate(LAG_BUCKETS):
            cumulative += lag.get(str(i), 0.0)
            buckets.append((repr(bound), cumulative))
        buckets.append(("+Inf", lag.get("count", 0.0)))
        yield HistogramMetricFamily(
            "yukon_verification_lag_seconds",
            "From a game's finish to its verification (verified games).",
            buckets=buckets,
            sum_value=lag.get("sum", 0.0),
        )


class _Scrape:
    """What one scrape reports: the processes' metrics, then the scrape-time figures."""

    def collect(self) -> Iterator[Metric]:
        directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
        if directory:
            yield from MultiProcessCollector(None, path=directory).collect()
        else:
            yield from REGISTRY.collect()
        yield from ScrapeCollector().collect()


def _authorized(request: HttpRequest) -> bool:
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    token = str(settings.METRICS_TOKEN)
    return scheme.lower() == "bearer" and hmac.compare_digest(
        given.strip().encode(), token.encode()
    )


@never_cache
@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    """The Prometheus text format; 404 while METRICS_TOKEN is unset, 401 without it."""
    if not settings.METRICS_TOKEN:
        raise Http404("metrics are off")
    if not _authorized(request):
        response = HttpResponse(
            "a bearer token is required\n", status=401, content_type="text/plain; charset=utf-8"
        )
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(generate_latest(_Scrape()), content_type=CONTENT_TYPE_LATEST)
