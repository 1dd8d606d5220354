"""Every field with a maxlength says so when the browser cuts what goes into it (it does
without a word, typed past the limit, or pasted or dropped longer), as the leagues page's
two fields do (tests/e2e/test_follow_form.py): the log-in name, the display name at sign-up
and on the account page, the second factor's code, the appeal and the report of a game.
The sentence is in the form's own error line, its limit the field's maxlength, which is the
server's.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import DISPLAY_NAME_MAX_LENGTH, User
from games.models import Tier, utc_today
from moderation import services
from moderation.services import MAX_REASON
from tests.e2e.test_plain_pages import log_in
from tests.factories import PHONE, make_day, make_player, result

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

USERNAME_MAX_LENGTH = User._meta.get_field("username").max_length


def assert_cut_is_said(
    tab: Any, field: Any, line: Any, told: str, limit: int, *, lines: bool = False
) -> None:
    """Pasted longer, then typed past its limit: cut, and said in `line`; room again, or a
    text that fits: nothing said. A text box: a line break past the limit too."""
    assert field.get_attribute("maxlength") == str(limit)
    text = "Said at some length. " * (limit // 21 + 2)
    tab.evaluate("(text) => navigator.clipboard.writeText(text)", text)
    field.focus()
    tab.keyboard.press("Control+A")  # over what the field held: the pasted text replaces it
    tab.keyboard.press("Control+V")
    kept = text[:limit]
    assert field.input_value() == kept
    expect(line).to_have_text(told)
    field.press("Backspace")  # room again: nothing to say
    expect(line).to_have_text("")
    field.press_sequentially("ab")  # the "a" fits, the "b" does not
    assert field.input_value() == kept[:-1] + "a"
    expect(line).to_have_text(told)
    if lines:
        field.press("Backspace")
        field.press_sequentially("a")  # full again, nothing said
        expect(line).to_have_text("")
        field.press("Enter")  # a line break does not fit either
        assert field.input_value() == kept[:-1] + "a"
        expect(line).to_have_text(told)
    field.fill("Fits")
    expect(line).to_have_text("")


def test_every_field_says_when_what_went_in_was_cut(browse: Any) -> None:
    moderator = make_player("Mod", staff=True, moderator=True)
    closed_day = make_day(utc_today() - dt.timedelta(days=2))
    nell = make_player("Nell")
    ann = make_player("Ann")
    # Nell's game, disqualified: her player page offers the appeal. Ann's: Nell may report it.
    services.disqualify_game(moderator, result(nell, closed_day[Tier.EASY]).pk, "too quick")
    anns_game = result(ann, closed_day[Tier.MEDIUM], won=False, moves=0, save=False)
    anns_game.position = anns_game.start_position().to_text()  # stuck at once: no move log
    anns_game.save()

    page = browse(PHONE, permissions=["clipboard-read", "clipboard-write"])
    tab = page.page

    page.goto("/signup/")  # a guest
    error = tab.locator("[data-form-error]")
    assert_cut_is_said(
        tab,
        tab.get_by_label("Log-in name"),
        error,
        f"A log-in name has at most {USERNAME_MAX_LENGTH} characters: yours was cut to fit.",
        USERNAME_MAX_LENGTH,
    )
    assert_cut_is_said(
        tab,
        tab.get_by_label("Display name", exact=True),
        error,
        "A display name has at most 30 characters: yours was cut to fit.",
        DISPLAY_NAME_MAX_LENGTH,
    )
    page.shot("cut-fields-signup-phone")

    page.goto("/login/")
    # The second factor's form, as a log-in with one shows it in the account form's place.
    tab.evaluate("""() => {
      document.querySelector("[data-account-form]").hidden = true;
      document.querySelector("[data-second-factor]").hidden = false;
    }""")
    assert_cut_is_said(
        tab,
        tab.get_by_label("Code from your authenticator app, or a recovery code"),
        tab.locator("[data-form-error]"),
        "A code has at most 64 characters: this one was cut to fit.",
        64,
    )

    log_in(page, nell)
    page.goto("/account/")
    assert_cut_is_said(
        tab,
        tab.get_by_label("Display name, as shown on the boards"),
        tab.locator("[data-display-name] [data-error]"),
        "A display name has at most 30 characters: yours was cut to fit.",
        DISPLAY_NAME_MAX_LENGTH,
    )

    page.goto("/players/Nell/")
    tab.get_by_role("button", name="Appeal this decision").click()
    assert_cut_is_said(
        tab,
        tab.get_by_label("Why the decision is wrong, in your words (you can appeal once)"),
        tab.locator("[data-appeal-error]"),
        "An appeal has at most 2,000 characters: yours was cut to fit.",
        MAX_REASON,
        lines=True,
    )

    page.goto(f"/replay/{anns_game.pk}/")
    tab.get_by_text("Report this game").click()
    assert_cut_is_said(
        tab,
        tab.get_by_label("What looks wrong? The moderators read every report."),
        tab.locator("[data-report-error]"),
        "A report has at most 2,000 characters: yours was cut to fit.",
        MAX_REASON,
        lines=True,
    )
    page.assert_clean()
