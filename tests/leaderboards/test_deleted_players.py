"""A deleted account has no public profile: its results stay on the boards under "deleted
player" (docs/accounts.md, "Deleting an account"), marked ``deleted`` so that the pages
name it in their own language and link it nowhere, and its name leads to no player page."""

from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client

from accounts.models import DELETED_NAME
from accounts.services import delete_account
from games.models import DailyChallenge
from leaderboards import day_board
from tests.factories import make_player, result

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
def deleted_with_results(challenge: DailyChallenge) -> DailyChallenge:
    """Yesterday's and today's wins of Dan, who then deleted his account, beside Eve's."""
    yesterday = DailyChallenge.objects.create(
        date=challenge.date - dt.timedelta(days=1), tier="easy", deal=challenge.deal
    )
    dan, eve = make_player("Dan"), make_player("Eve")
    for played in (yesterday, challenge):
        result(dan, played, score=625)
        result(eve, played, score=600)
    delete_account(dan)
    day_board.process_cache.clear()
    return challenge


def test_a_deleted_accounts_name_has_no_profile(deleted_with_results: Any) -> None:
    name = quote(DELETED_NAME)
    for url in (f"/api/players/{name}/", f"/api/players/{name}/record/", f"/players/{name}/"):
        assert Client().get(url).status_code == 404, url
    # the living keep theirs
    assert Client().get("/api/players/Eve/").json()["played"] == 2
    assert Client().get("/api/players/Eve/record/").status_code == 200


@pytest.mark.parametrize(
    "url",
    [
        "/api/leaderboards/daily/{date}/easy/",
        "/api/leaderboards/streaks/",
        "/api/leaderboards/alltime/",
        "/api/leaderboards/alltime/?period=30d",
    ],
)
def test_board_rows_say_which_are_deleted_accounts(
    deleted_with_results: DailyChallenge, url: str
) -> None:
    answer = Client().get(url.format(date=deleted_with_results.date.isoformat())).json()
    rows = {row["display_name"]: row["deleted"] for row in answer["results"]}
    assert rows == {DELETED_NAME: True, "Eve": False}


@pytest.mark.parametrize("name", ["%00", "Eve%00", "%00Eve"])
def test_a_name_with_a_nul_is_nobodys_page(db: None, name: str) -> None:
    """PostgreSQL cannot hold a NUL: the player page's lookup of one was a 500."""
    make_player("Eve")
    for url in (f"/players/{name}/", f"/api/players/{name}/", f"/api/players/{name}/record/"):
        assert Client().get(url).status_code == 404, url
