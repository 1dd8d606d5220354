"""Budgets of costly calls (apikit/budgets.py): new practice games, hints, "still winnable?"
and analyses are limited per player (a guest: per session) and per client address, in calls
and in solver seconds, with a 429 and Retry-After; on Redis and on the local-memory cache.

The global conftest lifts these limits; each test here sets its own, or the real defaults.
"""

from __future__ import annotations

import datetime as dt
import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.utils import timezone

from analysis.models import GameAnalysis
from analysis.serializers import summary
from analysis.services import sweep_analyses
from apikit.budgets import (
    Window,
    address_ident,
    parse_limits,
    player_ident,
    solver_seconds_charged,
)
from tests.factories import closed_port, make_user
from tests.games.conftest import _celery_in_process  # noqa: F401 (autouse: tasks in-process)
from yukon_site import settings as site_settings

pytestmark = pytest.mark.django_db

# Deals whose start the solver leaves undecided within a hint's budget (undecided at a million
# positions: docs/odds.md, solver version 9's study): a hint there spends all of HINT_SECONDS,
# and "unknown" is never cached, so every such hint costs the solver its whole budget.
UNDECIDED = [59, 61, 65, 71, 75, 166, 184, 232, 252, 289, 296, 306, 319, 325, 335, 377]
HOME = "127.0.0.1"


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.redis), "locmem"])
def backend(request: pytest.FixtureRequest, settings: Any) -> Iterator[str]:
    """Counted in Redis (production), or in the local-memory cache (`make run` without it)."""
    if request.param == "locmem":
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": f"budgets-{uuid.uuid4().hex}",
            }
        }
    else:
        assert settings.CACHES["default"]["BACKEND"] == "yukon_site.cache.ResilientRedisCache"
    cache.clear()
    yield request.param
    cache.clear()


def limits(settings: Any, **chosen: str) -> None:
    """Only the ``chosen`` budgets (a scope of COSTLY_CALL_LIMITS each); the rest unlimited."""
    settings.COSTLY_CALL_LIMITS = chosen


def call(client: Client, method: str, url: str, data: Any = None, address: str = HOME) -> Any:
    kwargs: dict[str, Any] = {"REMOTE_ADDR": address, "HTTP_ACCEPT": "application/json"}
    if data is not None:
        kwargs |= {"data": json.dumps(data), "content_type": "application/json"}
    response = getattr(client, method)(url, **kwargs)
    assert response.status_code < 500, response.content
    return response


def start(client: Client, deal: int, address: str = HOME) -> int:
    response = call(client, "post", "/api/games/", {"deal": deal}, address)
    assert response.status_code == 201, response.content
    return int(response.json()["id"])


def assert_over_budget(response: Any, limit: str, per: str) -> int:
    """A 429 naming the budget that is spent, whose, and when it opens again."""
    assert response.status_code == 429, response.content
    body = response.json()
    assert (body["limit"], body["per"]) == (limit, per), body
    assert int(response["Retry-After"]) == body["retry_after"] >= 1
    assert body["detail"].endswith(f"try again in {body['retry_after']} s"), body
    return int(body["retry_after"])


def guest_charged(client: Client) -> dict[int, float]:
    return solver_seconds_charged("player", player_ident(None, client.session.session_key) or "")


def statuses(responses: list[Any]) -> list[int]:
    return [response.status_code for response in responses]


@pytest.mark.slow
def test_a_guests_flood_of_games_and_hints_is_stopped_within_a_few_solver_seconds(
    backend: str, settings: Any
) -> None:
    """The issue's flood, with the real limits and HINT_SECONDS: one guest starts 16
    practice games at once and asks a hint in each, on deals where every hint spends the
    solver's whole budget."""
    settings.COSTLY_CALL_LIMITS = dict(site_settings.COSTLY_CALL_LIMITS)  # the defaults
    games_per_minute = parse_limits(settings.COSTLY_CALL_LIMITS["games"])[0]
    seconds_per_minute = parse_limits(settings.COSTLY_CALL_LIMITS["solver_seconds"])[0]
    assert games_per_minute.seconds == seconds_per_minute.seconds == 60
    guest = Client()
    cpu_before = time.process_time()

    starts = [call(guest, "post", "/api/games/", {"deal": deal}) for deal in UNDECIDED]
    created = [response.json()["id"] for response in starts if response.status_code == 201]
    assert len(created) == games_per_minute.limit < len(UNDECIDED)
    for response in starts[len(created) :]:
        assert_over_budget(response, "games", "player")

    hints = [call(guest, "get", f"/api/games/{created[n % len(created)]}/hint/") for n in range(16)]
    served = statuses(hints).count(200)
    assert statuses(hints) == [200] * served + [429] * (16 - served)
    for response in hints[served:]:
        assert_over_budget(response, "solver_seconds", "player")

    charged = guest_charged(guest)[60]
    cpu = time.process_time() - cpu_before
    # A call may start while the budget is not quite spent, so one hint's worth over it.
    bound = seconds_per_minute.limit + settings.HINT_SECONDS + 0.5
    print(
        f"\nflood ({backend}): {len(created)} games, {served} hints served, "
        f"{charged:.2f} solver-seconds charged, {cpu:.2f} s CPU in all"
    )
    assert seconds_per_minute.limit <= charged <= bound
    assert cpu <= bound + 3  # measured apart from the budget's own count: the whole process
    assert solver_seconds_charged("address", HOME)[60] == charged


