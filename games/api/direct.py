"""The move endpoint's direct path: a well-formed move answered without DRF's request cycle.

A move is most of the site's traffic, and DRF's cycle (request wrapper, authenticators,
parser, serializer, renderer) was a quarter of its CPU: 1.92 ms a move through DRF, 1.49
ms by this path (in-process through WSGI, Redis sessions; docs/api.md, "Speed").
``MoveView.as_view`` tries this path first.

It makes the same checks as DRF, in the same order, with the same code where it can
(CSRF, the move limit, the service and its errors). It answers only what it is sure of
and returns None for anything else; DRF then answers the request from the start. That
covers a request that is not JSON, fails CSRF, is over the limit, or has a ply or move
the serializer might read differently (a string "3", a list, a blank move). It also
covers a database error.

Answering twice is safe: nothing is written before the service, and the service writes
nothing when it raises. The OpenAPI schema describes ``MoveView``, which answers the same
JSON; tests/games/test_moves_direct.py checks that both paths agree.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import PermissionDenied

from games import services
from games.api.base import actor_of
from games.api.serializers import MAX_PLY, MOVE_TEXT_MAX
from games.api.throttles import MoveThrottle
from games.errors import GameError


def _json(body: dict[str, Any], status: int = 200) -> HttpResponse:
    """What DRF's JSONRenderer writes for ``body``."""
    text = json.dumps(body, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return HttpResponse(text.encode(), status=status, content_type="application/json")


def _ply_and_move(request: HttpRequest) -> tuple[int, str] | None:
    """``ply`` and ``move`` if the body is exactly what MoveInputSerializer accepts
    without any conversion; None for everything else (the serializer decides)."""
    try:
        data = json.loads(request.body)
    except ValueError:  # not JSON, not UTF-8
        return None
    if not isinstance(data, dict):
        return None
    ply, move = data.get("ply"), data.get("move")
    if type(ply) is not int or not 0 <= ply <= MAX_PLY or not isinstance(move, str):
        return None
    move = move.strip()
    if not 0 < len(move) <= MOVE_TEXT_MAX or not (move.isascii() and move.isprintable()):
        return None  # move texts are printable ASCII; a NUL, say, is the serializer's
    return ply, move


def direct_move(request: HttpRequest, game_id: int) -> HttpResponse | None:
    """The answer to a well-formed move, or None: DRF's MoveView answers instead."""
    if request.method != "POST" or request.content_type != "application/json":
        return None
    try:  # every unsafe request, a guest's too (GameAPIView); it needs only Django's request
        SessionAuthentication().enforce_csrf(request)  # type: ignore[arg-type]
    except PermissionDenied:
        return None
    parsed = _ply_and_move(request)
    if parsed is None or not MoveThrottle().allow_request(request, None):
        return None
    try:
        result = services.play_move(actor_of(request), game_id, *parsed)
    except GameError as exc:
        return _json(exc.body, exc.http_status)
    except Exception:  # a database error: DRF answers, and its handler maps it
        return None
    return _json(
        {
            "ply": result.ply,
            "turned": result.turned,
            "score": result.score,
            "status": result.status,
            "moves": result.moves,
        }
    )
