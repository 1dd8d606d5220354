"""``python -m yukon.solver N [--variant V] [--takeback] [--seconds S] [--nodes N]``.

(Or ``--position TEXT`` instead of ``N``.)

Prints one JSON object: ``{"verdict", "moves": [...], "nodes", "seconds"}``.
"""

from __future__ import annotations

import argparse
import json
import sys

from yukon.engine import VARIANT_NAMES, EngineError

from . import DEFAULT_MEMORY_MB, DEFAULT_SECONDS, solve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m yukon.solver", description="Solve a Yukon deal or position."
    )
    parser.add_argument("deal", nargs="?", type=int, help="deal number (omit with --position)")
    parser.add_argument("--variant", default="yukon", choices=sorted(VARIANT_NAMES))
    parser.add_argument(
        "--seconds", type=float, default=DEFAULT_SECONDS, help="CPU-time budget (default 10)"
    )
    parser.add_argument("--nodes", type=int, default=None, help="position budget (default: none)")
    parser.add_argument(
        "--memory-mb", type=int, default=DEFAULT_MEMORY_MB, help="transposition table cap"
    )
    parser.add_argument("--position", default=None, help="a position in the engine's text form")
    parser.add_argument(
        "--takeback", action="store_true", help="with the foundation take-back option (a deal)"
    )
    args = parser.parse_args(argv)
    if (args.deal is None) == (args.position is None):
        parser.error("give either a deal number or --position TEXT")
    target: int | str = args.position if args.position is not None else args.deal
    try:
        result = solve(
            target,
            variant=args.variant + ("+takeback" if args.takeback else ""),
            seconds=args.seconds,
            nodes=args.nodes,
            memory_mb=args.memory_mb,
        )
    except (EngineError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result.to_dict()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
