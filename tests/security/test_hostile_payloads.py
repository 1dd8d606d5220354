"""Hostile inputs sent to every route the site serves: never a 500, always a clear 4xx.

The routes come from the URL resolver, so a new endpoint or page is covered the day it
is added. Every POST under /api/ gets bodies nested far past Python's recursion limit,
numbers no column holds (ints past 64 bits, 1e400, NaN, Infinity) in each field its
OpenAPI request schema names, and bodies over DATA_UPLOAD_MAX_MEMORY_SIZE; every id in a
URL (API and pages) gets values past 2^63, negative, zero and not numbers. Logged in and
as a guest. The answer under /api/ is the API's JSON error: ``{"detail": ...}`` with
400 or 413 for a body, 404 for an id.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern
from drf_spectacular.generators import SchemaGenerator

from apikit.throttles import MoveThrottle
from tests.factories import make_challenges, make_user

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")
PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")
# Pages whose route is a regular expression: each with a path builder for an id value.
# A new re_path outside the admin must be added here (test_every_regex_route_is_known).
REGEX_ROUTES = {r"^practice/(?P<deal>[0-9]{1,20})/$": "/practice/{}/"}
# allauth's emailed links (docs/accounts.md): a bad key is its page saying so, never a 5xx
LINK_ROUTES = {
    r"^confirm-email/(?P<key>[-:\w]+)/$": "/accounts/confirm-email/{}/",
    r"^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$": (
        "/accounts/password/reset/key/{}-x/"
    ),
}
# the last route under /api/: a JSON 404 to whatever path it takes (apikit/not_found.py,
# tests/api/test_json_errors.py), so no value of its own to try
CATCH_ALL_ROUTES = {r"^api/"}


@dataclass(frozen=True)
class Route:
    template: str  # "/api/games/<id:game_id>/moves/"
    methods: tuple[str, ...]

    @property
    def parameters(self) -> list[tuple[str, str]]:
        return [(m["converter"] or "str", m["name"]) for m in PARAMETER.finditer(self.template)]

    def url(self, **values: object) -> str:
        return PARAMETER.sub(lambda m: str(values[m["name"]]), self.template)

    @property
    def openapi_path(self) -> str:
        return PARAMETER.sub(lambda m: "{" + m["name"] + "}", self.template)


def _methods(callback: Any) -> tuple[str, ...]:
    view_class = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    if view_class is None:  # a function view: a page
        return ("get",)
    return tuple(m for m in METHODS if hasattr(view_class, m))


def _walk(patterns: list[Any], prefix: str = "/") -> list[tuple[str, Any, Any]]:
    found = []
    for entry in patterns:
        if isinstance(entry, URLResolver):
            if str(entry.pattern) == "admin/":
                continue  # Django's admin: staff only, its own URL scheme
            found += _walk(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            found.append((prefix, entry.pattern, entry.callback))
    return found


def all_routes() -> list[Route]:
    routes = []
    for prefix, pattern, callback in _walk(get_resolver().url_patterns):
        if isinstance(pattern, RoutePattern):
            routes.append(Route(prefix + str(pattern), _methods(callback)))
    return routes


def regex_routes() -> list[str]:
    return [
        str(pattern)
        for _, pattern, _ in _walk(get_resolver().url_patterns)
        if isinstance(pattern, RegexPattern)
    ]


def api_post_routes() -> list[Route]:
    """Every POST under /api/; log-out last, so that the player stays who they are."""
    routes = [r for r in all_routes() if r.template.startswith("/api/") and "post" in r.methods]
    return sorted(routes, key=lambda route: route.template.endswith("/logout/"))


def routes_with_ids() -> list[Route]:
    return [
        r for r in all_routes() if any(converter in {"int", "id"} for converter, _ in r.parameters)
    ]


@functools.cache
def openapi_schema() -> dict[str, Any]:
    """The schema, made once: the URL conf and views do not change within a run."""
    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return schema


def request_fields(route: Route) -> list[str]:
    """The JSON fields the OpenAPI schema documents for the route's POST (may be none)."""
    schema = openapi_schema()
    operation = schema["paths"].get(route.openapi_path, {}).get("post", {})
    content = operation.get("requestBody", {}).get("content", {})
    reference = content.get("application/json", {}).get("schema", {}).get("$ref", "")
    component = schema["components"]["schemas"].get(reference.rsplit("/", 1)[-1], {})
    return sorted(component.get("properties", {}))


