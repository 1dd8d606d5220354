"""One day's board per tier: read a page (or the rows around a player) from Redis, rebuild a board
from PostgreSQL, and answer from PostgreSQL alone (RANK() OVER ...) when Redis is down.

PostgreSQL holds every result; Redis holds one sorted set per challenge (see
``leaderboards.ranking`` for the score encoding). A page read checks its rows against
PostgreSQL in the same query that fetches names, so a result that stopped counting
(disqualified, banned player) does not show even if its Redis entry is stale: it is
removed and the page read again. The moderation services remove such entries themselves;
the check catches a change made behind their back (an UPDATE in a shell). Each web
process keeps those checked rows (and the challenge looked up) in an
``ExpiringProcessCache`` for ``LEADERBOARD_ROWS_SECONDS`` (default 2), keyed by the exact
members Redis returned: any change to the page (a new result, a removal) is a new key, so
only a change behind the services' back can show that long.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from dataclasses import dataclass
from typing import Any

import redis
from django.db.models import Case, F, Max, Value, When, Window
from django.db.models.functions import Rank, RowNumber
from django.utils import timezone
from django.utils.translation import gettext as _

from apikit.errors import NotFound
from apikit.metrics import count_redis_fallback
from apikit.process_cache import ExpiringProcessCache
from apikit.replica import REPLICA, primary_reads, reads_from
from games.models import (
    WEEKLY,
    ChallengeTier,
    DailyChallenge,
    Game,
    Status,
    is_weekly_day,
    utc_today,
    weekly_refusal,
)
from leaderboards import ranking, store

logger = logging.getLogger(__name__)

PAGE_SIZE = 50
# Results verified while a rebuild read PostgreSQL may have been added to the old key
# and lost in the swap: a rebuild re-adds those verified this long before it started.
REBUILD_OVERLAP = dt.timedelta(seconds=30)
_ROW_FIELDS = (
    "id",
    "player_id",
    "player__display_name",
    "status",
    "score",
    "elapsed_ms",
    "moves",
    "finished_at",
    "provisional",
)


@dataclass(frozen=True)
class Row:
    rank: int
    game_id: int
    player_id: int
    display_name: str
    won: bool
    status: str
    score: int
    elapsed_ms: int | None
    moves: int
    finished_at: dt.datetime | None
    provisional: bool = False  # a new account's result, until the close check confirms it


def par(challenge: DailyChallenge, today: dt.date | None = None) -> int | None:
    """Moves in the solver's winning line from the deal, once the day is closed: a
    benchmark to compare with, not the fewest possible. None while the day is open (the
    line is the deal's, and nothing about the deal shows before the day closes)."""
    solution = challenge.deal.solution
    return len(solution) if challenge.is_closed(today) and solution else None


@dataclass(frozen=True)
class Board:
    challenge: DailyChallenge
    rows: list[Row]
    count: int  # results on the board
    offset: int  # position (0-based) of the first row
    page: int | None  # None for "around me"
    me: Row | None
    source: str  # "redis" or "postgres"

    @property
    def pages(self) -> int:
        return page_count(self.count)


# The board pages and challenges this process read lately (LEADERBOARD_ROWS_SECONDS).
process_cache = ExpiringProcessCache()


def unknown_tier(tier: str) -> str:
    return _("unknown tier %(tier)s: choose easy, medium, hard or weekly") % {
        "tier": repr(tier[:20])
    }


def no_challenge(tier: str, date: dt.date) -> str:
    return _("there was no %(tier)s challenge on %(date)s") % {
        "tier": tier,
        "date": date.isoformat(),
    }


def find_challenge(date: dt.date, tier: str, *, today: dt.date | None = None) -> DailyChallenge:
    """The day's challenge in one tier, with its deal (for ``par``)."""
    if tier not in ChallengeTier.values:
        raise NotFound(unknown_tier(tier))
    if tier == WEEKLY and not is_weekly_day(date):
        raise NotFound(weekly_refusal(date))
    if date > (today or utc_today()):
        raise NotFound(
            _("%(date)s is in the future: its board does not exist yet")
            % {"date": date.isoformat()}
        )
    challenge: DailyChallenge | None = process_cache.get((date, tier))
    if challenge is None:
        challenge = (
            DailyChallenge.objects.select_related("deal").filter(date=date, tier=tier).first()
        )
        if challenge is None:  # not kept: today's challenge may be made any moment
            raise NotFound(no_challenge(tier, date))
        process_cache.put((date, tier), challenge)
    return challenge


def counted_games(challenge_id: int, closes_at: dt.datetime | None = None) -> Any:
    """The games on one board; ``closes_at`` must be that challenge's (see counts_q)."""
    return Game.objects.filter(ranking.counts_q(closes_at), challenge_id=challenge_id)


def result_of(values: dict[str, Any]) -> ranking.Result:
    return ranking.Result(
        game_id=values["id"],
        won=values["status"] == Status.WON,
        score=values["score"],
        elapsed_ms=values["elapsed_ms"],
        moves=values["moves"],
        finished_at=values["finished_at"],
    )


def _row(values: dict[str, Any], rank: int) -> Row:
    return Row(
        rank=rank,
        game_id=values["id"],
        player_id=values["player_id"],
        display_name=values["player__display_name"],
        won=values["status"] == Status.WON,
        status=values["status"],
        score=values["score"],
        elapsed_ms=values["elapsed_ms"],
        moves=values["moves"],
        finished_at=values["finished_at"],
        provisional=values["provisional"],
    )


def _viewer_game(challenge_id: int, viewer_id: int | None) -> dict[str, Any] | None:
    if viewer_id is None:
        return None
    found: dict[str, Any] | None = (
        counted_games(challenge_id).filter(player_id=viewer_id).values(*_ROW_FIELDS).first()
    )
    return found


# ----- reading ---------------------------------------------------------------------------


def daily_board(
    challenge: DailyChallenge,
    *,
    page: int = 1,
    viewer_id: int | None = None,
    around_me: bool = False,
    size: int = PAGE_SIZE,
) -> Board:
    """A page of the board (1-based) of ``size`` rows, or the rows around the viewer's own
    result.

    "Around me" without a result on the board answers page 1 (``me`` is None). A page
    past the end raises NotFound. Redis first; PostgreSQL when Redis is absent or down.
    """
    with primary_reads():  # the viewer's own game, just finished: never a lagging copy
        mine = _viewer_game(challenge.pk, viewer_id)
    r = store.client()
    if r is not None:
        try:
            board = _from_redis(r, challenge, page, mine, around_me, size=size)
        except redis.RedisError as exc:
            count_redis_fallback("leaderboard")
            logger.warning("leaderboard %s from PostgreSQL: Redis failed: %s", challenge, exc)
        else:
            if board is not None:
                return board
    if mine is not None:
        return _from_postgres(challenge, page, mine, around_me, size)
    # A page without a viewer's row is the same for everyone: while Redis is down it is
    # ranked by PostgreSQL, slow on a big board (bench/bench_leaderboards.py), so each process
    # keeps it a while.
    key = ("postgres", challenge.pk, page, size)
    kept: Board | None = process_cache.get(key)
    if kept is None:
        kept = _from_postgres(challenge, page, None, around_me, size)
        process_cache.put(key, kept)
    return kept


def _window(page: int, position: int | None, size: int) -> tuple[int, int | None]:
    """(offset, page or None) of the ``size`` rows to show."""
    if position is None:
        return (page - 1) * size, page
    return max(0, position - size // 2), None


def page_count(count: int) -> int:
    """Pages of ``count`` rows (an empty board has one, empty)."""
    return max(1, -(-count // PAGE_SIZE))


def _check_page(page: int | None, count: int, size: int = PAGE_SIZE) -> None:
    if page is not None and page > 1 and (page - 1) * size >= count:
        raise NotFound(
            _("page %(page)s does not exist: this board has %(pages)s page(s)")
            % {"page": page, "pages": page_count(count)}
        )


def _from_redis(
    r: redis.Redis,
    challenge: DailyChallenge,
    page: int,
    mine: dict[str, Any] | None,
    around_me: bool,
    *,
    size: int,
) -> Board | None:
    """The board from Redis; None when it cannot be read there right now (rebuilding)."""
    me_member = None
    if mine is not None:
        me_member = ranking.member(mine["id"], mine["finished_at"])
    for _attempt in range(3):
        position = None
        if around_me and me_member is not None:
            position = store.position_of(r, challenge.pk, me_member)
        offset, shown_page = _window(page, position, size)
        ready, count, entries, better = store.page(r, challenge.pk, offset, offset + size - 1)
        if not ready:
            if not rebuild_daily(challenge.pk, r=r, wait=False):
                return None  # someone else is rebuilding: PostgreSQL answers meanwhile
            continue
        if around_me and me_member is not None and position is None:
            _add_result(r, challenge.pk, mine)  # a lost update: heal it and read again
            continue
        _check_page(shown_page, count, size)
        found = _checked_rows(challenge.pk, [m for m, _score in entries])
        stale = [(challenge.pk, m) for m, _score in entries if ranking.game_id_of(m) not in found]
        if stale:
            store.remove_entries(r, stale)  # stopped counting: drop it, then read again
            continue
        rows: list[Row] = []
        rank = better + 1
        previous: int | None = None
        for index, (m, composite) in enumerate(entries):
            if previous is not None and composite != previous:
                rank = offset + index + 1
            previous = composite
            rows.append(_row(found[ranking.game_id_of(m)], rank))
        me = _me(rows, mine)
        if me is None and mine is not None:
            composite = ranking.encode(*_rank_keys(mine))
            me_rank = 1 + store.count_better(r, challenge.pk, composite)
            me = _row(mine, me_rank)
        return Board(challenge, rows, count, offset, shown_page, me, "redis")
    return None


def _checked_rows(challenge_id: int, members: list[str]) -> dict[int, dict[str, Any]]:
    """The PostgreSQL rows, by game id, of those of ``members`` that still count."""
    key = (challenge_id, tuple(members))
    found: dict[int, dict[str, Any]] | None = process_cache.get(key)
    if found is None:
        ids = [ranking.game_id_of(m) for m in members]
        found = {
            values["id"]: values
            for values in counted_games(challenge_id).filter(pk__in=ids).values(*_ROW_FIELDS)
        }
        if len(found) < len(ids) and reads_from() == REPLICA:
            # Missing from the replica may be only just verified: the primary decides
            # what is stale (and removed from the board), never the lagging copy.
            with primary_reads():
                missing = [game_id for game_id in ids if game_id not in found]
                found |= {
                    values["id"]: values
                    for values in counted_games(challenge_id)
                    .filter(pk__in=missing)
                    .values(*_ROW_FIELDS)
                }
        if len(found) == len(ids):  # a page with stale entries is read again: not kept
            process_cache.put(key, found)
    return found


def _rank_keys(values: dict[str, Any]) -> tuple[bool, int, int | None, int]:
    return values["status"] == Status.WON, values["score"], values["elapsed_ms"], values["moves"]


def _me(rows: list[Row], mine: dict[str, Any] | None) -> Row | None:
    if mine is None:
        return None
    return next((row for row in rows if row.game_id == mine["id"]), None)


def _from_postgres(
    challenge: DailyChallenge, page: int, mine: dict[str, Any] | None, around_me: bool, size: int
) -> Board:
    """The same board by window functions alone: RANK() for ranks, ROW_NUMBER() for places."""
    games = counted_games(challenge.pk, challenge.closes_at)
    ranked = games.annotate(
        rank=Window(Rank(), order_by=ranking.rank_order()),
        place=Window(RowNumber(), order_by=ranking.list_order()),
    )
    count = games.count()
    me = None
    position = None
    if mine is not None:
        # Filtering on a window result makes Django rank the whole board first and pick
        # the row after (a plain id filter would rank a one-row board).
        is_mine = Window(
            Max(Case(When(id=mine["id"], then=Value(1)), default=Value(0))),
            partition_by=[F("id")],
        )
        found = ranked.annotate(is_mine=is_mine).filter(is_mine=1).values("rank", "place").first()
        if found is not None:
            me = _row(mine, found["rank"])
            position = found["place"] - 1
    offset, shown_page = _window(page, position if around_me else None, size)
    _check_page(shown_page, count, size)
    values = ranked.order_by(*ranking.list_order()).values(*_ROW_FIELDS, "rank")[
        offset : offset + size
    ]
    rows = [_row(v, v["rank"]) for v in values]
    return Board(challenge, rows, count, offset, shown_page, me, "postgres")


def postgres_ranking(challenge_id: int) -> list[tuple[int, int]]:
    """(game id, rank) of the whole board in listing order, by window functions alone."""
    ranked = counted_games(challenge_id).annotate(
        rank=Window(Rank(), order_by=ranking.rank_order())
    )
    return list(ranked.order_by(*ranking.list_order()).values_list("id", "rank"))


# ----- writing ---------------------------------------------------------------------------


def _entry(values: dict[str, Any]) -> tuple[str, int]:
    return ranking.member(values["id"], values["finished_at"]), ranking.encode(*_rank_keys(values))


def _add_result(r: redis.Redis, challenge_id: int, values: dict[str, Any] | None) -> None:
    if values is not None:
        member, composite = _entry(values)
        # the viewer's own result, healed: today's or a closed day's, both counters move
        players = [values["player_id"]]
        store.add_entries(r, [(challenge_id, member, composite)], players, players)


# From the primary, also under a replica_reads() view: a board rebuilt from a lagging copy
# would replace results added meanwhile with a board that lacks them.
@primary_reads()
def rebuild_daily(challenge_id: int, *, r: redis.Redis | None = None, wait: bool = True) -> bool:
    """Rebuild one board from PostgreSQL. False when another rebuild holds the lock and
    ``wait`` is off (or Redis is not configured)."""
    r = r or store.client()
    if r is None:
        return False
    deadline = time.monotonic() + store.REBUILD_LOCK_SECONDS
    while not store.try_lock(r, challenge_id):
        if not wait or time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    try:
        started = timezone.now()
        fields = ("id", "status", "score", "elapsed_ms", "moves", "finished_at")
        entries = [
            (
                ranking.member(game_id, finished_at),
                ranking.encode(status == Status.WON, score, elapsed_ms, moves),
            )
            for game_id, status, score, elapsed_ms, moves, finished_at in counted_games(
                challenge_id
            ).values_list(*fields)
        ]
        store.replace_board(r, challenge_id, entries)
        late = (
            counted_games(challenge_id)
            .filter(verified_at__gte=started - REBUILD_OVERLAP)
            .values(*fields)
        )
        store.add_entries(r, [(challenge_id, *_entry(v)) for v in late])
    finally:
        store.unlock(r, challenge_id)
    return True


def challenge_ids_with_results() -> list[int]:
    return list(
        Game.objects.filter(ranking.counts_q()).values_list("challenge_id", flat=True).distinct()
    )
