"""The header of the pages the service worker keeps, shown without a network to a player
who is logged in: the kept copies are a guest's (fetched without cookies, so nobody's name
is in them), and their header used to offer "Log in" and "Sign up", as if the player had
been logged out. Offline, it says "Offline" in their place instead, and online nothing
changes.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_offline_pages import WAIT_FOR_WORKER, assert_clean_but_cut_off
from tests.e2e.test_plain_pages import log_in
from tests.factories import DESKTOP, PHONE, make_player

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def assert_header_offline(tab: Any) -> None:
    nav = tab.get_by_role("navigation", name="Main")
    expect(nav.get_by_text("Offline", exact=True)).to_be_visible()
    expect(nav.get_by_role("link", name="Log in")).to_be_hidden()
    expect(nav.get_by_role("link", name="Sign up")).to_be_hidden()
    expect(nav.get_by_role("link", name="Rules")).to_be_visible()  # the rest stays


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_logged_in_player_offline_is_not_shown_a_logged_out_header(
    browse: Any, viewport: dict[str, int]
) -> None:
    page = browse(viewport, service_workers="allow")
    tab = page.page
    log_in(page, make_player("Wren"))
    page.goto("/")
    nav = tab.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Wren")).to_be_visible()  # online: the player's own
    expect(nav.get_by_text("Offline", exact=True)).to_be_hidden()
    tab.evaluate(WAIT_FOR_WORKER)
    tab.context.set_offline(True)

    size = "desktop" if viewport is DESKTOP else "phone"
    for path, title in [
        ("/", "Yukon Daily"),  # the kept home page
        ("/leaderboards/", "Offline · Yukon Daily"),  # a page never kept: the offline page
        ("/practice/7/", "Offline practice · Yukon Daily"),  # the offline practice shell
    ]:
        page.goto(path)
        expect(tab).to_have_title(re.compile(re.escape(title)))
        assert_header_offline(tab)
    page.shot(f"offline-header-{size}")
    assert_clean_but_cut_off(page)


def test_a_guest_online_keeps_log_in_and_sign_up(browse: Any) -> None:
    page = browse(DESKTOP)
    tab = page.page
    page.goto("/offline/")  # a kept page, but from the network
    nav = tab.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()
    expect(nav.get_by_role("link", name="Sign up")).to_be_visible()
    expect(nav.get_by_text("Offline", exact=True)).to_be_hidden()
    page.assert_clean()
