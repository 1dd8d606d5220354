"""Django's development server (`make run`, the tests' live server) answers a kept-open
connection without the 40 ms stall of Nagle's algorithm against a delayed ACK
(frontend/apps.py)."""

from __future__ import annotations

import http.client
import time
from typing import Any
from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_kept_open_connection_is_answered_without_waiting_for_an_ack(live_server: Any) -> None:
    address = urlsplit(live_server.url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
    took = []
    for _ in range(6):
        started = time.perf_counter()
        connection.request("GET", "/manifest.webmanifest")
        answer = connection.getresponse()
        answer.read()
        took.append(time.perf_counter() - started)
        assert answer.status == 200 and not answer.will_close
    connection.close()
    # The stall is a delayed ACK's timer, 40 ms or more, on every request after the first;
    # without it an answer takes a few milliseconds, even on a busy machine.
    assert min(took[1:]) < 0.03, [f"{seconds * 1000:.0f} ms" for seconds in took]
