"""Plain pages in a real Chromium at a phone's width and a desktop's (issue 39, items 8-10):

- the home page: a guest's daily buttons say "Play" and start the game in one tap;
  yesterday's winners; no commitment, salt or 20-digit deal number on its face (they wait
  behind "How we keep it fair");
- the archive: tiers are buttons named in words, a closed Sunday's weekly among them and
  playable; a [hidden] "Next month" takes no room at all;
- practice: New after a move asks first, and "Keep playing" keeps the game; a hint says its
  move in words and lights the target column as well as the card;
- the odds: the published study is a table on a desktop and a card of labelled figures per
  variant on a phone, neither scrolling sideways, and no figure broken across lines.

axe checks each screen; screenshots go to test-artifacts/screenshots/plain-*.png.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from games.models import WEEKLY, WEEKLY_VARIANT, DailyChallenge, Deal, utc_today
from tests.e2e.axe import failures
from tests.e2e.conftest import save_screenshot
from tests.e2e.dragging import drag
from tests.e2e.test_play import wait_landed
from tests.factories import DESKTOP, client_for, make_challenges, make_player, result
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture: a fresh board)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
SIZES = [("phone", PHONE), ("desktop", DESKTOP)]
DEAL_NUMBER = re.compile(r"\b\d{17,20}\b")  # a daily's deal number, as the API writes it
HINT = re.compile(
    r"^Move the (10|[2-9AJQK])[♣♦♥♠]( in column \d+)?( and the cards? on it)?"
    r" (onto (the empty )?column \d+|home)\.$"
)


def assert_axe_passes(page: Any, what: str) -> None:
    found = failures(page.page)
    assert not found, f"axe on {what}:\n" + "\n".join(found)


def full_shot(page: Any, name: str) -> None:
    """The whole page, not just the viewport (docs/frontend.md shows these)."""
    save_screenshot(page.page, SCREENSHOTS / f"{name}.png", full_page=True)


def log_in(page: Any, user: User) -> None:
    session = client_for(user).cookies["sessionid"].value
    page.page.context.add_cookies([{"name": "sessionid", "value": session, "url": page.base_url}])


def last_closed_sunday() -> dt.date:
    yesterday = utc_today() - dt.timedelta(days=1)
    return yesterday - dt.timedelta(days=(yesterday.weekday() - 6) % 7)


@pytest.fixture
def days() -> dict[str, Any]:
    """Today's three deals; yesterday's, with a winner; the last closed Sunday's weekly."""
    today = make_challenges()
    yesterday_date = utc_today() - dt.timedelta(days=1)
    yesterday = make_challenges(yesterday_date, {"easy": 5, "medium": 6, "hard": 7})
    result(make_player("Yesterday's Ace"), yesterday["easy"], elapsed_ms=123_000, moves=104)
    sunday = last_closed_sunday()
    if sunday != yesterday_date:
        make_challenges(sunday, {"easy": 8, "medium": 9, "hard": 10})
    deal, _ = Deal.objects.get_or_create(number=25, variant=WEEKLY_VARIANT)
    DailyChallenge.objects.create(date=sunday, tier=WEEKLY, deal=deal)
    return {"today": today, "yesterday": yesterday, "sunday": sunday}


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_home_as_a_guest_and_the_archive(
    browse: Any, days: dict[str, Any], size: str, viewport: dict[str, int]
) -> None:
    page = browse(viewport)
    p = page.page
    page.goto("/")
    p.locator("[data-start]").first.wait_for()
    p.locator("[data-yesterday]").get_by_text("Yesterday's Ace").wait_for()
    p.wait_for_load_state("networkidle")
    for tier in ("easy", "medium", "hard"):
        button = p.get_by_role("button", name=f"Play {tier}", exact=True)
        assert button.is_visible() and button.inner_text().startswith("Play"), tier
    assert "Sign up to play" not in p.content()

    # The page's face: no commitment, salt or deal number until "How we keep it fair" opens.
    face = p.locator("main").inner_text()
    assert not DEAL_NUMBER.search(face), face
    salts = [c.salt for group in ("today", "yesterday") for c in days[group].values()]
    assert not any(salt in face for salt in salts)
    assert "Commitment" not in face and "salt" not in face
    fair = p.locator("[data-fair]")
    assert fair.get_attribute("open") is None
    assert fair.locator("summary").inner_text() == "How we keep it fair"
    full_shot(page, f"plain-home-guest-{size}")
    assert_axe_passes(page, f"the home page ({size})")
    fair.locator("summary").click()
    opened = fair.inner_text()
    assert days["yesterday"]["easy"].salt in opened and "deal 5" in opened
    assert days["today"]["easy"].commitment[:12] in opened
    assert not any(c.salt in p.content() for c in days["today"].values())  # still secret
    fair.scroll_into_view_if_needed()
    page.shot(f"plain-home-fair-details-{size}")

    # One tap: the guest's game opens, or the page says the server's reason.
    p.get_by_role("button", name="Play easy", exact=True).click()
    note = p.locator("[aria-label='Easy challenge'] [data-start-note]")
    p.wait_for_function(
        "() => location.pathname.startsWith('/play/') ||"
        " document.querySelector(\"[aria-label='Easy challenge'] [data-start-note]\")?.textContent"
    )
    if p.url.startswith(page.base_url + "/play/"):
        p.locator(".tableau .card").first.wait_for()
    else:  # the server refused a guest (until guests' dailies are accepted): its reason shows
        assert note.is_visible() and note.inner_text().strip(), "no reason shown"
        page.errors = [
            e for e in page.errors if "status of 401" not in e and "status of 403" not in e
        ]
    page.assert_clean()

    # The archive, as a guest: the way in, and back (it was a bare "Log in" link, a dead end
    # for the guest whom the home page's "Try it in the archive" sent there).
    page.goto("/archive/")
    main = p.locator("main")
    assert (
        main.get_by_role("link", name="Sign up").get_attribute("href") == "/signup/?next=/archive/"
    )
    assert main.get_by_role("link", name="Log in").get_attribute("href") == "/login/?next=/archive/"
    main.get_by_role("link", name="Sign up").click()
    p.wait_for_url("**/signup/?next=/archive/")
    page.assert_clean()

    # The archive, logged in: named tiers, the weekly on its Sunday, a hidden Next month.
    player = make_player("Archivist")
    archive = browse(viewport)
    log_in(archive, player)
    a = archive.page
    archive.goto("/archive/")
    a.locator(".calendar").wait_for()
    nxt = a.locator("[data-month-next]")
    assert nxt.is_hidden() and nxt.bounding_box() is None
    sunday = days["sunday"]
    archive.goto(f"/archive/?month={sunday:%Y-%m}")
    day = a.locator(f'[data-day="{sunday.isoformat()}"]')
    day.wait_for()
    # What each button shows (its first words; after them only the state's mark).
    names = day.locator("[data-play]").evaluate_all("bs => bs.map(b => b.firstChild.textContent)")
    assert names == ["Easy", "Medium", "Hard", "Weekly"], names
    a.wait_for_load_state("networkidle")
    full_shot(archive, f"plain-archive-{size}")
    assert_axe_passes(archive, f"the archive ({size})")
    weekly = day.get_by_role("button", name=re.compile(r"^Weekly on Sunday, "))
    assert "not played" in (weekly.get_attribute("aria-label") or "")
    weekly.click()
    a.wait_for_url(re.compile(r"/play/\d+/$"))
    a.locator(".tableau .card").first.wait_for()
    assert a.locator(".tableau .column").count() == 10  # Double Yukon
    archive.assert_clean()


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_practice_asks_before_leaving_and_hints_in_words(
    browse: Any, size: str, viewport: dict[str, int]
) -> None:
    page = browse(viewport)
    p = page.page
    page.goto("/practice/0/?variant=yukon")
    p.locator(".tableau .card").first.wait_for()
    drag(page, "8d", 5)
    wait_landed(page, "8d", 5)
    p.wait_for_load_state("networkidle")
    game = re.search(r"game=(\d+)", p.url)
    assert game, p.url

    p.locator("[data-new]").click()
    dialog = p.get_by_role("dialog", name="Leave this game?")
    dialog.wait_for()
    keep = dialog.get_by_role("button", name="Keep playing")
    assert keep.evaluate("el => el === document.activeElement")  # the default
    assert dialog.get_by_role("button", name="Deal a new game").is_visible()
    page.shot(f"plain-practice-confirm-{size}")
    assert_axe_passes(page, f"the practice confirm dialog ({size})")
    keep.click()
    assert dialog.is_hidden()
    p.wait_for_load_state("networkidle")
    assert re.search(r"game=(\d+)", p.url).group(1) == game.group(1)  # type: ignore[union-attr]
    assert p.locator("[data-moves]").inner_text() == "1"
    assert p.locator('.column[data-col="5"] [data-card="8d"]').count() == 1

    p.locator("[data-hint]").click()
    line = p.locator("[data-coach]")
    p.wait_for_function(
        "() => document.querySelector('[data-coach]').textContent.startsWith('Move the')",
        timeout=15_000,
    )
    words = line.inner_text()
    assert HINT.match(words), words
    assert ">" not in words and "(" not in words
    assert p.locator(".tableau .card.hinted").count() == 1
    target = p.locator(".column.hint-target, .foundation.hint-target")
    assert target.count() == 1
    if words.endswith("home."):
        assert target.get_attribute("class") and "foundation" in (
            target.get_attribute("class") or ""
        )
    else:
        column = int(re.search(r"column (\d+)\.$", words).group(1))  # type: ignore[union-attr]
        assert target.get_attribute("data-col") == str(column - 1)
    p.wait_for_function(
        "() => document.querySelector('[data-announce]').textContent === "
        "document.querySelector('[data-coach]').textContent"
    )
    page.shot(f"plain-practice-hint-{size}")
    page.assert_clean()


