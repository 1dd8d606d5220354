"""Boards for a circle of players (a league's members, the players one follows): the
daily board's own rules over the same rows, narrowed to the circle.

A circle's board is not a copy of the global one: it ranks the very games the global
board counts (``day_board.counted_games``, ``ranking.counts_q``) with the same ordering
(``ranking.rank_order``, ``RANK() OVER``), restricted to the circle's players. A circle
is small (a league holds at most ``LEAGUE_MAX_MEMBERS``), so PostgreSQL ranks it in one
query. The circle's players are first narrowed to those not banned, with their names
(``social.services.league_circle``, in the query that checks the reader's membership;
``unbanned_following``), so the ranking query needs no join to the user table
(``ranking.counts_q(unbanned_ids=...)``).

What is computed is kept in Redis (docs/leaderboards.md, "Leagues, follows and
circles": "Computed once, kept under the members' results"), never longer than it is
true. A value computed from a circle's results is kept under a digest of the circle
(``circle_key``: its players' ids and names, read afresh on every request) and of its
players' result counters (``store.results_version``: every result of a player added to
or taken off a board through the services raises the counter of the player's bucket, a
result of a closed day a second counter too, and every rebuild of a board raises an
epoch). So a member's new verified result, a disqualification or ban through the
services, a member who joins, leaves or is removed, a banned or renamed member: each
makes a new name, and the next read computes afresh; a result of anyone else leaves the
circle's values kept, however busy the global board.

- A circle's ranking on one day's board: every counted result of its players, in the
  board's order, with ranks. As the global board checks its page against PostgreSQL,
  the rows a circle's board shows are checked too (one query): a result that stopped
  counting behind the services' back makes the ranking computed again.
- Weekly and monthly points and streaks up to yesterday (the closed days), under the
  closed-day counters: a member's result of today leaves them kept. And the whole tables
  with today's part added. Moderation clears every value kept in Redis at once
  (``records.clear_cache``; a process's copy lives ``LEADERBOARD_ROWS_SECONDS`` more at
  most).

Weekly and monthly tables add points per day and tier from each member's rank among
the league that day (``POINTS``, docs/leaderboards.md "Leagues").
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import redis
from django.db.models import F, Window
from django.db.models.functions import Rank

from apikit.metrics import count_redis_fallback
from apikit.process_cache import ExpiringProcessCache
from games.models import DailyChallenge, Game, Status, Tier, tier_order, utc_today
from leaderboards import day_board, ranking, records, store

logger = logging.getLogger(__name__)

# Points for a day's result in one tier, by rank among the circle: 1st 10, 2nd 7,
# 3rd 5, 4th 3, 5th 2, any other counted result 1. Equal results share a rank, so share
# its points. Not playing scores nothing.
POINTS = (10, 7, 5, 3, 2)
PLAYED_POINTS = 1
# How long a kept value may live. Its name changes with any change to what it was
# computed from, so this bounds only the memory it holds.
RANKING_SECONDS = 600
PAST_SECONDS = 300


# What this process read or computed lately, by the same names as in Redis, for
# LEADERBOARD_ROWS_SECONDS: a busy league's page is read by many members at once, and each
# read would fetch and decode the same thousand-row values. A name changes with anything
# its value was computed from, and the check of the shown rows runs on every read (a
# value found stale is replaced here too), so a copy is as true as Redis's, except that
# a moderation's clear of Redis (records.clear_cache) reaches it only when it expires.
# Never changed once put: readers copy what they modify. Few, as the values are large.
process_copies = ExpiringProcessCache(size=32)


def points_for(rank: int) -> int:
    return POINTS[rank - 1] if rank <= len(POINTS) else PLAYED_POINTS


# Kept compact in Redis; a league board does not mark provisional results (yet).
_GAME_FIELDS = tuple(
    f for f in day_board._ROW_FIELDS if f not in ("player__display_name", "provisional")
)
# A kept ranking row: [game id, player id, status, score, elapsed ms, moves,
# finished at (ISO) or None, rank], in the board's listing order.
_ID, _PLAYER, _STATUS, _SCORE, _ELAPSED, _MOVES, _FINISHED, _RANK = range(8)


def circle_key(players: dict[int, str]) -> str:
    """A digest of the circle: its players (not banned) and their names."""
    text = "\n".join(f"{pid}\t{name}" for pid, name in sorted(players.items()))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _compute_ranking(challenge: DailyChallenge, players: dict[int, str]) -> list[list[Any]]:
    """Every counted result of the circle on ``challenge``'s board, ranked by PostgreSQL."""
    games = Game.objects.filter(
        ranking.counts_q(challenge.closes_at, unbanned_ids=list(players)),
        challenge_id=challenge.pk,
    )
    values = (
        games.annotate(rank=Window(Rank(), order_by=ranking.rank_order()))
        .order_by(*ranking.list_order())
        .values_list(*_GAME_FIELDS, "rank")
    )
    return [
        [gid, pid, status, score, ms, moves, finished.isoformat() if finished else None, rank]
        for gid, pid, status, score, ms, moves, finished, rank in values
    ]


