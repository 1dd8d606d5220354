"""Records over many days, computed from PostgreSQL: streaks, all-time and 30-day boards,
player pages.

These aggregate over many boards, so they are computed in one or two queries and the
finished list is kept in Redis for ``CACHE_SECONDS`` (moderation clears it at once).
Without Redis they are computed on every request: slower, still correct.
"""

from __future__ import annotations

import datetime as dt
import itertools
import logging
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import redis
from django.db.models import Avg, Count, Max, Min, Q
from django.utils.translation import gettext as _

from accounts.models import User, no_player_called
from apikit.errors import NotFound
from apikit.metrics import count_redis_fallback
from games import daily
from games.models import OPEN_DAY_MODES, WEEKLY, Game, Mode, Status, Tier, tiers_of, utc_today
from leaderboards import ranking, store

logger = logging.getLogger(__name__)

CACHE_SECONDS = 60
T = TypeVar("T")
PAGE_SIZE = 50
HISTORY_PAGE_SIZE = 30
RECENT_DAYS = 30
PERIODS = ("all", "30d")


def counted() -> Any:
    """The daily tiers' counted games: the weekly challenge has its own board and streak,
    and stays out of the daily streak, the all-time boards and the player's totals."""
    return Game.objects.filter(ranking.counts_q(), ranking.daily_tiers_q())


def cached(
    name: str,
    compute: Callable[[], T],
    *,
    seconds: int = CACHE_SECONDS,
    what: str = "leaderboard",
) -> T:
    """``compute()``, kept in Redis as ``name`` for ``seconds`` (computed each time without
    Redis, or when it fails: counted as a ``{what}_cache`` fallback)."""
    r = store.client()
    if r is not None:
        try:
            found = store.cache_get(r, name)
            if found is not None:
                return cast(T, found)
        except redis.RedisError as exc:
            count_redis_fallback(f"{what}_cache")
            logger.warning("%s cache unavailable, computing %s: %s", what, name, exc)
            return compute()
    value = compute()
    if r is not None:
        try:
            store.cache_set(r, name, value, seconds)
        except redis.RedisError as exc:
            logger.warning("%s cache unavailable: %s", what, exc)
    return value


def clear_cache() -> None:
    r = store.client()
    if r is not None:
        try:
            store.cache_clear(r)
        except redis.RedisError as exc:
            logger.warning("could not clear the leaderboard cache: %s", exc)


