"""The staff page's charts as SVG geometry: pure functions of the counts, drawn by the
template (metrics/funnel.html) with classes only, no script and no inline style."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 720, 240
LEFT, RIGHT, TOP, BOTTOM = 52, 24, 12, 28  # room for the axes' labels


@dataclass(frozen=True)
class Tick:
    at: float  # x or y, in the chart's units
    label: str


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    label: str  # the hover title: "2026-12-05: 12 starts"


@dataclass(frozen=True)
class Line:
    name: str  # the event: its class is "series-<name>"
    title: str
    points: str  # SVG polyline points
    dots: list[Dot]
    total: int


@dataclass(frozen=True)
class Chart:
    title: str
    lines: list[Line]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def nice_ceiling(value: int) -> int:
    """The smallest of 1, 2, 5 times a power of ten that is at least ``value`` (1 for 0)."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= value:
                return step * factor
        step *= 10


def line_chart(
    title: str, days: Sequence[dt.date], series: Sequence[tuple[str, str, Sequence[int]]]
) -> Chart:
    """One line per (name, title, counts per day) over ``days``, on one shared scale."""
    top_value = nice_ceiling(max((max(counts, default=0) for _, _, counts in series), default=0))
    span_x = WIDTH - RIGHT - LEFT
    span_y = HEIGHT - BOTTOM - TOP
    step = span_x / max(len(days) - 1, 1)

    def x(index: int) -> float:
        return round(LEFT + index * step, 1)

    def y(value: int) -> float:
        return round(HEIGHT - BOTTOM - value * span_y / top_value, 1)

    lines = []
    for name, line_title, counts in series:
        dots = [
            Dot(x(i), y(n), f"{day.isoformat()}: {n} {line_title.lower()}")
            for i, (day, n) in enumerate(zip(days, counts, strict=True))
        ]
        points = " ".join(f"{dot.x},{dot.y}" for dot in dots)
        lines.append(Line(name, line_title, points, dots, sum(counts)))
    last = len(days) - 1
    x_ticks = [
        Tick(x(i), f"{day:%b} {day.day}")
        for i, day in enumerate(days)
        if (last - i) % 7 == 0  # today, and each week back from it
    ]
    y_ticks = [Tick(y(value), str(value)) for value in (0, top_value // 2, top_value)]
    if top_value == 1:
        y_ticks = [Tick(y(0), "0"), Tick(y(1), "1")]
    return Chart(title, lines, x_ticks, y_ticks)
