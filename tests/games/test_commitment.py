"""The daily commitment (docs/fair-play.md): its fixed text, a salt and a commitment on
every challenge, both shown and hidden at the right times, and a closed day's games file.

The attacker's question is answered by ``test_before_the_close_nothing_reveals_the_deal_
or_the_salt``: every response and page an outsider or a player can get while the day is
open is searched for the deal number and the salt.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import services
from games.commitment import FORMAT, Opening
from games.models import DailyChallenge, Deal, Game, utc_today
from tests.factories import SECRET_DAILY_NUMBERS, Api, make_challenges, make_user, winning_lines
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture)

LINES = winning_lines()
PINNED = Opening("2026-12-01", "easy", "yukon", 1, 2**64 - 1, "00112233445566778899aabbccddeeff")


# ----- the text (pure) -----------------------------------------------------------------


def test_the_commitment_text_and_digest_are_pinned() -> None:
    # A change here breaks every commitment already published: it needs a new FORMAT.
    assert PINNED.text() == (
        "yukon-daily-commitment-v1\n2026-12-01\neasy\nyukon\n1\n"
        "18446744073709551615\n00112233445566778899aabbccddeeff\n"
    )
    # the same as `printf '...' | sha256sum` in docs/fair-play.md
    assert PINNED.commitment() == (
        "fc398e2c95590f79225e1fa95d038c8266333e509088d9a9cfed4a9fc1f4bdac"
    )
    assert FORMAT == "yukon-daily-commitment-v1"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("date", "2026-12-1"),
        ("date", "2026-12-01\n"),
        ("tier", "easy\nhard"),
        ("tier", "EASY"),
        ("variant", ""),
        ("deal", 2**64),
        ("deal", -1),
        ("deal", True),
        ("algorithm_version", 0),
        ("salt", "00" * 15),  # 120 bits: too few
        ("salt", "0011223344556677889900AABBCCDDEEFF"),  # upper case reads two ways
        ("salt", "00112233445566778899aabbccddeeff\n"),
    ],
)
def test_a_field_that_could_read_two_ways_is_refused(field: str, value: Any) -> None:
    fields = {**PINNED.__dict__, field: value}
    with pytest.raises(ValueError, match=field.split("_", maxsplit=1)[0]):
        Opening(**fields).text()


def test_the_salt_or_any_field_changes_the_commitment() -> None:
    digests = {PINNED.commitment()}
    for field, value in [
        ("date", "2026-12-02"),
        ("tier", "hard"),
        ("variant", "russian"),
        ("algorithm_version", 2),
        ("deal", 2**64 - 2),
        ("salt", "10" * 16),
    ]:
        digests.add(Opening(**{**PINNED.__dict__, field: value}).commitment())
    assert len(digests) == 7


# ----- every challenge is sealed -------------------------------------------------------


@pytest.mark.django_db
def test_every_challenge_gets_its_own_salt_and_commitment_when_it_is_made() -> None:
    made = list(make_challenges().values())
    made += list(make_challenges(utc_today() - dt.timedelta(days=1)).values())
    for challenge in made:
        stored = DailyChallenge.objects.select_related("deal").get(pk=challenge.pk)
        assert re.fullmatch(r"[0-9a-f]{32}", stored.salt), stored.salt
        assert (
            stored.commitment
            == Opening(
                stored.date.isoformat(), stored.tier, "yukon", 1, stored.deal.number, stored.salt
            ).commitment()
        )
    # same deal numbers on both days, yet every salt and commitment differs
    assert len({c.salt for c in made}) == len({c.commitment for c in made}) == 6


@pytest.mark.django_db
def test_the_database_refuses_a_challenge_without_a_commitment() -> None:
    deal = Deal.objects.create(number=5, variant="yukon")
    with pytest.raises(IntegrityError), transaction.atomic():
        DailyChallenge.objects.bulk_create(
            [DailyChallenge(date=utc_today(), tier="easy", deal=deal)]
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        DailyChallenge.objects.create(
            date=utc_today(), tier="easy", deal=deal, salt="ab" * 8, commitment="c" * 64
        )


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_migration_commits_challenges_made_before_it() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0001_initial")])
    try:
        old = MigrationExecutor(connection).loader.project_state([("games", "0001_initial")]).apps
        deal = old.get_model("games", "Deal").objects.create(number=77, variant="yukon")
        old.get_model("games", "DailyChallenge").objects.create(
            date=dt.date(2026, 11, 2), tier="hard", deal_id=deal.pk
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    challenge = DailyChallenge.objects.select_related("deal").get(date=dt.date(2026, 11, 2))
    assert re.fullmatch(r"[0-9a-f]{32}", challenge.salt)
    assert challenge.commitment == challenge.opening().commitment()
    assert challenge.opening().deal == 77


# ----- what /api/daily/ and /api/daily/<date>/ show ------------------------------------


@pytest.fixture
def today_and_yesterday(
    db: None, settings: Any
) -> tuple[dict[str, DailyChallenge], dict[str, DailyChallenge]]:
    # On a Sunday today has the weekly too: no solver run for the tier the fixture leaves
    # bare (without Redis the site prepares a missing tier on request).
    settings.DAILY_PREPARE_ON_REQUEST = False
    yesterday = {"easy": 11, "medium": 12, "hard": 13}
    return make_challenges(), make_challenges(utc_today() - dt.timedelta(days=1), yesterday)


def test_daily_shows_todays_commitments_and_opens_yesterdays(
    guest_api: Api, today_and_yesterday: Any
) -> None:
    today, yesterday = today_and_yesterday
    status, body = guest_api.get("/api/daily/")
    assert status == 200
    assert [c["commitment"] for c in body["challenges"]] == [
        today[t].commitment for t in ("easy", "medium", "hard")
    ]
    assert all("salt" not in c and "deal" not in c for c in body["challenges"])
    opened = {entry["tier"]: entry for entry in body["opened"]}
    for tier, challenge in yesterday.items():
        entry = opened[tier]
        assert entry["closed"] is True
        assert (entry["deal"], entry["salt"]) == (str(challenge.deal.number), challenge.salt)
        assert entry["commitment"] == challenge.commitment
        assert entry["games_url"] == f"/api/daily/{challenge.date}/{tier}/games.jsonl"


def test_a_days_proof_is_committed_while_open_and_opened_once_closed(
    guest_api: Api, today_and_yesterday: Any
) -> None:
    today, yesterday = today_and_yesterday
    status, entries = guest_api.get(f"/api/daily/{utc_today().isoformat()}/")
    assert status == 200
    for entry in entries:
        assert entry["closed"] is False
        assert entry["deal"] is entry["salt"] is entry["games_url"] is None
        assert entry["commitment"] == today[entry["tier"]].commitment
    status, entries = guest_api.get(f"/api/daily/{yesterday['easy'].date.isoformat()}/")
    assert status == 200
    for entry in entries:
        challenge = yesterday[entry["tier"]]
        opening = Opening(
            entry["date"],
            entry["tier"],
            entry["variant"],
            entry["algorithm_version"],
            int(entry["deal"]),
            entry["salt"],
        )
        assert opening.commitment() == entry["commitment"] == challenge.commitment


@pytest.mark.parametrize(
    ("path", "status", "detail"),
    [
        ("/api/daily/2026-13-01/", 400, "is not a date"),
        ("/api/daily/{tomorrow}/", 404, "is in the future"),
        ("/api/daily/2001-01-01/", 404, "there were no challenges"),
        ("/api/daily/not-a-date/easy/games.jsonl", 400, "is not a date"),
        ("/api/daily/{yesterday}/extreme/games.jsonl", 404, "unknown tier"),
        ("/api/daily/{tomorrow}/easy/games.jsonl", 404, "is in the future"),
        ("/api/daily/2001-01-01/easy/games.jsonl", 404, "there were no challenges"),
        ("/api/daily/{today}/easy/games.jsonl", 409, "this day is still open"),
    ],
)
def test_bad_or_early_requests_get_a_clear_json_error(
    guest_api: Api, today_and_yesterday: Any, path: str, status: int, detail: str
) -> None:
    today = utc_today()
    url = path.format(
        today=today, tomorrow=today + dt.timedelta(days=1), yesterday=today - dt.timedelta(1)
    )
    got, body = guest_api.get(url)
    assert got == status, body
    assert detail in body["detail"]
    if status == 409:
        assert body["opens_at"] == f"{today + dt.timedelta(days=1)}T00:00:00Z"


# ----- a closed day's games file -------------------------------------------------------


class Clock:
    """A fake ``timezone.now`` that the test moves (the server reads the close from it)."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    fake = Clock(dt.datetime.combine(utc_today(), dt.time(9), tzinfo=dt.UTC))
    monkeypatch.setattr(timezone, "now", fake)
    yield fake


