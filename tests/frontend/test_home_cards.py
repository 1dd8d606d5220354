"""The home page draws the day's tier cards on the server (frontend/tier_cards.py): the
words home.js used to fill in after the page loaded, so nothing moves when it does. A day
not ready yet keeps its places, and each viewer sees only their own games.
tests/e2e/test_home_cards.py checks in a browser that home.js draws the same cards."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from games.models import Status, utc_today
from tests.factories import Api, client_for, make_challenge, make_challenges, make_player, result

pytestmark = pytest.mark.django_db

CARD = re.compile(r'<article class="tier" aria-label="([^"]+)">(.*?)</article>', re.S)


def cards(page: str) -> dict[str, str]:
    """aria-label -> the card's text, tags dropped."""
    return {label: re.sub(r"<[^>]+>", "", body) for label, body in CARD.findall(page)}


def test_a_day_not_ready_keeps_places_for_its_cards() -> None:
    make_challenge(tier="easy")  # one tier of three prepared: /api/daily/ has the day later
    page = Client().get("/").content.decode()
    assert not CARD.search(page)
    assert page.count('class="tier placeholder"') == 3
    assert 'class="tiers held"' in page and "Loading today" in page


def test_a_player_sees_their_games_on_the_cards_in_their_language() -> None:
    day = make_challenges()
    player = make_player("Greta", language="de")
    result(player, day["easy"], score=52, elapsed_ms=271_000)
    result(player, day["medium"], score=1, elapsed_ms=None, status=Status.PLAYING)
    result(make_player("Other"), day["easy"], won=False, score=3, elapsed_ms=9_000)

    page = client_for(player).get("/").content.decode()
    assert 'class="tier placeholder"' not in page and 'class="tiers"' in page
    assert "Loading" not in page and "geladen" not in page
    shown = cards(page)
    assert list(shown) == [
        "Herausforderung: Leicht",
        "Herausforderung: Mittel",
        "Herausforderung: Schwer",
    ]
    easy, medium, hard = shown.values()
    assert easy.startswith("Leicht") and "2 gespielt · 1 gewonnen · gerade aktiv: 0" in easy
    assert easy.endswith("Dein Spiel: gewonnen, 52 Punkte, 4:31Ergebnis ansehen")
    assert medium.endswith("1 gespielt · 0 gewonnen · gerade aktiv: 1Läuft: 1 PunktWeiterspielen")
    assert hard.endswith("Spielen schwer")
    games = {game.challenge_id: game.pk for game in player.games.all()}
    assert f'href="/play/{games[day["easy"].pk]}/"' in page
    assert f'href="/play/{games[day["medium"].pk]}/"' in page
    # Until home.js runs, a Play button does nothing: it is drawn disabled, and looks as it will.
    assert '<button type="button" class="button" data-start="hard" data-unbound disabled>' in page


def test_yesterdays_opened_deals_are_asked_for_only_when_it_had_some() -> None:
    make_challenges()
    assert "<div data-opened></div>" in Client().get("/").content.decode()
    yesterday = utc_today() - dt.timedelta(days=1)
    make_challenges(yesterday, {"easy": 5, "medium": 6, "hard": 7})
    page = Client().get("/").content.decode()
    assert f'<div data-opened data-day="{yesterday.isoformat()}"></div>' in page


def test_a_guest_sees_its_own_game_and_no_one_elses() -> None:
    make_challenges()
    guest = Client()
    status, game = Api(guest).post("/api/games/", {"daily": "easy"})
    assert status == 201, game
    mine = cards(guest.get("/").content.decode())
    assert mine["Easy challenge"].endswith("In progress: 0 pointsResume")
    assert f'href="/play/{game["id"]}/"' in guest.get("/").content.decode()

    other = cards(Client().get("/").content.decode())
    assert other["Easy challenge"].endswith(
        "1 played (1 as a guest) · 0 won · 1 playing nowPlay easy"
    )
    assert all(
        text.endswith("Play " + tier)
        for tier, text in zip(("easy", "medium", "hard"), other.values(), strict=True)
    )
