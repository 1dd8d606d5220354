"""The odds study (resumable, stored), the statistics page, and the OpenAPI entries."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from analysis import odds
from analysis.models import DealStudy
from games.models import DailyChallenge, Deal, Game, Mode, Status, Verification, utc_today
from tests.games.conftest import make_user

pytestmark = pytest.mark.django_db


def run_odds(*args: str) -> str:
    out, err = StringIO(), StringIO()
    call_command("odds", *args, stdout=out, stderr=err)
    return out.getvalue() + err.getvalue()


def test_odds_studies_stores_and_resumes(monkeypatch: Any) -> None:
    text = run_odds("--deals", "4", "--start", "23", "--variant", "yukon", "--seconds", "0.5")
    rows = {r.number: r for r in DealStudy.objects.filter(variant="yukon")}
    assert sorted(rows) == [23, 24, 25, 26]
    assert rows[24].verdict == "unwinnable" and rows[24].line_length is None
    assert rows[23].verdict == "solved" and rows[23].line_length
    assert rows[23].budget_seconds == 0.5
    assert "| yukon | 4 |" in text and "median s" in text and "0 of 4 deals already" in text

    def no_solving(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a resumed study solved a deal again")

    monkeypatch.setattr(odds, "solve", no_solving)
    again = run_odds("--deals", "4", "--start", "23", "--variant", "yukon", "--seconds", "0.5")
    assert "4 of 4 deals already studied, 0 to go" in again
    assert "| yukon | 4 | 3 (75.0 %) | 1 (25.0 %) | 0 (0.0 %)" in again
    assert DealStudy.objects.count() == 4


def test_odds_extends_a_study_and_covers_every_variant() -> None:
    run_odds("--deals", "2", "--variant", "russian", "--seconds", "0.3")
    text = run_odds("--deals", "3", "--seconds", "0.3")
    assert "russian: 2 of 3 deals already studied, 1 to go" in text
    for variant in ("yukon", "russian", "alaska", "moosehide"):
        assert f"| {variant} | 3 |" in text
    assert DealStudy.objects.count() == 12


@pytest.mark.parametrize(
    "args",
    [["--deals", "0"], ["--seconds", "0"], ["--variant", "spider"], ["--start", "-1"]],
)
def test_odds_refuses_bad_input(args: list[str]) -> None:
    with pytest.raises((CommandError, SystemExit)):
        call_command("odds", *args, stdout=StringIO(), stderr=StringIO())


def test_stats_page_shows_the_study_and_the_tiers(client: Client) -> None:
    assert "No study has run yet" in client.get("/stats/").content.decode()
    run_odds("--deals", "4", "--start", "23", "--variant", "yukon", "--seconds", "0.5")
    deal = Deal.objects.create(number=77, variant="yukon")
    challenge = DailyChallenge.objects.create(
        date=utc_today(), tier="medium", deal=deal, bot_win_rate=0.3
    )
    for name, status in (("ann", Status.WON), ("ben", Status.STUCK), ("cy", Status.PLAYING)):
        Game.objects.create(
            player=make_user(name), deal=deal, challenge=challenge, mode=Mode.DAILY,
            status=status, verification=Verification.VERIFIED, position="-",
        )
    response = client.get("/stats/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "<svg" in body and "data-verdict-chart" in body and "data-length-chart" in body
    assert 'class="seg-solved"' in body and 'class="seg-unwinnable"' in body
    assert "<td>Medium</td><td>2</td><td>1</td>" in body
    assert "50 %" in body and "30 %" in body
    assert "77" not in body.split("data-tiers")[1]  # no deal numbers of dailies


def test_the_schema_documents_the_coach_endpoints(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = json.loads(response.content)["paths"]
    for kind in ("hint", "winnable", "analysis"):
        operation = paths[f"/api/games/{{game_id}}/{kind}/"]["get"]
        assert {"200", "404"} <= set(operation["responses"]), kind
    assert "403" in paths["/api/games/{game_id}/hint/"]["get"]["responses"]
