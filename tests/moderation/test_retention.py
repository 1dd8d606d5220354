"""Data retention (issue 41, item 2; docs/operations.md "Data retention"): where games were
started from goes after MODERATION_ORIGIN_DAYS (30) unless a case still open needs it;
guests' games no account took go GUEST_GAME_DAYS after their day closed (a practice game
once its session has ended too); expired sessions go; the download holds the origins and
the guest games taken; deletion forgets the origins but an open case's evidence."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from accounts import services as accounts
from accounts.models import User
from accounts.signals import personal_data
from games import retention, services
from games.models import Game, Mode, Move, Tier, utc_today
from games.tasks import clear_expired_sessions
from moderation import origins
from moderation.models import Appeal, AppealStatus, Flag, FlagKind, FlagStatus, GameOrigin, Report
from tests.factories import make_day, make_player, started_from

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]

DAY = dt.timedelta(days=1)


def daily(player: User, tier: str, date: dt.date, address: str) -> Game:
    with started_from(address, address.rsplit(".", maxsplit=1)[-1].rjust(32, "0")):
        game, _ = services.start_daily_game(services.Actor(player.pk), tier, today=date)
    return game


def guest_daily(session_key: str, tier: str, date: dt.date, address: str = "192.0.2.9") -> Game:
    with started_from(address):
        game, _ = services.start_daily_game(
            services.Actor(None, session_key=session_key), tier, today=date
        )
    return game


def open_flag(game: Game) -> Flag:
    return Flag.objects.create(game=game, kind=FlagKind.LINKED_ACCOUNTS, reason="a scout?")


def kept_origins() -> set[int]:
    return set(GameOrigin.objects.values_list("game_id", flat=True))


def test_origins_go_after_30_days_but_an_open_case_keeps_its_evidence(settings: Any) -> None:
    assert settings.MODERATION_ORIGIN_DAYS == 30  # the documented default
    today = utc_today()
    day = make_day(today)
    ann, bea, cid = make_player("Ann"), make_player("Bea"), make_player("Cid")
    flagged = daily(ann, Tier.EASY, today, "198.51.100.1")
    scout = guest_daily("scout-session", Tier.EASY, today)  # the same deal: evidence
    anns_other = daily(ann, Tier.HARD, today, "198.51.100.2")  # the flagged player's
    reported = daily(cid, Tier.MEDIUM, today, "198.51.100.3")
    daily(bea, Tier.HARD, today, "203.0.113.4")  # nobody's case: its origin goes
    flag = open_flag(flagged)
    report = Report.objects.create(game=reported, reporter=bea, reason="too fast")
    now = timezone.now()

    assert origins.purge_origins(now + 29 * DAY) == 0
    assert origins.purge_origins(now + 31 * DAY) == 1
    assert kept_origins() == {flagged.pk, scout.pk, anns_other.pk, reported.pk}

    Flag.objects.filter(pk=flag.pk).update(status=FlagStatus.CLEARED)
    Report.objects.filter(pk=report.pk).update(status="dismissed")
    assert origins.purge_origins(now + 31 * DAY) == 4
    assert not GameOrigin.objects.exists()
    assert day[Tier.EASY].games.count() == 2  # the games themselves stay

    settings.MODERATION_ORIGIN_DAYS = 60  # the setting is the rule
    daily(make_player("Dee"), Tier.EASY, today, "198.51.100.5")
    assert origins.purge_origins(now + 59 * DAY) == 0
    assert origins.purge_origins(now + 61 * DAY) == 1


def test_an_open_appeal_keeps_the_evidence_of_its_case() -> None:
    today = utc_today()
    make_day(today)
    eve = make_player("Eve")
    appealed = daily(eve, Tier.EASY, today, "198.51.100.7")
    evas_other = daily(eve, Tier.HARD, today, "198.51.100.8")
    linked = guest_daily("linked-session", Tier.EASY, today)
    Game.objects.filter(pk=appealed.pk).update(disqualified=True)
    appeal = Appeal.objects.create(game=appealed, player=eve, reason="I play fast")
    later = timezone.now() + 31 * DAY

    assert origins.purge_origins(later) == 0
    assert kept_origins() == {appealed.pk, evas_other.pk, linked.pk}

    Appeal.objects.filter(pk=appeal.pk).update(status=AppealStatus.UPHELD)
    assert origins.purge_origins(later) == 3


def test_unclaimed_guest_games_go_days_after_their_day_closed(settings: Any) -> None:
    assert settings.GUEST_GAME_DAYS == 7
    today = utc_today()
    old, recent = today - 9 * DAY, today - 7 * DAY  # closed 8 and 6 days ago
    make_day(old)
    make_day(recent)
    gone = guest_daily("guest-a", Tier.EASY, old)
    Move.objects.create(game=gone, ply=0, text="Ah>F", at_ms=10)
    kept_recent = guest_daily("guest-a", Tier.EASY, recent)
    taken = guest_daily("guest-b", Tier.MEDIUM, old)
    services.claim_guest_games(make_player("Eve"), "guest-b")  # an account's now
    under_review = guest_daily("guest-c", Tier.HARD, old)
    open_flag(daily(make_player("Fay"), Tier.HARD, old, "198.51.100.6"))

    assert retention.purge_guest_games() == 1
    left = set(Game.objects.values_list("pk", flat=True))
    assert gone.pk not in left and {kept_recent.pk, taken.pk, under_review.pk} <= left
    assert not Move.objects.filter(game_id=gone.pk).exists()
    assert not GameOrigin.objects.filter(game_id=gone.pk).exists()
    assert Game.objects.get(pk=taken.pk).played_as_guest

    settings.GUEST_GAME_DAYS = 5
    assert retention.purge_guest_games() == 1  # the recent one's time is up now
    Flag.objects.update(status=FlagStatus.UPHELD)  # the case is closed
    assert retention.purge_guest_games() == 1
    assert not Game.objects.filter(player__isnull=True, mode=Mode.GUEST).exists()


def test_guest_practice_games_go_once_their_session_has_ended() -> None:
    live = SessionStore()
    live.create()
    ended = SessionStore()
    ended.create()
    Session.objects.filter(session_key=ended.session_key).update(expire_date=timezone.now() - DAY)
    assert live.session_key and ended.session_key
    games = {
        key: services.start_practice_game(services.Actor(None, session_key=key), 7)
        for key in (live.session_key, ended.session_key, "never-stored")
    }
    fresh = services.start_practice_game(services.Actor(None, session_key="new-guest"), 8)
    Game.objects.exclude(pk=fresh.pk).update(started_at=timezone.now() - 8 * DAY)

    assert retention.purge_guest_games() == 2
    assert set(Game.objects.values_list("pk", flat=True)) == {games[live.session_key].pk, fresh.pk}

    clear_expired_sessions()  # the beat's task: expired sessions go, live ones stay
    assert set(Session.objects.values_list("session_key", flat=True)) == {live.session_key}


def test_the_download_has_the_origins_and_the_guest_games_taken() -> None:
    today = utc_today()
    make_day(today)
    gus = make_player("Gus")
    own = daily(gus, Tier.EASY, today, "198.51.100.7")
    as_guest = guest_daily("gus-phone", Tier.MEDIUM, today, "2001:db8::7")
    services.claim_guest_games(gus, "gus-phone")

    data = accounts.export_data(gus)
    by_game = {o["game"]: o for o in data["game_origins"]}
    assert set(by_game) == {own.pk, as_guest.pk}
    assert by_game[own.pk]["address"] == "198.51.100.7"
    assert by_game[own.pk]["device"] == "7".rjust(32, "0")
    assert by_game[as_guest.pk]["network"] == "2001:db8::/56"
    assert by_game[as_guest.pk]["user_agent"] == "Mozilla/5.0 (test)"
    guest_flags = {g["id"]: (g["mode"], g["played_as_guest"]) for g in data["games"]}
    assert guest_flags == {own.pk: ("daily", False), as_guest.pk: ("guest", True)}


def test_an_app_cannot_overwrite_another_apps_section() -> None:
    def clobber(sender: Any, **kwargs: Any) -> dict[str, Any]:
        return {"game_origins": []}

    personal_data.connect(clobber, dispatch_uid="tests.clobber")
    try:
        with pytest.raises(ValueError, match="game_origins"):
            accounts.export_data(make_player("Hal"))
    finally:
        personal_data.disconnect(dispatch_uid="tests.clobber")


def test_deletion_forgets_the_origins_but_an_open_cases_evidence() -> None:
    today = utc_today()
    make_day(today)
    ivy, jon = make_player("Ivy"), make_player("Jon")
    plain = daily(ivy, Tier.EASY, today, "198.51.100.8")
    evidence = daily(ivy, Tier.HARD, today, "198.51.100.9")
    open_flag(daily(jon, Tier.HARD, today, "198.51.100.10"))  # Ivy's hard game may be its scout

    accounts.delete_account(ivy)
    assert kept_origins() >= {evidence.pk} and plain.pk not in kept_origins()
    Flag.objects.update(status=FlagStatus.CLEARED)
    assert origins.purge_origins(timezone.now() + 31 * DAY) == 2
