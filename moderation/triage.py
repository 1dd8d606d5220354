"""Triage of the moderation queue: each open flag's priority, from what its result affects.

A flag on a top-10 result of today's board comes first, one on an unranked game last. The
priority is ``10 * band + strength``: the band says what a wrong result there costs (where
the game stands on its board, and whether its day is still open: every player sees an
open day's board now, and a decision after the close no longer matches the day's signed
close record), the strength how sure the kind of flag is (docs/moderation.md, "The
queue"). Appeals stand above every band (``APPEAL_PRIORITY``).

The priority is stored on the flag, with its reason in words ("rank 3 on today's hard
board"), so that the queue is one indexed ORDER BY however long it grows; computing ranks
at read time would rank every board with an open flag on every page of the queue. It is
computed again when it can change: as flags are raised (at once), whenever a board
changes (``on_board_changed``: a moderator's decision, a ban, a hold or a release at once;
a newly verified result at most once per ``MODERATION_TRIAGE_REFRESH_SECONDS`` a board,
since a busy board gains results every second and one refresh costs a window over the
whole board), and by the ``moderation.triage_flags`` task (``triage_stale``): open days'
boards again, a closed day's flags into the closed day's bands, and any flag no hook
triaged.

The rank is the board's (1 + the results strictly better: 1, 2, 2, 4), computed here with
one window over the challenge's counted results. The boards' own code is out of reach
(moderation and leaderboards never import each other), so this module keeps a copy of
their rule (``leaderboards.ranking``: ``counts_q`` and ``rank_order``);
tests/moderation/test_triage.py holds the two to the same ranks.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Case, F, IntegerField, Max, OrderBy, Q, QuerySet, Value, When, Window
from django.db.models.functions import Coalesce, Rank

from games.models import DailyChallenge, Game, Mode, Status, Verification, utc_today
from moderation.models import Flag, FlagKind, FlagStatus

# How sure each kind is, 1 (least) to 9: a machine's pace or the solver's own line cannot be
# a person's; a link or a record asks for judgement; ``flat_timing`` is the least certain
# (docs/moderation.md, "The red team: measured rates").
STRENGTH: dict[str, int] = {
    FlagKind.FAST_MOVES: 9,
    FlagKind.FAST_REACTION: 9,
    FlagKind.SOLVER_LINE: 9,
    FlagKind.FAST_FINISH: 8,
    FlagKind.SOLVER_MOVES: 7,
    FlagKind.LINKED_ACCOUNTS: 7,
    FlagKind.CLAIRVOYANCE: 6,
    FlagKind.SOLVER_CONSULTED: 6,
    FlagKind.GUEST_LINKED: 6,  # and the result waits off its board for a moderator
    FlagKind.EVEN_PACING: 5,
    FlagKind.SHARED_ADDRESS: 4,
    FlagKind.PERFECT_FIRST_TRY: 3,
    FlagKind.FLAT_TIMING: 2,
}

# Bands, best first: (band, name). A closed day's top 10 (the final podium) comes before
# an open day's places 11 to 100.
OPEN_TOP_10 = 8
CLOSED_TOP_10 = 7
OPEN_TOP_100 = 6
CLOSED_TOP_100 = 5
OPEN_REST = 4
CLOSED_REST = 3
DAILY_OFF_BOARD = 2  # a daily that is on no board (waiting, rejected, removed, too late)
ARCHIVE = 1  # the archive board and its month badges
UNRANKED = 0  # a guest's or a practice game
BANDS = {
    9: "appeal",
    OPEN_TOP_10: "top 10, today's board",
    CLOSED_TOP_10: "top 10, a closed day's board",
    OPEN_TOP_100: "places 11-100, today's board",
    CLOSED_TOP_100: "places 11-100, a closed day's board",
    OPEN_REST: "below 100, today's board",
    CLOSED_REST: "below 100, a closed day's board",
    DAILY_OFF_BOARD: "a daily on no board",
    ARCHIVE: "an archive game",
    UNRANKED: "unranked",
}
APPEAL_PRIORITY = 90  # a player waits on a decision about them: before every flag

_TIME_CAP_MS = (1 << 27) - 1  # a result without a time ranks as the slowest (as the boards)
WON = Case(When(status=Status.WON, then=Value(1)), default=Value(0), output_field=IntegerField())
# The boards' order (leaderboards.ranking.rank_order; their caps lie beyond any real game).
RANK_ORDER = [
    OrderBy(WON, descending=True),
    OrderBy(F("score"), descending=True),
    OrderBy(Coalesce(F("elapsed_ms"), Value(_TIME_CAP_MS))),
    OrderBy(F("moves")),
]


@dataclass(frozen=True)
class Triage:
    priority: int
    reason: str
    board_rank: int | None


def band_of(priority: int | None) -> str:
    return "not triaged" if priority is None else BANDS.get(priority // 10, "?")


def counted(challenge: DailyChallenge) -> QuerySet[Game]:
    """The challenge's results on its board (leaderboards.ranking.counts_q)."""
    return Game.objects.filter(
        challenge_id=challenge.pk,
        mode=Mode.DAILY,
        verification=Verification.VERIFIED,
        disqualified=False,
        held=False,
        player__is_banned=False,
        finished_at__lt=challenge.closes_at,
    )


