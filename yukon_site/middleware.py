"""Request-wide middleware of the project: the request id every log line of a request
carries (and its response returns), and django-prometheus's per-view metrics with
bounded labels.

The id: a sane ``X-Request-ID`` from the proxy in front (docs/operations.md: the proxy
should set it, overwriting any the client sent), else a new one. It lives in a
contextvar from the request's start until its response is closed (Django logs a 4xx or
5xx after the whole middleware chain has returned, so a reset at the end of the
middleware would be too early); ``RequestIdFilter`` (on the console handler,
settings.LOGGING) puts it on every record as ``request_id``, ``-`` outside a request.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponseBase
from django_prometheus.middleware import (  # type: ignore[import-untyped]
    Metrics as _DjangoPrometheusMetrics,
)
from django_prometheus.middleware import (
    PrometheusAfterMiddleware as _DjangoPrometheusAfterMiddleware,
)
from django_prometheus.middleware import (
    PrometheusBeforeMiddleware as _DjangoPrometheusBeforeMiddleware,
)

REQUEST_ID_HEADER = "X-Request-ID"
# Letters, digits and . _ : - only, 1 to 128 of them: nginx's $request_id, UUIDs, most
# load balancers' trace ids; nothing that could break a log line or a header.
_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")

current_request_id: ContextVar[str | None] = ContextVar("request_id", default=None)


def request_id_from(request: HttpRequest) -> str:
    """The proxy's id when it is sane, else a new random one (32 hex digits)."""
    given = request.META.get("HTTP_X_REQUEST_ID", "")
    if isinstance(given, str) and _SANE_ID.fullmatch(given):
        return given
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """First in MIDDLEWARE: everything logged while the request runs carries its id."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        request_id = request_id_from(request)
        request.request_id = request_id  # type: ignore[attr-defined]
        current_request_id.set(request_id)  # until request_finished
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = request_id
        return response


def _forget_request_id(**kwargs: Any) -> None:
    current_request_id.set(None)


request_finished.connect(_forget_request_id, dispatch_uid="yukon-forget-request-id")


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to every record (``-`` outside a request); never drops one."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id.get() or "-"
        return True


class _Unrecorded:
    """Stands in for a django-prometheus metric we do not keep."""

    def labels(self, *args: Any, **kwargs: Any) -> _Unrecorded:
        return self

    def inc(self, amount: float = 1) -> None:
        pass

    def observe(self, amount: float) -> None:
        pass


class RequestMetrics(_DjangoPrometheusMetrics):
    """Only the request metrics the alerts use (docs/operations.md): latency by view and
    method, including the middlewares and not, and answers by status, view and method;
    and exceptions by type and view. The other eleven (body sizes, charsets, transports,
    ...) cost a write each to the multiprocess files on every request: about 60% of the
    middleware's time, measured in-process."""

    KEPT = frozenset(
        {
            "django_http_requests_latency_including_middlewares_seconds",
            "django_http_requests_latency_seconds_by_view_method",
            "django_http_responses_total_by_status_view_method",
            "django_http_exceptions_total_by_type",
            "django_http_exceptions_total_by_view",
        }
    )

    def register_metric(self, metric_cls: Any, name: str, *args: Any, **kwargs: Any) -> Any:
        if name not in self.KEPT:
            return _Unrecorded()
        return super().register_metric(metric_cls, name, *args, **kwargs)


class PrometheusBeforeMiddleware(_DjangoPrometheusBeforeMiddleware):
    """First of the metrics pair: starts the clock of the latency with middlewares."""

    metrics_cls = RequestMetrics


class PrometheusAfterMiddleware(_DjangoPrometheusAfterMiddleware):
    """django-prometheus's per-view metrics with every ``method`` label bounded: its
    latency histogram labels the raw ``request.method``, so a client inventing methods
    (gunicorn passes any 3 to 20 capital letters) would add a series per invention.
    The ``view`` label is the URL pattern's name (``api:moves``), never the raw path."""

    metrics_cls = RequestMetrics

    def label_metric(self, metric: Any, request: Any, response: Any = None, **labels: Any) -> Any:
        if isinstance(metric, _Unrecorded):
            return metric
        if "method" in labels:
            labels["method"] = self._method(request)
        return super().label_metric(metric, request, response, **labels)
