"""Rendering the boards' answers: a daily board's page and a league's page through their
serializers (leaderboards/serializers.py), with ``Answer``'s walk and with DRF's generic one.

Run from the repository root: ``python bench/bench_answers.py [--rounds 5]``. No database:
the rows are built in memory, as the reads hand them over (a daily page: 50 board rows;
a league page: three tiers of 50 board rows, then 50 rows of each of its three tables).
Each figure is the serializer's ``data`` plus the JSON bytes, the median of each round's
median, in ms. Not a test: it prints figures (docs/leaderboards.md, "Benchmark").
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")

import django  # noqa: E402

django.setup()

from rest_framework import serializers  # noqa: E402
from rest_framework.renderers import JSONRenderer  # noqa: E402

from leaderboards.day_board import Row  # noqa: E402
from leaderboards.serializers import Answer, DailyBoard, LeagueBoard  # noqa: E402

PAGE = 50
VIEWER = {"viewer_id": 3, "viewer_name": "Player 3"}
FINISHED = dt.datetime(2026, 12, 5, 1, 2, 3, 4567, tzinfo=dt.UTC)


def board_rows() -> list[Row]:
    return [
        Row(i + 1, 1_000 + i, i, f"Player {i}", i % 3 != 0, "won", 625, 50_000 + i, 90, FINISHED)
        for i in range(PAGE)
    ]


def daily_page() -> dict[str, Any]:
    rows = board_rows()
    return {
        "board": "daily",
        "circle": None,
        "date": FINISHED.date(),
        "tier": "easy",
        "closed": False,
        "par": None,
        "count": 10_000,
        "page": 1,
        "pages": 200,
        "page_size": PAGE,
        "next": "/api/leaderboards/daily/2026-12-05/easy/?page=2",
        "previous": None,
        "offset": 0,
        "served_from": "redis",
        "me": rows[3],
        "results": rows,
    }


def league_page() -> dict[str, Any]:
    points = [
        {"display_name": f"Player {i}", "points": 100 - i, "played": 7, "wins": 5, "rank": i + 1}
        for i in range(PAGE)
    ]
    streaks = [
        {
            "display_name": f"Player {i}",
            "current_streak": PAGE - i,
            "best_streak": 60,
            "last_win": "2026-12-05",
            "rank": i + 1,
        }
        for i in range(PAGE)
    ]
    today = [
        {"tier": tier, "closed": False, "count": 1_000, "results": board_rows()}
        for tier in ("easy", "medium", "hard")
    ]
    start, end = dt.date(2026, 11, 30), dt.date(2026, 12, 6)
    return {
        "league": 1,
        "name": "Night Owls",
        "date": FINISHED.date(),
        "today": today,
        "page": 1,
        "pages": 20,
        "page_size": PAGE,
        "week": {"start": start, "end": end, "count": 1_000, "results": points},
        "month": {"start": start, "end": end, "count": 1_000, "results": points},
        "members": 1_000,
        "streaks": streaks,
        "points": [10, 7, 5, 3, 2, 1],
        "played_points": 1,
    }


def median_ms(shape: type[Answer], page: dict[str, Any], rounds: int, calls: int = 100) -> float:
    renderer = JSONRenderer()
    medians = []
    for _ in range(rounds):
        times = []
        for _ in range(calls):
            start = time.perf_counter()
            renderer.render(shape(page, context=VIEWER).data)
            times.append((time.perf_counter() - start) * 1000)
        medians.append(statistics.median(times))
    return statistics.median(medians)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    pages = {
        "daily page (50 rows)": (DailyBoard, daily_page()),
        "league page (300 rows)": (LeagueBoard, league_page()),
    }
    ours = Answer.to_representation
    for walk, method in [
        ("Answer", ours),
        ("DRF's generic walk", serializers.Serializer.to_representation),
    ]:
        Answer.to_representation = method  # type: ignore[method-assign]
        for name, (shape, page) in pages.items():
            figure = median_ms(shape, page, rounds)
            print(f"{name:<24} {walk:<20} median {figure:5.2f} ms")
    Answer.to_representation = ours  # type: ignore[method-assign]


if __name__ == "__main__":
    main()
