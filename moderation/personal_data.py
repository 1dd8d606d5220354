"""What moderation holds about a player, for the download of their data
(accounts.signals.personal_data): the flags raised on their games once a moderator has
closed them (an open flag is still being looked at), the reports they made (of games and
of league names), where their daily and archive games were started from (kept
``MODERATION_ORIGIN_DAYS``), the notices the moderators sent them and their appeals."""

from __future__ import annotations

from typing import Any

from moderation.models import Appeal, Flag, FlagStatus, GameOrigin, LeagueReport, Notice, Report


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def player_moderation(user: Any) -> dict[str, Any]:
    flags = (
        Flag.objects.filter(game__player=user)
        .exclude(status=FlagStatus.OPEN)
        .order_by("created_at", "pk")
    )
    reports = Report.objects.filter(reporter=user).order_by("created_at", "pk")
    league_reports = LeagueReport.objects.filter(reporter=user).order_by("created_at", "pk")
    origins = GameOrigin.objects.filter(game__player=user).order_by("created_at", "pk")
    notices = Notice.objects.filter(player=user).order_by("created_at", "pk")
    appeals = Appeal.objects.filter(player=user).order_by("created_at", "pk")
    return {
        "closed_flags": [
            {
                "game": flag.game_id,
                "kind": flag.kind,
                "reason": flag.reason,
                "measured": flag.measured,
                "status": flag.status,
                "raised_at": _iso(flag.created_at),
                "closed_at": _iso(flag.resolved_at),
                "resolution": flag.resolution,
            }
            for flag in flags
        ],
        "reports_made": [
            {
                "game": report.game_id,
                "reason": report.reason,
                "status": report.status,
                "made_at": _iso(report.created_at),
                "handled_at": _iso(report.handled_at),
            }
            for report in reports
        ],
        "league_reports_made": [
            {
                "league": report.league_id,
                "reported_name": report.reported_name,
                "reason": report.reason,
                "status": report.status,
                "created_at": _iso(report.created_at),
            }
            for report in league_reports
        ],
        "game_origins": [
            {
                "game": origin.game_id,
                "address": origin.address,
                "network": origin.network,
                "device": origin.device,
                "user_agent": origin.user_agent,
                "recorded_at": _iso(origin.created_at),
            }
            for origin in origins
        ],
        "moderation_notices": [
            {
                "game": notice.game_id,
                "kind": notice.kind,
                "text": notice.text,
                "sent_at": _iso(notice.created_at),
            }
            for notice in notices
        ],
        "appeals": [
            {
                "game": appeal.game_id,
                "reason": appeal.reason,
                "status": appeal.status,
                "made_at": _iso(appeal.created_at),
                "decided_at": _iso(appeal.decided_at),
                "decision": appeal.decision,
            }
            for appeal in appeals
        ],
    }
