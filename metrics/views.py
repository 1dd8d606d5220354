"""The staff page of the funnel, ``/admin/metrics/``: the last 30 days per day and tier,
as server-drawn SVG charts and tables. yukon_site/urls.py serves it through the admin's
guard (``admin.site.admin_view``): staff only, after a passed second factor; a player gets
403, a visitor the admin's log-in."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.views.decorators.cache import never_cache

from metrics import chart, services

DAYS = 30


@never_cache
def funnel_page(request: HttpRequest) -> TemplateResponse:
    funnel = services.funnel(DAYS)
    overall = [
        (event, services.EVENT_TITLES[event], _dailies_or_site(funnel, event))
        for event in services.EVENTS
    ]
    tiers = [
        {
            "name": tier,
            "chart": chart.line_chart(
                f"{tier.capitalize()}: starts, finishes and shares",
                funnel.days,
                [
                    (event, services.EVENT_TITLES[event], funnel.of(event, tier))
                    for event in services.GAME_EVENTS
                ],
            ),
        }
        for tier in services.TIERS
    ]
    days_newest_first = list(reversed(range(len(funnel.days))))
    context: dict[str, Any] = {
        **admin.site.each_context(request),
        "title": f"Product metrics: the last {DAYS} days",
        "events": [(event, title) for event, title, _ in overall],
        "overall": chart.line_chart("Every day, all dailies together", funnel.days, overall),
        "tiers": tiers,
        "game_events": [(event, services.EVENT_TITLES[event]) for event in services.GAME_EVENTS],
        "day_rows": [
            (funnel.days[i], [counts[i] for _, _, counts in overall]) for i in days_newest_first
        ],
        "tier_rows": [
            (
                funnel.days[i],
                [
                    funnel.counts.get((funnel.days[i], event, tier), 0)
                    for tier in services.TIERS
                    for event in services.GAME_EVENTS
                ],
            )
            for i in days_newest_first
        ],
        "tier_names": services.TIERS,
    }
    return TemplateResponse(request, "metrics/funnel.html", context)


def _dailies_or_site(funnel: services.Funnel, event: str) -> list[int]:
    return funnel.of_dailies(event) if event in services.GAME_EVENTS else funnel.of(event)