def close_the_day(clock: Clock) -> None:
    clock.now = dt.datetime.combine(
        clock.now.date() + dt.timedelta(days=1), dt.time(0, 0, 5), tzinfo=dt.UTC
    )


def play_daily(client: Client, clock: Clock, moves: list[str], seconds: float) -> int:
    """Start today's easy daily (through the API) and play ``moves``, ``seconds`` apart on
    the server's clock, through the service the move endpoint calls (games/api/direct.py):
    the same game, log and receipt as a request a move makes, without the request's cycle
    around each move (the receipts tests' day, five games: 1.7 s instead of 4.1). The
    endpoint itself is tested in tests/games/test_moves_direct.py and test_secrecy.py."""
    api = Api(client)
    status, game = api.post("/api/games/", {"daily": "easy"})
    assert status == 201, game
    # the field's default is the real clock, bound before the test moved it
    Game.objects.filter(pk=game["id"]).update(started_at=clock.now)
    player, session = Game.objects.values_list("player_id", "session_key").get(pk=game["id"])
    actor = services.Actor(user_id=player, session_key=session if player is None else "")
    for ply, text in enumerate(moves):
        clock.now += dt.timedelta(seconds=seconds)
        services.play_move(actor, game["id"], ply, text)
    return int(game["id"])


