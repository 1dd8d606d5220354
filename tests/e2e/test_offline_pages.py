"""Pages without a network, in Chromium with the service worker on (docs/frontend.md,
"Installable app"): the offline page the worker shows in place of a page it could not fetch
reloads itself once the site answers again, whether or not the browser ever says "online";
and the home page, cut off, points to the practice that still works offline.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.factories import DESKTOP

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

WAIT_FOR_WORKER = """async () => {
  const sw = navigator.serviceWorker;
  await sw.ready;
  if (!sw.controller) await new Promise((done) => sw.addEventListener("controllerchange", done));
}"""
# What was out of reach offline: the pages' own fetches (the API, the checks of /healthz).
CUT_OFF = "console: Failed to load resource: net::ERR_INTERNET_DISCONNECTED"


def offline_tab(browse: Any) -> tuple[Any, Any]:
    """A desktop page whose service worker is installed and in control, then cut off."""
    page = browse(DESKTOP, service_workers="allow")
    tab = page.page
    page.goto("/")
    tab.evaluate(WAIT_FOR_WORKER)
    tab.context.set_offline(True)
    return page, tab


def assert_clean_but_cut_off(page: Any) -> None:
    page.errors = [error for error in page.errors if error != CUT_OFF]
    page.assert_clean()


def test_the_offline_page_reloads_itself_when_the_site_answers_again(
    browse: Any, daily_deal0: Any
) -> None:
    page, tab = offline_tab(browse)
    page.goto("/leaderboards/")  # never kept by the worker: the offline page, at its address
    expect(tab).to_have_url(re.compile("/leaderboards/$"))
    expect(tab.get_by_role("heading", level=1)).to_have_text("You are offline")
    page.shot("offline-page-cut-off")

    # Back on the network, and nothing else: no "online" event from the test, no click on
    # "Try again". The page finds the site answering by itself and reloads into the real page.
    tab.context.set_offline(False)
    expect(tab.get_by_role("heading", level=1)).to_have_text("Leaderboards", timeout=10_000)
    expect(tab).to_have_url(re.compile("/leaderboards/$"))
    assert_clean_but_cut_off(page)


def test_the_offline_page_at_its_own_address_does_not_reload_while_online(browse: Any) -> None:
    page = browse(DESKTOP)
    tab = page.page
    page.goto("/offline/")
    tab.evaluate("window.stayed = true")  # gone if the page reloads
    tab.wait_for_timeout(4_000)  # longer than one recheck
    assert tab.evaluate("window.stayed === true")
    page.assert_clean()


def test_the_home_page_cut_off_points_to_offline_practice(browse: Any) -> None:
    page, tab = offline_tab(browse)
    page.goto("/")  # the worker's copy of the home page; today's challenges are the API's
    notice = tab.locator("[data-daily] .notice")
    expect(notice).to_contain_text("Today's challenges could not be loaded")
    link = notice.get_by_role("link", name="practise offline")
    expect(link).to_have_attribute("href", "/practice/offline/")
    page.shot("home-offline-practice-pointer")
    link.click()  # and it opens, still offline
    expect(tab).to_have_title("Offline practice · Yukon Daily")
    assert_clean_but_cut_off(page)


def test_the_home_page_says_nothing_of_offline_practice_when_the_server_answers_an_error(
    browse: Any,
) -> None:
    page = browse(DESKTOP)
    tab = page.page
    tab.route("**/api/daily/", lambda route: route.fulfill(status=500, json={"detail": "boom"}))
    page.goto("/")
    notice = tab.locator("[data-daily] .notice")
    expect(notice).to_contain_text("Today's challenges could not be loaded")
    expect(notice.get_by_role("link")).to_have_count(0)
