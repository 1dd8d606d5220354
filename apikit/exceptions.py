"""The API's exception handler: every error is JSON ``{"detail": "...", ...}``, never a 500.

DRF validation errors keep their per-field messages under ``errors`` and get a one-line
``detail``; a ServiceError from the services carries its own status and extra fields.
``REST_FRAMEWORK["EXCEPTION_HANDLER"]`` names it; a view may extend it
(``get_exception_handler``: the games views answer the engine's errors too).
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import DataError, InterfaceError, OperationalError
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from apikit.errors import ServiceError
from apikit.parsers import too_large

logger = logging.getLogger(__name__)


def _flatten(errors: Any, prefix: str = "") -> list[str]:
    if isinstance(errors, dict):
        lines = []
        for key, value in errors.items():
            name = "" if key in ("non_field_errors", "detail") else str(key)
            lines += _flatten(value, f"{prefix}.{name}" if prefix and name else prefix or name)
        return lines
    if isinstance(errors, list):
        return [line for item in errors for line in _flatten(item, prefix)]
    return [f"{prefix}: {errors}" if prefix else str(errors)]


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        answer = Response(exc.body, status=exc.http_status, headers=getattr(exc, "headers", None))
        answer.refusal = exc.refusal  # type: ignore[attr-defined]  # for apikit.metrics
        return answer
    if isinstance(exc, exceptions.ValidationError):
        lines = _flatten(exc.detail)
        return Response(
            {"detail": "; ".join(lines) or _("invalid input"), "errors": exc.detail},
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, OperationalError | InterfaceError):
        # PostgreSQL is down or restarting: nothing was written (a move commits or not at
        # all); the client may send the same ply again.
        logger.warning("database unavailable: %s", exc)
        return Response(
            {"detail": _("the database is unavailable; try again in a moment")},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "5"},
        )
    if isinstance(exc, DataError):
        logger.info("rejected input the database cannot hold: %s", exc)
        return Response(
            {"detail": _("a value is out of range")}, status=status.HTTP_400_BAD_REQUEST
        )
    if isinstance(exc, RequestDataTooBig):  # Django's own check, e.g. in a multipart field
        exc = too_large()
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return Response(
            {"detail": _("the request body has too many fields")},
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, UnicodeDecodeError):
        return Response(
            {"detail": _("the request body is not valid UTF-8")},
            status=status.HTTP_400_BAD_REQUEST,
        )
    handled = exception_handler(exc, context)
    if handled is not None and not (
        isinstance(handled.data, dict) and set(handled.data) == {"detail"}
    ):
        handled.data = {"detail": "; ".join(_flatten(handled.data)), "errors": handled.data}
    return handled
