"""The weekly challenge: every Sunday (UTC), a Double Yukon deal proven winnable, with its
own board and its own streak (docs/daily.md, "The weekly challenge").

The clock is set to a Sunday (and moved across its midnight) by patching
``django.utils.timezone.now``, as tests/games/test_close_of_day.py does.

The attacks: start the weekly on a Monday; play Sunday's weekly after Sunday 24:00; read
the weekly's deal number or salt anywhere before the close.
"""

from __future__ import annotations

import datetime as dt
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import daily
from games.commitment import Opening
from games.daily import BANDS, DailyPreparationError, prepare_daily, prepare_tier
from games.models import (
    WEEKLY,
    DailyChallenge,
    Deal,
    Game,
    Status,
    Verdict,
    Verification,
    is_weekly_day,
    tiers_of,
)
from games.verify_day import check_opening, replay_game
from leaderboards import records
from moderation.models import Flag
from tests.factories import SECRET_DAILY_NUMBERS, Api, make_challenges, make_user
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture)
from yukon.engine import Position
from yukon.solver import solve

SUNDAY = dt.date(2026, 12, 6)
MONDAY = SUNDAY + dt.timedelta(days=1)
SATURDAY = SUNDAY - dt.timedelta(days=1)
WON_DEAL = 25  # Double Yukon deal 25: the solver proves it in a few hundred positions
SECRET_WEEKLY_NUMBER = 0xB7E151628AED2A6A  # stands out in any body, unlike 25
DAY_CLOSED = "this day closed at 00:00 UTC"


class Clock:
    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def at(self, day: dt.date, hour: int = 0, minute: int = 0, second: int = 0) -> None:
        self.now = dt.datetime.combine(day, dt.time(hour, minute, second), tzinfo=dt.UTC)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    fake = Clock(dt.datetime.combine(SUNDAY, dt.time(9), tzinfo=dt.UTC))
    monkeypatch.setattr(timezone, "now", fake)
    daily.closed_days_swept_through = None
    yield fake
    daily.closed_days_swept_through = None


@pytest.fixture(autouse=True)
def _no_preparing_on_request(settings: Any) -> None:
    settings.DAILY_PREPARE_ON_REQUEST = False  # no solver run for a day the test leaves bare


@pytest.fixture(scope="module")
def won_line() -> list[str]:
    result = solve(WON_DEAL, variant="double-yukon", nodes=20_000, seconds=None)
    assert result.verdict == "solved"
    return list(result.moves)


def make_weekly(number: int = SECRET_WEEKLY_NUMBER, solution: Any = None) -> DailyChallenge:
    deal, _ = Deal.objects.get_or_create(
        number=number,
        variant="double-yukon",
        defaults={"solution": solution, "verdict": Verdict.SOLVED if solution else None},
    )
    return DailyChallenge.objects.create(date=SUNDAY, tier=WEEKLY, deal=deal, bot_win_rate=0.3)


def player(name: str) -> tuple[Client, Api]:
    client = Client()
    client.force_login(make_user(name))
    return client, Api(client)


def start_weekly(api: Api, clock: Clock) -> dict[str, Any]:
    status, game = api.post("/api/games/", {"daily": WEEKLY})
    assert status == 201, game
    # the field's default is the real clock, bound before the test moved it
    Game.objects.filter(pk=game["id"]).update(started_at=clock.now)
    return dict(game)


def play(api: Api, clock: Clock, game_id: int, moves: list[str], start: int = 0) -> Any:
    answer = None
    for ply, text in enumerate(moves, start=start):
        clock.now += dt.timedelta(milliseconds=200)
        status, answer = api.post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": text})
        assert status == 200, answer
    return answer


def legal_moves(game_id: int, count: int) -> list[str]:
    """``count`` legal moves from the game's stored position (the test's own view)."""
    position = Position.from_text(Game.objects.get(pk=game_id).position)
    texts = []
    for _ in range(count):
        move = position.legal_moves()[0]
        texts.append(position.move_text(move))
        position.play_text(texts[-1])
    return texts


# ----- the tier ----------------------------------------------------------------------


def test_the_weekly_tier_is_a_sunday_tier() -> None:
    assert is_weekly_day(SUNDAY) and SUNDAY.strftime("%A") == "Sunday"
    assert tiers_of(SUNDAY) == ["easy", "medium", "hard", "weekly"]
    for day in range(1, 7):
        assert tiers_of(SUNDAY + dt.timedelta(days=day)) == ["easy", "medium", "hard"]


