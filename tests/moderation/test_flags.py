"""The automatic flags one by one: on logs judged directly, and on games played through the
services with a fake clock (verified by the in-process Celery task, flagged by the signal)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest

from games.models import Tier
from moderation.detector import (
    PlayedGame,
    Thresholds,
    common_subsequence,
    judge,
    longest_fast_run,
    spearman,
    spread,
    steps_of,
)
from moderation.models import Flag, FlagKind
from tests.factories import LINES, Clock, make_day, make_player, play_timed, started_from
from tests.redteam import with_detours
from yukon.engine import move_text
from yukon.solver import solve


# the log-only tests need nothing; the ones through the services need the real services
def through_services(test: Any) -> Any:
    for mark in (pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis):
        test = mark(test)
    return test


NO_SOLVER = Thresholds(solver_agree_min=10**9)  # timing alone


def kinds(game_id: int) -> set[str]:
    return set(Flag.objects.filter(game_id=game_id).values_list("kind", flat=True))


def log(
    gaps: list[int],
    *,
    idle: int = 2000,
    line: list[str] | None = None,
    solution: list[str] | None = None,
) -> PlayedGame:
    """Deal 0 played along ``line`` (its known winning line), each move ``gaps[i]`` apart."""
    moves = line or LINES[0]
    stamps, at = [], idle
    for i in range(len(moves)):
        at += gaps[i % len(gaps)] if i else 0
        stamps.append(at)
    return PlayedGame(number=0, moves=moves, at_ms=stamps, solution=solution)


def found(game: PlayedGame, t: Thresholds = NO_SOLVER) -> set[str]:
    return {f.kind for f in judge(game, t)}


def test_pacing_is_timed_from_the_first_move() -> None:
    assert longest_fast_run([200, 100, 100, 300, 1, 1, 1], 150) == 3
    assert spread([1000, 1000, 1000, 1000]) == 0.0
    robot = log([100])
    assert found(robot) == {"fast_moves", "even_pacing", "fast_reaction", "flat_timing"}
    # a patient bot: a minute of waiting, then 0.25 s a move; the old flags timed the
    # game from its start (the minute made the whole game look slow and uneven)
    idle_bot = log([250], idle=60_000, solution=LINES[0])
    assert {"even_pacing", "fast_reaction", "fast_finish"} <= found(idle_bot)
    metronome = log([1500])  # a slow bot: even, never fast
    assert found(metronome) & {"fast_moves", "fast_reaction", "fast_finish"} == set()
    assert "even_pacing" in found(metronome)
    assert found(log([1500], line=LINES[0][:20])) == set()  # too few moves to judge
    bursts = [100 if i % 7 else 4000 for i in range(60)]  # 6 quick moves, then a pause
    assert "fast_moves" not in found(log(bursts))


def test_a_turned_card_used_at_once_is_what_no_person_can_do() -> None:
    steps = steps_of(log([2000]))
    uses = [i for i, s in enumerate(steps) if s.uses_turned]
    assert len(uses) >= 5
    slow = [1500 + (i * 911) % 3000 for i in range(len(steps))]
    instant = [200 if i in uses else g for i, g in enumerate(slow)]
    assert "fast_reaction" in found(log(instant))
    # the same quick gaps before moves that do not use the new card: a planned run, fine
    planned = [200 if i + 1 in uses and i not in uses else g for i, g in enumerate(slow)]
    assert "fast_reaction" not in found(log(planned))


def test_thinking_follows_the_position_for_people_not_for_scripts() -> None:
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert spearman([1, 2, 3, 4], [40, 30, 20, 10]) == -1.0
    steps = steps_of(log([2000]))
    # a person: longer before moves with more choices and after a card turned up
    person = [
        int(300 * s.choices + (900 if s.after_turn else 0) + 97 * (i % 7))
        for i, s in enumerate(steps)
    ]
    assert "flat_timing" not in found(log(person))
    shuffled = sorted(person, key=lambda g: (g * 7919) % 1009)  # the same delays, blind
    assert "flat_timing" in found(log(shuffled))


def test_the_stored_line_is_found_through_detours() -> None:
    line = solve(0).moves
    assert common_subsequence([(1, 2), (3, 4), (5, 6)], [(3, 4), (9, 9), (5, 6)]) == 2
    t = Thresholds()
    stamps = [1800 + 400 * (i % 9) for i in range(300)]
    plain = log(stamps, line=line, solution=line)
    assert "solver_line" in found(plain, t)
    detoured = with_detours(0, line, 6, random.Random(3))
    assert len(detoured) > len(line)
    texts = [move_text(m) for m in detoured]
    assert "solver_line" in found(log(stamps, line=texts, solution=line), t)
    # another winning line of the same deal is not the stored one
    assert "solver_line" not in found(log(stamps, line=LINES[0], solution=line), t)


def test_thresholds_come_from_settings(settings: object) -> None:
    settings.MODERATION_FAST_MOVE_RUN = 3  # type: ignore[attr-defined]
    assert Thresholds.from_settings().fast_move_run == 3


def test_the_settings_defaults_are_the_documented_ones() -> None:
    assert Thresholds.from_settings() == Thresholds()


@through_services
def test_fast_finish_and_a_new_players_perfect_hard_game(
    clock: Clock, django_capture_on_commit_callbacks: object
) -> None:
    clock.now = dt.datetime.combine(clock.now.date(), dt.time(7), tzinfo=dt.UTC)  # day open
    day = make_day()
    line = LINES[68]
    # 150..550 ms a move: too fast for the line's length, yet uneven and never under 150 ms
    gaps = [150 + (i * 137) % 400 for i in range(len(line))]
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        game = play_timed(make_player("Neo"), day[Tier.HARD], line, gaps, clock)
    game.refresh_from_db()
    assert game.verification == "verified" and game.score == 625
    assert {FlagKind.FAST_FINISH, FlagKind.PERFECT_FIRST_TRY, FlagKind.SOLVER_LINE} <= kinds(
        game.pk
    )
    flag = Flag.objects.get(game=game, kind=FlagKind.FAST_FINISH)
    assert f"solver's line has {len(line)} moves" in flag.reason
    assert flag.measured["floor_ms"] == len(line) * 400

    # the same line at a human pace, by a player with three earlier dailies: no pace flag
    # and no first-try flag any more, but the stored line is still recognised
    old = make_player("Old")
    today = clock.now
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        for days_ago, tier in enumerate([Tier.EASY, Tier.MEDIUM, Tier.EASY], start=1):
            past = make_day(
                day[Tier.EASY].date - dt.timedelta(days=days_ago),
                {tier: {Tier.EASY: 0, Tier.MEDIUM: 1}[tier]},
            )[tier]
            clock.now = dt.datetime.combine(past.date, dt.time(9), tzinfo=dt.UTC)  # its day
            play_timed(old, past, LINES[past.deal.number][:5], [2000] * 5, clock, resign=True)
        clock.now = today
        slow = [1500 + (i * 911) % 3000 for i in range(len(line))]
        game = play_timed(old, day[Tier.HARD], line, slow, clock)
    game.refresh_from_db()
    assert game.verification == "verified"
    assert FlagKind.SOLVER_LINE in kinds(game.pk)
    # the solver's line never gives the win up where the face-up cards mislead: clairvoyant
    allowed = {
        FlagKind.SOLVER_LINE,
        FlagKind.SOLVER_MOVES,
        FlagKind.FLAT_TIMING,
        FlagKind.CLAIRVOYANCE,
    }
    assert kinds(game.pk) <= allowed


@through_services
def test_several_accounts_from_one_address(
    clock: Clock, django_capture_on_commit_callbacks: object
) -> None:
    day = make_day()
    easy = day[Tier.EASY]
    line = LINES[0][:10]
    gaps = [2000 + 700 * (i % 5) for i in range(len(line))]
    game_ids = []
    with started_from("203.0.113.7"), django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        for name in ("Ann", "Bob", "Cat"):
            game = play_timed(make_player(name), easy, line, gaps, clock, resign=True)
            game_ids.append(game.pk)
    # two accounts at one address are a household; the third raises the flag on all three.
    # Each one after the first played cards the others had turned: linked.
    linked = {FlagKind.SHARED_ADDRESS, FlagKind.LINKED_ACCOUNTS}
    assert [kinds(g) for g in game_ids] == [{FlagKind.SHARED_ADDRESS}, linked, linked]
    flag = Flag.objects.get(game_id=game_ids[0])
    assert flag.measured["accounts"] == 3 and flag.measured["address"] == "203.0.113.7"
