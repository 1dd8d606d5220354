"""The installable app: the web app manifest, the service worker and the offline page
(docs/frontend.md, "Installable app").

The service worker is served here at ``/sw.js``, not from ``/static/``: its scope is the folder
it is served from, and it must control every page of the site. Its code is a template
(``frontend/sw.js``) into which the server writes what to precache: the page shells and
every static file the pages load, by the names the static files storage gives them (hashed
in production). The cache is named after a hash of that list, so a deploy that changes any
file also changes ``/sw.js``, and the browser installs the new worker, which drops the old
cache.
"""

from __future__ import annotations

import hashlib
import json

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from frontend.catalogue import catalogue_urls

# The site's own files under the static root: the pages need nothing from the admin's or the
# API docs'. Only the kinds a page loads: a font package's licence or a module's
# package.json is never fetched by a page.
STATIC_PREFIX = "frontend/"
PAGE_FILE_TYPES = (".js", ".css", ".svg", ".png", ".webp", ".woff2", ".ogg", ".mp3", ".wav")

# The felt of the dark theme (site.css's --felt-dark): the browser paints the splash screen
# and the title bar in it before the stylesheet arrives.
FELT = "#084a21"

# In the language of the request (the browser fetches the manifest without cookies: its
# Accept-Language decides), as base.html's meta description; the worker never caches it.
DESCRIPTION = gettext_lazy(
    "One Yukon Solitaire deal a day, the same for everyone, proven winnable."
)

# The icons the manifest lists (drawn from the logo by whoever owns the brand).
ICONS = (
    ("frontend/brand/icon-192.png", "192x192", "any"),
    ("frontend/brand/icon-512.png", "512x512", "any"),
    ("frontend/brand/icon-512-maskable.png", "512x512", "maskable"),
)


def _static_names() -> list[str]:
    """The plain names of the static files the pages may load: from the manifest of the
    hashed storage (production, after collectstatic), else from the apps' folders."""
    if isinstance(staticfiles_storage, ManifestFilesMixin):
        names = set(staticfiles_storage.hashed_files)
    else:
        names = {path for finder in finders.get_finders() for path, _storage in finder.list([])}
    return sorted(
        name for name in names if name.startswith(STATIC_PREFIX) and name.endswith(PAGE_FILE_TYPES)
    )


def _page_shells() -> list[str]:
    """The pages kept for offline use: the start page, the offline page and the offline
    practice page. Each is the same for everyone (the worker fetches them without cookies),
    so no player's data is ever cached."""
    return [
        reverse(name) for name in ("frontend:home", "frontend:offline", "frontend:offline-practice")
    ]


def precache_plan() -> dict[str, object]:
    """What the service worker stores on install, and the name of its cache."""
    static_urls = [static(name) for name in _static_names()]
    # every language's JavaScript catalogue: an offline page in German needs its own
    # (frontend/catalogue.py); its address names its content, as a hashed file's does
    catalogues = catalogue_urls()
    shells = _page_shells()
    version = hashlib.sha256("\n".join(shells + static_urls + catalogues).encode()).hexdigest()[:16]
    return {
        "cache": f"yukon-{version}",
        "shells": shells,
        "static": static_urls,
        "catalogues": catalogues,
        "offline": reverse("frontend:offline"),
        "offline_practice": reverse("frontend:offline-practice"),
        # With plain names (development) a file changes under the same name: the worker
        # asks the network first, so an edit shows on reload.
        "hashed": isinstance(staticfiles_storage, ManifestFilesMixin),
    }


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    # Made for each request (a few hundred lookups in the storage's manifest): the answer
    # follows whatever the static files storage holds, a new deploy's files included.
    plan = json.dumps(precache_plan(), indent=2)
    code = render_to_string("frontend/sw.js", {"plan": mark_safe(plan)})
    return HttpResponse(code, content_type="text/javascript; charset=utf-8")


@require_safe
@cache_control(no_cache=True)  # it names the icons by their hashed names
def manifest(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        {
            "id": "/",
            "name": "Yukon Daily",
            "short_name": "Yukon Daily",
            "description": str(DESCRIPTION),
            "lang": get_language(),
            "start_url": reverse("frontend:home"),
            "scope": "/",
            "display": "standalone",
            "background_color": FELT,
            "theme_color": FELT,
            "categories": ["games"],
            "icons": [
                {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
                for path, sizes, purpose in ICONS
            ],
        },
        content_type="application/manifest+json",
    )


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page it cannot fetch and has not kept."""
    return render(request, "frontend/offline.html")
