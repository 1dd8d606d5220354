"""The resumable C search (``_csolver.Search``) and the interleaved portfolio built on it.

A search run in slices must visit exactly the positions one uninterrupted run visits, in
the same order: the slices only pause it. So the verdict, the node count and the line
agree, whatever the slice size, by positions or by time.
"""

from __future__ import annotations

import threading
import time

import pytest

from games.engine import Position, move_text, replay
from games.solver import VARIANT_CODES, _csolver, solve


def search(deal: int, **kwargs: object) -> _csolver.Search:
    pos = Position.deal(deal)
    return _csolver.Search(0, pos.cols, pos.down, pos.found, **kwargs)  # type: ignore[arg-type]


def run_in_slices(s: _csolver.Search, **slice_kwargs: float) -> tuple[int, list[int], int, int]:
    total = runs = 0
    while True:
        verdict, moves, nodes, reason = s.run(**slice_kwargs)  # type: ignore[arg-type]
        total += nodes
        runs += 1
        if verdict != 2:
            return verdict, moves, total, runs
        assert reason in ("nodes", "seconds")


@pytest.mark.parametrize(("deal", "verdict"), [(42, 0), (51, 0), (156, 1)])
def test_slices_by_positions_give_the_same_search(deal: int, verdict: int) -> None:
    whole = search(deal).run()
    assert whole[0] == verdict
    sliced = run_in_slices(search(deal), max_nodes=997)
    assert sliced[:3] == (whole[0], whole[1], whole[2])
    assert sliced[3] > 10
    if verdict == 0:
        assert replay(deal, "yukon", [move_text(m) for m in sliced[1]]).won


def test_slices_by_time_make_progress_through_table_growth() -> None:
    # 70 needs about 1.2 million positions: the table doubles past a million slots, and
    # a doubling stopped by the clock must not be retried (and stopped) for ever.
    whole = search(70).run()
    assert whole[0] == 1
    sliced = run_in_slices(search(70), seconds=0.002)
    assert sliced[0] == 1
    assert sliced[2] == whole[2]


def test_a_finished_search_keeps_its_verdict() -> None:
    s = search(7)
    first = s.run()
    assert first[0] == 0
    again = s.run(max_nodes=5)
    assert again[0] == 0 and again[1] == first[1] and again[2] == 0
    assert s.nodes == first[2]
    lost = search(24)
    assert lost.run()[0] == 1
    assert lost.run()[:3] == (1, [], 0)


def test_a_full_table_stops_for_good() -> None:
    s = search(61, memory_mb=1)
    verdict, moves, _, reason = s.run(seconds=10)
    assert (verdict, moves, reason) == (2, [], "memory")
    assert s.run(seconds=10) == (2, [], 0, "memory")


def test_a_search_runs_in_one_thread_at_a_time() -> None:
    s = search(61)
    done = threading.Event()

    def long_run() -> None:
        s.run(seconds=1.0)
        done.set()

    thread = threading.Thread(target=long_run)
    thread.start()
    refused = False
    while not done.is_set() and not refused:
        try:
            s.run(max_nodes=1)
        except RuntimeError:
            refused = True
        time.sleep(0.01)
    thread.join()
    assert refused


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((9, [[]] * 7, [0] * 7, [13] * 4), {}),
        ((0, [[]] * 6, [0] * 7, [13] * 4), {}),
        ((0, [[]] * 7, [0] * 7, [13] * 4), {"flags": 99}),
        ((0, [[]] * 7, [0] * 7, [13] * 4), {"memory_mb": 0}),
        ((0, [[]] * 7, [0] * 7, [13] * 4), {"seed": -1}),
        ((0, [[]] * 7, [0] * 7, [13] * 4), {"expect_nodes": "x"}),
        ((0, [[]] * 7, [0] * 7, [12, 13, 13, 13]), {}),
    ],
)
def test_bad_search_arguments_are_refused(
    args: tuple[object, ...], kwargs: dict[str, object]
) -> None:
    with pytest.raises((ValueError, TypeError, OverflowError)):
        _csolver.Search(*args, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("kwargs", [{"max_nodes": -1}, {"seconds": -1.0}, {"seconds": "x"}])
def test_bad_run_arguments_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises((ValueError, TypeError, OverflowError)):
        search(1).run(**kwargs)  # type: ignore[arg-type]


def test_a_won_position_is_solved_by_a_search() -> None:
    assert _csolver.Search(0, [[]] * 7, [0] * 7, [13] * 4).run() == (0, [], 0, "")


@pytest.mark.parametrize("deal", [116, 156])
def test_the_portfolio_proves_long_losses_early(deal: int) -> None:
    # The proof search runs between the restarts, so a loss that needs about a million
    # positions is proven within two million in all (restarts included); a position
    # budget makes this independent of the machine's load.
    result = solve(deal, seconds=None, nodes=2_000_000)
    assert result.verdict == "unwinnable"


@pytest.mark.parametrize(("deal", "positions"), [(64, 71_128), (116, 917_025), (156, 687_114)])
def test_speedups_leave_the_search_unchanged(deal: int, positions: int) -> None:
    # The table layout (home slot from the top bits) and the look-up of a tableau move's
    # child before making it are pure speedups: the proof visits exactly the positions
    # the first version of the search visited, with the rules it had. (A change of move
    # order or of those rules changes these counts legitimately; re-measure them then.)
    first_rules = _csolver.F_AUTO | _csolver.F_ONE_EMPTY | _csolver.F_CANON
    verdict, _, nodes, _ = search(deal, flags=first_rules).run()
    assert (verdict, nodes) == (1, positions)


def test_random_slices_agree_with_one_run_in_every_variant() -> None:
    import random

    rng = random.Random(2026)
    budget = 3000
    for name, code in VARIANT_CODES.items():
        for deal in range(1, 9):
            takeback = deal % 2 == 0  # the take-back moves resume like any other
            pos = Position.deal(deal, name)
            args = (code, pos.cols, pos.down, pos.found)
            whole = _csolver.Search(*args, takeback=takeback).run(max_nodes=budget)
            s = _csolver.Search(*args, takeback=takeback)
            total = 0
            while True:
                step = min(rng.randint(1, 400), budget - total)
                verdict, moves, nodes, _ = s.run(max_nodes=step)
                total += nodes
                if verdict != 2 or total >= budget:
                    break
            assert (verdict, moves, total) == whole[:3], (code, deal)
