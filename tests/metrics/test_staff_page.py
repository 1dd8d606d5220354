"""The funnel for staff: the page (staff with a second factor only) draws and tabulates
the last 30 days per tier; Prometheus reads every series, 0 where nothing was counted."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from games.models import utc_today
from metrics import services
from tests.factories import client_for, make_player

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

PAGE = "/admin/metrics/"
TOKEN = "metrics-funnel-token-" + "k3Pw" * 6


@pytest.fixture
def counted() -> dt.date:
    today = utc_today()
    yesterday = today - dt.timedelta(days=1)
    services.add_counts(
        {
            (today, "visit", ""): 4321,
            (today, "start", "easy"): 321,
            (today, "finish", "easy"): 123,
            (yesterday, "start", "easy"): 5,
            (today, "share", "archive"): 7,
            (today - dt.timedelta(days=40), "start", "hard"): 98765,  # older than the page
        }
    )
    services.add_counts({(today, "start", "easy"): 1})  # added to, not replaced
    return today


def test_the_page_is_for_staff_who_passed_a_second_factor(counted: dt.date) -> None:
    assert Client().get(PAGE).status_code == 302  # to the admin's log-in
    assert client_for(make_player("Pat")).get(PAGE).status_code == 403
    staff = make_player("Sam", staff=True)
    password_only = Client()
    password_only.force_login(staff)
    refused = password_only.get(PAGE)
    assert refused.status_code == 302 and "/accounts/2fa/" in refused["Location"]
    page = client_for(staff).get(PAGE)
    assert page.status_code == 200
    html = page.content.decode()
    assert "<svg" in html and "series-start" in html and "<polyline" in html
    assert f"{counted.isoformat()}: 322 starts" in html  # a point's title
    assert '<td class="num">4321</td>' in html and '<td class="num">322</td>' in html
    assert "Starts: 327" in html  # the easy chart's legend: 30 days' total
    assert "98765" not in html
    assert (
        "style=" not in html.split('id="content"')[1]
    )  # classes only: a CSP allows no inline style


def test_prometheus_reads_every_series(settings: Any, counted: dt.date) -> None:
    settings.METRICS_TOKEN = TOKEN
    response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    samples = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }

    def value(name: str, event: str, tier: str) -> float:
        return samples[(name, (("event", event), ("tier", tier)))]

    assert value("yukon_funnel_events_total", "start", "easy") == 327
    assert value("yukon_funnel_events_total", "start", "hard") == 98765
    assert value("yukon_funnel_events_today", "start", "easy") == 322
    assert value("yukon_funnel_events_today", "visit", "") == 4321
    assert value("yukon_funnel_events_total", "sign_up", "") == 0  # present before a count
    assert value("yukon_funnel_events_total", "share", "weekly") == 0
    assert samples[("yukon_scrape_source_up", (("source", "funnel"),))] == 1
