"""The rules, FAQ, strategy, fair-play and legal pages in the reader's language (issue 43):
German and Spanish by Accept-Language at the same URLs, with the figures the settings give
still in the sentences and the anchors other pages link to still there."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

pytestmark = [pytest.mark.django_db]

# A sentence of each page as the reader of each language finds it.
PAGES = {
    "/how-to-play/": ("So spielst du Yukon", "Cómo se juega al Yukon", "How to play Yukon"),
    "/faq/": ("Ist jedes Tagesspiel lösbar?", "¿Se pueden ganar todas las partidas del día?",
              "Is every daily deal winnable?"),
    "/strategy/": ("Plane rückwärts", "Planifica hacia atrás", "Plan backwards"),
    "/fair-play/": ("Deine Quittungen und das Abschlussprotokoll des Tages",
                    "Tus recibos y el registro de cierre del día", "Your receipts, and the"),
    "/privacy/": ("Wie lange: 30 Tage.", "Durante cuánto tiempo: 30 días.", "How long: 30 days."),
    "/terms/": ("speichern wir 30 Tage lang", "durante 30 días", "for 30 days"),
}  # fmt: skip


def text_of(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


@pytest.mark.parametrize(("column", "language"), [(0, "de"), (1, "es")])
def test_each_long_page_speaks_the_readers_language(column: int, language: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    for path, sentences in PAGES.items():
        html = client.get(path).content.decode()
        text = text_of(html)
        assert sentences[column] in text, (language, path)
        assert sentences[2] not in text, (language, path)
    privacy = client.get("/privacy/").content.decode()
    assert all(f'id="{anchor}"' in privacy for anchor in ("kept", "your-data", "cookies"))
