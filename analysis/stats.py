"""What the public statistics page shows: the published odds study (shipped with the code,
analysis/data/odds-study.json) with its confidence intervals, this server's own study if
one was run, both drawn as SVG on the server, and the measured human win rate on our own
dailies beside the bot's."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Protocol

from django.db.models import Avg, Count, Q
from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, ngettext

from analysis.odds import (
    PublishedRow,
    PublishedStudy,
    Share,
    all_rows,
    load_published,
    percent_places,
)
from games.models import DailyChallenge, Game, Mode, Status, Tier, Verification

BAR_WIDTH = 420  # px of a 100 % bar in the verdict chart
BAR_HEIGHT = 22
LABEL_WIDTH = 160  # px for the longest variant title ("Moosehide (runs only)", 13 px type)
HIST_WIDTH = 520
HIST_HEIGHT = 160
BIN = 10  # moves per bin of the line-length histogram
RANGE_WIDTH = 520  # px of 0..100 % in the winnable-range chart
RANGE_ROW = 40
# What is said about Yukon on the web, without a study behind it (docs/odds.md).
QUOTED: list[tuple[str | Promise, float, float]] = [
    (gettext_lazy("one in ten"), 0.10, 0.10),
    (gettext_lazy("one in four"), 0.25, 0.25),
    ("85-90 %", 0.85, 0.90),
]
# CPU-time bins of the solve-time chart: upper bound in milliseconds, and the bin's range
# (from, to, unit; None for an open end) for its label ("0.1-1 s").
TIME_BINS: list[tuple[float, tuple[float | None, float | None, str]]] = [
    (1, (None, 1, "ms")),
    (10, (1, 10, "ms")),
    (100, (10, 100, "ms")),
    (1000, (0.1, 1, "s")),
    (10_000, (1, 10, "s")),
    (math.inf, (10, None, "s")),
]


def _count(number: int) -> str:
    """A count as the active language groups its digits ("8,778", "8.778")."""
    return str(number_format(number, force_grouping=True))


def _decimal(value: float, places: int = 1) -> str:
    """``value`` rounded as it always was (``f"{value:.1f}"``), written with the active
    language's decimal mark ("87.1", "87,1")."""
    return str(number_format(Decimal(f"{value:.{places}f}"), places))


def _milliseconds(value: float | None) -> str:
    """A median CPU time: "12 ms"; under half a millisecond "< 1 ms" (it read "0 ms", as if
    the solver took no time at all); none, a dash."""
    if value is None:
        return "\u2013"
    return f"{_decimal(value, 0)} ms" if value >= 0.5 else "<\u00a01 ms"


def _bound(value: float) -> str:
    return _count(value) if isinstance(value, int) else _decimal(value, 1)


def _time_label(low: float | None, high: float | None, unit: str) -> str:
    if low is None:
        return f"< {_bound(high or 0)} {unit}"
    if high is None:
        return f"> {_bound(low)} {unit}"
    return f"{_bound(low)}-{_bound(high)} {unit}"


class VerdictCounts(Protocol):
    @property
    def variant(self) -> str: ...
    @property
    def deals(self) -> int: ...
    @property
    def solved(self) -> int: ...
    @property
    def unwinnable(self) -> int: ...
    @property
    def undecided(self) -> int: ...


@dataclass(frozen=True)
class Segment:
    x: float
    width: float
    kind: str  # solved | unwinnable | undecided
    count: int


@dataclass(frozen=True)
class VerdictBar:
    variant: str
    y: float
    text_y: float
    segments: list[Segment]


@dataclass(frozen=True)
class HistBar:
    x: float
    y: float
    width: float
    height: float
    label: str
    count: int


@dataclass(frozen=True)
class TierRate:
    tier: str
    played: int
    won: int
    human_rate: float | None
    bot_rate: float | None


@dataclass(frozen=True)
class RangeRow:
    """One variant in the winnable-range chart: the solved share (a proven lower bound),
    the solved + undecided share (the upper bound), and the 95 % interval around both."""

    variant: str
    y: float
    text_y: float
    low_ci_x: float
    solved_x: float
    upper_x: float
    high_ci_x: float
    label: str

    @property
    def bar_y(self) -> float:
        return self.y - 7

    @property
    def bar_width(self) -> float:
        return max(2.0, round(self.upper_x - self.solved_x, 1))


@dataclass(frozen=True)
class QuotedMark:
    label: str
    x: float
    width: float
    text_y: float


