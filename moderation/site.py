"""The admin site: a logged-in player who is not staff gets 403, not the admin's login form.

Anonymous visitors still get the login page; staff without a permission see only what
their permissions allow (moderators: the ``moderator`` group, see docs/moderation.md).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import update_wrapper
from typing import Any

from django.contrib.admin import AdminSite
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse


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
            return inner(request, *args, **kwargs)

        return update_wrapper(guarded, inner)

    def login(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        self._refuse_players(request)
        return super().login(request, extra_context)

    def logout(self, request: HttpRequest, extra_context: Any = None) -> TemplateResponse:
        self._refuse_players(request)
        return super().logout(request, extra_context)
