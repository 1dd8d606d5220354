"""The multi-deck C entry points take any input without crashing: a clean exception or a
result; a search run in slices is the search run in one go. (scripts/solver-sanitize-test
runs this file under AddressSanitizer and UBSan.)"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from yukon.engine import Position
from yukon.solver import _cmulti

GOOD = Position.deal(5, "double-yukon")
COLS: list[Any] = [list(c) for c in GOOD.cols]
DOWN: list[Any] = list(GOOD.down)
FOUND: list[Any] = list(GOOD.found)
ERRORS = (ValueError, TypeError, OverflowError)


def call(*args: Any, **kwargs: Any) -> None:
    kwargs.setdefault("max_nodes", 2000)
    try:
        result = _cmulti.solve(*args, **kwargs)
    except ERRORS:
        return
    verdict, moves, nodes, reason = result
    assert verdict in (0, 1, 2)
    assert all(isinstance(m, int) and 0 <= m < 208 << 5 for m in moves)
    assert nodes >= 0
    assert isinstance(reason, str)


@pytest.mark.parametrize(
    "args",
    [
        (1, COLS, DOWN, FOUND),
        (5, COLS, DOWN, FOUND),
        (3, COLS, DOWN, FOUND),  # a double deal read as triple: faces missing
        (2, [], [], FOUND),
        (2, [[]] * 17, [0] * 17, FOUND),
        (2, COLS, DOWN[:9], FOUND),
        (2, COLS, DOWN, FOUND[:7]),
        (2, COLS, DOWN, [*FOUND, 0]),
        (2, None, DOWN, FOUND),
        (2, "abcdefghij", DOWN, FOUND),
        (2, [[0]] * 10, DOWN, FOUND),
        (2, [[*COLS[0], 104], *COLS[1:]], DOWN, FOUND),
        (2, [[-1], *COLS[1:]], DOWN, FOUND),
        (2, [[2**70], *COLS[1:]], DOWN, FOUND),
        (2, [[True], *COLS[1:]], DOWN, FOUND),
        (2, [[1.0], *COLS[1:]], DOWN, FOUND),
        (2, [list(range(105)), *([[]] * 9)], [0] * 10, [0] * 8),
        (2, COLS, [len(COLS[0]), *DOWN[1:]], FOUND),
        (2, COLS, [*DOWN[:-1], 99], FOUND),
        (2, COLS, [*DOWN[:-1], -1], FOUND),
        (2, COLS, DOWN, [14, *FOUND[1:]]),
        (2, COLS, DOWN, [1, *FOUND[1:]]),
        (2, [c[:-1] for c in COLS], DOWN, FOUND),
        ("double", COLS, DOWN, FOUND),
    ],
)
def test_malformed_inputs_raise_cleanly(args: tuple[Any, ...]) -> None:
    with pytest.raises(ERRORS):
        _cmulti.solve(*args)
    with pytest.raises(ERRORS):
        _cmulti.Search(*args)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"flags": -1},
        {"flags": 1 << 20},
        {"flags": 32},  # the one-deck core's twin lock: not a rule of this search
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
        _cmulti.solve(2, COLS, DOWN, FOUND, **kwargs)


def test_random_garbage_never_crashes() -> None:
    rng = random.Random(99)
    pool: list[Any] = [0, 1, 103, 104, 207, 208, -1, 2**63, None, "x", 1.5, [], [1], (2, 3)]
    for _ in range(2000):
        decks = rng.choice([1, 2, 2, 3, 4, 5])
        ncols = rng.choice([0, 9, 10, 13, 16, 17])
        cols = [
            [
                rng.choice(pool) if rng.random() < 0.05 else rng.randrange(-2, 52 * decks + 3)
                for _ in range(rng.randrange(0, 14))
            ]
            for _ in range(ncols)
        ]
        down = [rng.randrange(-1, 5) for _ in range(ncols)]
        found = [rng.randrange(-1, 15) for _ in range(4 * decks)]
        call(decks, cols, down, found)


def random_layout(
    rng: random.Random, decks: int, columns: int
) -> tuple[list[list[int]], list[int], list[int]]:
    """A valid position: each foundation from some count up, the rest dealt at random (any
    card on any card), some face down."""
    found = [rng.randint(rng.choice((0, 9)), 13) for _ in range(4 * decks)]
    cards = [(p // 4) * 52 + (p % 4) * 13 + r for p, f in enumerate(found) for r in range(f, 13)]
    rng.shuffle(cards)
    cols: list[list[int]] = [[] for _ in range(columns)]
    for card in cards:
        cols[rng.randrange(columns)].append(card)
    down = [rng.randint(0, len(c) - 1) if c else 0 for c in cols]
    return cols, down, found


def test_random_valid_positions_solve_cleanly() -> None:
    rng = random.Random(7)
    for _ in range(300):
        decks = rng.choice((2, 3, 4))
        cols, down, found = random_layout(rng, decks, rng.choice((1, 10, 13, 16)))
        call(
            decks,
            cols,
            down,
            found,
            flags=rng.randrange(_cmulti.F_ALL + 1) & _cmulti.F_ALL,
            max_nodes=rng.choice([1, 50, 3000]),
            seed=rng.getrandbits(64),
            randomize=rng.random() < 0.5,
            memory_mb=rng.choice((1, 64)),
        )


def test_a_search_in_slices_is_the_search_in_one_go() -> None:
    rng = random.Random(21)
    for deal in (2, 36):  # quadruple deal 2 and double deal 36 run long
        variant = "quadruple-yukon" if deal == 2 else "double-yukon"
        pos = Position.deal(deal, variant)
        args = (pos.variant.decks, pos.cols, pos.down, pos.found)
        whole = _cmulti.solve(*args, max_nodes=60_000)
        sliced = _cmulti.Search(*args)
        nodes = 0
        while nodes < 60_000:
            verdict, line, used, _ = sliced.run(max_nodes=min(rng.randint(1, 9000), 60_000 - nodes))
            nodes += used
            if verdict != 2:
                break
        assert (verdict, line, nodes) == whole[:3]
        assert sliced.nodes == nodes and not sliced.narrowed


def test_legal_moves_entry_point_takes_garbage_cleanly() -> None:
    rng = random.Random(3)
    with pytest.raises(ERRORS):
        _cmulti.legal_moves(1, COLS, DOWN, FOUND)
    with pytest.raises(ERRORS):
        _cmulti.legal_moves(2, COLS[:3], DOWN, FOUND)
    for _ in range(2000):
        decks = rng.choice((2, 3, 4))
        cols = [
            [rng.randrange(-2, 52 * decks + 2) for _ in range(rng.randrange(0, 12))]
            for _ in range(10)
        ]
        down = [rng.randrange(-1, 4) for _ in range(10)]
        found = [rng.randrange(-1, 15) for _ in range(4 * decks)]
        try:
            moves = _cmulti.legal_moves(decks, cols, down, found)
        except ERRORS:
            continue
        assert all(0 <= m < 208 << 5 for m in moves)


def test_the_sanitizer_build_is_the_one_loaded() -> None:
    # scripts/solver-sanitize-test sets YUKON_SANITIZED=1: the module must then be the
    # ASan build from its temporary directory, or the run would prove nothing.
    assert _cmulti.__file__ is not None
    if os.environ.get("YUKON_SANITIZED") == "1":
        assert _cmulti.__file__.startswith(os.environ["PYTHONPATH"])
