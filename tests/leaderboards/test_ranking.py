"""The ranking rules and their encoding as one exact Redis score (no services needed)."""

from __future__ import annotations

import datetime as dt
import random

from hypothesis import given
from hypothesis import strategies as st

from leaderboards import ranking
from leaderboards.records import Streak, competition_ranks, streak_of

keys = st.tuples(
    st.booleans(),
    st.integers(0, 1260),  # up to Double Yukon's maximum: the weekly challenge
    st.integers(0, ranking.TIME_CAP_MS),
    st.integers(0, ranking.MOVES_CAP),
)


def order_key(won: bool, score: int, elapsed: int, moves: int) -> tuple[int, int, int, int]:
    return (0 if won else 1, -score, elapsed, moves)


@given(keys, keys)
def test_encoding_orders_like_the_rules(
    a: tuple[bool, int, int, int], b: tuple[bool, int, int, int]
) -> None:
    ea, eb = ranking.encode(*a), ranking.encode(*b)
    assert (ea < eb) == (order_key(*a) < order_key(*b))
    assert (ea == eb) == (a == b)


@given(keys)
def test_encoding_is_exact_as_a_double_and_decodes(k: tuple[bool, int, int, int]) -> None:
    value = ranking.encode(*k)
    assert 0 <= value < 2**53
    assert int(float(value)) == value  # what Redis stores is exactly this integer
    assert ranking.decode(value) == k


def test_extremes_and_caps() -> None:
    best = ranking.encode(True, 625, 0, 0)
    worst = ranking.encode(False, 0, None, 10**9)
    assert best < worst
    assert worst < 2**53
    # past the caps, times and move counts tie (the PostgreSQL order uses the same caps)
    assert ranking.encode(True, 600, 2**40, 5) == ranking.encode(True, 600, ranking.TIME_CAP_MS, 5)
    assert ranking.encode(True, 600, 5, 10**6) == ranking.encode(True, 600, 5, ranking.MOVES_CAP)
    # a won game beats any lost one, whatever the lost one's score
    assert ranking.encode(True, 0, ranking.TIME_CAP_MS, ranking.MOVES_CAP) < ranking.encode(
        False, 625, 0, 0
    )


def test_double_yukon_scores_rank_by_score_above_one_decks_maximum() -> None:
    """The weekly challenge is Double Yukon: 44 x 5 + 104 x 10 = 1260 points at most. Two
    unfinished weekly games of 1100 and 1050 points rank by score, not by time."""
    assert ranking.SCORE_CAP >= 1260
    slow_high = ranking.encode(False, 1100, 900_000, 300)
    fast_low = ranking.encode(False, 1050, 60_000, 300)
    assert slow_high < fast_low
    assert ranking.decode(ranking.encode(True, 1260, 5_000, 450)) == (True, 1260, 5_000, 450)
    # a day is 24 hours: the time cap still lies beyond any daily game
    assert ranking.TIME_CAP_MS > 24 * 3600 * 1000


def test_members_sort_by_finish_time_then_id() -> None:
    t = dt.datetime(2025, 3, 1, tzinfo=dt.UTC)
    later = t + dt.timedelta(microseconds=1)
    members = [
        ranking.member(5, later),
        ranking.member(10, t),
        ranking.member(9, t),
        ranking.member(1, dt.datetime(2300, 1, 1, tzinfo=dt.UTC)),
    ]
    assert sorted(members) == [members[2], members[1], members[0], members[3]]
    assert ranking.game_id_of(members[0]) == 5
    assert ranking.game_id_of(members[1].encode()) == 10


def test_python_sort_matches_encoding_on_random_ties() -> None:
    rng = random.Random(7)
    t = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
    results = [
        ranking.Result(
            game_id=i,
            won=rng.random() < 0.5,
            score=rng.choice([0, 300, 625]),
            elapsed_ms=rng.choice([1000, 2000]),
            moves=rng.choice([50, 60]),
            finished_at=t + dt.timedelta(seconds=rng.randrange(3)),
        )
        for i in range(500)
    ]
    by_rules = sorted(
        results,
        key=lambda r: (
            order_key(r.won, r.score, r.elapsed_ms or 0, r.moves),
            r.finished_at,
            r.game_id,
        ),
    )
    assert sorted(results, key=ranking.result_key) == by_rules


def test_competition_ranks_share_and_skip() -> None:
    rows = [{"v": 9}, {"v": 7}, {"v": 7}, {"v": 3}]
    competition_ranks(rows, lambda row: row["v"])
    assert [row["rank"] for row in rows] == [1, 2, 2, 4]


def test_streaks() -> None:
    today = dt.date(2025, 5, 10)

    def days(*offsets: int) -> list[dt.date]:
        return [today - dt.timedelta(days=o) for o in offsets]

    def runs(dates: list[dt.date]) -> tuple[int, int]:
        streak = streak_of(dates, today)
        return streak.current, streak.best

    assert streak_of([], today) == Streak(0, 0, None)
    assert runs(days(0, 1, 2)) == (3, 3)
    assert runs(days(1, 2)) == (2, 2)  # today not played yet: still alive
    assert runs(days(2, 3)) == (0, 2)  # yesterday missed: broken
    assert runs(days(0, 2, 3, 4, 5)) == (1, 4)
    assert runs(days(0, 0, 1)) == (2, 2)  # two tiers won on one day count once
