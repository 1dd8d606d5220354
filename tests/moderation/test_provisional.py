"""Provisional results: a new account's ranked result is marked on its board until the check
after the close passes (no open flag once every game of the day has ended and been judged)
or a moderator confirms or removes it."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from accounts.models import User
from games import services
from games.models import DailyChallenge, Game, Tier
from moderation import services as moderation
from moderation.models import AuditAction, AuditLog, Flag, FlagKind
from tests.factories import (
    LINES,
    Clock,
    client_for,
    make_challenge,
    make_day,
    make_player,
    play_timed,
    result,
    started_from,
)

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]

LINE = LINES[0]
HUMAN = [1800 + 650 * (i % 7) for i in range(len(LINE))]


def established(name: str, clock: Clock) -> User:
    """An account a month old with three verified dailies behind it."""
    player = make_player(name)
    User.objects.filter(pk=player.pk).update(date_joined=clock.now - dt.timedelta(days=30))
    for days in (4, 3, 2):
        past = make_challenge(clock.now.date() - dt.timedelta(days=days))
        result(player, past, finished_at=clock.now - dt.timedelta(days=days))
    player.refresh_from_db()
    return player


def board_rows(date: dt.date) -> dict[str, Any]:
    answer = client_for(None).get(f"/api/leaderboards/daily/{date.isoformat()}/easy/")
    assert answer.status_code == 200, answer.content
    return {row["display_name"]: row for row in answer.json()["results"]}


def play(player: User, clock: Clock, capture: Any, address: str) -> Game:
    """``player`` wins today's easy daily at a person's pace, from ``address``."""
    challenge = DailyChallenge.objects.get(date=clock.now.date(), tier=Tier.EASY)
    with started_from(address), capture(execute=True):
        game = play_timed(player, challenge, LINE, HUMAN, clock)
    game.refresh_from_db()
    return game


def test_a_new_accounts_result_is_marked_and_an_established_ones_is_not(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    make_day()
    new = play(make_player("Newcomer"), clock, django_capture_on_commit_callbacks, "198.51.100.1")
    old = play(
        established("Regular", clock), clock, django_capture_on_commit_callbacks, "203.0.113.1"
    )
    assert (new.provisional, old.provisional) == (True, False)
    rows = board_rows(clock.now.date())
    assert rows["Newcomer"]["provisional"] is True
    assert rows["Regular"]["provisional"] is False
    assert rows["Newcomer"]["rank"] == 1 or rows["Regular"]["rank"] == 1  # it still ranks


def test_the_close_check_confirms_unflagged_results_once_the_day_has_settled(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    make_day()
    today = clock.now.date()
    clean = play(make_player("Clean"), clock, django_capture_on_commit_callbacks, "198.51.100.1")
    flagged = play(make_player("Flagged"), clock, django_capture_on_commit_callbacks, "203.0.113.1")
    # the scripted winning line draws the log's flags; here it stands for a clean game
    Flag.objects.filter(game=clean).delete()
    Flag.objects.get_or_create(game=flagged, kind=FlagKind.SOLVER_MOVES, defaults={"reason": "t"})
    # a game still in play: the day has not settled, so nothing is confirmed yet
    lingering = make_player("Lingering")
    actor = services.Actor(user_id=lingering.pk)
    with started_from("192.0.2.7"):
        game, _ = services.start_daily_game(actor, Tier.EASY, today=today)
    services.play_move(actor, game.pk, 0, LINE[0])
    assert moderation.confirm_provisional(today) == []  # the day is still open
    tomorrow = today + dt.timedelta(days=1)
    assert moderation.confirm_provisional(tomorrow) == [], "a game of the day is still in play"
    with django_capture_on_commit_callbacks(execute=True):
        services.abandon_game(game.pk)
    # the unfinished game is a result too (played, not won): confirmed like the clean win
    assert sorted(moderation.confirm_provisional(tomorrow)) == [clean.pk, game.pk]
    clean.refresh_from_db()
    flagged.refresh_from_db()
    assert (clean.provisional, flagged.provisional) == (False, True)
    assert board_rows(today)["Flagged"]["provisional"] is True


def test_a_moderator_confirms_a_flagged_provisional_result_and_it_is_audited(
    clock: Clock, django_capture_on_commit_callbacks: Any, moderator: User
) -> None:
    make_day()
    game = play(make_player("Flagged"), clock, django_capture_on_commit_callbacks, "198.51.100.1")
    assert game.provisional
    moderation.confirm_result(moderator, game.pk, "looked at the replay: a person")
    game.refresh_from_db()
    assert not game.provisional
    entry = AuditLog.objects.get(action=AuditAction.CONFIRM_RESULT)
    assert entry.target_id == str(game.pk) and entry.actor_name == moderator.username
    # confirming again changes nothing and writes nothing
    moderation.confirm_result(moderator, game.pk, "again")
    assert AuditLog.objects.filter(action=AuditAction.CONFIRM_RESULT).count() == 1
