"""Staff powers need a passed second factor on every path, not only in the admin.

The walk takes every route from the URL resolver, fills its parameters with the objects a
moderator would be curious about (a player's daily game in progress and practice game,
finished games of the open day, one flagged and reported, one disqualified, leagues and a
league report) and sends GET to each, as staff logged in with a password alone through
``POST /api/auth/login/``. A player logged in the same way must get the same statuses,
and the staff account see no card the player does not; the same account, once its staff
flag is taken away (a plain player in every other respect, the same session), must get
the same answers byte for byte: any difference is the staff flag's doing. Then one staff
account walks twice more, logged in with its TOTP code and by the admin's own password
form: between the two the walk finds exactly the staff views (apikit/staff.py), so it
would notice one that a password opened.

Left out, with their own guards and tests: the admin (``admin/``: moderation/site.py,
tests/accounts/test_staff_second_factor.py, tests/moderation/test_permissions.py), and
allauth's own account pages and log-in API (``accounts/``, ``_allauth/``: the session's
own account, its e-mail, password and factors; no game, league or report).
"""

from __future__ import annotations

import base64
import itertools
import json
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from allauth.mfa.totp.internal.auth import TOTP
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls import path as route_to
from django.utils.regex_helper import normalize

from accounts.models import User
from frontend.catalogue import catalogue_url
from games.models import Game, utc_today
from moderation import services as moderation
from moderation.models import Flag, FlagKind
from social import services as social
from social.models import League
from tests.factories import LINES, client_for, current_totp, make_day, make_player, post

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

PASSWORD = "a long enough pass 42"

# Left out of the walk, by how the route starts, and why.
LEFT_OUT = {
    "admin/": "the admin: its own second-factor guard (moderation/site.py) and tests",
    "accounts/": "allauth's account pages: the session's own e-mail, password and factors",
    "_allauth/": "allauth's log-in API: the session's own account, no game or league",
}

ADD_A_SAMPLE = (
    "{route}: the walk has no sample for <{name}>. Add one to World.samples() in "
    "tests/security/test_staff_second_factor_routes.py (the id of an object the walk sets "
    "up, or a value the converter takes), so that staff without a second factor are "
    "checked on this route too."
)


@dataclass(frozen=True)
class Route:
    text: str  # as the resolver writes it, e.g. "api/games/<id:game_id>/"
    pieces: tuple[Any, ...]  # each level's pattern, from the root
    callback: Any


def all_routes(patterns: list[Any] | None = None, above: tuple[Any, ...] = ()) -> Iterator[Route]:
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        pieces = (*above, entry.pattern)
        if isinstance(entry, URLResolver):
            yield from all_routes(entry.url_patterns, pieces)
        elif isinstance(entry, URLPattern):
            yield Route("".join(str(piece) for piece in pieces), pieces, entry.callback)


def left_out(route: Route) -> str | None:
    """The prefix that leaves ``route`` out of the walk, if one does."""
    return next((prefix for prefix in LEFT_OUT if route.text.startswith(prefix)), None)


@dataclass
class World:
    """What the walk fills the routes with: ids of a player's games, leagues, names."""

    games: dict[str, int]
    leagues: list[League]
    players: list[str]

    def samples(self) -> dict[str, list[str]]:
        today = utc_today()
        return {
            "game_id": [str(game_id) for game_id in self.games.values()],
            "league_id": [str(league.pk) for league in self.leagues],
            "token": [league.invite_token for league in self.leagues],
            "name": self.players,
            "date": [today.isoformat()],
            "tier": ["easy", "medium"],
            "month": [today.strftime("%Y-%m")],
            "deal": ["3"],
            "board": ["daily"],
            # the browser's catalogue of a language (frontend/catalogue.py), by its hash
            "language": ["de"],
            "digest": [catalogue_url("de").rsplit("/", 1)[1].removesuffix(".js")],
        }


