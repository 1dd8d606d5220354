"""Benchmark of the practice coach: hint latency over mid-game positions.

    python bench/bench_hints.py                      # 200 positions, 2 s budget
    python bench/bench_hints.py --positions 200 --seconds 2 --seed 1

Positions come from Yukon deals 0, 1, 2, ...: a prefix of the solver's winning line (10 to
60 moves), sometimes followed by one to three random legal moves, so that some of them are
lost or hard. Each hint runs ``analysis.coach.advise`` with an empty cache (the worst case:
a player who follows the hints waits for the solver only once, see docs/practice.md), in
one process on one core. Prints median, p95 and max latency and the verdicts.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
os.environ.setdefault("REDIS_URL", "")  # the local-memory cache: the solver is measured

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402

from analysis.coach import advise  # noqa: E402
from yukon.engine import Position, move_text  # noqa: E402
from yukon.solver import solve  # noqa: E402


def mid_game_positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    deal = 0
    while len(out) < count:
        line = solve(deal, seconds=2.0).moves
        deal += 1
        if len(line) < 70:
            continue
        position = Position.deal(deal - 1)
        for text in line[: rng.randint(10, 60)]:
            position.play_text(text)
        if rng.random() < 0.3:  # wander off the line for a few moves
            for _ in range(rng.randint(1, 3)):
                legal = position.legal_moves()
                if not legal:
                    break
                position.play_text(move_text(rng.choice(legal)))
        if not position.is_won():
            out.append(position)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=2.0, help="hint budget (HINT_SECONDS)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    positions = mid_game_positions(args.positions, args.seed)
    times: list[float] = []
    verdicts: dict[str, int] = {}
    for position in positions:
        cache.clear()
        started = time.perf_counter()
        advice = advise(position, args.seconds)
        times.append(time.perf_counter() - started)
        verdicts[advice.verdict] = verdicts.get(advice.verdict, 0) + 1
    times.sort()
    p95 = times[max(0, round(0.95 * len(times)) - 1)]
    print(f"hints over {len(times)} mid-game positions, budget {args.seconds:g} s, empty cache")
    print(
        f"median {1000 * statistics.median(times):.1f} ms   p95 {1000 * p95:.1f} ms   "
        f"max {1000 * times[-1]:.1f} ms   mean {1000 * statistics.mean(times):.1f} ms"
    )
    print("verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())))


if __name__ == "__main__":
    main()