@pytest.mark.django_db
def test_a_weekly_challenge_is_refused_on_any_other_day_and_in_any_other_variant() -> None:
    double, _ = Deal.objects.get_or_create(number=7, variant="double-yukon")
    with pytest.raises(ValueError, match="Sundays"):
        DailyChallenge.objects.create(date=MONDAY, tier=WEEKLY, deal=double)
    yukon, _ = Deal.objects.get_or_create(number=7, variant="yukon")
    with pytest.raises(ValueError, match="double-yukon"):
        DailyChallenge.objects.create(date=SUNDAY, tier=WEEKLY, deal=yukon)
    assert not DailyChallenge.objects.exists()
    challenge = DailyChallenge.objects.create(date=SUNDAY, tier=WEEKLY, deal=double)
    assert (
        challenge.commitment
        == Opening("2026-12-06", "weekly", "double-yukon", 1, 7, challenge.salt).commitment()
    )


# ----- /api/daily/ and the pages -------------------------------------------------------


@pytest.mark.django_db
def test_the_daily_api_and_home_page_show_the_weekly_on_sunday_only(clock: Clock) -> None:
    make_challenges(date=SUNDAY)
    weekly = make_weekly()
    guest = Api(Client())
    status, body = guest.get("/api/daily/")
    assert status == 200 and body["date"] == "2026-12-06"
    assert [c["tier"] for c in body["challenges"]] == ["easy", "medium", "hard", "weekly"]
    shown = body["challenges"][3]
    assert shown["variant"] == "double-yukon" and shown["commitment"] == weekly.commitment
    assert "deal" not in shown and str(SECRET_WEEKLY_NUMBER) not in guest.bodies[-1]
    assert {c["variant"] for c in body["challenges"][:3]} == {"yukon"}
    home = Client().get("/").content.decode()
    assert "the weekly challenge, a Double Yukon deal" in home
    # Drawn as home.js draws them (frontend/tier_cards.py), the weekly named with its variant.
    assert home.count('<article class="tier"') == 4 and 'class="tier placeholder"' not in home
    assert (
        '<article class="tier" aria-label="Weekly · Double Yukon challenge"><h2>Weekly'
        ' <span class="muted">· Double Yukon</span></h2>' in home
    )

    clock.at(MONDAY, 9)
    make_challenges(date=MONDAY, numbers={"easy": 11, "medium": 12, "hard": 13})
    status, body = guest.get("/api/daily/")
    assert [c["tier"] for c in body["challenges"]] == ["easy", "medium", "hard"]
    opened = {entry["tier"]: entry for entry in body["opened"]}
    assert set(opened) == {"easy", "medium", "hard", "weekly"}  # Sunday's, opened
    entry = opened["weekly"]
    assert entry["variant"] == "double-yukon" and entry["deal"] == str(SECRET_WEEKLY_NUMBER)
    assert check_opening(entry).commitment() == weekly.commitment
    home = Client().get("/").content.decode()
    assert "weekly challenge" not in home and home.count('<article class="tier"') == 3


@pytest.mark.django_db
def test_a_sunday_without_a_weekly_does_not_announce_one(clock: Clock) -> None:
    """The weekly's preparation can fail (no candidate fitted its band): the home page then
    says nothing of a weekly and keeps three places, as /api/daily/ lists three."""
    make_challenges(date=SUNDAY)
    status, body = Api(Client()).get("/api/daily/")
    assert status == 200 and [c["tier"] for c in body["challenges"]] == ["easy", "medium", "hard"]
    home = Client().get("/").content.decode()
    assert "weekly challenge" not in home and home.count('<article class="tier"') == 3


# ----- the attacks: a weekday, after the close ---------------------------------------------