def test_new_games_are_limited_per_guest_and_per_address(backend: str, settings: Any) -> None:
    limits(settings, games="3/min", games_address="5/min")
    guest = Client()
    for _ in range(3):
        start(guest, 0, "10.0.0.1")
    assert_over_budget(
        call(guest, "post", "/api/games/", {"deal": 0}, "10.0.0.1"), "games", "player"
    )
    # Fresh guests from the same address share its limit (a cleared cookie is a new guest).
    # (Refused calls count too: the guest's fourth was the address's fourth.)
    other = Client()
    start(other, 0, "10.0.0.1")
    refused = call(Client(), "post", "/api/games/", {"deal": 0}, "10.0.0.1")
    assert_over_budget(refused, "games_address", "address")
    assert "from your network address" in refused.json()["detail"]
    start(Client(), 0, "10.0.0.2")  # another address is not affected
    # A ranked start is not a practice game and is not budgeted.
    player = Client()
    player.force_login(make_user("ranked"))
    response = call(player, "post", "/api/games/", {"daily": "easy"}, "10.0.0.1")
    assert response.status_code == 404, response.content  # no challenge today, and no 429


def test_asking_again_for_a_practice_deal_not_ready_yet_spends_no_new_game(
    backend: str, settings: Any
) -> None:
    """With no pooled deal ready, the practice page (and the end dialog) asks again after
    each 503's Retry-After; every try counted as a new game, so a player who waited a
    minute for a medium deal was then refused any game for the rest of it (429)."""
    limits(settings, games="3/min", games_address="5/min")
    settings.PRACTICE_POOL_FILL_ON_REQUEST = False  # the pool stays empty: each try is a 503
    guest = Client()
    for _ in range(8):
        response = guest.post(
            "/api/games/", {"practice": "medium"}, "application/json", REMOTE_ADDR="10.0.0.7"
        )
        assert response.status_code == 503 and response.json()["retry_after"] >= 1
    for _ in range(3):  # the guest's whole count is still there, and the address's
        start(guest, 0, "10.0.0.7")
    assert_over_budget(
        call(guest, "post", "/api/games/", {"deal": 0}, "10.0.0.7"), "games", "player"
    )


def test_a_call_that_outlives_its_window_gives_nothing_back_to_the_next(
    backend: str, settings: Any
) -> None:
    """A practice tier's 503 gives its count back, and a call that spent less than it held
    gives the rest back; made after the call's window ended, that change took from the next
    window's counter, down to -2 for three such calls, and six games passed a limit of 3."""
    from django.test import RequestFactory

    from apikit.budgets import start_costly_call

    limits(settings, games="3/s", solver_seconds="1000/s")
    request = RequestFactory().post("/api/games/", REMOTE_ADDR="10.0.0.9")
    request.user = make_user("late")
    late = [start_costly_call(request, "games", hold_seconds=0.5) for _ in range(3)]
    time.sleep(1.1)  # the window ends while the three are still at work
    start_costly_call(request, "games")  # the next window's first call
    for charge in late:
        charge.uncount()  # each came to nothing (a 503)
        charge.settle(0.0)  # and spent none of the time it held
    player = player_ident(request.user.pk, None)
    assert cache.get(f"costly:games:{player}:1") == 1
    assert cache.get(f"costly:solver_seconds:{player}:1") == 0


