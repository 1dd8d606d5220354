"""The base of the games views: the kit's base view, answering the engine's errors too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework import status
from rest_framework.response import Response

from apikit.exceptions import api_exception_handler
from apikit.views import BaseAPIView
from games.engine_reasons import engine_reason
from yukon.engine import EngineError


def game_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """The kit's handler, and a 400 for the engine's errors (their reasons are written
    for people: a deal number out of range, an unknown variant)."""
    if isinstance(exc, EngineError):
        return Response({"detail": engine_reason(exc)}, status=status.HTTP_400_BAD_REQUEST)
    return api_exception_handler(exc, context)


class GameAPIView(BaseAPIView):
    def get_exception_handler(self) -> Callable[[Exception, dict[str, Any]], Response | None]:
        return game_exception_handler
