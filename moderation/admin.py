"""The moderation queue in the admin: flags, reports, appeals, players (bans), voided days,
notices sent, the log.

Flags are listed by priority (moderation.triage: what the flagged result affects, then how
sure the flag is), open ones first, each with its reason in words; the appeals waiting are
named above them. Every action asks for a reason (moderation.admin_actions) and calls
moderation.services, which writes the audit log. The audit log itself is read-only for
everyone. The games and daily challenges pages are moderation's too (``admin_games``,
registered here).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Case, F, IntegerField, OrderBy, QuerySet, Value, When
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html

from moderation import admin_games, services, triage  # noqa: F401  (admin_games: its pages)
from moderation.admin_actions import ModerationPermissions, reason_action
from moderation.models import (
    Appeal,
    AppealStatus,
    AuditLog,
    Ban,
    DayVoid,
    Flag,
    FlagStatus,
    LeagueReport,
    Notice,
    Player,
    Report,
)
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


def _open_first(status: str) -> Case:
    return Case(When(status=status, then=Value(0)), default=Value(1), output_field=IntegerField())


class PriorityBandFilter(admin.SimpleListFilter):
    title = "priority"
    parameter_name = "band"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        bands = sorted(triage.BANDS.items(), reverse=True)
        return [(str(band), name) for band, name in bands if band * 10 < triage.APPEAL_PRIORITY]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Flag]) -> QuerySet[Flag]:
        value = self.value()
        if value is None or not value.isdigit():
            return queryset
        band = int(value)
        return queryset.filter(priority__gte=band * 10, priority__lt=band * 10 + 10)


# The queue: open flags first, by priority (a flag not triaged yet first of all, to be
# safe), then the better place on its board, then the oldest.
FLAG_QUEUE_ORDER: list[str | OrderBy] = [
    _open_first(FlagStatus.OPEN).asc(),
    F("priority").desc(nulls_first=True),
    F("board_rank").asc(nulls_last=True),
    "created_at",
]


@admin.register(Flag)
class FlagAdmin(ModerationPermissions, ReadOnlyAdmin):
    list_display = (
        "id",
        "priority",
        "priority_reason",
        "game_link",
        "player",
        "kind",
        "status",
        "reason",
        "created_at",
    )
    list_display_links = ("id", "priority")
    list_filter = ("status", PriorityBandFilter, "kind", "game__challenge__tier", "created_at")
    search_fields = ("game__player__username", "game__player__display_name", "reason")
    list_select_related = ("game__player",)
    date_hierarchy = "created_at"

    def get_ordering(self, request: HttpRequest) -> Any:
        return FLAG_QUEUE_ORDER

    readonly_fields = (
        "game_link",
        "priority",
        "priority_reason",
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

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        """Appeals come before every flag: the queue says so at its head."""
        waiting = Appeal.objects.filter(status=AppealStatus.OPEN).count()
        if waiting and request.method == "GET":
            url = reverse("admin:moderation_appeal_changelist") + "?status__exact=open"
            self.message_user(
                request,
                format_html(
                    'First: <a href="{}">{} appeal(s) waiting</a> (priority {}, above every flag).',
                    url,
                    waiting,
                    triage.APPEAL_PRIORITY,
                ),
                messages.WARNING,
            )
        return super().changelist_view(request, extra_context)


@admin.register(Appeal)
class AppealAdmin(ModerationPermissions, ReadOnlyAdmin):
    """Players' appeals of a disqualification, open ones first and oldest first: each is
    the head of the queue (``triage.APPEAL_PRIORITY``) until a moderator decides it."""

    list_display = (
        "id",
        "priority",
        "game_link",
        "player",
        "status",
        "reason",
        "created_at",
        "decided_by",
        "decision",
    )
    list_filter = ("status", "created_at")
    search_fields = ("player__username", "player__display_name", "reason")
    list_select_related = ("player", "decided_by")

    def get_ordering(self, request: HttpRequest) -> Any:
        return [_open_first(AppealStatus.OPEN).asc(), "created_at"]

    readonly_fields = (
        "game_link",
        "player",
        "reason",
        "status",
        "created_at",
        "decided_by",
        "decided_at",
        "decision",
    )
    fields = readonly_fields
    actions = [
        reason_action(
            "uphold_appeals",
            "Uphold the disqualifications (the results stay off)",
            services.uphold_on_appeal,
            "moderate_games",
        ),
        reason_action(
            "reinstate_appeals",
            "Reinstate the results (back on the boards)",
            services.reinstate_on_appeal,
            "moderate_games",
        ),
    ]

    @admin.display(description="priority")
    def priority(self, appeal: Appeal) -> str:
        if appeal.status != AppealStatus.OPEN:
            return "decided"
        return f"{triage.APPEAL_PRIORITY}: an appeal"

    @admin.display(description="game")
    def game_link(self, appeal: Appeal) -> str:
        return _game_link(appeal.game_id)


@admin.register(Notice)
class NoticeAdmin(ReadOnlyAdmin):
    """What players were told of the decisions about them (and mailed)."""

    list_display = ("created_at", "player", "kind", "game_link", "text")
    list_filter = ("kind", "created_at")
    search_fields = ("player__username", "player__display_name")
    list_select_related = ("player",)

    @admin.display(description="game")
    def game_link(self, notice: Notice) -> str:
        return _game_link(notice.game_id) if notice.game_id else "-"


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
