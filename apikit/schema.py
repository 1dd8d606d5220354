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

# An operation open to guests lists its log-in as optional (drf-spectacular's `{}` for a view
# that allows anyone); one that answers a guest only 403 says the log-in is required.
# (`extend_schema(auth=...)` takes security requirements as `get_auth` returns them, though
# its annotation says strings: hence Any.)
LOG_IN_REQUIRED: Any = [{"cookieAuth": []}]

ERROR = inline_serializer(
    "Error",
    {
        "detail": serializers.CharField(help_text="What went wrong, in words."),
        "errors": serializers.JSONField(required=False, help_text="Per-field messages (400)."),
        # Fields some errors add to their body (apikit.errors.ServiceError's extras):
        "retry_after": serializers.IntegerField(
            required=False,
            help_text="503 of a practice tier with no deal ready yet: seconds to wait, as "
            "Retry-After says.",
        ),
        "tier": serializers.CharField(required=False, help_text="That 503's practice tier."),
        "variant": serializers.CharField(required=False, help_text="That 503's variant."),
        "opens_at": serializers.DateTimeField(
            required=False,
            help_text="What is not open yet opens then: an open day's games file (409), a "
            "daily game's analysis (403).",
        ),
        "field": serializers.CharField(
            required=False, help_text="The input the error is about (a league's `name`)."
        ),
        "limit": serializers.IntegerField(
            required=False, help_text="The limit reached (leagues per player, members)."
        ),
        "reauthenticate": serializers.CharField(
            required=False,
            help_text="401 of deleting an account: the page where you confirm who you are.",
        ),
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
# An answer with an ETag of its content (apikit/etags.py): empty while the request's
# If-None-Match names it. The hook below adds the ETag header to such an operation's 200.
NOT_MODIFIED = OpenApiResponse(
    None, description="Unchanged since the ETag sent in If-None-Match: no body."
)
ETAG = {"ETag": {"schema": {"type": "string"}, "description": "This answer's version."}}

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
            if "304" in responses and "200" in responses:
                for name, header in ETAG.items():  # a header the view declared stays
                    responses["200"].setdefault("headers", {}).setdefault(name, header)
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
