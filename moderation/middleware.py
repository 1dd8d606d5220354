"""Remember where each request comes from, for the flags that link accounts.

The address is the client's as the API's limits see it: ``NUM_PROXIES`` hops back in
``X-Forwarded-For`` behind that many proxies, else what the web server saw
(``REMOTE_ADDR``); or ``MODERATION_CLIENT_ADDRESS_HEADER`` (e.g. ``HTTP_X_REAL_IP``), a
header the proxy itself sets. The entries a client writes into X-Forwarded-For itself
(those before the proxies' own) are never read.

The device id is a random cookie (``yd_device``), given only with the answer that starts a
daily or archive game (never on a page a cache may share), and read on every request.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from moderation.origins import (
    DEVICE_COOKIE,
    DEVICE_COOKIE_DAYS,
    RequestOrigin,
    is_device_id,
    request_origin,
)


def client_address(request: HttpRequest) -> str:
    """The client's address (above); "" when there is none."""
    header = settings.MODERATION_CLIENT_ADDRESS_HEADER
    if header:
        address = request.META.get(header, "") or request.META.get("REMOTE_ADDR", "")
        return str(address).split(",")[0].strip()
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", ""))
    if settings.NUM_PROXIES > 0 and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",")]
        return hops[-min(settings.NUM_PROXIES, len(hops))]
    return str(request.META.get("REMOTE_ADDR", "")).strip()


class ClientAddressMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        device = request.COOKIES.get(DEVICE_COOKIE, "")
        origin = RequestOrigin(
            address=client_address(request) or None,
            device=device if is_device_id(device) else "",
            user_agent=request.META.get("HTTP_USER_AGENT", ""),
        )
        token = request_origin.set(origin)
        try:
            response = self.get_response(request)
        finally:
            request_origin.reset(token)
        if origin.new_device:
            response.set_cookie(
                DEVICE_COOKIE,
                origin.device,
                max_age=DEVICE_COOKIE_DAYS * 24 * 3600,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response
