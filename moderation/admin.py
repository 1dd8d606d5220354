"""The moderation queue in the admin: flags, reports, players (bans), voided days, the log.

Every action asks for a reason (moderation.admin_actions) and calls moderation.services,
which writes the audit log. The audit log itself is read-only for everyone. The games
and daily challenges pages are moderation's too (``admin_games``, registered here).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from moderation import admin_games, services  # noqa: F401  (admin_games registers its pages)
from moderation.admin_actions import ModerationPermissions, reason_action
from moderation.models import AuditLog, Ban, DayVoid, Flag, LeagueReport, Player, Report
from social.models import League


def _game_link(game_id: int) -> str:
    url = reverse("admin:games_game_change", args=[game_id])
    return format_html('<a href="{}">game {}</a>', url, game_id)


def _disqualify_game_of(model: type[Flag] | type[Report]) -> Any:
    def perform(actor: Any, pk: int, reason: str) -> Any:
        game_id = model.objects.values_list("game_id", flat=True).get(pk=pk)
        return services.disqualify_game(actor, game_id, reason)

    return perform


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Flag)
class FlagAdmin(ModerationPermissions, ReadOnlyAdmin):
    list_display = ("id", "game_link", "player", "kind", "status", "reason", "created_at")
    list_filter = ("status", "kind", "game__challenge__tier", "created_at")
    search_fields = ("game__player__username", "game__player__display_name", "reason")
    list_select_related = ("game__player",)
    date_hierarchy = "created_at"
    readonly_fields = (
        "game_link",
        "kind",
        "reason",
        "measured",
        "thresholds",
        "status",
        "created_at",
        "resolved_by",
        "resolved_at",
        "resolution",
    )
    fields = readonly_fields
    actions = [
        reason_action("clear_flags", "Clear the flags", services.clear_flag, "moderate_games"),
        reason_action(
            "disqualify_flagged_games",
            "Disqualify the flagged games",
            _disqualify_game_of(Flag),
            "moderate_games",
        ),
    ]

    @admin.display(description="game")
    def game_link(self, flag: Flag) -> str:
        return _game_link(flag.game_id)

    @admin.display(description="player")
    def player(self, flag: Flag) -> str:
        return str(flag.game.player or "guest")


@admin.register(Report)
class ReportAdmin(ModerationPermissions, ReadOnlyAdmin):
    list_display = ("id", "game_link", "reporter", "status", "reason", "created_at")
    list_filter = ("status", "created_at")
    search_fields = ("reporter__display_name", "game__player__display_name", "reason")
    list_select_related = ("reporter",)
    readonly_fields = (
        "game_link",
        "reporter",
        "reason",
        "status",
        "created_at",
        "handled_by",
        "handled_at",
        "resolution",
    )
    fields = readonly_fields
    actions = [
        reason_action(
            "dismiss_reports", "Dismiss the reports", services.dismiss_report, "moderate_games"
        ),
        reason_action(
            "disqualify_reported_games",
            "Disqualify the reported games",
            _disqualify_game_of(Report),
            "moderate_games",
        ),
    ]

    @admin.display(description="game")
    def game_link(self, report: Report) -> str:
        return _game_link(report.game_id)


def _league_of_report(perform: Any) -> Any:
    def on_league(actor: Any, pk: int, reason: str) -> Any:
        league_id = LeagueReport.objects.values_list("league_id", flat=True).get(pk=pk)
        return perform(actor, league_id, reason)

    return on_league


LEAGUE_ACTIONS = (
    ("rename_leagues", "Rename to the neutral 'League <id>'", services.rename_league),
    ("close_leagues", "Close the leagues", services.close_league),
)


@admin.register(LeagueReport)
class LeagueReportAdmin(ModerationPermissions, ReadOnlyAdmin):
    """Reported league names: the queue beside the games' reports."""

    list_display = ("id", "league", "reported_name", "reporter", "status", "reason", "created_at")
    list_filter = ("status", "created_at")
    search_fields = ("reported_name", "league__name", "reporter__display_name", "reason")
    list_select_related = ("reporter", "league")
    readonly_fields = (
        "league",
        "reported_name",
        "reporter",
        "reason",
        "status",
        "created_at",
        "handled_by",
        "handled_at",
        "resolution",
    )
    fields = readonly_fields
    actions = [
        reason_action(
            "dismiss_league_reports",
            "Dismiss the reports",
            services.dismiss_league_report,
            "moderate_games",
        ),
        *(
            reason_action(
                f"{name}_reported", description, _league_of_report(perform), "moderate_games"
            )
            for name, description, perform in LEAGUE_ACTIONS
        ),
    ]


@admin.register(League)
class LeagueModerationAdmin(ModerationPermissions, ReadOnlyAdmin):
    list_display = ("id", "name", "owner", "created_at", "closed_at")
    list_filter = ("closed_at",)
    search_fields = ("name", "owner__display_name")
    list_select_related = ("owner",)
    fields = ("name", "owner", "created_at", "closed_at", "closed_reason")
    readonly_fields = fields
    actions = [
        reason_action(name, description, perform, "moderate_games")
        for name, description, perform in LEAGUE_ACTIONS
    ]


class BanInline(admin.TabularInline):
    model = Ban
    fk_name = "player"
    fields = ("reason", "banned_by", "banned_at", "lifted_by", "lifted_at", "lift_reason")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Player)
class PlayerModerationAdmin(ModerationPermissions, ReadOnlyAdmin):
    list_display = ("username", "display_name", "is_banned", "date_joined", "games_link")
    list_filter = ("is_banned",)
    search_fields = ("username", "display_name")
    fields = ("username", "display_name", "is_banned", "date_joined", "last_login")
    readonly_fields = fields
    inlines = [BanInline]
    actions = [
        reason_action("ban_players", "Ban the players", services.ban_player, "ban_players"),
        reason_action("unban_players", "Unban the players", services.unban_player, "ban_players"),
        reason_action(
            "restore_ban_results",
            "Restore the results their bans took (after an unban)",
            services.restore_ban_results,
            "ban_players",
        ),
    ]

    @admin.display(description="games")
    def games_link(self, player: Player) -> str:
        url = reverse("admin:games_game_changelist") + f"?player={player.pk}"
        return format_html('<a href="{}">games</a>', url)


@admin.register(DayVoid)
class DayVoidAdmin(ReadOnlyAdmin):
    list_display = ("challenge", "reason", "voided_by", "voided_at")
    list_select_related = ("challenge", "voided_by")


@admin.register(AuditLog)
class AuditLogAdmin(ReadOnlyAdmin):
    """Visible to moderators, editable by nobody: not even a superuser may change a row."""

    list_display = ("created_at", "actor_name", "action", "target_type", "target_repr", "reason")
    list_filter = ("action", "target_type", "created_at")
    search_fields = ("actor_name", "target_repr", "target_id", "reason")
    date_hierarchy = "created_at"

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        return {}  # not even "delete selected"
