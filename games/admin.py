"""Admin registration of deals, challenges and games (moderation tools come later)."""

from django.contrib import admin

from games.models import DailyChallenge, Deal, Game, Move


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("id", "number", "variant", "algorithm_version", "verdict", "bot_win_rate")
    list_filter = ("variant", "verdict", "algorithm_version")
    search_fields = ("number",)


@admin.register(DailyChallenge)
class DailyChallengeAdmin(admin.ModelAdmin):
    list_display = ("date", "tier", "deal", "bot_win_rate")
    list_filter = ("tier",)
    date_hierarchy = "date"
    raw_id_fields = ("deal",)


class MoveInline(admin.TabularInline):
    model = Move
    fields = ("ply", "text", "turned", "at_ms")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id", "player", "mode", "challenge", "status", "verification", "score", "moves",
        "elapsed_ms", "disqualified", "started_at",
    )
    list_filter = ("mode", "status", "verification", "disqualified")
    search_fields = ("player__username", "player__display_name")
    raw_id_fields = ("player", "deal", "challenge")
    readonly_fields = ("position", "ply", "moves", "score", "rejection_reason")
    inlines = [MoveInline]