# ------------------------------------------------------------------ the hostile shapes

DEEP = 1_100
NESTED_BODIES = {
    "deep list": "[" * DEEP + "]" * DEEP,
    "deep object": '{"a":' * DEEP + "1" + "}" * DEEP,
    "deep list in a field": '{"ply": 0, "move": ' + "[" * DEEP + "]" * DEEP + "}",
    "very deep list": "[" * 200_000 + "]" * 200_000,
    "deep and unclosed": "[" * 50_000,
}
# JSON text of values no field takes: ints past 64 bits, past Python's int-from-text
# limit, floats past double range, and the non-standard constants.
HUGE_VALUES = {
    "2^63": str(2**63),
    "2^64": str(2**64),
    "-2^63-1": str(-(2**63) - 1),
    "10^400": "1" + "0" * 400,
    "10^5000": "1" + "0" * 5_000,
    "1e400": "1e400",
    "-1e400": "-1e400",
    "1e-400": "1e-400",
    "NaN": "NaN",
    "Infinity": "Infinity",
    "-Infinity": "-Infinity",
    "huge float text": "9" * 400 + ".5",
}
HOSTILE_IDS = (
    str(2**63),
    str(2**64),
    "9" * 40,
    "-1",
    "0",
    "abc",
    "1e3",
    "0x10",
    "1.0",
    "%E2%91%A0",  # CIRCLED DIGIT ONE
    "%D9%A3",  # ARABIC-INDIC DIGIT THREE: \d matches it, int() reads it
)


@dataclass
class Player:
    client: Client
    game_id: int
    name: str
    is_guest: bool

    def refusals_before_reading(self, content_type: str = "application/json") -> set[int]:
        """Answers that come before the body is read: a players-only endpoint's 403 to a
        guest, the move endpoint's 415 to a type it does not parse."""
        return ({403} if self.is_guest else set()) | (
            {415} if content_type != "application/json" else set()
        )


@pytest.fixture(params=["logged in", "guest"])
def player(request: pytest.FixtureRequest, settings: Any) -> Iterator[Player]:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"signup": "10000/s", "login": "10000/s", "moves": "10000/s"},
    }
    settings.MAIL_FEEDBACK_SECRET = MAIL_FEEDBACK_SECRET
    make_challenges()
    client = Client()  # CSRF checks off: the bodies must reach the parser
    name = "Hostile"
    user = make_user("hostile") if request.param == "logged in" else None
    if user is not None:
        client.force_login(user)
    response = client.post("/api/games/", {"deal": 0}, content_type="application/json")
    assert response.status_code == 201, response.content
    yield Player(client, response.json()["id"], name, user is None)
    if user is not None:  # the next test's player may get the same id and a lower limit
        cache.delete(MoveThrottle.window_key(f"u{user.pk}", 1))


def valid_value(converter: str, name: str, player: Player) -> object:
    if converter in {"int", "id"}:
        return player.game_id
    return {"date": "2026-12-01", "tier": "easy", "board": "daily"}.get(name, player.name)


def valid_url(route: Route, player: Player) -> str:
    return route.url(**{name: valid_value(c, name, player) for c, name in route.parameters})


# The mail service's webhook (POST /api/mail/feedback/) refuses a caller without its secret
# before reading a byte: every request carries it, so that its body is tried too.
MAIL_FEEDBACK_SECRET = "a hostile but informed caller"


def send(client: Client, method: str, url: str, body: str | None, **extra: Any) -> Any:
    if method == "get" or body is None:
        return client.get(url, HTTP_ACCEPT="application/json")
    extra.setdefault("content_type", "application/json")
    extra.setdefault("HTTP_X_MAIL_FEEDBACK_SECRET", MAIL_FEEDBACK_SECRET)
    return getattr(client, method)(url, body, HTTP_ACCEPT="application/json", **extra)


def assert_json_error(response: Any, statuses: set[int], what: str) -> None:
    assert response.status_code in statuses, (what, response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), (what, response["Content-Type"])
    body = json.loads(response.content)
    assert isinstance(body, dict) and isinstance(body.get("detail"), str) and body["detail"], what
    assert "Traceback" not in body["detail"] and 'File "' not in body["detail"], what


# ------------------------------------------------------------------ the tests


