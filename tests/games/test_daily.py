"""The daily pipeline in-process: candidates, bands, idempotence, secrecy of the secret."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client, override_settings

from games import daily
from games.daily import BANDS, candidate_number, dates_due, prepare_daily
from games.models import DailyChallenge, Deal, Tier, Verdict, tiers_of, utc_today
from yukon.engine import replay
from yukon_site import settings as site_settings

DAY = dt.date(2031, 5, 17)
SECRET = settings.DAILY_SECRET
# For the tests of who prepares and when (threads racing, the command, the embedded
# default, a published day under a new secret): the rating's precision is not their point,
# and 200 playouts a candidate were most of their time. (The hard band, 2 to 12 %, needs 9
# playouts or more.)
rough_rating = override_settings(DAILY_BOT_PLAYOUTS=20)
# The suite proves deals in one thread (tests/conftest.py); a whole preparation runs here
# with the site's own setting (two by default), so that the site's two-thread proofs run.
site_solver_jobs = override_settings(DAILY_SOLVE_JOBS=site_settings.DAILY_SOLVE_JOBS)


def test_candidates_are_an_hmac_of_date_tier_and_attempt() -> None:
    # Pinned: a change here would silently change every future day's deals.
    assert candidate_number("s3cret", DAY, "easy", 0) == 5836021920554715706
    numbers = {candidate_number("s3cret", DAY, tier, n) for tier in Tier.values for n in range(5)}
    assert len(numbers) == 15 and all(0 <= n < 2**64 for n in numbers)
    assert candidate_number("other", DAY, "easy", 0) != candidate_number("s3cret", DAY, "easy", 0)


def test_bands_do_not_overlap_and_leave_gaps() -> None:
    easy, medium, hard = BANDS[Tier.EASY], BANDS[Tier.MEDIUM], BANDS[Tier.HARD]
    assert hard.high < medium.low and medium.high < easy.low
    assert 0.1 in hard and 0.3 in medium and 0.9 in easy and 0.5 not in medium and 0.5 not in easy


def test_dates_due_adds_tomorrow_late_in_the_day() -> None:
    morning = dt.datetime(2031, 5, 17, 9, 0, tzinfo=dt.UTC)
    night = dt.datetime(2031, 5, 17, 22, 30, tzinfo=dt.UTC)
    assert dates_due(morning) == [DAY]
    assert dates_due(night) == [DAY, DAY + dt.timedelta(days=1)]


@pytest.mark.slow
@pytest.mark.django_db
@site_solver_jobs
def test_prepare_publishes_one_proven_winnable_deal_per_tier_in_its_band() -> None:
    ids = prepare_daily(DAY)
    challenges = DailyChallenge.objects.filter(date=DAY).select_related("deal")
    assert sorted(c.tier for c in challenges) == ["easy", "hard", "medium"]
    assert set(ids.values()) == {c.pk for c in challenges}
    for challenge in challenges:
        deal = challenge.deal
        assert deal.verdict == Verdict.SOLVED
        rate = challenge.bot_win_rate
        assert rate is not None and rate in BANDS[challenge.tier]
        assert challenge.bot_win_rate == deal.bot_win_rate
        result = replay(deal.number, deal.variant, deal.solution)
        assert result.error is None and result.won
        tried = [candidate_number(SECRET, DAY, challenge.tier, n) for n in range(60)]
        assert deal.number in tried
    # Idempotent: a second run changes nothing.
    assert prepare_daily(DAY) == ids
    assert DailyChallenge.objects.filter(date=DAY).count() == 3


@pytest.mark.slow
@pytest.mark.django_db
@rough_rating
def test_a_secret_change_leaves_published_days_alone() -> None:
    before = {c.tier: c.deal.number for c in map(_challenge, prepare_daily(DAY).values())}
    with override_settings(DAILY_SECRET="a brand new secret"):
        after = {c.tier: c.deal.number for c in map(_challenge, prepare_daily(DAY).values())}
        assert after == before
        tomorrow = DAY + dt.timedelta(days=1)
        assert candidate_number("a brand new secret", tomorrow, "easy", 0) != candidate_number(
            SECRET, tomorrow, "easy", 0
        )


@pytest.mark.slow
@pytest.mark.django_db
def test_a_candidate_the_solver_cannot_settle_is_skipped() -> None:
    # With a tiny node budget many candidates stay unknown. Find a day whose first easy
    # candidate is one of them: it must be skipped, never published.
    with override_settings(DAILY_SOLVE_NODES=300, DAILY_MAX_ATTEMPTS=200):
        for offset in range(60):
            day = DAY + dt.timedelta(days=offset)
            first = candidate_number(SECRET, day, "easy", 0)
            deal = daily.proven_winnable(first)
            if deal is None and Deal.objects.get(number=first).verdict == Verdict.UNKNOWN:
                break
        else:
            pytest.fail("no day in 60 starts with an unsettled easy candidate")
        challenge = daily.prepare_tier(day, "easy")
    assert challenge.deal.number != first
    assert challenge.deal.verdict == Verdict.SOLVED
    assert not DailyChallenge.objects.filter(deal__number=first).exists()


@pytest.mark.django_db
def test_giving_up_raises_a_clear_error() -> None:
    with (
        override_settings(DAILY_MAX_ATTEMPTS=0),
        pytest.raises(daily.DailyPreparationError, match="no candidate"),
    ):
        prepare_daily(DAY)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@rough_rating
def test_racing_preparations_publish_one_challenge_per_tier() -> None:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            prepare_daily(DAY)
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(DailyChallenge.objects.filter(date=DAY).values_list("tier", flat=True)) == [
        "easy",
        "hard",
        "medium",
    ]


@pytest.mark.slow
@pytest.mark.django_db
@rough_rating
def test_command_prepares_a_date_and_rejects_a_bad_one(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("prepare_daily", "--date", DAY.isoformat())
    out = capsys.readouterr().out
    assert f"{DAY} easy: ready" in out and f"{DAY} hard: ready" in out
    assert DailyChallenge.objects.filter(date=DAY).count() == 3
    with pytest.raises(CommandError, match="not a date"):
        call_command("prepare_daily", "--date", "2031-02-30")


def _challenge(pk: int) -> DailyChallenge:
    return DailyChallenge.objects.select_related("deal").get(pk=pk)


@pytest.mark.slow
@pytest.mark.django_db
@rough_rating
def test_the_embedded_default_prepares_a_missing_today_on_request(client: Client) -> None:
    with override_settings(DAILY_PREPARE_ON_REQUEST=False):
        assert client.get("/api/daily/").json()["challenges"] == []
    with override_settings(DAILY_PREPARE_ON_REQUEST=True):
        tiers = [c["tier"] for c in client.get("/api/daily/").json()["challenges"]]
    assert tiers == tiers_of(utc_today())  # on a Sunday the weekly too
    assert DailyChallenge.objects.filter(date=utc_today()).count() == len(tiers)


@pytest.mark.django_db
def test_a_deals_stored_line_is_the_search_line_without_its_detours() -> None:
    """The stored line is a day's par and the analyses' line from the deal. A hard
    Double Yukon deal's search wins thousands of moves deep (a weekly's par once read
    11,071 moves); stored, its line has the length of any other."""
    from games.deals import solve_deal

    wandering = 15149836622520594227  # yukon/tests/solver/test_lines.py
    deal = Deal.objects.create(number=wandering, variant="double-yukon")
    solved = solve_deal(deal.pk, seconds=60, nodes=200_000)
    assert solved is not None and solved.verdict == Verdict.SOLVED
    assert solved.solution is not None and 150 < len(solved.solution) < 300, len(solved.solution)
    assert replay(wandering, "double-yukon", solved.solution).won
