"""The ranking rules of a daily board, and their one exact encoding as a Redis score.

Order (best first): won, then score (higher), then server-measured time (lower), then
moves (fewer). Results equal on all four share a rank and are listed by who finished
first (then by game id, for two finishes in the same microsecond).

Redis sorted-set scores are IEEE doubles: integers are exact up to 2**53. The four keys
are packed, most significant first, into exactly 53 bits, "lower is better", so that
``ZRANGE`` (ascending) lists the board in order and ``ZCOUNT -inf (score`` counts the
results strictly better than one:

    bit 52        1 if not won                  (1 bit)
    bits 41..51   SCORE_CAP - score             (11 bits, score 0..2047; the maximum is
                                                 625 for one deck, 1260 for Double Yukon,
                                                 the weekly challenge)
    bits 14..40   elapsed ms, capped            (27 bits, 2**27 - 1 ms = 37.3 hours; a
                                                 daily lasts at most 24)
    bits 0..13    moves, capped                 (14 bits, 16,383 moves)

Until issue 18 the score had 10 bits (1023 points) and time 28: boards encoded so live
under other Redis keys (``lb:daily:*``), never read again (``store.daily_key``).

A time beyond 37.3 hours or more than 16,383 moves counts as the cap: the PostgreSQL
ranking applies the same caps (``LEAST``), so both engines agree exactly. Equal scores
are ordered by member, lexicographically: the member is the finish time in microseconds
since the epoch, zero-padded, then the game id, zero-padded, so finish order is kept.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Case, F, IntegerField, OrderBy, Q, Value, When
from django.db.models.functions import Coalesce, Least, TruncDate
from django.db.models.lookups import LessThanOrEqual

from apikit.sql import in_ids
from games.models import Tier

SCORE_BITS = 11
TIME_BITS = 27
MOVES_BITS = 14
SCORE_CAP = (1 << SCORE_BITS) - 1
TIME_CAP_MS = (1 << TIME_BITS) - 1
MOVES_CAP = (1 << MOVES_BITS) - 1
assert 1 + SCORE_BITS + TIME_BITS + MOVES_BITS == 53  # a double holds 53 exact bits

_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
_MICROS_DIGITS = 17  # microseconds since 1970 have 16 digits until the year 2286
_ID_DIGITS = 19  # a bigint


@dataclass(frozen=True)
class Result:
    """What a daily board ranks, for one verified game."""

    game_id: int
    won: bool
    score: int
    elapsed_ms: int | None
    moves: int
    finished_at: dt.datetime | None


def capped(value: int | None, cap: int) -> int:
    if value is None:
        return cap  # no time recorded: the worst time (never happens for verified games)
    return max(0, min(value, cap))


def encode(won: bool, score: int, elapsed_ms: int | None, moves: int) -> int:
    """The composite Redis score, lower is better; exact as a double (< 2**53)."""
    value = 0 if won else 1
    value = (value << SCORE_BITS) | (SCORE_CAP - capped(score, SCORE_CAP))
    value = (value << TIME_BITS) | capped(elapsed_ms, TIME_CAP_MS)
    return (value << MOVES_BITS) | capped(moves, MOVES_CAP)


def decode(value: int) -> tuple[bool, int, int, int]:
    """(won, score, capped elapsed ms, capped moves) from a composite score."""
    moves = value & MOVES_CAP
    value >>= MOVES_BITS
    elapsed = value & TIME_CAP_MS
    value >>= TIME_BITS
    score = SCORE_CAP - (value & SCORE_CAP)
    return not (value >> SCORE_BITS), score, elapsed, moves


def member(game_id: int, finished_at: dt.datetime | None) -> str:
    """The sorted-set member: finish time then game id, both zero-padded (lexicographic order)."""
    micros = 0
    if finished_at is not None:
        micros = max(0, (finished_at - _EPOCH) // dt.timedelta(microseconds=1))
    return f"{micros:0{_MICROS_DIGITS}d}:{game_id:0{_ID_DIGITS}d}"


def game_id_of(member_text: str | bytes) -> int:
    if isinstance(member_text, bytes):
        member_text = member_text.decode()
    return int(member_text.rpartition(":")[2])


def result_key(result: Result) -> tuple[int, str]:
    """Sort key in Python: (composite, member), exactly the Redis order."""
    composite = encode(result.won, result.score, result.elapsed_ms, result.moves)
    return composite, member(result.game_id, result.finished_at)


# ----- the same rules for PostgreSQL (ORDER BY / RANK() OVER) --------------------------

WON = Case(When(status="won", then=Value(1)), default=Value(0), output_field=IntegerField())


def rank_order() -> list[OrderBy]:
    """ORDER BY of the four ranking keys (the RANK() window), with the Redis caps."""
    return [
        OrderBy(WON, descending=True),
        OrderBy(Least(F("score"), Value(SCORE_CAP)), descending=True),
        OrderBy(Least(Coalesce(F("elapsed_ms"), Value(TIME_CAP_MS)), Value(TIME_CAP_MS))),
        OrderBy(Least(F("moves"), Value(MOVES_CAP))),
    ]


def list_order() -> list[OrderBy]:
    """The full listing order: the ranking keys, then who finished first, then game id."""
    return [*rank_order(), OrderBy(F("finished_at"), nulls_first=True), OrderBy(F("id"))]


def finished_before_the_close() -> LessThanOrEqual:
    """The game finished while its day was open: ``finished_at`` (UTC) falls on the
    challenge's date, i.e. before the next day's 00:00 UTC. A result written after the
    close (behind the services' back, or by an older version) never counts."""
    return LessThanOrEqual(TruncDate("finished_at", tzinfo=dt.UTC), F("challenge__date"))


def daily_tiers_q() -> Q:
    """The three daily tiers' games, not the weekly's: what streaks, the all-time and
    30-day boards, the player pages' totals and the calendar count (docs/leaderboards.md,
    "The weekly challenge")."""
    return Q(challenge__tier__in=Tier.values)


def held_for_review_q() -> Q:
    """A player's daily results moderation holds off the boards, undecided
    (``Game.awaits_review``): shown to that player alone, marked, never counted."""
    return Q(
        mode="daily",
        verification="verified",
        held=True,
        disqualified=False,
        challenge__isnull=False,
    )


def counts_q(
    closes_at: dt.datetime | None = None, *, unbanned_ids: Sequence[int] | None = None
) -> Q:
    """Which daily games count on the boards: verified, not disqualified, not held (a new
    account's result linked to a guest's game, until a moderator confirms it), player not
    banned, finished before the day closed. A caller that reads one challenge's games
    may pass its ``closes_at``: the same test as a plain comparison, without joining the
    challenge (a third of the time of a 100,000-result board ranked by PostgreSQL). A
    caller that reads a circle of players may pass their ids, checked unbanned already
    (``circles.unbanned``): the same ban test without joining every result's player (the
    join made PostgreSQL scan the whole user table for a league of 1,000)."""
    closed = Q(finished_at__lt=closes_at) if closes_at else Q(finished_before_the_close())
    if unbanned_ids is None:
        not_banned = Q(player__is_banned=False)
    else:
        not_banned = Q(in_ids("player_id", unbanned_ids))
    return Q(
        closed,
        not_banned,
        mode="daily",
        verification="verified",
        disqualified=False,
        held=False,
        challenge__isnull=False,
    )
