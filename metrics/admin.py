"""The counts in the admin, read only: the staff page (``/admin/metrics/``) draws them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from metrics.models import DailyCount


@admin.register(DailyCount)
class DailyCountAdmin(admin.ModelAdmin):
    list_display = ("day", "event", "tier", "count")
    list_filter = ("event", "tier")
    date_hierarchy = "day"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
