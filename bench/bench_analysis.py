"""Benchmark of the post-game analysis: time and solver calls per finished game.

    python bench/bench_analysis.py                    # 40 games, 2 s per probe, 30 s per game
    python bench/bench_analysis.py --games 40 --probe-seconds 2 --total-seconds 30

Games are built like the ones people lose: Yukon deals 0, 1, 2, ...; a prefix of the
solver's winning line (5 to 60 moves), then random legal moves until the game is stuck
(or after 400 moves: it counts as resigned); games that random play won are skipped. Each
runs ``analysis.review.review_line`` with the coach's cached solver and an empty cache, in
one process on one core. Prints the median, p95 and max time per game, the solver calls
per game and the outcomes.
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
os.environ.setdefault("REDIS_URL", "")

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402

from analysis.coach import cached_solve  # noqa: E402
from analysis.review import review_line  # noqa: E402
from yukon.engine import Position, move_text  # noqa: E402
from yukon.solver import SolveResult, solve  # noqa: E402


def lost_game(deal: int, line: list[str], rng: random.Random) -> list[str]:
    position = Position.deal(deal)
    moves = line[: rng.randint(5, 60)]
    for text in moves:
        position.play_text(text)
    for _ in range(400):
        legal = position.legal_moves()
        if not legal or position.is_won():
            break
        text = move_text(rng.choice(legal))
        position.play_text(text)
        moves.append(text)
    return moves


def replay_won(deal: int, moves: list[str]) -> bool:
    position = Position.deal(deal)
    for text in moves:
        position.play_text(text)
    return position.is_won()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--probe-seconds", type=float, default=2.0)
    parser.add_argument("--total-seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    times: list[float] = []
    solves: list[int] = []
    outcomes: dict[str, int] = {}
    kinds: list[str] = []
    deal = 0
    while len(times) < args.games:
        deal_result = solve(deal, seconds=2.0)
        deal += 1
        if deal_result.verdict != "solved":
            continue
        moves = lost_game(deal - 1, deal_result.moves, rng)
        if replay_won(deal - 1, moves):
            continue  # random play won it: no analysis work to measure
        cache.clear()

        def solver(position: Position) -> SolveResult:
            return cached_solve(position, args.probe_seconds)

        started = time.perf_counter()
        review = review_line(
            Position.deal(deal - 1),
            moves,
            solver,
            total_seconds=args.total_seconds,
            deal_result=deal_result,
        )
        times.append(time.perf_counter() - started)
        solves.append(review.solves)
        outcomes[review.outcome] = outcomes.get(review.outcome, 0) + 1
        kinds.append(review.outcome)
    lost = sorted(t for t, o in zip(times, kinds, strict=True) if o == "lost_at")
    times.sort()
    p95 = times[max(0, round(0.95 * len(times)) - 1)]
    print(
        f"analysis of {len(times)} lost games, {args.probe_seconds:g} s per probe, "
        f"{args.total_seconds:g} s per game at most, empty cache"
    )
    print(
        f"per game: median {statistics.median(times):.3f} s   p95 {p95:.3f} s   "
        f"max {times[-1]:.3f} s   solver calls median {statistics.median(solves):.0f}, "
        f"max {max(solves)}"
    )
    if lost:
        print(
            f"games with a named losing move: median {statistics.median(lost):.3f} s, "
            f"max {lost[-1]:.3f} s"
        )
    print("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))


if __name__ == "__main__":
    main()
