"""Every page passes axe-core, logged in and out, on a phone and a desktop; the keyboard
cursor stands out; the board speaks once per event.

The pages come from the URL conf itself (every named route outside the API, the admin and
the probes), so a page added later is checked without a line here. A route with
parameters needs a sample address in ``SAMPLES`` (docs/frontend.md, "Accessibility"):
``test_every_page_has_a_sample`` fails until it has one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.e2e.axe import axe_source, failures
from tests.e2e.conftest import save_screenshot
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
# sign-in's hops, which only redirect (to the provider and back; 404 while it is off);
# and the fair-play checker, a file to download.
NOT_PAGE_NAMES = {
    "checker-download",
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
    # reminder mail's unsubscribe link (reminders/views.py), with a token that is not one
    "reminders-unsubscribe": lambda d: {"token": "no-such-token"},
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


# The themes (docs/frontend.md, "Themes"): every `:root[data-theme="..."]` block of the
# stylesheet, so a theme added there is checked here without a line of this file.
SITE_CSS = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend" / "site.css"
THEME_BLOCK = re.compile(r':root\[data-theme="([a-z-]+)"\]\s*\{([^}]*)\}')


def themes() -> dict[str, list[str]]:
    """Each theme's name and the custom properties its block sets, in the stylesheet's order."""
    found: dict[str, list[str]] = {}
    for name, body in THEME_BLOCK.findall(SITE_CSS.read_text()):
        found.setdefault(name, []).extend(re.findall(r"(--[a-z0-9-]+)\s*:", body))
    return found


# A page is drawn once its own requests have answered: the fetches it made are counted from
# its first script (their bodies read, and the code that ran on them done), and axe waits for
# a few frames with none in flight. Cheaper than "networkidle" (half a second of quiet on
# every page), and a page that keeps asking still fails the wait instead of passing unseen.
COUNT_FETCHES = """(() => {
  let inFlight = 0;
  const realFetch = window.fetch;
  window.fetch = function (...args) {
    inFlight += 1;
    let settled = false;
    const done = () => setTimeout(() => { if (!settled) { settled = true; inFlight -= 1; } }, 0);
    return realFetch.apply(this, args).then((response) => {
      for (const read of ["json", "text", "blob", "arrayBuffer", "formData"]) {
        const real = response[read];
        response[read] = function () {
          const body = real.call(this);
          body.then(done, done);
          return body;
        };
      }
      setTimeout(() => { if (!response.bodyUsed) done(); }, 0);
      return response;
    }, (error) => { done(); throw error; });
  };
  Object.defineProperty(window, "__fetchesInFlight", { get: () => inFlight });
})();"""
DRAWN = """() => {
  window.__quietFrames = window.__fetchesInFlight === 0 ? (window.__quietFrames || 0) + 1 : 0;
  return window.__quietFrames >= 3;
}"""
# A game page's board and controls fit the window above the footer (the footer sized in or
# below the fold): a control under the footer is a target Lighthouse finds too small.
GAME_FITS = """() => {
  const parts = [...document.querySelectorAll(".game .hud, .game [data-board], .replay-controls")];
  if (!parts.length) return [];
  const footer = document.querySelector(".site-footer").getBoundingClientRect().top;
  const limit = Math.min(footer, window.innerHeight);
  return parts.filter((part) => part.getBoundingClientRect().bottom > limit + 0.5).map((part) =>
    `${part.className} ends at ${part.getBoundingClientRect().bottom}px, ` +
    `under the footer or the window (${limit}px)`);
}"""
# Set <html>'s attributes (null: remove one) as the settings do, and finish any transition
# that starts, so that axe and the screenshots see the new palette, not a blend.
SET_ATTRIBUTES = """(attributes) => {
  const html = document.documentElement;
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null) html.removeAttribute(name); else html.setAttribute(name, value);
  }
  for (const animation of document.getAnimations()) {
    try { animation.finish(); } catch { /* an endless one (a card turning) runs on */ }
  }
}"""
# The lowest contrast of a suit's ink on its card face, over every face on the page.
FACE_CONTRAST = """() => {
  const luminance = (color) => {
    const [r, g, b] = color.match(/[\\d.]+/g).slice(0, 3).map((c) => {
      const v = Number(c) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const faces = [...document.querySelectorAll("svg.face")];
  let lowest = Infinity;
  const inks = new Set();
  for (const face of faces) {
    const paper = getComputedStyle(face.querySelector("rect")).fill;
    const ink = getComputedStyle(face.querySelector("text")).fill;
    inks.add(ink);
    lowest = Math.min(lowest, ratio(paper, ink));
  }
  return { faces: faces.length, lowest, inks: inks.size };
}"""


def custom_properties(page: Any, names: list[str]) -> dict[str, str]:
    return page.evaluate(
        """(names) => { const style = getComputedStyle(document.documentElement);
           return Object.fromEntries(names.map((n) => [n, style.getPropertyValue(n).trim()])); }""",
        names,
    )


def system_follows_the_device(page: Any) -> list[str]:
    """With no data-theme ("system"), each colour scheme of the device draws exactly its theme."""
    palette = sorted({name for names in themes().values() for name in names} | {"color-scheme"})
    wrong = []
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        page.evaluate(SET_ATTRIBUTES, {"data-theme": None})
        system = custom_properties(page, palette)
        page.evaluate(SET_ATTRIBUTES, {"data-theme": scheme})
        chosen = custom_properties(page, palette)
        wrong += [
            f"system on a {scheme} device: {name} is {system[name]!r}, the {scheme} theme's "
            f"{chosen[name]!r}"
            for name in palette
            if system[name] != chosen[name]
        ]
    page.emulate_media(color_scheme="light")
    page.evaluate(SET_ATTRIBUTES, {"data-theme": None})
    return wrong


def screenshot(page: Any, name: str, full_page: bool = False) -> None:
    save_screenshot(page, SHOTS / f"{name}.png", full_page=full_page)


@pytest.mark.parametrize("who", ["guest", "player"])
@pytest.mark.parametrize("size", list(WIDTHS))
def test_every_page_passes_axe(
    chromium: Any, live_server: Any, site: SiteData, who: str, size: str
) -> None:
    """Every rule on every page as the device's light scheme draws it ("system", the light
    palette), then (a phone's guest, a desktop's player) axe's colour-contrast rule again in
    each other theme on the same page;
    on the dealt practice board every suit's ink on its face, in every theme, with two and
    four colours; screenshots of each theme (the guest's home and dealt board). Also, as the
    pages are there: a game page's board and controls fit above the footer, and the home
    page's countdown counts as soon as its data is in."""
    # The light device: "system" draws the light palette, which system_follows_the_device
    # holds equal to data-theme="light"; so the full run covers light, and the others are
    # switched to on the page already drawn.
    context = chromium.new_context(
        viewport=WIDTHS[size], color_scheme="light", service_workers="block"
    )
    context.set_default_timeout(10_000)
    context.add_init_script(COUNT_FETCHES)
    # axe comes with every page, sent to the browser once: evaluated on each of the 58
    # pages (550 kB through the driver each time), it took a third of the axe runs' time.
    context.add_init_script(axe_source())
    if who == "player":
        log_in(context, live_server, site.name)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
    all_themes = themes()
    assert {"dark", "light", "contrast"} <= set(all_themes), all_themes
    # The other themes' contrast on one page load per viewport and per login state (a
    # phone's guest, a desktop's player): a palette is the same at every width, and these
    # two see every element that either width or either state draws.
    themed = (size, who) in {("phone", "guest"), ("desktop", "player")}
    others = [theme for theme in all_themes if theme != "light"] if themed else []
    width = WIDTHS[size]["width"]
    home = reverse("frontend:home")
    practice = reverse("frontend:practice", kwargs={"deal": "7"})
    found = []
    pages = site_pages(site)
    assert home in pages and practice in pages
    for path in pages:
        response = page.goto(live_server.url + path)
        assert response is not None and response.status < 500, (path, response)
        page.wait_for_function(DRAWN, polling="raf")
        if path == home:  # counting from the moment its data is in, not at the next second
            countdown = page.locator("[data-countdown]").inner_text()
            assert re.fullmatch(r"\d\d:\d\d:\d\d", countdown), countdown
        if path == practice:  # the board is dealt (a board that failed would pass vacuously)
            page.locator(".tableau .card.up").first.wait_for()
        assert page.locator("[data-logout]").count() == (who == "player"), path
        found += [f"{path}: {line}" for line in failures(page)]
        found += [f"{path}: {line}" for line in page.evaluate(GAME_FITS)]
        if path == pages[0]:
            found += system_follows_the_device(page)
        for theme in others:
            page.evaluate(SET_ATTRIBUTES, {"data-theme": theme})
            found += [
                f"{path} ({theme}): {line}" for line in failures(page, rules=["color-contrast"])
            ]
        if path == practice:
            found += card_faces_read_well(page, list(all_themes))
        if who == "guest" and path in (home, practice):
            for theme in all_themes:
                page.evaluate(SET_ATTRIBUTES, {"data-theme": theme})
                if path == home:
                    screenshot(page, f"theme-{theme}-home-{width}", full_page=True)
                    continue
                screenshot(page, f"theme-{theme}-play-{width}")
                if size == "phone":  # four colours and large indices: made for phones
                    page.evaluate(SET_ATTRIBUTES, {"data-suits": "four", "data-indices": "large"})
                    screenshot(page, f"theme-{theme}-play-{width}-four-large")
                    page.evaluate(SET_ATTRIBUTES, {"data-suits": None, "data-indices": None})
    context.close()
    found += errors
    assert not found, f"axe ({who}, {size}), {len(found)} finding(s):\n" + "\n".join(found)


def card_faces_read_well(page: Any, theme_names: list[str]) -> list[str]:
    """Each suit's ink on its face at 4.5:1 or more in every theme, two and four colours (axe
    leaves the faces out: they are drawings, aria-hidden, named by their card's button)."""
    wrong = []
    for theme in theme_names:
        for suits, inks in ((None, 2), ("four", 4)):
            page.evaluate(SET_ATTRIBUTES, {"data-theme": theme, "data-suits": suits})
            faces = page.evaluate(FACE_CONTRAST)
            label = f"card faces ({theme}, {suits or 'two'} colours)"
            if faces["faces"] < 10 or faces["inks"] != inks:
                wrong.append(f"{label}: {faces['faces']} faces in {faces['inks']} inks, not {inks}")
            elif faces["lowest"] < 4.5:
                wrong.append(f"{label}: a suit's ink at {faces['lowest']:.2f}:1 on its face")
    page.evaluate(SET_ATTRIBUTES, {"data-theme": None, "data-suits": None})
    return wrong


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
            "const f = document.querySelector('main form'); f.querySelector('label')"
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
    save_screenshot(p, SHOTS / "keyboard-cursor-deep-card.png")
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
    save_screenshot(p, SHOTS / "keyboard-cursor-drop-target.png")
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
    # shown, it is page content like any other: inside a landmark (axe's "region"; a toast
    # outside one failed the axe walk whenever a daily opened near the close said so)
    assert failures(p, rules=["region"]) == []
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
