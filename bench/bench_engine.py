"""Engine speed: replays of a 150-move game, and move generation + apply in random playouts.

Run from the repository root: ``python bench/bench_engine.py [--seconds 2]``. It prints
its figures; it is not a test. Targets (one core): at least 2,000 replays per
second of a 150-move game, at least 100,000 moves per second (legal-move generation
plus applying the chosen move) over random playouts.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from yukon.engine import VARIANT_NAMES, Position, replay  # noqa: E402  (after the path set-up)

KNOWN_DEALS = ROOT / "yukon" / "tests" / "engine" / "vectors" / "known-deals.json"
PLAYOUT_CAP = 300  # random play can cycle forever in Yukon; start a new deal after this


def bench_replay(seconds: float) -> tuple[int, float]:
    """Replays per second of deal 68's 153-move winning line (a full referee check)."""
    moves = json.loads(KNOWN_DEALS.read_text())["winning_lines"]["68"]
    result = replay(68, "yukon", moves)
    assert result.error is None and result.score == 625, "deal 68's line no longer wins"
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            replay(68, "yukon", moves)
        count += 50
    return len(moves), count / (time.perf_counter() - start)


def bench_playouts(seconds: float, variant: str, checked: bool) -> tuple[float, int]:
    """Moves per second: legal_moves() then apply one chosen at random, deal after deal.

    ``checked`` applies with ``play`` (re-validates the move) instead of ``push``.
    Dealing a fresh position when a playout ends is included in the time.
    """
    rng = random.Random(12345)
    moves = 0
    deals = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        position = Position.deal(rng.randrange(2**64), variant)
        deals += 1
        apply = position.play if checked else position.push
        for _ in range(PLAYOUT_CAP):
            legal = position.legal_moves()
            if not legal:
                break
            apply(rng.choice(legal))
            moves += 1
    return moves / (time.perf_counter() - start), deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, one core")
    length, rate = bench_replay(args.seconds)
    print(f"replay of a {length}-move game:         {rate:10,.0f} replays/s   (target >= 2,000)")
    for variant in VARIANT_NAMES:  # the multi-deck ones too: more columns, more copies
        rate, deals = bench_playouts(args.seconds, variant, checked=False)
        print(
            f"playouts {variant:<15} generate+push:  {rate:10,.0f} moves/s     "
            f"(target >= 100,000; {deals:,} deals)"
        )
    rate, deals = bench_playouts(args.seconds, "yukon", checked=True)
    print(f"playouts yukon      generate+play:  {rate:10,.0f} moves/s     ({deals:,} deals)")


if __name__ == "__main__":
    main()
