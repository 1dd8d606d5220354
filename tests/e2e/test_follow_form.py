"""The leagues page's "Follow a player" field: a name pasted longer than a display name
can be is cut by the browser at the input's maxlength, and the page says so, as the league
name's field does (it used to cut it without a word).
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import DISPLAY_NAME_MAX_LENGTH
from tests.e2e.test_plain_pages import log_in
from tests.factories import PHONE, make_player

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_a_followed_name_too_long_is_cut_with_a_word(browse: Any) -> None:
    page = browse(PHONE, permissions=["clipboard-read", "clipboard-write"])
    log_in(page, make_player("Nell"))
    page.goto("/leagues/")
    p = page.page
    field = p.get_by_label("Follow a player")
    said = p.locator("[data-follow-error]")
    told = "A player's name has at most 30 characters: this one was cut to fit."
    assert field.get_attribute("maxlength") == str(DISPLAY_NAME_MAX_LENGTH) == "30"
    # Pasted: the browser keeps the first 30 characters of 36.
    p.evaluate("navigator.clipboard.writeText('Somebody With A Very Long Name Here')")
    field.focus()
    p.keyboard.press("Control+V")
    assert field.input_value() == "Somebody With A Very Long Name"
    assert said.inner_text() == told
    field.press("Backspace")  # room again: nothing to say
    assert said.inner_text() == ""
    field.press_sequentially("eX")  # the "e" fits, the "X" does not
    assert field.input_value() == "Somebody With A Very Long Name"
    assert said.inner_text() == told
    field.fill("Nell")  # a name that fits
    assert said.inner_text() == ""
    page.assert_clean()