def paths_of(route: Route, samples: dict[str, list[str]]) -> list[str]:
    """Every path of ``route`` with its parameters filled from ``samples``."""
    templates = []
    for piece in route.pieces:
        # Django's own reading of a pattern (reverse() uses it): "games/%(game_id)s/"
        template, names = normalize(piece.regex.pattern)[0]
        templates.append((template, names))
    names = [name for _, piece_names in templates for name in piece_names]
    for name in names:
        assert name in samples, ADD_A_SAMPLE.format(route=route.text, name=name)
    paths = []
    for values in itertools.product(*(samples[name] for name in names)):
        filled = dict(zip(names, values, strict=True))
        path = "/" + "".join(template % filled for template, _ in templates)
        match = resolve(path)  # the sample fits the converter, and no route before it
        assert match.func is route.callback, f"{route.text}: {path} reaches {match.route}"
        paths.append(path)
    return paths


def walk(world: World) -> tuple[list[str], list[Route]]:
    """The paths to visit, and the routes left out."""
    paths, skipped = [], []
    for route in all_routes():
        if left_out(route):
            skipped.append(route)
        else:
            paths += paths_of(route, world.samples())
    return paths, skipped


# What differs between two answers to the same question, and is no staff power.
NOT_POWERS = [
    # Django masks the CSRF token afresh on every page (in a form, in the API docs' script):
    # 64 letters and digits, mixed case (a SHA-256 commitment in hex is lower case).
    (re.compile(rb"(?<![A-Za-z0-9])(?=[a-z0-9]*[A-Z])[A-Za-z0-9]{64}(?![A-Za-z0-9])"), b"<csrf>"),
    # "who am I" and the data export tell the account its own staff flag
    (re.compile(rb'"is_staff":(?:true|false)'), b'"is_staff":<its own flag>'),
    # the export's own time
    (re.compile(rb'"exported_at":"[^"]*"'), b'"exported_at":<now>'),
    # the content security policy's nonce, fresh on every page (docs/operations.md)
    (re.compile(rb'nonce="[A-Za-z0-9+/=]*"'), b'nonce="<nonce>"'),
    # the home page's countdown to the next deal, as of the request
    (re.compile(rb"(<time data-countdown[^>]*>)\d\d:\d\d:\d\d<"), rb"\1<time left><"),
]


def seen(response: Any) -> tuple[int, bytes]:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    for varies, same in NOT_POWERS:
        body = varies.sub(same, body)
    return response.status_code, body


# A card's name (rank and suit) standing alone: "Kd", "9h", in JSON, HTML or a move text.
CARD = re.compile(rb"(?<![A-Za-z0-9])[A2-9TJQK][cdhs](?![A-Za-z0-9])")


def cards_in(body: bytes) -> set[bytes]:
    return set(CARD.findall(body))


def answers(client: Client, paths: list[str]) -> dict[str, tuple[int, bytes]]:
    return {path: seen(client.get(path)) for path in paths}


def as_player_again(user: User) -> None:
    """The same account and session, its staff flag taken away: a plain player."""
    user.is_staff = False
    user.save(update_fields=["is_staff"])


def differences(
    first: dict[str, tuple[int, bytes]], second: dict[str, tuple[int, bytes]]
) -> dict[str, str]:
    """The paths whose answers differ, each with the two answers where they part."""
    return {
        path: f"{first[path][0]} {where_they_part(first[path][1], second[path][1])!r}\n"
        f"  vs {second[path][0]} {where_they_part(second[path][1], first[path][1])!r}"
        for path in first
        if first[path] != second[path]
    }


def where_they_part(body: bytes, other: bytes) -> bytes:
    start = next(
        (at for at, (mine, theirs) in enumerate(zip(body, other, strict=False)) if mine != theirs),
        min(len(body), len(other)),
    )
    return body[max(0, start - 80) : start + 220]


# ----- the objects a curious account would look at -------------------------------------


def play(user: User, request: dict[str, Any], moves: list[str], *, resign: bool) -> int:
    client = client_for(user)
    response = post(client, "/api/games/", request)
    assert response.status_code == 201, response.content
    game_id = int(response.json()["id"])
    for ply, move in enumerate(moves):
        answer = post(client, f"/api/games/{game_id}/moves/", {"ply": ply, "move": move})
        assert answer.status_code == 200, answer.content
    if resign:
        assert post(client, f"/api/games/{game_id}/resign/", {}).status_code == 200
    return game_id