@dataclass
class Circle:
    """A circle's players with where its computed values are kept: the Redis client (None
    when Redis is absent or down: everything is computed then) and ``results``, the
    version of the players' results (``store.results_version``), fetched once per request
    (None without Redis: nothing is kept then)."""

    players: dict[int, str]
    key: str
    r: redis.Redis | None
    results: str | None = None
    closed_results: str | None = None

    @classmethod
    def open(cls, players: dict[int, str]) -> Circle:
        circle = cls(players, circle_key(players), store.client())
        if circle.r is not None:
            try:
                epoch, total, closed = store.results_version(circle.r, players)
            except redis.RedisError as exc:
                circle.failed(exc)
            else:
                circle.results = f"{epoch}.{total}"
                circle.closed_results = f"{epoch}.{closed}"
        return circle

    def failed(self, exc: Exception) -> None:
        count_redis_fallback("league_cache")
        logger.warning("circle boards computed without Redis: %s", exc)
        self.r = None
        self.results = self.closed_results = None

    def name(self, kind: str, *parts: Any, closed_days: bool = False) -> str | None:
        """The name a value computed from the circle's results (``closed_days``: of closed
        days only) is kept under: ``kind``, ``parts`` (what else it was computed from), the
        circle and its results' version; None when nothing can be kept."""
        version = self.closed_results if closed_days else self.results
        if self.r is None or version is None:
            return None
        return ":".join(map(str, (kind, *parts, self.key, version)))

    def ranking_name(self, challenge_id: int) -> str | None:
        return self.name("circle", challenge_id)

    def get(self, names: Sequence[str | None]) -> list[Any]:
        """The kept values of ``names`` (None for each one not kept, or a None name): this
        process's copy first, then Redis (one round trip for the rest)."""
        out = [None if name is None else process_copies.get(name) for name in names]
        missing = {i: name for i, name in enumerate(names) if name is not None and out[i] is None}
        if self.r is None or not missing:
            return out
        try:
            found = store.cache_get_many(self.r, list(missing.values()))
        except redis.RedisError as exc:
            self.failed(exc)
            return out
        for (i, name), value in zip(missing.items(), found, strict=True):
            out[i] = value
            if value is not None:
                process_copies.put(name, value)
        return out

    def put(self, values: dict[str | None, Any], seconds: int) -> None:
        kept = {name: value for name, value in values.items() if name is not None}
        for name, value in kept.items():
            process_copies.put(name, value)
        if self.r is None or not kept:
            return
        try:
            pipe = self.r.pipeline(transaction=False)
            for name, value in kept.items():
                pipe.set(store.cache_key(name), store.encode(value), ex=seconds)
            pipe.execute()
        except redis.RedisError as exc:
            logger.warning("could not keep circle boards: %s", exc)


