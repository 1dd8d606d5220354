"""Every page of the browser client renders, sets the CSRF cookie and loads its module."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client

from tests.factories import client_for, make_player

PAGES = [
    ("/", "pages/home.js"),
    ("/play/{game}/", "pages/play.js"),
    ("/practice/", "pages/practice.js"),
    ("/practice/18446744073709551615/?variant=alaska", "pages/play.js"),
    ("/replay/{game}/", "pages/replay.js"),
    ("/leaderboards/", "pages/leaderboard.js"),
    ("/leaderboards/streaks/", "pages/leaderboard.js"),
    ("/leaderboards/daily/?date=2026-01-02&tier=hard", "pages/leaderboard.js"),
    ("/players/Ann%20Public/", "pages/player.js"),  # public_game's player
    ("/signup/", "pages/account.js"),
    ("/login/", "pages/account.js"),
    ("/how-to-play/", "pages/how_to_play.js"),
    ("/strategy/", "pages/base.js"),
    ("/faq/", "pages/base.js"),
    ("/leagues/", "pages/leagues.js"),
    ("/leagues/12/", "pages/league.js"),
    ("/leagues/join/not-a-real-token-at-all/", "pages/league_join.js"),
    ("/archive/", "pages/archive.js"),
    ("/archive/?month=2025-13", "pages/archive.js"),
    ("/archive/?month=2999-01", "pages/archive.js"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("path", "module"), PAGES)
def test_page_renders(client: Client, public_game: int, path: str, module: str) -> None:
    response = client.get(path.format(game=public_game))
    assert response.status_code == 200
    assert f"frontend/js/{module}" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        "/practice/18446744073709551616/",
        "/practice/-1/",
        "/leaderboards/weekly/",
        "/leagues/0/",
        "/leagues/abc/",
    ],
)
def test_bad_page_addresses_are_404(client: Client, path: str) -> None:
    assert client.get(path).status_code == 404


@pytest.mark.django_db
def test_a_name_no_player_has_is_the_sites_404_page_saying_so(public_game: int) -> None:
    # it was the player page's frame, 200, with the API's bare "no player named 'Nobody'"
    for name in ("Nobody", "Ann Publik"):
        response = Client().get(f"/players/{name}/")
        assert response.status_code == 404
        body = response.content.decode()
        assert f"No player is called \u201c{name}\u201d." in body and "player.js" not in body
    banned = make_player("Bea Banned")
    banned.is_banned = True
    banned.save(update_fields=["is_banned"])
    assert Client().get("/players/Bea%20Banned/").status_code == 404
    german = Client().get("/players/Nobody/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Kein Spieler heißt \u201eNobody\u201c." in german
    assert Client().get("/players/ann public/").status_code == 200  # names match in any case


@pytest.mark.django_db
def test_around_me_is_offered_to_players_only() -> None:
    # a guest has no place on a board; the switch did nothing for them
    assert "data-around" not in Client().get("/leaderboards/").content.decode()
    player = client_for(make_player("Ann Board")).get("/leaderboards/").content.decode()
    assert "data-around" in player


@pytest.mark.django_db
def test_practice_warns_of_the_variant_no_deal_of_which_was_ever_won() -> None:
    body = Client().get("/practice/").content.decode()
    assert body.count("data-never-won=") == 1  # moosehide-runs alone (docs/odds.md)
    assert 'data-never-won="moosehide-runs" hidden' in body
    assert "Moosehide (runs only): it proved all 5,000 deals it studied lost" in body
    german = Client().get("/practice/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Alle 5.000 untersuchten Spiele" in german


@pytest.mark.django_db
def test_play_page_sets_csrf_cookie(client: Client, public_game: int) -> None:
    response = client.get(f"/play/{public_game}/")
    assert "csrftoken" in response.cookies
    assert f'data-game-id="{public_game}"' in response.content.decode()


@pytest.mark.django_db
def test_unknown_variant_falls_back_to_yukon(client: Client) -> None:
    body = client.get("/practice/3/?variant=spider").content.decode()
    assert 'data-variant="yukon"' in body


class _ReplayControls(HTMLParser):
    """Each button of the replay controls: its label, whether it holds an svg, its text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.buttons: list[dict[str, str | bool]] = []
        self._in_controls = False
        self._button: dict[str, str | bool] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if "replay-controls" in (attr.get("class") or ""):
            self._in_controls = True
        elif self._in_controls and tag == "button":
            self._button = {"label": attr.get("aria-label") or "", "svg": False, "text": ""}
            self.buttons.append(self._button)
        elif self._button is not None and tag == "svg":
            self._button["svg"] = attr.get("aria-hidden") == "true"

    def handle_endtag(self, tag: str) -> None:
        if tag == "button":
            self._button = None
        elif tag == "div" and self._button is None:
            self._in_controls = False

    def handle_data(self, data: str) -> None:
        if self._button is not None:
            self._button["text"] = str(self._button["text"]) + data.strip()