@pytest.mark.slow
def test_guests_from_one_address_share_its_solver_seconds(backend: str, settings: Any) -> None:
    settings.HINT_SECONDS = 0.2
    limits(settings, solver_seconds="100/min", solver_seconds_address="1/min")
    # A new guest (session) for each question. (Their games first: with the address's
    # solver seconds spent, a new practice game is refused too.)
    guests = [
        (guest, start(guest, deal, "10.1.2.3"))
        for guest, deal in zip([Client() for _ in range(9)], UNDECIDED, strict=False)
    ]
    answers = [
        call(guest, "get", f"/api/games/{game}/hint/", address="10.1.2.3") for guest, game in guests
    ]
    served = statuses(answers).count(200)
    assert statuses(answers) == [200] * served + [429] * (9 - served)
    assert 4 <= served <= 6  # 0.2 s each, about 1 s in all, whichever guest asks
    assert_over_budget(answers[-1], "solver_seconds_address", "address")
    assert 1.0 <= solver_seconds_charged("address", "10.1.2.3")[60] <= 1.0 + 0.5
    guest = Client()  # another address is not affected
    game = start(guest, UNDECIDED[0], "10.1.2.4")
    assert call(guest, "get", f"/api/games/{game}/hint/", address="10.1.2.4").status_code == 200


def test_an_ipv6_address_counts_as_its_64_block(backend: str, settings: Any) -> None:
    assert address_ident("2001:db8:1:2::1") == address_ident("2001:db8:1:2:ffff::9")
    assert address_ident("2001:db8:1:2::1") != address_ident("2001:db8:1:3::1")
    assert address_ident("::ffff:10.0.0.7") == "10.0.0.7"
    limits(settings, games_address="2/min")
    start(Client(), 0, "2001:db8:1:2::1")
    start(Client(), 0, "2001:db8:1:2::2")
    refused = call(Client(), "post", "/api/games/", {"deal": 0}, "2001:db8:1:2:abcd::3")
    assert_over_budget(refused, "games_address", "address")
    start(Client(), 0, "2001:db8:1:3::1")


@pytest.mark.slow
def test_a_players_budgets_follow_them_across_addresses(backend: str, settings: Any) -> None:
    settings.HINT_SECONDS = 0.2
    limits(settings, hints="3/min", solver_seconds="1/min")
    wanderer = make_user("wanderer")
    player = Client()
    player.force_login(wanderer)
    cheap = start(player, 0)  # deal 0: solved at once, and then cached
    asked = [
        call(player, "get", f"/api/games/{cheap}/hint/", address=f"10.9.0.{n}") for n in range(5)
    ]
    assert statuses(asked) == [200, 200, 200, 429, 429]
    assert_over_budget(asked[-1], "hints", "player")
    # Solver seconds too: "still winnable?" on undecided deals, from a new address each time.
    games = [start(player, deal) for deal in UNDECIDED[:9]]
    checks = [
        call(player, "get", f"/api/games/{game}/winnable/", address=f"10.8.0.{n}")
        for n, game in enumerate(games)
    ]
    served = statuses(checks).count(200)
    assert statuses(checks) == [200] * served + [429] * (9 - served) and served <= 6
    assert_over_budget(checks[-1], "solver_seconds", "player")
    charged = solver_seconds_charged("player", player_ident(wanderer.pk, None) or "")[60]
    assert 1.0 <= charged <= 1.0 + 0.5
    # Another player at those addresses is not affected.
    other = Client()
    other.force_login(make_user("neighbour"))
    game = start(other, 0, "10.9.0.1")
    assert call(other, "get", f"/api/games/{game}/hint/", address="10.9.0.1").status_code == 200


def test_still_winnable_is_limited_apart_from_hints(backend: str, settings: Any) -> None:
    limits(settings, winnable="2/min", winnable_address="100/min")
    guest = Client()
    game = start(guest, 0)
    checks = [call(guest, "get", f"/api/games/{game}/winnable/") for _ in range(3)]
    assert statuses(checks) == [200, 200, 429]
    assert_over_budget(checks[-1], "winnable", "player")
    assert '"still winnable?" checks' in checks[-1].json()["detail"]
    assert call(guest, "get", f"/api/games/{game}/hint/").status_code == 200


