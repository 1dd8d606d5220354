"""The odds study: how many numbered deals of each variant the solver wins, proves lost,
or leaves open within a budget. Results live in ``DealStudy`` rows, so a study resumes
where it stopped and the statistics page reads them."""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from django.db import IntegrityError, transaction

from analysis.models import DealStudy
from yukon.engine import DEAL_ALGORITHM_VERSION, VARIANT_NAMES
from yukon.solver import SOLVER_VERSION, SolveResult, solve

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


# ---------------------------------------------------------------- the published study
#
# The study shipped with the code (analysis/data/odds-study.json), so a fresh install's
# /stats/ shows it: every deal of a contiguous range per variant, solved with a position
# budget (exactly reproducible on any machine, unlike a time budget). It is run with
# ``manage.py odds --publish`` (see docs/odds.md), resumably: each verdict is appended to
# a work file as soon as it is known, and a rerun skips the deals already there.

STUDY_FILE = Path(__file__).resolve().parent / "data" / "odds-study.json"
STUDY_FORMAT = 2  # 2: each variant carries its own budget, solver version and commit
VERDICT_CODES: dict[str, str] = {"solved": "S", "unwinnable": "U", "unknown": "?"}
Z95 = 1.959964  # the normal quantile of a two-sided 95 % interval


@dataclass(frozen=True)
class Outcome:
    """One deal of the published study."""

    variant: str
    number: int
    verdict: str
    length: int | None
    nodes: int
    cpu_ms: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "number": self.number,
            "verdict": self.verdict,
            "length": self.length,
            "nodes": self.nodes,
            "cpu_ms": self.cpu_ms,
        }

    def to_json(self) -> str:
        return json.dumps(self.as_dict())


def study_one(variant: str, number: int, budget_nodes: int) -> Outcome:
    """The verdict of one deal within ``budget_nodes`` positions (deterministic)."""
    result = solve(
        number, variant=variant, seconds=None, nodes=budget_nodes, memory_mb=STUDY_MEMORY_MB
    )
    return Outcome(
        variant=variant,
        number=number,
        verdict=result.verdict,
        length=len(result.moves) if result.verdict == "solved" else None,
        nodes=result.nodes,
        cpu_ms=max(0, round(result.cpu_seconds * 1000)),
    )


def study_stamp(budget_nodes: int) -> dict[str, int]:
    """What a study's rows depend on besides the deal and the variant: rows made under
    another stamp do not compare, and never go into the same work file."""
    return {
        "budget_nodes": budget_nodes,
        "solver_version": SOLVER_VERSION,
        "deal_algorithm_version": DEAL_ALGORITHM_VERSION,
        "memory_mb": STUDY_MEMORY_MB,
    }


def study_chunk(variant: str, numbers: list[int], budget_nodes: int) -> dict[str, Any]:
    """One chunk of a study, as a study worker sends it back (JSON): the stamp it was made
    under and each deal's row. The same chunk solved again, anywhere, gives the same rows
    but for ``cpu_ms``."""
    rows = [study_one(variant, number, budget_nodes).as_dict() for number in numbers]
    return {**study_stamp(budget_nodes), "variant": variant, "rows": rows}


class WorkFile:
    """The resumable record of a study in progress: one JSON line per deal, after a header
    line naming the budget (a study never mixes budgets)."""

    def __init__(self, path: Path, budget_nodes: int) -> None:
        self.path = path
        self.budget_nodes = budget_nodes
        self.outcomes: dict[tuple[str, int], Outcome] = {}
        if path.exists():
            self._load()
        else:
            path.write_text(json.dumps(self.header()) + "\n")

    def header(self) -> dict[str, Any]:
        return {
            "budget_nodes": self.budget_nodes,
            "solver_version": SOLVER_VERSION,
            "deal_algorithm_version": DEAL_ALGORITHM_VERSION,
        }

    def _load(self) -> None:
        lines = self.path.read_text().splitlines()
        if not lines or json.loads(lines[0]) != self.header():
            raise ValueError(
                f"{self.path} holds a study with another budget or solver version: "
                "finish it with the same budget, or move it away"
            )
        for line in lines[1:]:
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:  # a line cut short by an interrupted run
                continue
            outcome = Outcome(**row)
            self.outcomes[(outcome.variant, outcome.number)] = outcome

    def add(self, outcome: Outcome) -> None:
        with self.path.open("a") as f:
            f.write(outcome.to_json() + "\n")
        self.outcomes[(outcome.variant, outcome.number)] = outcome

    def done(self, variant: str, numbers: Iterable[int]) -> set[int]:
        return {n for n in numbers if (variant, n) in self.outcomes}


