"""The metrics beacon in a real Chromium, from one busy address (js/shared/metrics.js).

Many browsers behind one address (a school, a carrier's NAT; here the suite's own pages,
all from 127.0.0.1) spend the address's beacon budget. A browser past it is answered
without an error status: Chromium writes every 4xx answer to a fetch or a sendBeacon to
the console as an error, and a visit not counted is nothing the player did wrong.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from tests.factories import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

EVENTS = "/api/metrics/events/"
BUDGET = 2  # events an hour per address, for this test


def test_a_beacon_past_the_address_budget_makes_no_console_error(
    browse: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(
        settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "metrics_events", f"{BUDGET}/hour"
    )
    answers = []
    for _ in range(BUDGET + 2):
        page = browse(PHONE)  # a fresh browser: its first page today sends a visit
        with page.page.expect_response(lambda r: r.url.endswith(EVENTS)) as beacon:
            page.goto("/how-to-play/")
        response = beacon.value
        response.finished()
        answers.append((response.status, response.json()))
        page.page.evaluate("() => document.fonts.ready.then(() => null)")  # the console caught up
        page.assert_clean()
    assert answers == [
        *[(202, {"counted": True})] * BUDGET,
        *[(202, {"counted": False})] * 2,
    ]
