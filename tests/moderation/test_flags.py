"""The automatic flags, one by one, on games played through the services with a fake clock."""

from __future__ import annotations

import datetime as dt

import pytest

from games.models import Tier
from moderation import services
from moderation.flags import Thresholds, intervals, longest_fast_run, pacing_findings
from moderation.models import Flag, FlagKind
from tests.moderation.conftest import LINES, Clock, make_day, make_user, play_timed

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]


def kinds(game_id: int) -> set[str]:
    return set(Flag.objects.filter(game_id=game_id).values_list("kind", flat=True))


def test_pacing_rules_on_plain_numbers() -> None:
    t = Thresholds()
    assert intervals([100, 250, 250]) == [100, 150, 0]
    assert longest_fast_run([200, 100, 100, 300, 1, 1, 1], 150) == 3
    robot = [i * 100 for i in range(1, 60)]
    found = {f.kind for f in pacing_findings(robot, t)}
    assert found == {FlagKind.FAST_MOVES, FlagKind.EVEN_PACING}
    metronome = [i * 1500 for i in range(1, 60)]  # a slow bot: even, not fast
    assert {f.kind for f in pacing_findings(metronome, t)} == {FlagKind.EVEN_PACING}
    assert pacing_findings(metronome[:20], t) == []  # too few moves to judge
    bursts = []
    at = 0
    for i in range(60):
        at += 100 if i % 7 else 4000  # 6 quick moves, then a pause: below the run of 8
        bursts.append(at)
    assert pacing_findings(bursts, t) == []


def test_thresholds_come_from_settings(settings: object) -> None:
    settings.MODERATION_FAST_MOVE_RUN = 3  # type: ignore[attr-defined]
    assert Thresholds.from_settings().fast_move_run == 3


def test_fast_finish_and_a_new_players_perfect_hard_game(
    clock: Clock, django_capture_on_commit_callbacks: object
) -> None:
    day = make_day()
    line = LINES[68]
    # 150..550 ms a move: too fast for the line's length, yet uneven and never under 150 ms
    gaps = [150 + (i * 137) % 400 for i in range(len(line))]
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        game = play_timed(make_user("Neo"), day[Tier.HARD], line, gaps, clock)
    game.refresh_from_db()
    assert game.verification == "verified" and game.score == 625
    assert kinds(game.pk) == {FlagKind.FAST_FINISH, FlagKind.PERFECT_FIRST_TRY}
    flag = Flag.objects.get(game=game, kind=FlagKind.FAST_FINISH)
    assert f"solver's line has {len(line)} moves" in flag.reason
    assert flag.measured["floor_ms"] == len(line) * 400

    # the same game at a human pace, by a player with three earlier dailies: no flag
    old = make_user("Old")
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        for days_ago, tier in enumerate([Tier.EASY, Tier.MEDIUM, Tier.EASY], start=1):
            past = make_day(day[Tier.EASY].date - dt.timedelta(days=days_ago),
                            {tier: {Tier.EASY: 0, Tier.MEDIUM: 1}[tier]})[tier]
            play_timed(old, past, LINES[past.deal.number][:5], [2000] * 5, clock, resign=True)
            clock.advance(3600_000)
        slow = [1500 + (i * 911) % 3000 for i in range(len(line))]
        game = play_timed(old, day[Tier.HARD], line, slow, clock)
    game.refresh_from_db()
    assert game.verification == "verified" and kinds(game.pk) == set()


def test_several_accounts_from_one_address(
    clock: Clock, django_capture_on_commit_callbacks: object
) -> None:
    day = make_day()
    easy = day[Tier.EASY]
    line = LINES[0][:10]
    gaps = [2000 + 700 * (i % 5) for i in range(len(line))]
    game_ids = []
    token = services.client_address.set("203.0.113.7")
    try:
        with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
            for name in ("Ann", "Bob", "Cat"):
                game = play_timed(make_user(name), easy, line, gaps, clock, resign=True)
                game_ids.append(game.pk)
    finally:
        services.client_address.reset(token)
    # two accounts at one address are a household; the third raises the flag on all three
    assert [kinds(g) for g in game_ids] == [{FlagKind.SHARED_ADDRESS}] * 3
    flag = Flag.objects.get(game_id=game_ids[0])
    assert flag.measured["accounts"] == 3 and flag.measured["address"] == "203.0.113.7"
