"""The answers the URL routing and the CSRF check give, written into the OpenAPI schema.

A drf-spectacular post-processing hook (``POSTPROCESSING_HOOKS``), beside
``apikit.schema.shared_error_responses``; each adds only what an operation does not
declare itself:

- 404 on every operation with a path parameter: a value its route refuses (an id of 0,
  a date the converter does not take) matches no route, and the last route under /api/
  answers JSON 404 (``apikit/not_found.py``).
- 403 on every unsafe operation that checks CSRF: ``apikit.views.BaseAPIView`` checks it
  for guests too, DRF's session authentication for logged-in players.
"""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import SessionAuthentication

from apikit.schema import ERROR_CONTENT, UNSAFE
from apikit.views import BaseAPIView


def _checks_csrf(view_class: Any) -> bool:
    if not isinstance(view_class, type):
        return False
    if issubclass(view_class, BaseAPIView):
        return True
    return any(
        isinstance(auth, type) and issubclass(auth, SessionAuthentication)
        for auth in getattr(view_class, "authentication_classes", ())
    )


def routing_and_csrf_responses(result: dict[str, Any], generator: Any, **kwargs: Any) -> Any:
    csrf_checked = {
        (path, method.lower())
        for path, _, method, callback in generator.endpoints
        if _checks_csrf(getattr(callback, "cls", None))
    }
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            parameters = operation.get("parameters", [])
            if any(parameter.get("in") == "path" for parameter in parameters):
                responses.setdefault(
                    "404",
                    {
                        "description": "No such resource, or a path value no route takes.",
                        "content": ERROR_CONTENT,
                    },
                )
            if method in UNSAFE and (path, method) in csrf_checked:
                responses.setdefault(
                    "403",
                    {
                        "description": (
                            "CSRF failure: the X-CSRFToken header does not match the "
                            "csrftoken cookie."
                        ),
                        "content": ERROR_CONTENT,
                    },
                )
    return result
