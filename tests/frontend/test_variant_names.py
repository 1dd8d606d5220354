"""Variants by the names people use (issue 39, item 10): the engine's titles reach the
templates (the ``variant_title`` filter) and every page's site constants (for the browser's
``variantTitle``), so no page shows "Double-yukon" or "Moosehide-runs"."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from frontend.templatetags.variant_names import variant_title
from yukon.engine import VARIANT_NAMES, get_variant


def test_the_filter_says_the_engines_titles() -> None:
    assert variant_title("double-yukon") == "Double Yukon"
    assert variant_title("moosehide-runs") == "Moosehide (runs only)"
    assert variant_title("russian") == "Russian"
    assert variant_title("alaska") == "Alaska"
    assert variant_title("yukon+takeback") == "Yukon with take-back"
    assert variant_title("no-such-variant") == "no-such-variant"
    assert variant_title(None) == ""
    for name in VARIANT_NAMES:
        assert variant_title(name) == get_variant(name).title


def site_constants(html: str) -> dict[str, object]:
    found = re.search(r'<script id="site-constants" type="application/json">(.*?)</script>', html)
    assert found, "no site constants on the page"
    data: dict[str, object] = json.loads(found.group(1))
    return data


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/practice/", "/archive/", "/practice/7/?variant=alaska"])
def test_every_page_carries_the_titles_for_the_browser(client: Client, path: str) -> None:
    constants = site_constants(client.get(path).content.decode())
    assert constants["variant_titles"] == {name: get_variant(name).title for name in VARIANT_NAMES}
    assert constants["variants"] == list(VARIANT_NAMES)


@pytest.mark.django_db
def test_the_practice_form_offers_variants_by_name(client: Client) -> None:
    page = client.get("/practice/").content.decode()
    assert '<option value="double-yukon">Double Yukon</option>' in page
    assert '<option value="moosehide-runs">Moosehide (runs only)</option>' in page
    assert "Double-yukon" not in page and "Moosehide-runs" not in page