@pytest.mark.django_db
def test_a_weekly_game_cannot_be_started_on_a_weekday(clock: Clock) -> None:
    make_challenges(date=SUNDAY)
    make_weekly()
    _, api = player("monday")
    clock.at(MONDAY, 0, 0, 1)  # Sunday's weekly exists, one second after it closed
    make_challenges(date=MONDAY, numbers={"easy": 11, "medium": 12, "hard": 13})
    status, body = api.post("/api/games/", {"daily": WEEKLY})
    assert status == 404, body
    assert "weekly challenge is played on Sundays (UTC) only" in body["detail"]
    assert "2026-12-07 (Monday)" in body["detail"]
    assert not Game.objects.exists()
    # every weekday, and every way in
    for offset in range(1, 7):
        day = SUNDAY + dt.timedelta(days=offset)
        clock.at(day, 12)
        status, body = api.post("/api/games/", {"daily": WEEKLY})
        assert status == 404 and "Sundays" in body["detail"], (day, body)
    clock.at(MONDAY + dt.timedelta(days=1), 12)
    for path in (
        "/api/leaderboards/daily/2026-12-07/weekly/",
        "/api/daily/2026-12-07/weekly/games.jsonl",
        "/api/leaderboards/archive/2026-12-07/weekly/",
    ):
        status, body = api.get(path)
        assert status == 404 and "weekly" in body["detail"], (path, body)
    status, body = api.post("/api/archive/2026-12-07/weekly/")
    assert status == 404 and "Sundays" in body["detail"]
    assert not Game.objects.exists()
    # once closed, Sunday's weekly joins the archive like any challenge: unranked
    status, game = api.post("/api/archive/2026-12-06/weekly/")
    assert status == 201, game
    assert (game["mode"], game["tier"], game["variant"]) == ("archive", "weekly", "double-yukon")


@pytest.mark.django_db
def test_a_sunday_without_its_weekly_yet_says_so(clock: Clock) -> None:
    make_challenges(date=SUNDAY)
    _, api = player("early")
    status, body = api.post("/api/games/", {"daily": WEEKLY})
    assert status == 404 and "not ready yet" in body["detail"]


@pytest.mark.django_db
def test_the_weekly_cannot_be_played_after_sunday_midnight(
    clock: Clock, won_line: list[str], django_capture_on_commit_callbacks: Any
) -> None:
    make_challenges(date=SUNDAY)
    weekly = make_weekly(WON_DEAL, won_line)
    _, api = player("latecomer")
    clock.at(SUNDAY, 23, 58)
    game = start_weekly(api, clock)
    assert game["variant"] == "double-yukon" and game["tier"] == WEEKLY
    assert game["closes_at"] == "2026-12-07T00:00:00Z" and game["deal"] is None
    play(api, clock, game["id"], won_line[:3])
    clock.at(MONDAY, 0, 0, 1)
    with django_capture_on_commit_callbacks(execute=True):
        status, body = api.post(f"/api/games/{game['id']}/moves/", {"ply": 3, "move": won_line[3]})
    assert status == 409 and body["detail"].startswith(DAY_CLOSED) and body["status"] == "abandoned"
    stored = Game.objects.get(pk=game["id"])
    assert stored.status == Status.ABANDONED and stored.ply == 3
    assert stored.finished_at is not None and stored.finished_at < weekly.closes_at
    # the rest of the line, however it is sent, changes nothing
    rest = won_line[3:]
    status, body = api.post(f"/api/games/{game['id']}/moves/", {"ply": 3, "move": rest[0]})
    assert status == 409
    assert api.post(f"/api/games/{game['id']}/resign/")[0] == 409
    assert Game.objects.get(pk=game["id"]).ply == 3


# ----- its own board, its own streak --------------------------------------------------


