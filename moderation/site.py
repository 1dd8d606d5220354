"""The admin site: a logged-in player who is not staff gets 403, not the admin's login form.

Anonymous visitors still get the login page; staff without a permission see only what
their permissions allow (moderators: the ``moderator`` group, see docs/moderation.md).
A staff session that has not passed a second factor gets no admin page and so no
moderation action: it is sent to enrol one (first visit) or to confirm it
(accounts/second_factor.py, docs/accounts.md).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import update_wrapper
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.admin import AdminSite
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse

from accounts.second_factor import (
    CONFIRM_MESSAGE,
    ENROL_MESSAGE,
    has_second_factor,
    passed_second_factor,
)


class ModeratedAdminSite(AdminSite):
    site_header = "Yukon Daily moderation"
    site_title = "Yukon Daily admin"

    def _refuse_players(self, request: HttpRequest) -> None:
        if request.user.is_authenticated and not self.has_permission(request):
            raise PermissionDenied("the admin is for moderators")

    def admin_view(self, view: Callable[..., Any], cacheable: bool = False) -> Any:
        inner = super().admin_view(view, cacheable)

        def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            self._refuse_players(request)
            refused = self.second_factor_needed(request)
            if refused is not None:
                return refused
            return inner(request, *args, **kwargs)

        return update_wrapper(guarded, inner)

    def second_factor_needed(self, request: HttpRequest) -> HttpResponse | None:
        """None if the session may go on; else where a staff session goes first."""
        if not request.user.is_authenticated or passed_second_factor(request):
            return None
        match = request.resolver_match
        if match is not None and match.url_name == "logout":
            return None
        if request.method not in ("GET", "HEAD"):  # a moderation action: refused outright
            raise PermissionDenied("Staff use a second factor: confirm it first.")
        if has_second_factor(request.user):
            messages.info(request, CONFIRM_MESSAGE)
            target = reverse("mfa_reauthenticate")
        else:
            messages.info(request, ENROL_MESSAGE)
            target = reverse("mfa_index")
        return redirect(f"{target}?{urlencode({'next': request.get_full_path()})}")

    def login(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        self._refuse_players(request)
        return super().login(request, extra_context)

    def logout(self, request: HttpRequest, extra_context: Any = None) -> TemplateResponse:
        self._refuse_players(request)
        return super().logout(request, extra_context)
