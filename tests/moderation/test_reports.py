"""Players report a game from its replay page; reports land in the moderators' queue."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client

from games.models import Game, Tier, utc_today
from moderation.models import AuditAction, AuditLog, Report, ReportStatus
from tests.factories import client_for, make_day, make_player, post, result

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


@pytest.fixture
def closed_game(db: None) -> Game:
    """Yesterday's daily game: its replay is public, so anyone logged in may report it."""
    yesterday = utc_today() - dt.timedelta(days=2)
    challenge = make_day(yesterday, {Tier.EASY: 0})[Tier.EASY]
    return result(make_player("Ann"), challenge)


def test_a_report_from_the_replay_page_reaches_the_queue(
    closed_game: Game, mod_client: Client, settings: Any
) -> None:
    bob = client_for(make_player("Bob"))
    page = bob.get(f"/replay/{closed_game.pk}/").content.decode()
    assert "Report this game" in page and "moderation/report.js" in page
    assert (
        "Report this game"
        not in client_for(closed_game.player).get(f"/replay/{closed_game.pk}/").content.decode()
    )

    url = f"/api/games/{closed_game.pk}/report/"
    response = post(bob, url, {"reason": "all moves in 20 seconds"})
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "open" and response.json()["game"] == closed_game.pk
    again = post(bob, url, {"reason": "again"})
    assert again.status_code == 200 and again.json()["id"] == response.json()["id"]
    assert Report.objects.count() == 1

    queue = mod_client.get("/admin/moderation/report/?status__exact=open").content.decode()
    assert "all moves in 20 seconds" in queue
    report = Report.objects.get()
    with_reason = {"action": "dismiss_reports", "_selected_action": [report.pk]}
    mod_client.post(
        "/admin/moderation/report/", {**with_reason, "confirm": "yes", "reason": "normal speed"}
    )
    report.refresh_from_db()
    assert report.status == ReportStatus.DISMISSED
    assert AuditLog.objects.get(action=AuditAction.DISMISS_REPORT).reason == "normal speed"


def test_report_input_is_checked_and_rate_limited(closed_game: Game, settings: Any) -> None:
    settings.MODERATION_REPORTS_PER_HOUR = 2
    cat_user = make_player("Cat")
    cat = client_for(cat_user)
    url = f"/api/games/{closed_game.pk}/report/"
    # no reason, or only spaces: the services' sentence alone, for the form to show (not
    # DRF's "This field may not be blank.")
    for empty in ({}, {"reason": "   "}):
        refused = post(cat, url, empty)
        assert refused.status_code == 400
        assert refused.json()["errors"] == {
            "reason": ["say what looks wrong: a reason is required"]
        }
    assert post(cat, url, {"reason": "x" * 2001}).status_code == 400
    # a number is not a reason: DRF's CharField took 5 as "5" (201)
    for mistyped in (5, 2.5, ["rude"]):
        refused = post(cat, url, {"reason": mistyped})
        assert refused.status_code == 400 and "Not a valid string." in str(refused.json())
    assert post(cat, "/api/games/999999/report/", {"reason": "x"}).status_code == 404
    own = post(client_for(closed_game.player), url, {"reason": "me"})
    assert own.status_code == 403 and "your own game" in own.json()["detail"]
    # an open day's game of someone else is not visible: 404, nothing learned
    today = make_day(utc_today(), {Tier.HARD: 68})[Tier.HARD]
    hidden = result(make_player("Dan"), today)
    assert post(cat, f"/api/games/{hidden.pk}/report/", {"reason": "x"}).status_code == 404

    assert closed_game.challenge is not None
    others = [result(make_player(f"P{i}"), closed_game.challenge) for i in range(3)]
    assert post(cat, url, {"reason": "one"}).status_code == 201
    assert post(cat, f"/api/games/{others[0].pk}/report/", {"reason": "two"}).status_code == 201
    limited = post(cat, f"/api/games/{others[1].pk}/report/", {"reason": "three"})
    assert limited.status_code == 429 and "2 reports in the last hour" in limited.json()["detail"]


def test_the_schema_documents_the_report_endpoint(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/games/{game_id}/report/"]["post"]
    assert {"201", "200", "400", "403", "404", "429"} <= set(operation["responses"])
    assert operation["tags"] == ["moderation"]
