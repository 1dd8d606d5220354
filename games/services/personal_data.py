"""A player's games for the download of their data (accounts.signals.personal_data).

Every game with its whole move log. What the site never sends while it is secret stays
out here too: the server's position (it holds face-down cards) is never included, and a
daily's deal number only once its day has closed (``Game.is_public``).
"""

from __future__ import annotations

from typing import Any

from games.models import Game
from games.services.move_log import LogEntry, log_entries, logs_of


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def game_record(game: Game, log: list[LogEntry] | None = None) -> dict[str, Any]:
    public = game.is_public()
    return {
        "id": game.pk,
        "mode": game.mode,
        # started by a guest and taken by the account (at sign-up or a log-in)
        "played_as_guest": game.played_as_guest,
        "variant": game.deal.variant,
        "deal": str(game.deal.number) if public else None,
        "date": game.challenge.date.isoformat() if game.challenge else None,
        "tier": game.tier,
        "status": game.status,
        "verification": game.verification,
        "disqualified": game.disqualified,
        "score": game.score,
        "moves": game.moves,
        "ply": game.ply,
        "used_undo": game.used_undo,
        "hints_used": game.hints_used,
        "started_at": _iso(game.started_at),
        "finished_at": _iso(game.finished_at),
        "elapsed_ms": game.elapsed_ms,
        "verified_at": _iso(game.verified_at),
        "log": [
            {"ply": m.ply, "move": m.text, "turned": m.turned or None, "at_ms": m.at_ms}
            for m in (log_entries(game) if log is None else log)
        ],
    }


def player_games(user: Any) -> dict[str, Any]:
    """``{"games": [...]}``: every game of ``user``, oldest first, each with its log."""
    games = (
        Game.objects.filter(player=user)
        .select_related("deal", "challenge")
        .order_by("started_at", "pk")
    )
    logs = logs_of(game.pk for game in games)
    return {"games": [game_record(game, logs[game.pk]) for game in games]}