@pytest.mark.slow
@pytest.mark.django_db
def test_the_weekly_is_won_on_its_own_board_and_streak_not_the_daily_streak(
    clock: Clock, won_line: list[str], django_capture_on_commit_callbacks: Any
) -> None:
    make_challenges(date=SUNDAY)
    make_weekly(WON_DEAL, won_line)
    client, api = player("winner")
    with django_capture_on_commit_callbacks(execute=True):
        game = start_weekly(api, clock)
        answer = play(api, clock, game["id"], won_line)
    assert answer["status"] == "won"
    stored = Game.objects.get(pk=game["id"])
    assert stored.verification == Verification.VERIFIED, stored.rejection_reason
    assert stored.score == 1260  # 44 cards turned, 104 home: above one deck's 625
    # the moderation detector read the two-deck log (it raised IndexError on one before):
    # a line played at 200 ms a move, the solver's own, is flagged
    kinds = set(Flag.objects.filter(game_id=game["id"]).values_list("kind", flat=True))
    assert {"solver_line", "even_pacing", "fast_reaction"} <= kinds, kinds

    status, board = api.get("/api/leaderboards/daily/2026-12-06/weekly/")
    assert status == 200 and board["tier"] == "weekly" and board["closed"] is False
    assert [row["display_name"] for row in board["results"]] == ["Winner"]
    assert board["results"][0]["won"] is True and board["par"] is None
    for tier in ("easy", "medium", "hard"):
        status, other = api.get(f"/api/leaderboards/daily/2026-12-06/{tier}/")
        assert status == 200 and other["count"] == 0

    # the daily streak is about the three daily tiers; the weekly has its own
    status, home = api.get("/api/leaderboards/home/")
    assert home["streak"]["current"] == 0 and home["streak"]["best"] == 0
    assert home["streak"]["weekly"] == {"current": 1, "best": 1, "last_win": "2026-12-06"}
    assert home["playing"] == {"easy": 0, "medium": 0, "hard": 0, "weekly": 0}
    status, page = api.get("/api/players/Winner/")
    assert page["current_streak"] == 0 and page["weekly_streak"]["current"] == 1
    status, streaks = api.get("/api/leaderboards/streaks/")
    assert streaks["count"] == 0
    assert api.get("/api/leaderboards/alltime/")[1]["count"] == 0
    assert api.get("/api/players/Winner/record/")[0] == 200

    # after the close anyone can check the weekly with the public checker
    clock.at(MONDAY, 9)
    status, day = api.get("/api/daily/2026-12-06/")
    entry = next(c for c in day if c["tier"] == WEEKLY)
    opening = check_opening(entry)
    response: Any = client.get("/api/daily/2026-12-06/weekly/games.jsonl")
    assert response.status_code == 200
    lines = [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]
    assert lines[0]["variant"] == "double-yukon" and len(lines) == 3
    replay_game(opening, lines[1])
    status, board = api.get("/api/leaderboards/daily/2026-12-06/weekly/")
    assert board["closed"] is True and board["par"] == len(won_line)
    # still current a week on (the next Sunday's weekly may not be played yet), gone after
    winner = User.objects.get(username="winner").pk
    assert records.weekly_streak(winner, SUNDAY + dt.timedelta(days=7))["current"] == 1
    assert records.weekly_streak(winner, SUNDAY + dt.timedelta(days=8))["current"] == 0


def test_the_weekly_streak_counts_consecutive_sundays() -> None:
    sundays = [SUNDAY + dt.timedelta(weeks=n) for n in (0, 1, 2, 4)]
    streak = records.weekly_streak_of(sundays, sundays[-1])
    assert (streak.current, streak.best, streak.last_win) == (1, 3, sundays[-1])
    streak = records.weekly_streak_of(sundays[:3], sundays[2] + dt.timedelta(days=6))
    assert (streak.current, streak.best) == (3, 3)
    assert records.weekly_streak_of([], SUNDAY).current == 0


# ----- secrecy: nothing before the close --------------------------------------------------


