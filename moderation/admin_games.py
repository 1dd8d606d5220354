"""The admin of games and daily challenges, made for moderation (moderation owns it).

Games: list with filters (date, tier, status, verification, flags, player), search by
player, and a game page with the whole move log (server times) and a step-through
replay of the real cards. Actions (each asks for a reason, writes the audit log):
disqualify or reinstate games, ban their players, void a day's board. The games app
registers only deals: it knows nothing of moderation.
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.db.models import Exists, OuterRef, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html

from apikit.converters import IdConverter
from games.models import DailyChallenge, Game
from games.services import log_entries
from moderation import services as moderation
from moderation.admin_actions import ModerationPermissions, reason_action
from moderation.models import Flag, FlagKind, FlagStatus, GameOrigin, Report
from moderation.origins import linked_games, seen_in_advance, turned_cards
from yukon.engine import LogError, Position, card_text, replay_log


def _void_day(actor: Any, challenge_id: int, reason: str) -> Any:
    return moderation.void_day(actor, challenge_id, reason)


@admin.register(DailyChallenge)
class DailyChallengeAdmin(ModerationPermissions, admin.ModelAdmin):
    list_display = ("date", "tier", "deal", "bot_win_rate", "voided")
    list_filter = ("tier",)
    date_hierarchy = "date"
    raw_id_fields = ("deal",)
    actions = [reason_action("void_days", "Void the days' boards", _void_day, "moderate_games")]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """The published commitment covers the date, tier and deal: fixed once saved."""
        fixed = ("date", "tier", "deal") if obj is not None else ()
        return (*super().get_readonly_fields(request, obj), *fixed)

    @admin.display(boolean=True)
    def voided(self, challenge: DailyChallenge) -> bool:
        return hasattr(challenge, "void")


class FlagFilter(admin.SimpleListFilter):
    title = "flags"
    parameter_name = "flag"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("open", "Any open flag"),
            ("any", "Any flag"),
            ("none", "No flag"),
            *[(f"kind:{value}", str(label)) for value, label in FlagKind.choices],
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        value = self.value()
        flags = Flag.objects.filter(game=OuterRef("pk"))
        if value == "open":
            return queryset.filter(Exists(flags.filter(status=FlagStatus.OPEN)))
        if value == "any":
            return queryset.filter(Exists(flags))
        if value == "none":
            return queryset.exclude(Exists(flags))
        if value and value.startswith("kind:"):
            return queryset.filter(Exists(flags.filter(kind=value[5:])))
        return queryset


class PlayerFilter(admin.SimpleListFilter):
    """One player's games (``?player=<id>``); offers the players with open flags or reports."""

    title = "player"
    parameter_name = "player"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        queued = (
            Game.objects.filter(
                Exists(Flag.objects.filter(game=OuterRef("pk"), status=FlagStatus.OPEN))
                | Exists(Report.objects.filter(game=OuterRef("pk"), status="open"))
            )
            .exclude(player=None)
            .values_list("player_id", "player__display_name")
            .distinct()[:30]
        )
        choices = {str(pk): name for pk, name in queued}
        current = self.value()
        if current and _row_id(current) is not None and current not in choices:
            choices[current] = f"player #{current}"
        return sorted(choices.items(), key=lambda item: item[1].lower())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        value = self.value()
        if not value:
            return queryset
        player_id = _row_id(value)
        if player_id is None:  # no player has that id: nobody's games
            return queryset.none()
        return queryset.filter(player_id=player_id)


def _row_id(value: str) -> int | None:
    """A row id as the ``<id:>`` path converter takes one, or None. ``str.isdigit`` would
    take "²" (int() then raises) and a number past 64 bits (the database refuses it)."""
    if re.fullmatch(IdConverter.regex, value) is None:
        return None
    try:
        return IdConverter().to_python(value)
    except ValueError:
        return None


def replay_frames(game: Game) -> list[dict[str, Any]]:
    """Every position of the game, face-down cards included (staff only), one per log entry.

    A log the engine refuses (a rejected game's) shows up to the entry it refused.
    """
    entries = log_entries(game)
    position = game.start_position()
    frames = [_frame(position, "deal", 0)]
    try:
        for step in replay_log(position, (entry.text for entry in entries)):
            frames.append(_frame(position, step.text, entries[step.ply].at_ms))
    except LogError:
        pass
    return frames


def _frame(position: Position, move: str, at_ms: int) -> dict[str, Any]:
    return {
        "move": move,
        "at_ms": at_ms,
        "score": position.score,
        "columns": [
            {"down": [card_text(c) for c in col[:down]], "up": [card_text(c) for c in col[down:]]}
            for col, down in zip(position.cols, position.down, strict=True)
        ],
        "found": list(position.found),
    }