def test_the_suite_sees_every_post_and_every_id() -> None:
    """The enumeration itself: if this misses the move endpoint, the rest proves nothing."""
    posts = {r.template for r in api_post_routes()}
    assert {"/api/games/", "/api/auth/login/", "/api/auth/signup/"} <= posts
    assert any(t.endswith("/moves/") for t in posts)
    with_ids = {r.template for r in routes_with_ids()}
    assert any(t.startswith("/api/games/") and t.endswith("/moves/") for t in with_ids)
    assert any(t.startswith("/replay/") for t in with_ids)
    assert any(t.startswith("/play/") for t in with_ids)


def test_every_id_in_a_route_is_bounded() -> None:
    """``<int:...>`` takes any number of digits to the database; ``<id:...>`` stops at
    2^63 - 1 (apikit/converters.py)."""
    templates = [r.template for r in all_routes()]

    def shadowed(template: str) -> bool:
        """A library's route that a bounded twin ahead of it answers (yukon_site/urls.py)."""
        twin = template.replace("<int:", "<id:")
        return twin in templates and templates.index(twin) < templates.index(template)

    unbounded = [
        r.template
        for r in all_routes()
        if any(c == "int" for c, _ in r.parameters) and not shadowed(r.template)
    ]
    assert not unbounded, f"use <id:...> in {unbounded}"


def test_every_regex_route_is_known() -> None:
    known = {*REGEX_ROUTES, *LINK_ROUTES, *CATCH_ALL_ROUTES}
    assert set(regex_routes()) <= known, "add the new re_path to REGEX_ROUTES"


@pytest.mark.parametrize("shape", sorted(NESTED_BODIES))
def test_deep_nesting_is_a_400_on_every_post(shape: str, player: Player) -> None:
    for route in api_post_routes():
        url = valid_url(route, player)
        response = send(player.client, "post", url, NESTED_BODIES[shape])
        expected = {400} | player.refusals_before_reading()
        assert_json_error(response, expected, f"{shape} -> POST {url}")


@pytest.mark.slow
@pytest.mark.parametrize("value", sorted(HUGE_VALUES))
def test_numbers_no_field_holds_are_refused_on_every_post(value: str, player: Player) -> None:
    text = HUGE_VALUES[value]
    for route in api_post_routes():
        url = valid_url(route, player)
        for field in request_fields(route) or ["ply", "deal"]:
            body = "{" + f'"{field}": {text}' + "}"
            response = send(player.client, "post", url, body)
            what = f"{field}={value} -> POST {url}"
            assert response.status_code < 500, (what, response.content[:300])
            if response.status_code >= 400:
                assert_json_error(response, {response.status_code}, what)
            # a value that is not even valid JSON text is always refused
            if value in {"NaN", "Infinity", "-Infinity", "10^5000"}:
                assert_json_error(response, {400} | player.refusals_before_reading(), what)
        # also where the endpoint does read a number: the whole body one number
        response = send(player.client, "post", url, text)
        assert response.status_code < 500, (value, url, response.content[:300])


@pytest.mark.parametrize(
    "content_type",
    ["application/json", "application/x-www-form-urlencoded", "text/plain"],
)
def test_a_body_over_the_size_limit_is_a_json_413(content_type: str, player: Player) -> None:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = '{"move": "' + "a" * limit + '"}'
    for route in api_post_routes():
        url = valid_url(route, player)
        response = send(player.client, "post", url, body, content_type=content_type)
        # text/plain: no parser reads it, refused (415) before the body is
        expected = {415} if content_type == "text/plain" else {413}
        expected |= player.refusals_before_reading(content_type)
        assert_json_error(response, expected, f"{len(body)} bytes of {content_type} -> POST {url}")


def test_a_multipart_body_over_the_limit_is_a_json_413(player: Player) -> None:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    for route in api_post_routes():
        url = valid_url(route, player)
        body = {"move": "a" * (limit + 1)}  # the test client's default: multipart
        response = player.client.post(
            url,
            body,
            HTTP_ACCEPT="application/json",
            HTTP_X_MAIL_FEEDBACK_SECRET=MAIL_FEEDBACK_SECRET,
        )
        expected = {413} | player.refusals_before_reading("multipart/form-data")
        assert_json_error(response, expected, f"multipart -> POST {url}")


