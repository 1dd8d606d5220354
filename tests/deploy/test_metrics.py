"""/metrics: closed without its token; moves accepted and refused by reason (both move
paths), latency by route with bounded labels, verification lag, task failures (from a
real Celery worker, another process), queue length, tomorrow's dailies, Redis
fallbacks; and under a real gunicorn with several workers, totals that do not depend on
which process answers the scrape."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from apikit.throttles import MoveThrottle
from games import services
from games.models import Game, utc_today
from tests.factories import make_challenges, make_user, winning_lines
from tests.faults.server import Browser, collected_static, gunicorn, local_http
from tests.workers import own_queue, start_worker, stop
from yukon_site.cache import ResilientRedisCache

TOKEN = "metrics-test-token-" + "q8Zr" * 6
AUTH: dict[str, Any] = {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}"}
LINE = winning_lines()[68]

pytestmark = pytest.mark.django_db

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def parse(text: str) -> Samples:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def metrics_on(settings: Any) -> None:
    settings.METRICS_TOKEN = TOKEN


def scrape(client: Client) -> Samples:
    response = client.get("/metrics", **AUTH)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=")
    return parse(response.content.decode())


def move(client: Client, game_id: int, ply: int, text: str, **extra: Any) -> Any:
    return client.post(
        f"/api/games/{game_id}/moves/",
        {"ply": ply, "move": text},
        content_type="application/json",
        **extra,
    )


@pytest.fixture
def player_client(client: Client) -> Iterator[Client]:
    user = make_user("metered")
    client.force_login(user)
    yield client
    # the move limit's count outlives the test; the next test's player may have this id
    cache.delete(MoveThrottle.window_key(f"u{user.pk}", 1))


def practice_game(client: Client) -> int:
    response = client.post("/api/games/", {"deal": 68}, content_type="application/json")
    assert response.status_code == 201, response.content
    return int(response.json()["id"])


# ----- closed to the public ---------------------------------------------------------------


def test_without_a_configured_token_the_endpoint_is_off_for_everyone(
    client: Client, settings: Any
) -> None:
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404
    assert client.get("/metrics", **AUTH).status_code == 404


@pytest.mark.usefixtures("metrics_on")
@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "Bearer",
        "Bearer ",
        f"Basic {TOKEN}",
        f"Bearer {TOKEN}x",
        f"Bearer {TOKEN[:-1]}",
        f"Bearer {TOKEN.upper()}",
        TOKEN,
        "Bearer " + "x" * 10_000,
    ],
)
def test_a_missing_or_wrong_token_is_refused(client: Client, header: str | None) -> None:
    extra: dict[str, Any] = {} if header is None else {"HTTP_AUTHORIZATION": header}
    response = client.get("/metrics", **extra)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert b"yukon_" not in response.content and b"django_" not in response.content


@pytest.mark.usefixtures("metrics_on")
def test_the_right_token_gets_the_figures_and_only_by_get(client: Client) -> None:
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"bearer {TOKEN}").status_code == 200
    assert client.post("/metrics", **AUTH).status_code == 405
    samples = scrape(client)
    assert value(samples, "yukon_daily_tiers") == 3
    assert value(samples, "yukon_scrape_source_up", source="database") == 1


def test_a_short_token_stops_start_up() -> None:
    import subprocess
    import sys

    from tests.faults.server import ROOT

    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
            "METRICS_TOKEN": "short",
        },
    )
    assert result.returncode != 0 and "METRICS_TOKEN" in result.stderr


# ----- moves, by outcome ------------------------------------------------------------------


@pytest.mark.usefixtures("metrics_on")
def test_moves_accepted_and_refused_by_reason_on_both_paths(
    player_client: Client, settings: Any
) -> None:
    client = player_client
    before = scrape(client)
    game_id = practice_game(client)

    assert move(client, game_id, 0, LINE[0]).status_code == 200  # the direct path
    raw = f'{{"ply": "1", "move": "{LINE[1]}"}}'  # a string ply: DRF's MoveView answers
    response = client.post(f"/api/games/{game_id}/moves/", raw, content_type="application/json")
    assert response.status_code == 200, response.content
    assert move(client, game_id, 2, "Kh>F").status_code == 400  # illegal
    assert (
        client.post(
            f"/api/games/{game_id}/moves/", '{"ply": 2}', content_type="application/json"
        ).status_code
        == 400
    )  # invalid: no move
    assert move(client, game_id, 0, LINE[2]).status_code == 409  # stale ply
    assert move(client, 10**9, 0, LINE[0]).status_code == 404
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "moves": "1/min",
        },
    }
    assert move(client, game_id, 2, LINE[2]).status_code in (200, 429)
    assert move(client, game_id, 3, LINE[3]).status_code == 429

    after = scrape(client)

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    accepted = delta("yukon_moves_accepted_total")
    assert accepted in (2, 3)
    assert delta("yukon_moves_refused_total", reason="illegal") == 1
    assert delta("yukon_moves_refused_total", reason="invalid") == 1
    assert delta("yukon_moves_refused_total", reason="stale_ply") == 1
    assert delta("yukon_moves_refused_total", reason="not_found") == 1
    assert delta("yukon_moves_refused_total", reason="rate_limited") == 4 - accepted
    # the route's latency, by the URL pattern's name, never the path with its id
    assert (
        delta(
            "django_http_requests_latency_seconds_by_view_method_count",
            view="api:moves",
            method="POST",
        )
        == 8
    )
    assert not any(str(game_id) in dict(labels).get("view", "") for _, labels in after)


@pytest.mark.usefixtures("metrics_on")
def test_a_move_on_a_finished_game_is_counted_as_game_over(
    player_client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    client = player_client
    game_id = practice_game(client)
    with django_capture_on_commit_callbacks(execute=True):
        for ply, text in enumerate(LINE):
            assert move(client, game_id, ply, text).status_code == 200
    before = scrape(client)
    assert move(client, game_id, len(LINE), LINE[-1]).status_code == 409
    after = scrape(client)
    reason = {"reason": "game_over"}
    assert (
        value(after, "yukon_moves_refused_total", **reason)
        - value(before, "yukon_moves_refused_total", **reason)
        == 1
    )


@pytest.mark.usefixtures("metrics_on")
@pytest.mark.parametrize("language", ["en", "de"])  # the service's word, not the answer's
def test_a_move_on_a_closed_day_is_counted_as_day_closed(
    player_client: Client, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    client = player_client
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    make_challenges(numbers={"easy": 68, "medium": 1, "hard": 0})
    game = client.post("/api/games/", {"daily": "easy"}, content_type="application/json")
    assert game.status_code == 201, game.content
    game_id = game.json()["id"]
    assert move(client, game_id, 0, LINE[0]).status_code == 200
    before = scrape(client)
    after_midnight = dt.datetime.combine(
        utc_today() + dt.timedelta(days=1), dt.time(0, 0, 1), tzinfo=dt.UTC
    )
    monkeypatch.setattr(timezone, "now", lambda: after_midnight)
    refused = move(client, game_id, 1, LINE[1])
    assert refused.status_code == 409
    assert ("day closed" in refused.json()["detail"]) == (language == "en")
    after = scrape(client)
    reason = {"reason": "day_closed"}
    assert (
        value(after, "yukon_moves_refused_total", **reason)
        - value(before, "yukon_moves_refused_total", **reason)
        == 1
    )


@pytest.mark.usefixtures("metrics_on")
def test_invented_methods_do_not_make_new_series(client: Client) -> None:
    for method in ("FOOBAR", "PROPFINDX", "ZZZQQQ"):
        client.generic(method, "/api/daily/")
    text = client.get("/metrics", **AUTH).content.decode()
    assert "FOOBAR" not in text and "ZZZQQQ" not in text
    assert 'method="<invalid method>"' in text


# ----- verification lag, task failures, queue, dailies, fallbacks -----------------------


@pytest.mark.slow
@pytest.mark.usefixtures("metrics_on")
def test_verification_lag_is_observed_when_a_game_is_verified(
    player_client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    client = player_client
    before = scrape(client)
    game_id = practice_game(client)
    for ply, text in enumerate(LINE):  # no on-commit here: verification waits
        assert move(client, game_id, ply, text).status_code == 200
    earlier = dt.timedelta(seconds=45)  # finished 45 s ago (its times stay consistent)
    game = Game.objects.get(pk=game_id)
    assert game.finished_at is not None
    Game.objects.filter(pk=game_id).update(
        started_at=game.started_at - earlier, finished_at=game.finished_at - earlier
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert services.verify_game(game_id) == "verified"
    after = scrape(client)

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    lag = "yukon_verification_lag_seconds"
    assert delta(f"{lag}_count") == 1
    assert delta(f"{lag}_bucket", le="30.0") == 0
    assert delta(f"{lag}_bucket", le="60.0") == 1
    assert delta(f"{lag}_bucket", le="+Inf") == 1
    assert 45 <= delta(f"{lag}_sum") < 60


@pytest.mark.usefixtures("metrics_on")
def test_games_waiting_for_verification_and_the_oldest_wait(
    player_client: Client,
) -> None:
    client = player_client
    game_id = practice_game(client)
    for ply, text in enumerate(LINE):  # no on-commit: verification never runs
        assert move(client, game_id, ply, text).status_code == 200
    finished_at = Game.objects.get(pk=game_id).finished_at
    assert finished_at is not None
    Game.objects.filter(pk=game_id).update(finished_at=finished_at - dt.timedelta(minutes=10))
    samples = scrape(client)
    assert value(samples, "yukon_verification_pending_games") >= 1
    assert value(samples, "yukon_verification_pending_oldest_seconds") >= 600


@pytest.mark.usefixtures("metrics_on")
def test_tomorrows_dailies_are_counted(client: Client) -> None:
    assert value(scrape(client), "yukon_daily_challenges_ready", day="tomorrow") == 0
    make_challenges(utc_today() + dt.timedelta(days=1), numbers={"easy": 5, "medium": 6, "hard": 7})
    samples = scrape(client)
    assert value(samples, "yukon_daily_challenges_ready", day="tomorrow") == 3
    assert value(samples, "yukon_daily_challenges_ready", day="today") == 0


@pytest.mark.usefixtures("metrics_on")
def test_redis_fallbacks_are_counted(client: Client, settings: Any) -> None:
    before = scrape(client)
    dead = ResilientRedisCache(
        "redis://127.0.0.1:1/0", {"OPTIONS": {"socket_connect_timeout": 0.1}}
    )
    assert dead.get("anything") is None
    settings.LEADERBOARDS_REDIS_URL = "redis://127.0.0.1:1/0"
    make_challenges()
    response = client.get(f"/api/leaderboards/daily/{utc_today().isoformat()}/easy/")
    assert response.status_code == 200, response.content
    after = scrape(client)
    for component in ("cache", "leaderboard"):
        name, labels = "yukon_redis_fallbacks_total", {"component": component}
        assert value(after, name, **labels) - value(before, name, **labels) >= 1, component


@pytest.mark.redis
@pytest.mark.usefixtures("metrics_on")
def test_queue_length_is_read_from_the_broker(client: Client, settings: Any) -> None:
    from games.tasks import verify_game

    with own_queue() as queue:
        settings.CELERY_TASK_DEFAULT_QUEUE = queue
        try:
            assert value(scrape(client), "yukon_celery_queue_length", queue=queue) == 0
            for game_id in (1, 2, 3):
                verify_game.apply_async((game_id,), queue=queue)
            assert value(scrape(client), "yukon_celery_queue_length", queue=queue) == 3
        finally:
            redis.Redis.from_url(settings.REDIS_URL).delete(queue)


# ----- a real worker and a real gunicorn ---------------------------------------------------


@pytest.mark.celery
@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("metrics_on")
def test_task_failures_in_the_worker_process_reach_the_webs_scrape(
    client: Client, tmp_path: Path
) -> None:
    from games.tasks import prepare_daily

    name = "yukon_celery_task_failures_total"
    before = value(scrape(client), name, task="games.prepare_daily")
    with own_queue() as queue:
        worker = start_worker(queue, tmp_path / "worker.log")
        try:
            for _ in range(2):
                prepare_daily.delay("not-a-date")
            # no result is kept (CELERY_TASK_IGNORE_RESULT): the scrape is what tells
            deadline = time.monotonic() + 60
            while value(scrape(client), name, task="games.prepare_daily") - before < 2:
                assert time.monotonic() < deadline, (tmp_path / "worker.log").read_text()
                time.sleep(0.2)
        finally:
            stop(worker)
    assert value(scrape(client), name, task="games.prepare_daily") - before == 2
    assert (tmp_path / "worker.log").read_text().count("ValueError") >= 2


@contextlib.contextmanager
def served(tmp_path: Path, workers: int = 3, **env: str) -> Iterator[str]:
    with gunicorn(
        tmp_path / "gunicorn.log",
        collected_static(),
        workers=workers,
        METRICS_TOKEN=TOKEN,
        THROTTLE_MOVES="1000/s",
        **env,
    ) as base:
        yield base


def scrape_http(base: str) -> Samples:
    with local_http() as http:
        response = http.get(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200, response.text
    return parse(response.text)


def gunicorn_workers(log_path: Path) -> list[int]:
    import re

    return [int(pid) for pid in re.findall(r"Booting worker with pid: (\d+)", log_path.read_text())]


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_under_gunicorn_every_scrape_sees_the_totals_of_all_workers(tmp_path: Path) -> None:
    make_challenges(numbers={"easy": 68, "medium": 1, "hard": 0})
    with served(tmp_path) as base:
        for header in ({}, {"Authorization": "Bearer wrong-token-wrong-token-wrong"}):
            refused = httpx.get(f"{base}/metrics", headers=header)
            assert refused.status_code == 401 and "yukon_" not in refused.text
        tab = Browser(base)
        tab.sign_up("scraped")
        game = tab.post("/api/games/", {"daily": "easy"}).json()
        played = 20
        for ply, text in enumerate(LINE[:played]):
            response = tab.post(f"/api/games/{game['id']}/moves/", {"ply": ply, "move": text})
            assert response.status_code == 200, response.text
            assert "x-request-id" in response.headers
        stale = tab.post(f"/api/games/{game['id']}/moves/", {"ply": 0, "move": LINE[0]})
        assert stale.status_code == 409
        # each scrape is answered by whichever worker accepts it: all must agree
        seen = [scrape_http(base) for _ in range(12)]
        for samples in seen:
            assert value(samples, "yukon_moves_accepted_total") == played
            assert value(samples, "yukon_moves_refused_total", reason="stale_ply") == 1
            assert (
                value(
                    samples,
                    "django_http_requests_latency_seconds_by_view_method_count",
                    view="api:moves",
                    method="POST",
                )
                == played + 1
            )
            assert value(samples, "yukon_daily_challenges_ready", day="today") == 3
            assert value(samples, "yukon_scrape_source_up", source="broker") == 1
        # a worker killed and replaced: what it counted stays in the totals
        victim = gunicorn_workers(tmp_path / "gunicorn.log")[0]
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while len(gunicorn_workers(tmp_path / "gunicorn.log")) < 4:
            assert time.monotonic() < deadline, "gunicorn did not replace its worker"
            time.sleep(0.1)
        for _ in range(6):
            assert value(scrape_http(base), "yukon_moves_accepted_total") == played
        tab.close()
    assert "Traceback" not in (tmp_path / "gunicorn.log").read_text()


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_gunicorn_empties_a_given_metrics_directory_and_removes_its_own(tmp_path: Path) -> None:
    """What gunicorn's master does with the directory, before its first worker starts and
    after its last one ends: one worker each time (each one loads the app: 1.5 CPU-s)."""
    given = tmp_path / "prometheus"
    given.mkdir()
    (given / "counter_999999.db").write_bytes(b"left over from another run")
    with served(tmp_path, workers=1, PROMETHEUS_MULTIPROC_DIR=str(given)) as base:
        assert not (given / "counter_999999.db").exists()
        assert value(scrape_http(base), "yukon_moves_accepted_total") == 0
    assert given.exists()  # the operator's directory stays
    with served(tmp_path, workers=1) as base:
        scrape_http(base)
        worker, deadline = gunicorn_workers(tmp_path / "gunicorn.log")[-1], time.monotonic() + 20
        while (own := metrics_directory_of(worker)) is None:  # until it has loaded the app
            assert time.monotonic() < deadline, "the worker mapped no metrics file"
            time.sleep(0.1)
        assert own.is_dir() and own != given
    assert not own.exists(), "gunicorn left its own metrics directory behind"


def metrics_directory_of(pid: int) -> Path | None:
    """The directory of the metrics files a gunicorn worker has mapped into memory (the
    request histograms are made when the worker loads the app)."""
    import re

    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        path = Path(line.split()[-1])
        if re.fullmatch(r"(counter|histogram|summary|gauge_\w+)_\d+\.db", path.name):
            return path.parent
    return None
