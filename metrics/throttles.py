"""The beacon's budget: events per client address (``metrics_events`` in
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``). A browser sends one visit a day and a share
now and then; an address that sends more adds nothing past its budget (docs/metrics.md)."""

from __future__ import annotations

from apikit.throttles import AddressThrottle


class MetricsEventThrottle(AddressThrottle):
    scope = "metrics_events"
