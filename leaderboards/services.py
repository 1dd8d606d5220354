"""Keep boards in step with verification and moderation, and rebuild them.

- ``on_game_verified`` is connected to ``games.signals.game_verified`` in AppConfig.ready().
- ``on_results_changed`` is connected to ``accounts.signals.results_changed``, which
  games.services sends after ``Game.disqualified`` changed (a moderator's decision, a
  voided day) and accounts.services after ``User.is_banned`` did, once that change has
  committed. Reads filter those flags anyway, so a missed signal shows nothing wrong; it
  only leaves a stale Redis entry until the next read finds it.
- ``remove_game`` / ``restore_game`` / ``remove_player`` / ``restore_player`` do the same
  for one game or player when called directly (the tests, a repair by hand).
- When Redis fails during an update, the board is recorded in ``StaleBoard``; the
  ``leaderboards.rebuild_stale_boards`` task (and ``manage.py rebuild_leaderboards
  --stale``) rebuild those once Redis is back.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable, Sequence
from typing import Any

import redis
from django.db.models import Q, QuerySet

from apikit.metrics import count_redis_fallback
from games.models import Game, Mode, utc_today
from leaderboards import day_board, ranking, records, store
from leaderboards.models import StaleBoard

logger = logging.getLogger(__name__)

_ENTRY_FIELDS = ("id", "challenge_id", "status", "score", "elapsed_ms", "moves", "finished_at")


def _writers(results: Iterable[tuple[int | None, dt.date]]) -> tuple[set[int], set[int]]:
    """The players of ``results`` (player id, challenge date), and those of them with a
    result of a closed day: their counters (``store.results_version``). Called after the
    commit: see ``store.closed_results_key``."""
    today = utc_today()
    found = [(pid, date) for pid, date in results if pid is not None]
    return {pid for pid, _ in found}, {pid for pid, date in found if date < today}


def _entries(games: Any) -> tuple[list[tuple[int, str, int]], set[int], set[int]]:
    """The board entries of ``games``, and ``_writers``."""
    values = list(games.values("player_id", "challenge__date", *_ENTRY_FIELDS))
    entries = [(v["challenge_id"], *day_board._entry(v)) for v in values]
    return (entries, *_writers((v["player_id"], v["challenge__date"]) for v in values))


def _mark_stale(challenge_ids: Iterable[int], exc: Exception) -> None:
    ids = sorted(set(challenge_ids))
    count_redis_fallback("leaderboard_update")
    logger.warning("Redis failed while updating boards %s: %s", ids, exc)
    for challenge_id in ids:
        StaleBoard.objects.get_or_create(challenge_id=challenge_id)


def _apply(
    add: list[tuple[int, str, int]],
    players: set[int],
    closed: set[int],
    remove: Sequence[tuple[int, str]] = (),
) -> None:
    """Write ``add`` and ``remove`` to the boards, the results of ``players`` (of
    ``closed`` on closed days)."""
    r = store.client()
    if r is None:
        return
    try:
        if remove:
            store.remove_entries(r, remove, players, closed)
        if add:
            store.add_entries(r, add, players, closed)
    except redis.RedisError as exc:
        _mark_stale([e[0] for e in add] + [e[0] for e in remove], exc)


def on_game_verified(sender: Any, game: Game, **kwargs: Any) -> None:
    """A verified daily result enters its board (if built; else the first read builds it)."""
    if game.mode != Mode.DAILY or game.challenge_id is None:
        return
    _apply(*_entries(Game.objects.filter(ranking.counts_q(), pk=game.pk)))


def remove_game(game: Game) -> None:
    """Take a game off its board now (call after ``disqualified`` is committed)."""
    challenge = game.challenge
    if challenge is None:
        return
    players, closed = _writers([(game.player_id, challenge.date)])
    _apply([], players, closed, [(challenge.pk, ranking.member(game.pk, game.finished_at))])
    records.clear_cache()


def restore_game(game: Game) -> None:
    """Put a game back if it counts again (after ``disqualified`` was cleared)."""
    _apply(*_entries(Game.objects.filter(ranking.counts_q(), pk=game.pk)))
    records.clear_cache()


def remove_player(user: Any) -> None:
    """Take every result of a player off every board (after ``is_banned`` is committed)."""
    games = Game.objects.filter(player_id=user.pk, mode=Mode.DAILY, challenge__isnull=False)
    found = list(games.values_list("id", "challenge_id", "finished_at", "challenge__date"))
    remove = [(challenge, ranking.member(pk, finished)) for pk, challenge, finished, _ in found]
    _apply([], *_writers((user.pk, date) for *_, date in found), remove)
    records.clear_cache()


def restore_player(user: Any) -> None:
    """Put back every counting result of a player (after ``is_banned`` was cleared)."""
    _apply(*_entries(Game.objects.filter(ranking.counts_q(), player_id=user.pk)))
    records.clear_cache()


def on_results_changed(
    sender: Any,
    games: Sequence[int] = (),
    players: Sequence[int] = (),
    challenges: Sequence[int] = (),
    **kwargs: Any,
) -> None:
    """Receiver of ``accounts.signals.results_changed`` (sent after commit): the boards of
    ``challenges`` are rebuilt; each daily result of ``games`` and of ``players`` enters
    its board if it counts now and leaves it if it does not."""
    if challenges:
        rebuild_boards(challenges)
    if games or players:
        _resync(Game.objects.filter(Q(pk__in=games) | Q(player_id__in=players)))
        records.clear_cache()


def _resync(games: QuerySet[Game]) -> None:
    """Put on their boards the daily results of ``games`` that count, take off the others,
    in a few Redis round trips however many there are (a ban may take hundreds)."""
    daily = games.filter(mode=Mode.DAILY, challenge__isnull=False)
    counting = set(daily.filter(ranking.counts_q()).values_list("pk", flat=True))
    rows = list(daily.values("player_id", "challenge__date", *_ENTRY_FIELDS))
    add = [(v["challenge_id"], *day_board._entry(v)) for v in rows if v["id"] in counting]
    remove = [
        (v["challenge_id"], ranking.member(v["id"], v["finished_at"]))
        for v in rows
        if v["id"] not in counting
    ]
    _apply(add, *_writers((v["player_id"], v["challenge__date"]) for v in rows), remove)


def rebuild_boards(challenge_ids: Iterable[int] | None = None) -> int:
    """Rebuild the given daily boards (default: every board with a result, and every board
    Redis holds) from PostgreSQL; clear the computed boards. Returns boards rebuilt."""
    r = store.client()
    if r is None:
        return 0
    if challenge_ids is None:
        ids = set(day_board.challenge_ids_with_results()) | set(store.board_ids(r))
    else:
        ids = set(challenge_ids)
    for challenge_id in sorted(ids):
        day_board.rebuild_daily(challenge_id, r=r)
    StaleBoard.objects.filter(challenge_id__in=ids).delete()
    records.clear_cache()
    return len(ids)


def rebuild_stale_boards() -> int:
    ids = list(StaleBoard.objects.values_list("challenge_id", flat=True))
    return rebuild_boards(ids) if ids else 0