def _cluster(game: Game) -> list[dict[str, Any]]:
    """The games of this game's challenge linked to it by a device or a network, side by
    side: whose, how linked, how far they got, and what they turned before this game did."""
    linked = linked_games(game)
    seen = seen_in_advance(game, linked)
    rows = Game.objects.in_bulk([link.game_id for link in linked])
    return [
        {
            "game": rows[link.game_id],
            "owner": link.owner,
            "shared": " and ".join(link.shared),
            "turned": len(link.turned),
            "seen": seen[link.game_id],
        }
        for link in linked
    ]


def _ban_player_of(actor: Any, game_id: int, reason: str) -> Any:
    player_id = Game.objects.values_list("player_id", flat=True).get(pk=game_id)
    if player_id is None:
        raise ValueError("a guest's game has no player to ban")
    return moderation.ban_player(actor, player_id, reason)


@admin.register(Game)
class GameAdmin(ModerationPermissions, admin.ModelAdmin):
    list_display = (
        "id",
        "player_link",
        "mode",
        "challenge",
        "status",
        "verification",
        "score",
        "moves",
        "elapsed_ms",
        "open_flags",
        "provisional",
        "held",
        "disqualified",
        "started_at",
    )
    list_filter = (
        "challenge__date",
        "challenge__tier",
        "mode",
        "status",
        "verification",
        FlagFilter,
        "provisional",
        "held",
        "played_as_guest",
        "disqualified",
        PlayerFilter,
    )
    date_hierarchy = "started_at"
    search_fields = ("player__username", "player__display_name")
    list_select_related = ("player", "challenge")
    raw_id_fields = ("player", "deal", "challenge")
    readonly_fields = (
        "player",
        "session_key",
        "deal",
        "challenge",
        "mode",
        "status",
        "verification",
        "rejection_reason",
        "score",
        "ply",
        "moves",
        "started_at",
        "finished_at",
        "elapsed_ms",
        "verified_at",
        "used_undo",
        "hints_used",
        "provisional",
        "played_as_guest",
        "held",
        "disqualified",
    )
    exclude = ("position",)  # the snapshot: the replay below shows every position
    change_form_template = "moderation/admin/game_change_form.html"
    actions = [
        reason_action(
            "disqualify_games",
            "Disqualify the games",
            moderation.disqualify_game,
            "moderate_games",
        ),
        reason_action(
            "requalify_games",
            "Put the games back on the boards",
            moderation.requalify_game,
            "moderate_games",
        ),
        reason_action(  # a held result (a guest's link) goes back on its board
            "confirm_results",
            "Confirm the provisional results",
            moderation.confirm_result,
            "moderate_games",
        ),
        reason_action(
            "ban_players_of_games",
            "Ban the players of the games",
            _ban_player_of,
            "ban_players",
        ),
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games start through the API only

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # every change is an action with a reason (moderation.services)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        open_flags = Flag.objects.filter(game=OuterRef("pk"), status=FlagStatus.OPEN)
        return super().get_queryset(request).annotate(has_open_flags=Exists(open_flags))

    @admin.display(description="player", ordering="player__display_name")
    def player_link(self, game: Game) -> str:
        if game.player_id is None:
            return "guest"
        url = reverse("admin:games_game_changelist") + f"?player={game.player_id}"
        return format_html('<a href="{}">{}</a>', url, game.player)

    @admin.display(description="open flags", boolean=True, ordering="has_open_flags")
    def open_flags(self, game: Game) -> bool:
        return bool(getattr(game, "has_open_flags", False))

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        game = None
        game_id = _row_id(object_id)
        if game_id is not None:
            game = (
                Game.objects.select_related("deal", "challenge", "player")
                .filter(pk=game_id)
                .first()
            )
        extra: dict[str, Any] = dict(extra_context or {})
        if game is not None:
            log = log_entries(game)
            gaps = [b.at_ms - a for a, b in zip([0, *[m.at_ms for m in log]], log, strict=False)]
            extra.update(
                moderation_game=game,
                flags=list(Flag.objects.filter(game=game).select_related("resolved_by")),
                reports=list(Report.objects.filter(game=game).select_related("reporter")),
                origin=GameOrigin.objects.filter(game=game).first(),
                cluster=_cluster(game),
                own_turned=len(turned_cards(game)),
                log_rows=list(zip(log, gaps, strict=True)),
                replay=replay_frames(game),
                day_void=moderation.void_of(game.challenge),
                can_moderate=self.has_moderate_games_permission(request),
                can_ban=self.has_ban_players_permission(request),
                action_checkbox_name=admin.helpers.ACTION_CHECKBOX_NAME,
                fast_move_ms=settings.MODERATION_FAST_MOVE_MS,
            )
        return super().change_view(request, object_id, form_url, extra)
