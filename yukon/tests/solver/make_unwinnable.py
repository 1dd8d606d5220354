"""Confirm the solver's unwinnable verdicts with a second search and record them.

    python yukon/tests/solver/make_unwinnable.py 24,27,62,64,70,116,120,153,156,199
    python yukon/tests/solver/make_unwinnable.py --proofs-only 24,27,...
    python yukon/tests/solver/make_unwinnable.py --directory /var/tmp/levels 37


For each Yukon deal: the solver's own proof (the deterministic search with every pruning
rule, ``restarts=False``) and a second, plain exhaustive search that shares no pruning
rule with it (``rules=0``: no auto-foundation, every empty column tried, columns not
interchangeable; only the transposition table), both run to the end with no time limit.
The plain search runs level of progress by level (``exhaust_by_levels``: it holds one
part of one level in memory and the entries of the next two levels in temporary files,
so a space of billions of positions fits; it prints a line per level). It visits the
positions of the depth-first search with no rule, in another order, so it counts the same.
Its files (33 bytes per entry) take tens of GB on the largest deals: unnamed temporary
files in $TMPDIR (default /tmp), or with ``--directory DIR`` named files in DIR/deal-N,
where a run that stops or is killed resumes at the level it was in (run the same command
again).
A deal is written to yukon/tests/solver/fixtures/unwinnable.json only when both exhaust the
space; the positions each searched are recorded, and test_unwinnable.py checks them
(the plain search is deterministic, so its node count is a certificate that a rerun
reproduces exactly). Hours for the largest deals: run it under ``nice``. After a change
of the solver's rules, ``--proofs-only`` reruns only the solver's proofs of deals already
recorded and keeps their plain searches (which no rule touches).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from yukon.engine import Position  # noqa: E402
from yukon.solver import _csolver  # noqa: E402

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "unwinnable.json"
MEMORY_MB = 16_384
ABOUT = (
    "Yukon deals proven unwinnable twice: by the solver's deterministic search with every "
    "pruning rule (all_rules_positions) and by a plain exhaustive search with only the "
    "transposition table (plain_positions), each run to the end. Both searches are "
    "deterministic, so the counts are certificates a rerun reproduces exactly. Made by "
    "yukon/tests/solver/make_unwinnable.py, checked by yukon/tests/solver/test_unwinnable.py."
)


def exhaust(deal: int, plain: bool, directory: Path | None = None) -> tuple[int, int, float]:
    """(verdict, positions, CPU seconds) of the plain search or of the solver's proof.

    With a directory, the plain search keeps its entries in DIRECTORY/deal-N and goes on
    where an earlier run of the deal stopped (its CPU seconds count too)."""
    start = Position.deal(deal, "yukon")
    position = (0, start.cols, start.down, start.found)
    cpu = time.process_time()
    if plain:
        where = None
        if directory is not None:
            where = directory / f"deal-{deal}"
            where.mkdir(exist_ok=True)
            state = where / "state.json"
            cpu -= json.loads(state.read_text())["cpu_seconds"] if state.exists() else 0
        verdict, nodes, _, reason = _csolver.exhaust_by_levels(
            *position,
            memory_mb=MEMORY_MB,
            threads=min(os.cpu_count() or 1, 8),
            verbose=True,
            directory=None if where is None else str(where),
        )
    else:
        search = _csolver.Search(*position, flags=_csolver.F_ALL, memory_mb=MEMORY_MB)
        verdict, _, nodes, reason = search.run()
    if verdict == 2:
        raise SystemExit(f"deal {deal}: the search stopped ({reason})")
    return verdict, nodes, time.process_time() - cpu


def deal_numbers(text: str) -> list[int]:
    try:
        deals = [int(n) for n in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of deal numbers: {text!r}") from None
    if not all(n >= 1 for n in deals):
        raise argparse.ArgumentTypeError("deal numbers start at 1")
    return deals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--proofs-only", action="store_true", help="rerun only the solver's proofs")
    parser.add_argument("--directory", type=Path, help="keep the entries here: resumable")
    parser.add_argument("deals", type=deal_numbers, help="e.g. 24,27,62")
    options = parser.parse_args()
    proofs_only, deals = options.proofs_only, options.deals
    if options.directory is not None and not options.directory.is_dir():
        parser.error(f"--directory {options.directory}: not a directory")
    data = json.loads(FIXTURE.read_text()) if FIXTURE.exists() else {"deals": {}}
    for deal in deals:
        proof, proof_nodes, proof_cpu = exhaust(deal, plain=False)
        if proofs_only:
            record = data["deals"][str(deal)]
            plain, plain_nodes = 1, record["plain_positions"]
            plain_cpu = record["plain_cpu_seconds"]
        else:
            plain, plain_nodes, plain_cpu = exhaust(deal, plain=True, directory=options.directory)
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
