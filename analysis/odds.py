"""The odds study: how many numbered deals of each variant the solver wins, proves lost,
or leaves open within a budget. Results live in ``DealStudy`` rows, so a study resumes
where it stopped and the statistics page reads them."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from analysis.models import DealStudy
from games.engine import DEAL_ALGORITHM_VERSION, VARIANT_NAMES
from games.solver import SolveResult, solve

# Each search's table cap: studies run beside the site, and a few seconds of search never
# need more (1.7 million positions per second at 16 bytes each, 70 % full).
STUDY_MEMORY_MB = 512


@dataclass(frozen=True)
class OddsRow:
    """One variant's line of the table."""

    variant: str
    deals: int
    solved: int
    unwinnable: int
    undecided: int
    median_seconds: float | None
    p95_seconds: float | None
    median_length: float | None
    lengths: list[int]

    @property
    def win_rate(self) -> float | None:
        return self.solved / self.deals if self.deals else None

    @property
    def decided_share(self) -> float | None:
        return (self.solved + self.unwinnable) / self.deals if self.deals else None


def percentile(values: list[float], share: float) -> float | None:
    """The nearest-rank percentile (``share`` in 0..1) of ``values``; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(share * len(ordered) + 0.5)))
    return ordered[rank - 1]


def done_numbers(variant: str, numbers: range) -> set[int]:
    return set(
        DealStudy.objects.filter(
            variant=variant,
            algorithm_version=DEAL_ALGORITHM_VERSION,
            number__gte=numbers.start,
            number__lt=numbers.stop,
        ).values_list("number", flat=True)
    )


def store(variant: str, number: int, result: SolveResult, budget: float) -> None:
    length = len(result.moves) if result.verdict == "solved" else None
    try:
        with transaction.atomic():
            DealStudy.objects.update_or_create(
                variant=variant,
                number=number,
                algorithm_version=DEAL_ALGORITHM_VERSION,
                defaults={
                    "verdict": result.verdict,
                    "seconds": result.seconds,
                    "nodes": result.nodes,
                    "line_length": length,
                    "budget_seconds": budget,
                },
            )
    except IntegrityError:  # a second study stored the same deal meanwhile: theirs stands
        pass


def study(
    variant: str,
    numbers: Iterable[int],
    *,
    seconds: float,
    jobs: int = 1,
    on_result: Callable[[int, SolveResult], None] | None = None,
) -> int:
    """Solve each deal of ``numbers`` and store the verdict; return how many were studied.

    With ``jobs`` > 1 the searches run in threads (the C search releases the GIL); the
    database is written from this thread only.
    """
    todo = list(numbers)

    def one(number: int) -> tuple[int, SolveResult]:
        return number, solve(number, variant=variant, seconds=seconds, memory_mb=STUDY_MEMORY_MB)

    count = 0
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for number, result in pool.map(one, todo):
            store(variant, number, result, seconds)
            count += 1
            if on_result is not None:
                on_result(number, result)
    return count


def odds_row(variant: str, numbers: range | None = None) -> OddsRow:
    """The table line of ``variant`` over ``numbers`` (every studied deal when None)."""
    rows = DealStudy.objects.filter(variant=variant, algorithm_version=DEAL_ALGORITHM_VERSION)
    if numbers is not None:
        rows = rows.filter(number__gte=numbers.start, number__lt=numbers.stop)
    data = list(rows.values_list("verdict", "seconds", "line_length"))
    times = [s for _, s, _ in data]
    lengths = [n for v, _, n in data if v == "solved" and n is not None]
    return OddsRow(
        variant=variant,
        deals=len(data),
        solved=sum(1 for v, _, _ in data if v == "solved"),
        unwinnable=sum(1 for v, _, _ in data if v == "unwinnable"),
        undecided=sum(1 for v, _, _ in data if v == "unknown"),
        median_seconds=statistics.median(times) if times else None,
        p95_seconds=percentile(times, 0.95),
        median_length=statistics.median(lengths) if lengths else None,
        lengths=lengths,
    )


def all_rows() -> list[OddsRow]:
    studied = set(DealStudy.objects.values_list("variant", flat=True).distinct())
    return [odds_row(v) for v in VARIANT_NAMES if v in studied]


def format_table(rows: list[OddsRow]) -> str:
    """The table the command prints (Markdown, so it pastes into the docs)."""

    def pct(part: int, whole: int) -> str:
        return f"{part} ({100 * part / whole:.1f} %)" if whole else "0"

    def sec(value: float | None) -> str:
        return "-" if value is None else f"{value:.4f}"

    lines = [
        "| variant | deals | solved | proven unwinnable | undecided | median s | p95 s "
        "| median line |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        length = "-" if r.median_length is None else f"{r.median_length:.0f}"
        lines.append(
            f"| {r.variant} | {r.deals} | {pct(r.solved, r.deals)} "
            f"| {pct(r.unwinnable, r.deals)} | {pct(r.undecided, r.deals)} "
            f"| {sec(r.median_seconds)} | {sec(r.p95_seconds)} | {length} |"
        )
    return "\n".join(lines)
