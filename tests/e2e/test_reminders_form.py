"""The account page's reminders form in a real Chromium (docs/reminders.md): what a
newcomer's walk found on it.

- A refusal said the API's field name: "time_zone: unknown time zone 'Vancouver': ...",
  and an empty time said DRF's "time: This field may not be blank.".
- Turning notifications on where the browser cannot take push (a private window) showed
  Chrome's own "Registration failed - permission denied" under Save.
- Ticking Email, or changing the time, was lost on leaving without pressing Save, while
  the Notifications box saved at once.
- A save's answer filled the form with what was sent, undoing a tick changed while it was
  out (seen as a flaky test on a loaded machine: a slow connection does the same).
"""

from __future__ import annotations

from typing import Any

import pytest
from allauth.account.models import EmailAddress

from accounts.models import User
from reminders.models import ReminderPreferences
from tests.e2e.test_account_deletion import logged_in_page
from tests.factories import PHONE, make_player
from tests.reminders.conftest import vapid  # noqa: F401 (fixture: the site's VAPID pair)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def with_address(name: str, **extra: Any) -> User:
    address = f"{name.lower()}@example.org"
    player = make_player(name, email=address, **extra)
    EmailAddress.objects.create(user=player, email=address, verified=True, primary=True)
    return player


def reminders_form(page: Any) -> Any:
    page.goto("/account/")
    form = page.page.locator("[data-reminders]")
    form.locator("[data-reminders-state]:not(:empty)").wait_for()
    return form


def assert_clean_but_refusals(page: Any) -> None:
    """No error in the page but the console's line for each refusal (400) it asked for."""
    page.errors[:] = [e for e in page.errors if "status of 400" not in e]
    page.assert_clean()


def test_a_refusal_says_a_sentence_not_the_apis_field_name(browse: Any) -> None:
    page = logged_in_page(browse, make_player("Vic"), viewport=PHONE)
    form = reminders_form(page)
    error = form.locator("[data-error]")
    save = form.get_by_role("button", name="Save reminders")
    form.locator("[name=time_zone]").fill("Vancouver")
    save.click()
    error.filter(has_text="Vancouver").wait_for()
    assert error.inner_text() == "unknown time zone 'Vancouver': an IANA name like Europe/Paris"
    # an empty time: the site's own words, not DRF's "This field may not be blank."
    form.locator("[name=time_zone]").fill("America/Vancouver")
    form.locator("[name=time]").fill("")
    save.click()
    error.filter(has_text="time").wait_for()
    assert error.inner_text() == "Choose the time your reminders come at."
    # an empty zone: said as such, not "unknown time zone ''"
    form.locator("[name=time]").fill("07:30")
    form.locator("[name=time_zone]").fill("")
    save.click()
    error.filter(has_text="zone").wait_for()
    assert error.inner_text() == "Enter your time zone, an IANA name like Europe/Paris."
    assert_clean_but_refusals(page)


@pytest.mark.parametrize(("language", "locale"), [("de", "de-DE"), ("es", "es-ES")])
def test_a_refusal_in_german_and_spanish_has_no_field_name_either(
    browse: Any, language: str, locale: str
) -> None:
    page = logged_in_page(browse, make_player("Uli", language=language), locale=locale)
    form = reminders_form(page)
    error = form.locator("[data-error]")
    form.locator("[name=time_zone]").fill("Vancouver")
    form.locator("button[type=submit]").click()
    error.filter(has_text="Vancouver").wait_for()
    assert not error.inner_text().startswith("time_zone")
    assert "IANA" in error.inner_text()
    assert_clean_but_refusals(page)


@pytest.mark.usefixtures("vapid")  # the site sends push: the box is enabled
def test_a_browser_that_cannot_take_push_is_told_in_the_pages_words(browse: Any) -> None:
    # Service workers allowed (push needs one), notifications allowed: the headless
    # browser, as a private window, has no push service and refuses the subscription.
    page = logged_in_page(browse, make_player("Pia"), service_workers="allow")
    page.page.context.grant_permissions(["notifications"])
    form = reminders_form(page)
    box = form.locator("[name=push]")
    assert box.is_enabled()
    box.check()
    note = form.locator("[data-push-note]")
    # what the page says, under the box or under Save (where Chrome's words showed)
    form.locator("[data-push-note]:not(:empty), [data-error]:not(:empty)").first.wait_for()
    assert note.inner_text() == (
        "This browser cannot receive notifications from this site here (a private window"
        " often cannot). Email reminders still work."
    ), form.locator("[data-error]").inner_text()
    assert form.locator("[data-error]").inner_text() == ""
    assert "Registration failed" not in form.inner_text()
    assert not box.is_checked()
    assert not ReminderPreferences.objects.filter(player__username="pia", push=True).exists()
    # Chrome's own line, the reason (Playwright's contexts are incognito): not the page's
    chromes = "does not support the Push API in incognito"
    page.errors[:] = [e for e in page.errors if chromes not in e]
    page.assert_clean()