def player_client(name: str) -> tuple[Client, User]:
    client = Client()
    user = make_user(name)
    client.force_login(user)
    return client, user


def played_day(clock: Clock) -> dict[str, int]:
    """Deal 0 as today's easy daily: two wins at different paces, one resignation, one
    disqualified win, one game left in play."""
    make_challenges(numbers={**SECRET_DAILY_NUMBERS, "easy": 0})
    line = LINES[0]
    ids = {}
    for name, seconds in (("slowwin", 2.0), ("fastwin", 1.0), ("cheat", 0.5)):
        client, _ = player_client(name)
        ids[name] = play_daily(client, clock, line, seconds)
    client, _ = player_client("quitter")
    ids["quitter"] = play_daily(client, clock, line[:6], 1.0)
    assert Api(client).post(f"/api/games/{ids['quitter']}/resign/")[0] == 200
    client, _ = player_client("idler")
    ids["idler"] = play_daily(client, clock, line[:2], 1.0)
    Game.objects.filter(pk=ids["cheat"]).update(disqualified=True)
    return ids


def read_games_file(client: Client, date: dt.date, tier: str = "easy") -> list[dict[str, Any]]:
    response: Any = client.get(f"/api/daily/{date.isoformat()}/{tier}/games.jsonl")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    body = b"".join(response.streaming_content).decode()
    assert body.endswith("\n")
    return [json.loads(line) for line in body.splitlines()]


@pytest.mark.slow
@pytest.mark.django_db
def test_after_the_close_the_ranked_games_download_in_board_order_with_their_logs(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        ids = played_day(clock)
    day = utc_today()
    close_the_day(clock)
    with django_capture_on_commit_callbacks(execute=True):
        lines = read_games_file(Client(), day)
    header, games, end = lines[0], lines[1:-1], lines[-1]
    challenge = DailyChallenge.objects.select_related("deal").get(date=day, tier="easy")
    assert header == {
        "format": "yukon-daily-games-v1",
        "date": day.isoformat(),
        "tier": "easy",
        "variant": "yukon",
        "algorithm_version": 1,
        "deal": "0",
        "salt": challenge.salt,
        "commitment": challenge.commitment,
        "commitment_format": FORMAT,
        "closed_at": f"{day + dt.timedelta(days=1)}T00:00:00Z",
        "games": 3,
        # the idler's game, ended by this request: its verification runs after it
        "not_ranked": {"pending": 1, "rejected": 0, "removed": 1},
    }
    assert end == {"end": True, "games": 3}
    assert [(g["player"], g["rank"], g["status"]) for g in games] == [
        ("Fastwin", 1, "won"),
        ("Slowwin", 2, "won"),
        ("Quitter", 3, "resigned"),
    ]
    fast = games[0]
    assert fast["game_id"] == ids["fastwin"] and fast["verification"] == "verified"
    assert (fast["score"], fast["moves"]) == (625, len(LINES[0]))
    assert fast["elapsed_ms"] == len(LINES[0]) * 1000 == fast["log"][-1]["at_ms"]
    assert [entry["move"] for entry in fast["log"]] == LINES[0]
    assert [entry["ply"] for entry in fast["log"]] == list(range(len(LINES[0])))
    assert fast["log"][0]["at_ms"] == 1000
    assert {entry["turned"] for entry in fast["log"]} - {None}  # the cards that turned up
    assert ids["idler"] not in {g["game_id"] for g in games}


@pytest.mark.django_db
def test_the_games_file_is_rate_limited_per_address(
    settings: Any, today_and_yesterday: Any
) -> None:
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "daily_games": "2/hour"},
    }
    from django.core.cache import cache

    cache.clear()
    url = f"/api/daily/{utc_today() - dt.timedelta(days=1)}/easy/games.jsonl"
    client = Client(REMOTE_ADDR="203.0.113.9")
    assert [client.get(url).status_code for _ in range(2)] == [200, 200]
    refused = client.get(url)
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "detail" in refused.json()
    assert Client(REMOTE_ADDR="203.0.113.10").get(url).status_code == 200


