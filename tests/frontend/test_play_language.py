"""The play page and its board in the player's language (issue 43): the page's words, the
variant picker and the variant titles the browser reads from the site constants; English
stays the engine's titles."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils import translation

from frontend.templatetags.variant_names import TRANSLATED_TITLES, variant_title
from yukon.engine import VARIANT_NAMES, get_variant


def test_every_variant_title_is_a_message_of_the_engines_title() -> None:
    assert set(TRANSLATED_TITLES) == set(VARIANT_NAMES)
    with translation.override("en"):
        for name in VARIANT_NAMES:
            assert str(TRANSLATED_TITLES[name]) == get_variant(name).title


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words", "titles"),
    [
        (
            "de",
            ["Rückgängig", "Noch lösbar?", "Kartentisch", "Spielfeld ansehen"],
            {"double-yukon": "Doppel-Yukon"},
        ),
        (
            "es",
            ["Deshacer", "¿Aún ganable?", "Mesa de juego", "Ver la mesa"],
            {"double-yukon": "Yukon doble"},
        ),
    ],
)
def test_the_practice_page_speaks_the_players_language(
    client: Client, language: str, words: list[str], titles: dict[str, str]
) -> None:
    page = client.get(
        "/practice/7/?variant=double-yukon", headers={"accept-language": language}
    ).content.decode()
    for word in words:
        assert word in page
    assert f'<option value="double-yukon" selected>{titles["double-yukon"]}</option>' in page
    found = re.search(r'<script id="site-constants" type="application/json">(.*?)</script>', page)
    assert found
    assert json.loads(found.group(1))["variant_titles"]["double-yukon"] == titles["double-yukon"]
    with translation.override(language):
        assert variant_title("yukon+takeback") != "Yukon with take-back"
