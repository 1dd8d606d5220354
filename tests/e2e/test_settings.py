"""The settings panel in Chromium, as one journey (docs/frontend.md, "Settings").

A guest on a phone picks the dark theme and four-colour suits in the header's panel: the
page changes at once and stays so after a reload (this browser's choice). A player picks
high contrast and four-colour suits, turns the Hint button and the question before
resigning off (the practice page follows at once: no Hint button, Resign ends the game
without asking), then logs in from a second browser whose own store says "light": the
account's settings win there. Screenshots: test-artifacts/screenshots/settings-panel-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import failures
from tests.factories import DESKTOP, PHONE, logged_in, make_player

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long enough pass 42"
ROOT_ATTRIBUTES = """() => Object.fromEntries(
  ["data-theme", "data-suits", "data-indices", "data-motion"]
    .map((name) => [name, document.documentElement.getAttribute(name)]))"""


def attributes(**chosen: str) -> dict[str, str | None]:
    found: dict[str, str | None] = dict.fromkeys(("theme", "suits", "indices", "motion"))
    return {f"data-{name}": value for name, value in {**found, **chosen}.items()}


def open_panel(p: Any) -> Any:
    p.get_by_role("button", name="Settings").click()
    panel = p.get_by_role("dialog", name="Settings")
    panel.wait_for()
    return panel


def choose(panel: Any, group: str, choice: str) -> None:
    panel.get_by_role("group", name=group).get_by_label(choice, exact=True).click()


def saved_in_account(p: Any) -> Any:
    return p.expect_response(
        lambda r: r.url.endswith("/api/account/settings/") and r.request.method == "PATCH"
    )


def test_settings_apply_at_once_stay_after_a_reload_and_follow_the_player(
    browse: Any, live_server: Any
) -> None:
    # A guest's choice: applied at once, kept by this browser.
    guest = browse(PHONE)
    g = guest.page
    guest.goto("/")
    assert g.evaluate(ROOT_ATTRIBUTES) == attributes()
    panel = open_panel(g)
    choose(panel, "Theme", "Dark")
    choose(panel, "Card faces", "Four-colour suits")
    assert g.evaluate(ROOT_ATTRIBUTES) == attributes(theme="dark", suits="four")
    # the rules and the game's messages say red and black: the panel says which is which
    faces = panel.get_by_role("group", name="Card faces").inner_text()
    assert "clubs are green and diamonds blue: they still count as black and red" in faces
    assert "Saved in this browser." in panel.inner_text()
    guest.shot("settings-panel-360")
    found = failures(g)
    assert not found, "axe on the settings panel:\n" + "\n".join(found)
    g.get_by_role("button", name="Done").click()
    g.reload()
    assert g.evaluate(ROOT_ATTRIBUTES) == attributes(theme="dark", suits="four")
    panel = open_panel(g)
    assert panel.get_by_role("radio", name="Dark").is_checked()
    assert panel.get_by_role("radio", name="Four-colour suits").is_checked()

    # A player's choices go to the account as well, and the play page follows them at once.
    ann = make_player("Ann")
    ann.set_password(PASSWORD)
    ann.save()
    player = browse(DESKTOP)
    p = player.page
    cookie = logged_in(ann).cookies["sessionid"].value
    p.context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])
    player.goto("/practice/1/?variant=yukon")
    p.locator(".tableau .card.up").first.wait_for()
    hint = p.get_by_role("button", name="Hint", exact=True)
    assert hint.is_visible()
    panel = open_panel(p)
    for group, choice in [
        ("Theme", "High contrast"),
        ("Card faces", "Four-colour suits"),
        ("Play", "Confirm before resigning"),
        ("Play", "Show the Hint button in practice"),
    ]:
        with saved_in_account(p) as answer:
            choose(panel, group, choice)
        assert answer.value.status == 200
    assert p.evaluate(ROOT_ATTRIBUTES) == attributes(theme="contrast", suits="four")
    assert "Saved in your account and in this browser." in panel.inner_text()
    player.shot("settings-panel-1280")
    p.get_by_role("button", name="Done").click()
    assert not hint.is_visible()
    p.get_by_role("button", name="Resign").click()  # no question: the game ends
    p.wait_for_function("() => document.querySelector('[data-end]').open", timeout=15_000)
    assert p.get_by_role("dialog", name="Resign this game?").count() == 0
    p.reload()
    assert p.evaluate(ROOT_ATTRIBUTES) == attributes(theme="contrast", suits="four")

    # Another browser, whose own store says "light": once logged in, the account's win.
    other = browse(DESKTOP)
    o = other.page
    other.goto("/")
    o.evaluate(
        """localStorage.setItem("yd-settings", '{"theme": "light", "largeIndices": true}')"""
    )
    other.goto("/login/")
    assert o.evaluate(ROOT_ATTRIBUTES) == attributes(theme="light", indices="large")
    form = o.locator("[data-account-form]")
    form.locator("[name=username]").fill("ann")
    form.locator("[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    o.locator(".who", has_text="Ann").wait_for()
    assert o.evaluate(ROOT_ATTRIBUTES) == attributes(
        theme="contrast", suits="four", indices="large"
    )
    panel = open_panel(o)
    assert panel.get_by_role("radio", name="High contrast").is_checked()
    assert not panel.get_by_label("Confirm before resigning").is_checked()
    assert not panel.get_by_label("Show the Hint button in practice").is_checked()

    # The guest's browser kept its own choice all along.
    g.reload()
    assert g.evaluate(ROOT_ATTRIBUTES) == attributes(theme="dark", suits="four")
    for page in (guest, player, other):
        page.assert_clean()


DONE_IN_VIEW = """() => {
  const done = [...document.querySelectorAll("dialog.settings-panel button")]
    .find((b) => b.textContent.trim() === "Done");
  const box = done.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  return {
    inside: box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth,
    onTop: document.elementFromPoint(x, y) === done,
    x, y, box: [box.top, box.bottom, innerHeight],
  };
}"""


@pytest.mark.parametrize(
    "viewport",
    [DESKTOP, {"width": 390, "height": 844}, PHONE],
    ids=["1280x800", "390x844", "360x740"],
)
def test_the_panels_done_button_is_in_view_without_scrolling(
    browse: Any, viewport: dict[str, int]
) -> None:
    page = browse(viewport)
    p = page.page
    page.goto("/")
    panel = open_panel(p)
    found = p.evaluate(DONE_IN_VIEW)
    page.shot(f"settings-panel-done-{viewport['width']}x{viewport['height']}")
    assert found["inside"], f"Done is cut off: {found['box']}"
    assert found["onTop"], "something covers Done"
    p.mouse.click(found["x"], found["y"])  # a click where it shows: Playwright does not scroll
    expect(panel).to_be_hidden()
    page.assert_clean()
