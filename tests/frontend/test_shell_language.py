"""The site's frame, the home page, the API's own errors and the reminders speak the
player's language (issue 43): German and Spanish by Accept-Language, English by default."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import translation

from reminders.services import streak_text


@pytest.mark.django_db
def test_home_page_and_its_frame_follow_accept_language(client: Client) -> None:
    german = client.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Die Spiele vom <time" in german and "Zum Inhalt springen" in german
    assert ">Bestenlisten</a>" in german and "Today's deals" not in german
    spanish = client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Las partidas del <time" in spanish and ">Clasificación</a>" in spanish
    assert "Today's deals" in client.get("/").content.decode()


@pytest.mark.django_db
def test_not_found_pages_and_the_api_say_it_in_the_language(client: Client) -> None:
    page = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 404 and "Diese Seite gibt es nicht." in page.content.decode()
    api = client.get("/api/no-such-thing/", HTTP_ACCEPT_LANGUAGE="es")
    assert api.status_code == 404 and api.json() == {"detail": "no encontrado"}


def test_the_streak_reminder_counts_in_the_players_language() -> None:
    two_hours_left = dt.datetime(2026, 3, 4, 22, 0, tzinfo=dt.UTC)
    with translation.override("de"):
        assert streak_text(two_hours_left) == "Deine Serie endet in 2 Stunden."
    with translation.override("es"):
        assert streak_text(two_hours_left - dt.timedelta(hours=20)) == (
            "Tu racha termina en 22 horas."
        )
