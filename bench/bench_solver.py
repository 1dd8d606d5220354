"""Benchmark of the solver: settled deals, wrong verdicts, time per deal, positions per second.

    python bench/bench_solver.py       # yukon 1..200 at 10 s, then 50 deals of each other
    python bench/bench_solver.py --variants yukon --deals 1-200 --seconds 10
    python bench/bench_solver.py --variants russian,alaska,moosehide --deals 1-50 --seconds 10

One process, one core, deals one after another. Every "solved" line is replayed again
from the deal number with games.engine.replay; every "unwinnable" Yukon verdict is
checked against ../shared/fixtures/known-deals.json (a deal with a known winning line
called unwinnable is a WRONG verdict; one not in the known-unwinnable list is reported).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engine import replay  # noqa: E402
from games.solver import solve  # noqa: E402

FIXTURES = ROOT.parent / "shared" / "fixtures" / "known-deals.json"


def parse_deals(text: str) -> list[int]:
    deals: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        deals.extend(range(int(lo), int(hi or lo) + 1))
    return deals


def known() -> tuple[set[int], set[int]]:
    if not FIXTURES.exists():
        return set(), set()
    data = json.loads(FIXTURES.read_text())
    return {int(n) for n in data["winning_lines"]}, set(data["unwinnable"]["deals"])


def bench(variant: str, deals: list[int], seconds: float, log: TextIO | None) -> dict[str, Any]:
    winnable, unwinnable = known() if variant == "yukon" else (set(), set())
    counts = {"solved": 0, "unwinnable": 0, "unknown": 0}
    wrong: list[int] = []
    new_unwinnable: list[int] = []
    times: list[float] = []
    nodes = 0
    cpu = 0.0
    for n in deals:
        t = time.perf_counter()
        cpu0 = time.process_time()
        result = solve(n, variant=variant, seconds=seconds)
        dt = time.perf_counter() - t
        cpu += time.process_time() - cpu0
        times.append(dt)
        nodes += result.nodes
        counts[result.verdict] += 1
        if result.verdict == "solved":
            if not replay(n, variant, result.moves).won:
                wrong.append(n)
        elif result.verdict == "unwinnable":
            if n in winnable:
                wrong.append(n)
            elif variant == "yukon" and n not in unwinnable:
                new_unwinnable.append(n)
        if log is not None:
            print(
                json.dumps(
                    {
                        "variant": variant,
                        "deal": n,
                        "verdict": result.verdict,
                        "nodes": result.nodes,
                        "seconds": round(dt, 4),
                        "moves": len(result.moves),
                        "reason": result.reason,
                    }
                ),
                file=log,
                flush=True,
            )
    times.sort()
    return {
        "variant": variant,
        "deals": len(deals),
        **counts,
        "settled": counts["solved"] + counts["unwinnable"],
        "wrong": wrong,
        "new_unwinnable": new_unwinnable,
        "median_s": statistics.median(times),
        "p95_s": times[min(len(times) - 1, int(0.95 * len(times)))],
        "total_s": sum(times),
        "pos_per_s": nodes / sum(times) if sum(times) else 0.0,
        "pos_per_cpu_s": nodes / cpu if cpu else 0.0,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variants", default="yukon,russian,alaska,moosehide")
    parser.add_argument(
        "--deals", default=None, help="e.g. 1-200 (default: 1-200 yukon, 1-50 others)"
    )
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--log", default=None, help="write one JSON line per deal to this file")
    # Wall-clock budgets: on a shared, loaded machine the search gets less than a core;
    # the last column (positions per CPU-second) shows the search's own speed.
    args = parser.parse_args()
    log = open(args.log, "a") if args.log else None  # noqa: SIM115
    rows = []
    for variant in args.variants.split(","):
        deals = parse_deals(args.deals or ("1-200" if variant == "yukon" else "1-50"))
        rows.append(bench(variant, deals, args.seconds, log))
        print_table(rows, args.seconds)
    return 1 if any(row["wrong"] for row in rows) else 0


def print_table(rows: list[dict[str, Any]], seconds: float) -> None:
    print(f"\nbudget {seconds:g} s per deal, one core")
    print(
        "| variant | deals | solved | unwinnable | unknown | settled | wrong "
        "| median s | p95 s | positions/s | per CPU-s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['variant']} | {r['deals']} | {r['solved']} | {r['unwinnable']} "
            f"| {r['unknown']} | {r['settled']} | {len(r['wrong'])} {r['wrong'] or ''} "
            f"| {r['median_s']:.4f} | {r['p95_s']:.3f} | {r['pos_per_s']:,.0f} "
            f"| {r['pos_per_cpu_s']:,.0f} |"
        )
        if r["new_unwinnable"]:
            print(f"  (unwinnable, not in the known list: {r['new_unwinnable']})")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
