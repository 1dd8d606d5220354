"""The funnel for Prometheus, read from PostgreSQL at scrape time (yukon_site/metrics.py
serves it): every series the funnel keeps, with 0 where nothing was counted yet."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from metrics import services


def funnel_families() -> Iterator[Metric]:
    ever, today = services.totals()
    total = CounterMetricFamily(
        "yukon_funnel_events",
        "The funnel's counts since counting began, by event and tier (docs/metrics.md).",
        labels=["event", "tier"],
    )
    now = GaugeMetricFamily(
        "yukon_funnel_events_today",
        "The funnel's counts of today (UTC), by event and tier.",
        labels=["event", "tier"],
    )
    for event, tier in services.all_series():
        total.add_metric([event, tier], ever[(event, tier)])
        now.add_metric([event, tier], today[(event, tier)])
    yield total
    yield now
