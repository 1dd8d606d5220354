"""The funnel's counts: the server counts starts, finishes and sign-ups where they happen,
per day and tier; the browser's beacon counts visits, returns and shares, validated and
within a budget per address; Do Not Track and Global Privacy Control count nothing; counts
gathered in Redis reach PostgreSQL once, and without Redis they go there directly."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
import redis
from django.conf import settings
from django.test import Client

from games.models import Tier, utc_today
from metrics import services
from metrics.models import DailyCount, FlushedBatch
from metrics.tasks import flush_counts
from tests.factories import LINES, client_for, closed_port, make_day, make_player, post

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]

EVENTS = "/api/metrics/events/"


def counts() -> dict[tuple[dt.date, str, str], int]:
    return {(row.day, row.event, row.tier): row.count for row in DailyCount.objects.all()}


def beacon(client: Client, body: Any, **headers: Any) -> Any:
    raw = body if isinstance(body, str) else json.dumps(body)
    return client.post(EVENTS, raw, content_type="application/json", **headers)


@pytest.mark.slow  # a sign-up hashes a password
def test_the_server_counts_starts_finishes_and_sign_ups_by_day_and_tier(
    django_capture_on_commit_callbacks: Any,
) -> None:
    make_day()
    today = utc_today()
    ann, bob = client_for(make_player("Ann")), client_for(make_player("Bob"))
    with django_capture_on_commit_callbacks(execute=True):
        game = post(ann, "/api/games/", {"daily": "easy"}).json()["id"]
        for ply, move in enumerate(LINES[0][:3]):
            assert (
                post(ann, f"/api/games/{game}/moves/", {"ply": ply, "move": move}).status_code
                == 200
            )
        assert post(ann, f"/api/games/{game}/resign/", {}).status_code == 200  # verified, counted
        again = post(ann, "/api/games/", {"daily": "easy"})  # the same game: no new start
        assert again.json()["id"] == game
        hard = post(bob, "/api/games/", {"daily": "hard"}).json()["id"]
        assert post(bob, f"/api/games/{hard}/resign/", {}).status_code == 200
        assert post(bob, "/api/games/", {"deal": 7}).status_code == 201  # practice
        assert post(bob, "/api/games/", {"daily": "medium"}).status_code == 201  # not finished
        signup = {"username": "cyd", "display_name": "Cyd", "password": "a long pass phrase 9"}
        assert post(Client(), "/api/auth/signup/", signup).status_code == 201
    assert counts() == {}, "counted in Redis first, not a write of PostgreSQL per event"
    assert services.flush_pending() == 7
    assert counts() == {
        (today, "start", Tier.EASY): 1,
        (today, "finish", Tier.EASY): 1,
        (today, "start", Tier.HARD): 1,
        (today, "finish", Tier.HARD): 1,
        (today, "start", Tier.MEDIUM): 1,
        (today, "start", "practice"): 1,
        (today, "sign_up", ""): 1,
    }
    assert services.flush_pending() == 0  # nothing twice


def test_the_beacon_counts_visits_returns_and_shares_and_nothing_for_dnt_or_gpc() -> None:
    # the beacon carries no cookie and no CSRF token: a logged-in player's is counted alike
    player = Client(enforce_csrf_checks=True)
    player.force_login(make_player("Ann"))
    answers = [
        beacon(Client(), {"event": "visit", "returned": "first"}),
        beacon(player, {"event": "visit", "returned": "next_day"}),
        beacon(Client(), {"event": "visit", "returned": "within_7_days"}),
        beacon(Client(), {"event": "visit", "returned": "later"}),
        beacon(Client(), {"event": "share", "tier": "easy"}),
        beacon(Client(), {"event": "share", "tier": "practice"}),
    ]
    assert [(a.status_code, a.json()) for a in answers] == [(202, {"counted": True})] * 6
    declined = [
        beacon(Client(), {"event": "visit", "returned": "next_day"}, HTTP_DNT="1"),
        beacon(Client(), {"event": "share", "tier": "easy"}, HTTP_SEC_GPC="1"),
    ]
    assert [(a.status_code, a.json()) for a in declined] == [(202, {"counted": False})] * 2
    elsewhere = beacon(
        Client(), {"event": "share", "tier": "easy"}, HTTP_ORIGIN="https://x.example"
    )
    assert elsewhere.status_code == 403, "another site's page cannot count"
    own = beacon(Client(), {"event": "share", "tier": "easy"}, HTTP_ORIGIN="http://testserver")
    assert own.json() == {"counted": True}
    services.flush_pending()
    today = utc_today()
    assert counts() == {
        (today, "visit", ""): 4,
        (today, "return_next_day", ""): 1,
        (today, "return_7_days", ""): 2,
        (today, "share", "easy"): 2,
        (today, "share", "practice"): 1,
    }


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"event": "start", "tier": "easy"}, "event"),  # the server counts starts itself
        ({"event": "visit"}, "returned"),
        ({"event": "visit", "returned": "yesterday"}, "returned"),
        ({"event": "share"}, "tier"),
        ({"event": "share", "tier": "gold"}, "tier"),
        ([], "event"),
        ("{not json", None),
    ],
)
def test_what_the_funnel_does_not_count_is_a_400_with_a_message(body: Any, field: str) -> None:
    response = beacon(Client(), body)
    assert response.status_code == 400, response.content
    answer = response.json()
    assert answer["detail"]
    if field:
        assert field in answer["errors"], answer
    assert not DailyCount.objects.exists() and services.flush_pending() == 0


def test_an_address_counts_only_within_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its budget an address's events count nothing, and the answer says so without
    an error status: a 4xx is a console error in the player's browser (Chromium logs one
    for fetch and sendBeacon alike), and a count not taken is no fault of the player's."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    monkeypatch.setitem(rates, "metrics_events", "3/hour")
    answers = [
        beacon(Client(REMOTE_ADDR="203.0.113.9"), {"event": "share", "tier": "hard"})
        for _ in range(5)
    ]
    assert [(a.status_code, a.json()) for a in answers] == [
        *[(202, {"counted": True})] * 3,
        *[(202, {"counted": False})] * 2,
    ]
    other = beacon(Client(REMOTE_ADDR="203.0.113.10"), {"event": "share", "tier": "hard"})
    assert other.json() == {"counted": True}  # the budget is the address's, not the site's
    services.flush_pending()
    assert counts() == {(utc_today(), "share", "hard"): 4}
    # budget or not, an event the funnel does not know is a 400 with its message (the API's
    # contract, which schemathesis holds: a malformed event past the budget was a 202)
    for address in ("203.0.113.9", "203.0.113.11"):
        refused = beacon(Client(REMOTE_ADDR=address), {"event": "share", "tier": "gold"})
        assert refused.status_code == 400


def test_a_batch_reaches_postgres_once_and_without_redis_counts_go_there_directly(
    settings: Any,
) -> None:
    day = dt.date(2026, 12, 5)
    services.count("visit", day=day)
    client = redis.Redis.from_url(settings.REDIS_URL)
    # a flush that committed its batch and stopped before deleting the batch's key
    client.rename(services.PENDING_KEY, f"{services.BATCH_PREFIX}interrupted")
    FlushedBatch.objects.create(name="interrupted")
    services.count("visit", day=day)
    assert flush_counts.delay().get() == 1  # the beat job's task (in-process here)
    beat = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert flush_counts.name in beat
    assert counts() == {(day, "visit", ""): 1}, "the interrupted batch was not added again"
    assert not list(client.scan_iter(match=f"{services.BATCH_PREFIX}*"))
    # Redis gone: the count is written to PostgreSQL at once
    settings.REDIS_URL = f"redis://127.0.0.1:{closed_port()}/0"
    services.count("share", "weekly", day=day)
    assert counts() == {(day, "visit", ""): 1, (day, "share", "weekly"): 1}
    with pytest.raises(ValueError, match="keeps no"):
        services.count("share", "gold", day=day)
