"""The header of the pages the service worker keeps, shown without a network to a player
who is logged in: the kept copies are a guest's (fetched without cookies, so nobody's name
is in them), and their header used to offer "Log in" and "Sign up", as if the player had
been logged out. Offline, it says "Offline" in their place instead, and online nothing
changes. A kept page left open when the network comes back used to say "Offline" until the
next load: it now says so only while the site is out of reach, then "Reload".
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
    page.shot("offline-header-guest-desktop")
    page.assert_clean()


def test_a_kept_page_left_open_says_offline_only_while_it_is(browse: Any) -> None:
    """Back on the network, a kept page left open (the home page, offline practice) drops
    its "Offline" once the site answers, asked as the offline pages ask it (a HEAD of
    /healthz every 3 s while out of reach), offers "Reload" in its place (the kept copy's
    header is a guest's, whoever is logged in), and says "Offline" again when cut off again."""
    page = browse(PHONE, service_workers="allow")
    tab = page.page
    nav = tab.get_by_role("navigation", name="Main")
    asked: list[str] = []
    tab.on("request", lambda request: asked.append(request.url))
    page.goto("/")
    tab.evaluate(WAIT_FOR_WORKER)

    # A page from the network never asks: cut off and back, its header stays as it was.
    tab.context.set_offline(True)
    tab.wait_for_timeout(4_000)  # longer than one recheck
    tab.context.set_offline(False)
    tab.wait_for_timeout(1_000)
    assert not [url for url in asked if url.endswith("/healthz")]
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()
    expect(nav.get_by_text("Offline", exact=True)).to_be_hidden()

    for path, title in [
        ("/", "Yukon Daily"),  # the kept home page
        ("/practice/7/", "Offline practice · Yukon Daily"),  # the offline practice shell
    ]:
        tab.context.set_offline(True)
        page.goto(path)
        expect(tab).to_have_title(re.compile(re.escape(title)))
        assert_header_offline(tab)

        tab.context.set_offline(False)  # and nothing else: no reload, no click
        expect(nav.get_by_role("link", name="Reload")).to_be_visible(timeout=10_000)
        expect(nav.get_by_text("Offline", exact=True)).to_be_hidden()
        # the kept copy's links are a guest's: still not offered to whoever is logged in
        expect(nav.get_by_role("link", name="Log in")).to_be_hidden()
        expect(nav.get_by_role("link", name="Sign up")).to_be_hidden()
        if path == "/practice/7/":
            expect(tab.locator("[data-connection]")).to_contain_text("You are back online.")
            page.shot("offline-header-back-online-phone")

        tab.context.set_offline(True)  # cut off again, still on the same page
        assert_header_offline(tab)
    tab.context.set_offline(False)
    # "Reload" loads the page from the site: the guest's own header, and no mark
    nav.get_by_role("link", name="Reload").click(timeout=10_000)
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()
    expect(tab.locator("html[data-kept-copy]")).to_have_count(0)
    assert_clean_but_cut_off(page)


def test_the_header_keeps_its_height_when_its_mark_swaps(browse: Any) -> None:
    """On a 360 px phone a guest's "Log in" and "Sign up" are the nav's second line, where
    "Offline", then "Reload", take their place on a kept page: the header is as tall in all
    three states. ("Offline" and "Reload" used to fit on the first line, and the page jumped
    up by a line when the mark came, and down when "Reload" went.)"""
    page = browse(PHONE, service_workers="allow")
    tab = page.page
    nav = tab.get_by_role("navigation", name="Main")
    header = tab.locator(".site-header")
    page.goto("/")
    tab.evaluate(WAIT_FOR_WORKER)
    expect(nav.get_by_role("link", name="Sign up")).to_be_visible()
    heights = {"guest": header.bounding_box()["height"]}
    page.shot("offline-header-guest-phone")

    tab.context.set_offline(True)
    page.goto("/")  # the kept copy
    assert_header_offline(tab)
    heights["offline"] = header.bounding_box()["height"]
    page.shot("offline-header-kept-phone")

    tab.context.set_offline(False)
    expect(nav.get_by_role("link", name="Reload")).to_be_visible(timeout=10_000)
    heights["back online"] = header.bounding_box()["height"]
    page.shot("offline-header-reload-phone")
    assert heights["offline"] == heights["guest"], heights
    assert heights["back online"] == heights["guest"], heights
    assert_clean_but_cut_off(page)
