"""The resumable C search (``_csolver.Search``) and the interleaved portfolio built on it.

A search run in slices must visit exactly the positions one uninterrupted run visits, in
the same order: the slices only pause it. So the verdict, the node count and the line
agree, whatever the slice size, by positions or by time.
"""

from __future__ import annotations

import threading
import time

import pytest

from yukon.engine import Position, move_text, replay
from yukon.solver import (
    DEFAULT_MEMORY_MB,
    VARIANT_CODES,
    _Budget,
    _csolver,
    _Proof,
    _Runs,
    narrow_slots,
    solve,
)


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


@pytest.mark.parametrize("flags", [_csolver.F_ALL, _csolver.F_ALL | _csolver.F_MERGE])
@pytest.mark.parametrize(("deal", "verdict"), [(42, 0), (51, 0), (156, 1)])
def test_slices_by_positions_give_the_same_search(deal: int, verdict: int, flags: int) -> None:
    # (with twin classes a slice can end past its budget by the other members of the last
    # class entered, which are counted when the class is: the whole search agrees all
    # the same)
    whole = search(deal, flags=flags).run()
    assert whole[0] == verdict
    sliced = run_in_slices(search(deal, flags=flags), max_nodes=997)
    assert sliced[:3] == (whole[0], whole[1], whole[2])
    assert sliced[3] > 10
    if verdict == 0:
        assert replay(deal, "yukon", [move_text(m) for m in sliced[1]]).won


@pytest.mark.slow
@pytest.mark.parametrize("flags", [_csolver.F_ALL, _csolver.F_ALL | _csolver.F_MERGE])
def test_slices_by_time_make_progress_through_table_growth(flags: int) -> None:
    # 70 needs about 1.2 million positions: the table doubles past a million slots, and
    # a doubling stopped by the clock must not be retried (and stopped) for ever.
    whole = search(70, flags=flags).run()
    assert whole[0] == 1
    sliced = run_in_slices(search(70, flags=flags), seconds=0.002)
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


@pytest.mark.slow
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
        ((0, [[]] * 7, [0] * 7, [13] * 4), {"flags": 128}),
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


@pytest.mark.parametrize("flags", [_csolver.F_ALL, _csolver.F_ALL | _csolver.F_MERGE])
def test_random_slices_agree_with_one_run_in_every_variant(flags: int) -> None:
    import random

    rng = random.Random(2026)
    budget = 3000
    for name, code in VARIANT_CODES.items():
        for deal in range(1, 9):
            takeback = deal % 2 == 0  # the take-back moves resume like any other
            pos = Position.deal(deal, name)
            args = (code, pos.cols, pos.down, pos.found)
            whole = _csolver.Search(*args, flags=flags, takeback=takeback).run(max_nodes=budget)
            s = _csolver.Search(*args, flags=flags, takeback=takeback)
            total = 0
            while True:
                step = min(rng.randint(1, 400), budget - total)
                verdict, moves, nodes, _ = s.run(max_nodes=step)
                total += nodes
                if verdict != 2 or total >= budget:
                    break
            assert (verdict, moves, total) == whole[:3], (code, deal)


