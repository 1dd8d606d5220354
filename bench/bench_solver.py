"""Benchmark of the solver: settled deals, wrong verdicts, time per deal, positions per second.

    python bench/bench_solver.py       # 1..200 of Yukon and the multi-deck games, 1..50 of the rest
    python bench/bench_solver.py --variants double-yukon,triple-yukon,quadruple-yukon --random 200
    python bench/bench_solver.py --variants yukon --deals 1-200 --seconds 10 --jobs 2
    python bench/bench_solver.py --variants yukon --deals 1-200 --nodes 4000000
    python bench/bench_solver.py --variants yukon --deals 1-200 --seconds 10 --threads 2
    python bench/bench_solver.py --variants moosehide,yukon+takeback --deals 1-200 --seconds 10

The budget is CPU time of the process solving the deal (``--seconds``, the solver's
``seconds``) or positions (``--nodes``), never wall-clock time. A position budget
gives the same verdicts on any machine; a CPU-time budget nearly so (a loaded machine
gets fewer positions per CPU-second: shared caches). ``--jobs N`` solves N deals at once
in separate processes (one core each); ``--threads 2`` solves each deal on two cores
(``solve(jobs=2)``: the proof search and the restarts side by side, each with the whole
budget; the CPU time printed is both threads'). Every "solved" line is replayed again from the
deal number with yukon.engine.replay; every Yukon "unwinnable" is checked against the
fixtures in the repository: a deal with a known winning line
(yukon/tests/solver/fixtures/known-deals.json, a copy of the shared fixture) called unwinnable
is a WRONG verdict (in Yukon, and in Yukon with take-back, which only adds moves), and one
missing from the confirmed list
(yukon/tests/solver/fixtures/unwinnable.json: a second, plain exhaustive search agreed) is
reported as unconfirmed. The load average before and after the run is printed with the
table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from yukon.engine import VARIANT_NAMES, get_variant, replay  # noqa: E402
from yukon.solver import DEFAULT_MEMORY_MB, solve  # noqa: E402

KNOWN_DEALS = ROOT / "yukon" / "tests" / "solver" / "fixtures" / "known-deals.json"
CONFIRMED = ROOT / "yukon" / "tests" / "solver" / "fixtures" / "unwinnable.json"


def parse_deals(text: str) -> list[int]:
    deals: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        deals.extend(range(int(lo), int(hi or lo) + 1))
    return deals


def known() -> tuple[set[int], set[int]]:
    """(Yukon deals with a known winning line, Yukon deals confirmed unwinnable)."""
    winnable = {int(n) for n in json.loads(KNOWN_DEALS.read_text())["winning_lines"]}
    confirmed = {int(n) for n in json.loads(CONFIRMED.read_text())["deals"]}
    return winnable, confirmed


def solve_one(args: tuple[str, int, float | None, int | None, int, int]) -> dict[str, Any]:
    variant, number, seconds, nodes, memory_mb, threads = args
    wall = time.perf_counter()
    result = solve(
        number, variant=variant, seconds=seconds, nodes=nodes, memory_mb=memory_mb, jobs=threads
    )
    wall = time.perf_counter() - wall
    replays = result.verdict != "solved" or replay(number, variant, result.moves).won
    return {
        "variant": variant,
        "deal": number,
        "verdict": result.verdict,
        "nodes": result.nodes,
        "cpu_s": round(result.cpu_seconds, 4),
        "wall_s": round(wall, 4),
        "moves": len(result.moves),
        "reason": result.reason,
        "replays": replays,
    }


def bench(
    variant: str, deals: list[int], args: argparse.Namespace, log: TextIO | None
) -> dict[str, Any]:
    # A deal won by Yukon's standard rules is won with take-back too (it only adds moves).
    winnable, confirmed = known() if variant in ("yukon", "yukon+takeback") else (set(), set())
    counts = {"solved": 0, "unwinnable": 0, "unknown": 0}
    wrong: list[int] = []
    unconfirmed: list[int] = []
    undecided: list[int] = []
    cpu: list[float] = []
    wall: list[float] = []
    nodes = 0
    work = [(variant, n, args.seconds, args.nodes, args.memory_mb, args.threads) for n in deals]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for row in pool.map(solve_one, work):
            n = row["deal"]
            cpu.append(row["cpu_s"])
            wall.append(row["wall_s"])
            nodes += row["nodes"]
            counts[row["verdict"]] += 1
            if row["verdict"] == "solved" and not row["replays"]:
                wrong.append(n)
            elif row["verdict"] == "unwinnable":
                if n in winnable:
                    wrong.append(n)
                elif variant == "yukon" and n not in confirmed:
                    unconfirmed.append(n)
            elif row["verdict"] == "unknown":
                undecided.append(n)
            if log is not None:
                print(json.dumps(row), file=log, flush=True)
    return {
        "variant": variant,
        "deals": len(deals),
        **counts,
        "settled": counts["solved"] + counts["unwinnable"],
        "wrong": wrong,
        "unconfirmed": unconfirmed,
        "undecided": undecided,
        "median_cpu": statistics.median(cpu),
        "p95_cpu": percentile(cpu, 0.95),
        "median_wall": statistics.median(wall),
        "p95_wall": percentile(wall, 0.95),
        "pos_per_cpu_s": nodes / sum(cpu) if sum(cpu) else 0.0,
        "pos_per_wall_s": nodes / sum(wall) if sum(wall) else 0.0,
    }


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--variants",
        default=",".join(VARIANT_NAMES),
        help="names, +takeback for the option: yukon,yukon+takeback",
    )
    parser.add_argument(
        "--deals",
        default=None,
        help="e.g. 1-200 (default: 1-200 for Yukon and the multi-deck games, 1-50 others)",
    )
    parser.add_argument(
        "--random",
        type=int,
        default=0,
        metavar="N",
        help="N random 64-bit deal numbers instead (the same N on every run: seed --seed)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--seconds", type=float, default=None, help="CPU seconds per deal")
    parser.add_argument("--nodes", type=int, default=None, help="positions per deal")
    parser.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB)
    parser.add_argument("--jobs", type=int, default=1, help="deals solved at once (processes)")
    parser.add_argument(
        "--threads", type=int, default=1, choices=(1, 2), help="cores per deal (solve's jobs)"
    )
    parser.add_argument("--log", default=None, help="write one JSON line per deal to this file")
    args = parser.parse_args()
    if args.seconds is None and args.nodes is None:
        args.seconds = 10.0
    log = open(args.log, "a") if args.log else None  # noqa: SIM115
    load_before = os.getloadavg()
    rows = []
    for variant in args.variants.split(","):
        if args.random:
            rng = random.Random(f"{args.seed}:{variant}")
            deals = [rng.getrandbits(64) for _ in range(args.random)]
        else:
            wide = variant == "yukon" or get_variant(variant).multi_deck
            deals = parse_deals(args.deals or ("1-200" if wide else "1-50"))
        rows.append(bench(variant, deals, args, log))
        print_table(rows, args, load_before)
    return 1 if any(row["wrong"] for row in rows) else 0


def print_table(
    rows: list[dict[str, Any]], args: argparse.Namespace, load: tuple[float, ...]
) -> None:
    budget = []
    if args.seconds is not None:
        budget.append(f"{args.seconds:g} CPU-s")
    if args.nodes is not None:
        budget.append(f"{args.nodes:,} positions")
    print(
        f"\nbudget {' and '.join(budget)} per deal (per thread), {args.jobs} process(es), "
        f"{args.threads} thread(s) each; "
        f"memory cap {args.memory_mb} MB; load average before {load[0]:.2f}, "
        f"now {os.getloadavg()[0]:.2f} (1 min)"
    )
    print(
        "| variant | deals | solved | unwinnable | unknown | settled | wrong "
        "| median CPU s | p95 CPU s | median wall s | p95 wall s | positions/CPU-s "
        "| positions/wall-s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['variant']} | {r['deals']} | {r['solved']} | {r['unwinnable']} "
            f"| {r['unknown']} | **{r['settled']}** | {len(r['wrong'])} {r['wrong'] or ''} "
            f"| {r['median_cpu']:.4f} | {r['p95_cpu']:.3f} | {r['median_wall']:.4f} "
            f"| {r['p95_wall']:.3f} | {r['pos_per_cpu_s']:,.0f} | {r['pos_per_wall_s']:,.0f} |"
        )
        if r["undecided"]:
            print(f"  undecided: {', '.join(map(str, r['undecided']))}")
        if r["unconfirmed"]:
            print(f"  unwinnable, not yet confirmed by a second search: {r['unconfirmed']}")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
