"""What the public statistics page shows: the odds study per variant, drawn as SVG on the
server, and the measured human win rate on our own dailies beside the bot's."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, Count, Q

from analysis.odds import OddsRow, all_rows
from games.models import DailyChallenge, Game, Mode, Status, Tier, Verification

BAR_WIDTH = 420  # px of a 100 % bar in the verdict chart
BAR_HEIGHT = 22
LABEL_WIDTH = 90
HIST_WIDTH = 520
HIST_HEIGHT = 160
BIN = 10  # moves per bin of the line-length histogram


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


def verdict_bars(rows: list[OddsRow]) -> list[VerdictBar]:
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
    tallest = max(bins.values())
    width = HIST_WIDTH / len(bins)
    out = []
    for i, (start, count) in enumerate(sorted(bins.items())):
        height = (HIST_HEIGHT - 20) * count / tallest
        out.append(
            HistBar(
                x=round(i * width + 1, 1),
                y=round(HIST_HEIGHT - 20 - height, 1),
                width=round(width - 2, 1),
                height=round(height, 1),
                label=f"{start}-{start + BIN - 1}",
                count=count,
            )
        )
    return out


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