def rankings(
    circle: Circle, challenges: Sequence[DailyChallenge], *also: str | None
) -> tuple[dict[int, list[list[Any]]], list[Any]]:
    """Per challenge id, the circle's ranking on that board (kept rows, see above); and
    the kept values of ``also``, read in the same round trip."""
    names = [circle.ranking_name(c.pk) for c in challenges]
    found = circle.get([*names, *also])
    out: dict[int, list[list[Any]]] = {}
    fresh: dict[str | None, Any] = {}
    for challenge, name, kept in zip(challenges, names, found, strict=False):
        rows = kept
        if rows is None:
            rows = _compute_ranking(challenge, circle.players)
            fresh[name] = rows
        out[challenge.pk] = rows
    circle.put(fresh, RANKING_SECONDS)
    return out, found[len(names) :]


def _checked(
    circle: Circle,
    challenges: Sequence[DailyChallenge],
    kept: dict[int, list[list[Any]]],
    shown: dict[int, list[list[Any]]],
) -> tuple[dict[int, list[list[Any]]], bool]:
    """(``kept`` with any ranking whose shown rows no longer all count computed afresh
    and kept again, whether any was): the check the global board makes of its page
    (one query)."""
    ids = {row[_ID] for rows in shown.values() for row in rows}
    if not ids:
        return kept, False
    counting = set(Game.objects.filter(ranking.counts_q(), pk__in=ids).values_list("id", flat=True))
    stale = [c for c in challenges if any(row[_ID] not in counting for row in shown[c.pk])]
    if not stale:
        return kept, False
    fixed = dict(kept)
    fresh: dict[str | None, Any] = {}
    for challenge in stale:
        fixed[challenge.pk] = _compute_ranking(challenge, circle.players)
        fresh[circle.ranking_name(challenge.pk)] = fixed[challenge.pk]
    circle.put(fresh, RANKING_SECONDS)
    return fixed, True


def _row(kept: list[Any], names: dict[int, str]) -> day_board.Row:
    finished = kept[_FINISHED]
    return day_board.Row(
        rank=kept[_RANK],
        game_id=kept[_ID],
        player_id=kept[_PLAYER],
        display_name=names[kept[_PLAYER]],
        won=kept[_STATUS] == Status.WON,
        status=kept[_STATUS],
        score=kept[_SCORE],
        elapsed_ms=kept[_ELAPSED],
        moves=kept[_MOVES],
        finished_at=dt.datetime.fromisoformat(finished) if finished else None,
    )


def _shown(
    rows: list[list[Any]], page: int, viewer_id: int | None, player: int = _PLAYER
) -> list[list[Any]]:
    """Page ``page`` of ``rows`` (compact rows with the player id at ``player``), then
    the viewer's own rows that are not on it."""
    offset = (page - 1) * day_board.PAGE_SIZE
    out = rows[offset : offset + day_board.PAGE_SIZE]
    return out + [row for row in rows if row[player] == viewer_id and row not in out]


def _board(
    challenge: DailyChallenge,
    rows: list[list[Any]],
    players: dict[int, str],
    page: int,
    viewer_id: int | None,
) -> day_board.Board:
    count = len(rows)
    day_board._check_page(page, count)
    offset = (page - 1) * day_board.PAGE_SIZE
    shown = [_row(row, players) for row in rows[offset : offset + day_board.PAGE_SIZE]]
    me = next((row for row in shown if row.player_id == viewer_id), None)
    if me is None and viewer_id is not None:
        mine = next((row for row in rows if row[_PLAYER] == viewer_id), None)
        me = _row(mine, players) if mine is not None else None
    return day_board.Board(challenge, shown, count, offset, page, me, "postgres")