@pytest.fixture
def world() -> World:
    make_day()  # today's three deals, whose winning lines the tests know (0, 1, 68)
    vic, fin, dee = make_player("Vic"), make_player("Fin"), make_player("Dee")
    mod = make_player("Mod", staff=True, moderator=True)
    games = {
        "daily in play": play(vic, {"daily": "easy"}, LINES[0][:6], resign=False),
        "practice in play": play(vic, {"deal": 3}, [], resign=False),
        "daily over, flagged, reported": play(fin, {"daily": "medium"}, LINES[1][:6], resign=True),
        "daily over, disqualified": play(dee, {"daily": "hard"}, LINES[68][:4], resign=True),
    }
    flagged = Game.objects.get(pk=games["daily over, flagged, reported"])
    Flag.objects.create(game=flagged, kind=FlagKind.FAST_MOVES, reason="fast")
    moderation.file_report(vic, flagged, "too quick for a person")
    moderation.disqualify_game(mod, games["daily over, disqualified"], "caught")
    vics = social.create_league(vic, "Vic Circle")
    social.join_league(fin, vics.invite_token)
    fins = social.create_league(fin, "Fin Table")
    moderation.report_league(vic, fins, "rude name")
    return World(games=games, leagues=[vics, fins], players=["Vic"])


def fresh_client() -> Client:
    """From an address of its own: the limits per address (a closed day's games file)
    count nothing another test spent, so the walk's two rounds meet the same limits."""
    return Client(REMOTE_ADDR=f"10.{secrets.randbelow(256)}.{secrets.randbelow(256)}.7")


def logged_in_with_password(user: User) -> tuple[User, Client]:
    """Logged in through ``POST /api/auth/login/`` with the password alone."""
    user.set_password(PASSWORD)
    user.save()
    client = fresh_client()
    login = {"username": user.username, "password": PASSWORD}
    response = post(client, "/api/auth/login/", login)
    assert response.status_code == 200, response.content
    return user, client


def staff_with_totp(name: str) -> tuple[User, Client]:
    """Logged in as allauth's log-in page does it: the password, then a TOTP code."""
    user = make_player(name, staff=True)
    user.set_password(PASSWORD)
    user.save()
    secret = base64.b32encode(secrets.token_bytes(20)).decode()
    TOTP.activate(user, secret)
    client = fresh_client()
    auth = "/_allauth/browser/v1/auth"
    login = post(client, f"{auth}/login", {"username": name.lower(), "password": PASSWORD})
    assert login.status_code == 401, login.content  # the factor is still to come
    code = post(client, f"{auth}/2fa/authenticate", {"code": current_totp(secret)})
    assert code.status_code == 200 and code.json()["meta"]["is_authenticated"], code.content
    return user, client


# ----- the walk's own checks ----------------------------------------------------------------


def check_the_walk_leaves_out_only_the_admin_and_allauths_pages(world: World) -> None:
    paths, skipped = walk(world)
    assert {left_out(route) for route in skipped} == set(LEFT_OUT)
    walked = [route for route in all_routes() if not left_out(route)]
    assert len(walked) >= 50, len(walked)  # every API route and page of the site
    assert len(paths) >= len(walked)


def check_a_route_the_walk_cannot_fill_fails_with_what_to_add(world: World) -> None:
    def view(request: Any, widget_id: int) -> HttpResponse:
        return HttpResponse()

    pattern = route_to("widgets/<id:widget_id>/", view)
    route = Route("widgets/<id:widget_id>/", (pattern.pattern,), view)
    with pytest.raises(AssertionError, match=r"no sample for <widget_id>. Add one"):
        paths_of(route, world.samples())


# ----- the tests -----------------------------------------------------------------------------


