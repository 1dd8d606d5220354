"""A real Celery worker process (broker: the real Redis) verifies a finished game, then
analyses a practice game with the solver in the worker's own process."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.test import Client

from accounts.models import User
from analysis.models import AnalysisStatus, GameAnalysis
from games.models import Game
from tests.factories import winning_lines
from tests.workers import own_queue, start_worker, stop
from yukon_site.celery import app

pytestmark = [pytest.mark.celery, pytest.mark.redis, pytest.mark.postgres]


@pytest.fixture
def worker_queue(tmp_path: Path) -> Any:
    """A worker process on a queue of its own."""
    with own_queue() as queue:
        log_path = tmp_path / "worker.log"
        process = start_worker(queue, log_path)
        try:
            yield process, log_path
        finally:
            stop(process)


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_verifies_a_finished_game(worker_queue: Any) -> None:
    process, log_path = worker_queue
    assert not app.conf.task_always_eager, "REDIS_URL is set: tasks must go through the broker"
    player = User.objects.create_user(username="worker-test", display_name="Worker Test")
    client = Client()
    client.force_login(player)
    game_id = client.post("/api/games/", {"deal": 1}, content_type="application/json").json()["id"]
    for ply, text in enumerate(winning_lines()[1]):
        response = client.post(
            f"/api/games/{game_id}/moves/",
            {"ply": ply, "move": text},
            content_type="application/json",
        )
        assert response.status_code == 200
    assert response.json()["status"] == "won"
    deadline = time.monotonic() + 90
    game = Game.objects.get(pk=game_id)
    while game.verification == "pending" and time.monotonic() < deadline:
        assert process.poll() is None, log_path.read_text()
        time.sleep(0.2)
        game.refresh_from_db()
    assert game.verification == "verified", log_path.read_text()
    assert (game.status, game.score) == ("won", 625)
    while "succeeded" not in log_path.read_text():  # logged after its result is stored
        assert time.monotonic() < deadline, log_path.read_text()
        time.sleep(0.1)
    # Nobody reads a verification's result: none is kept in Redis (357 B each for a day,
    # two a finished game: docs/capacity.md).
    (task_id,) = re.findall(r"games\.verify_game\[([0-9a-f-]+)\] succeeded", log_path.read_text())
    r = redis.Redis.from_url(settings.REDIS_URL)
    assert not r.exists(f"celery-task-meta-{task_id}")


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_analyses_a_resigned_practice_game(worker_queue: Any) -> None:
    process, log_path = worker_queue
    player = User.objects.create_user(username="analysed", display_name="Analysed")
    client = Client()
    client.force_login(player)
    game_id = client.post("/api/games/", {"deal": 1}, content_type="application/json").json()["id"]
    for ply, text in enumerate(winning_lines()[1][:5]):
        client.post(
            f"/api/games/{game_id}/moves/",
            {"ply": ply, "move": text},
            content_type="application/json",
        )
    assert client.post(f"/api/games/{game_id}/resign/").status_code == 200
    deadline = time.monotonic() + 120
    found = None
    while time.monotonic() < deadline:
        assert process.poll() is None, log_path.read_text()
        found = GameAnalysis.objects.filter(game_id=game_id, status=AnalysisStatus.DONE).first()
        if found is not None:
            break
        time.sleep(0.3)
    assert found is not None, log_path.read_text()
    # resigned five moves into a winning line: still winnable, with a way on
    assert (found.outcome, found.last_winnable) == ("winnable_at_end", 5), log_path.read_text()
    assert found.continuation and found.par
    assert "analysis.analyse_game" in log_path.read_text()