def circle_boards(
    challenges: Sequence[DailyChallenge],
    players: dict[int, str],
    *,
    page: int = 1,
    viewer_id: int | None = None,
    circle: Circle | None = None,
    also: Sequence[str | None] = (),
) -> tuple[dict[int, tuple[day_board.Board, list[list[Any]]]], list[Any]]:
    """Per challenge id: a page of its board among ``players`` (not banned), ranks 1..
    within the circle by the board's rules over the board's own rows; and the whole
    ranking (kept rows) it was cut from. Then the kept values of ``also``."""
    circle = circle or Circle.open(players)
    kept, found = rankings(circle, challenges, *also)
    for challenge in challenges:  # a page past the end: 404 before any check
        day_board._check_page(page, len(kept[challenge.pk]))
    shown = {c.pk: _shown(kept[c.pk], page, viewer_id) for c in challenges}
    kept, stale = _checked(circle, challenges, kept, shown)
    boards = {
        c.pk: (_board(c, kept[c.pk], players, page, viewer_id), kept[c.pk]) for c in challenges
    }
    # What was kept with a ranking found stale was computed from it: not to be used.
    return boards, [None] * len(found) if stale else found


def circle_board(
    challenge: DailyChallenge,
    players: dict[int, str],
    *,
    page: int = 1,
    viewer_id: int | None = None,
) -> day_board.Board:
    """A page of ``challenge``'s board among ``players`` (not banned)."""
    boards, _ = circle_boards([challenge], players, page=page, viewer_id=viewer_id)
    return boards[challenge.pk][0]


def ranked_board(
    challenge: DailyChallenge,
    games: Any,
    *,
    page: int = 1,
    viewer_id: int | None = None,
) -> day_board.Board:
    """A page of ``games`` (of one challenge) ranked by the board's rules in PostgreSQL."""
    values = list(
        games.annotate(rank=Window(Rank(), order_by=ranking.rank_order()))
        .order_by(*ranking.list_order())
        .values(*day_board._ROW_FIELDS, "rank")
    )
    rows = [day_board._row(v, v["rank"]) for v in values]
    count = len(rows)
    offset = (page - 1) * day_board.PAGE_SIZE
    day_board._check_page(page, count)
    me = next((row for row in rows if row.player_id == viewer_id), None)
    shown = rows[offset : offset + day_board.PAGE_SIZE]
    return day_board.Board(challenge, shown, count, offset, page, me, "postgres")


# ----- today's standings, weekly and monthly points, streaks -----------------------------


def week_of(day: dt.date) -> tuple[dt.date, dt.date]:
    """Monday to Sunday (ISO week) around ``day``."""
    monday = day - dt.timedelta(days=day.weekday())
    return monday, monday + dt.timedelta(days=6)


def month_of(day: dt.date) -> tuple[dt.date, dt.date]:
    first = day.replace(day=1)
    following = (first + dt.timedelta(days=32)).replace(day=1)
    return first, following - dt.timedelta(days=1)


def _period_ranks(players: dict[int, str], start: dt.date, end: dt.date) -> list[tuple[Any, ...]]:
    """(player id, status, rank, date) of every counted daily of the circle from
    ``start`` to ``end`` (inclusive), ranked among the circle on its own board: one
    query, RANK() partitioned by challenge."""
    return list(
        Game.objects.filter(
            ranking.counts_q(unbanned_ids=list(players)),
            challenge__date__gte=start,
            challenge__date__lte=end,
        )
        .annotate(
            rank=Window(Rank(), partition_by=[F("challenge_id")], order_by=ranking.rank_order())
        )
        .values_list("player_id", "status", "rank", "challenge__date")
    )


