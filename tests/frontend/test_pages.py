"""Every page of the browser client renders, sets the CSRF cookie and loads its module."""

from __future__ import annotations

import pytest
from django.test import Client

PAGES = [
    ("/", "home.js"),
    ("/play/1/", "game.js"),
    ("/practice/", "practice.js"),
    ("/practice/18446744073709551615/?variant=alaska", "game.js"),
    ("/replay/1/", "replay.js"),
    ("/leaderboards/", "boards.js"),
    ("/leaderboards/streaks/", "boards.js"),
    ("/leaderboards/daily/?date=2026-01-02&tier=hard", "boards.js"),
    ("/players/someone/", "boards.js"),
    ("/signup/", "account.js"),
    ("/login/", "account.js"),
    ("/how-to-play/", "diagrams.js"),
    ("/strategy/", "site.js"),
    ("/faq/", "site.js"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("path", "module"), PAGES)
def test_page_renders(client: Client, path: str, module: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert f"frontend/js/{module}" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/practice/18446744073709551616/", "/practice/-1/", "/leaderboards/weekly/"]
)
def test_bad_page_addresses_are_404(client: Client, path: str) -> None:
    assert client.get(path).status_code == 404


@pytest.mark.django_db
def test_play_page_sets_csrf_cookie(client: Client) -> None:
    response = client.get("/play/5/")
    assert "csrftoken" in response.cookies
    assert 'data-game-id="5"' in response.content.decode()


@pytest.mark.django_db
def test_unknown_variant_falls_back_to_yukon(client: Client) -> None:
    body = client.get("/practice/3/?variant=spider").content.decode()
    assert 'data-variant="yukon"' in body
