"""The fair-play screens of issue 38 in a real Chromium, at a phone's width and a desktop's:
a provisional result's tag on a daily board (docs/fair-play.md, "Provisional results"), the
receipts download on one's own player page, and the linked-accounts cluster on the admin's
game page. Each is screenshotted (test-artifacts/screenshots/) and, where a player sees
it, checked with axe.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games import receipts, signing
from games.models import DailyChallenge, Game, Status, Tier
from moderation.models import Flag, FlagKind
from tests.e2e.axe import failures
from tests.factories import (
    DESKTOP,
    LINES,
    Clock,
    client_for,
    make_day,
    make_player,
    play_timed,
    result,
    short_day_name,
    started_from,
)
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture: a fresh board)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SIZES = [("phone", PHONE), ("desktop", DESKTOP)]
NEWCOMER = "Maximiliana Featherstonehaugh"  # a long name: the tag must still sit well
# Does an element's text (links in it too) take one line? (A date broken at its hyphen.)
ONE_LINE = (
    "el => { const text = document.createRange(); text.selectNodeContents(el);"
    " return text.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(el).fontSize); }"
)


def log_in(page: Any, user: User) -> None:
    """The browser carries ``user``'s session (staff with a passed second factor)."""
    session = client_for(user).cookies["sessionid"].value
    page.page.context.add_cookies([{"name": "sessionid", "value": session, "url": page.base_url}])


def assert_no_sideways_scroll(page: Any, what: str) -> None:
    overflow = page.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{what} scrolls sideways by {overflow}px"


def assert_axe_passes(page: Any, what: str) -> None:
    found = failures(page.page)
    assert not found, f"axe on {what}:\n" + "\n".join(found)


# ----- a provisional result on a daily board ------------------------------------------------


@pytest.fixture
def medium_board() -> DailyChallenge:
    """Today's medium board: four results, the third place a new account's, provisional."""
    medium = make_day()[Tier.MEDIUM]
    rows = [("Old Hand", 625, 95_000), ("Steady", 625, 130_000), (NEWCOMER, 600, 150_000)]
    for name, score, elapsed in rows:
        game = result(make_player(name), medium, score=score, elapsed_ms=elapsed, save=False)
        game.provisional = name == NEWCOMER
        game.save()
    result(make_player("Stuck Sam"), medium, won=False, score=240, elapsed_ms=400_000)
    return medium


def board_rows(page: Any, challenge: DailyChallenge) -> Any:
    page.goto(f"/leaderboards/daily/?date={challenge.date.isoformat()}&tier={challenge.tier}")
    body = page.page.locator("[data-board-body]")
    body.locator("table.ranks tbody tr").first.wait_for()
    return body.locator("tbody tr")


def line_boxes(locator: Any) -> list[dict[str, float]]:
    """The boxes of an inline element, one per line it takes (a long name wraps)."""
    boxes: list[dict[str, float]] = locator.evaluate(
        "el => [...el.getClientRects()].map(r => ({x: r.x, y: r.y, width: r.width,"
        " height: r.height}))"
    )
    return boxes


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] + 0.5 < b["x"] + b["width"]
        and b["x"] + 0.5 < a["x"] + a["width"]
        and a["y"] + 0.5 < b["y"] + b["height"]
        and b["y"] + 0.5 < a["y"] + a["height"]
    )


