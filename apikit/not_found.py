"""The JSON 404 of every path under /api/ that no route takes.

A path under /api/ that matches no route (``/api/nope/``), or whose id a route's
converter refuses (``/api/games/0/``: apikit/converters.py), would fall through to
Django's own 404: the site's HTML page, and with DEBUG on (``make run``) its technical
page, whatever ``handler404`` says. An API client gets JSON there as from any view
(docs/api.md, "Conventions"), so the last route under /api/ takes whatever is left.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.urls import URLPattern, re_path
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt


# Exempt: it changes nothing, and a POST to a mistyped path must get this 404, not
# Django's HTML page for a CSRF failure.
@csrf_exempt
def api_not_found(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"detail": _("not found")}, status=404)  # as handler404 words it


def api_catch_all() -> URLPattern:
    """The route that goes last among the /api/ routes (yukon_site/urls.py).

    It also takes a path without its trailing slash (``/api/daily``): CommonMiddleware
    redirects only a path that matches nothing, so that is a 404 too, never a redirect
    that would drop a POST's body.
    """
    return re_path(r"^api/", api_not_found, name="api-not-found")
