"""Fixes from the review of the close-of-day and commitment work (issue 17), each tested
from the attacker's (or careless operator's) side first."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from accounts.models import User
from games.models import DailyChallenge, Deal, Game
from tests.factories import client_for, make_challenge

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(db: None) -> Client:
    root = User.objects.create_superuser(username="root", display_name="Root", password="x")
    return client_for(root)


# ----- 1. a published commitment cannot be silently broken ----------------------------------


def test_the_challenge_admin_cannot_change_what_the_commitment_covers(
    superuser_client: Client,
) -> None:
    challenge = make_challenge()
    other = Deal.objects.create(number=987_654, variant="yukon")
    url = f"/admin/games/dailychallenge/{challenge.pk}/change/"
    page = superuser_client.get(url)
    assert page.status_code == 200
    answer = superuser_client.post(
        url,
        {
            "date": (challenge.date + dt.timedelta(days=3)).isoformat(),
            "tier": "hard",
            "deal": other.pk,
            "bot_win_rate": "0.25",
        },
    )
    assert answer.status_code == 302, answer.content
    stored = DailyChallenge.objects.get(pk=challenge.pk)
    assert (stored.date, stored.tier, stored.deal_id) == (
        challenge.date,
        challenge.tier,
        challenge.deal_id,
    )
    assert stored.bot_win_rate == 0.25  # what the commitment does not cover stays editable
    assert stored.commitment == stored.expected_commitment()


def test_the_deal_admin_cannot_change_a_deal_games_are_dealt_from(
    superuser_client: Client,
) -> None:
    deal = make_challenge().deal
    url = f"/admin/games/deal/{deal.pk}/change/"
    answer = superuser_client.post(
        url,
        {
            "number": 5,
            "variant": "alaska",
            "algorithm_version": 7,
            "verdict": "solved",
            "solution": "null",
        },
    )
    assert answer.status_code == 302, answer.content
    stored = Deal.objects.get(pk=deal.pk)
    assert (stored.number, stored.variant, stored.algorithm_version) == (
        deal.number,
        deal.variant,
        deal.algorithm_version,
    )
    assert stored.verdict == "solved"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("date", dt.date(2031, 1, 1)),
        ("tier", "hard"),
        ("salt", "ab" * 16),
        ("commitment", "0" * 64),
    ],
)
def test_saving_a_sealed_challenge_with_a_changed_field_is_refused(
    field: str, value: object
) -> None:
    challenge = make_challenge()
    edited = DailyChallenge.objects.get(pk=challenge.pk)
    setattr(edited, field, value)
    with pytest.raises(ValueError, match=f"{field} cannot change"):
        edited.save()
    with pytest.raises(ValueError, match=f"{field} cannot change"):
        edited.save(update_fields=[field])
    assert DailyChallenge.objects.get(pk=challenge.pk).commitment == challenge.commitment


def test_saving_a_challenge_on_another_deal_is_refused() -> None:
    challenge = make_challenge()
    challenge.deal = Deal.objects.create(number=424_242, variant="yukon")
    with pytest.raises(ValueError, match="deal cannot change"):
        challenge.save()
    challenge = DailyChallenge.objects.get(pk=challenge.pk)
    challenge.bot_win_rate = 0.75  # not covered: still writable
    challenge.save()
    assert DailyChallenge.objects.get(pk=challenge.pk).bot_win_rate == 0.75


@pytest.mark.parametrize(
    ("field", "value"), [("number", 31), ("variant", "alaska"), ("algorithm_version", 9)]
)
def test_saving_a_deal_with_a_changed_identity_is_refused(field: str, value: object) -> None:
    deal = make_challenge().deal
    setattr(deal, field, value)
    with pytest.raises(ValueError, match=f"{field} cannot change"):
        deal.save()
    fresh = Deal.objects.get(pk=deal.pk)
    fresh.verdict, fresh.solution = "unwinnable", None  # the solver's fields stay writable
    fresh.save(update_fields=["verdict", "solution"])
    fresh.save()
    assert Deal.objects.get(pk=deal.pk).verdict == "unwinnable"
    assert Game.objects.filter(deal=deal).count() == 0


# ----- 4. resigning across midnight ---------------------------------------------------------


class _MidnightClock:
    """``timezone.now`` that reads just before the close once armed, then just after."""

    def __init__(self, close: dt.datetime) -> None:
        self.close = close
        self.reads = 0

    def __call__(self) -> dt.datetime:
        self.reads += 1
        if self.reads == 1:
            return self.close - dt.timedelta(microseconds=1)
        return self.close + dt.timedelta(microseconds=self.reads)


def test_a_resign_read_before_midnight_finishes_before_the_close(
    monkeypatch: pytest.MonkeyPatch, player: User
) -> None:
    from django.utils import timezone

    from games.models import Status, Verification
    from games.services import Actor, resign_game, start_daily_game

    challenge = make_challenge()
    game, _ = start_daily_game(Actor(user_id=player.pk), challenge.tier, today=challenge.date)
    Game.objects.filter(pk=game.pk).update(started_at=challenge.closes_at - dt.timedelta(minutes=5))
    monkeypatch.setattr(timezone, "now", _MidnightClock(challenge.closes_at))
    resign_game(Actor(user_id=player.pk), game.pk)
    ended = Game.objects.get(pk=game.pk)
    assert ended.status == Status.RESIGNED
    assert ended.finished_at is not None and ended.finished_at < challenge.closes_at
    assert ended.verification != Verification.REJECTED, ended.rejection_reason
