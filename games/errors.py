"""Errors the game services raise: each carries its HTTP status and a readable message.

The API's exception handler turns them into ``{"detail": ..., **extra}`` responses; the
services themselves know nothing of HTTP frameworks.
"""

from __future__ import annotations

from typing import Any


class GameError(Exception):
    http_status = 400

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra

    @property
    def body(self) -> dict[str, Any]:
        """The API's answer: ``{"detail": ..., **extra}``."""
        return {"detail": self.detail, **self.extra}


class NotFound(GameError):
    http_status = 404


class LoginRequired(GameError):
    http_status = 403


class Forbidden(GameError):
    http_status = 403


class Conflict(GameError):
    """A stale or repeated ply, a finished game: the client must resynchronise."""

    http_status = 409


class IllegalMove(GameError):
    http_status = 400
