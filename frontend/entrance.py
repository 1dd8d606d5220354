"""One log-in page and one sign-up page: allauth's addresses lead to ours.

allauth's pages link to ``/accounts/login/`` and ``/accounts/signup/`` (a finished
password reset, a cancelled second factor, a link in a mail), and its views send a
visitor there when a step needs a log-in. A browser asking for either page (GET) is sent
to ``/login/`` or ``/signup/``, which log in and sign up through allauth's headless API
with the second factor and passkeys in the page. The address to come back to (``next``)
goes along only when allauth's own check finds it on this site. A form posted straight
to allauth (a client without our pages) is still allauth's to answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from allauth.account.utils import get_next_redirect_url
from allauth.account.views import login as allauth_login
from allauth.account.views import signup as allauth_signup
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse


def _to_our_page(url_name: str, allauth_view: Callable[..., Any]) -> Callable[..., Any]:
    def view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            response: HttpResponse = allauth_view(request, *args, **kwargs)
            return response
        target = reverse(url_name)
        after = get_next_redirect_url(request)  # None for another site's address
        if after:
            target += "?" + urlencode({"next": after})
        return HttpResponseRedirect(target)

    view.__doc__ = f"{url_name}'s page for a browser; allauth's form for a post."
    return view


login = _to_our_page("frontend:login", allauth_login)
signup = _to_our_page("frontend:signup", allauth_signup)
