"""The results screen's figures (``GET /api/games/<id>/results/``, leaderboards/results.py).

A prepared day with several players: the record, the day's spread with the player's bar
and percentile, par, the bot's game and the next deal, exactly as the board counts them
(verified, not disqualified, the same tier). Who may read it, a guest's empty record, and
nothing secret in it while the day is open.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import daily, services
from games.models import DailyChallenge, Deal, Game, Mode, Status, Tier, Verification, utc_today
from leaderboards import results
from tests.factories import (
    LINES,
    SECRET_DAILY_NUMBERS,
    Api,
    Clock,
    logged_in,
    make_challenge,
    make_challenges,
    make_day,
    make_player,
    pass_second_factor,
    play_timed,
    result,
)
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture: fresh Redis keys)
from yukon.engine import Position

WIN = LINES[0]  # deal 0, today's easy deal below: 99 moves
CARD = re.compile(r"(?<![0-9A-Za-z])[A2-9TJQK][cdhs](?![0-9A-Za-z])")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    fake = Clock(dt.datetime.combine(utc_today(), dt.time(9), tzinfo=dt.UTC))
    monkeypatch.setattr(timezone, "now", fake)
    yield fake


def after(number: int, moves: list[str]) -> str:
    """The stored text of deal ``number`` after ``moves``."""
    position = Position.deal(number)
    for text in moves:
        position.play_text(text)
    return position.to_text()


def lost(player: User, challenge: DailyChallenge, moves: list[str], **extra: Any) -> Game:
    """A counted game that ended after ``moves`` of the deal (its cards home are real)."""
    game = result(player, challenge, won=False, score=0, save=False, **extra)
    game.position = after(challenge.deal.number, moves)
    game.save()
    return game


@pytest.fixture
def day(db: None, clock: Clock, django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """Today: the easy deal is deal 0. Four others won it (1, 2, 3:20 and 6:40 minutes),
    four did not (2, 5, 13 and 13 cards home); three results do not count (pending,
    disqualified, another tier). Alice has won yesterday and lost the day before."""
    challenges = make_day()
    easy = challenges[Tier.EASY]
    DailyChallenge.objects.filter(pk=easy.pk).update(bot_win_rate=0.41)
    easy.refresh_from_db()
    for name, ms in [("Ann", 60_000), ("Ben", 120_000), ("Cy", 200_000), ("Di", 400_000)]:
        result(make_player(name), easy, elapsed_ms=ms)
    for name, moves in [("Ed", 30), ("Fay", 60), ("Gil", 20), ("Hu", 50)]:
        lost(make_player(name), easy, WIN[:moves])
    result(make_player("Gus"), easy, elapsed_ms=10_000, verification=Verification.PENDING)
    hal = result(make_player("Hal"), easy, elapsed_ms=5_000, save=False)
    hal.disqualified = True
    hal.save()
    result(make_player("Ivy"), challenges[Tier.MEDIUM], elapsed_ms=1_000)
    lost(make_player("Jo"), challenges[Tier.MEDIUM], [])

    alice = make_player("Alice")
    today = utc_today()
    result(alice, make_challenge(today - dt.timedelta(days=1)), elapsed_ms=90_000)
    result(alice, make_challenge(today - dt.timedelta(days=2)), won=False, status=Status.STUCK)
    # Alice wins in 148.5 s; Bob resigns after 50 moves, 13 cards home.
    bob = make_player("Bob")
    with django_capture_on_commit_callbacks(execute=True):  # verified, as by the worker
        play_timed(alice, easy, WIN, [1500] * len(WIN), clock)
        play_timed(bob, easy, WIN[:50], [1000] * 50, clock, resign=True)
    won, resigned = (Game.objects.get(player=p, challenge=easy) for p in (alice, bob))
    return {"easy": easy, "alice": alice, "bob": bob, "won": won, "resigned": resigned}


def get(client: Client, game: Game | int) -> tuple[int, Any]:
    game_id = game if isinstance(game, int) else game.pk
    return Api(client).get(f"/api/games/{game_id}/results/")


def bars(spread: dict[str, Any]) -> list[tuple[int, int | None, int, bool]]:
    return [(bar["low"], bar["high"], bar["count"], bar["yours"]) for bar in spread["bars"]]


def test_a_winner_sees_record_times_percentile_bot_and_next_deal(day: dict[str, Any]) -> None:
    won = day["won"]
    assert (won.status, won.elapsed_ms, won.verification) == ("won", 148_500, "verified")
    status, body = get(logged_in(day["alice"]), won)
    assert status == 200, body
    # Three days: won yesterday and today, lost the day before: a streak of two.
    assert body["record"] == {
        "played": 3,
        "won": 2,
        "win_rate": 0.6667,
        "current_streak": 2,
        "best_streak": 2,
    }
    spread = body["spread"]
    assert spread["kind"] == "time" and spread["yours"] == 148_500
    # Half-minute bars from 1:00; 6:40 is past the day's 90th percentile: the open last bar.
    assert bars(spread) == [
        (60_000, 90_000, 1, False),
        (90_000, 120_000, 0, False),
        (120_000, 150_000, 2, True),
        (150_000, 180_000, 0, False),
        (180_000, 210_000, 1, False),
        (210_000, None, 1, False),
    ]
    # Faster than Cy and Di, not Ann or Ben: 50 %. Gus (pending), Hal (disqualified) and
    # Ivy (medium), all faster, are not on the board and not in the figures.
    assert (spread["compared"], spread["beaten"], spread["percentile"]) == (4, 2, 50)
    assert spread["counted"] is True
    assert (spread["results"], spread["wins"]) == (10, 5)
    assert body["par"] is None  # the solver's line is the deal's: not while the day is open
    expected = daily.play_bot_game(day["easy"].deal)
    assert body["bot"] == {
        "won": expected.won,
        "moves": expected.moves,
        "cards_home": expected.cards_home,
        "cards": 52,
        "win_rate": 0.41,
    }
    stored = DailyChallenge.objects.get(pk=day["easy"].pk)
    assert (stored.bot_moves, stored.bot_cards_home) == (expected.moves, expected.cards_home)
    midnight = dt.datetime.combine(utc_today() + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    assert dt.datetime.fromisoformat(body["next_deal_at"]) == midnight
    assert dt.datetime.fromisoformat(body["closes_at"]) == midnight
    assert body["guest"] is False


def test_a_player_who_did_not_win_is_placed_by_cards_home(day: dict[str, Any]) -> None:
    status, body = get(logged_in(day["bob"]), day["resigned"])
    assert status == 200, body
    assert body["record"] == {
        "played": 1,
        "won": 0,
        "win_rate": 0.0,
        "current_streak": 0,
        "best_streak": 0,
    }
    spread = body["spread"]
    assert spread["kind"] == "cards_home" and spread["yours"] == 13
    # Others who did not win: 2, 5, 13, 18 cards home; bars three cards wide from 0.
    assert bars(spread) == [
        (0, 3, 1, False),
        (3, 6, 1, False),
        (6, 9, 0, False),
        (9, 12, 0, False),
        (12, 15, 2, True),
        (15, 18, 0, False),
        (18, 21, 1, False),
    ]
    # More cards home than Gil (2) and Ed (5); level with Hu (13) beats nobody.
    assert (spread["compared"], spread["beaten"], spread["percentile"]) == (4, 2, 50)
    assert (spread["results"], spread["wins"]) == (10, 5)


def test_the_weekly_streak_and_the_weekly_tier_count_apart(db: None) -> None:
    sunday = utc_today() - dt.timedelta(days=(utc_today().weekday() + 1) % 7 or 7)
    deal = Deal.objects.create(number=424242, variant="double-yukon")
    weekly = DailyChallenge.objects.create(date=sunday, tier="weekly", deal=deal)
    eve = make_player("Eve")
    game = result(eve, weekly, elapsed_ms=900_000, score=1260)
    result(eve, make_challenge(sunday), elapsed_ms=90_000)  # a daily: not the weekly's record
    status, body = get(logged_in(eve), game)
    assert status == 200, body
    assert body["record"] == {
        "played": 1,
        "won": 1,
        "win_rate": 1.0,
        "current_streak": 1,
        "best_streak": 1,
    }
    assert body["bot"]["cards"] == 104
    assert body["par"] is None  # no solution stored
    assert dt.datetime.fromisoformat(body["next_deal_at"]) == dt.datetime.combine(
        sunday + dt.timedelta(days=7), dt.time(), tzinfo=dt.UTC
    )


def test_who_may_read_results(day: dict[str, Any], clock: Clock) -> None:
    alice, stranger = logged_in(day["alice"]), logged_in(make_player("Stranger"))
    # Another's game on an open day: not there at all, as the game itself is not.
    status, body = get(stranger, day["won"])
    assert status == 404 and body == {"detail": "no such game"}
    assert get(Client(), day["won"])[0] == 404
    # Staff, second factor passed, read the game itself, but the screen stays the player's.
    staff_user = make_player("Staff", staff=True)
    staff = logged_in(staff_user)
    pass_second_factor(staff, staff_user)
    assert Api(staff).get(f"/api/games/{day['won'].pk}/")[0] == 200
    assert get(staff, day["won"])[0] == 404
    # One's own game in play waits for its end; a stranger learns nothing of it.
    medium, _ = services.start_daily_game(services.Actor(user_id=day["alice"].pk), "medium")
    status, body = get(alice, medium)
    assert status == 409 and body["status"] == "playing", body
    assert get(stranger, medium)[0] == 404
    # Practice games have no results screen; an unknown id is a 404 like any.
    practice = services.start_practice_game(services.Actor(user_id=day["alice"].pk), 5, "yukon")
    assert get(alice, practice) == (404, {"detail": "only a daily game has a results screen"})
    assert get(alice, 9_999_999)[0] == 404
    # Once the day has closed, a finished daily is public: its results too, with par.
    yesterday = utc_today() - dt.timedelta(days=1)
    deal = Deal.objects.create(number=31337, variant="yukon", solution=["8d>6"] * 97)
    closed = DailyChallenge.objects.create(date=yesterday, tier="hard", deal=deal)
    old = result(day["alice"], closed, elapsed_ms=300_000)
    status, body = get(stranger, old)
    assert status == 200, body
    assert body["par"] == 97
    assert body["record"]["won"] == 3  # Alice's record, which her player page shows anyone


def test_a_held_result_is_told_to_its_player_alone(day: dict[str, Any], clock: Clock) -> None:
    """A result moderation holds off the boards (a guest's game linked to it): its player's
    screen says so (it said "you are on today's board"); nobody else learns of the hold."""
    won = day["won"]
    status, body = get(logged_in(day["alice"]), won)
    assert status == 200 and body["held"] is False and body["spread"]["counted"] is True
    Game.objects.filter(pk=won.pk).update(held=True, provisional=True)
    status, body = get(logged_in(day["alice"]), won)
    assert status == 200 and body["held"] is True, body
    assert body["spread"]["counted"] is False  # off the board: not among the counted
    Game.objects.filter(pk=won.pk).update(disqualified=True)  # a moderator has decided
    assert get(logged_in(day["alice"]), won)[1]["held"] is False
    Game.objects.filter(pk=won.pk).update(disqualified=False)
    clock.advance(24 * 3600 * 1000)  # closed: the results are anyone's, not the hold
    status, body = get(logged_in(make_player("Stranger")), won)
    assert status == 200 and body["held"] is False, body


def test_a_held_result_is_explained_wherever_its_player_meets_it(
    day: dict[str, Any], clock: Clock
) -> None:
    """Held, the won game left the home page saying "Your game: won" beside a streak of 0,
    the player page's list and the archive calendar (which said "today, play it"), with no
    word why. Its player now meets it marked everywhere; nobody else learns of the hold."""
    alice, won = day["alice"], day["won"]
    Game.objects.filter(pk=won.pk).update(held=True, provisional=True)
    own, stranger = Api(logged_in(alice)), Api(logged_in(make_player("Stranger")))
    today = utc_today().isoformat()

    easy = next(c for c in own.get("/api/daily/")[1]["challenges"] if c["tier"] == "easy")
    assert easy["game"]["id"] == won.pk and easy["game"]["held"] is True

    status, page = own.get(f"/api/players/{alice.display_name}/")
    assert status == 200, page
    (row,) = [g for g in page["games"] if g["game_id"] == won.pk]
    assert row["held"] is True and row["rank"] is None and row["date"] == today
    assert all(g["held"] is False for g in page["games"] if g["game_id"] != won.pk)
    status, seen = stranger.get(f"/api/players/{alice.display_name}/")
    assert status == 200 and won.pk not in [g["game_id"] for g in seen["games"]]
    assert seen["count"] == page["count"] - 1 and seen["played"] == page["played"]

    status, calendar = own.get(f"/api/calendar/{today[:7]}/")
    assert status == 200, calendar
    (entry,) = [d for d in calendar["days"] if d["date"] == today]
    assert entry["tiers"]["easy"] == "held"

    Game.objects.filter(pk=won.pk).update(disqualified=True)  # decided: no longer held
    easy = next(c for c in own.get("/api/daily/")[1]["challenges"] if c["tier"] == "easy")
    assert easy["game"]["held"] is False
    assert won.pk not in [
        g["game_id"] for g in own.get(f"/api/players/{alice.display_name}/")[1]["games"]
    ]


def test_a_guest_reads_their_own_games_results_with_an_empty_record(
    day: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    """A guest's game (bound to its session) has its results screen, with no record to
    show yet; another guest, or a player, cannot read it while the day is open."""
    guest = Api(Client())
    status, game = guest.post("/api/games/", {"daily": "easy"})
    assert status == 201 and game["guest"] is True, game
    url = f"/api/games/{game['id']}"
    with django_capture_on_commit_callbacks(execute=True):
        for ply, text in enumerate(WIN[:30]):
            assert guest.post(f"{url}/moves/", {"ply": ply, "move": text})[0] == 200
        assert guest.post(f"{url}/resign/")[0] == 200
    status, body = guest.get(f"/api/games/{game['id']}/results/")
    assert status == 200, body
    assert body["guest"] is True
    assert body["record"] == {
        "played": 0,
        "won": 0,
        "win_rate": 0.0,
        "current_streak": 0,
        "best_streak": 0,
    }
    spread = body["spread"]
    # Not on the board (a guest ranks only once signed up), still placed among the five
    # counted results that did not win (2, 5, 13, 13 and 18 cards home): level with Ed.
    assert spread["kind"] == "cards_home" and spread["yours"] == 5
    assert spread["counted"] is False
    assert (spread["compared"], spread["beaten"], spread["percentile"]) == (5, 1, 20)
    assert (spread["results"], spread["wins"]) == (10, 5)
    assert Api(Client()).get(f"/api/games/{game['id']}/results/")[0] == 404
    assert get(logged_in(day["alice"]), game["id"])[0] == 404


def test_a_game_without_a_player_has_an_empty_record(day: dict[str, Any]) -> None:
    """Whatever the game's mode, no player: nothing to count (the service itself)."""
    orphan = Game(
        player=None,
        session_key="guest-session",
        deal=day["easy"].deal,
        challenge=day["easy"],
        mode=Mode.DAILY,
        status=Status.WON,
        elapsed_ms=100_000,
        position="-",
    )
    answer = results.results_for(orphan)
    assert answer["guest"] is True and answer["record"]["played"] == 0
    # Faster than all the counted winners but Ann.
    assert (answer["spread"]["compared"], answer["spread"]["percentile"]) == (5, 80)


def test_nothing_secret_while_the_day_is_open(db: None, clock: Clock) -> None:
    """The day's figures are counts: no deal number, salt, commitment, card or position,
    for the player or anyone else, while the day is open."""
    easy = make_challenges()[Tier.EASY]
    number = SECRET_DAILY_NUMBERS["easy"]
    stuck_at_start = Position.deal(number).to_text()
    for name in ("Kim", "Lou"):
        game = result(make_player(name), easy, won=False, score=0, save=False)
        game.position = stuck_at_start
        game.save()
    mo = make_player("Mo")
    game = result(mo, easy, elapsed_ms=200_000)
    response = logged_in(mo).get(f"/api/games/{game.pk}/results/")
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-cache"
    text = response.content.decode()
    for secret in (str(number), easy.salt, easy.commitment, stuck_at_start.split()[1]):
        assert secret not in text
    assert not CARD.search(text), CARD.search(text)
    body = json.loads(text)
    assert body["par"] is None
    assert set(body) == {
        "game",
        "date",
        "tier",
        "status",
        "guest",
        "held",
        "record",
        "spread",
        "par",
        "bot",
        "closes_at",
        "next_deal_at",
    }


@pytest.mark.redis  # the day's spread is kept in Redis
def test_the_spread_is_read_once_for_everyone_finishing_together(
    day: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    """The day's results are kept SPREAD_CACHE_SECONDS (Redis): a second reader does not
    read the whole day again, and still finds their own result in its place."""
    whole_day = '"games_game"."position" AS "position"'  # every result's end, read for the spread
    alice, bob = logged_in(day["alice"]), logged_in(day["bob"])
    with django_assert_max_num_queries(10) as first:
        get(alice, day["won"])
    assert any(whole_day in q["sql"] for q in first.captured_queries)
    with django_assert_max_num_queries(10) as second:
        status, body = get(bob, day["resigned"])
    assert status == 200
    assert not any(whole_day in q["sql"] for q in second.captured_queries)
    assert body["spread"]["yours"] == 13 and body["spread"]["compared"] == 4


def test_bars_and_percentiles() -> None:
    # One result alone: one bar, nobody to compare with.
    assert results.bars_of([], 65_000, results.TIME_WIDTHS_MS, open_tail=True) == [
        results.Bar(60_000, 70_000, 1, True)
    ]
    assert results.percentile([], 5, lower_is_better=True) == (0, None)
    # Ties beat nobody, either way round.
    assert results.percentile([10, 20, 20, 30], 20, lower_is_better=True) == (1, 25)
    assert results.percentile([10, 20, 20, 30], 20, lower_is_better=False) == (1, 25)
    # Never more than eight bars, whatever the spread; the long tail shares the last one.
    many = [*range(60_000, 600_000, 5_000), 20_000_000, 30_000_000]
    drawn = results.bars_of(many, 61_000, results.TIME_WIDTHS_MS, open_tail=True)
    assert len(drawn) <= results.MAX_BARS and drawn[-1] == results.Bar(600_000, None, 2, False)
    assert sum(bar.count for bar in drawn) == len(many) + 1
    assert [bar.yours for bar in drawn].count(True) == 1 and drawn[0].yours
    cards = results.bars_of(list(range(52)), 51, results.CARD_WIDTHS, open_tail=False)
    assert len(cards) <= results.MAX_BARS and cards[-1].yours and cards[-1].high is not None


@pytest.mark.slow
@pytest.mark.django_db
def test_preparing_a_day_stores_the_bots_own_game() -> None:
    challenge = daily.prepare_tier(dt.date(2031, 5, 17), "easy")
    expected = daily.play_bot_game(challenge.deal)
    assert (challenge.bot_moves, challenge.bot_cards_home) == (expected.moves, expected.cards_home)
    assert expected.won or expected.cards_home < 52
    # Played again, the bot's own game is the same game.
    assert daily.play_bot_game(Deal.objects.get(pk=challenge.deal_id)) == expected
