"""allauth's headless API reads its JSON bodies itself, past the API's parser
(apikit/parsers.py), and catches only a syntax error. So valid JSON that Python cannot
turn into data was a 500: a body nested too deeply (RecursionError), a number of 4,300
digits or more (ValueError), and a lone UTF-16 surrogate (``"\\ud800"``: valid JSON, not
text), which reached the password hasher and the database, neither of which can encode it.
This reads such a body as the API's parser does and answers what that parser refuses with
allauth's own shape of error, 400, before allauth reads it."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from rest_framework.exceptions import ParseError

from apikit.parsers import parse_json

HEADLESS = "/_allauth/"


def refusal(body: bytes) -> str | None:
    """Why the API's parser refuses this JSON body, or None when it reads it; an empty body
    is allauth's to answer (an empty form)."""
    if not body:
        return None
    try:
        parse_json(body)
    except ParseError as exc:
        return str(exc.detail)
    return None


class HeadlessTextMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            request.path.startswith(HEADLESS)
            and request.method in {"POST", "PUT", "PATCH"}
            and request.content_type == "application/json"
            and (message := refusal(request.body))
        ):
            error = {"message": message, "code": "invalid"}
            return JsonResponse({"status": 400, "errors": [error]}, status=400)
        return self.get_response(request)