def run_study(
    work: WorkFile,
    variant: str,
    numbers: Iterable[int],
    *,
    jobs: int = 1,
    on_result: Callable[[Outcome], None] | None = None,
) -> int:
    """Study the deals of ``numbers`` not yet in ``work``; ``jobs`` searches at once (the C
    search releases the GIL, so threads use the cores). Returns how many were studied."""
    todo = [n for n in numbers if (variant, n) not in work.outcomes]
    count = 0
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for outcome in pool.map(lambda n: study_one(variant, n, work.budget_nodes), todo):
            work.add(outcome)
            count += 1
            if on_result is not None:
                on_result(outcome)
    return count


def compact_study(
    work: WorkFile, git_commit: str = "", keep: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The shipped form of a study: per variant, the stamp its rows were made under
    (``study_stamp`` and the commit), then the verdicts of the contiguous run of deals from
    the lowest number studied, as one string (S solved, U proven unwinnable, ? undecided),
    the solved lines' lengths in deal order, and each deal's positions and CPU
    milliseconds. ``keep``: the variants of an earlier compact study (``kept_variants``),
    each with its own stamp, kept for those the work file does not hold."""
    ranges: dict[str, range] = {}
    for variant in VARIANT_NAMES:
        studied = {n for v, n in work.outcomes if v == variant}
        if studied:
            first = last = min(studied)
            while last + 1 in studied:
                last += 1
            ranges[variant] = range(first, last + 1)
    variants: dict[str, Any] = {}
    for variant in VARIANT_NAMES:
        if variant not in ranges:
            if keep and variant in keep:
                variants[variant] = keep[variant]
            continue
        numbers = ranges[variant]
        done = [work.outcomes[(variant, n)] for n in numbers]
        variants[variant] = {
            **study_stamp(work.budget_nodes),
            "git_commit": git_commit,
            "first": numbers.start,
            "verdicts": "".join(VERDICT_CODES[o.verdict] for o in done),
            "lengths": [o.length for o in done if o.verdict == "solved"],
            "nodes": [o.nodes for o in done],
            "cpu_ms": [o.cpu_ms for o in done],
        }
    return {
        "format": STUDY_FORMAT,
        "deal_algorithm_version": DEAL_ALGORITHM_VERSION,
        "variants": variants,
    }


def kept_variants(path: Path) -> dict[str, Any]:
    """The variants of the compact study at ``path``, to keep beside a new run's: a study
    published one variant at a time stays one file, each variant with the budget and
    solver it was made with (a variant the new run studies is replaced whole). Raise
    ValueError if the file is of another format or deal algorithm (its deal numbers
    would name other deals)."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    if data.get("format") != STUDY_FORMAT or data.get("deal_algorithm_version") != (
        DEAL_ALGORITHM_VERSION
    ):
        raise ValueError(
            f"{path} holds a study of format {data.get('format')!r} and deal algorithm "
            f"{data.get('deal_algorithm_version')!r}, not {STUDY_FORMAT} and "
            f"{DEAL_ALGORITHM_VERSION}: write this one to another --output"
        )
    variants: dict[str, Any] = data.get("variants", {})
    return variants


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (good near 0 and 1, unlike p +- z*se)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 and at every trial the bound is exactly 0 or 1 (the formula leaves rounding dust).
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Share:
    count: int
    share: float
    low: float  # 95 % confidence interval
    high: float


@dataclass(frozen=True)
class PublishedRow:
    """One variant of the shipped study, with its shares and 95 % confidence intervals, and
    what its rows were made with (each variant of the file is a study of its own)."""

    variant: str
    budget_nodes: int
    solver_version: int
    first: int
    deals: int
    solved: int
    unwinnable: int
    undecided: int
    solved_share: Share
    unwinnable_share: Share
    undecided_share: Share
    # The winnable share lies between the solved share and the solved + undecided share;
    # with sampling error, between the low end of the first and the high end of the second.
    winnable_low: float
    winnable_high: float
    median_cpu_ms: float | None
    p95_cpu_ms: float | None
    median_length: float | None
    lengths: list[int]
    cpu_ms: list[int]

    @property
    def last(self) -> int:
        return self.first + self.deals - 1

    # The names OddsRow has, so the charts draw either.
    @property
    def median_seconds(self) -> float | None:
        return None if self.median_cpu_ms is None else self.median_cpu_ms / 1000

    @property
    def p95_seconds(self) -> float | None:
        return None if self.p95_cpu_ms is None else self.p95_cpu_ms / 1000


