"""Every page passes axe-core, logged in and out, on a phone and a desktop; the keyboard
cursor stands out; the board speaks once per event.

The pages come from the URL conf itself (every named route outside the API, the admin and
the probes), so a page added later is checked without a line here. A route with
parameters needs a sample address in ``SAMPLES`` (docs/frontend.md, "Accessibility"):
``test_every_page_has_a_sample`` fails until it has one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.e2e.axe import failures
from tests.factories import Api, logged_in, make_player

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
# Routes that are not pages of the site: the JSON APIs (ours with its JSON 404 catch-all,
# and allauth's headless one with its spec) and their docs, the admin, probes, and
# well-known JSON documents (the receipt signing keys).
NOT_PAGES = ("api/", "^api/", "_allauth/", "admin/", "healthz", "metrics", ".well-known/")
# Not pages: forms reached only from the list of one's own passkeys, about one that exists
# (a made-up key is refused before any page; the list is checked), and the OpenID Connect
# sign-in's hops, which only redirect (to the provider and back; 404 while it is off).
NOT_PAGE_NAMES = {
    "mfa_remove_webauthn",
    "mfa_edit_webauthn",
    "openid_connect_login",
    "openid_connect_callback",
}


@dataclass
class SiteData:
    """Rows every page can show: a player with a daily game in play and a finished practice game."""

    name: str
    daily_game: int
    practice_game: int
    league: int
    invite: str


# A sample address for each route with parameters: URL name -> its kwargs, from SiteData.
# A new page with parameters joins the check with one line here.
SAMPLES: dict[str, Callable[[SiteData], dict[str, Any]]] = {
    "frontend:play": lambda d: {"game_id": d.daily_game},
    "frontend:practice": lambda d: {"deal": "7"},
    "frontend:replay": lambda d: {"game_id": d.practice_game},
    "frontend:leaderboard": lambda d: {"board": "daily"},
    "frontend:player": lambda d: {"name": d.name},
    "frontend:league": lambda d: {"league_id": d.league},
    "frontend:league-join": lambda d: {"token": d.invite},
    # allauth's pages (docs/accounts.md): the emailed links, with a key that is not one
    "account_confirm_email": lambda d: {"key": "no-such-key"},
    "account_reset_password_from_key": lambda d: {"uidb36": "1", "key": "no-such-key"},
}


def named_routes(
    patterns: list[Any] | None = None, prefix: str = "", namespace: str = ""
) -> Iterator[tuple[str, str, bool]]:
    """(URL name, route text, has parameters) for every named page route of the URL conf."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(entry.pattern)
        if route.startswith(NOT_PAGES):
            continue
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from named_routes(entry.url_patterns, route, inner)
        elif isinstance(entry, URLPattern) and entry.name and entry.name not in NOT_PAGE_NAMES:
            # a parameter of an enclosing include counts too (allauth's oidc/<provider_id>/)
            has_params = bool(entry.pattern.regex.groupindex) or "<" in route or "(?P" in route
            yield f"{namespace}{entry.name}", route, has_params


def site_pages(data: SiteData) -> list[str]:
    """The address of every page: routes without parameters as they are, the others sampled."""
    pages = []
    for name, _route, has_params in named_routes():
        if has_params:
            pages.append(reverse(name, kwargs=SAMPLES[name](data)))
        else:
            pages.append(reverse(name))
    return pages


def test_every_page_has_a_sample() -> None:
    missing = [
        f"{name} ({route})"
        for name, route, params in named_routes()
        if params and name not in SAMPLES
    ]
    assert not missing, f"add a sample address to SAMPLES in {__file__} for: {', '.join(missing)}"
    assert len(list(named_routes())) >= 15  # the walk found the site's pages


@pytest.fixture
def site(daily_deal0: Any) -> SiteData:
    player = make_player("axel")
    player.set_password("a long enough pass 42")  # as sign-up makes them (re-authentication)
    player.save()
    api = Api(logged_in(player))
    status, daily = api.post("/api/games/", {"daily": "easy"})
    assert status == 201, daily
    status, practice = api.post("/api/games/", {"deal": "7", "variant": "yukon"})
    assert status == 201, practice
    assert api.post(f"/api/games/{practice['id']}/resign/")[0] == 200
    status, league = api.post("/api/leagues/", {"name": "Axe Club"})
    assert status == 201, league
    return SiteData(
        name=player.display_name,
        daily_game=daily["id"],
        practice_game=practice["id"],
        league=league["id"],
        invite=league["invite_url"].rstrip("/").rsplit("/", 1)[1],
    )


def log_in(context: Any, live_server: Any, name: str) -> None:
    from accounts.models import User

    client = logged_in(User.objects.get(display_name=name))
    cookie = client.cookies["sessionid"]
    context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