def test_a_body_just_under_the_limit_is_read(player: Player) -> None:
    """The limit is DATA_UPLOAD_MAX_MEMORY_SIZE, not less: a long body is still parsed."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    padding = " " * (limit - 200)
    body = '{"ply": 0, "move": "Ah>F"}' + padding
    response = send(player.client, "post", f"/api/games/{player.game_id}/moves/", body)
    assert response.status_code in {200, 400}, response.content[:300]
    if response.status_code == 400:  # refused as a move, not as a body
        assert "too large" not in response.json()["detail"]


@pytest.mark.parametrize("value", HOSTILE_IDS)
def test_every_id_in_a_url_is_a_404(value: str, player: Player) -> None:
    for route in routes_with_ids():
        url = route.url(
            **{
                name: value if converter in {"int", "id"} else valid_value(converter, name, player)
                for converter, name in route.parameters
            }
        )
        for method in route.methods:
            response = send(player.client, method, url, '{"ply": 0, "move": "Ah>F"}')
            what = f"{method.upper()} {url}"
            assert response.status_code == 404, (what, response.status_code, response.content[:200])
            if url.startswith("/api/"):
                assert_json_error(response, {404}, what)


@pytest.mark.parametrize("value", [*HOSTILE_IDS, str(2**64 - 1), "1" + "0" * 20])
def test_pages_of_regex_routes_are_a_404_not_a_500(value: str, player: Player) -> None:
    for template in REGEX_ROUTES.values():
        response = player.client.get(template.format(value))
        if value.isdigit() and int(value) < 2**64:
            assert response.status_code == 200, value
        else:
            assert response.status_code == 404, (template, value, response.status_code)


@pytest.mark.parametrize("value", [*HOSTILE_IDS, str(2**64 - 1), "1" + "0" * 20])
def test_emailed_links_with_a_bad_key_are_never_a_500(value: str, player: Player) -> None:
    for template in LINK_ROUTES.values():
        for client in (player.client, Client()):
            response = client.get(template.format(value))
            assert response.status_code < 500, (template, value, response.status_code)
            response = client.post(template.format(value), {"password1": "x", "password2": "x"})
            assert response.status_code < 500, (template, value, response.status_code)


def test_the_largest_id_reaches_the_database_and_is_a_404(player: Player) -> None:
    """2^63 - 1 is a valid id with no game: the database is asked and says no (or the
    endpoint refuses the body first: a report without a reason is a 400)."""
    for route in routes_with_ids():
        if not route.template.startswith("/api/"):
            continue
        url = valid_url(route, Player(player.client, 2**63 - 1, player.name, player.is_guest))
        for method in route.methods:
            response = send(player.client, method, url, '{"ply": 0, "move": "Ah>F"}')
            expected = {404} | player.refusals_before_reading()
            assert_json_error(response, expected | {400}, f"{method.upper()} {url}")


# A lone UTF-16 surrogate: valid JSON escape, not text. DRF's choice fields echoed it into
# their message, which the JSON renderer then could not encode: a 500 (a text/plain one
# with DEBUG on).
LONE_SURROGATES = {"high": "\\ud800", "low": "\\udfff", "after text": "easy\\udbff"}


@pytest.mark.parametrize("where", sorted(LONE_SURROGATES))
def test_a_lone_surrogate_is_a_400_on_every_unsafe_route(where: str, player: Player) -> None:
    text = LONE_SURROGATES[where]
    # where the body is read, the answer is the parser's 400, naming the surrogate
    for url, method in [("/api/games/", "post"), ("/api/account/settings/", "put")]:
        response = send(player.client, method, url, '{"daily": "' + text + '"}')
        expected = {403} if player.is_guest and "settings" in url else {400}
        assert_json_error(response, expected, f"{method} {url}")
        if response.status_code == 400:
            assert "surrogate" in response.json()["detail"], response.json()
    # every other route, log-out last
    routes = [(route, m) for route in all_routes() for m in ("put", "patch") if m in route.methods]
    routes += [(route, "post") for route in api_post_routes()]
    for route, method in routes:
        url = valid_url(route, player)
        fields = request_fields(route) or ["ply", "deal", "daily", "theme"]
        bodies = ["{" + f'"{field}": "{text}"' + "}" for field in fields]
        bodies.append("{" + f'"{text}": 1' + "}")  # as a key
        for body in bodies:
            response = send(player.client, method, url, body)
            what = f"{body} -> {method.upper()} {url}"
            assert response.status_code < 500, (what, response.content[:300])
            if url.startswith("/api/") and response.status_code >= 400:
                assert_json_error(response, {response.status_code}, what)