def assert_provisional_tag_only_on_the_newcomer(page: Any, rows: Any, *, own: bool) -> None:
    """``own``: the newcomer's own view, the one that links their replay (an open day's
    board links nobody else's: it opens at the close)."""
    assert rows.count() == 4
    newcomer = rows.filter(has_text=NEWCOMER)
    tag = newcomer.locator(".provisional")
    assert tag.is_visible()
    assert tag.inner_text().strip() == "provisional"
    # A screen reader hears the word as part of the player's cell, not only a colour or a
    # title; and the board says in words what it means (a title shows only to a mouse).
    heard = newcomer.get_by_role("cell", name=re.compile(NEWCOMER)).aria_snapshot()
    words = f"{NEWCOMER} provisional replay" if own else f"{NEWCOMER} provisional"
    assert re.search(rf'cell "{words}"', heard), heard
    note = page.page.locator("[data-provisional-note]")
    assert note.is_visible()
    assert "new account's result" in note.inner_text()
    assert "checked again after the day closes" in note.inner_text()
    # The tag keeps to one line, inside its cell, over neither the name nor the replay link.
    [box] = line_boxes(tag)
    assert box["height"] <= 1.6 * float(
        tag.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    )
    cell = newcomer.locator("td").nth(1).bounding_box()
    assert cell is not None
    assert cell["x"] <= box["x"] and box["x"] + box["width"] <= cell["x"] + cell["width"] + 0.5
    replay = newcomer.get_by_role("link", name="replay")
    assert replay.count() == (1 if own else 0)
    for neighbour in [newcomer.get_by_role("link", name=NEWCOMER)] + ([replay] if own else []):
        for line in line_boxes(neighbour):
            assert not overlap(box, line), f"the tag {box} overlaps {line}"
    for name in ("Old Hand", "Steady", "Stuck Sam"):
        row = rows.filter(has_text=name)
        assert row.locator(".provisional").count() == 0, name
        assert "provisional" not in row.aria_snapshot().lower(), name


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_a_provisional_result_is_tagged_on_the_board(
    browse: Any, medium_board: DailyChallenge, size: str, viewport: dict[str, int]
) -> None:
    guest = browse(viewport)
    rows = board_rows(guest, medium_board)
    guest.shot(f"board-provisional-{size}")
    assert_provisional_tag_only_on_the_newcomer(guest, rows, own=False)
    assert_no_sideways_scroll(guest, f"the board at {size}")
    assert_axe_passes(guest, f"the board, guest, {size}")
    guest.assert_clean()

    # The newcomer sees their own row: highlighted as theirs, and still tagged.
    player = browse(viewport)
    log_in(player, User.objects.get(display_name=NEWCOMER))
    rows = board_rows(player, medium_board)
    player.shot(f"board-provisional-{size}-own-row")
    assert_provisional_tag_only_on_the_newcomer(player, rows, own=True)
    assert "me" in (rows.filter(has_text=NEWCOMER).get_attribute("class") or "")
    assert_no_sideways_scroll(player, f"the board, logged in, at {size}")
    assert_axe_passes(player, f"the board, logged in, {size}")
    player.assert_clean()


# ----- the receipts download on one's own player page -----------------------------------


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_a_player_downloads_their_receipts_from_their_page(
    browse: Any, tmp_path: Path, size: str, viewport: dict[str, int]
) -> None:
    easy = make_day()[Tier.EASY]
    finisher = make_player("Rita Receipt")
    game = result(finisher, easy, score=625, elapsed_ms=184_000, moves=104)
    result(make_player("Otto Other"), easy, score=500)

    page = browse(viewport, accept_downloads=True)
    log_in(page, finisher)
    page.goto("/players/Rita%20Receipt/")
    page.page.locator("[data-player-body] [data-record]").get_by_role("heading").first.wait_for()
    download_link = page.page.get_by_role("link", name="Download your receipts")
    assert download_link.is_visible()
    download_link.scroll_into_view_if_needed()
    page.shot(f"player-receipts-{size}")
    assert_no_sideways_scroll(page, f"one's own player page at {size}")
    assert_axe_passes(page, f"one's own player page, {size}")
    # The page around it speaks to a player: totals in words, not the API's field names.
    totals = page.page.locator(".stats-list")
    labels = [t.strip() for t in totals.locator("dt").all_inner_texts()]
    assert "Win rate" in labels and not {"count", "page", "pages", "display name"} & set(labels)
    assert "100%" in totals.inner_text()
    # The daily games keep whole dates and links, scrolling in their own box on a phone.
    games = page.page.get_by_role("region", name="Daily games")
    replay, region = games.get_by_role("link", name="replay").bounding_box(), games.bounding_box()
    assert replay is not None and region is not None
    assert replay["x"] + replay["width"] <= region["x"] + region["width"], (
        "the replay link is cut off"
    )
    date = games.locator("td").first
    assert date.inner_text().startswith(short_day_name(easy.date))
    assert date.evaluate(ONE_LINE), "the date and its replay link break across lines"

    with page.page.expect_download() as info:
        download_link.click()
    download = info.value
    assert download.suggested_filename == "yukon-daily-receipts.jsonl"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    lines = saved.read_text().splitlines()
    assert len(lines) == 1, lines
    receipt = json.loads(lines[0])
    assert receipt == receipts.check_receipt(receipt)
    assert receipt["game_id"] == game.pk and receipt["player"] == "Rita Receipt"
    assert (receipt["date"], receipt["tier"]) == (easy.date.isoformat(), "easy")
    assert (receipt["status"], receipt["score"], receipt["elapsed_ms"]) == ("won", 625, 184_000)
    current = next(key for key in signing.public_keys() if key.current)
    assert receipts.signature_holds(receipt, current.public_key)
    page.assert_clean()

    # Another player's page offers no receipts (they are only ever one's own).
    page.goto("/players/Otto%20Other/")
    page.page.locator("[data-player-body] [data-record]").get_by_role("heading").first.wait_for()
    assert page.page.locator("[data-receipts-download]").count() == 0
    assert page.page.get_by_text("receipts", exact=False).count() == 0
    page.shot(f"player-other-{size}")
    page.assert_clean()


