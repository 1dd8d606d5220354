"""The installable app in Chromium (docs/frontend.md, "Installable app"): Chrome finds the site
installable, the service worker installs and keeps exactly what the server lists, and with the
network cut the home page and the offline page still open, a numbered practice deal opens the
offline practice shell, and a daily's page says "you are offline".

Lighthouse 12 has no PWA category any more: installability is asked of Chromium itself, as
Chrome's install prompt does (the DevTools protocol's ``Page.getInstallabilityErrors``).
"""

from __future__ import annotations

import re
import struct
from typing import Any

import pytest
from playwright.sync_api import expect

from frontend.installable import precache_plan
from tests.factories import Api, logged_in, make_player

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# The worker's script once it controls the page (installed, precached, activated), or null.
WAIT_FOR_CONTROL = """async () => {
  const sw = navigator.serviceWorker;
  const control = new Promise((done) => {
    if (sw.controller) done();
    sw.addEventListener("controllerchange", done);
  });
  const giveUp = new Promise((done) => setTimeout(done, 10000));
  await Promise.race([control, giveUp]);
  return sw.controller && new URL(sw.controller.scriptURL).pathname;
}"""
CACHED = """async () => {
  const names = await caches.keys();
  const cache = await caches.open(names[0]);
  return { names, paths: (await cache.keys()).map((request) => new URL(request.url).pathname) };
}"""


# About the browser, not the site: every Playwright context is an off-the-record profile,
# where Chrome never offers to install anything.
BROWSER_PROFILE_ERRORS = {"in-incognito"}


def installability_errors(page: Any) -> list[str]:
    """What Chrome finds in the way of installing the page's app, as its install prompt does."""
    session = page.context.new_cdp_session(page)
    try:
        answer = session.send("Page.getInstallabilityErrors")
    finally:
        session.detach()
    found = [error["errorId"] for error in answer["installabilityErrors"]]
    return [error for error in found if error not in BROWSER_PROFILE_ERRORS]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk comes first
    return width, height


def test_installable_and_offline(browse_in_full_chromium: Any, daily_deal0: Any) -> None:
    status, daily = Api(logged_in(make_player("Offline Olive"))).post(
        "/api/games/", {"daily": "easy"}
    )
    assert status == 201, daily
    # the full browser: the headless shell says every page installable, even one with no manifest
    page = browse_in_full_chromium(service_workers="allow")
    tab = page.page

    page.goto("/")
    assert tab.evaluate(WAIT_FOR_CONTROL) == "/sw.js"
    assert installability_errors(tab) == []
    manifest = tab.request.get(page.base_url + "/manifest.webmanifest")
    assert manifest.headers["content-type"] == "application/manifest+json"
    app = manifest.json()
    assert (app["name"], app["start_url"], app["scope"], app["display"]) == (
        "Yukon Daily",
        "/",
        "/",
        "standalone",
    )
    for icon in app["icons"]:
        image = tab.request.get(page.base_url + icon["src"])
        assert image.status == 200, icon
        width, height = png_size(image.body())
        assert f"{width}x{height}" == icon["sizes"], icon
    assert {icon["purpose"] for icon in app["icons"]} == {"any", "maskable"}

    # Installed: one cache, holding the page shells, the pages' static files and the
    # languages' JavaScript catalogues, nothing more.
    plan = precache_plan()
    cached = tab.evaluate(CACHED)
    assert cached["names"] == [plan["cache"]]
    kept = [*plan["shells"], *plan["static"], *plan["catalogues"]]  # type: ignore[misc]
    assert plan["catalogues"] and sorted(cached["paths"]) == sorted(kept)
    page.assert_clean()

    # The check sees a page without a manifest as not installable: it is not vacuous.
    page.goto("/sw.js")
    assert installability_errors(tab) == ["no-manifest"]

    tab.context.set_offline(True)
    page.goto("/")
    expect(tab.get_by_role("heading", level=1)).to_contain_text("Today's deals")
    page.goto(f"/play/{daily['id']}/")  # a daily is never kept: the offline page, at its address
    expect(tab).to_have_url(re.compile(f"/play/{daily['id']}/$"))
    expect(tab.get_by_role("heading", level=1)).to_have_text("You are offline")
    page.goto("/offline/")
    expect(tab).to_have_url(re.compile("/offline/$"))
    expect(tab.get_by_role("link", name="Play deal 7")).to_have_attribute("href", "/practice/7/")
    page.goto("/practice/7/")  # the offline practice shell, which reads the deal from the address
    expect(tab).to_have_title("Offline practice · Yukon Daily")