def paginate(rows: list[dict[str, Any]], page: int, size: int = PAGE_SIZE) -> list[dict[str, Any]]:
    if page > 1 and (page - 1) * size >= len(rows):
        pages = max(1, -(-len(rows) // size))
        raise NotFound(
            _("page %(page)s does not exist: this board has %(pages)s page(s)")
            % {"page": page, "pages": pages}
        )
    return rows[(page - 1) * size : page * size]


def competition_ranks(rows: list[dict[str, Any]], key: Callable[[dict[str, Any]], Any]) -> None:
    """Set ``rank`` on rows already in order: equal keys share a rank (1, 2, 2, 4)."""
    previous: Any = object()
    rank = 0
    for index, row in enumerate(rows):
        current = key(row)
        if current != previous:
            rank = index + 1
        previous = current
        row["rank"] = rank


# ----- streaks -------------------------------------------------------------------------


@dataclass(frozen=True)
class Streak:
    current: int
    best: int
    last_win: dt.date | None


def streak_of(dates: list[dt.date], today: dt.date) -> Streak:
    """Runs of consecutive UTC days with a won daily. A run is still current when its
    last day is today or yesterday (today's challenge may not be played yet)."""
    if not dates:
        return Streak(0, 0, None)
    days = sorted(set(dates))
    best = run = 1
    for before, after in itertools.pairwise(days):
        run = run + 1 if after - before == dt.timedelta(days=1) else 1
        best = max(best, run)
    current = run if today - days[-1] <= dt.timedelta(days=1) else 0
    return Streak(current, best, days[-1])


def weekly_streak_of(dates: list[dt.date], today: dt.date) -> Streak:
    """Runs of consecutive Sundays with the weekly challenge won. A run is still current
    when its last Sunday is at most a week ago (this Sunday's may not be played yet)."""
    if not dates:
        return Streak(0, 0, None)
    days = sorted(set(dates))
    best = run = 1
    for before, after in itertools.pairwise(days):
        run = run + 1 if after - before == dt.timedelta(days=7) else 1
        best = max(best, run)
    current = run if today - days[-1] <= dt.timedelta(days=7) else 0
    return Streak(current, best, days[-1])


def weekly_win_dates(player_id: int) -> list[dt.date]:
    """The Sundays on which the player won the weekly challenge (counted like any board)."""
    return list(
        Game.objects.filter(
            ranking.counts_q(), player_id=player_id, challenge__tier=WEEKLY, status=Status.WON
        )
        .values_list("challenge__date", flat=True)
        .distinct()
    )


def weekly_streak(player_id: int, today: dt.date) -> dict[str, Any]:
    streak = weekly_streak_of(weekly_win_dates(player_id), today)
    return {"current": streak.current, "best": streak.best, "last_win": streak.last_win}


def _win_dates(player_id: int | None = None) -> dict[int, list[dt.date]]:
    games = counted().filter(status=Status.WON)
    if player_id is not None:
        games = games.filter(player_id=player_id)
    out: dict[int, list[dt.date]] = defaultdict(list)
    for pid, date in games.values_list("player_id", "challenge__date").distinct():
        out[pid].append(date)
    return out


def streak_board(today: dt.date | None = None) -> list[dict[str, Any]]:
    today = today or utc_today()

    def compute() -> list[dict[str, Any]]:
        streaks = {pid: streak_of(dates, today) for pid, dates in _win_dates().items()}
        live = {pid: s for pid, s in streaks.items() if s.current > 0}
        names = dict(User.objects.filter(pk__in=list(live)).values_list("pk", "display_name"))
        rows: list[dict[str, Any]] = [
            {
                "display_name": names.get(pid, "?"),
                "current_streak": s.current,
                "best_streak": s.best,
                "last_win": s.last_win.isoformat() if s.last_win else None,
            }
            for pid, s in live.items()
        ]
        rows.sort(
            key=lambda row: (
                -row["current_streak"],
                -row["best_streak"],
                row["display_name"].lower(),
            )
        )
        competition_ranks(rows, lambda row: row["current_streak"])
        return rows

    return cached(f"streaks:{today.isoformat()}", compute)


# ----- all time, last 30 days ----------------------------------------------------------


def _best_time_fields() -> dict[str, Any]:
    return {
        f"best_ms_{tier}": Min("elapsed_ms", filter=Q(status=Status.WON, challenge__tier=tier))
        for tier in Tier.values
    }


def _best_times(values: dict[str, Any]) -> dict[str, int | None]:
    return {tier: values[f"best_ms_{tier}"] for tier in Tier.values}


def alltime_board(period: str = "all", today: dt.date | None = None) -> list[dict[str, Any]]:
    """Wins, win rate, average score and best time per tier of every player; ordered by
    wins, then win rate, then average score (equal on all three share a rank)."""
    today = today or utc_today()

    def compute() -> list[dict[str, Any]]:
        games = counted()
        if period == "30d":
            games = games.filter(challenge__date__gt=today - dt.timedelta(days=RECENT_DAYS))
        aggregated = (
            games.values("player_id", "player__display_name")
            .annotate(
                played=Count("id"),
                wins=Count("id", filter=Q(status=Status.WON)),
                average=Avg("score"),
                **_best_time_fields(),
            )
            .order_by()
        )
        rows: list[dict[str, Any]] = [
            {
                "display_name": v["player__display_name"],
                "played": v["played"],
                "wins": v["wins"],
                "win_rate": round(v["wins"] / v["played"], 4) if v["played"] else 0.0,
                "average_score": round(float(v["average"] or 0), 1),
                "best_time_ms": _best_times(v),
            }
            for v in aggregated
        ]
        rows.sort(
            key=lambda row: (
                -row["wins"],
                -row["win_rate"],
                -row["average_score"],
                row["display_name"].lower(),
            )
        )
        competition_ranks(rows, lambda row: (row["wins"], row["win_rate"], row["average_score"]))
        return rows

    return cached(f"alltime:{period}:{today.isoformat()}", compute)


# ----- player page ---------------------------------------------------------------------


def player_profile(
    name: str, *, page: int = 1, viewer_id: int | None = None, today: dt.date | None = None
) -> dict[str, Any]:
    """History of dailies (newest first, paginated), streak, totals and personal bests."""
    today = today or utc_today()
    user = User.named(name)
    if user is None:
        raise NotFound(no_player_called(name))
    games = counted().filter(player_id=user.pk)
    totals = games.aggregate(
        played=Count("id"),
        wins=Count("id", filter=Q(status=Status.WON)),
        average=Avg("score"),
        **{
            f"best_score_{tier}": Max("score", filter=Q(challenge__tier=tier))
            for tier in Tier.values
        },
        **{
            f"fewest_moves_{tier}": Min("moves", filter=Q(status=Status.WON, challenge__tier=tier))
            for tier in Tier.values
        },
        **_best_time_fields(),
    )
    streak = streak_of(_win_dates(user.pk).get(user.pk, []), today)
    played = totals["played"] or 0
    own = viewer_id == user.pk
    shown = ranking.counts_q() | _kept_guest_games_q()
    listed = Game.objects.filter(
        shown | ranking.held_for_review_q() if own else shown,
        ranking.daily_tiers_q(),
        player_id=user.pk,
    )
    history_count = listed.count()
    if page > 1 and (page - 1) * HISTORY_PAGE_SIZE >= history_count:
        pages = max(1, -(-history_count // HISTORY_PAGE_SIZE))
        raise NotFound(
            _("page %(page)s does not exist: this history has %(pages)s page(s)")
            % {"page": page, "pages": pages}
        )
    start = (page - 1) * HISTORY_PAGE_SIZE
    history = list(
        # A guest's game and the player's own daily of the same challenge: the daily first.
        listed.order_by("-challenge__date", "challenge__tier", "mode", "id").values(
            "id",
            "mode",
            "challenge_id",
            "challenge__date",
            "challenge__tier",
            "status",
            "score",
            "elapsed_ms",
            "moves",
            "finished_at",
            "held",
        )[start : start + HISTORY_PAGE_SIZE]
    )
    ranks = _board_ranks(history)
    return {
        "display_name": user.display_name,
        "joined": user.date_joined.date().isoformat(),
        "current_streak": streak.current,
        "best_streak": streak.best,
        "last_win": streak.last_win.isoformat() if streak.last_win else None,
        "weekly_streak": weekly_streak(user.pk, today),
        "played": played,
        "wins": totals["wins"] or 0,
        "win_rate": round(totals["wins"] / played, 4) if played else 0.0,
        "average_score": round(float(totals["average"] or 0), 1),
        "personal_bests": {
            tier: {
                "best_score": totals[f"best_score_{tier}"],
                "best_time_ms": totals[f"best_ms_{tier}"],
                "fewest_moves": totals[f"fewest_moves_{tier}"],
            }
            for tier in Tier.values
        },
        "count": history_count,
        "page": page,
        "pages": max(1, -(-history_count // HISTORY_PAGE_SIZE)),
        "games": [
            {
                "game_id": g["id"],
                "date": g["challenge__date"],
                "tier": g["challenge__tier"],
                "status": g["status"],
                "won": g["status"] == Status.WON,
                "score": g["score"],
                "elapsed_ms": g["elapsed_ms"],
                "moves": g["moves"],
                "finished_at": g["finished_at"],
                "guest": g["mode"] == Mode.GUEST,
                # told to its player alone (a guest's kept game may be held too)
                "held": own and g["held"],
                "rank": rank,
                "replay_url": f"/replay/{g['id']}/"
                if own or g["challenge__date"] < today
                else None,
            }
            for g, rank in zip(history, ranks, strict=True)
        ],
    }


def _kept_guest_games_q() -> Q:
    """Games the player played as a guest and kept unranked (``mode`` guest: a log-in took
    them, or a sign-up after the day closed; docs/fair-play.md, "Guests"), once verified:
    listed in their history, marked, and never counted in a total, a streak or a board."""
    return Q(
        mode=Mode.GUEST,
        verification="verified",
        disqualified=False,
        challenge__isnull=False,
    )


def _on_a_board(game: Mapping[str, Any]) -> bool:
    return game["mode"] != Mode.GUEST and not game["held"]


def _board_ranks(history: Sequence[Mapping[str, Any]]) -> list[int | None]:
    """Each ranked game's rank on its daily board, from Redis when that board is built (one
    pipelined round trip); None when Redis is down or the board is not built yet, and for a
    guest's game or a held one (on no board)."""
    ranked = [g for g in history if _on_a_board(g)]
    r = store.client()
    if r is None or not ranked:
        return [None] * len(history)
    try:
        pipe = r.pipeline(transaction=False)
        for g in ranked:
            pipe.exists(store.ready_key(g["challenge_id"]))
            composite = ranking.encode(
                g["status"] == Status.WON, g["score"], g["elapsed_ms"], g["moves"]
            )
            pipe.zcount(store.daily_key(g["challenge_id"]), "-inf", f"({composite}")
        answers = pipe.execute()
    except redis.RedisError as exc:
        logger.warning("ranks for a player page unavailable: %s", exc)
        return [None] * len(history)
    found = iter(zip(answers[::2], answers[1::2], strict=True))
    ranks: list[int | None] = []
    for g in history:
        if not _on_a_board(g):
            ranks.append(None)
            continue
        ready, better = next(found)
        ranks.append(1 + int(better) if ready else None)
    return ranks


# ----- the home page -------------------------------------------------------------------


def playing_now(today: dt.date | None = None) -> dict[str, int]:
    """Games of today's challenges in play right now, per tier (started, not over; the
    weekly on Sundays): players' dailies and guests' games alike, since a guest plays the
    same deal at the same time. As of at most DAY_COUNTS_SECONDS ago (games.daily)."""
    today = today or utc_today()
    found: dict[str, int] | None = daily.counts_kept.get(("playing", today))
    if found is None:
        found = dict(
            Game.objects.filter(
                mode__in=OPEN_DAY_MODES, status=Status.PLAYING, challenge__date=today
            )
            .values_list("challenge__tier")
            .annotate(n=Count("id"))
            .order_by()
        )
        daily.counts_kept.put(("playing", today), found)
    return {tier: found.get(tier, 0) for tier in tiers_of(today)}


def streak_summary(player_id: int, today: dt.date | None = None) -> dict[str, Any]:
    today = today or utc_today()
    streak = streak_of(_win_dates(player_id).get(player_id, []), today)
    return {
        "current": streak.current,
        "best": streak.best,
        "last_win": streak.last_win,
        "weekly": weekly_streak(player_id, today),
    }
