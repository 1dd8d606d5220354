"""Benchmark of the move endpoint, in-process (Django test client) on the configured database.

Plays known winning lines through ``POST /api/games/<id>/moves/`` as a logged-in player
and prints the median and 95th percentile time per move and the moves per second.
It creates and drops its own ``test_...`` database, so it never touches real data:

    .venv/bin/python scripts/test-services -- .venv/bin/python bench/bench_moves.py \
        [--moves 2000] [--cached-sessions] [--compare]

``--compare`` plays every other game through DRF's MoveView instead of the direct path
(games/api/direct.py) and prints both, interleaved so that a busy machine weighs on both
alike.

Targets: median under 5 ms and at least 300 moves/s on one core, PostgreSQL.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument(
        "--cached-sessions",
        action="store_true",
        help="read sessions through the cache (cached_db; with REDIS_URL that is Redis)",
    )
    parser.add_argument(
        "--compare", action="store_true", help="alternate games: direct path, then DRF"
    )
    args = parser.parse_args()
    if args.cached_sessions:
        os.environ["SESSION_ENGINE"] = "django.contrib.sessions.backends.cached_db"

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment

    from yukon_site.celery import app

    app.conf.task_always_eager = True  # verification of won games runs in-process, untimed
    # one player flat out, on purpose far past the per-player move limit (20/s)
    settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["moves"] = "100000/s"
    setup_test_environment(debug=False)  # as in production: no query logging
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        return run(args.moves, connection.vendor, compare=args.compare)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(total: int, vendor: str, *, compare: bool = False) -> int:
    from django.test import Client

    from accounts.models import User
    from games.api import views

    direct_move = views.direct_move
    by_path: dict[str, list[float]] = {"direct": [], "DRF": []}
    cpu_by_path: dict[str, float] = {"direct": 0.0, "DRF": 0.0}
    games_played = 0

    lines = json.loads((ROOT / "tests/games/fixtures/winning_lines.json").read_text())
    lines = {int(k): v for k, v in lines["winning_lines"].items()}
    client = Client()
    client.force_login(User.objects.create_user(username="bench", display_name="Bench"))
    timings: list[float] = []
    cpu_started = time.process_time()
    started = time.perf_counter()
    while len(timings) < total:
        for number, line in lines.items():
            game = client.post("/api/games/", {"deal": number}, content_type="application/json")
            game_id = game.json()["id"]
            path = "DRF" if compare and games_played % 2 else "direct"
            games_played += 1
            views.direct_move = direct_move if path == "direct" else lambda *_: None
            for ply, text in enumerate(line):
                if len(timings) >= total:
                    break
                c0 = time.process_time()
                t0 = time.perf_counter()
                response = client.post(
                    f"/api/games/{game_id}/moves/",
                    {"ply": ply, "move": text},
                    content_type="application/json",
                )
                timings.append(time.perf_counter() - t0)
                by_path[path].append(timings[-1])
                cpu_by_path[path] += time.process_time() - c0
                if response.status_code != 200:
                    print(f"move failed: {response.status_code} {response.content[:200]!r}")
                    return 1
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    timings.sort()
    median_ms = statistics.median(timings) * 1000
    p95_ms = timings[int(len(timings) * 0.95)] * 1000
    per_second = len(timings) / sum(timings)
    from django.conf import settings

    print(f"database: {vendor}, sessions: {settings.SESSION_ENGINE.rsplit('.', 1)[-1]}")
    print(f"moves: {len(timings)} (wall {wall:.2f} s, game starts and verification included)")
    mean_ms = statistics.mean(timings) * 1000
    print(f"median: {median_ms:.2f} ms  p95: {p95_ms:.2f} ms  mean: {mean_ms:.2f} ms")
    print(f"moves/s (request time only, one core): {per_second:.0f}")
    print(
        f"this process's CPU per move: {cpu / len(timings) * 1000:.2f} ms "
        "(the database server's time not included; compare with the median on a busy machine)"
    )
    if compare:
        for path, times in by_path.items():
            times.sort()
            print(
                f"  {path:<6} {len(times)} moves: median {statistics.median(times) * 1000:.2f} ms"
                f"  p95 {times[int(len(times) * 0.95)] * 1000:.2f} ms"
                f"  CPU {cpu_by_path[path] / len(times) * 1000:.3f} ms a move"
            )
    ok = median_ms < 5 and per_second >= 300
    print("targets (median < 5 ms, >= 300 moves/s):", "met" if ok else "NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
