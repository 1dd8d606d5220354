"""A game page of a game that does not exist, or that the viewer may not see, is the site's
404 page: no game header, no live Resign button. The rule is the API's
(``games.services.get_game_for``, ``get_replay_for``), and so is the answer: someone
else's game in play looks exactly like a missing one, on the page as on the API.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Tier
from tests.factories import Api, make_day, make_player, result

pytestmark = pytest.mark.django_db

MISSING = 999_999


def page(client: Client, path: str) -> tuple[int, str, list[str]]:
    response = client.get(path)
    return (
        response.status_code,
        response.content.decode(),
        [str(t.name) for t in response.templates],
    )


def assert_not_found_page(client: Client, path: str) -> str:
    status, body, templates = page(client, path)
    assert status == 404, (path, status)
    assert "404.html" in templates, templates
    assert "<h1>Not found</h1>" in body
    # Nothing of a game page: no header, no controls, no module that would ask the API.
    for piece in ("Resign", "data-game-id", "pages/play.js", "pages/replay.js"):
        assert piece not in body, (path, piece)
    return re.sub(r'nonce="[^"]*"', 'nonce=""', body)  # a fresh nonce each response


@pytest.mark.parametrize("kind", ["play", "replay"])
def test_a_missing_game_is_the_sites_404_page(kind: str) -> None:
    assert_not_found_page(Client(), f"/{kind}/{MISSING}/")
    player = Client()
    player.force_login(make_player("Nosy"))
    assert_not_found_page(player, f"/{kind}/{MISSING}/")


@pytest.fixture
def game_in_play() -> tuple[Client, int]:
    """Ann's easy daily of the open day, started and not finished."""
    make_day()
    ann = Client()
    ann.force_login(make_player("Ann"))
    status, game = Api(ann).post("/api/games/", {"daily": "easy"})
    assert status == 201, game
    return ann, game["id"]


@pytest.mark.parametrize("kind", ["play", "replay"])
def test_someone_elses_game_in_play_looks_like_a_missing_one(
    game_in_play: tuple[Client, int], kind: str
) -> None:
    ann, game_id = game_in_play
    # Its player opens both pages; the replay page says it waits for the end (the API's 409).
    status, body, _ = page(ann, f"/{kind}/{game_id}/")
    assert status == 200 and f"pages/{kind}.js" in body
    assert Api(ann).get(f"/api/games/{game_id}/replay/")[0] == 409
    bob = Client()
    bob.force_login(make_player("Bob"))
    for viewer in (bob, Client()):
        hidden = assert_not_found_page(viewer, f"/{kind}/{game_id}/")
        missing = assert_not_found_page(viewer, f"/{kind}/{MISSING}/")
        assert hidden == missing  # the page tells nothing more than the API
        assert Api(viewer).get(f"/api/games/{game_id}/") == Api(viewer).get(
            f"/api/games/{MISSING}/"
        )


def test_a_guests_own_practice_game_is_theirs_alone() -> None:
    guest = Client()
    status, game = Api(guest).post("/api/games/", {"deal": "7", "variant": "yukon"})
    assert status == 201, game
    assert page(guest, f"/play/{game['id']}/")[0] == 200
    assert_not_found_page(Client(), f"/play/{game['id']}/")


def test_a_finished_game_of_the_open_day_replays_for_its_player_only() -> None:
    ann = make_player("Ann")
    game = result(ann, make_day()[Tier.EASY])
    owner = Client()
    owner.force_login(ann)
    assert page(owner, f"/replay/{game.pk}/")[0] == 200
    assert_not_found_page(Client(), f"/replay/{game.pk}/")
