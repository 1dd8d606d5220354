"""League reports are moderation's: filed, limited and dismissed on the one path game
reports take, and moved from the social app by a migration that keeps every row and the
moderators' permission to see them."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from apikit.errors import ServiceError
from games.models import Tier, utc_today
from moderation import services as moderation
from moderation.models import AuditAction, AuditLog, LeagueReport, Report, ReportStatus
from social import services as social
from social.models import League
from tests.factories import at_once, client_for, make_day, make_player, post, result


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_reports_sent_at_once_stay_within_the_hourly_limit(settings: Any) -> None:
    """Each filing counted the reporter's last hour, then wrote: twenty reports sent at the
    same moment (one per league) made 13 to 16 with a limit of 10. The count and the
    write are now one reporter's at a time."""
    settings.MODERATION_REPORTS_PER_HOUR = 3
    owner, reporter = make_player("Owner"), make_player("Reporter")
    leagues = [social.create_league(owner, f"Name Number {i}") for i in range(8)]
    refused: list[str] = []

    def report(league: League) -> None:
        try:
            moderation.report_league(reporter, league, "rude")
        except moderation.TooManyReports as exc:
            refused.append(str(exc))

    at_once(report, leagues)
    assert LeagueReport.objects.filter(reporter=reporter).count() == 3
    assert len(refused) == 5


BEFORE = [("moderation", "0007_game_origin"), ("social", "0001_initial")]


@pytest.mark.django_db
@pytest.mark.postgres
def test_game_and_league_reports_share_the_filing_limit_error_and_dismissal(
    settings: Any,
) -> None:
    settings.MODERATION_REPORTS_PER_HOUR = 1
    ann, bob, cat = make_player("Ann"), make_player("Bob"), make_player("Cat")
    league = social.create_league(ann, "Rude Name")
    social.join_league(bob, league.invite_token)
    challenge = make_day(utc_today() - dt.timedelta(days=2), {Tier.EASY: 0})[Tier.EASY]
    ann_game, cat_game = result(ann, challenge), result(cat, challenge)

    report, created = moderation.report_league(bob, league, "  rude  ")
    assert created and (report.reason, report.reported_name) == ("rude", "Rude Name")
    assert moderation.report_league(bob, league, "again") == (report, False)
    with pytest.raises(moderation.TooManyReports, match="sent 1 report in the last hour"):
        moderation.report_league(bob, social.create_league(ann, "Other Name"), "rude too")
    with pytest.raises(ServiceError, match="a reason is required"):
        moderation.report_league(cat, league, "   ")
    # each kind counts its own reports, as before
    assert moderation.file_report(bob, ann_game, "too fast")[1]
    with pytest.raises(moderation.TooManyReports):
        moderation.file_report(bob, cat_game, "too fast as well")

    mod = make_player("Mod", staff=True, moderator=True)
    for dismissed in (
        moderation.dismiss_league_report(mod, report.pk, "a fair name"),
        moderation.dismiss_report(mod, Report.objects.get().pk, "normal speed"),
    ):
        assert dismissed.status == ReportStatus.DISMISSED and dismissed.handled_by == mod
    targets = AuditLog.objects.filter(action=AuditAction.DISMISS_REPORT).values_list(
        "target_type", flat=True
    )
    assert sorted(targets) == ["moderation.leaguereport", "moderation.report"]


@pytest.mark.django_db
@pytest.mark.postgres
def test_the_leagues_report_endpoints_answer_as_before() -> None:
    ann, bob = make_player("Ann"), make_player("Bob")
    league = social.create_league(ann, "Rude Name")
    social.join_league(bob, league.invite_token)
    client = client_for(bob)
    response = post(client, f"/api/leagues/{league.pk}/report/", {"reason": "rude"})
    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) == {"id", "league", "reported_name", "reason", "status", "created_at"}
    assert (body["league"], body["reported_name"], body["status"]) == (
        league.pk,
        "Rude Name",
        "open",
    )
    again = post(client, f"/api/leagues/join/{league.invite_token}/report/", {"reason": "x"})
    assert again.status_code == 200 and again.json()["id"] == body["id"]
    empty = post(client, f"/api/leagues/{league.pk}/report/", {})
    assert empty.status_code == 400
    assert empty.json()["errors"] == {
        "reason": ["say what is wrong with the name: a reason is required"]
    }
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in ("/api/leagues/{league_id}/report/", "/api/leagues/join/{token}/report/"):
        operation = schema["paths"][path]["post"]
        assert operation["tags"] == ["leagues"]
        assert {"201", "200", "400", "403", "404", "429"} <= set(operation["responses"])


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_the_move_from_social_keeps_every_report_and_the_moderators_permission() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        ann, bob = make_player("Ann"), make_player("Bob")
        old = executor.loader.project_state(BEFORE).apps
        league = old.get_model("social", "League").objects.create(
            name="Rude Name", name_key="rude name", owner_id=ann.pk, invite_token="t" * 32
        )
        filed = old.get_model("social", "LeagueReport").objects.create(
            league_id=league.pk, reporter_id=bob.pk, reported_name="Rude Name", reason="rude"
        )
        moderators = Group.objects.get(name="moderator")
        assert moderators.permissions.filter(
            content_type__app_label="social", codename="view_leaguereport"
        ).exists()
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )
        ContentType.objects.clear_cache()

    report = LeagueReport.objects.get()
    assert (report.pk, report.league_id, report.reporter, report.reason, report.status) == (
        filed.pk,
        league.pk,
        bob,
        "rude",
        ReportStatus.OPEN,
    )
    assert not ContentType.objects.filter(app_label="social", model="leaguereport").exists()
    assert moderators.permissions.filter(
        content_type__app_label="moderation", codename="view_leaguereport"
    ).exists()
    # the new row gets the next id: the table kept its sequence through the rename
    again, created = moderation.report_league(ann, League.objects.get(pk=league.pk), "x")
    assert created and again.pk > report.pk
    mod = make_player("Mod", staff=True, moderator=True)
    page = client_for(mod).get("/admin/moderation/leaguereport/")
    assert page.status_code == 200 and b"Rude Name" in page.content