@pytest.mark.django_db
def test_replay_controls_draw_their_icons(client: Client, public_game: int) -> None:
    """Debian's Chromium fonts lack the media-control glyphs (U+23EE, U+23ED): a button
    whose face is such a character shows an empty box. Each icon is an svg; text, if any,
    is plain ASCII, and every button keeps its accessible name."""
    controls = _ReplayControls()
    controls.feed(client.get(f"/replay/{public_game}/").content.decode())
    icons = {"First move", "Step back", "Step forward", "Last move"}
    by_label = {str(b["label"]): b for b in controls.buttons}
    assert icons <= by_label.keys()
    for label in icons:
        assert by_label[label]["svg"], f"{label}: no svg icon"
        assert by_label[label]["text"] == "", f"{label}: a text glyph {by_label[label]['text']!r}"
    for button in controls.buttons:
        assert str(button["text"]).isascii(), button


@pytest.mark.django_db
def test_a_guests_daily_says_it_is_unranked_from_the_start(client: Client) -> None:
    """A guest met "not on the board" only in the dialog at the game's end; the page says
    it with the board, and how the game can rank (a sign-up before the close)."""
    from tests.factories import make_challenges

    make_challenges()
    game = client.post("/api/games/", {"daily": "easy"}, content_type="application/json").json()
    assert game["mode"] == "guest"
    page = client.get(f"/play/{game['id']}/").content.decode()
    assert "data-guest-note" in page and "sign up before the day closes" in page
    assert f'href="/signup/?next=/play/{game["id"]}/"' in page
    # a player's own daily: no such line
    player = client_for(make_player("Ranked Rita"))
    own = player.post("/api/games/", {"daily": "easy"}, content_type="application/json").json()
    assert own["mode"] == "daily"
    assert "data-guest-note" not in player.get(f"/play/{own['id']}/").content.decode()


@pytest.mark.django_db
def test_the_archive_legend_names_every_mark_a_day_can_show() -> None:
    """A held day shows a dashed "?" tile and a game in play a "…" one; the legend named
    only won, lost, not played and today, and a phone has no hover title to explain them."""
    page = client_for(make_player("Ann Archive")).get("/archive/").content.decode()
    legend = page[page.index('class="legend') : page.index("</p>", page.index('class="legend'))]
    for state, mark in [("won", "✓"), ("lost", "✗"), ("playing", "…"), ("held", "?")]:
        tile = legend[legend.index(f'class="state {state}"') :]
        assert f'aria-hidden="true">{mark}</span>' in tile[: tile.index("</span></span>") + 14]


@pytest.mark.django_db
def test_the_streak_and_all_time_boards_say_what_they_rank() -> None:
    """Two players with no win, one game each and the same average were both "#1" on the
    all-time board, with nothing saying how it orders them."""
    client = Client()
    alltime = client.get("/leaderboards/alltime/").content.decode()
    assert "Ranked by wins, then win rate, then average score" in alltime
    streaks = client.get("/leaderboards/streaks/").content.decode()
    assert "days in a row with a won daily, the longest first" in streaks
    assert "Ranked by wins" not in client.get("/leaderboards/").content.decode()