# The narrow table (8-byte slots) of the portfolio's proof search: going narrow at 2048
# slots here, instead of the portfolio's 2**23, puts every search below through it.
NARROW_AT = 2048


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANT_CODES))
def test_a_narrow_table_searches_the_same_positions(variant: str) -> None:
    # From 2048 slots to 2**18 and more, doubling in place: the same positions in the same
    # order as with the wide table (a false merge at 67 bits or more would show as a
    # different count; none is expected in a run of this size).
    deals = range(1, 41) if variant == "yukon" else range(1, 17)
    narrowed = 0
    for deal in deals:
        takeback = deal % 3 == 0
        pos = Position.deal(deal, variant)
        args = (VARIANT_CODES[variant], pos.cols, pos.down, pos.found)
        wide = _csolver.Search(*args, takeback=takeback, expect_nodes=1).run(max_nodes=100_000)
        s = _csolver.Search(*args, takeback=takeback, expect_nodes=1, narrow=NARROW_AT)
        assert s.run(max_nodes=100_000) == wide, (variant, deal)
        # (the half-size table fills to 50 % at its 513th position, then doubles narrow)
        assert s.narrowed == (wide[2] > NARROW_AT // 4), (variant, deal, wide[2])
        narrowed += s.narrowed
    # (Moosehide's deals are won in a few hundred positions: too few to go narrow)
    assert narrowed >= {"yukon": 5, "russian": 3, "alaska": 3}.get(variant, 0)


def test_a_narrow_table_holds_twice_the_positions_in_the_same_memory() -> None:
    # At the cap (1 MB) a table fills to 70 %: 65,536 wide slots, 131,072 narrow ones.
    wide = search(61, memory_mb=1, expect_nodes=1).run()
    s = search(61, memory_mb=1, expect_nodes=1, narrow=NARROW_AT)
    narrow = s.run()
    assert wide == (2, [], 45_875, "memory")
    assert narrow == (2, [], 91_750, "memory")
    assert s.narrowed


def test_a_wide_table_full_at_its_cap_goes_narrow_in_the_same_bytes() -> None:
    # Narrow at 131,072 slots, twice the 65,536 wide ones that 1 MB holds: the wide table
    # fills to its cap, then narrows where it lies (no second mapping) and holds as many
    # positions as one that narrowed early. A threshold beyond that is never reached.
    s = search(61, memory_mb=1, expect_nodes=1, narrow=131_072)
    assert s.run() == (2, [], 91_750, "memory")
    assert s.narrowed
    s = search(61, memory_mb=1, expect_nodes=1, narrow=262_144)
    assert s.run() == (2, [], 45_875, "memory")
    assert not s.narrowed


def test_a_table_that_never_grows_past_narrow_stays_wide() -> None:
    s = search(116, narrow=1 << 23)
    assert s.run() == (1, [], 25_672, "")
    assert not s.narrowed


def test_the_proof_search_goes_narrow_only_at_its_memory_cap() -> None:
    # Deal 166's proof search exhausts at 7,278,643 twin classes, more than 2^23 wide slots
    # hold at 50 %: at 2^24 (version 10) it went narrow and had to be proven again wide,
    # twice its 20 CPU-s. The wide table now doubles up to its cap (2^25 slots in 768 MB
    # and in the study's 512 MB, 2^23 in 128 MB) and goes narrow only there.
    assert narrow_slots(DEFAULT_MEMORY_MB) == narrow_slots(512) == narrow_slots(1023) == 1 << 26
    assert narrow_slots(128) == narrow_slots(255) == 1 << 24
    assert narrow_slots(2048) == 1 << 28
    # 64 to 127 MB stop the wide table at 2^22 slots: it still goes narrow at that cap
    # (2^23, twice the positions in the same bytes), and a smaller one never does.
    assert narrow_slots(64) == narrow_slots(127) == 1 << 23
    assert narrow_slots(1) == narrow_slots(63) == 1 << 23


@pytest.mark.parametrize(
    "kwargs",
    [
        {"narrow": 1024},
        {"narrow": 3000},
        {"narrow": -1},
        {"narrow": 1 << 41},
        {"narrow": "x"},
        {"narrow_bits": 0},
        {"narrow_bits": 57},
    ],
)
def test_bad_narrow_arguments_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises((ValueError, TypeError, OverflowError)):
        search(1, **kwargs)


def lossy_proof(deal: int, bits: int) -> tuple[_Proof, _Budget]:
    # (the rules of F_ALL, without twin classes, like the narrow search it replaces)
    start = Position.deal(deal)
    runs = _Runs(start, _csolver.F_ALL, 256, None, None)
    table = _csolver.Search(
        0, start.cols, start.down, start.found, expect_nodes=1, narrow=NARROW_AT, narrow_bits=bits
    )
    return _Proof(runs, table), _Budget(None, None, None)


def test_a_false_merge_in_the_narrow_table_can_only_lose_a_win() -> None:
    # Keeping 1 of its 56 bits, the narrow table takes many positions for one: deal 20,
    # won at 6,285 positions by the wide search, runs out at 2,041 ("probably lost").
    alone = lossy_proof(20, 1)[0].search
    assert alone.run() == (1, [], 2_041, "")
    assert alone.narrowed
    # The portfolio's proof search then searches again with a wide table, and wins.
    proof, budget = lossy_proof(20, 1)
    verdict, line, reason = proof.run(budget, 0)
    assert (verdict, reason) == (0, "")
    assert replay(20, "yukon", [move_text(m) for m in line]).won
    assert budget.used == 2_041 + 6_285
    assert not proof.search.narrowed


def test_the_wide_search_after_a_narrow_one_keeps_to_the_slices() -> None:
    # In slices of 1,000 positions: the narrow search runs out in the third, the wide one
    # takes the rest of it and goes on in the next ones.
    proof, budget = lossy_proof(20, 1)
    results: list[tuple[int, list[int], str]] = []
    while not results or results[-1][0] == 2:
        before = budget.used
        results.append(proof.run(budget, 1_000))
        assert budget.used - before <= 1_000
    assert [r[2] for r in results[:-1]] == ["nodes"] * (len(results) - 1)
    assert results[-1][0] == 0
    assert budget.used == 2_041 + 6_285


def test_a_loss_found_with_a_narrow_table_is_proven_again_wide() -> None:
    # Deal 116 is lost in 25,672 positions: the narrow search's "probably lost" is not the
    # proof; the wide search's, of the same count, is.
    proof, budget = lossy_proof(116, 56)
    assert proof.run(budget, 0) == (1, [], "")
    assert budget.used == 2 * 25_672
    assert not proof.search.narrowed
