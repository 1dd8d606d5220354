"""allauth's headless API reads its JSON bodies itself, past the API's parser
(apikit/parsers.py), so a lone UTF-16 surrogate in one (``"\\ud800"``: valid JSON, not
text) reached the password hasher and the database, which cannot encode it: a sign-up
with one in its password was a 500. This answers such a body with allauth's own shape of
error, 400, before allauth reads it."""

from __future__ import annotations

import json
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

from apikit.parsers import SURROGATE, has_lone_surrogate, lone_surrogate_message

HEADLESS = "/_allauth/"


def holds_lone_surrogate(body: bytes) -> bool:
    """True for a JSON body whose strings (or keys) hold a lone surrogate."""
    try:
        text = body.decode()
        return SURROGATE.search(text) is not None and has_lone_surrogate(text, json.loads(text))
    except (ValueError, RecursionError):  # not UTF-8, not JSON, too deep: allauth answers it
        return False


class HeadlessTextMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            request.path.startswith(HEADLESS)
            and request.method in {"POST", "PUT", "PATCH"}
            and request.content_type == "application/json"
            and holds_lone_surrogate(request.body)
        ):
            error = {"message": lone_surrogate_message(), "code": "invalid"}
            return JsonResponse({"status": 400, "errors": [error]}, status=400)
        return self.get_response(request)
