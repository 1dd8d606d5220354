"""The C entry point takes any input without crashing: a clean exception or a result."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from yukon.engine import Position
from yukon.solver import VARIANT_CODES, _csolver

GOOD = Position.deal(5)
COLS: list[Any] = [list(c) for c in GOOD.cols]
DOWN: list[Any] = list(GOOD.down)
FOUND: list[Any] = list(GOOD.found)
ERRORS = (ValueError, TypeError, OverflowError)


def call(*args: Any, **kwargs: Any) -> None:
    kwargs.setdefault("max_nodes", 2000)
    try:
        result = _csolver.solve(*args, **kwargs)
    except ERRORS:
        return
    verdict, moves, nodes, reason = result
    assert verdict in (0, 1, 2)
    assert all(isinstance(m, int) and 0 <= m < 52 * 8 for m in moves)
    assert nodes >= 0
    assert isinstance(reason, str)


@pytest.mark.parametrize(
    "args",
    [
        (0, COLS[:6], DOWN, FOUND),
        (0, [*COLS, []], DOWN, FOUND),
        (0, COLS, DOWN[:6], FOUND),
        (0, COLS, DOWN, FOUND[:3]),
        (0, COLS, DOWN, [*FOUND, 0]),
        (0, None, DOWN, FOUND),
        (0, 7, DOWN, FOUND),
        (0, "abcdefg", DOWN, FOUND),
        (0, [[0]] * 7, DOWN, FOUND),
        (0, [[*COLS[0], 99], *COLS[1:]], DOWN, FOUND),
        (0, [[-1], *COLS[1:]], DOWN, FOUND),
        (0, [[2**70], *COLS[1:]], DOWN, FOUND),
        (0, [[True], *COLS[1:]], DOWN, FOUND),
        (0, [[1.0], *COLS[1:]], DOWN, FOUND),
        (0, [list(range(53)), [], [], [], [], [], []], [0] * 7, [0] * 4),
        (0, COLS, [1, 1, 2, 3, 4, 5, 6], FOUND),
        (0, COLS, [0, 1, 2, 3, 4, 5, 99], FOUND),
        (0, COLS, [0, 1, 2, 3, 4, 5, -1], FOUND),
        (0, COLS, DOWN, [14, 0, 0, 0]),
        (0, COLS, DOWN, [1, 0, 0, 0]),
        (0, [c[:-1] for c in COLS], DOWN, FOUND),
        (5, COLS, DOWN, FOUND),
        (-1, COLS, DOWN, FOUND),
        ("yukon", COLS, DOWN, FOUND),
    ],
)
def test_malformed_inputs_raise_cleanly(args: tuple[Any, ...]) -> None:
    with pytest.raises(ERRORS):
        _csolver.solve(*args)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"flags": -1},
        {"flags": 1 << 20},
        {"seconds": -1.0},
        {"seconds": float("nan")},
        {"seconds": float("inf")},
        {"memory_mb": 0},
        {"memory_mb": 2**40},
        {"max_nodes": "many"},
        {"seed": -1},
        {"bogus": 1},
    ],
)
def test_malformed_options_raise_cleanly(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ERRORS):
        _csolver.solve(0, COLS, DOWN, FOUND, **kwargs)


def test_random_garbage_never_crashes() -> None:
    rng = random.Random(99)
    pool: list[Any] = [0, 1, 51, 52, -1, 13, 2**63, None, "x", 1.5, [], [1], (2, 3)]
    for _ in range(3000):
        cols = [
            [
                rng.choice(pool) if rng.random() < 0.05 else rng.randrange(-2, 55)
                for _ in range(rng.randrange(0, 12))
            ]
            for _ in range(rng.choice([6, 7, 7, 7, 8]))
        ]
        down = [rng.randrange(-1, 5) for _ in range(7)]
        found = [rng.randrange(-1, 15) for _ in range(4)]
        call(rng.randrange(-1, 6), cols, down, found, takeback=rng.random() < 0.5)


def random_layout(rng: random.Random, lowest: int) -> tuple[list[list[int]], list[int], list[int]]:
    """A valid position: foundations from ``lowest`` up, the rest dealt at random, some
    face down (any card on any card, any card at a column's bottom)."""
    found = [rng.randint(lowest, 13) for _ in range(4)]
    cards = [s * 13 + r for s in range(4) for r in range(found[s], 13)]
    rng.shuffle(cards)
    cols: list[list[int]] = [[] for _ in range(7)]
    for card in cards:
        cols[rng.randrange(7)].append(card)
    down = [rng.randint(0, len(c) - 1) if c else 0 for c in cols]
    return cols, down, found


def test_random_valid_positions_solve_cleanly() -> None:
    rng = random.Random(7)
    for _ in range(400):
        cols, down, found = random_layout(rng, lowest=0)
        variant = rng.randrange(5)
        flags = rng.randrange(_csolver.F_MERGE) & _csolver.F_ALL
        if rng.random() < 0.5:
            flags |= _csolver.F_MERGE
        call(
            variant,
            cols,
            down,
            found,
            flags=flags,
            max_nodes=rng.choice([1, 50, 3000]),
            seed=rng.getrandbits(64),
            randomize=rng.random() < 0.5,
            takeback=rng.random() < 0.5,
        )


def test_sequences_of_any_kind_are_read() -> None:
    verdict, *_ = _csolver.solve(
        0, tuple(tuple(c) for c in COLS), tuple(DOWN), tuple(FOUND), max_nodes=100
    )
    assert verdict in (0, 1, 2)


def test_the_sanitizer_build_is_the_one_loaded() -> None:
    # scripts/solver-sanitize-test sets YUKON_SANITIZED=1: the module must then be the
    # ASan build from its temporary directory, or the run would prove nothing. (No skip
    # otherwise: CI fails on skipped tests.)
    import os

    assert _csolver.__file__ is not None
    if os.environ.get("YUKON_SANITIZED") == "1":
        with open("/proc/self/maps") as maps:
            assert "libasan" in maps.read()
        assert _csolver.__file__.startswith(os.environ["PYTHONPATH"])


def test_legal_moves_entry_point_takes_garbage_cleanly() -> None:
    rng = random.Random(3)
    with pytest.raises(ERRORS):
        _csolver.legal_moves(9, COLS, DOWN, FOUND)
    with pytest.raises(ERRORS):
        _csolver.legal_moves(0, COLS[:3], DOWN, FOUND)
    for _ in range(2000):
        cols = [[rng.randrange(-2, 55) for _ in range(rng.randrange(0, 10))] for _ in range(7)]
        down = [rng.randrange(-1, 4) for _ in range(7)]
        found = [rng.randrange(-1, 15) for _ in range(4)]
        try:
            moves = _csolver.legal_moves(rng.randrange(5), cols, down, found, rng.random() < 0.5)
        except ERRORS:
            continue
        assert all(0 <= m < 52 * 8 for m in moves)


def test_the_search_by_levels_keeps_its_temporary_files_in_tmpdir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without a directory the entries of a level's part stay in memory while they are
    # few (deal 153's always are: no file at all), then go to unnamed files in $TMPDIR
    # (deal 64's do): where none can be made, the search stops (tmpfile() would have
    # used /tmp whatever TMPDIR said).
    small, larger = Position.deal(153), Position.deal(64)
    small_args = (0, small.cols, small.down, small.found)
    args = (0, larger.cols, larger.down, larger.found)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    assert _csolver.exhaust_by_levels(*args, memory_mb=16) == (1, 113_371, 32_076, "")
    monkeypatch.setenv("TMPDIR", str(tmp_path / "missing"))
    verdict, positions, _, reason = _csolver.exhaust_by_levels(*args, memory_mb=16)
    assert (verdict, reason) == (2, "memory") and positions < 113_371
    assert _csolver.exhaust_by_levels(*small_args, memory_mb=16) == (1, 11_275, 368, "")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_the_search_by_levels_takes_garbage_and_any_layout() -> None:
    for args in [(9, COLS, DOWN, FOUND), (0, COLS[:3], DOWN, FOUND), (0, COLS, DOWN, [1, 0, 0, 0])]:
        with pytest.raises(ERRORS):
            _csolver.exhaust_by_levels(*args)
    with pytest.raises(ERRORS):
        _csolver.exhaust_by_levels(0, COLS, DOWN, FOUND, max_nodes=-1)
    garbage: list[Any] = [b"/tmp", 7, "/tmp/\0x", "/" + "x" * 5000]
    for directory in garbage:
        with pytest.raises(ERRORS):
            _csolver.exhaust_by_levels(0, COLS, DOWN, FOUND, directory=directory)
    # Random layouts: where both the search by levels and the depth-first plain search
    # settle, they agree, through the same number of positions when lost.
    rng = random.Random(8)
    agreed = lost = 0
    for _ in range(400):
        cols, down, found = random_layout(rng, lowest=5)
        variant, budget = rng.randrange(5), rng.choice([1, 50, 5000, 50000, 50000])
        verdict, positions, held, reason = _csolver.exhaust_by_levels(
            variant, cols, down, found, memory_mb=16, max_nodes=budget
        )
        assert verdict in (0, 1, 2) and held <= positions <= budget
        assert reason == ("nodes" if verdict == 2 else "")
        plain = _csolver.solve(variant, cols, down, found, flags=0, max_nodes=budget)
        if verdict != 2 and plain[0] != 2:
            assert verdict == plain[0] and (verdict == 0 or positions == plain[2])
            agreed += 1
            lost += verdict == 1
    assert agreed >= 100 and lost >= 20


@pytest.mark.slow
def test_a_search_by_levels_stopped_halfway_and_resumed_agrees(tmp_path: Path) -> None:
    # Random layouts of every variant, each searched whole and then stopped halfway and
    # resumed from its directory: the same verdict, through the same positions when lost.
    rng = random.Random(11)
    resumed = {0: 0, 1: 0}
    for _ in range(200):
        cols, down, found = random_layout(rng, lowest=5)
        args = (rng.randrange(5), cols, down, found)
        whole = _csolver.exhaust_by_levels(*args, memory_mb=16, max_nodes=20_000)
        if whole[0] == 2 or whole[1] < 10:
            continue
        half = _csolver.exhaust_by_levels(
            *args, memory_mb=16, max_nodes=whole[1] // 2, directory=str(tmp_path)
        )
        if half[0] != 2:  # won before half the positions of the whole run
            assert half[0] == whole[0] == 0
            continue
        stopped = (tmp_path / "state.json").exists()
        again = _csolver.exhaust_by_levels(*args, memory_mb=16, directory=str(tmp_path))
        assert again[0] == whole[0] and (whole[0] == 0 or again[:3] == whole[:3])
        assert not list(tmp_path.iterdir())
        resumed[whole[0]] += stopped
    assert resumed[0] >= 40 and resumed[1] >= 8, resumed


@pytest.mark.slow
def test_a_narrow_table_agrees_with_the_wide_one_on_random_layouts() -> None:
    # Random layouts and deals of every variant (take-back or not, every rule or none),
    # each searched with the wide table and with one that goes narrow at 2,048 slots: the
    # same verdict, line and count (at 67 bits or more, no false merge is expected). With
    # 1 bit kept, false merges are everywhere: they lose wins the wide search finds, yet a
    # win found is still a win, never on a layout the wide search proves lost.
    rng = random.Random(31)
    narrowed = lost_wins = 0
    for _ in range(400):
        variant = rng.randrange(5)
        if rng.random() < 0.5:
            cols, down, found = random_layout(rng, rng.randint(0, 2))
        else:
            deal = Position.deal(rng.randrange(1, 10**6), list(VARIANT_CODES)[variant])
            cols, down, found = deal.cols, deal.down, deal.found
        args = (variant, cols, down, found)
        options: dict[str, Any] = {
            "takeback": rng.random() < 0.3,
            "flags": rng.choice([0, _csolver.F_ALL]),
            "expect_nodes": 1,
        }
        wide = _csolver.Search(*args, **options).run(max_nodes=50_000)
        narrow = _csolver.Search(*args, **options, narrow=2048)
        assert narrow.run(max_nodes=50_000) == wide, (args, options)
        narrowed += narrow.narrowed
        lossy = _csolver.Search(*args, **options, narrow=2048, narrow_bits=1).run(max_nodes=50_000)
        assert not (lossy[0] == 0 and wide[0] == 1), (args, options)
        lost_wins += lossy[0] != 0 and wide[0] == 0
    assert narrowed >= 50 and lost_wins >= 10
