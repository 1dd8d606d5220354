"""Browser fixtures: one headless Chromium per session, a fresh context per test.

Chromium is Debian's; Playwright drives it, never downloads one. The tests run in its
headless shell (``chromium-headless-shell``, the same Blink without the browser around it,
which takes a fifth less CPU for the same pages), except the installable app's check, which
asks the full browser (``/usr/bin/chromium``) whether it would install the site.
Every page collects console errors and uncaught exceptions; ``assert_clean`` fails on them.
"""

from __future__ import annotations

import base64
import os
import shutil
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.factories import DESKTOP

# Playwright's sync API runs an asyncio loop in this thread, which makes Django refuse
# ORM calls from the test body ("async unsafe"). The test body only sets up rows; the
# server under test runs in its own thread either way.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


FULL_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "chrome")


_DEVTOOLS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def save_screenshot(page: Any, path: Path, *, full_page: bool = False) -> None:
    """A PNG of the window (or with ``full_page`` the whole page) to ``path``, for people to
    look at. Chromium encodes it for speed (DevTools' ``optimizeForSpeed``): a fifth of the
    CPU of Playwright's ``screenshot`` (about 45 ms a shot against 210 at 1280 px, for a file
    about twice the size), and the suite takes some 190 of them. Once the page's fonts are in,
    as Playwright's own waits."""
    page.evaluate("document.fonts.ready.then(() => null)")
    params: dict[str, Any] = {"format": "png", "optimizeForSpeed": True}
    session = _DEVTOOLS.get(page)
    if session is None:  # one per page, left open: detaching one ends a virtual passkey
        session = _DEVTOOLS[page] = page.context.new_cdp_session(page)
    if full_page:
        size = session.send("Page.getLayoutMetrics")["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
        params.update(captureBeyondViewport=True, clip=clip)
    data = session.send("Page.captureScreenshot", params)["data"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(base64.b64decode(data))


def chromium_path(*, full: bool = False) -> str:
    """The headless shell where it is installed (the full browser otherwise), or with
    ``full`` the full browser."""
    for name in FULL_BROWSERS if full else ("chromium-headless-shell", *FULL_BROWSERS):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium"


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def chromium(playwright_driver: Any) -> Iterator[Any]:
    browser = playwright_driver.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def full_chromium(playwright_driver: Any) -> Iterator[Any]:
    """The full browser, for what only it does (Page.getInstallabilityErrors)."""
    browser = playwright_driver.chromium.launch(
        executable_path=chromium_path(full=True), args=CHROMIUM_ARGS
    )
    yield browser
    browser.close()


class Page:
    """A Playwright page at a base URL that records console errors."""

    def __init__(self, page: Any, base_url: str) -> None:
        self.page = page
        self.base_url = base_url
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(f"uncaught: {exc}"))

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text}")

    def goto(self, path: str) -> Any:
        return self.page.goto(self.base_url + path)

    def assert_clean(self) -> None:
        assert self.errors == [], "\n".join(self.errors)

    def shot(self, name: str) -> None:
        save_screenshot(self.page, SCREENSHOTS / f"{name}.png")


@pytest.fixture
def browse(chromium: Any, live_server: Any) -> Iterator[Any]:
    """A factory of pages (desktop size unless told) on the live server."""
    yield from page_factory(chromium, live_server)


@pytest.fixture
def browse_in_full_chromium(full_chromium: Any, live_server: Any) -> Iterator[Any]:
    """``browse`` in the full browser."""
    yield from page_factory(full_chromium, live_server)


def page_factory(chromium: Any, live_server: Any) -> Iterator[Any]:
    contexts: list[Any] = []

    def new_page(viewport: dict[str, int] | None = None, **options: Any) -> Page:
        # The service worker fetches every static file in the background on each first
        # visit, and answers requests that Playwright's routes then never see: only the
        # tests of the installable app and offline practice allow it.
        options.setdefault("service_workers", "block")
        context = chromium.new_context(viewport=viewport or DESKTOP, **options)
        context.set_default_timeout(5_000)
        contexts.append(context)
        return Page(context.new_page(), live_server.url)

    yield new_page
    for context in contexts:
        # A route handler still fetching when its context closes raises into whatever
        # test runs next; wait for handlers to finish and drop them first.
        for page in context.pages:
            page.unroute_all(behavior="ignoreErrors")
        context.close()


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Verify finished games in-process, as `make run` does without Redis."""
    from yukon_site.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture
def daily_deal0(transactional_db: None) -> Any:
    """Today's easy challenge on deal 0, whose winning line is in fixtures/deal0.json."""
    from games.models import DailyChallenge, Deal, utc_today

    deal, _ = Deal.objects.get_or_create(number=0, variant="yukon")
    challenge, _ = DailyChallenge.objects.get_or_create(
        date=utc_today(), tier="easy", defaults={"deal": deal}
    )
    return challenge
