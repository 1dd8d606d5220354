"""Redis stops while players play (a dedicated redis-server, not the shared one): moves
still succeed (PostgreSQL is the truth), sessions and rate limits carry on, boards are
served from PostgreSQL, /healthz says Redis is down but stays 200; when Redis returns,
the board that missed a result catches up (leaderboards.rebuild_stale_boards)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import redis

from games.models import DailyChallenge, utc_today
from leaderboards.models import StaleBoard
from tests.factories import make_challenges, winning_lines
from tests.faults.server import Browser, gunicorn, production_env, redis_server
from tests.workers import ROOT

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def play(tab: Browser, game_id: int, line: list[str], start: int, count: int) -> int:
    ply = start
    for move in line[start : start + count]:
        response = tab.post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": move})
        assert response.status_code == 200, response.text
        ply = response.json()["ply"]
    return ply


def test_moves_and_boards_survive_a_redis_outage(tmp_path: Path) -> None:
    make_challenges(numbers={"easy": 0, "medium": 1, "hard": 68})
    challenge = DailyChallenge.objects.get(date=utc_today(), tier="easy")
    board_url = f"/api/leaderboards/daily/{utc_today().isoformat()}/easy/"
    line = winning_lines()[0]
    static = tmp_path / "static"
    static.mkdir()
    (tmp_path / "redis").mkdir()
    with redis_server(tmp_path / "redis") as server:
        env = {
            "REDIS_URL": server.url,
            "CELERY_TASK_ALWAYS_EAGER": "true",  # verification inline: no broker needed
            "THROTTLE_MOVES": "1000/s",
        }
        with gunicorn(tmp_path / "gunicorn.log", static, **env) as base:
            ann, ben = Browser(base), Browser(base)
            ann.sign_up("ann")
            ben.sign_up("ben")
            games = {}
            for tab in (ann, ben):
                response = tab.post("/api/games/", {"daily": "easy"})
                assert response.status_code == 201, response.text
                games[tab] = response.json()["id"]
            plies = {tab: play(tab, games[tab], line, 0, 5) for tab in (ann, ben)}
            board = ann.get(board_url)  # builds the (empty) board in Redis
            assert board.status_code == 200 and board.json()["results"] == []
            r = redis.Redis.from_url(server.url)
            assert r.exists(f"lb:day:{challenge.pk}:ready")

            server.stop()
            health = ann.get("/healthz")
            assert health.status_code == 200
            assert health.json() == {"status": "ok", "database": "ok", "redis": "down"}
            # Players play on; Ann wins, her game is verified, the board cannot be updated.
            plies[ben] = play(ben, games[ben], line, plies[ben], 10)
            plies[ann] = play(ann, games[ann], line, plies[ann], len(line))
            assert plies[ann] == len(line)
            assert StaleBoard.objects.filter(challenge=challenge).exists()
            board = ben.get(board_url)  # from PostgreSQL
            assert board.status_code == 200, board.text
            assert [row["display_name"] for row in board.json()["results"]] == ["Ann"]
            # a new visitor gets a session and can log in with Redis down
            carl = Browser(base)
            carl.sign_up("carl")
            assert carl.post("/api/games/", {"daily": "easy"}).status_code == 201

            server.start()
            # Redis came back with the old board (without Ann) until the rebuild
            assert r.zcard(f"lb:day:{challenge.pk}") == 0
            rebuild = subprocess.run(
                [sys.executable, "manage.py", "rebuild_leaderboards", "--stale"],
                cwd=ROOT,
                env=production_env(REDIS_URL=server.url),
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            assert rebuild.returncode == 0, rebuild.stderr
            assert r.zcard(f"lb:day:{challenge.pk}") == 1
            assert not StaleBoard.objects.exists()
            board = ben.get(board_url)
            assert [row["display_name"] for row in board.json()["results"]] == ["Ann"]
            assert ann.get("/healthz").json()["redis"] == "ok"
            play(ben, games[ben], line, plies[ben], 3)
            for tab in (ann, ben, carl):
                tab.close()
    log = (tmp_path / "gunicorn.log").read_text()
    assert "Traceback" not in log