@pytest.mark.django_db(transaction=True)  # a finished game is verified and analysed on commit
def test_analysis_requests_are_limited(backend: str, settings: Any) -> None:
    limits(settings, analysis="2/min")
    guest = Client()
    game = start(guest, 24)  # lost from the start: analysed at once when resigned
    assert call(guest, "post", f"/api/games/{game}/resign/").status_code == 200
    reads = [call(guest, "get", f"/api/games/{game}/analysis/") for _ in range(3)]
    assert statuses(reads) == [200, 200, 429]
    assert_over_budget(reads[-1], "analysis", "player")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_an_analysis_run_for_a_request_is_charged_and_refused_once_spent(
    backend: str, settings: Any
) -> None:
    """Without a worker, an analysis that is not there yet runs in the request that asks
    for it (tests run tasks in-process): its solver time goes on the caller's budget, and
    with the budget spent it is refused before it starts."""
    settings.ANALYSIS_ON_FINISH = False  # analysed when first asked for, not when finished
    settings.ANALYSIS_SOLVE_SECONDS = 0.3
    settings.HINT_SECONDS = 0.3
    limits(settings, solver_seconds="1/min")
    guest = Client()
    first, second = start(guest, UNDECIDED[0]), start(guest, UNDECIDED[1])
    for game in (first, second):
        assert call(guest, "post", f"/api/games/{game}/resign/").status_code == 200
    read = call(guest, "get", f"/api/games/{first}/analysis/")
    assert read.status_code == 200 and read.json()["status"] == "done", read.content
    assert guest_charged(guest)[60] >= 0.25  # its probe of the undecided start
    while guest_charged(guest)[60] < 1.0:  # spend the rest on hints
        third = start(guest, UNDECIDED[2])
        assert call(guest, "get", f"/api/games/{third}/hint/").status_code == 200
    refused = call(guest, "get", f"/api/games/{second}/analysis/")
    assert_over_budget(refused, "solver_seconds", "player")
    assert not GameAnalysis.objects.filter(game_id=second).exists()  # never started


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_analysis_of_a_finished_practice_game_is_charged_and_waits_once_spent(
    backend: str, settings: Any
) -> None:
    """The analysis a practice game gets when it ends runs in a worker, after the request:
    guests starting games on undecided deals and resigning them at once had it free (about
    4 solver-seconds a game, 30 at most), past every budget. It goes on the budgets of the
    player and address that started the game, and waits while either is spent."""
    settings.ANALYSIS_SOLVE_SECONDS = 0.3
    limits(settings, solver_seconds="1/min", solver_seconds_address="2/min")
    scout, other = Client(), Client()
    # games started while the budgets are open (a spent budget refuses new ones)
    scouts = [start(scout, deal) for deal in UNDECIDED[:6]]
    others = [start(other, deal) for deal in UNDECIDED[6:12]]
    resigned = []
    while guest_charged(scout).get(60, 0) < 1.0:
        assert scouts, "the analyses were never charged"
        game = scouts.pop()
        assert call(scout, "post", f"/api/games/{game}/resign/").status_code == 200
        assert GameAnalysis.objects.get(game_id=game).status == "done"
        resigned.append(game)
    assert len(resigned) <= 4  # at least 0.3 s each (a probe of the undecided start)
    assert solver_seconds_charged("address", HOME)[60] == guest_charged(scout)[60]
    # the scout's budget is spent: its next game ends without an analysis, at no cost
    cpu_before = time.process_time()
    waiting = scouts.pop()
    assert call(scout, "post", f"/api/games/{waiting}/resign/").status_code == 200
    assert time.process_time() - cpu_before < 0.25
    assert GameAnalysis.objects.get(game_id=waiting).status == "deferred"
    # another guest of the same address (its own budget open) spends the address's, then
    # waits too
    limits(settings, solver_seconds="100/min", solver_seconds_address="2/min")
    while solver_seconds_charged("address", HOME)[60] < 2.0:
        assert others, "the address was never charged"
        game = others.pop()
        assert call(other, "post", f"/api/games/{game}/resign/").status_code == 200
    late = others.pop()
    assert call(other, "post", f"/api/games/{late}/resign/").status_code == 200
    assert GameAnalysis.objects.get(game_id=late).status == "deferred"
    # a look at it meanwhile is refused for the same budget; its summary says it waits
    refused = call(scout, "get", f"/api/games/{waiting}/analysis/")
    assert_over_budget(refused, "solver_seconds_address", "address")
    assert "waits" in summary(GameAnalysis.objects.get(game_id=waiting))
    # the sweeper leaves a deferred analysis a few minutes, then tries it again; so does a
    # look at it, once a minute: with the budgets open again, it runs
    assert sweep_analyses(queue=lambda game_id: None)["deferred"] == 0
    limits(settings, solver_seconds="100/min", solver_seconds_address="100/min")
    earlier = timezone.now() - dt.timedelta(minutes=2)
    GameAnalysis.objects.filter(game_id=waiting).update(updated_at=earlier)
    read = call(scout, "get", f"/api/games/{waiting}/analysis/")
    assert read.status_code == 200 and read.json()["status"] == "done", read.content


