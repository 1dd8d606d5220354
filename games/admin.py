"""Admin of deals. Games and daily challenges are moderation's to show and change:
``moderation/admin_games.py`` registers them (games knows nothing of moderation)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Deal


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("id", "number", "variant", "algorithm_version", "verdict", "bot_win_rate")
    list_filter = ("variant", "verdict", "algorithm_version")
    search_fields = ("number",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """What the deal is stays fixed once saved: challenges commit to it, games deal it."""
        fixed = Deal.SEALED_FIELDS if obj is not None else ()
        return (*super().get_readonly_fields(request, obj), *fixed)
