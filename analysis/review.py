"""Finding the move that threw a game away: a binary search over the player's line.

Winnability is monotone along a line: a winning line from a later position also wins from
every earlier one (play the player's moves, then that line), so once a position is lost,
every position after it is lost too. The first lost position is therefore found by
bisection, with one solver call per probe. A probe the solver cannot settle within its
budget is set aside and the search tries the other positions in the interval; whatever
stays open is reported as undecided, never guessed.

Pure Python on top of the engine and the solver: no Django here (the bench uses it too).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from yukon.engine import Position, replay_log
from yukon.solver import SolveResult

Solver = Callable[[Position], SolveResult]


@dataclass
class Review:
    """What the search found. Indexes count standing moves: position k follows move k."""

    outcome: str  # won | winnable_at_end | lost_at | never_winnable | undecided
    moves: int
    last_winnable: int | None = None  # the last position proven winnable
    first_lost: int | None = None  # the first position proven lost
    continuation: list[str] = field(default_factory=list)  # a win from last_winnable
    par: int | None = None  # the solver's line length from the deal
    solves: int = 0
    nodes: int = 0
    seconds: float = 0.0

    @property
    def losing_move(self) -> int | None:
        """The 1-based number of the move that lost the game, when it is pinned down."""
        if self.outcome == "lost_at" and self.first_lost is not None:
            return self.first_lost
        return None


def positions_along(start: Position, moves: list[str]) -> list[Position]:
    """Every position of the line: ``[start, after move 1, ..., after move n]``."""
    position = start.copy()
    out = [position.copy()]
    out.extend(step.position.copy() for step in replay_log(position, moves, undo=False))
    return out


class _Bisection:
    """The search state: ``lo`` the last position known winnable, ``hi`` the first known
    lost; -1 and n + 1 stand for "none known" at either end."""

    def __init__(self, positions: list[Position], moves: list[str], solver: Solver) -> None:
        self.positions = positions
        self.moves = moves
        self.solver = solver
        self.n = len(moves)
        self.lo, self.hi = -1, self.n + 1
        self.lines: dict[int, list[str]] = {}  # a winning line from each known winnable lo
        self.open: set[int] = set()  # probed, but the solver could not settle them
        self.review = Review(outcome="undecided", moves=self.n)

    def probe(self, index: int) -> SolveResult:
        result = self.solver(self.positions[index])
        self.review.solves += 1
        self.review.nodes += result.nodes
        self.learn(index, result)
        return result

    def learn(self, index: int, result: SolveResult) -> None:
        if result.verdict == "unknown":
            self.open.add(index)
        elif result.verdict == "unwinnable":
            self.hi = min(self.hi, index)
        else:
            # The player may have followed the line for a while: each of those positions
            # is winnable too, by the rest of the same line.
            line, k = result.moves, 0
            while index + k < self.n and k < len(line) and line[k] == self.moves[index + k]:
                k += 1
            if index + k > self.lo:
                self.lo = index + k
                self.lines[self.lo] = line[k:]

    def next_probe(self) -> int | None:
        """The unsettled position nearest the middle of the open interval."""
        candidates = [i for i in range(self.lo + 1, self.hi) if i not in self.open]
        if not candidates:
            return None
        middle = (self.lo + self.hi) / 2
        return min(candidates, key=lambda i: (abs(i - middle), i))

    def outcome(self) -> str:
        lo, hi, n = self.lo, self.hi, self.n
        if hi == 0:
            return "never_winnable"
        if lo == n:
            return "winnable_at_end"
        if lo >= 0 and hi == lo + 1:
            return "lost_at"
        return "undecided"


def review_line(
    start: Position,
    moves: list[str],
    solver: Solver,
    *,
    total_seconds: float,
    deal_result: SolveResult | None = None,
) -> Review:
    """Bisect ``moves`` (legal from ``start``) for the first position from which no line wins.

    ``deal_result`` is a verdict already known for ``start`` (a solved daily deal); an
    ``unknown`` one is ignored. ``total_seconds`` bounds the probes started, not each probe:
    the solver's own budget bounds those.
    """
    began = time.monotonic()
    search = _Bisection(positions_along(start, moves), moves, solver)
    review, n = search.review, search.n
    if deal_result is None or deal_result.verdict == "unknown":
        deal_result = search.probe(0)
    else:
        search.learn(0, deal_result)
    if deal_result.verdict == "solved":
        review.par = len(deal_result.moves)
    final = search.positions[n]
    if final.is_won():
        search.lo = n
    elif search.hi > 0 and search.lo < n:
        if final.is_stuck():
            search.hi = n  # no legal move and not won: lost without asking the solver
        else:
            search.probe(n)
    while search.hi - search.lo > 1 and time.monotonic() - began < total_seconds:
        index = search.next_probe()
        if index is None:
            break
        search.probe(index)

    review.seconds = time.monotonic() - began
    review.last_winnable = search.lo if search.lo >= 0 else None
    review.first_lost = search.hi if search.hi <= n else None
    review.continuation = search.lines.get(search.lo, [])
    review.outcome = "won" if final.is_won() else search.outcome()
    return review
