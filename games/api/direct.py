"""The move endpoint's direct path: a well-formed move answered without DRF's request cycle.

A move is most of the site's traffic, and DRF's cycle (request wrapper, authenticators,
parser, serializer, renderer) was a quarter of its CPU: 1.92 ms a move through DRF,
1.5-1.6 ms by this path (in-process through WSGI, Redis sessions; docs/api.md, "Speed").
``MoveView.as_view`` tries this path first.

It makes the same checks as DRF, in the same order, with the same code where it can:
CSRF, the move limit, the service, and the API's exception handler for the service's
errors. It answers only requests it is sure of and returns None for anything else; DRF
then answers that request from the start. Anything else means a request that is not
plain JSON both ways, fails CSRF, or has a body the serializer might read differently (a
string "3", a float, a list, a blank move, a BOM, NaN). Nothing has been written when
it returns None, so answering twice is safe.

The OpenAPI schema describes ``MoveView``, which answers the same JSON;
tests/games/test_moves_direct.py checks that both paths agree.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import ParseError, PermissionDenied, Throttled
from rest_framework.renderers import JSONRenderer

from apikit.actors import actor_of
from apikit.parsers import parse_json
from apikit.throttles import MoveThrottle
from games import services
from games.api.base import game_exception_handler
from games.api.serializers import MAX_MOVE_REQUEST_TEXT, MAX_PLY, move_answer


def _json(body: dict[str, Any], status: int = 200) -> HttpResponse:
    """``body`` as MoveView's renderer writes it."""
    content = JSONRenderer().render(body)
    return HttpResponse(content, status=status, content_type="application/json")


def _handled(exc: Exception) -> HttpResponse:
    """The API's answer to ``exc`` (its exception handler's), or ``exc`` raised again."""
    handled = game_exception_handler(exc, {})
    if handled is None:
        raise exc
    answer = _json(handled.data, handled.status_code)
    answer.refusal = getattr(handled, "refusal", None)  # type: ignore[attr-defined]
    for name, value in handled.headers.items():  # Retry-After
        if name.lower() != "content-type":
            answer[name] = value
    return answer


def _ply_and_move(request: HttpRequest) -> tuple[int, str] | None:
    """``ply`` and ``move`` if the body is exactly what MoveInputSerializer accepts
    without any conversion; None for everything else (the parser and serializer decide)."""
    try:  # as the API's JSONParser reads it: a BOM, NaN, Infinity or deep nesting is an error
        data = parse_json(request.body)
    except (ParseError, RequestDataTooBig):  # DRF's parser answers these (400, 413)
        return None
    if not isinstance(data, dict):
        return None
    ply, move = data.get("ply"), data.get("move")
    if type(ply) is not int or not 0 <= ply <= MAX_PLY or not isinstance(move, str):
        return None
    move = move.strip()
    if not 0 < len(move) <= MAX_MOVE_REQUEST_TEXT or not (move.isascii() and move.isprintable()):
        return None  # move texts are printable ASCII; a NUL, say, is the serializer's
    return ply, move


def direct_move(request: HttpRequest, game_id: int) -> HttpResponse | None:
    """The answer to a well-formed move, or None: DRF's MoveView answers instead."""
    if (
        request.method != "POST"
        or request.content_type != "application/json"
        or request.encoding not in (None, "utf-8")
        or not request.accepts("application/json")  # DRF: 406
        or "format" in request.GET  # DRF: 404 for an unknown format
    ):
        return None
    try:  # every unsafe request, a guest's too (GameAPIView); it needs only Django's request
        SessionAuthentication().enforce_csrf(request)  # type: ignore[arg-type]
    except PermissionDenied:
        return None
    parsed = _ply_and_move(request)
    if parsed is None:
        return None
    try:  # the limit is the first to load the session's user: a database error there too
        throttle = MoveThrottle()
        if not throttle.allow_request(request, None):
            raise Throttled(throttle.wait())
        result = services.play_move(actor_of(request), game_id, *parsed)
    except Exception as exc:  # over the limit, a refused move, a database error
        return _handled(exc)
    return _json(move_answer(result))
