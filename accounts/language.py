"""The player's language: which one a request is answered in, the choice of one (the
header's picker, the settings panel), and the language of work done outside a request
(docs/frontend.md, "Languages").

In a request the language is, first to last: the account's (a logged-in player who chose
one: ``AccountLanguageMiddleware``), the ``django_language`` cookie, the browser's
``Accept-Language`` (Django's LocaleMiddleware, before this one), English. Outside a request
(mail sent by a task, a reminder, a moderation notice) it is the account's, else English:
``in_language_of(user)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseBase,
    HttpResponseRedirect,
)
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts.models import User

# A year: a choice is kept until the player makes another (Django's default is the session).
LANGUAGE_COOKIE_SECONDS = 365 * 24 * 3600


def supported_languages() -> dict[str, str]:
    """Code -> the language's name in itself (settings.LANGUAGES)."""
    return dict(settings.LANGUAGES)


def language_of(user: Any) -> str:
    """The language to write to ``user`` in outside a request: the one they chose, else the
    site's (``settings.LANGUAGE_CODE``). A guest, a deleted row, or a choice no longer
    shipped get the site's."""
    chosen = getattr(user, "language", "") or ""
    return chosen if chosen in supported_languages() else settings.LANGUAGE_CODE


@contextmanager
def in_language_of(user: Any) -> Iterator[str]:
    """``with in_language_of(player): send(...)``: the texts made inside are in the
    player's language (``language_of``), and the language before is restored after."""
    language = language_of(user)
    with translation.override(language):
        yield language


def language_at_sign_up() -> str:
    """What a new account is given: the language its sign-up page was in (the request's
    active language), if the site ships it."""
    active = translation.get_language() or ""
    return active if active in supported_languages() else ""


class AccountLanguageMiddleware:
    """After AuthenticationMiddleware (and LocaleMiddleware): a logged-in player who chose
    a language gets it on every page and answer, whatever this browser's cookie or
    Accept-Language say. Only a request that carries a session cookie can be logged in:
    the others are not made to read the session (which would add ``Vary: Cookie`` to
    answers that do not need it)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            user = request.user
            chosen = getattr(user, "language", "")
            if user.is_authenticated and chosen in supported_languages():
                translation.activate(chosen)
                request.LANGUAGE_CODE = chosen
        return self.get_response(request)


def _same_site(request: HttpRequest) -> bool:
    """The form was posted from one of this site's pages, as the browser says (the
    ``Sec-Fetch-Site`` header, else ``Origin``). A client that sends neither is not a
    browser another site could drive."""
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None:
        return fetch_site in ("same-origin", "none")
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    return parts.netloc == request.get_host() and parts.scheme == request.scheme


# No CSRF token: the picker is on every page, the service worker's kept ones too (fetched
# without cookies, a token in them would match no browser's cookie). Instead the browser's
# own word that the form is this site's (_same_site); and the session cookie is SameSite=Lax,
# so another site's form could at worst set a guest's language cookie, never an account's.
def _referring_page(request: HttpRequest) -> str:
    """The page the form was posted from (a browser with no script sends no ``next``): the
    Referer's path when it is this site's, else the home page."""
    referer = urlsplit(request.headers.get("referer", ""))
    if referer.netloc == request.get_host() and referer.path.startswith("/"):
        return referer.path + (f"?{referer.query}" if referer.query else "")
    return "/"


@csrf_exempt
@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    """The header's language picker (and the settings panel's) posts here: ``language`` (a
    code of settings.LANGUAGES) and ``next`` (the page to go back to, a path of this site).
    The choice is kept in the ``django_language`` cookie and, for a logged-in player, in
    the account; the answer is a redirect to ``next`` (``/`` without one), now in the new
    language."""
    if not _same_site(request):
        return _refused(_("Choose the language on this site's own pages."), status=403)
    language = request.POST.get("language", "")
    if language not in supported_languages():
        return _refused(
            _("Unknown language: choose one of %(choices)s.")
            % {"choices": ", ".join(supported_languages())}
        )
    next_url = request.POST.get("next") or _referring_page(request)
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ) or not next_url.startswith("/"):
        return _refused(_("The page to go back to must be a page of this site."))
    user = request.user
    if user.is_authenticated and isinstance(user, User) and user.language != language:
        user.language = language
        user.save(update_fields=["language"])  # saved through the ORM: the user cache drops it
    response = HttpResponseRedirect(next_url)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=LANGUAGE_COOKIE_SECONDS,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,  # no script reads it: the page says its language in <html lang>
        samesite="Lax",
    )
    return response


def _refused(message: str, status: int = 400) -> HttpResponse:
    response = HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
    response.status_code = status
    return response