def _past(players: dict[int, str], today: dt.date) -> dict[str, Any]:
    """The circle's closed days (before ``today``): per player, week and month points,
    played and wins, [points, played, wins] each; and their streak up to yesterday,
    [last win (ISO) or None, run ending on it, best]."""
    week_start, month_start = week_of(today)[0], month_of(today)[0]
    yesterday = today - dt.timedelta(days=1)
    start = min(week_start, month_start)
    week: dict[int, list[int]] = {}
    month: dict[int, list[int]] = {}
    if start <= yesterday:
        for pid, status, rank, date in _period_ranks(players, start, yesterday):
            won = int(status == Status.WON)
            for table, first in ((week, week_start), (month, month_start)):
                if date >= first:
                    row = table.setdefault(pid, [0, 0, 0])
                    row[0] += points_for(rank)
                    row[1] += 1
                    row[2] += won
    dates: dict[int, list[dt.date]] = defaultdict(list)
    for pid, date in (
        Game.objects.filter(
            ranking.counts_q(unbanned_ids=list(players)),
            ranking.daily_tiers_q(),  # the weekly has its own streak
            status=Status.WON,
            challenge__date__lt=today,
        )
        .values_list("player_id", "challenge__date")
        .distinct()
    ):
        dates[pid].append(date)
    streaks = {}
    for pid, days in dates.items():
        last = max(days)
        streak = records.streak_of(days, last)  # the run ending on its last win
        streaks[pid] = [last.isoformat(), streak.current, streak.best]
    return {"week": week, "month": month, "streaks": streaks}


def _kept_past(circle: Circle, today: dt.date) -> dict[str, Any]:
    """``_past`` as kept (JSON: player ids are text)."""
    name = circle.name("circle-past", today.isoformat(), closed_days=True)
    (found,) = circle.get([name])
    if found is None:
        found = orjson.loads(store.encode(_past(circle.players, today)))
        circle.put({name: found}, PAST_SECONDS)
    return dict(found)


def _ranked(rows: list[list[Any]], order: Any, tie: Any) -> list[list[Any]]:
    """``rows`` sorted by ``order`` with a competition rank appended: equal ``tie`` keys
    share a rank (1, 2, 2, 4)."""
    rows.sort(key=order)
    previous: Any = object()
    rank = 0
    for index, row in enumerate(rows):
        if tie(row) != previous:
            rank = index + 1
        previous = tie(row)
        row.append(rank)
    return rows


def league_tables(
    circle: Circle,
    today: dt.date,
    today_rankings: dict[int, list[list[Any]]],
    daily_ids: set[int],
) -> dict[str, list[list[Any]]]:
    """{week, month, streaks} of the circle: the closed days' part (kept) plus today's,
    from today's rankings, as compact rows (``table_rows`` makes them answers): week and
    month [player, points, played, wins, rank], most points first, then wins (equal on
    both share a rank), members who played nothing in the period left out; streaks
    [player, current, best, last win or None, rank] of every member, longest current
    streak first."""
    players = circle.players
    past = _kept_past(circle, today)
    week = {int(pid): list(v) for pid, v in past["week"].items()}
    month = {int(pid): list(v) for pid, v in past["month"].items()}
    past_streaks = {int(pid): v for pid, v in past["streaks"].items()}
    won_today = set()
    for challenge_id, rows in today_rankings.items():
        daily = challenge_id in daily_ids
        for row in rows:
            pid = row[_PLAYER]
            won = row[_STATUS] == Status.WON
            for table in (week, month):
                totals = table.setdefault(pid, [0, 0, 0])
                totals[0] += points_for(row[_RANK])
                totals[1] += 1
                totals[2] += int(won)
            if won and daily:  # the weekly has its own streak
                won_today.add(pid)
    yesterday = today - dt.timedelta(days=1)
    streaks = []
    for pid in players:
        last_text, run, best = past_streaks.get(pid, (None, 0, 0))
        last = dt.date.fromisoformat(last_text) if last_text else None
        if pid in won_today:
            run = run + 1 if last == yesterday else 1
            best = max(best, run)
            last = today
        current = run if last is not None and today - last <= dt.timedelta(days=1) else 0
        streaks.append([pid, current, best, last.isoformat() if last else None])

    def points(totals: dict[int, list[int]]) -> list[list[Any]]:
        return _ranked(
            [[pid, *values] for pid, values in totals.items()],
            lambda r: (-r[1], -r[3], players[r[0]].lower()),
            lambda r: (r[1], r[3]),
        )

    return {
        "week": points(week),
        "month": points(month),
        "streaks": _ranked(
            streaks, lambda r: (-r[1], -r[2], players[r[0]].lower()), lambda r: r[1]
        ),
    }


