"""Replay the solver's 10 s schedule by positions, to try other schedules without rerunning.

    python bench/bench_schedule.py trace --deals 1-200 --nodes 16000000 --out trace.jsonl
    python bench/bench_schedule.py simulate trace.jsonl --budgets 9e6,10e6,11e6,12e6

``trace`` runs the portfolio of ``yukon.solver.solve`` (same constants, same seeds, same
order: the first proof slice, then Luby restarts each followed by a proof slice of
proof_share() times its positions) by positions, with no clock, and records every run: the
restarts' positions and verdicts, and the positions at which the proof search settled the
deal, if it did. For a deal settled by a restart it then runs the proof search alone (up
to ``--nodes``) to learn when that search would have settled it. Every search involved is
deterministic, so ``simulate`` can then replay exactly any schedule of the same shape (a
proof share that may depend on the positions used so far) for any position budget, and
print the settled deals. Only shares of at least today's can be replayed (a smaller one
runs restarts the trace did not run: "beyond the trace"). Positions, not seconds: a
CPU-second is 1.1 to 1.7 million positions on the shared machine, depending on its load.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_solver import parse_deals  # noqa: E402
from yukon.engine import Position  # noqa: E402
from yukon.solver import (  # noqa: E402
    ALL_RULES,
    DEFAULT_MEMORY_MB,
    FIRST_NODES,
    LUBY_UNIT,
    _csolver,
    luby,
    proof_share,
)

Share = Callable[[int], float]  # positions used so far -> proof share of the next slice


def trace(deal: int, total: int) -> dict[str, Any]:
    start = Position.deal(deal, "yukon")
    args = (0, start.cols, start.down, start.found)
    cpu = time.process_time()
    proof = _csolver.Search(
        *args, flags=ALL_RULES, memory_mb=DEFAULT_MEMORY_MB, expect_nodes=FIRST_NODES
    )
    verdict, _, used, _ = proof.run(max_nodes=FIRST_NODES)
    restarts: list[tuple[int, int]] = []  # (positions, verdict) of restart i + 1
    by = "proof"
    i = 1
    while verdict == 2 and used < total:
        step = min(total - used, luby(i) * LUBY_UNIT)
        seed = (i * 0x9E3779B97F4A7C15) % (1 << 64)
        verdict, _, n, _ = _csolver.solve(
            *args,
            flags=ALL_RULES,
            max_nodes=step,
            memory_mb=DEFAULT_MEMORY_MB,
            seed=seed,
            randomize=True,
        )
        used += n
        restarts.append((n, verdict))
        i += 1
        if verdict != 2:
            by = "restart"
            break
        if used >= total:
            break
        share = proof_share(used)
        verdict, _, n, _ = proof.run(max_nodes=min(total - used, max(1, round(share * n))))
        used += n
    record = {"deal": deal, "verdict": verdict, "by": by, "used": used, "restarts": restarts}
    if by == "proof":
        record["proof_settles"] = proof.nodes if verdict != 2 else None
        record["proof_open_at"] = proof.nodes
    else:  # when would the proof search alone have settled it?
        alone = _csolver.Search(*args, flags=ALL_RULES, memory_mb=DEFAULT_MEMORY_MB)
        v, _, n, _ = alone.run(max_nodes=total)
        record["proof_settles"] = n if v != 2 else None
        record["proof_open_at"] = n
    record["cpu_s"] = round(time.process_time() - cpu, 2)
    return record


def simulate(record: dict[str, Any], budget: int, share: Share) -> str:
    """'settled', 'open' or 'beyond' (the trace does not tell) under the schedule."""
    settles, known = record["proof_settles"], record["proof_open_at"]
    used = proof = 0

    def prove(step: int) -> str | None:
        nonlocal used, proof
        if settles is not None and proof + step >= settles:
            return "settled"
        if settles is None and proof + step > known:
            return "beyond"
        used += step
        proof += step
        return None

    outcome = prove(min(FIRST_NODES, budget))
    i = 1
    while outcome is None and used < budget:
        if i > len(record["restarts"]):
            return "beyond"
        step = min(budget - used, luby(i) * LUBY_UNIT)
        n, verdict = record["restarts"][i - 1]
        if verdict != 2 and n <= step:
            return "settled"
        used += step
        if used >= budget:
            break
        outcome = prove(min(budget - used, max(1, round(share(used) * step))))
        i += 1
    return outcome or "open"


def later(share: float, after: int = 3_000_000) -> Share:
    """A share of 2 for the first ``after`` positions, then ``share``."""
    return lambda used: 2.0 if used < after else share


SCHEDULES: dict[str, Share] = {
    "today: 2, then 64 after 3M": proof_share,
    "2, then 16 after 3M (version 5)": later(16),
    "2, then 32 after 3M": later(32),
    "share 2 (before version 5)": lambda used: 2.0,
    **{f"share {k}": later(k, after=0) for k in (3, 4, 5)},
    **{f"2, then {k} after 3M": later(k) for k in (3, 4, 5, 8, 12)},
    "2, then 4 after 5M": later(4, after=5_000_000),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("trace")
    t.add_argument("--deals", default="1-200")
    t.add_argument("--nodes", type=int, default=16_000_000)
    t.add_argument("--out", required=True)
    s = sub.add_parser("simulate")
    s.add_argument("trace")
    s.add_argument("--budgets", default="8e6,9e6,10e6,11e6,12e6,14e6,16e6")
    args = parser.parse_args()
    if args.command == "trace":
        with open(args.out, "a") as out:
            for deal in parse_deals(args.deals):
                record = trace(deal, args.nodes)
                out.write(json.dumps(record) + "\n")
                out.flush()
                print(
                    deal,
                    record["by"],
                    record["verdict"],
                    record["used"],
                    record["cpu_s"],
                    flush=True,
                )
        return 0
    records = [json.loads(line) for line in Path(args.trace).read_text().splitlines()]
    for budget in (int(float(b)) for b in args.budgets.split(",")):
        for name, share in SCHEDULES.items():
            outcomes = {r["deal"]: simulate(r, budget, share) for r in records}
            settled = sum(o == "settled" for o in outcomes.values())
            beyond = sorted(d for d, o in outcomes.items() if o == "beyond")
            open_ = sorted(d for d, o in outcomes.items() if o != "settled")
            note = f" (beyond the trace: {beyond})" if beyond else ""
            print(f"{budget:>11,} {name:<20} settled {settled:>3}  open {open_}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
