"""Every page in another language, in a real Chromium at a phone's width (issue 43).

In the pseudo-locale (tests/i18n/pseudo.py: every translated text accented, in brackets
and a third longer) a logged-in player's home page, today's board, practice (its index and
a deal), the rules, the FAQ, the strategy page, the account page, a daily's play page,
its "Resign?" question and the results screen after resigning show no word left in plain
ASCII letters (untranslated) but the brand, player names and card codes; and nothing is
clipped: the page never scrolls sideways, and no element cuts its own text off (one that
scrolls, overflow auto or scroll, is meant to).

Then the same pages in German and Spanish, one browser context each: nothing clipped
either. Every screen goes to test-artifacts/screenshots/lang-<de|es|pseudo>-<page>.png for
a reader's eye.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from tests.e2e.play_api import PLAY_DAILY
from tests.factories import client_for, make_player, result
from tests.i18n import pseudo
from tests.i18n.pseudo import english_words
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture: fresh Redis keys)

# The pseudo-locale's fixtures (tests/i18n/conftest.py has them for its own folder).
extracted, pseudo_locale, in_pseudo_locale = (
    pseudo.extracted,
    pseudo.pseudo_locale,
    pseudo.in_pseudo_locale,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PAGES = [
    ("home", "/"),
    ("board", "/leaderboards/"),
    ("practice", "/practice/"),
    ("practice-deal", "/practice/7/"),
    ("rules", "/how-to-play/"),
    ("faq", "/faq/"),
    ("strategy", "/strategy/"),
    ("account", "/account/"),
]
WINNERS = ["Quick Quinn", "Steady Stan"]  # on today's board, by name

# What a page shows, as a reader meets it: each visible text with where it is, the
# labels screen readers read (aria-label, title, alt, placeholder) and the document's
# title; then what is clipped: how far the page scrolls sideways, and each element whose
# own text is wider than its box while it does not scroll (the innermost only).
READ_PAGE = """(scope) => {
  const root = scope ? document.querySelector(scope) : document.body;
  const where = (el) => {
    const data = [...el.attributes].filter((a) => a.name.startsWith("data-"))
      .map((a) => `[${a.name}]`);
    const cls = el.classList.length ? "." + [...el.classList].slice(0, 2).join(".") : "";
    return el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + cls + data.slice(0, 2).join("");
  };
  const shown = (el) => el.checkVisibility({ visibilityProperty: true });
  const texts = scope ? [] : [[document.title, "title"]];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest("script, style, noscript, template") || !shown(el)) continue;
    texts.push([text, where(el)]);
  }
  const labelled = "[aria-label], [title], [alt], [placeholder], input[type=submit]";
  for (const el of root.querySelectorAll(labelled)) {
    if (!shown(el)) continue;
    for (const name of ["aria-label", "title", "alt", "placeholder", "value"]) {
      if (name === "value" && el.type !== "submit") continue;
      const value = (el.getAttribute(name) || "").trim();
      if (value) texts.push([value, `${where(el)}@${name}`]);
    }
  }
  const clipped = [];
  for (const el of root.querySelectorAll("*")) {
    // a box of a pixel or none: inline, or hidden for screen readers only (.sr-only)
    if (el.clientWidth <= 1 || !shown(el) || el.scrollWidth <= el.clientWidth + 1) continue;
    if (!el.textContent.trim() || el.closest("svg")) continue;
    const scrolls = (e) => ["auto", "scroll"].includes(getComputedStyle(e).overflowX);
    if (scrolls(el)) continue;
    clipped.push(el);
  }
  const innermost = clipped.filter(
    (el) => !clipped.some((other) => other !== el && el.contains(other)));
  return {
    texts,
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    clipped: innermost.map((el) => `${where(el)} (${el.scrollWidth} > ${el.clientWidth} px): `
      + el.textContent.trim().slice(0, 60)),
  };
}"""


@pytest.fixture
def board(daily_deal0: Any, board_prefix: str, settings: Any) -> list[str]:  # noqa: F811
    """Two winners on today's easy board; the names any page may show."""
    settings.DAILY_PREPARE_ON_REQUEST = False
    for minutes, name in enumerate(WINNERS, start=3):
        result(make_player(name), daily_deal0, elapsed_ms=minutes * 60_000)
    return [*WINNERS, *(name.lower() for name in WINNERS)]