@pytest.mark.slow
@pytest.mark.django_db
def test_before_the_close_nothing_reveals_the_weekly_deal_or_salt(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    make_challenges(date=SUNDAY)
    weekly = make_weekly()
    _, api = player("weekly")
    with django_capture_on_commit_callbacks(execute=True):
        game = start_weekly(api, clock)
        play(api, clock, game["id"], legal_moves(game["id"], 4))
        _, quitter = player("quitter")
        resigned = start_weekly(quitter, clock)
        play(quitter, clock, resigned["id"], legal_moves(resigned["id"], 2), start=0)
        assert quitter.post(f"/api/games/{resigned['id']}/resign/")[0] == 200
    clock.at(SUNDAY, 23, 59, 59)
    secrets = [str(SECRET_WEEKLY_NUMBER), weekly.salt, *map(str, SECRET_DAILY_NUMBERS.values())]
    day = SUNDAY.isoformat()
    ids = (game["id"], resigned["id"])
    paths = [
        "/",
        "/api/daily/",
        f"/api/daily/{day}/",
        "/api/schema/",
        "/api/leaderboards/home/",
        *(f"/api/daily/{day}/{tier}/games.jsonl" for tier in tiers_of(SUNDAY)),
        *(f"/api/leaderboards/daily/{day}/{tier}/" for tier in tiers_of(SUNDAY)),
        f"/api/leaderboards/archive/{day}/weekly/",
        *(f"/api/games/{game_id}/" for game_id in ids),
        *(f"/api/games/{game_id}/replay/" for game_id in ids),
        *(f"/play/{game_id}/" for game_id in ids),
        "/leaderboards/daily/?date=2026-12-06&tier=weekly",
        "/api/players/Quitter/",
        "/fair-play/",
    ]
    own = Client()
    own.force_login(User.objects.get(username="quitter"))
    seen = 0
    for who in (Client(), api.client, own):
        for path in paths:
            response: Any = who.get(path)
            assert response.status_code < 500, path
            body = (
                b"".join(response.streaming_content) if response.streaming else response.content
            ).decode()
            for secret in secrets:
                assert secret not in body, (path, secret)
            seen += response.status_code == 200
    assert seen >= 30
    page = Client().get("/leaderboards/daily/?date=2026-12-06&tier=weekly").content.decode()
    assert '<option value="weekly" selected>' in page
    page = Client().get("/leaderboards/daily/?date=2026-12-07&tier=weekly").content.decode()
    assert 'value="weekly"' not in page  # a Monday has no weekly board to pick
    status, body = Api(own).post(f"/api/archive/{day}/weekly/")
    assert status == 404 and "not in the archive yet" in body["detail"]


# ----- the pipeline ---------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.django_db
def test_prepare_daily_makes_the_weekly_on_sundays_proven_and_rated(settings: Any) -> None:
    settings.DAILY_BOT_PLAYOUTS = 40
    make_challenges(date=SUNDAY)  # the daily tiers are there: only the weekly is prepared
    assert not daily.is_ready(SUNDAY)
    call_command("prepare_daily", "--date", "2026-12-06", stdout=io.StringIO())
    weekly = DailyChallenge.objects.select_related("deal").get(date=SUNDAY, tier=WEEKLY)
    deal = weekly.deal
    assert deal.variant == "double-yukon" and deal.verdict == Verdict.SOLVED
    assert deal.solve_nodes is not None and deal.solve_nodes <= settings.DAILY_SOLVE_NODES
    assert weekly.bot_win_rate is not None and weekly.bot_win_rate in BANDS[WEEKLY]
    position = Position.deal(deal.number, "double-yukon")
    for text in deal.solution or []:
        position.play_text(text)
    assert position.is_won()
    assert daily.is_ready(SUNDAY)
    assert prepare_tier(SUNDAY, WEEKLY).pk == weekly.pk  # idempotent: the same challenge
    assert weekly.commitment == weekly.expected_commitment()
    # Monday: three tiers, and no weekly whoever asks
    make_challenges(date=MONDAY, numbers={"easy": 11, "medium": 12, "hard": 13})
    assert daily.is_ready(MONDAY) and set(prepare_daily(MONDAY)) == {"easy", "medium", "hard"}
    with pytest.raises(DailyPreparationError, match="Sundays"):
        prepare_tier(MONDAY, WEEKLY)
    assert not DailyChallenge.objects.filter(date=MONDAY, tier=WEEKLY).exists()


@pytest.mark.django_db
def test_the_beat_prepares_sunday_ahead_of_time_with_its_weekly() -> None:
    saturday_night = dt.datetime.combine(SATURDAY, dt.time(22, 30), tzinfo=dt.UTC)
    assert daily.dates_due(saturday_night) == [SATURDAY, SUNDAY]
    make_challenges(date=SUNDAY)
    assert not daily.is_ready(SUNDAY)  # three tiers are not enough on a Sunday
    make_weekly()
    assert daily.is_ready(SUNDAY)


def test_the_schema_knows_the_weekly_tier(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = json.loads(response.content)
    assert "weekly" in schema["components"]["schemas"]["ChallengeTierEnum"]["enum"]
    assert "variant" in schema["components"]["schemas"]["DailyChallenge"]["properties"]
    board = schema["paths"]["/api/leaderboards/daily/{date}/{tier}/"]["get"]["parameters"]
    tier = next(p for p in board if p["name"] == "tier")
    assert "weekly" in tier["schema"]["enum"]
    assert "weekly" not in schema["components"]["schemas"]["TierEnum"]["enum"]
