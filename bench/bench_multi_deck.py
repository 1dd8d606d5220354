"""Multi-deck solver figures: how many of deals 1..N of each multi-deck variant it settles.

Run from the repository root, in the background and niced (the CPU is shared):
``nice -n 19 python bench/bench_multi_deck.py [--deals 50] [--seconds 10]``. It prints, per
variant, the deals solved (each line replayed by the engine), proven unwinnable and left
unknown within the per-deal CPU budget, and the positions searched per CPU second.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from yukon.engine import VARIANTS  # noqa: E402  (after the path set-up above)
from yukon.solver import solve  # noqa: E402

MULTI_DECK = [name for name, variant in VARIANTS.items() if variant.multi_deck]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50, help="deals 1..N of each variant")
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per deal")
    parser.add_argument("--variant", choices=MULTI_DECK, action="append")
    args = parser.parse_args()
    print(f"deals 1..{args.deals}, {args.seconds:g} CPU s each (multi-deck search, pure Python)")
    for name in args.variant or MULTI_DECK:
        verdicts: Counter[str] = Counter()
        nodes = 0
        cpu = 0.0
        start = time.monotonic()
        for number in range(1, args.deals + 1):
            result = solve(number, variant=name, seconds=args.seconds)
            verdicts[result.verdict] += 1
            nodes += result.nodes
            cpu += result.cpu_seconds
        print(
            f"{name:<16} solved {verdicts['solved']:3}  unwinnable {verdicts['unwinnable']:3}  "
            f"unknown {verdicts['unknown']:3}  ({nodes / max(cpu, 1e-9):,.0f} positions/CPU s, "
            f"{time.monotonic() - start:,.0f} s wall)",
            flush=True,
        )


if __name__ == "__main__":
    main()