def open_as(browse: Any, name: str, language: str, browser_locale: str) -> Any:
    """A phone-sized page of a context in ``browser_locale``, logged in as a new player
    ``name`` whose account chose ``language``."""
    player = make_player(name, language=language)
    page = browse(PHONE, locale=browser_locale)
    session = client_for(player).cookies["sessionid"].value
    page.page.context.add_cookies([{"name": "sessionid", "value": session, "url": page.base_url}])
    return page


def visit(page: Any, path: str) -> None:
    """Open ``path`` and wait for what its script fetches and writes."""
    page.goto(path)
    page.page.wait_for_load_state("networkidle")


def resign_a_daily(page: Any, on_question: Any) -> None:
    """Start today's easy daily, resign it (``on_question(page)`` while "Resign?" is asked)
    and wait for the results screen."""
    game_id = page.page.evaluate(PLAY_DAILY, ["easy", []])
    visit(page, f"/play/{game_id}/")
    on_question("play")
    page.page.locator("[data-resign]").click()
    page.page.locator("[data-confirm-go]").wait_for()
    on_question("resign")
    page.page.locator("[data-confirm-go]").click()
    page.page.wait_for_function("() => document.querySelector('[data-end]').open", timeout=15_000)
    page.page.locator("[data-end] [data-results]").wait_for()
    page.page.wait_for_load_state("networkidle")
    on_question("results")


def problems(page: Any, name: str, language: str, names: list[str] | None) -> list[str]:
    """What is wrong with the screen shown (its screenshot taken): text cut off or wider
    than the phone; and with ``names`` (the pseudo-locale), words left in English."""
    assert page.page.evaluate("document.documentElement.lang") == language, name
    found = page.page.evaluate(READ_PAGE, None)
    page.shot(f"lang-{'pseudo' if names is not None else language}-{name}")
    report = []
    for text, where in found["texts"] if names is not None else []:
        words = english_words(text, allowed=names or [])
        if words:
            report.append(f"{name}: {where}: {' '.join(words)}  <{text[:70]}>")
    if found["sideways"] > 0:
        report.append(f"{name}: the page scrolls {found['sideways']} px sideways")
    return report + [f"{name}: clipped: {line}" for line in found["clipped"]]


def test_every_page_is_translated_and_fits_a_phone_in_the_pseudo_locale(
    browse: Any, board: list[str], in_pseudo_locale: str
) -> None:
    page = open_as(browse, "Rosa", in_pseudo_locale, "en-XA")
    # A game's day is written by the browser's Intl (shared/local_time.js), which has no
    # pseudo-locale and writes "Sun, Dec 6, 2026" in English; the German test reads it
    # in German. The names of days and months are the only English it may leave.
    days = [f"{dt.date(2026, 11, 30) + dt.timedelta(days=n):%a}" for n in range(7)]
    months = [f"{dt.date(2026, m, 1):%b}" for m in range(1, 13)]
    names = [*board, "Rosa", "rosa", *days, *months]
    report: list[str] = []

    def check(name: str) -> None:
        report.extend(problems(page, name, in_pseudo_locale, names))

    for name, path in PAGES:
        visit(page, path)
        check(name)
    resign_a_daily(page, check)
    assert not report, f"{len(report)} problems in the pseudo-locale at 390 px:\n" + "\n".join(
        report
    )
    page.assert_clean()


def test_every_page_fits_a_phone_in_german_and_spanish(browse: Any, board: list[str]) -> None:
    report: list[str] = []
    for language, browser_locale, reader in (("de", "de-DE", "Dora"), ("es", "es-ES", "Elena")):
        page = open_as(browse, reader, language, browser_locale)

        def check(name: str, page: Any = page, language: str = language) -> None:
            report.extend(f"{language}: {line}" for line in problems(page, name, language, None))

        for name, path in PAGES:
            visit(page, path)
            check(name)
        resign_a_daily(page, check)
        page.assert_clean()
    assert not report, f"{len(report)} problems at 390 px:\n" + "\n".join(report)
