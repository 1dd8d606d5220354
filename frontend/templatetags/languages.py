"""The page's language in base.html: ``{% javascript_catalogue %}`` (the script of the
browser's translations, on a page not in English: frontend/catalogue.py) and
``{% language_picker %}`` (the header's form that chooses one: accounts/language.py)."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.utils import translation
from django.utils.html import format_html

from frontend.catalogue import catalogue_url, needs_catalogue

register = template.Library()


@register.simple_tag(takes_context=True)
def javascript_catalogue(context: template.Context) -> str:
    """A classic script, deferred: it blocks no paint, and deferred scripts and modules run
    in the order of the page, so it runs before the modules that read it (js/shared/
    i18n.js), as long as it comes first. Nothing on an English page: no request for it."""
    language = translation.get_language()
    if not needs_catalogue(language):
        return ""
    request = context.get("request")
    nonce = getattr(request, "csp_nonce", "")
    return format_html(
        '<script nonce="{}" src="{}" defer></script>', nonce, catalogue_url(language)
    )


# The form names no page to go back to: a page that printed its own address would tell a
# hidden game's page from a missing one's (tests/frontend/test_missing_pages.py), and the
# service worker's kept copies serve other addresses. The script fills ``next`` as it
# posts; without one, the view goes back to the Referer.
@register.inclusion_tag("frontend/_language_picker.html")
def language_picker() -> dict[str, Any]:
    return {"languages": settings.LANGUAGES, "current": translation.get_language()}
