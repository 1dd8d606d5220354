"""Errors a service raises: each carries its HTTP status and a readable message.

The API's exception handler (``apikit.exceptions``) turns them into
``{"detail": ..., **extra}`` answers; the services themselves know nothing of HTTP
frameworks. Apps subclass them for their own cases (an illegal move, too many reports).
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    http_status = 400
    # A refused move's reason in the metrics (apikit.metrics.REFUSAL_REASONS) where the
    # answer's status and fields cannot tell it; its words are in the player's language.
    refusal: str | None = None

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra

    @property
    def body(self) -> dict[str, Any]:
        """The API's answer: ``{"detail": ..., **extra}``."""
        return {"detail": self.detail, **self.extra}


class NotFound(ServiceError):
    http_status = 404


class LoginRequired(ServiceError):
    http_status = 403


class Forbidden(ServiceError):
    http_status = 403


class Conflict(ServiceError):
    """A stale or repeated ply, a finished game: the client must resynchronise."""

    http_status = 409


class Unavailable(ServiceError):
    """Not now, maybe soon: 503 with ``Retry-After`` (and ``retry_after`` in the body)."""

    http_status = 503

    def __init__(self, detail: str, *, retry_after: int, **extra: Any) -> None:
        super().__init__(detail, retry_after=retry_after, **extra)
        self.headers = {"Retry-After": str(retry_after)}
