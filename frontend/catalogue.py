"""The browser's translations: each language's JavaScript catalogue (Django's
JavaScriptCatalog, the ``djangojs`` domain of locale/<language>/), at an address that
names its content, ``/jsi18n/<language>/<hash>.js`` (docs/frontend.md, "Languages").

A page not in English loads its language's catalogue as a classic script before its
modules (base.html, ``{% javascript_catalogue %}``); js/shared/i18n.js reads the
``django`` object it defines. An English page loads nothing: English is the source text.
The catalogue changes only with a deploy, so it is built once per process and language,
and the address changes with its content: browsers keep it for a year without asking.
"""

from __future__ import annotations

import functools
import hashlib

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_safe
from django.views.i18n import JavaScriptCatalog

HASH_LENGTH = 16
IMMUTABLE = "public, max-age=31536000, immutable"


class _Catalogue(JavaScriptCatalog):
    # Only the site's catalogues (LOCALE_PATHS, which Django always adds): not the admin's
    # own JavaScript strings, which no page of ours loads.
    packages = ["frontend"]


@functools.cache
def compiled_catalogue(language: str) -> tuple[bytes, str]:
    """The catalogue's script for ``language`` and the hash that names it."""
    with translation.override(language):
        response = _Catalogue().get(HttpRequest())
    code = response.content
    return code, hashlib.sha256(code).hexdigest()[:HASH_LENGTH]


def needs_catalogue(language: str) -> bool:
    """English is the source text: its pages need no catalogue."""
    return language != settings.LANGUAGE_CODE and language in dict(settings.LANGUAGES)


def catalogue_url(language: str) -> str:
    _code, digest = compiled_catalogue(language)
    return f"/jsi18n/{language}/{digest}.js"  # frontend/urls.py


def catalogue_urls() -> list[str]:
    """Every language's catalogue but English's (the service worker keeps them for offline
    pages: frontend/installable.py)."""
    return [catalogue_url(code) for code, _name in settings.LANGUAGES if needs_catalogue(code)]


@require_safe
def javascript_catalogue(request: HttpRequest, language: str, digest: str) -> HttpResponse:
    if not needs_catalogue(language):
        raise Http404("No catalogue for this language.")
    code, current = compiled_catalogue(language)
    response = HttpResponse(code, content_type="text/javascript; charset=utf-8")
    response["Content-Language"] = language  # LocaleMiddleware's would be the request's
    # A page from before a deploy may ask for the old hash: it gets today's catalogue,
    # which is not kept under the old name.
    response["Cache-Control"] = IMMUTABLE if digest == current else "no-cache"
    return response