@pytest.mark.parametrize("who", ["guest", "player"])
@pytest.mark.parametrize("size", list(WIDTHS))
def test_every_page_passes_axe(
    chromium: Any, live_server: Any, site: SiteData, who: str, size: str
) -> None:
    context = chromium.new_context(viewport=WIDTHS[size])
    context.set_default_timeout(10_000)
    if who == "player":
        log_in(context, live_server, site.name)
    page = context.new_page()
    found = []
    pages = site_pages(site)
    for path in pages:
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        assert page.locator("[data-logout]").count() == (who == "player"), path
        found += [f"{path}: {line}" for line in failures(page)]
    # The boards were drawn when axe ran (a page that failed to load would pass vacuously).
    page.goto(live_server.url + reverse("frontend:practice", kwargs={"deal": "7"}))
    page.locator(".tableau .card.up").first.wait_for()
    found += [f"practice, dealt: {line}" for line in failures(page)]
    context.close()
    assert not found, f"axe ({who}, {size}), {len(found)} finding(s):\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("path", "breakage", "rule"),
    [
        # A card button whose name is gone.
        (
            "/practice/0/",
            "document.querySelector('.tableau [data-card=\"8s\"]').removeAttribute('aria-label')",
            "aria-command-name",
        ),
        # A form field whose label is gone.
        (
            "/login/",
            "const f = document.querySelector('form'); f.querySelector('label')"
            ".replaceWith(f.querySelector('input'))",
            "label",
        ),
    ],
)
def test_a_broken_label_fails_the_check(browse: Any, path: str, breakage: str, rule: str) -> None:
    page = browse(WIDTHS["desktop"])
    page.goto(path)
    page.page.wait_for_load_state("networkidle")
    if path.startswith("/practice/"):
        page.page.locator('.tableau [data-card="8s"]').wait_for()
    assert failures(page.page) == []
    page.page.evaluate(breakage)
    found = failures(page.page)
    assert any(line.startswith(f"{rule} (") for line in found), found


def test_keyboard_cursor_foundations_and_announcements(browse: Any) -> None:
    """The cyan cursor on a deep card (drawn above the cards on top of it) and on a drop
    target; a picked-up card is pressed; the foundations are reached with the arrows; one
    announcement per event."""
    page = browse(WIDTHS["desktop"])
    page.goto("/practice/0/")
    p = page.page
    p.locator('.tableau [data-card="8d"]').wait_for()
    p.locator("body").focus()
    for _ in range(40):
        p.keyboard.press("Tab")
        if p.evaluate("document.activeElement.closest('.board') !== null"):
            break
    cursor = p.locator(".board .kbd-focus")
    assert cursor.count() == 1 and cursor.get_attribute("data-card") == "8s"
    # Deal 0's column 5 holds 5 face-up cards: go to its first, under four others.
    for key in ["ArrowRight"] * 4 + ["ArrowUp"] * 4:
        p.keyboard.press(key)
    deep = p.locator('.tableau [data-card="8d"]')
    assert "kbd-focus" in (deep.get_attribute("class") or "")
    ring = p.evaluate(
        """() => { const card = document.querySelector('.tableau [data-card="8d"]');
        const ring = getComputedStyle(card, '::before');
        return {color: ring.borderTopColor, width: ring.borderTopWidth, z: ring.zIndex,
                onTop: card.nextElementSibling !== null}; }"""
    )
    assert ring["color"] == "rgb(110, 231, 255)" and ring["width"] == "3px", (
        ring
    )  # cyan, not the yellow
    assert ring["onTop"] and int(ring["z"]) > 0, ring
    SHOTS.mkdir(exist_ok=True)
    p.screenshot(path=str(SHOTS / "keyboard-cursor-deep-card.png"))
    # Pick it up: pressed (and yellow); one right is a drop target under the cyan cursor.
    p.keyboard.press("Enter")
    assert deep.get_attribute("aria-pressed") == "true"
    announced = p.locator("[data-announce]")
    p.wait_for_function(
        "() => document.querySelector('[data-announce]').textContent.startsWith('picked up')"
    )
    p.keyboard.press("ArrowRight")
    target = p.locator('.column[data-col="5"]')
    assert "target" in (target.get_attribute("class") or "")
    assert p.locator(".board .kbd-focus").count() == 1
    assert p.evaluate("document.activeElement.closest('.column').dataset.col") == "5"
    p.wait_for_function(
        "() => document.querySelector('[data-announce]').textContent.includes('drop here')"
    )
    p.screenshot(path=str(SHOTS / "keyboard-cursor-drop-target.png"))
    # An illegal drop (the 8 of spades on column 2's 6 of spades): the reason is spoken once,
    # by the board's announcer; the toast shows it without speaking it again.
    p.keyboard.press("Escape")
    assert deep.get_attribute("aria-pressed") == "false"
    for key in ("ArrowRight", "ArrowRight", "Enter", "ArrowRight", "Enter"):  # column 1: 8s
        p.keyboard.press(key)
    p.locator(".toast").wait_for(state="visible")
    p.wait_for_timeout(100)
    said = announced.inner_text()
    assert said and said == p.locator(".toast").inner_text()
    assert p.locator("[data-site-status]").inner_text() == ""  # not spoken twice
    assert "cannot go on the 6 of spades" in said or "cannot go on the six of spades" in said
    # Up from the top of column 1 reaches the foundations; left and right walk them.
    for key in ("ArrowLeft", "ArrowUp"):
        p.keyboard.press(key)
    label = p.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label == "clubs foundation, empty", label
    p.keyboard.press("ArrowRight")
    assert (
        p.evaluate("document.activeElement.getAttribute('aria-label')")
        == "diamonds foundation, empty"
    )
    assert p.locator(".foundation.kbd-focus").count() == 1
    p.keyboard.press("ArrowDown")
    assert p.evaluate("document.activeElement.closest('.column').dataset.col") == "4"
    page.assert_clean()
