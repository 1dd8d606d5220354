"""Counters the web processes keep (moves accepted and refused, Redis fallbacks), beside
the kit that answers requests: any app counts here without depending on the site's top.
``yukon_site/metrics.py`` serves them with the figures read at scrape time.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponseBase
from prometheus_client import Counter

# ----- counted in the web processes ---------------------------------------------------

MOVES_ACCEPTED = Counter("yukon_moves_accepted", "Moves the server accepted and logged.")
MOVES_REFUSED = Counter(
    "yukon_moves_refused",
    "Move requests refused, by reason.",
    ["reason"],
)
REFUSAL_REASONS = (
    "illegal",  # the engine said no (400 with the game's ply)
    "invalid",  # not a move request the API can read (400)
    "stale_ply",  # another tab or a retry moved first (409)
    "game_over",  # 409: the game has ended
    "day_closed",  # 409: the daily's day has closed
    "rate_limited",  # 429
    "not_found",  # 404: no such game, or not the player's
    "forbidden",  # 403: CSRF, login
    "unavailable",  # 503: the database is down
    "other",  # anything else (405, 406, 415, 5xx)
)
_REASON_BY_STATUS = {403: "forbidden", 404: "not_found", 429: "rate_limited", 503: "unavailable"}

REDIS_FALLBACKS = Counter(
    "yukon_redis_fallbacks",
    "Operations that went on without Redis because it failed, by what fell back.",
    ["component"],
)
FALLBACK_COMPONENTS = (
    "cache",  # sessions read from PostgreSQL, rate limits open (yukon_site/cache.py)
    "leaderboard",  # a board page ranked by PostgreSQL (leaderboards/day_board.py)
    "leaderboard_cache",  # all-time and streak boards computed, not cached
    "leaderboard_update",  # a result missed its board: written down in StaleBoard
)
REPLICA_FALLBACKS = Counter(
    "yukon_replica_fallbacks",
    "Times the read replica did not answer and its reads went to the primary for a while.",
)
for _reason in REFUSAL_REASONS:  # every series exists from the start: rate() needs two points
    MOVES_REFUSED.labels(_reason)
for _component in FALLBACK_COMPONENTS:
    REDIS_FALLBACKS.labels(_component)


def count_redis_fallback(component: str) -> None:
    REDIS_FALLBACKS.labels(component if component in FALLBACK_COMPONENTS else "cache").inc()


def count_move(response: HttpResponseBase) -> None:
    """Count a move request's answer (both the direct path and DRF's MoveView end in
    ``MoveView.as_view``'s wrapper, which calls this)."""
    status = response.status_code
    if status == 200:
        MOVES_ACCEPTED.inc()
        return
    MOVES_REFUSED.labels(refusal_reason(response)).inc()


def refusal_reason(response: HttpResponseBase) -> str:
    """One of REFUSAL_REASONS for a refused move, read from the answer the client got."""
    status = response.status_code
    refusal = getattr(response, "refusal", None)  # the service's own word (ServiceError)
    if refusal in REFUSAL_REASONS:
        return str(refusal)
    if status in _REASON_BY_STATUS:
        return _REASON_BY_STATUS[status]
    if status not in (400, 409):
        return "other"
    body = _body(response)
    if status == 400:
        # the service's IllegalMove carries the game's ply; input errors do not
        return "illegal" if "ply" in body and "errors" not in body else "invalid"
    game_status = body.get("status")
    if game_status is not None and game_status != "playing":
        return "game_over"
    return "stale_ply"


def _body(response: HttpResponseBase) -> dict[str, Any]:
    data = getattr(response, "data", None)  # DRF's Response, not rendered yet
    if isinstance(data, dict):
        return data
    try:
        parsed = json.loads(getattr(response, "content", b"") or b"{}")
    except ValueError:
        return {}
    return parsed if isinstance(parsed, dict) else {}