# ----- the attacker: nothing before the close ------------------------------------------


@pytest.mark.slow
@pytest.mark.django_db
def test_before_the_close_nothing_reveals_the_deal_or_the_salt(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        ids = played_day(clock)
    clock.now = dt.datetime.combine(utc_today(), dt.time(23, 59, 59), tzinfo=dt.UTC)
    day = utc_today().isoformat()
    challenges = DailyChallenge.objects.filter(date=utc_today()).select_related("deal")
    secrets = [c.salt for c in challenges]
    # deal 0's number would match any "0": look for the salts, and for the deal as a value
    secrets += [str(c.deal.number) for c in challenges if c.deal.number > 0]
    client, _ = player_client("snoop")
    Api(client).post("/api/games/", {"daily": "medium"})
    own = Client()
    own.force_login(User.objects.get(username="fastwin"))
    paths = [
        "/",
        "/api/daily/",
        f"/api/daily/{day}/",
        "/api/schema/",
        *(f"/api/daily/{day}/{tier}/games.jsonl" for tier in ("easy", "medium", "hard")),
        *(f"/api/leaderboards/daily/{day}/{tier}/" for tier in ("easy", "medium", "hard")),
        *(f"/api/games/{game_id}/" for game_id in ids.values()),
        *(f"/api/games/{game_id}/replay/" for game_id in ids.values()),
        *(f"/play/{game_id}/" for game_id in ids.values()),
        "/fair-play/",
    ]
    seen = 0
    for who in (Client(), client, own):
        for path in paths:
            response: Any = who.get(path)
            assert response.status_code < 500, path
            body = (
                b"".join(response.streaming_content) if response.streaming else response.content
            ).decode()
            for secret in secrets:
                assert secret not in body, (path, secret)
            if response.status_code == 200 and path.startswith("/api/daily/"):
                assert '"deal":"0"' not in body.replace(" ", ""), path
                seen += 1
    assert seen >= 6  # the commitments themselves were there to be read


@pytest.mark.django_db
def test_the_fair_play_page_explains_the_text_and_the_command(client: Client) -> None:
    response = client.get("/fair-play/")
    assert response.status_code == 200
    page = response.content.decode()
    yesterday = (utc_today() - dt.timedelta(days=1)).isoformat()
    assert "yukon-daily-commitment-v1" in page
    assert f"python3 yukon-verify.pyz --site http://testserver {yesterday} easy" in page
    assert "frontend/js/pages/fair_play.js" in page
    home = client.get("/").content.decode()
    assert "data-opened" in home


def test_the_schema_describes_the_proof_endpoints(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = json.loads(response.content)["paths"]
    day = paths["/api/daily/{date}/"]["get"]["responses"]
    assert {"200", "400", "404", "503"} <= set(day)
    games = paths["/api/daily/{date}/{tier}/games.jsonl"]["get"]["responses"]
    assert {"200", "400", "404", "409", "429", "503"} <= set(games)
    assert list(games["200"]["content"]) == ["application/x-ndjson"]
    assert list(games["409"]["content"]) == ["application/json"]
    challenge = json.loads(response.content)["components"]["schemas"]["DailyChallenge"]
    assert "commitment" in challenge["properties"] and "salt" not in challenge["properties"]


@pytest.mark.slow
@pytest.mark.django_db
def test_prepare_publishes_each_challenge_with_its_commitment(settings: Any) -> None:
    from games.daily import prepare_tier

    settings.DAILY_BOT_PLAYOUTS = 20  # the band check only needs a rough rate here
    challenge = prepare_tier(dt.date(2031, 5, 18), "easy")
    stored = DailyChallenge.objects.select_related("deal").get(pk=challenge.pk)
    assert (
        stored.commitment
        == Opening("2031-05-18", "easy", "yukon", 1, stored.deal.number, stored.salt).commitment()
    )
    assert prepare_tier(dt.date(2031, 5, 18), "easy").salt == stored.salt  # never redrawn