@pytest.mark.slow
def test_a_refused_call_costs_no_solver_time(backend: str, settings: Any) -> None:
    settings.HINT_SECONDS = 0.2
    limits(settings, hints="3/min", solver_seconds="100/min")
    guest = Client()
    game = start(guest, UNDECIDED[0])
    for _ in range(3):
        assert call(guest, "get", f"/api/games/{game}/hint/").status_code == 200
    charged = guest_charged(guest)[60]
    assert charged >= 3 * 0.15
    cpu_before = time.process_time()
    for _ in range(5):  # refused for their count: the solver's hold is given back
        assert_over_budget(call(guest, "get", f"/api/games/{game}/hint/"), "hints", "player")
    assert time.process_time() - cpu_before < 0.5  # five answers, no search
    assert guest_charged(guest)[60] == charged
    # Refused for the solver's time: no search, no hint counted in the game.
    limits(settings, solver_seconds=f"{int(charged)}/min")
    hints_used = call(guest, "get", f"/api/games/{game}/").json()["hints_used"]
    for _ in range(3):
        refused = call(guest, "get", f"/api/games/{game}/winnable/")
        assert_over_budget(refused, "solver_seconds", "player")
    assert guest_charged(guest)[60] == charged
    assert call(guest, "get", f"/api/games/{game}/").json()["hints_used"] == hints_used == 3


@pytest.mark.slow
def test_the_limits_open_again_after_their_window(backend: str, settings: Any) -> None:
    settings.HINT_SECONDS = 0.2
    limits(settings, hints="2/2s")
    guest = Client()
    cheap = start(guest, 0)
    assert (
        statuses([call(guest, "get", f"/api/games/{cheap}/hint/") for _ in range(2)]) == [200] * 2
    )
    wait = assert_over_budget(call(guest, "get", f"/api/games/{cheap}/hint/"), "hints", "player")
    assert wait <= 2
    time.sleep(wait + 0.05)
    assert call(guest, "get", f"/api/games/{cheap}/hint/").status_code == 200

    # A window of its own length: a fresh counter, not the one the hints above opened.
    # Each question spends up to HINT_SECONDS of the clock but is charged its CPU time,
    # less on a busy machine: ask until the second of CPU is spent, within the window.
    limits(settings, solver_seconds="1/10s")
    costly = start(guest, UNDECIDED[0])
    answers = [call(guest, "get", f"/api/games/{costly}/winnable/")]
    while answers[-1].status_code != 429 and len(answers) < 60:
        answers.append(call(guest, "get", f"/api/games/{costly}/winnable/"))
    assert statuses(answers[:-1]) == [200] * (len(answers) - 1), statuses(answers)
    wait = assert_over_budget(answers[-1], "solver_seconds", "player")
    assert wait <= 10
    time.sleep(wait + 0.05)
    assert call(guest, "get", f"/api/games/{costly}/winnable/").status_code == 200


@pytest.mark.redis
def test_with_redis_down_the_budgets_open_and_close_again_when_it_is_back(settings: Any) -> None:
    """Like the other rate limits: players keep playing while Redis is away."""
    live = settings.CACHES
    settings.CACHES = {
        "default": {
            "BACKEND": "yukon_site.cache.ResilientRedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
        }
    }
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"
    limits(settings, games="1/min", hints="1/min", solver_seconds="1/min")
    guest = Client()
    game = start(guest, 0)
    start(guest, 0)
    for _ in range(2):
        assert call(guest, "get", f"/api/games/{game}/hint/").status_code == 200
    settings.CACHES = live
    cache.clear()
    assert call(guest, "get", f"/api/games/{game}/hint/").status_code == 200
    assert_over_budget(call(guest, "get", f"/api/games/{game}/hint/"), "hints", "player")


def test_limits_read_like_rates() -> None:
    assert parse_limits("6/min,60/hour") == [Window(6, 60), Window(60, 3600)]
    assert parse_limits("3/10s") == [Window(3, 10)]
    assert parse_limits("1/day, 100000/s") == [Window(1, 86400), Window(100000, 1)]
    assert parse_limits("") == []
    with pytest.raises(ImproperlyConfigured):
        parse_limits("lots")


def test_the_schema_declares_429_with_retry_after_on_costly_operations(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = json.loads(response.content)["paths"]
    for path, method in [
        ("/api/games/", "post"),
        ("/api/games/{game_id}/hint/", "get"),
        ("/api/games/{game_id}/winnable/", "get"),
        ("/api/games/{game_id}/analysis/", "get"),
    ]:
        answer = paths[path][method]["responses"]["429"]
        assert "Retry-After" in answer["headers"], (path, answer)
        assert "budget" in answer["description"], (path, answer)
    assert "429" not in paths["/api/games/"]["get"]["responses"]
