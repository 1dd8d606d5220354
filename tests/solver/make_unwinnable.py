"""Confirm the solver's unwinnable verdicts with a second search and record them.

    python tests/solver/make_unwinnable.py 24,27,62,64,70,116,120,153,156,199
    python tests/solver/make_unwinnable.py --proofs-only 24,27,...


For each Yukon deal: the solver's own proof (the deterministic search with every pruning
rule, ``restarts=False``) and a second, plain exhaustive search that shares no pruning
rule with it (``rules=0``: no auto-foundation, every empty column tried, columns not
interchangeable; only the transposition table), both run to the end with no time limit.
The plain search runs level of progress by level (``exhaust_by_levels``: it holds one
part of one level in memory and the entries of the next two levels in temporary files,
so a space of billions of positions fits; it prints a line per level). It visits the
positions of the depth-first search with no rule, in another order, so it counts the same.
Its files (33 bytes per entry, unnamed, in /tmp) take tens of GB on the largest deals.
A deal is written to tests/solver/fixtures/unwinnable.json only when both exhaust the
space; the positions each searched are recorded, and test_unwinnable.py checks them
(the plain search is deterministic, so its node count is a certificate that a rerun
reproduces exactly). Hours for the largest deals: run it under ``nice``. After a change
of the solver's rules, ``--proofs-only`` reruns only the solver's proofs of deals already
recorded and keeps their plain searches (which no rule touches).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.engine import Position  # noqa: E402
from games.solver import _csolver  # noqa: E402

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "unwinnable.json"
MEMORY_MB = 16_384
ABOUT = (
    "Yukon deals proven unwinnable twice: by the solver's deterministic search with every "
    "pruning rule (all_rules_positions) and by a plain exhaustive search with only the "
    "transposition table (plain_positions), each run to the end. Both searches are "
    "deterministic, so the counts are certificates a rerun reproduces exactly. Made by "
    "tests/solver/make_unwinnable.py, checked by tests/solver/test_unwinnable.py."
)


def exhaust(deal: int, plain: bool) -> tuple[int, int, float]:
    """(verdict, positions, CPU seconds) of the plain search or of the solver's proof."""
    start = Position.deal(deal, "yukon")
    position = (0, start.cols, start.down, start.found)
    cpu = time.process_time()
    if plain:
        verdict, nodes, _, reason = _csolver.exhaust_by_levels(
            *position, memory_mb=MEMORY_MB, threads=min(os.cpu_count() or 1, 8), verbose=True
        )
    else:
        search = _csolver.Search(*position, flags=_csolver.F_ALL, memory_mb=MEMORY_MB)
        verdict, _, nodes, reason = search.run()
    if verdict == 2:
        raise SystemExit(f"deal {deal}: the search stopped ({reason})")
    return verdict, nodes, time.process_time() - cpu


def main() -> int:
    proofs_only = sys.argv[1] == "--proofs-only"
    deals = [int(n) for n in sys.argv[-1].split(",")]
    data = json.loads(FIXTURE.read_text()) if FIXTURE.exists() else {"deals": {}}
    for deal in deals:
        proof, proof_nodes, proof_cpu = exhaust(deal, plain=False)
        if proofs_only:
            record = data["deals"][str(deal)]
            plain, plain_nodes = 1, record["plain_positions"]
            plain_cpu = record["plain_cpu_seconds"]
        else:
            plain, plain_nodes, plain_cpu = exhaust(deal, plain=True)
        print(
            f"deal {deal}: all rules {proof} {proof_nodes} ({proof_cpu:.1f} s), "
            f"plain {plain} {plain_nodes} ({plain_cpu:.1f} s)",
            flush=True,
        )
        if proof != 1 or plain != 1:
            print(f"deal {deal}: NOT confirmed", flush=True)
            continue
        data["deals"][str(deal)] = {
            "all_rules_positions": proof_nodes,
            "plain_positions": plain_nodes,
            "plain_cpu_seconds": round(plain_cpu, 1),
        }
        data["deals"] = dict(sorted(data["deals"].items(), key=lambda kv: int(kv[0])))
        data["about"] = ABOUT
        FIXTURE.write_text(json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