# ----- the linked-accounts cluster on the admin's game page -----------------------------


@pytest.fixture
def cluster(eager_celery: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Game]]:
    """Today's easy daily: two scouts turn its cards over and leave, one on the main
    account's phone (another network), one on its home network (another device); then the
    main account wins it, is verified, and is flagged. The server's clock runs fast while
    they play (human think times), and is the real one again for the browser."""
    easy = make_day()[Tier.EASY]
    line = LINES[0]
    gaps = [1800 + 650 * (i % 7) for i in range(len(line))]
    with monkeypatch.context() as patch:
        clock = Clock.for_play()
        patch.setattr(timezone, "now", clock)
        with started_from("203.0.113.40", "a" * 32):
            phone = play_timed(make_player("Pocket Scout"), easy, line[:30], gaps[:30], clock)
        with started_from("198.51.100.77", "b" * 32):
            home = play_timed(make_player("Sofa Scout"), easy, line[:12], gaps[:12], clock)
        with started_from("198.51.100.5", "a" * 32):
            main = play_timed(make_player("Main Account"), easy, line, gaps, clock)
    main.refresh_from_db()
    assert main.status == Status.WON and main.verification == "verified"
    assert Flag.objects.filter(game=main, kind=FlagKind.LINKED_ACCOUNTS).exists()
    yield {"main": main, "phone": phone, "home": home}


def test_a_moderator_sees_the_linked_games_side_by_side(
    browse: Any, cluster: dict[str, Game]
) -> None:
    moderator = make_player("Mod", staff=True, moderator=True)
    page = browse(DESKTOP)
    log_in(page, moderator)
    main = cluster["main"]
    page.goto(f"/admin/games/game/{main.pk}/change/")
    panel = page.page.locator(".moderation-panel")
    panel.locator("h3", has_text="Linked games").scroll_into_view_if_needed()
    page.page.evaluate("window.scrollBy(0, -40)")
    page.shot("admin-linked-cluster-desktop")
    table = panel.locator("table.cluster")
    assert table.is_visible()
    heads = [h.strip().lower() for h in table.locator("thead th").all_inner_texts()]
    assert heads[:3] == ["game", "whose", "same"], heads
    rows = table.locator("tbody tr")
    assert rows.count() == 3
    # This game first, so its start and cards read against the linked games' own.
    own = [c.strip() for c in rows.first.locator("td").all_inner_texts()]
    assert own[:2] == [f"{main.pk} (this game)", "Main Account"], own
    assert own[4] == timezone.localtime(main.started_at).strftime("%Y-%m-%d %H:%M:%S"), own
    expected = {
        cluster["phone"].pk: ("Pocket Scout", "device"),
        cluster["home"].pk: ("Sofa Scout", "network"),
    }
    for game_id, (owner, shared) in expected.items():
        row = rows.filter(has=page.page.locator(f"a[href='/admin/games/game/{game_id}/change/']"))
        assert row.count() == 1, game_id
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        assert cells[1] == owner and cells[2] == shared, cells
        assert re.fullmatch(r"\d+: ([A2-9TJQK][cdhs] ?)+", cells[-1]), cells  # seen, then which
        assert cells[4] < own[4], "the scouts started before the main account"
    # No date in the panel breaks at its hyphen (the flags' narrow "raised" column did).
    dates = [
        (cell.inner_text(), cell.evaluate(ONE_LINE))
        for cell in panel.locator("td").filter(has_text=re.compile(r"^\d{4}-\d\d-\d\d ")).all()
    ]
    assert len(dates) >= 3 + 1, dates  # the cluster's three starts, the flags raised
    assert all(one_line for _, one_line in dates), dates
    # Nothing is cut off or pushed past the page's edge.
    clipped = table.evaluate("t => t.scrollWidth > t.clientWidth + 1")
    assert not clipped
    assert_no_sideways_scroll(page, "the admin's game page")
    page.assert_clean()
