"""Admin: the boards waiting for a rebuild after a Redis failure."""

from django.contrib import admin

from leaderboards.models import StaleBoard


@admin.register(StaleBoard)
class StaleBoardAdmin(admin.ModelAdmin):
    list_display = ("challenge", "since")
    readonly_fields = ("challenge", "since")
