"""``/healthz`` for load balancers and the container health check; the 404 and 500 handlers.

The site needs PostgreSQL (503 without it); Redis only speeds it up (leaderboards and
sessions fall back to PostgreSQL, tasks wait), so a Redis outage is reported, still 200.
"""

from __future__ import annotations

import logging
import sys

import redis
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from django.views.defaults import page_not_found

from apikit import redis_client

logger = logging.getLogger(__name__)

DATABASE_DOWN = "the database is unavailable; try again in a moment"


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        logger.warning("health check: database unavailable: %s", exc)
        return False
    return True


def _redis_state() -> str:
    url = settings.REDIS_URL
    if not url:
        return "not configured"
    try:
        redis_client.client(url, socket_connect_timeout=0.25, socket_timeout=0.5).ping()
    except redis.RedisError:
        return "down"
    return "ok"


@never_cache
@require_safe  # HEAD too: the offline practice page asks whether the site answers
def healthz(request: HttpRequest) -> JsonResponse:
    database = "ok" if _database_ok() else "down"
    body = {
        "status": "ok" if database == "ok" else "unavailable",
        "database": database,
        "redis": _redis_state(),
    }
    return JsonResponse(body, status=200 if database == "ok" else 503)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler404: JSON under /api/ (a URL no route matches, e.g. /api/games/-1/), the
    site's page elsewhere. Never echoes anything but the fixed message."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "not found"}, status=404)
    return page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: a database outage is 503 with a message; anything else a bare 500.

    Never a traceback or a detail of the failure (Django logs those). JSON for the API,
    a short text page elsewhere.
    """
    exc = sys.exc_info()[1]
    if isinstance(exc, OperationalError | InterfaceError):
        status, message = 503, DATABASE_DOWN
    else:
        status, message = 500, "server error: something went wrong on our side"
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": message}, status=status)
    else:
        response = HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    if status == 503:
        response["Retry-After"] = "5"
    return response


def no_such_page(request: HttpRequest, **kwargs: object) -> HttpResponse:
    """A route that answers 404 to whatever it matched (yukon_site/urls.py)."""
    raise Http404("No such page.")
