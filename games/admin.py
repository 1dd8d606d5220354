"""Admin of deals. Games and daily challenges are moderation's to show and change:
``moderation/admin_games.py`` registers them (games knows nothing of moderation)."""

from __future__ import annotations

from django.contrib import admin

from games.models import Deal


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("id", "number", "variant", "algorithm_version", "verdict", "bot_win_rate")
    list_filter = ("variant", "verdict", "algorithm_version")
    search_fields = ("number",)