def table_rows(
    tables: dict[str, list[list[Any]]],
    players: dict[int, str],
    *,
    page: int = 1,
    viewer_id: int | None = None,
) -> dict[str, Any]:
    """Page ``page`` of each of ``league_tables``' compact tables as answer rows (new
    dicts; the serializers mark the viewer's ``me``), the viewer's own row added after it
    when not on it; and ``pages``, the longest table's page count (404 past it)."""
    longest = max(len(rows) for rows in tables.values())
    day_board._check_page(page, longest)

    def cut(rows: list[list[Any]], fields: tuple[str, ...]) -> list[dict[str, Any]]:
        return [
            {
                "display_name": players[row[0]],
                **dict(zip(fields, row[1:], strict=True)),
            }
            for row in _shown(rows, page, viewer_id, player=0)
        ]

    return {
        "week": cut(tables["week"], _POINTS_FIELDS),
        "month": cut(tables["month"], _POINTS_FIELDS),
        "streaks": cut(tables["streaks"], _STREAK_FIELDS),
        "counts": {name: len(rows) for name, rows in tables.items()},
        "pages": day_board.page_count(longest),
    }


# The fields of ``league_tables``' compact rows after the player id.
_POINTS_FIELDS = ("points", "played", "wins", "rank")
_STREAK_FIELDS = ("current_streak", "best_streak", "last_win", "rank")


def league_page(
    players: dict[int, str],
    *,
    viewer_id: int | None,
    today: dt.date | None = None,
    page: int = 1,
) -> dict[str, Any]:
    """Everything a league's page shows: today's standings per tier (tier ->
    {challenge, board}, their first page), and page ``page`` of the week's and month's
    tables and the members' streaks (``table_rows``), kept whole under the circle's
    results and today's challenges."""
    today = today or utc_today()
    todays = DailyChallenge.of_day(today)
    circle = Circle.open(players)
    # Today's challenges are named: a challenge made later in the day (the weekly's) adds
    # a board to the tables.
    name = circle.name("circle-tables", today.isoformat(), *sorted(c.pk for c in todays))
    boards, (tables,) = circle_boards(
        todays, players, viewer_id=viewer_id, circle=circle, also=[name]
    )
    if tables is None:
        today_rankings = {pk: rows for pk, (_, rows) in boards.items()}
        daily_ids = {c.pk for c in todays if c.tier in Tier.values}
        tables = league_tables(circle, today, today_rankings, daily_ids)
        circle.put({name: tables}, PAST_SECONDS)
    return {
        "today": {c.tier: {"challenge": c, "board": boards[c.pk][0]} for c in todays},
        **table_rows(tables, players, page=page, viewer_id=viewer_id),
    }


def today_standings(
    players: dict[int, str],
    *,
    viewer_id: int | None,
    day: dt.date | None = None,
    challenges: Sequence[DailyChallenge] | None = None,
) -> dict[str, dict[str, Any]]:
    """The circle's board in each tier of ``day`` (today): tier -> (challenge, board)."""
    if challenges is None:
        challenges = DailyChallenge.of_day(day or utc_today())
    boards, _ = circle_boards(challenges, players, viewer_id=viewer_id)
    ordered = sorted(challenges, key=lambda c: tier_order(c.tier))
    return {c.tier: {"challenge": c, "board": boards[c.pk][0]} for c in ordered}