def verdict_bars(rows: Sequence[VerdictCounts]) -> list[VerdictBar]:
    bars = []
    for i, row in enumerate(rows):
        x = float(LABEL_WIDTH)
        segments = []
        for kind, count in (
            ("solved", row.solved),
            ("unwinnable", row.unwinnable),
            ("undecided", row.undecided),
        ):
            width = BAR_WIDTH * count / row.deals if row.deals else 0.0
            segments.append(Segment(round(x, 1), round(width, 1), kind, count))
            x += width
        y = 10 + i * (BAR_HEIGHT + 12)
        bars.append(VerdictBar(row.variant, y, y + BAR_HEIGHT * 0.7, segments))
    return bars


def length_histogram(lengths: list[int]) -> list[HistBar]:
    if not lengths:
        return []
    low = min(lengths) // BIN * BIN
    high = max(lengths) // BIN * BIN
    bins = dict.fromkeys(range(low, high + BIN, BIN), 0)
    for n in lengths:
        bins[n // BIN * BIN] += 1
    starts = sorted(bins)
    return _histogram(
        [bins[start] for start in starts], [f"{start}-{start + BIN - 1}" for start in starts]
    )


def _histogram(counts: list[int], labels: list[str]) -> list[HistBar]:
    """Bars of one chart: side by side, heights scaled to the tallest."""
    tallest = max(counts)
    width = HIST_WIDTH / len(counts)
    out = []
    for i, (count, label) in enumerate(zip(counts, labels, strict=True)):
        height = (HIST_HEIGHT - 20) * count / tallest
        out.append(
            HistBar(
                x=round(i * width + 1, 1),
                y=round(HIST_HEIGHT - 20 - height, 1),
                width=round(width - 2, 1),
                height=round(height, 1),
                label=label,
                count=count,
            )
        )
    return out


def _x(share: float) -> float:
    return round(LABEL_WIDTH + RANGE_WIDTH * share, 1)


def winnable_ranges(rows: list[PublishedRow]) -> list[RangeRow]:
    out = []
    for i, row in enumerate(rows):
        y = 24 + i * RANGE_ROW
        upper = (row.solved + row.undecided) / row.deals
        label = (
            f"{_pct(row.solved_share.share)}\u00a0%"
            if not row.undecided
            else "-".join(_pcts(row.solved_share.share, upper)) + "\u00a0%"
        )
        out.append(
            RangeRow(
                variant=row.variant,
                y=y,
                text_y=y + 5,
                low_ci_x=_x(row.winnable_low),
                solved_x=_x(row.solved_share.share),
                upper_x=_x(upper),
                high_ci_x=_x(row.winnable_high),
                label=label,
            )
        )
    return out


def quoted_marks(rows: int) -> list[QuotedMark]:
    text_y = 24 + rows * RANGE_ROW
    return [  # labels on two lines, so neighbours do not overlap
        QuotedMark(
            str(label),
            _x(low),
            max(2.0, round(RANGE_WIDTH * (high - low), 1)),
            text_y + 13 * (i % 2),
        )
        for i, (label, low, high) in enumerate(QUOTED)
    ]


def time_histogram(cpu_ms: list[int]) -> list[HistBar]:
    """Deals per decade of CPU time (the study's budget is positions, the time is what
    they cost on the machine that ran it)."""
    if not cpu_ms:
        return []
    counts = [0] * len(TIME_BINS)
    for ms in cpu_ms:
        counts[next(i for i, (bound, _) in enumerate(TIME_BINS) if ms < bound)] += 1
    while counts and counts[-1] == 0:  # no empty bars past the slowest deal
        counts.pop()
    return _histogram(counts, [_time_label(*span) for _, span in TIME_BINS[: len(counts)]])


@dataclass(frozen=True)
class StudyLine:
    """A row of the published table, formatted (shares in %, 95 % intervals)."""

    variant: str
    numbers: str
    budget: str  # positions per deal
    solver_version: int
    deals: int
    solved: ShareCell
    unwinnable: ShareCell
    undecided: ShareCell
    winnable: str
    median_cpu: str
    median_length: str | None  # None: no deal won, so no line


def _pct(share: float) -> str:
    return _pcts(share)[0]


def _pcts(*shares: float) -> list[str]:
    """Shares as percentages in the active language, with as many decimals as it takes
    not to misstate them (analysis.odds.percent_places)."""
    places = percent_places(*shares)
    return [_decimal(100 * share, places) for share in shares]


@dataclass(frozen=True)
class ShareCell:
    share: str  # "83.8 %" (a no-break space before the sign: it never wraps alone)
    count: str  # "1,676 deals"
    interval: str  # "82.1\u201385.3 %": the 95 % interval


def _share_text(share: Share) -> ShareCell:
    count = ngettext("%(count)s deal", "%(count)s deals", share.count) % {
        "count": _count(share.count)
    }
    value, low, high = _pcts(share.share, share.low, share.high)
    return ShareCell(f"{value}\u00a0%", count, f"{low}\u2013{high}\u00a0%")


def study_lines(rows: list[PublishedRow]) -> list[StudyLine]:
    return [
        StudyLine(
            variant=r.variant,
            numbers=f"{_count(r.first)}\u2013{_count(r.last)}",
            budget=_count(r.budget_nodes),
            solver_version=r.solver_version,
            deals=r.deals,
            solved=_share_text(r.solved_share),
            unwinnable=_share_text(r.unwinnable_share),
            undecided=_share_text(r.undecided_share),
            winnable="\u2013".join(_pcts(r.winnable_low, r.winnable_high)) + "\u00a0%",
            median_cpu=_milliseconds(r.median_cpu_ms),
            median_length=None if r.median_length is None else _decimal(r.median_length, 0),
        )
        for r in rows
    ]


def published_context(study: PublishedStudy | None) -> dict[str, object]:
    if study is None or not study.rows:
        return {"study": None}
    yukon = next((r for r in study.rows if r.variant == "yukon"), study.rows[0])
    return {
        "study": study,
        "study_rows": study.rows,
        "study_table": study_lines(study.rows),
        "yukon_deals": _count(yukon.deals),
        "yukon_first": _count(yukon.first),
        "yukon_last": _count(yukon.last),
        "yukon_solved": _pct(yukon.solved_share.share),
        "yukon_unwinnable": _pct(yukon.unwinnable_share.share),
        "yukon_upper": _pct((yukon.solved + yukon.undecided) / yukon.deals),
        "yukon_low": _pct(yukon.winnable_low),
        "yukon_high": _pct(yukon.winnable_high),
        "study_bars": verdict_bars(study.rows),
        "study_chart_height": 20 + len(study.rows) * (BAR_HEIGHT + 12),
        "ranges": winnable_ranges(study.rows),
        "quoted": quoted_marks(len(study.rows)),
        "range_width": LABEL_WIDTH + RANGE_WIDTH + 20,
        "range_height": 58 + len(study.rows) * RANGE_ROW,
        "range_rows_height": 8 + len(study.rows) * RANGE_ROW,
        "range_axis": [(_x(t / 100), t) for t in range(0, 101, 20)],
        "study_yukon": yukon,
        "study_lengths": length_histogram(yukon.lengths),
        "study_times": time_histogram(yukon.cpu_ms),
    }


def tier_rates() -> list[TierRate]:
    """Human win rate per tier over verified, finished daily games, beside the mean of the
    bot's rate recorded with each challenge that was played."""
    finished = Q(
        games__mode=Mode.DAILY,
        games__verification=Verification.VERIFIED,
        games__disqualified=False,
    ) & ~Q(games__status=Status.PLAYING)
    out = []
    for tier in Tier.values:
        challenges = DailyChallenge.objects.filter(tier=tier)
        counts = challenges.aggregate(
            played=Count("games", filter=finished),
            won=Count("games", filter=finished & Q(games__status=Status.WON)),
        )
        played_ids = Game.objects.filter(mode=Mode.DAILY).values("challenge_id")
        bot = challenges.filter(pk__in=played_ids).aggregate(rate=Avg("bot_win_rate"))["rate"]
        played, won = counts["played"] or 0, counts["won"] or 0
        out.append(TierRate(tier, played, won, won / played if played else None, bot))
    return out


def page_context() -> dict[str, object]:
    rows = all_rows()
    lengths = [n for row in rows if row.variant == "yukon" for n in row.lengths]
    return {
        **published_context(load_published()),
        "rows": rows,
        "bars": verdict_bars(rows),
        "chart_width": LABEL_WIDTH + BAR_WIDTH + 10,
        "chart_height": 20 + len(rows) * (BAR_HEIGHT + 12),
        "histogram": length_histogram(lengths),
        "hist_width": HIST_WIDTH,
        "hist_height": HIST_HEIGHT,
        "hist_count": len(lengths),
        "tiers": tier_rates(),
    }
