"""The leagues page's two name fields, "New league name" and "Follow a player": a name
pasted or typed longer than the field's maxlength (the server's own limit) is cut by the
browser, and the page says so (both used to cut it without a word).
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import DISPLAY_NAME_MAX_LENGTH
from social.models import LEAGUE_NAME_MAX_LENGTH
from tests.e2e.test_plain_pages import log_in
from tests.factories import PHONE, make_player

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# label, the form's error line, the limit, its sentence, a text longer than the limit, two
# characters of which only the first fits once room is made, and a name that fits
FIELDS = {
    "league": (
        "New league name",
        "[data-create-error]",
        LEAGUE_NAME_MAX_LENGTH,
        "A league name has at most 40 characters: yours was cut to fit.",
        "The Friday Night Yukon Solitaire Club Team",
        "am",
        "Night Owls",
    ),
    "follow": (
        "Follow a player",
        "[data-follow-error]",
        DISPLAY_NAME_MAX_LENGTH,
        "A player's name has at most 30 characters: this one was cut to fit.",
        "Somebody With A Very Long Name Here",
        "eX",
        "Nell",
    ),
}


@pytest.mark.parametrize("which", FIELDS)
def test_a_name_too_long_is_cut_with_a_word(browse: Any, which: str) -> None:
    label, error, limit, told, long_text, typed, fits = FIELDS[which]
    page = browse(PHONE, permissions=["clipboard-read", "clipboard-write"])
    log_in(page, make_player("Nell"))
    page.goto("/leagues/")
    p = page.page
    field = p.get_by_label(label)
    said = p.locator(error)
    assert field.get_attribute("maxlength") == str(limit) and str(limit) in told
    # Pasted: the browser keeps the first `limit` characters.
    p.evaluate(f"navigator.clipboard.writeText({long_text!r})")
    field.focus()
    p.keyboard.press("Control+V")
    kept = long_text[:limit]
    assert field.input_value() == kept
    assert said.inner_text() == told
    field.press("Backspace")  # room again: nothing to say
    assert said.inner_text() == ""
    field.press_sequentially(typed)  # the first fits, the second does not
    assert field.input_value() == kept[:-1] + typed[0]
    assert said.inner_text() == told
    field.fill(fits)
    assert said.inner_text() == ""
    page.assert_clean()