def test_ticking_email_saves_at_once_as_notifications_do(browse: Any) -> None:
    # A first visit: the zone shown is the browser's own, and ticking Email saves what the
    # page shows (not Email on at the stored UTC while the page says Vancouver).
    player = with_address("Ella")
    page = logged_in_page(browse, player, viewport=PHONE, timezone_id="America/Vancouver")
    form = reminders_form(page)
    assert form.locator("[name=time_zone]").input_value() == "America/Vancouver"
    form.locator("[name=email]").check()
    form.locator("[data-reminders-state]").filter(has_text="Reminders are on").wait_for()
    prefs = ReminderPreferences.objects.get(player=player)
    assert (prefs.email, prefs.time_zone) == (True, "America/Vancouver")
    assert form.locator("[data-unsaved]").inner_text() == ""
    # nothing left to lose: leaving asks nothing
    dialogs: list[str] = []
    page.page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.dismiss()))
    page.goto("/account/")
    assert dialogs == []
    form.locator("[data-reminders-state]").filter(has_text="Reminders are on").wait_for()
    assert form.locator("[name=email]").is_checked()
    # and unticking it turns them off at once too
    form.locator("[name=email]").uncheck()
    form.locator("[data-reminders-state]").filter(has_text="Reminders are off").wait_for()
    assert not ReminderPreferences.objects.get(player=player).email
    page.assert_clean()


def test_a_changed_time_is_marked_unsaved_and_leaving_asks_first(browse: Any) -> None:
    player = with_address("Noor")
    page = logged_in_page(browse, player, viewport=PHONE)
    p = page.page
    form = reminders_form(page)
    unsaved = form.locator("[data-unsaved]")
    assert unsaved.inner_text() == ""
    form.locator("[name=time]").fill("07:15")
    unsaved.filter(has_text="unsaved").wait_for()
    assert unsaved.inner_text() == "You have unsaved changes."
    # leaving now asks first (the browser's own question)
    with p.expect_event("dialog") as shown:
        p.close(run_before_unload=True)
    assert shown.value.type == "beforeunload"
    shown.value.dismiss()  # stay
    # saved: no longer marked, and leaving asks nothing
    form.get_by_role("button", name="Save reminders").click()
    unsaved.filter(has_text="unsaved").wait_for(state="detached")
    assert unsaved.inner_text() == ""
    assert ReminderPreferences.objects.get(player=player).local_time.strftime("%H:%M") == "07:15"
    # changed back by hand to what is saved: nothing unsaved either
    form.locator("[name=time]").fill("08:00")
    unsaved.filter(has_text="unsaved").wait_for()
    form.locator("[name=time]").fill("07:15")
    unsaved.filter(has_text="unsaved").wait_for(state="detached")
    page.assert_clean()
    with p.expect_event("close"):
        p.close(run_before_unload=True)


def test_a_tick_changed_while_a_save_is_out_is_not_undone_by_its_answer(browse: Any) -> None:
    """Save pressed, then a kind unticked before the answer came: the answer used to fill the
    form with what was sent, ticking the box again behind the player's back (a slow
    connection, or two quick clicks). The untick stays, marked unsaved, until Save sends it."""
    player = with_address("Omar")
    page = logged_in_page(browse, player, viewport=PHONE)
    p = page.page
    form = reminders_form(page)
    streak = form.locator("[name=streak]")
    assert streak.is_checked()
    held: list[Any] = []  # the first save's request, answered when the test says

    def hold_the_first_save(route: Any) -> None:
        if route.request.method == "PUT" and not held:
            held.append(route)
        else:
            route.continue_()

    p.route("**/api/reminders/preferences/", hold_the_first_save)
    form.get_by_role("button", name="Save reminders").click()
    for _ in range(100):  # the save is out, its answer held back
        if held:
            break
        p.wait_for_timeout(50)
    streak.uncheck()
    with p.expect_response(lambda response: response.request.method == "PUT"):
        held[0].continue_()
    # the answer read (it ticked the box again)
    p.locator(".toast").filter(has_text="Reminders saved.").wait_for()
    assert form.locator("[data-unsaved]").inner_text() == "You have unsaved changes."
    assert not streak.is_checked()
    assert ReminderPreferences.objects.get(player=player).streak  # not sent yet
    form.get_by_role("button", name="Save reminders").click()
    form.locator("[data-unsaved]").filter(has_text="unsaved").wait_for(state="detached")
    assert not streak.is_checked()
    assert not ReminderPreferences.objects.get(player=player).streak
    page.assert_clean()
