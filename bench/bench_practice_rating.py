"""Benchmark of a practice-pool candidate per variant: proving it, rating it, its tier.

For each variant, deals ``--start`` .. ``--start + --deals - 1`` go through the pool's own
steps without a database: the solver with the pool's budget (``games.daily.solve_budget``),
then, for a proven deal, the strategy bot's rating with ``DAILY_BOT_PLAYOUTS`` playouts
and the daily bands (``games.daily.tier_of``). It prints the CPU time of each step, where
the proven deals fall (easy, medium, hard, or a gap between bands), their line lengths (the
par a pooled deal gets) and the CPU a refill spends per pooled deal when every tier wants
deals. Run it niced on a shared machine:

    nice -n 19 .venv/bin/python bench/bench_practice_rating.py \
        [--variant double-yukon ...] [--deals 30] [--start 1]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")

MULTI_DECK = ["double-yukon", "triple-yukon", "quadruple-yukon"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--variant", action="append", help="a variant (default: the multi-deck ones)"
    )
    parser.add_argument("--deals", type=int, default=30, help="deals per variant")
    parser.add_argument("--start", type=int, default=1, help="first deal number")
    args = parser.parse_args()

    import django

    django.setup()
    for variant in args.variant or MULTI_DECK:
        run(variant, range(args.start, args.start + args.deals))
    return 0


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def run(variant: str, numbers: range) -> None:
    from django.conf import settings

    from games.daily import solve_budget, tier_of
    from yukon.solver import solve
    from yukon.strategy_bot import rate_deal

    seconds, nodes = solve_budget()
    playouts = settings.DAILY_BOT_PLAYOUTS
    solve_cpu: list[float] = []
    rate_cpu: list[float] = []
    lines: list[int] = []
    verdicts: Counter[str] = Counter()
    tiers: Counter[str] = Counter()
    rates: dict[str, list[float]] = {}
    for number in numbers:
        cpu = time.process_time()
        result = solve(number, variant=variant, seconds=seconds, nodes=nodes)
        solve_cpu.append(time.process_time() - cpu)
        verdicts[result.verdict] += 1
        if result.verdict != "solved":
            continue
        lines.append(len(result.moves))
        cpu = time.process_time()
        rate = rate_deal(number, variant, playouts=playouts).win_rate
        rate_cpu.append(time.process_time() - cpu)
        tier = tier_of(rate) or "gap"
        tiers[tier] += 1
        rates.setdefault(tier, []).append(rate)
    proven = max(len(rate_cpu), 1)
    in_band = max(sum(n for tier, n in tiers.items() if tier != "gap"), 1)
    total = sum(solve_cpu) + sum(rate_cpu)
    print(
        f"{variant}: deals {numbers.start}..{numbers.stop - 1}; solver budget {nodes:,} "
        f"positions (cap {seconds:.0f} s), {playouts} bot playouts"
    )
    print(f"  verdicts {dict(verdicts)}; line length (par) median {_quantile(lines, 0.5)}")
    print(
        f"  solve CPU per deal: median {_quantile(solve_cpu, 0.5):.2f} s, "
        f"max {max(solve_cpu):.2f} s"
    )
    if rate_cpu:
        print(
            f"  rating CPU per proven deal: median {_quantile(rate_cpu, 0.5):.2f} s, "
            f"p95 {_quantile(rate_cpu, 0.95):.2f} s, max {max(rate_cpu):.2f} s"
        )
    spread = ", ".join(
        f"{tier} {tiers[tier]} (rates {min(rates[tier]):.2f}-{max(rates[tier]):.2f})"
        for tier in ("easy", "medium", "hard", "gap")
        if tiers[tier]
    )
    print(f"  proven deals by tier: {spread or 'none'} of {proven}")
    print(
        f"  CPU {total:.1f} s in all: {total / len(numbers):.2f} s per number, "
        f"{total / in_band:.2f} s per deal in a band (every tier wanting deals)"
    )


if __name__ == "__main__":
    sys.exit(main())
