"""The base of every API view: CSRF for every unsafe request, and its body always read."""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.views import APIView


class BaseAPIView(APIView):
    """APIView that checks CSRF for guests too (DRF checks it for logged-in users only).

    Guests own practice games through their session cookie, and log-in itself must not
    be forgeable, so every unsafe request carries the ``X-CSRFToken`` header.
    """

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        if request.method not in SAFE_METHODS and not request.user.is_authenticated:
            SessionAuthentication().enforce_csrf(request)
        if request.method not in SAFE_METHODS:
            # Read the body even where the view ignores it: a body that is too large or
            # not JSON is refused (400, 413) on every endpoint alike, never half-served.
            request.data  # noqa: B018