def board_ranks(challenge: DailyChallenge, game_ids: Iterable[int]) -> dict[int, int]:
    """The board's rank of each of ``game_ids`` that counts on it, in one query: the whole
    board is ranked by a window, and only these rows come back."""
    ids = list(game_ids)
    if not ids:
        return {}
    # A filter on a window result makes Django rank first and pick the rows after (a
    # plain id filter would rank a board of these games alone).
    wanted = Window(
        Max(Case(When(id__in=ids, then=Value(1)), default=Value(0))), partition_by=[F("id")]
    )
    ranked = counted(challenge).annotate(rank=Window(Rank(), order_by=RANK_ORDER), wanted=wanted)
    return dict(ranked.filter(wanted=1).values_list("id", "rank"))


def would_rank(challenge: DailyChallenge, game: Game) -> int:
    """Where a result that is kept off the board (held) would stand on it."""
    won = game.status == Status.WON
    elapsed = game.elapsed_ms if game.elapsed_ms is not None else _TIME_CAP_MS
    same_won = Q(status=Status.WON) if won else ~Q(status=Status.WON)
    better = same_won & (
        Q(score__gt=game.score)
        | Q(score=game.score, elapsed_ms__lt=elapsed)
        | Q(score=game.score, elapsed_ms=elapsed, moves__lt=game.moves)
    )
    if not won:
        better |= Q(status=Status.WON)
    return counted(challenge).filter(better).count() + 1


def _day(challenge: DailyChallenge, today: dt.date) -> tuple[bool, str]:
    if challenge.date >= today:
        return True, f"today's {challenge.tier} board"
    return False, f"the {challenge.tier} board of {challenge.date.isoformat()} (closed)"


def _placed(rank: int, is_open: bool) -> int:
    if rank <= 10:
        return OPEN_TOP_10 if is_open else CLOSED_TOP_10
    if rank <= 100:
        return OPEN_TOP_100 if is_open else CLOSED_TOP_100
    return OPEN_REST if is_open else CLOSED_REST


def _off_board_why(game: Game, challenge: DailyChallenge) -> str:
    if game.disqualified:
        return "already off the boards (disqualified)"
    if game.player is not None and game.player.is_banned:
        return "its player banned"
    if game.verification == Verification.PENDING:
        return "waiting for its verification"
    if game.verification == Verification.REJECTED:
        return "its replay rejected"
    if game.status == Status.PLAYING:
        return "still in play"
    return "finished after the close"


def stake(game: Game, kind: str, rank: int | None, held_rank: int | None, today: dt.date) -> Triage:
    """The priority of a flag of ``kind`` on ``game``: ``rank`` is its place on its board
    (None when it is not on it), ``held_rank`` where a held result would stand."""
    strength = STRENGTH.get(kind, 5)
    challenge = game.challenge
    if challenge is None or game.mode == Mode.PRACTICE:
        return Triage(UNRANKED * 10 + strength, "unranked: a practice game", None)
    if game.mode == Mode.GUEST:
        return Triage(UNRANKED * 10 + strength, "unranked: a guest's game", None)
    if game.mode == Mode.ARCHIVE:
        words = f"an archive game of {challenge.date.isoformat()} {challenge.tier}"
        return Triage(ARCHIVE * 10 + strength, f"{words} (the archive board)", None)
    is_open, board = _day(challenge, today)
    if rank is not None:
        return Triage(_placed(rank, is_open) * 10 + strength, f"rank {rank} on {board}", rank)
    if held_rank is not None:
        words = f"would rank {held_rank} on {board} (held off it)"
        return Triage(_placed(held_rank, is_open) * 10 + strength, words, held_rank)
    words = f"a {challenge.tier} daily of {challenge.date.isoformat()}, on no board: "
    return Triage(DAILY_OFF_BOARD * 10 + strength, words + _off_board_why(game, challenge), None)


