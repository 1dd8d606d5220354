"""The PostgreSQL backend's health check (yukon_site/postgresql): no query for a live
connection, and a connection the server dropped is found dead before a request uses it."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection, transaction

from accounts.models import User

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _terminate_from_outside(pid: int) -> None:
    with psycopg.connect(**connection.get_connection_params(), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_connection_the_server_dropped_is_replaced_before_the_next_request() -> None:
    connection.ensure_connection()
    assert connection.is_usable()
    pid = connection.connection.info.backend_pid
    _terminate_from_outside(pid)
    deadline = time.monotonic() + 5
    while connection.is_usable():  # the FATAL message and the close arrive at once
        assert time.monotonic() < deadline, "a dropped connection still looks usable"
        time.sleep(0.01)
    # what Django does when a request starts (CONN_HEALTH_CHECKS is on)
    connection.health_check_done = False  # type: ignore[attr-defined]
    connection.close_if_health_check_failed()
    assert User.objects.count() == 0
    assert connection.connection.info.backend_pid != pid


def test_the_check_asks_the_server_in_the_middle_of_a_transaction() -> None:
    with transaction.atomic():
        User.objects.count()
        pid = connection.connection.info.backend_pid
        assert connection.is_usable()
        _terminate_from_outside(pid)
        time.sleep(0.2)
        assert not connection.is_usable()
        connection.needs_rollback = True
    connection.close()
