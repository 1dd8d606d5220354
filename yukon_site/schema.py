"""OpenAPI post-processing (drf-spectacular hook): the error answers that come from the
stack rather than from a view, written into every operation they can reach.

- 503 from every operation: the database is unavailable (``games/api/exceptions.py``).
- 429 from every operation with a rate limit (``throttle_classes``: sign-up, log-in,
  moves), with the ``Retry-After`` header.
- 400 and 413 from every operation that takes a body: every unsafe request's body is
  read (``games/api/base.py``) by the bounded parsers (``games/api/parsers.py``).
"""

from __future__ import annotations

from typing import Any

ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
UNSAFE = {"post", "put", "patch", "delete"}
RETRY_AFTER = {
    "Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}
}


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
                responses.setdefault("429", {
                    "description": "Too many requests: wait Retry-After seconds.",
                    "headers": RETRY_AFTER, "content": ERROR,
                })
            if method in UNSAFE:
                responses.setdefault("400", {
                    "description": "The body is not JSON, or nested too deeply.",
                    "content": ERROR,
                })
                responses.setdefault("413", {
                    "description": "The body is larger than DATA_UPLOAD_MAX_MEMORY_SIZE.",
                    "content": ERROR,
                })
            responses.setdefault("503", {
                "description": "The database is unavailable: retry after Retry-After seconds.",
                "headers": RETRY_AFTER, "content": ERROR,
            })
    return result
