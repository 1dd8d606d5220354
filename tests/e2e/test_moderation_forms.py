"""The two forms a player writes to the moderators in: the appeal of a disqualified game (on
their own player page) and the report of someone else's game (on its replay). A refusal,
and the sentence that says a text was cut, is the form's error, as on the site's other
forms (log-in, sign-up, leagues: ``.form-error``, ``role="alert"``), where both used to be
a grey status line; a text that went through stays a status. Each form's label sits over
its text box, which is wide enough to write in (the report's used to sit beside a small
box, level with its bottom edge).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Tier, utc_today
from moderation import services
from tests.e2e.test_plain_pages import log_in
from tests.factories import DESKTOP, make_day, make_player, result

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# the phone the screenshots are for people to look at; the header's test uses a narrower one
PHONE_390 = {"width": 390, "height": 844}
APPEAL_LABEL = "Why the decision is wrong, in your words (you can appeal once)"
REPORT_LABEL = "What looks wrong? The moderators read every report."


def assert_an_error(line: Any, text: str) -> None:
    """`text` in a form's error line, as the site's other forms show theirs."""
    expect(line).to_have_text(text)
    expect(line).to_have_attribute("role", "alert")
    expect(line).to_have_class(re.compile(r"\bform-error\b"))


def assert_a_status(line: Any, text: str) -> None:
    """`text` in a status line, which is no error."""
    expect(line).to_have_text(text)
    expect(line).to_have_attribute("role", "status")
    expect(line).not_to_have_class(re.compile(r"\bform-error\b"))


def assert_clean_but_refused(page: Any, *statuses: int) -> None:
    """No error on the page but the refusals the test asked for."""
    refused = [f"the server responded with a status of {status}" for status in statuses]
    page.errors[:] = [e for e in page.errors if not any(r in e for r in refused)]
    page.assert_clean()


def assert_label_over_its_box(tab: Any, field: str) -> None:
    """The label of the text box `field` (a selector) above it, flush with its left edge; the
    box wide enough to write in (all of a phone's column, 360 px at least on a wider screen)
    and within the screen. Measured at one moment: the replay page may still be moving."""
    over, box, main = tab.evaluate(
        """(field) => {
          const box = document.querySelector(field);
          return [box.labels[0], box, document.querySelector("main")]
            .map((node) => node.getBoundingClientRect().toJSON());
        }""",
        field,
    )
    assert over["bottom"] <= box["top"] + 1, (over, box)
    assert abs(over["left"] - box["left"]) <= 1, (over, box)
    assert box["width"] >= min(main["width"] - 40, 360), (box, main)
    assert box["right"] <= tab.viewport_size["width"], box


def assert_laid_out_at_1280_and_390(page: Any, field: str, name: str) -> None:
    """The label over its box at 1280 px (its screenshot ``name``-form-1280), then at 390,
    where the test goes on."""
    tab = page.page
    assert_label_over_its_box(tab, field)
    tab.locator(field).scroll_into_view_if_needed()
    page.shot(f"{name}-form-1280")
    tab.set_viewport_size(PHONE_390)
    assert_label_over_its_box(tab, field)


@pytest.fixture
def closed_day() -> dict[str, Any]:
    return make_day(utc_today() - dt.timedelta(days=2))


def test_the_appeal_says_a_refusal_as_an_error_and_its_sending_as_a_status(
    browse: Any, closed_day: dict[str, Any], settings: Any
) -> None:
    moderator = make_player("Mod", staff=True, moderator=True)
    nell = make_player("Nell")
    for tier in (Tier.EASY, Tier.MEDIUM):
        game = result(nell, closed_day[tier])
        services.disqualify_game(moderator, game.pk, "too quick")
    # Nell's hour of appeals is used up: one, of her other game, against a limit of one
    settings.MODERATION_REPORTS_PER_HOUR = 1
    services.file_appeal(nell, game.pk, "I play fast.")

    page = browse(DESKTOP)
    tab = page.page
    log_in(page, nell)
    page.goto("/players/Nell/")
    tab.get_by_role("button", name="Appeal this decision").click()
    field = tab.get_by_label(APPEAL_LABEL)
    assert_laid_out_at_1280_and_390(page, "#appeal-reason", "appeal")
    status = tab.locator("[data-appeal-status]")
    error = tab.locator("[data-appeal-form] [data-appeal-error]")

    field.fill("   ")  # only spaces: the site's sentence, with no field name before it
    tab.get_by_role("button", name="Send the appeal").click()
    assert_an_error(error, "say why the decision is wrong: a reason is required")
    field.fill("I play fast: my other games show it.")
    tab.get_by_role("button", name="Send the appeal").click()
    assert_an_error(error, "you have sent 1 appeal in the last hour; try again later")
    expect(status).to_have_text("")
    page.shot("appeal-refused-390")

    settings.MODERATION_REPORTS_PER_HOUR = 10  # an hour later
    tab.get_by_role("button", name="Send the appeal").click()
    assert_a_status(status, "Your appeal was sent: a moderator will read it.")
    expect(error).to_have_text("")
    expect(tab.locator("[data-appeal-form]")).to_be_hidden()
    page.shot("appeal-sent-390")
    assert_clean_but_refused(page, 400, 429)


def test_the_report_says_a_refusal_as_an_error_and_its_sending_as_a_status(
    browse: Any, closed_day: dict[str, Any], settings: Any
) -> None:
    ann = make_player("Ann")
    nell = make_player("Nell")
    anns_game = result(ann, closed_day[Tier.MEDIUM], won=False, moves=0, save=False)
    anns_game.position = anns_game.start_position().to_text()  # stuck at once: no move log
    anns_game.save()
    # Nell's hour of reports is used up: one, of another game, against a limit of one
    settings.MODERATION_REPORTS_PER_HOUR = 1
    services.file_report(nell, result(ann, closed_day[Tier.EASY]), "too quick")

    page = browse(DESKTOP)
    tab = page.page
    log_in(page, nell)
    page.goto(f"/replay/{anns_game.pk}/")
    tab.get_by_text("Report this game").click()
    field = tab.get_by_label(REPORT_LABEL)
    assert_laid_out_at_1280_and_390(page, "#report-reason", "report")
    status = tab.locator("[data-report-status]")
    error = tab.locator("[data-report-form] [data-report-error]")

    field.fill("   ")  # only spaces: said, where nothing happened before
    tab.get_by_role("button", name="Send report").click()
    assert_an_error(error, "say what looks wrong: a reason is required")
    field.fill("Every card known before it was turned.")
    tab.get_by_role("button", name="Send report").click()
    assert_an_error(error, "you have sent 1 report in the last hour; try again later")
    expect(status).to_have_text("")
    status.scroll_into_view_if_needed()  # the form's foot: the replay's column scrolls
    page.shot("report-refused-390")

    settings.MODERATION_REPORTS_PER_HOUR = 10  # an hour later
    tab.get_by_role("button", name="Send report").click()
    assert_a_status(status, "Thank you: the moderators will look at this game.")
    expect(error).to_have_text("")
    status.scroll_into_view_if_needed()
    page.shot("report-sent-390")
    assert_clean_but_refused(page, 400, 429)
