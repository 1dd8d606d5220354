"""The content security policy and the headers Django has no setting for (docs/operations.md,
"Security headers").

The policy is strict: scripts and styles only from this site's own files, plus the one
`<script>`/`<style>` a response marks with its nonce; no inline script, no style attribute,
no eval. The two inline styles of installed pages we do not write (Django's admin change
list without actions, the API docs' Swagger UI) are allowed by their hash, and
tests/security/test_security_headers.py checks each hash against the installed template.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from csp.constants import NONCE, NONE, SELF
from django.http import HttpRequest, HttpResponseBase

# admin/change_list.html's <style> (shown when a change list has no actions), Django 5.2
ADMIN_CHANGE_LIST_STYLE = "'sha256-blvLUW3UscWqsXGByNOqdBboM+ShWAuugp2mC/wbafU='"
# drf_spectacular/swagger_ui.html's <style>
SWAGGER_UI_STYLE = "'sha256-MMpT0iDxyjALd9PdfepImGX3DBfJPXZ4IlDWdPAgtn0='"
# Where drf-spectacular's Swagger UI comes from (its SWAGGER_UI_DIST default): the API docs
# page alone may load it (yukon_site/urls.py).
SWAGGER_UI_ORIGIN = "https://cdn.jsdelivr.net"


def origin_of(url: str) -> str:
    """`https://id.example/realms/x` -> `https://id.example`."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def content_security_policy(oidc_server_url: str = "") -> dict[str, object]:
    """django-csp's CONTENT_SECURITY_POLICY. A sign-in through OpenID Connect is a form posted
    here and redirected to the provider, and browsers hold that redirect to form-action too:
    the provider's origin is added when one is configured."""
    form_action = [SELF]
    if oidc_server_url:
        form_action.append(origin_of(oidc_server_url))
    return {
        "DIRECTIVES": {
            "default-src": [SELF],
            "script-src": [SELF, NONCE],
            "style-src": [SELF, NONCE, ADMIN_CHANGE_LIST_STYLE],
            # data: the results screen's card picture (an SVG image) and the admin's icon
            "img-src": [SELF, "data:"],
            "font-src": [SELF],
            "connect-src": [SELF],
            # the installable app: its manifest and its service worker (/sw.js), this site's own
            "manifest-src": [SELF],
            "worker-src": [SELF],
            "object-src": [NONE],
            "base-uri": [NONE],
            "frame-ancestors": [NONE],
            "form-action": form_action,
        },
    }


# The API docs page (Swagger UI from its CDN, its own inline style): django-csp's csp_update.
SWAGGER_UI_POLICY = {
    "script-src": [SWAGGER_UI_ORIGIN],
    "style-src": [SWAGGER_UI_ORIGIN, SWAGGER_UI_STYLE],
    "img-src": [SWAGGER_UI_ORIGIN],
}

# Powerful features nobody here uses, refused to this site and to anything it embeds.
# Only names Chromium knows: an unknown one is an error in every page's console.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
)


class SecurityHeadersMiddleware:
    """Permissions-Policy and Cross-Origin-Resource-Policy on every response (Django's
    SecurityMiddleware sends the others: HSTS, nosniff, Referrer-Policy, COOP)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        response.headers.setdefault("Cross-Origin-Resource-Policy", "same-origin")
        return response
