"""The account page's deletion and reminders, and what a deleted account leaves on the
boards, in a real Chromium (docs/accounts.md, "Deleting an account"; docs/reminders.md).

- A wrong phrase is refused in the page's words, without the API's field name: Spanish at
  a phone's width said "confirm: Escribe «eliminar mi cuenta» para confirmar.".
- After the deletion the home page says the account is gone (and only then).
- A deleted account's row on a board is named in the page's language and links nowhere:
  it has no player page.
- The reminders say whether any goes out: the kinds start ticked, the ways (push, email)
  off, and the page said "Off unless you turn them on" beside the ticks.
"""

from __future__ import annotations

from typing import Any

import pytest
from allauth.account.models import EmailAddress

from accounts.models import DELETED_NAME, User
from accounts.services import delete_account
from tests.factories import PHONE, client_for, make_player, result
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture: fresh Redis keys)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long enough pass 42"


def logged_in_page(browse: Any, player: User, **options: Any) -> Any:
    page = browse(**options)
    session = client_for(player).cookies["sessionid"].value
    page.page.context.add_cookies([{"name": "sessionid", "value": session, "url": page.base_url}])
    return page


def with_password(name: str, **extra: Any) -> User:
    player = make_player(name, **extra)
    player.set_password(PASSWORD)
    player.save()
    return player


def test_a_wrong_phrase_is_refused_without_the_fields_name(browse: Any) -> None:
    player = with_password("Lola", language="es")
    page = logged_in_page(browse, player, viewport=PHONE, locale="es-ES")
    p = page.page
    page.goto("/account/")
    form = p.locator("[data-delete-account]")
    form.locator("[name=password]").fill(PASSWORD)
    form.locator("[name=confirm]").fill("borrar mi cuenta")
    form.locator("button[type=submit]").click()
    error = form.locator("[data-error]")
    error.filter(has_text="eliminar").wait_for()
    assert error.inner_text() == "Escribe «eliminar mi cuenta» para confirmar."
    # a wrong password too: the message alone
    form.locator("[name=password]").fill("not the password")
    form.locator("[name=confirm]").fill("eliminar mi cuenta")
    form.locator("button[type=submit]").click()
    error.filter(has_text="contraseña").wait_for()
    assert not error.inner_text().startswith("password")
    player.refresh_from_db()
    assert player.deleted_at is None
    page.errors.clear()  # Chromium logs the 400 answers
    page.shot("account-delete-wrong-phrase-es-phone")


def test_the_home_page_says_the_account_was_deleted(browse: Any) -> None:
    player = with_password("Gone")
    page = logged_in_page(browse, player)
    p = page.page
    page.goto("/account/")
    form = p.locator("[data-delete-account]")
    form.locator("[name=password]").fill(PASSWORD)
    form.locator("[name=confirm]").fill("delete my account")
    form.locator("button[type=submit]").click()
    p.wait_for_url(page.base_url + "/?account=deleted")
    notice = p.locator("[data-account-deleted]")
    assert notice.inner_text() == "Your account has been deleted."
    assert notice.get_attribute("role") == "status"
    assert p.get_by_role("link", name="Log in").is_visible()  # a guest now
    player.refresh_from_db()
    assert player.deleted_at is not None
    page.shot("home-after-deleting-the-account")
    # a plain visit says nothing of it
    page.goto("/")
    p.locator("[data-daily]").wait_for()
    assert p.locator("[data-account-deleted]").count() == 0
    page.assert_clean()


# The page's catalogue, as a translated page's (frontend/catalogue.py) gives it: each text
# marked, so a text shown through gettext shows as such.
MARKED_CATALOGUE = """
globalThis.django = {
  gettext: (t) => t === "deleted player" ? "jugador eliminado" : t,
  ngettext: (one, other, n) => (n === 1 ? one : other),
  pgettext: (c, t) => t,
  npgettext: (c, one, other, n) => (n === 1 ? one : other),
};
"""


def test_a_deleted_accounts_row_is_named_in_the_pages_language_and_links_nowhere(
    browse: Any,
    daily_deal0: Any,
    board_prefix: str,  # noqa: F811
    settings: Any,
) -> None:
    settings.DAILY_PREPARE_ON_REQUEST = False
    dan, eve = make_player("Dan"), make_player("Eve")
    result(dan, daily_deal0, elapsed_ms=120_000)
    result(eve, daily_deal0, elapsed_ms=180_000)
    delete_account(dan)
    page = browse()
    p = page.page
    p.add_init_script(MARKED_CATALOGUE)
    page.goto("/leaderboards/")
    cells = p.locator("table.ranks td.player")
    cells.nth(1).wait_for()
    names = p.locator("table.ranks td.player > :first-child")  # a replay link may follow
    assert names.all_inner_texts() == ["jugador eliminado", "Eve"]
    assert cells.nth(0).locator("a[href^='/players/']").count() == 0
    assert names.nth(1).get_attribute("href") == "/players/Eve/"
    assert p.locator(f"a[href*='{DELETED_NAME.replace(' ', '%20')}']").count() == 0
    # and its name opens no page
    assert page.goto("/players/deleted%20player/").status == 404
    page.errors.clear()  # the 404 page's answer
    page.goto("/leaderboards/")
    cells.nth(1).wait_for()
    page.assert_clean()


def test_the_reminders_say_whether_any_is_sent(browse: Any) -> None:
    player = make_player("Rita", email="rita@example.org")
    EmailAddress.objects.create(user=player, email="rita@example.org", verified=True, primary=True)
    page = logged_in_page(browse, player, viewport=PHONE)
    p = page.page
    page.goto("/account/")
    form = p.locator("[data-reminders]")
    state = form.locator("[data-reminders-state]")
    state.filter(has_text="Reminders").wait_for()
    # the kinds are ticked (which ones, once on), the ways are not: nothing goes out
    assert form.locator("[name=streak]").is_checked() and form.locator("[name=rival]").is_checked()
    assert not form.locator("[name=email]").is_checked()
    assert state.inner_text().startswith("Reminders are off")
    assert "Off unless you turn them on" not in form.inner_text()
    form.locator("[name=email]").check()
    form.get_by_role("button", name="Save reminders").click()
    state.filter(has_text="Reminders are on").wait_for()
    # a way on and no kind ticked: nothing goes out either (it said "on")
    form.locator("[name=streak]").uncheck()
    form.locator("[name=rival]").uncheck()
    form.get_by_role("button", name="Save reminders").click()
    state.filter(has_text="no kind of reminder is ticked").wait_for()
    form.locator("[name=streak]").check()
    form.get_by_role("button", name="Save reminders").click()
    state.filter(has_text="Reminders are on").wait_for()
    form.locator("[name=email]").uncheck()
    form.get_by_role("button", name="Save reminders").click()
    state.filter(has_text="Reminders are off").wait_for()
    page.shot("account-reminders-state-phone")
    page.assert_clean()