def test_staff_without_a_second_factor_see_what_a_player_sees_on_every_route(
    world: World,
) -> None:
    check_the_walk_leaves_out_only_the_admin_and_allauths_pages(world)
    check_a_route_the_walk_cannot_fill_fails_with_what_to_add(world)
    staff, client = logged_in_with_password(make_player("Sam", staff=True))
    paths, _ = walk(world)
    as_staff = answers(client, paths)
    # Another player, logged in the same way: the same answers, their own name aside.
    _, player_client = logged_in_with_password(make_player("Pat"))
    as_another_player = answers(player_client, paths)
    for path, (status, body) in as_staff.items():
        theirs, their_body = as_another_player[path]
        assert status == theirs, f"{path}: staff {status}, a player {theirs}: {body[:300]!r}"
        assert cards_in(body) <= cards_in(their_body), path
    # The same account without its staff flag: the same answers, byte for byte.
    as_player_again(staff)
    as_player = answers(client, paths)
    differ = differences(as_staff, as_player)
    assert not differ, "staff with a password alone see more than a player:\n" + "\n".join(
        f"{path}: {what}" for path, what in differ.items()
    )
    # the walk reached the objects: not everything was a 404
    statuses = {status for status, _ in as_player.values()}
    assert {200, 404} <= statuses, statuses


def test_staff_who_passed_a_second_factor_get_the_staff_views(world: World) -> None:
    """The same staff account twice: logged in with its TOTP code, and by the admin's own
    password form (which asks for no factor; the admin then wants one). The walk finds
    exactly the staff views between the two, and no other difference."""
    staff, with_factor = staff_with_totp("Mo")
    password_only = fresh_client()
    login = password_only.post("/admin/login/", {"username": "mo", "password": PASSWORD})
    assert login.status_code == 302, login.content[:500]
    assert password_only.session.get("_auth_user_id") == str(staff.pk)
    paths, _ = walk(world)
    as_staff = answers(with_factor, paths)
    without_factor = answers(password_only, paths)
    games = world.games
    in_play, practice = games["daily in play"], games["practice in play"]
    flagged = games["daily over, flagged, reported"]
    disqualified = games["daily over, disqualified"]
    staff_views = {
        # any game, at any time
        *(f"/api/games/{game}/" for game in games.values()),
        # and its page, by the same rule (frontend/views.py: one not to be seen is a 404)
        *(f"/play/{game}/" for game in games.values()),
        f"/replay/{flagged}/",
        # any finished game's log, the open day's too
        f"/api/games/{flagged}/replay/",
        f"/api/games/{disqualified}/replay/",
        # its analysis: 403 until the day closes, not the 404 of a game one may not see
        f"/api/games/{flagged}/analysis/",
        f"/api/games/{disqualified}/analysis/",
        # the replay page tells staff that a game was disqualified
        f"/replay/{disqualified}/",
    }
    assert set(differences(as_staff, without_factor)) == staff_views
    status, body = as_staff[f"/api/games/{in_play}/"]
    assert status == 200 and json.loads(body)["id"] == in_play
    assert without_factor[f"/api/games/{in_play}/"][0] == 404
    status, body = as_staff[f"/api/games/{flagged}/replay/"]
    assert status == 200 and json.loads(body)["log"], body
    assert without_factor[f"/api/games/{flagged}/replay/"][0] == 404
    assert b"disqualified" in as_staff[f"/replay/{disqualified}/"][1]
    assert b"disqualified" not in without_factor[f"/replay/{disqualified}/"][1]
    assert as_staff[f"/api/games/{practice}/"][0] == 200


def test_reporting_an_open_days_game_needs_the_second_factor_too(world: World) -> None:
    """The report form reads the game as the replay does: a staff password alone cannot
    reach a game of the open day that a player could not report."""
    flagged = world.games["daily over, flagged, reported"]
    _, password_only = logged_in_with_password(make_player("Sam", staff=True))
    refused = post(password_only, f"/api/games/{flagged}/report/", {"reason": "looks odd"})
    assert refused.status_code == 404, refused.content
    _, with_factor = staff_with_totp("Mo")
    filed = post(with_factor, f"/api/games/{flagged}/report/", {"reason": "looks odd"})
    assert filed.status_code == 201, filed.content