def triage(flags: QuerySet[Flag], today: dt.date | None = None) -> int:
    """Triage the open flags among ``flags`` again; how many changed."""
    today = today or utc_today()
    rows = list(
        flags.filter(status=FlagStatus.OPEN).select_related("game__challenge", "game__player")
    )
    by_challenge: dict[int, list[Game]] = defaultdict(list)
    for flag in rows:
        if flag.game.mode == Mode.DAILY and flag.game.challenge is not None:
            by_challenge[flag.game.challenge.pk].append(flag.game)
    ranks: dict[int, int] = {}
    held: dict[int, int] = {}
    for games in by_challenge.values():
        challenge = games[0].challenge
        assert challenge is not None
        ranks.update(board_ranks(challenge, {game.pk for game in games}))
        kept_off = {g.pk: g for g in games if g.held and not g.disqualified and g.pk not in ranks}
        for game in kept_off.values():
            held[game.pk] = would_rank(challenge, game)
    changed = []
    for flag in rows:
        found = stake(flag.game, flag.kind, ranks.get(flag.game_id), held.get(flag.game_id), today)
        now = (found.priority, found.reason, found.board_rank, today)
        if now != (flag.priority, flag.priority_reason, flag.board_rank, flag.triaged_on):
            flag.priority, flag.priority_reason, flag.board_rank, flag.triaged_on = now
            changed.append(flag)
    _store(changed)
    return len(changed)


def _store(flags: list[Flag]) -> None:
    """Write the flags' triage: one prepared UPDATE, sent for all of them at once (Django's
    ``bulk_update`` builds a CASE per column and row: seconds for a few thousand flags)."""
    if not flags:
        return
    table = connection.ops.quote_name(Flag._meta.db_table)
    rows = [
        (flag.priority, flag.priority_reason, flag.board_rank, flag.triaged_on, flag.pk)
        for flag in flags
    ]
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {table} SET priority = %s, priority_reason = %s, board_rank = %s, "
            "triaged_on = %s WHERE id = %s",
            rows,
        )


def triage_challenges(challenge_ids: Iterable[int], today: dt.date | None = None) -> int:
    """Triage the open flags of these challenges' games again (a board changed)."""
    ids = {pk for pk in challenge_ids if pk is not None}
    if not ids:
        return 0
    return triage(Flag.objects.filter(game__challenge_id__in=ids), today)


def triage_stale(today: dt.date | None = None) -> int:
    """Triage the open flags that no hook triaged, those triaged while their day was open
    that has closed since, and those of open days (whose boards may have changed since a
    refresh was skipped): the periodic ``moderation.triage_flags`` task."""
    today = today or utc_today()
    stale = (
        Q(priority__isnull=True)
        | Q(triaged_on__lt=today, game__challenge__date__gte=F("triaged_on"))
        | Q(game__challenge__date__gte=today, game__mode=Mode.DAILY)
    )
    return triage(Flag.objects.filter(stale), today)


def on_result_verified(game: Game, raised: Iterable[int]) -> int:
    """A result was verified (``game_verified``) and flags raised on ``raised`` games: those
    are triaged at once; the rest of its board's open flags at most once per
    ``MODERATION_TRIAGE_REFRESH_SECONDS`` (a new result moves them down by one at most)."""
    changed = triage(Flag.objects.filter(game_id__in=list(raised))) if raised else 0
    if game.challenge_id is None:
        return changed
    seconds = settings.MODERATION_TRIAGE_REFRESH_SECONDS
    if seconds and not cache.add(f"moderation:triage:{game.challenge_id}", 1, timeout=seconds):
        return changed  # refreshed a moment ago: the next one (or the task) catches up
    return changed + on_board_changed(challenges=[game.challenge_id])


def on_board_changed(
    *,
    games: Iterable[int] = (),
    players: Iterable[int] = (),
    challenges: Iterable[int] = (),
) -> int:
    """A board changed (``accounts.signals.results_changed``, or a result verified): the
    open flags on the challenges it touched are triaged again. One query when none is open."""
    touched = Q(pk__in=list(challenges)) | Q(games__pk__in=list(games))
    player_ids = list(players)
    if player_ids:
        touched |= Q(games__player_id__in=player_ids, games__mode=Mode.DAILY)
    with_open_flags = DailyChallenge.objects.filter(touched).filter(
        games__flags__status=FlagStatus.OPEN
    )
    return triage_challenges(set(with_open_flags.values_list("pk", flat=True)))


def on_results_changed(sender: Any, **kwargs: Any) -> None:
    """Receiver of ``accounts.signals.results_changed`` (sent after commit)."""
    on_board_changed(
        games=kwargs.get("games") or (),
        players=kwargs.get("players") or (),
        challenges=kwargs.get("challenges") or (),
    )
