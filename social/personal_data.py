"""What the leagues and follows hold about a player, for the download of their data
(accounts.signals.personal_data): their leagues and whom they follow (the league names
they reported are moderation's section: ``league_reports_made``)."""

from __future__ import annotations

from typing import Any

from social.models import Follow, Membership


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def player_social(user: Any) -> dict[str, Any]:
    memberships = Membership.objects.filter(player=user).select_related("league")
    return {
        "leagues": [
            {
                "league": m.league_id,
                "name": m.league.name,
                "owner": m.league.owner_id == user.pk,
                "joined_at": _iso(m.joined_at),
                "removed_at": _iso(m.removed_at),
                "closed_at": _iso(m.league.closed_at),
            }
            for m in memberships.order_by("joined_at", "pk")
        ],
        "following": [
            {"display_name": f.followed.display_name, "since": _iso(f.created_at)}
            for f in Follow.objects.filter(follower=user).select_related("followed").order_by("pk")
        ],
    }
