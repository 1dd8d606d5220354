"""The OpenAPI pieces every app's views share (drf-spectacular).

The error shapes (``ERROR``, ``CONFLICT``) and their usual answers, and a post-processing
hook (``POSTPROCESSING_HOOKS``) that writes the error answers that come from the stack
rather than from a view into every operation they can reach:

- 503 from every operation: the database is unavailable (``apikit/exceptions.py``).
- 429 from every operation with a rate limit (``throttle_classes``: sign-up, log-in,
  moves), with the ``Retry-After`` header.
- 400 and 413 from every operation that takes a body: every unsafe request's body is
  read (``apikit/views.py``) by the bounded parsers (``apikit/parsers.py``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

ERROR = inline_serializer(
    "Error",
    {
        "detail": serializers.CharField(help_text="What went wrong, in words."),
        "errors": serializers.JSONField(required=False, help_text="Per-field messages (400)."),
    },
)
CONFLICT = inline_serializer(
    "Conflict",
    {
        "detail": serializers.CharField(),
        "ply": serializers.IntegerField(required=False, help_text="The game's current ply."),
        "status": serializers.CharField(required=False),
    },
)
NOT_FOUND = OpenApiResponse(ERROR, description="No such game, or not yours to see.")
FORBIDDEN = OpenApiResponse(ERROR, description="Login required, CSRF failure, or not allowed.")
BAD_REQUEST = OpenApiResponse(ERROR, description="Invalid input or an illegal move.")

ERROR_CONTENT = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
UNSAFE = {"post", "put", "patch", "delete"}
RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}}


def shared_error_responses(result: dict[str, Any], generator: Any, **kwargs: Any) -> Any:
    throttled = {
        (path, method.lower())
        for path, _, method, callback in generator.endpoints
        if getattr(getattr(callback, "cls", None), "throttle_classes", None)
    }
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            if (path, method) in throttled:
                responses.setdefault(
                    "429",
                    {
                        "description": "Too many requests: wait Retry-After seconds.",
                        "headers": RETRY_AFTER,
                        "content": ERROR_CONTENT,
                    },
                )
            if method in UNSAFE:
                responses.setdefault(
                    "400",
                    {
                        "description": "The body is not JSON, or nested too deeply.",
                        "content": ERROR_CONTENT,
                    },
                )
                responses.setdefault(
                    "413",
                    {
                        "description": "The body is larger than DATA_UPLOAD_MAX_MEMORY_SIZE.",
                        "content": ERROR_CONTENT,
                    },
                )
            responses.setdefault(
                "503",
                {
                    "description": "The database is unavailable: retry after Retry-After seconds.",
                    "headers": RETRY_AFTER,
                    "content": ERROR_CONTENT,
                },
            )
    return result
