"""Admin of deals and the practice pool. Games and daily challenges are moderation's to
show and change: ``moderation/admin_games.py`` registers them (games knows nothing of
moderation)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games import practice_pool
from games.models import Deal, PracticeDeal, PracticePoolStatus


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("id", "number", "variant", "algorithm_version", "verdict", "bot_win_rate")
    list_filter = ("variant", "verdict", "algorithm_version")
    search_fields = ("number",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """What the deal is stays fixed once saved: challenges commit to it, games deal it."""
        fixed = Deal.SEALED_FIELDS if obj is not None else ()
        return (*super().get_readonly_fields(request, obj), *fixed)


@admin.register(PracticeDeal)
class PracticeDealAdmin(admin.ModelAdmin):
    """The pooled deals (games/practice_pool.py): proven and rated by the refills only."""

    list_display = ("deal", "variant", "tier", "bot_win_rate", "dealt", "added_at")
    list_filter = ("variant", "tier")
    search_fields = ("deal__number",)
    readonly_fields = ("deal", "variant", "tier", "bot_win_rate", "dealt", "added_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a deal enters only proven, rated and checked against the dailies

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PracticePoolStatus)
class PracticePoolStatusAdmin(admin.ModelAdmin):
    """Each pool's size now and how its refills went: failures stand out here."""

    list_display = (
        "variant",
        "tier",
        "undealt",
        "refills",
        "added",
        "failures",
        "last_refill_at",
        "last_failure_at",
        "last_failure",
    )
    list_filter = ("variant", "tier")
    readonly_fields = list_display

    @admin.display(description="undealt deals (pool size)")
    def undealt(self, status: PracticePoolStatus) -> int:
        return practice_pool.fresh_counts(status.variant).get((status.variant, status.tier), 0)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
