"""Boards for a circle of players (a league's members, the players one follows): the
daily board's own rules over the same rows, narrowed to the circle.

A circle's board is not a copy of the global one: it ranks the very games the global
board counts (``day_board.counted_games``, ``ranking.counts_q``) with the same ordering
(``ranking.rank_order``, ``RANK() OVER``), restricted to the circle's players. A circle
is small (a league holds at most ``LEAGUE_MAX_MEMBERS``), so PostgreSQL ranks it in one
query (the members' games by the player index); no Redis set of its own that could drift.
The circle's players are first narrowed to those not banned, with their names
(``social.services.unbanned_members``, one query), so the ranking query needs no join
to the user table (``ranking.counts_q(unbanned_ids=...)``): the same rules, without
PostgreSQL scanning every player of a big day to check 1,000 of them.

Weekly and monthly tables add points per day and tier from each member's rank among
the league that day (``POINTS``, docs/leaderboards.md "Leagues").
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from django.db.models import F, Window
from django.db.models.functions import Rank

from games.models import DailyChallenge, Game, Status, tiers_of, utc_today
from leaderboards import day_board, ranking, records

# Points for a day's result in one tier, by rank among the circle: 1st 10, 2nd 7,
# 3rd 5, 4th 3, 5th 2, any other counted result 1. Equal results share a rank, so share
# its points. Not playing scores nothing.
POINTS = (10, 7, 5, 3, 2)
PLAYED_POINTS = 1


def points_for(rank: int) -> int:
    return POINTS[rank - 1] if rank <= len(POINTS) else PLAYED_POINTS


_GAME_FIELDS = tuple(f for f in day_board._ROW_FIELDS if f != "player__display_name")


def circle_board(
    challenge: DailyChallenge,
    players: dict[int, str],
    *,
    page: int = 1,
    viewer_id: int | None = None,
) -> day_board.Board:
    """A page of ``challenge``'s board among ``players`` (not banned): ranks 1.. within
    the circle, by the board's rules over the board's own rows."""
    games = Game.objects.filter(
        ranking.counts_q(challenge.closes_at, unbanned_ids=list(players)),
        challenge_id=challenge.pk,
    )
    return ranked_board(challenge, games, page=page, viewer_id=viewer_id, names=players)


def ranked_board(
    challenge: DailyChallenge,
    games: Any,
    *,
    page: int = 1,
    viewer_id: int | None = None,
    names: dict[int, str] | None = None,
) -> day_board.Board:
    """A page of ``games`` (of one challenge) ranked by the board's rules in PostgreSQL;
    display names from ``names`` when given (else joined)."""
    fields = _GAME_FIELDS if names is not None else day_board._ROW_FIELDS
    values = list(
        games.annotate(rank=Window(Rank(), order_by=ranking.rank_order()))
        .order_by(*ranking.list_order())
        .values(*fields, "rank")
    )
    if names is not None:
        for v in values:
            v["player__display_name"] = names[v["player_id"]]
    rows = [day_board._row(v, v["rank"]) for v in values]
    count = len(rows)
    offset = (page - 1) * day_board.PAGE_SIZE
    day_board._check_page(page, count)
    me = next((row for row in rows if row.player_id == viewer_id), None)
    shown = rows[offset : offset + day_board.PAGE_SIZE]
    return day_board.Board(challenge, shown, count, offset, page, me, "postgres")


def _period_ranks(players: dict[int, str], start: dt.date, end: dt.date) -> list[dict[str, Any]]:
    """Every counted daily of the circle from ``start`` to ``end`` (inclusive), with its
    rank among the circle on its own board: one query, RANK() partitioned by challenge."""
    return list(
        Game.objects.filter(
            ranking.counts_q(unbanned_ids=list(players)),
            challenge__date__gte=start,
            challenge__date__lte=end,
        )
        .annotate(
            rank=Window(Rank(), partition_by=[F("challenge_id")], order_by=ranking.rank_order())
        )
        .values("player_id", "status", "rank", "challenge__date")
    )


def points_tables(
    players: dict[int, str], periods: list[tuple[dt.date, dt.date]]
) -> list[list[dict[str, Any]]]:
    """Members' points in each period (start, end inclusive), from one query over them all:
    most points first, then wins; equal on both share a rank. Members who played nothing
    in a period are left out of its table."""
    ranked = _period_ranks(players, min(p[0] for p in periods), max(p[1] for p in periods))
    tables = []
    for start, end in periods:
        totals: dict[int, dict[str, Any]] = {}
        for g in ranked:
            if not start <= g["challenge__date"] <= end:
                continue
            row = totals.setdefault(
                g["player_id"],
                {"display_name": players[g["player_id"]], "points": 0, "played": 0, "wins": 0},
            )
            row["points"] += points_for(g["rank"])
            row["played"] += 1
            row["wins"] += g["status"] == Status.WON
        rows = sorted(
            totals.values(), key=lambda r: (-r["points"], -r["wins"], r["display_name"].lower())
        )
        records.competition_ranks(rows, lambda r: (r["points"], r["wins"]))
        tables.append(rows)
    return tables


def week_of(day: dt.date) -> tuple[dt.date, dt.date]:
    """Monday to Sunday (ISO week) around ``day``."""
    monday = day - dt.timedelta(days=day.weekday())
    return monday, monday + dt.timedelta(days=6)


def month_of(day: dt.date) -> tuple[dt.date, dt.date]:
    first = day.replace(day=1)
    following = (first + dt.timedelta(days=32)).replace(day=1)
    return first, following - dt.timedelta(days=1)


def circle_streaks(players: dict[int, str], today: dt.date) -> list[dict[str, Any]]:
    """Current and best streaks of the circle's members (the streak board's rules), every
    member listed, longest current streak first."""
    dates: dict[int, list[dt.date]] = defaultdict(list)
    for pid, date in (
        Game.objects.filter(
            ranking.counts_q(unbanned_ids=list(players)),
            ranking.daily_tiers_q(),
            status=Status.WON,
        )
        .values_list("player_id", "challenge__date")
        .distinct()
    ):
        dates[pid].append(date)
    rows: list[dict[str, Any]] = []
    for pid, name in players.items():
        streak = records.streak_of(dates.get(pid, []), today)
        rows.append(
            {
                "display_name": name,
                "current_streak": streak.current,
                "best_streak": streak.best,
                "last_win": streak.last_win.isoformat() if streak.last_win else None,
            }
        )
    rows.sort(key=lambda r: (-r["current_streak"], -r["best_streak"], r["display_name"].lower()))
    records.competition_ranks(rows, lambda r: r["current_streak"])
    return rows


def today_standings(
    players: dict[int, str], *, viewer_id: int | None, day: dt.date | None = None
) -> dict[str, dict[str, Any]]:
    """The circle's board in each tier of ``day`` (today): tier -> (challenge, board)."""
    day = day or utc_today()
    out: dict[str, dict[str, Any]] = {}
    for challenge in DailyChallenge.of_day(day):
        board = circle_board(challenge, players, viewer_id=viewer_id)
        out[challenge.tier] = {"challenge": challenge, "board": board}
    return {tier: out[tier] for tier in tiers_of(day) if tier in out}
