"""The archive: closed days played again, unranked. Its boards, a player's calendar of
won / lost / not played, the monthly badges and the player's record.

Archive games never reach a daily board or a streak: those count ``mode = daily`` only
(``ranking.counts_q``). They count here, with the same verification rules: verified,
not disqualified, player not banned (``archive_counts_q``).
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections import defaultdict
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from apikit.errors import NotFound
from games.models import ChallengeTier, DailyChallenge, Game, Mode, Status, Tier, utc_today
from leaderboards import circles, day_board, ranking

# A month with every day won in one tier (daily or archive games) earns that tier's badge.
BADGE_NAMES = {
    Tier.EASY: "Klondike Month",
    Tier.MEDIUM: "Dawson Month",
    Tier.HARD: "Chilkoot Month",
}
RECENT_DAYS = 30


def archive_counts_q() -> Q:
    return Q(
        mode=Mode.ARCHIVE,
        verification="verified",
        disqualified=False,
        player__is_banned=False,
        challenge__isnull=False,
    )


def archive_board(
    challenge: DailyChallenge, *, page: int = 1, viewer_id: int | None = None
) -> day_board.Board:
    """A closed day's archive board: its archive games ranked by the daily board's rules."""
    games = Game.objects.filter(archive_counts_q(), challenge_id=challenge.pk)
    return circles.ranked_board(challenge, games, page=page, viewer_id=viewer_id)


def _record_q() -> Q:
    """A day's result on a player's record: a counted daily or a counted archive game, of
    the three daily tiers (the weekly challenge has its own board and streak)."""
    return (ranking.counts_q() | archive_counts_q()) & ranking.daily_tiers_q()


def day_states(
    player_id: int, start: dt.date, end: dt.date, *, own: bool = False
) -> dict[tuple[dt.date, str], str]:
    """(date, tier) -> "won", "lost" or "playing" (an archive game in progress), from the
    player's counted dailies and archive games; a day won either way is won. ``own``: read
    by the player, who alone sees a daily moderation holds ("held", unless an archive game
    won the day)."""
    states: dict[tuple[dt.date, str], str] = {}
    shown = _record_q() | Q(mode=Mode.ARCHIVE, status=Status.PLAYING)
    rows = Game.objects.filter(
        shown | ranking.held_for_review_q() if own else shown,
        player_id=player_id,
        challenge__date__gte=start,
        challenge__date__lte=end,
    ).values_list("challenge__date", "challenge__tier", "status", "held")
    order = {"won": 4, "held": 3, "lost": 2, "playing": 1}
    for date, tier, status, held in rows:
        if held:
            state = "held"
        elif status == Status.WON:
            state = "won"
        else:
            state = "playing" if status == Status.PLAYING else "lost"
        key = (date, tier)
        if order[state] > order.get(states.get(key, ""), 0):
            states[key] = state
    return states


def parse_month(text: str) -> tuple[int, int]:
    try:
        first = dt.date.fromisoformat(f"{text}-01")
    except ValueError:
        raise ValueError(_("%(text)s is not a month (YYYY-MM)") % {"text": repr(text)}) from None
    return first.year, first.month


def month_calendar(
    player_id: int, year: int, month: int, *, today: dt.date | None = None
) -> dict[str, Any]:
    """Every day of the month with, per tier, the player's state: ``won``, ``lost``,
    ``playing``, ``held`` (a daily moderation holds, told to its player), ``not_played``
    (a closed day with a challenge), ``open`` (today: play it as the daily) or null (no
    challenge, or a future day)."""
    today = today or utc_today()
    first = dt.date(year, month, 1)
    if first > today:
        raise NotFound(_("%(month)s has not started yet") % {"month": month_text(first)})
    last = first.replace(day=calendar.monthrange(year, month)[1])
    offered = set(
        DailyChallenge.objects.filter(date__gte=first, date__lte=last).values_list("date", "tier")
    )
    states = day_states(player_id, first, last, own=True)
    days = []
    for n in range(last.day):
        date = first + dt.timedelta(days=n)
        tiers: dict[str, str | None] = {}
        # The weekly too (null on a day that is not a Sunday): a closed Sunday's weekly is
        # played from the archive like any challenge.
        for tier in ChallengeTier.values:
            if (date, tier) not in offered or date > today:
                tiers[tier] = None
            elif date == today:
                tiers[tier] = states.get((date, tier), "open")
            else:
                tiers[tier] = states.get((date, tier), "not_played")
        days.append({"date": date, "tiers": tiers})
    # no month before the first challenge (nor before year 1): nothing to go back to
    earlier = DailyChallenge.objects.filter(date__lt=first).exists()
    following = last + dt.timedelta(days=1)
    return {
        "month": month_text(first),
        "days": days,
        "previous": month_text(first - dt.timedelta(days=1)) if earlier else None,
        "next": month_text(following) if following <= today else None,
        "badges": [b for b in badges_of(player_id) if b["month"] == month_text(first)],
    }


def month_text(date: dt.date) -> str:
    """YYYY-MM, the year in four digits (``strftime("%Y")`` gives "1" for year 1)."""
    return f"{date.year:04d}-{date.month:02d}"


def badges_of(player_id: int) -> list[dict[str, Any]]:
    """The player's monthly badges, newest first: one per month and tier in which every
    day of the month was won (a daily or an archive game)."""
    wins: dict[tuple[int, int, str], set[int]] = defaultdict(set)
    for date, tier in (
        Game.objects.filter(_record_q(), player_id=player_id, status=Status.WON)
        .values_list("challenge__date", "challenge__tier")
        .distinct()
    ):
        wins[(date.year, date.month, tier)].add(date.day)
    out = []
    for (year, month, tier), days in wins.items():
        if len(days) == calendar.monthrange(year, month)[1]:
            label = dt.date(year, month, 1).strftime("%B %Y")
            out.append(
                {
                    "tier": tier,
                    "month": month_text(dt.date(year, month, 1)),
                    "name": BADGE_NAMES[Tier(tier)],
                    "title": f"{BADGE_NAMES[Tier(tier)]}, {label}: every {tier} day won",
                }
            )
    out.sort(key=lambda b: (b["month"], Tier.values.index(b["tier"])), reverse=True)
    return out


def player_record(
    player_id: int, *, days: int = RECENT_DAYS, today: dt.date | None = None
) -> dict[str, Any]:
    """What the player page adds to the streaks and totals: per tier (dailies) played,
    won, win rate and best time; the archive's played and won; the last ``days`` days'
    states (for the calendar); the badges."""
    today = today or utc_today()
    per_tier: dict[str, dict[str, Any]] = {
        tier: {"played": 0, "wins": 0, "win_rate": 0.0, "best_time_ms": None}
        for tier in Tier.values
    }
    archive = {"played": 0, "wins": 0}
    rows = Game.objects.filter(_record_q(), player_id=player_id).values_list(
        "mode", "challenge__tier", "status", "elapsed_ms"
    )
    for mode, tier, status, elapsed in rows:
        won = status == Status.WON
        if mode == Mode.ARCHIVE:
            archive["played"] += 1
            archive["wins"] += won
            continue
        entry = per_tier[tier]
        entry["played"] += 1
        entry["wins"] += won
        if won and elapsed is not None:
            best = entry["best_time_ms"]
            entry["best_time_ms"] = elapsed if best is None else min(best, elapsed)
    for entry in per_tier.values():
        entry["win_rate"] = round(entry["wins"] / entry["played"], 4) if entry["played"] else 0.0
    start = today - dt.timedelta(days=days - 1)
    states = day_states(player_id, start, today)
    recent = [
        {
            "date": start + dt.timedelta(days=n),
            "tiers": {
                tier: states.get((start + dt.timedelta(days=n), tier)) for tier in Tier.values
            },
        }
        for n in range(days)
    ]
    return {"tiers": per_tier, "archive": archive, "recent": recent, "badges": badges_of(player_id)}
