"""Admin actions that ask for a reason first (an intermediate form), then call a service.

``reason_action`` builds an action for any ModelAdmin: the first POST (from the change
list or a game's page) shows the form with the selected objects; the second, with a
reason, calls ``perform(moderator, object_id, reason)`` for each and reports the outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

from accounts.second_factor import passed_second_factor
from apikit.errors import ServiceError


class ReasonForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4, "cols": 70}),
        max_length=2000,
        help_text="Written to the audit log; a banned player is shown it.",
    )


def reason_action(
    name: str,
    description: str,
    perform: Callable[[Any, int, str], Any],
    permission: str,
) -> Callable[..., TemplateResponse | None]:
    """An admin action named ``name`` that needs the ``moderation.<permission>`` permission."""

    def action(
        modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Any]
    ) -> TemplateResponse | None:
        if not passed_second_factor(request):  # the admin site refuses it first; twice sure
            raise PermissionDenied("Staff use a second factor: confirm it first.")
        form = ReasonForm(request.POST if request.POST.get("confirm") == "yes" else None)
        if form.is_bound and form.is_valid():
            reason = form.cleaned_data["reason"]
            done = 0
            for pk in queryset.values_list("pk", flat=True):
                try:
                    perform(request.user, pk, reason)
                except (ServiceError, ValueError, PermissionError, ObjectDoesNotExist) as exc:
                    detail = getattr(exc, "detail", str(exc))
                    modeladmin.message_user(request, f"#{pk}: {detail}", messages.ERROR)
                else:
                    done += 1
            modeladmin.message_user(request, f"{description}: {done} done.", messages.SUCCESS)
            return None
        opts = modeladmin.model._meta
        context = {
            **modeladmin.admin_site.each_context(request),
            "title": f"{description}: give a reason",
            "description": description,
            "objects": list(queryset[:200]),
            "count": queryset.count(),
            "ids": [str(pk) for pk in queryset.values_list("pk", flat=True)],
            "action_name": name,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "form": form,
            "opts": opts,
            "app_label": opts.app_label,
        }
        request.current_app = modeladmin.admin_site.name
        return TemplateResponse(request, "admin/moderation/reason_form.html", context)

    action.__name__ = name
    action.short_description = f"{description}…"  # type: ignore[attr-defined]
    action.allowed_permissions = (permission,)  # type: ignore[attr-defined]
    return action


class ModerationPermissions:
    """Mixin: ``has_<permission>_permission`` for the moderation permissions actions use."""

    def has_moderate_games_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.moderate_games")

    def has_ban_players_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.ban_players")
