"""Log-ins limited per account as well as per address, with a wait that grows and is
capped, never a lock (accounts/login_backoff.py). Run against the local-memory cache and
a real Redis (the counters' atomic increment and add are the cache's own)."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import authenticate
from django.db import connection
from django.http import HttpRequest
from django.test import Client

from accounts.login_backoff import DEVICE_COOKIE, wait_after
from accounts.models import User

PASSWORD = "a long enough pass 42"


@pytest.fixture(params=["locmem", pytest.param("redis", marks=pytest.mark.redis)])
def backoff(request: pytest.FixtureRequest, settings: Any) -> Iterator[dict[str, int]]:
    """Small numbers: 2 free failures, then 1 s, 2 s, capped at 2 s. Rates per address
    high, so only the per-account limit is in play."""
    import os

    if request.param == "redis":
        settings.CACHES = {
            "default": {
                "BACKEND": "yukon_site.cache.ResilientRedisCache",
                "LOCATION": os.environ["REDIS_URL"],
            }
        }
    else:
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": f"backoff-{uuid.uuid4().hex}",
            }
        }
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"signup": "1000/s", "login": "1000/s", "moves": "1000/s"},
    }
    numbers = {"free": 2, "base": 1, "cap": 2}
    settings.LOGIN_BACKOFF_FREE_FAILURES = numbers["free"]
    settings.LOGIN_BACKOFF_BASE_SECONDS = numbers["base"]
    settings.LOGIN_BACKOFF_MAX_SECONDS = numbers["cap"]
    yield numbers


def new_player() -> User:
    name = f"victim{uuid.uuid4().hex[:8]}"
    return User.objects.create_user(username=name, display_name=name, password=PASSWORD)


ADDRESSES = iter(f"10.{a}.{b}.{c}" for a in range(256) for b in range(256) for c in range(256))


def log_in(username: str, password: str, client: Client | None = None) -> Any:
    """A log-in from a fresh address each time: the guesser rotates addresses."""
    return (client or Client()).post(
        "/api/auth/login/",
        json.dumps({"username": username, "password": password}),
        content_type="application/json",
        REMOTE_ADDR=next(ADDRESSES),
    )


def assert_waiting(response: Any) -> int:
    assert response.status_code == 429, response.content
    assert "Too many failed log-ins for this account" in response.json()["detail"]
    retry_after = int(response["Retry-After"])
    assert retry_after >= 1
    return retry_after


def test_the_numbers_double_and_stop_at_the_cap(settings: Any) -> None:
    settings.LOGIN_BACKOFF_FREE_FAILURES = 5
    settings.LOGIN_BACKOFF_BASE_SECONDS = 1
    settings.LOGIN_BACKOFF_MAX_SECONDS = 300
    assert [wait_after(n) for n in range(1, 16)] == [
        0,
        0,
        0,
        0,
        1,
        2,
        4,
        8,
        16,
        32,
        64,
        128,
        256,
        300,
        300,
    ]
    assert wait_after(10_000) == 300


@pytest.mark.slow
@pytest.mark.django_db
def test_a_guesser_with_many_addresses_is_slowed(backoff: dict[str, int]) -> None:
    victim = new_player()
    for _ in range(backoff["free"]):
        assert log_in(victim.username, "guess").status_code == 400
    waited = assert_waiting(log_in(victim.username, "guess"))
    assert waited == backoff["base"]
    # the right password during the wait gets the same answer and no session
    client = Client()
    assert_waiting(log_in(victim.username, PASSWORD, client))
    assert client.get("/api/auth/me/").json()["authenticated"] is False


@pytest.mark.slow
@pytest.mark.django_db
def test_the_victim_can_wait_it_out_and_success_forgets(backoff: dict[str, int]) -> None:
    victim = new_player()
    for _ in range(backoff["free"]):
        log_in(victim.username, "guess")
    time.sleep(assert_waiting(log_in(victim.username, PASSWORD)))
    assert log_in(victim.username, PASSWORD).status_code == 200
    for _ in range(backoff["free"]):  # the free failures are free again
        assert log_in(victim.username, "guess").status_code == 400


@pytest.mark.slow
@pytest.mark.django_db
def test_the_wait_grows_to_the_cap_and_refused_tries_do_not_count(
    backoff: dict[str, int],
) -> None:
    victim = new_player()
    for _ in range(backoff["free"]):
        failed_at = time.monotonic()
        log_in(victim.username, "guess")
    seen = []
    for _ in range(3):
        waited = assert_waiting(log_in(victim.username, "guess"))
        # Hammering during the wait changes nothing: up to 20 tries, within the first half
        # of the wait (on a loaded machine 20 requests can outlast a one-second wait).
        hammered = 0
        while hammered < 20 and time.monotonic() - failed_at < waited / 2:
            assert assert_waiting(log_in(victim.username, "guess")) <= waited
            hammered += 1
        assert hammered
        seen.append(waited)
        time.sleep(waited)
        failed_at = time.monotonic()
        assert log_in(victim.username, "guess").status_code == 400  # a real try, failed
    seen.append(assert_waiting(log_in(victim.username, "guess")))
    assert seen == [1, 2, 2, 2]  # base, doubled, then the cap: never longer
    time.sleep(seen[-1])
    assert log_in(victim.username, PASSWORD).status_code == 200


@pytest.mark.slow
@pytest.mark.django_db
def test_case_does_not_buy_more_tries(backoff: dict[str, int]) -> None:
    victim = new_player()
    for spelling in (victim.username.upper(), victim.username.title()):
        log_in(spelling, "guess")
    assert_waiting(log_in(victim.username, "guess"))


@pytest.mark.django_db
def test_an_unknown_username_is_answered_like_a_real_one(backoff: dict[str, int]) -> None:
    """No difference that tells which accounts exist."""
    ghost = f"ghost{uuid.uuid4().hex[:8]}"
    for _ in range(backoff["free"]):
        assert log_in(ghost, "guess").status_code == 400
    assert_waiting(log_in(ghost, "guess"))


@pytest.mark.slow
@pytest.mark.django_db
def test_a_browser_that_logged_in_before_is_not_locked_out(backoff: dict[str, int]) -> None:
    victim = new_player()
    own_browser = Client()
    assert log_in(victim.username, PASSWORD, own_browser).status_code == 200
    assert DEVICE_COOKIE in own_browser.cookies
    own_browser.post("/api/auth/logout/")
    for _ in range(backoff["free"] + 1):  # an attacker runs the account's count up
        log_in(victim.username, "guess")
    assert_waiting(log_in(victim.username, PASSWORD))  # any other browser waits
    assert log_in(victim.username, PASSWORD, own_browser).status_code == 200
    # the device cookie names its account: it buys nothing for another one
    other = new_player()
    for _ in range(backoff["free"] + 1):
        log_in(other.username, "guess")
    assert_waiting(log_in(other.username, PASSWORD, own_browser))


@pytest.mark.slow
@pytest.mark.django_db
def test_a_device_cookie_counts_its_own_failures(backoff: dict[str, int]) -> None:
    victim = new_player()
    browser = Client()
    assert log_in(victim.username, PASSWORD, browser).status_code == 200
    browser.post("/api/auth/logout/")
    for _ in range(backoff["free"]):
        assert log_in(victim.username, "guess", browser).status_code == 400
    assert_waiting(log_in(victim.username, "guess", browser))


@pytest.mark.slow
@pytest.mark.django_db
def test_a_forged_device_cookie_is_ignored(backoff: dict[str, int]) -> None:
    victim = new_player()
    browser = Client()
    browser.cookies[DEVICE_COOKIE] = "forged:value"
    for _ in range(backoff["free"]):
        log_in(victim.username, "guess", browser)
    assert_waiting(log_in(victim.username, PASSWORD, browser))


@pytest.mark.slow
@pytest.mark.django_db
def test_the_admin_login_form_waits_too(backoff: dict[str, int]) -> None:
    """The wait lives in the authentication backend: every path that logs in has it."""
    victim = new_player()
    victim.is_staff = True
    victim.save()
    for _ in range(backoff["free"]):
        log_in(victim.username, "guess")
    browser = Client()
    answer = browser.post(
        "/admin/login/?next=/admin/", {"username": victim.username, "password": PASSWORD}
    )
    assert answer.status_code == 200  # the form again, with its error: not logged in
    assert "_auth_user_id" not in browser.session
    time.sleep(backoff["base"])
    answer = browser.post(
        "/admin/login/?next=/admin/", {"username": victim.username, "password": PASSWORD}
    )
    assert answer.status_code == 302 and "_auth_user_id" in browser.session


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_parallel_guesses_get_one_try_per_wait(backoff: dict[str, int], settings: Any) -> None:
    """Thirty guesses at once, past the free ones: one reaches the password check."""
    settings.LOGIN_BACKOFF_FREE_FAILURES = 0
    victim = new_player()
    start = threading.Barrier(30)
    refused: list[int] = []
    checked: list[int] = []

    def guess() -> None:
        request = HttpRequest()
        start.wait()
        try:
            authenticate(request, username=victim.username, password="guess")
        finally:
            connection.close()
        (refused if hasattr(request, "login_retry_after") else checked).append(1)

    threads = [threading.Thread(target=guess) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert (len(checked), len(refused)) == (1, 29)


@pytest.mark.slow
@pytest.mark.django_db
def test_with_the_cache_down_log_ins_still_work(settings: Any) -> None:
    """Redis away: the per-account limit opens (as the others do), never a 500."""
    settings.CACHES = {
        "default": {
            "BACKEND": "yukon_site.cache.ResilientRedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens on the discard port
            "OPTIONS": {"socket_connect_timeout": 0.1, "socket_timeout": 0.1},
        }
    }
    settings.AUTHENTICATION_BACKENDS = ["accounts.backends.LimitedModelBackend"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"signup": "1000/s", "login": "1000/s", "moves": "1000/s"},
    }
    settings.LOGIN_BACKOFF_FREE_FAILURES = 0
    victim = new_player()
    for _ in range(3):
        assert log_in(victim.username, "guess").status_code == 400
    assert log_in(victim.username, PASSWORD).status_code == 200


@pytest.fixture
def long_waits(backoff: dict[str, int], settings: Any) -> dict[str, int]:
    """A wait that outlasts the test: a 429 is the limit, not a slow machine."""
    settings.LOGIN_BACKOFF_BASE_SECONDS = settings.LOGIN_BACKOFF_MAX_SECONDS = 600
    return backoff


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("victim_stem", "look_alike_stem"), [("kate", "\u212aate"), ("strasse", "stra\u00dfe")]
)
def test_a_look_alike_accounts_device_buys_nothing_for_the_victim(
    long_waits: dict[str, int], victim_stem: str, look_alike_stem: str
) -> None:
    """The attacker's own account, named so that it folds to the victim's name (the
    Kelvin sign is stored as K; ``ß`` folds to ``ss``), made before sign-up refused such
    names: every log-in to it mints a device, which must not count for the victim."""
    tail = uuid.uuid4().hex[:8]
    victim = User.objects.create_user(
        username=victim_stem + tail, display_name=f"V{tail}", password=PASSWORD
    )
    attacker = User.objects.create_user(
        username=look_alike_stem + tail, display_name=f"A{tail}", password=PASSWORD
    )
    assert attacker.username != victim.username
    browsers = [Client() for _ in range(3)]
    for browser in browsers:  # one fresh device per log-in to the attacker's account
        assert log_in(attacker.username, PASSWORD, browser).status_code == 200
        assert DEVICE_COOKIE in browser.cookies
        browser.post("/api/auth/logout/")
    for _ in range(long_waits["free"] + 1):  # the victim's count is run up
        log_in(victim.username, "guess")
    for browser in browsers:
        assert_waiting(log_in(victim.username, "guess", browser))
    # the attacker's account has its own count, and its success forgets only that one
    assert log_in(attacker.username, PASSWORD).status_code == 200
    assert_waiting(log_in(victim.username, PASSWORD))


@pytest.mark.slow
@pytest.mark.django_db
def test_a_device_counts_for_no_unknown_username(long_waits: dict[str, int]) -> None:
    """``KATE`` names nobody when two accounts (``kate``, ``Kate``, from before sign-up
    refused that) fold to it: the device of one of them buys no tries at it."""
    tail = uuid.uuid4().hex[:8]
    User.objects.create_user(username=f"kate{tail}", display_name=f"V{tail}")
    owner = User.objects.create_user(
        username=f"Kate{tail}", display_name=f"A{tail}", password=PASSWORD
    )
    browser = Client()
    assert log_in(owner.username, PASSWORD, browser).status_code == 200
    browser.post("/api/auth/logout/")
    ghost = f"KATE{tail}"
    for _ in range(long_waits["free"] + 1):
        log_in(ghost, "guess")
    assert_waiting(log_in(ghost, "guess", browser))


@pytest.mark.slow
@pytest.mark.django_db
def test_a_folded_spelling_logs_in_to_its_account(backoff: dict[str, int]) -> None:
    """Log-in resolves a name as sign-up compares it: the one account it folds to."""
    player = User.objects.create_user(
        username=f"strasse{uuid.uuid4().hex[:8]}", display_name="Walker", password=PASSWORD
    )
    for spelling in (player.username.upper(), player.username.replace("ss", "\u00df")):
        client = Client()
        assert log_in(spelling, PASSWORD, client).status_code == 200
        assert client.get("/api/auth/me/").json()["player"]["id"] == player.pk


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["username", "password"])
def test_a_name_or_password_that_is_not_text_is_a_failed_log_in(field: str) -> None:
    """A lone surrogate (JSON's "\\ud800") cannot be encoded for the database or the
    hasher: allauth's own JSON log-in (it parses its bodies itself) answered with a 500."""
    victim = new_player()
    values = {"username": victim.username, "password": PASSWORD, field: "\ud800" + PASSWORD}
    assert authenticate(HttpRequest(), **values) is None
    body = json.dumps(values)  # ASCII, with the escape
    assert "\\ud800" in body
    response = Client().post(
        "/_allauth/browser/v1/auth/login", body, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert response["Content-Type"].startswith("application/json")
    # and the victim still logs in
    assert authenticate(HttpRequest(), username=victim.username, password=PASSWORD) == victim


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["username", "password", "email"])
def test_allauths_json_sign_up_refuses_a_lone_surrogate_with_a_400(field: str) -> None:
    """allauth reads its JSON bodies itself: a long enough password with a lone surrogate
    passed its checks and reached the hasher, which cannot encode it (a 500)."""
    body = {"username": "surrogate", "password": "a long enough passphrase 42", "email": ""}
    body[field] = {"username": "ab\ud800cd", "password": "a long enough passphrase \ud800 42"}.get(
        field, "a\ud800@example.org"
    )
    response = Client().post(
        "/_allauth/browser/v1/auth/signup", json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 400, response.content
    (error,) = response.json()["errors"]
    assert "surrogate" in error["message"]
    assert not User.objects.filter(username="surrogate").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "route", ["auth/login", "auth/signup", "auth/password/request", "auth/password/reset"]
)
@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("[" * 1500 + "]" * 1500, "nested too deeply"),  # 3 KB: RecursionError in json.loads
        ('{"username": ' + "7" * 4301 + "}", "4300"),  # int() refuses 4,300+ digits
    ],
    ids=["too-deep", "long-integer"],
)
def test_allauths_json_routes_answer_a_body_python_cannot_decode_with_a_400(
    route: str, body: str, says: str
) -> None:
    """allauth catches only a syntax error in its JSON: a body nested 1,500 deep or a number
    of 4,301 digits (both valid JSON) was a 500, with the traceback under DEBUG, from any
    guest with a CSRF cookie."""
    response = Client().post(f"/_allauth/browser/v1/{route}", body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    (error,) = response.json()["errors"]
    assert says in error["message"]


@pytest.mark.django_db
def test_behind_a_proxy_one_addresss_wrong_passwords_block_only_that_address(
    backoff: dict[str, int], settings: Any
) -> None:
    """Behind docker-compose's proxy (NUM_PROXIES=1) allauth counted its per-address limit
    on REMOTE_ADDR, the proxy's: 30 wrong passwords a minute from one attacker blocked
    every log-in on the site, and the API's log-in then told the blocked a right password
    was wrong (400). settings.py gives allauth NUM_PROXIES as its trusted proxy count."""
    settings.NUM_PROXIES = settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    settings.ACCOUNT_RATE_LIMITS = {"login_failed": "3/m/ip"}
    settings.LOGIN_BACKOFF_FREE_FAILURES = 100  # only the per-address limit is in play
    victim = new_player()
    attacker, player = f"198.51.100.{uuid.uuid4().int % 250}", "203.0.113.7"

    def log_in_via(forwarded: str, username: str, password: str) -> Any:
        return Client(REMOTE_ADDR="172.18.0.2").post(  # the proxy's own address
            "/api/auth/login/",
            json.dumps({"username": username, "password": password}),
            content_type="application/json",
            HTTP_X_FORWARDED_FOR=forwarded,
        )

    for i in range(4):
        log_in_via(f"10.0.0.{i}, {attacker}", f"nobody{i}", "wrong guess")
    assert log_in_via(player, victim.username, PASSWORD).status_code == 200
    refused = log_in_via(attacker, victim.username, PASSWORD)
    assert refused.status_code == 429, refused.content
    assert "Wrong" not in refused.json()["detail"]