@dataclass(frozen=True)
class PublishedStudy:
    deal_algorithm_version: int
    rows: list[PublishedRow]


def _share(count: int, deals: int) -> Share:
    low, high = wilson(count, deals)
    return Share(count, count / deals if deals else 0.0, low, high)


def published_row(variant: str, data: dict[str, Any]) -> PublishedRow:
    verdicts: str = data["verdicts"]
    deals = len(verdicts)
    solved, unwinnable = verdicts.count("S"), verdicts.count("U")
    undecided = deals - solved - unwinnable
    cpu = [int(ms) for ms in data["cpu_ms"]]
    lengths = [int(n) for n in data["lengths"]]
    if len(cpu) != deals or len(lengths) != solved or set(verdicts) - {"S", "U", "?"}:
        raise ValueError(f"the {variant} study is inconsistent")
    return PublishedRow(
        variant=variant,
        budget_nodes=int(data["budget_nodes"]),
        solver_version=int(data["solver_version"]),
        first=int(data["first"]),
        deals=deals,
        solved=solved,
        unwinnable=unwinnable,
        undecided=undecided,
        solved_share=_share(solved, deals),
        unwinnable_share=_share(unwinnable, deals),
        undecided_share=_share(undecided, deals),
        winnable_low=wilson(solved, deals)[0],
        winnable_high=wilson(solved + undecided, deals)[1],
        median_cpu_ms=statistics.median(cpu) if cpu else None,
        p95_cpu_ms=percentile([float(ms) for ms in cpu], 0.95),
        median_length=statistics.median(lengths) if lengths else None,
        lengths=lengths,
        cpu_ms=cpu,
    )


def load_published(path: Path = STUDY_FILE) -> PublishedStudy | None:
    """The shipped study, or None when there is none (or it is of another deal algorithm:
    its deal numbers would then name other deals)."""
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    if data.get("format") != STUDY_FORMAT:
        raise ValueError(f"{path}: unknown study format {data.get('format')!r}")
    if data["deal_algorithm_version"] != DEAL_ALGORITHM_VERSION:
        return None
    rows = [published_row(v, data["variants"][v]) for v in VARIANT_NAMES if v in data["variants"]]
    return PublishedStudy(deal_algorithm_version=int(data["deal_algorithm_version"]), rows=rows)


def percent_places(*shares: float) -> int:
    """The decimals to write shares with as percentages: one, or two or three where one
    would misstate them. A share above 0 never reads "0.0", one below 1 never "100.0", and
    two different shares side by side never read the same (3 deals in 20,000 are "0.015
    %" in "0.005-0.044 %", not "0.0 %" in "0.0-0.0 %")."""
    for places in (1, 2):
        read = [(share, float(f"{100 * share:.{places}f}")) for share in shares]
        if not any(
            (share > 0 and text == 0) or (share < 1 and text == 100) for share, text in read
        ) and not any(a != b and x == y for (a, x), (b, y) in pairwise(read)):
            return places
    return 3


def percents(*shares: float) -> list[str]:
    """The shares as percentages ("88.9"), with percent_places' decimals."""
    places = percent_places(*shares)
    return [f"{100 * share:.{places}f}" for share in shares]


def format_published(study: PublishedStudy) -> str:
    """The shipped study as a Markdown table (for docs/odds.md)."""

    def pct(share: Share) -> str:
        value, low, high = percents(share.share, share.low, share.high)
        return f"{share.count} ({value} %, {low}-{high})"

    lines = [
        "95 % Wilson intervals in brackets; the budget is positions per deal.",
        "",
        "| variant | deals | budget | solver | solved | proven unwinnable | undecided "
        "| winnable | median CPU | p95 CPU | median line |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in study.rows:
        length = "-" if r.median_length is None else f"{r.median_length:.0f}"
        lines.append(
            f"| {r.variant} | {r.first}..{r.last} | {r.budget_nodes:,} | {r.solver_version} "
            f"| {pct(r.solved_share)} | {pct(r.unwinnable_share)} | {pct(r.undecided_share)} "
            f"| {'-'.join(percents(r.winnable_low, r.winnable_high))} % "
            f"| {r.median_cpu_ms or 0:.0f} ms | {r.p95_cpu_ms or 0:.0f} ms | {length} |"
        )
    return "\n".join(lines)