# Each cell of the published study's first row: its label on a phone (the column's heading).
STUDY_LABELS = [
    "",
    "Deals",
    "Solved",
    "Proven unwinnable",
    "Undecided",
    "Winnable",
    "Median time",
    "Median line",
]


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_the_published_study_reads_without_scrolling_sideways(
    browse: Any, size: str, viewport: dict[str, int]
) -> None:
    page = browse(viewport)
    page.goto("/stats/")
    table = page.page.locator("[data-published]")
    layout = table.evaluate(
        """table => {
            const region = table.closest('.table-scroll'), row = table.tBodies[0].rows[0];
            const cells = [...row.cells];
            return {
                sideways: region.scrollWidth - region.clientWidth,
                page: document.documentElement.scrollWidth - window.innerWidth,
                heading: table.tHead.getBoundingClientRect().height,
                labels: cells.map(td => getComputedStyle(td, '::before').content),
                tops: cells.map(td => Math.round(td.getBoundingClientRect().top)),
                // the lines each figure, and each line under it, takes
                lines: [...table.querySelectorAll('td, td > small')].flatMap(e => {
                    const text = [...e.childNodes].find(n => n.nodeType === Node.TEXT_NODE);
                    if (!text) return [];
                    const range = document.createRange();
                    range.selectNodeContents(text);
                    return [new Set([...range.getClientRects()].map(r => Math.round(r.top))).size];
                }),
            };
        }"""
    )
    assert layout["sideways"] <= 0 and layout["page"] <= 0, layout
    assert max(layout["lines"]) == 1, layout["lines"]
    if size == "phone":  # a card per variant: each figure under its label, two or more abreast
        assert layout["heading"] <= 1
        assert layout["labels"] == ["none"] + [f'"{label}"' for label in STUDY_LABELS[1:]]
        assert len(set(layout["tops"])) < len(layout["tops"]) - 1
    else:  # a table: the headings above, a row's cells side by side
        assert layout["heading"] > 20
        assert len(set(layout["tops"])) == 1
    # a variant no deal of which was won has no line to measure: a dash, not "- moves"
    runs = table.locator("tr", has_text="runs only").locator("td").last
    assert runs.inner_text() == "\u2013"
    full_shot(page, f"stats-{size}")
    assert_axe_passes(page, f"the odds at {size} size")
