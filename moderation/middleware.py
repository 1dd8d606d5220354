"""Remember the client address of each request, for the shared-address flag.

The address is what the web server saw (``REMOTE_ADDR``). Behind a reverse proxy, set
``MODERATION_CLIENT_ADDRESS_HEADER`` (e.g. ``HTTP_X_REAL_IP``) to a header the proxy
itself sets; a header the client could forge must never be trusted.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from moderation.services import client_address


class ClientAddressMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        header = getattr(settings, "MODERATION_CLIENT_ADDRESS_HEADER", "") or "REMOTE_ADDR"
        address = request.META.get(header, "") or request.META.get("REMOTE_ADDR", "")
        token = client_address.set(address.split(",")[0].strip() or None)
        try:
            return self.get_response(request)
        finally:
            client_address.reset(token)
