"""The Yukon Daily solver: proves deals winnable (with the line) or unwinnable.

The search runs in C (``yukon.solver._csolver``, a depth-first search over a transposition
table, with the GIL released); this layer picks the budgets, runs a portfolio of searches
and replays every winning line through ``yukon.engine`` before returning it.

    >>> result = solve(1)                        # deal 1, Yukon, 10 s at most
    >>> result.verdict
    'solved'

Multi-deck variants (Double, Triple, Quadruple Yukon) are searched by a second C core,
``yukon.solver._cmulti`` (duplicate cards), under the same portfolio, budgets and replay
of every line.

Verdicts: ``solved`` (``moves`` is a verified winning line from the given position),
``unwinnable`` (a search whose every pruning rule is proven sound exhausted the space,
telling positions apart by 128-bit keys)
and ``unknown`` (the budget ran out first; ``reason`` says which). See docs/solver.md.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Final, Literal

from yukon.engine import EngineError, Position

from . import _cmulti, _csolver

__all__ = [
    "ALL_RULES",
    "DEFAULT_MEMORY_MB",
    "DEFAULT_SECONDS",
    "SOLVER_VERSION",
    "VARIANT_CODES",
    "SolveResult",
    "SolverError",
    "Verdict",
    "luby",
    "proof_share",
    "solve",
    "verify_line",
]

log = logging.getLogger("yukon.solver")

Verdict = Literal["solved", "unwinnable", "unknown"]

# Bumped whenever a change can alter a verdict, a line or a node count (recorded with
# every published study). 3: the table grows in place and some memory_mb hold more
# positions (node counts unchanged; a search that stopped for memory may now settle).
# 4: a position where some card can never go home is lost (F_STUCK): fewer positions,
# more deals settled. 5: at a search's first position, two cards that must lie on the
# same parent at once (F_TWIN). 6: the proof search's table goes narrow (8-byte slots)
# past 2^23 slots, so it holds twice the positions in the same memory_mb, and a narrow
# search that runs out is proven again with a wide table (node counts unchanged below
# about 2.1 million positions in the proof search); after 3 million positions the proof
# search gets 64 positions per restart position instead of 16. 7: the table goes narrow in
# place, so a proof search whose table fills its cap (memory_mb from 64 to 127) still goes
# narrow and holds twice the positions (node counts unchanged otherwise). 8: every
# search keeps one table entry per twin class (F_MERGE, Yukon): other lines, node counts
# and verdicts; a position count includes the classes' other members. 9: the multi-deck
# games are searched in C (``_cmulti``) under the portfolio, with cards that can never
# go home (F_STUCK) over copies; Yukon's family unchanged. 10: the proof search's table
# goes narrow at 2^24 slots, not 2^23 (narrow_slots): a proof search that exhausts between
# about 2.1 and 4.2 million classes is a proof the first time (deal 71), where it was
# "unknown" under a position budget; below that, verdicts and node counts unchanged. 11:
# the proof search's table goes narrow only at its memory cap (2^26 slots in 768 MB): a
# proof search that exhausts between about 4.2 and 16.7 million classes (deal 166, 7.3
# million) is a proof the first time, not a narrow "probably lost" searched again wide;
# verdicts and node counts unchanged below 4.2 million classes.
SOLVER_VERSION: Final = 11
DEFAULT_SECONDS: Final = 10.0
DEFAULT_MEMORY_MB: Final = 768
VARIANT_CODES: Final = {
    "yukon": 0,
    "russian": 1,
    "alaska": 2,
    "moosehide": 3,
    "moosehide-runs": 4,
}
# Every rule in ALL_RULES has a soundness argument in docs/solver.md and a test in
# yukon/tests/solver/test_soundness.py. Twin classes (F_MERGE, version 8) apply to Yukon only.
ALL_RULES: Final = _csolver.F_ALL | _csolver.F_MERGE
FIRST_NODES: Final = 20_000  # the first, deterministic run
LUBY_UNIT: Final = 20_000  # positions per Luby unit in the restarts
PROOF_SHARE: Final = 2.0  # proof-search positions per restart position, interleaved
# After LATE_AFTER positions in all, the proof search gets LATE_PROOF_SHARE: the restarts
# win their deals early or not at all (docs/solver.md, "The portfolio"), and since
# version 4 the proof search finds the late wins (deal 110 at 14.8 million positions).
# 16 in version 5; 64 since version 6 (the same deals settled on 1..400 at every budget,
# the late proof wins 2 to 4 % sooner).
LATE_AFTER: Final = 3_000_000
LATE_PROOF_SHARE: Final = 64.0


def narrow_slots(memory_mb: int) -> int:
    """Where the proof search's table goes narrow: only at its memory cap, when the wide
    table (16-byte slots) cannot double within ``memory_mb`` any more, so that it goes
    narrow in place and holds twice the positions. Until then every exhaustion is a proof
    the first time (docs/solver.md, "Narrow table"). A table under 64 MB never goes
    narrow (2^23 slots are out of its reach), as before."""
    wide = 1024
    while wide * 2 * 16 <= memory_mb << 20:
        wide *= 2
    return max(2 * wide, 1 << 23)


def proof_share(used: int) -> float:
    """Proof-search positions per restart position, once ``used`` positions are spent."""
    return PROOF_SHARE if used < LATE_AFTER else LATE_PROOF_SHARE


class SolverError(ValueError):
    """A position or a budget the solver cannot work with."""


@dataclass(frozen=True)
class SolveResult:
    verdict: Verdict
    moves: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0  # wall-clock time of the call
    reason: str = ""  # for "unknown": "nodes", "seconds", "wall", "memory" or "verification"
    cpu_seconds: float = 0.0  # CPU time of the call (what the ``seconds`` budget counts)

    def to_dict(self) -> dict[str, object]:
        return {
            "verdict": self.verdict,
            "moves": list(self.moves),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def luby(i: int) -> int:
    """The i-th term (1-based) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ..."""
    if i < 1:
        raise ValueError("the Luby sequence starts at 1")
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


def _start_position(position: Position | int | str, variant: str) -> Position:
    if isinstance(position, Position):
        return position.copy()
    if isinstance(position, bool):
        raise SolverError("a deal number is an int, not a bool")
    if isinstance(position, int):
        return Position.deal(position, variant)
    if isinstance(position, str):
        return Position.from_text(position)
    raise SolverError(
        f"solve() takes a Position, a deal number or a position text, not {type(position).__name__}"
    )


def verify_line(start: Position, moves: list[str]) -> str | None:
    """Replay ``moves`` from a copy of ``start``; None when they win, else what went wrong."""
    position = start.copy()
    for index, text in enumerate(moves):
        try:
            position.play_text(text)
        except EngineError as exc:
            return f"move {index + 1} ({text}) is illegal: {exc}"
    if not position.is_won():
        return f"the line ends before the game is won ({sum(position.found)} cards home)"
    return None


class _Budget:
    """What is left of the caller's budgets across the runs of the portfolio.

    ``seconds`` counts CPU time of this thread (the C search runs in it with the GIL
    released), so the verdict does not depend on how long the thread waits for a core
    (only, a little, on how fast a loaded machine's shared caches let it run); ``nodes``
    is exactly reproducible; ``wall`` optionally caps wall-clock time for callers that
    must answer in time.
    """

    def __init__(self, seconds: float | None, nodes: int | None, wall: float | None) -> None:
        self.seconds = seconds
        self.nodes = nodes
        self.wall = wall
        self.t0 = time.monotonic()
        self.cpu0 = time.thread_time()
        self.used = 0
        self.extra_cpu = 0.0  # another thread's, added once it is done (jobs=2)

    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    def cpu(self) -> float:
        return time.thread_time() - self.cpu0 + self.extra_cpu

    def seconds_until(self, limit: float | None) -> float:
        """CPU seconds for the next C run, up to ``limit`` since the start (0.0 = none)."""
        if limit is None:
            return 0.0
        return max(limit - self.cpu(), 1e-3)

    def wall_until(self) -> float:
        """Wall-clock seconds for the next C run (0.0 = no limit)."""
        if self.wall is None:
            return 0.0
        return max(self.wall - self.elapsed(), 1e-3)

    def out_of_time(self) -> str:
        """Which time budget is spent: "seconds", "wall" or "" (neither)."""
        if self.seconds is not None and self.cpu() >= self.seconds:
            return "seconds"
        if self.wall is not None and self.elapsed() >= self.wall:
            return "wall"
        return ""

    def nodes_until(self, limit: int | None, cap: int = 0) -> int:
        """Nodes for the next C run, up to ``limit`` in all and ``cap`` per run (0 = none)."""
        if limit is None:
            return cap
        left = max(1, limit - self.used)
        return min(left, cap) if cap else left

    def spent(self) -> bool:
        if self.out_of_time():
            return True
        return self.nodes is not None and self.used >= self.nodes


def solve(
    position: Position | int | str,
    *,
    variant: str = "yukon",
    seconds: float | None = DEFAULT_SECONDS,
    nodes: int | None = None,
    memory_mb: int = DEFAULT_MEMORY_MB,
    restarts: bool = True,
    rules: int = ALL_RULES,
    wall_seconds: float | None = None,
    jobs: int = 1,
) -> SolveResult:
    """Solve a position: a ``Position``, a deal number (of ``variant``) or a position text.

    ``seconds`` (CPU time of the calling thread) and ``nodes`` bound the whole portfolio
    (at least one must be given); ``wall_seconds`` optionally caps wall-clock time too (a
    verdict then may depend on the machine's load). ``memory_mb`` caps the transposition
    table of each search. ``restarts=False`` runs only the deterministic exhaustive
    search. ``rules`` (a subset of ``ALL_RULES``) switches pruning rules off for the
    soundness tests; every rule is proven sound, so any subset gives trustworthy verdicts.

    ``jobs=2`` uses a second core: the proof search and the restarts run side by side in
    two threads (the C search releases the GIL), each with the whole ``seconds`` of its
    own CPU and the whole ``nodes``, and the first to settle the deal stops the other.
    The verdict is the one either would reach alone; which line comes back may depend on
    timing.
    """
    _check_budgets(seconds, nodes, memory_mb, rules)
    if wall_seconds is not None and (isinstance(wall_seconds, bool) or not 0 < wall_seconds <= 1e6):
        raise SolverError("wall_seconds must be a number > 0 and <= 1e6")
    if jobs not in (1, 2) or isinstance(jobs, bool):
        raise SolverError("jobs must be 1 or 2")
    start = _start_position(position, variant)
    runs = _Runs(start, rules, memory_mb, seconds, wall_seconds)
    if jobs == 2 and restarts:
        return _solve_side_by_side(runs, nodes)
    budget = _Budget(seconds, nodes, wall_seconds)
    # The proof search: one deterministic search, run in slices that resume where the
    # last one stopped (same table), interleaved with Luby restarts with random
    # tie-breaks and a fresh table each. Any run that exhausts the space with a wide table
    # proves the loss: the move order never affects soundness.
    proof = runs.proof_search(FIRST_NODES if restarts else 0)
    if not restarts:
        verdict, line, reason = proof.run(budget, budget.nodes_until(nodes))
        return _finish(start, budget, verdict, line, reason)
    verdict, line, reason = proof.run(budget, budget.nodes_until(nodes, FIRST_NODES))
    proof_open = reason != "memory"
    i = 1
    while verdict == 2 and not budget.spent():
        # (once the proof search's table is full, only restarts are left)
        step = budget.nodes_until(nodes, luby(i) * LUBY_UNIT)
        verdict, line, used, reason = runs.restart(budget, step, i)
        i += 1
        if verdict != 2 or budget.spent() or not proof_open:
            continue
        step = budget.nodes_until(nodes, max(1, round(proof_share(budget.used) * used)))
        verdict, line, reason = proof.run(budget, step)
        proof_open = reason != "memory"
    if verdict == 2 and reason != "memory":
        if budget.out_of_time():
            reason = budget.out_of_time()
        elif nodes is not None and budget.used >= nodes:
            reason = "nodes"
    return _finish(start, budget, verdict, line, reason)


@dataclass(frozen=True)
class _Runs:
    """The C searches of one call: the position, the rules and the budgets they share.

    One-deck variants run in ``_csolver``, multi-deck ones in ``_cmulti`` (same flag bits
    for the rules both know; twin classes, the twin lock and the narrow table are the
    one-deck core's alone, docs/solver.md)."""

    start: Position
    rules: int
    memory_mb: int
    seconds: float | None
    wall_seconds: float | None

    @property
    def multi_deck(self) -> bool:
        return self.start.variant.multi_deck

    def _args(self) -> tuple[int, list[list[int]], list[int], list[int]]:
        start = self.start
        first = start.variant.decks if self.multi_deck else VARIANT_CODES[start.variant.name]
        return first, start.cols, start.down, start.found

    def restart(self, budget: _Budget, max_nodes: int, i: int) -> tuple[int, list[int], int, str]:
        """Restart ``i``: random tie-breaks (its own seed), a fresh table."""
        seconds, wall = budget.seconds_until(self.seconds), budget.wall_until()
        seed = (i * 0x9E3779B97F4A7C15) % (1 << 64)
        if self.multi_deck:
            found = _cmulti.solve(
                *self._args(),
                flags=self.rules & _cmulti.F_ALL,
                max_nodes=max_nodes,
                seconds=seconds,
                wall_seconds=wall,
                memory_mb=self.memory_mb,
                seed=seed,
                randomize=True,
            )
        else:
            found = _csolver.solve(
                *self._args(),
                flags=self.rules,
                max_nodes=max_nodes,
                seconds=seconds,
                wall_seconds=wall,
                memory_mb=self.memory_mb,
                seed=seed,
                randomize=True,
                takeback=self.start.variant.foundation_takeback,
            )
        verdict, line, used, reason = found
        budget.used += used
        return verdict, line, used, reason

    def search(self, expect_nodes: int, *, narrow: int) -> _csolver.Search | _cmulti.Search:
        """A deterministic search; its table goes narrow at ``narrow`` slots (0: never;
        the multi-deck table never does)."""
        if self.multi_deck:
            return _cmulti.Search(
                *self._args(),
                flags=self.rules & _cmulti.F_ALL,
                memory_mb=self.memory_mb,
                expect_nodes=expect_nodes,
            )
        return _csolver.Search(
            *self._args(),
            flags=self.rules,
            memory_mb=self.memory_mb,
            expect_nodes=expect_nodes,
            takeback=self.start.variant.foundation_takeback,
            narrow=narrow,
        )

    def proof_search(self, expect_nodes: int) -> _Proof:
        """The deterministic search, run in slices by ``_Proof.run``."""
        return _Proof(self, self.search(expect_nodes, narrow=narrow_slots(self.memory_mb)))


class _Proof:
    """The portfolio's deterministic search, run in slices that resume where the last one
    stopped. Its table narrows (8-byte slots) when it grows large: faster, but keys are
    told apart by 79 bits or more, not 128, so two positions may be taken for one. A win
    it finds is a real line (replayed anyway); an exhausted narrow search only says
    "probably lost", and the search begins again with a wide table, whose exhaustion is
    the proof (docs/solver.md, "Narrow table")."""

    def __init__(self, runs: _Runs, search: _csolver.Search | _cmulti.Search) -> None:
        self.runs = runs
        self.search = search

    def run(self, budget: _Budget, max_nodes: int) -> tuple[int, list[int], str]:
        """The next slice: ``max_nodes`` positions at most (0: no limit)."""
        while True:
            verdict, line, used, reason = self.search.run(
                max_nodes=max_nodes,
                seconds=budget.seconds_until(self.runs.seconds),
                wall_seconds=budget.wall_until(),
            )
            budget.used += used
            if verdict != 1 or not self.search.narrowed:
                return verdict, line, reason
            narrow_nodes = self.search.nodes
            log.info("the narrow search ran out at %d positions: proving it wide", narrow_nodes)
            self.search = self.runs.search(narrow_nodes, narrow=0)
            if max_nodes and used >= max_nodes:
                return 2, [], "nodes"
            if max_nodes:
                max_nodes -= used
            if budget.out_of_time():
                return 2, [], budget.out_of_time()


# Positions per slice of the proof search when it runs beside the restarts: how often it
# looks whether the restarts have settled the deal (about half a second).
SIDE_SLICE: Final = 1_000_000


def _solve_side_by_side(runs: _Runs, nodes: int | None) -> SolveResult:
    """``solve(..., jobs=2)``: the proof search in this thread, the restarts in another."""
    settled = threading.Event()
    found: list[tuple[int, list[int], int, float]] = []
    failed: list[BaseException] = []

    def restarts() -> None:
        budget = _Budget(runs.seconds, nodes, runs.wall_seconds)
        verdict, i = 2, 1
        line: list[int] = []
        try:
            while verdict == 2 and not settled.is_set() and not budget.spent():
                step = budget.nodes_until(nodes, luby(i) * LUBY_UNIT)
                verdict, line, _, _ = runs.restart(budget, step, i)
                i += 1
        except BaseException as exc:  # raised again in the caller's thread
            failed.append(exc)
        found.append((verdict, line, budget.used, budget.cpu()))
        if verdict != 2:
            settled.set()

    helper = threading.Thread(target=restarts, name="solver-restarts", daemon=True)
    helper.start()
    budget = _Budget(runs.seconds, nodes, runs.wall_seconds)
    verdict, reason = 2, ""
    line: list[int] = []
    try:
        proof = runs.proof_search(FIRST_NODES)
        while verdict == 2 and reason != "memory" and not settled.is_set() and not budget.spent():
            step = budget.nodes_until(nodes, SIDE_SLICE)
            verdict, line, reason = proof.run(budget, step)
    except BaseException:
        settled.set()
        helper.join()
        raise
    if verdict != 2:
        settled.set()  # else the restarts run to the end of their own budget: a verdict
    helper.join()  # never depends on which thread ran faster
    if failed:
        raise failed[0]
    other_verdict, other_line, other_used, other_cpu = found[0]
    if verdict == 2 and reason != "memory":
        reason = budget.out_of_time() or "nodes"
    if verdict == 2 and other_verdict != 2:
        verdict, line = other_verdict, other_line
    budget.used += other_used
    budget.extra_cpu = other_cpu
    return _finish(runs.start, budget, verdict, line, reason)


def _check_budgets(seconds: float | None, nodes: int | None, memory_mb: int, rules: int) -> None:
    if seconds is None and nodes is None:
        raise SolverError("give a budget: seconds, nodes or both")
    if seconds is not None and (isinstance(seconds, bool) or not 0 < seconds <= 1e6):
        raise SolverError("seconds must be a number > 0 and <= 1e6")
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1):
        raise SolverError("nodes must be a whole number >= 1")
    if isinstance(memory_mb, bool) or not isinstance(memory_mb, int):
        raise SolverError("memory_mb must be a whole number")
    if not 1 <= memory_mb <= 1 << 20:
        raise SolverError("memory_mb must be from 1 to 1048576")
    if isinstance(rules, bool) or not isinstance(rules, int) or rules & ~ALL_RULES or rules < 0:
        raise SolverError("unknown rule flags")


def _replay(start: Position, line: list[int]) -> tuple[list[str], str | None]:
    """The engine replays the search's line from a copy of ``start``: the line's move texts,
    and None when it wins, else what went wrong. The texts are written as each move is
    played: a multi-deck move's text names its column and copy, which depend on the
    position it is played in (``verify_line`` replays texts; this replays the moves the
    search gave, without writing and reading each one back)."""
    position = start.copy()
    texts: list[str] = []
    for index, move in enumerate(line):
        refusal = position.refusal(move)
        if refusal is not None:
            return texts, f"move {index + 1} ({move}) is illegal: {refusal}"
        texts.append(position.move_text(move))
        position.push(move)
    if not position.is_won():
        return texts, f"the line ends before the game is won ({sum(position.found)} cards home)"
    return texts, None


def _finish(
    start: Position, budget: _Budget, verdict: int, line: list[int], reason: str
) -> SolveResult:
    elapsed, cpu = budget.elapsed(), budget.cpu()
    if verdict == 0:
        texts, problem = _replay(start, line)
        if problem is None:
            return SolveResult("solved", texts, budget.used, elapsed, "", cpu)
        log.error(
            "SOLVER BUG: a 'solved' line does not replay (%s); position %s; line %s",
            problem,
            start.to_text(),
            " ".join(texts),
        )
        return SolveResult("unknown", [], budget.used, elapsed, "verification", cpu)
    if verdict == 1:
        return SolveResult("unwinnable", [], budget.used, elapsed, "", cpu)
    return SolveResult("unknown", [], budget.used, elapsed, reason or "seconds", cpu)
