"""The site's frame, the home page, the API's own errors and the reminders speak the
player's language (issue 43): German and Spanish by Accept-Language, English by default."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone, translation

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
@pytest.mark.parametrize(
    ("language", "written"),
    [("en", "Dec 7, 2026"), ("de", "7. Dez. 2026"), ("es", "7 dic 2026")],
)
def test_the_home_page_writes_its_day_as_the_other_pages_do(
    client: Client, monkeypatch: pytest.MonkeyPatch, language: str, written: str
) -> None:
    # The other pages write a day with the browser's Intl, day, short month and year
    # (shared/local_time.js's shortDayName): "Dec 7, 2026", never Django's "Dec. 7, 2026"
    # ("7. Dezember 2026", "7 de diciembre de 2026") beside it.
    noon = dt.datetime(2026, 12, 7, 12, 0, tzinfo=dt.UTC)
    monkeypatch.setattr(timezone, "now", lambda: noon)
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<time datetime="2026-12-07" data-today>{written}</time>' in page


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
