"""Command line: ``python -m yukon.engine {deal,moves,replay} N [--variant V] [--takeback]``.

``moves`` and ``replay`` read move texts, one per line, from standard input. Output is
JSON on standard output; bad input exits non-zero with one line on standard error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .cards import CARD_TEXT
from .deal import MAX_DEAL_NUMBER
from .errors import EngineError, shorten
from .position import Position
from .replay import replay
from .variants import VARIANT_NAMES


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def _deal_number(text: str) -> int:
    # Plain ASCII digits only: int() would also take "1_000", " 7" or non-ASCII digits.
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{shorten(text)} is not a whole number >= 0")
    if len(text.lstrip("0")) > len(str(MAX_DEAL_NUMBER)):  # keeps int() off huge strings
        raise argparse.ArgumentTypeError(f"{shorten(text)} is out of range: 0 <= N < 2**64")
    return int(text)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m yukon.engine", description="The Yukon rules engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (
        ("deal", "print the starting position of a deal as JSON"),
        ("moves", "print the legal moves after the moves read from stdin"),
        ("replay", "replay the moves read from stdin and print the result"),
    ):
        cmd = sub.add_parser(name, help=help_text)
        cmd.add_argument("number", type=_deal_number, help="deal number, 0 <= N < 2**64")
        cmd.add_argument("--variant", default="yukon", choices=VARIANT_NAMES)
        cmd.add_argument(
            "--takeback", action="store_true", help="allow taking cards back from a foundation"
        )
    return parser


def _read_moves() -> list[str]:
    return [line.strip() for line in sys.stdin if line.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.takeback:
        args.variant += "+takeback"
    try:
        if args.command == "deal":
            position = Position.deal(args.number, args.variant)
            view = position.to_dict()
            keys = ("columns", "face_down", "foundations", "copies")
            out: object = {k: view[k] for k in keys if k in view}
        elif args.command == "moves":
            result = replay(args.number, args.variant, _read_moves())
            if result.error is not None:
                return _replay_error(result.error.index, result.error.move, result.error.reason)
            position = result.position
            out = sorted(position.move_text(m) for m in position.legal_moves())
        else:
            result = replay(args.number, args.variant, _read_moves())
            if result.error is not None:
                return _replay_error(result.error.index, result.error.move, result.error.reason)
            out = {
                "score": result.score,
                "moves": result.moves,
                "won": result.won,
                "turned": [None if c is None else CARD_TEXT[c] for c in result.turned],
            }
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(out))
    return 0


def _replay_error(index: int, move: str, reason: str) -> int:
    print(json.dumps({"error": {"index": index, "move": move, "reason": reason}}))
    return 1


if __name__ == "__main__":
    sys.exit(main())
