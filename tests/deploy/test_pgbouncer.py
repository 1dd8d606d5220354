"""The app's PostgreSQL backend behind PgBouncer in transaction mode, as docker-compose.yml
runs it (DATABASE_POOLER=pgbouncer): two processes' connections taking turns on one
server connection. The deployment rehearsal plays the whole stack through it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from tests.deploy.pgbouncer import pgbouncer
from tests.workers import worker_database_url
from yukon_site.postgresql.base import DatabaseWrapper


def pooled_wrapper(port: int, password: str, alias: str) -> DatabaseWrapper:
    """A connection as settings.py makes it under DATABASE_POOLER=pgbouncer."""
    settings: dict[str, Any] = {**connections["default"].settings_dict}
    settings |= {"HOST": "127.0.0.1", "PORT": port, "PASSWORD": password}
    settings["OPTIONS"] = {**settings["OPTIONS"], "prepare_threshold": None}
    settings["DISABLE_SERVER_SIDE_CURSORS"] = True
    return DatabaseWrapper(settings, alias)


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_move_path_cursor_prepares_nothing_behind_a_transaction_pooler(
    tmp_path: Path,
) -> None:
    """The move's statements go through ``prepared_cursor()``. Prepared, each client would
    name its first statement _pg3_0 on the one server connection they share (PgBouncer
    1.18 keeps no track of them): the second client's would collide with the first's."""
    with pgbouncer(worker_database_url(), tmp_path, pool_size=1) as pooler:
        clients = [pooled_wrapper(pooler.port, pooler.password, f"pooled{n}") for n in (1, 2)]
        try:
            for round_ in range(3):
                for number, client in enumerate(clients):
                    with client.prepared_cursor() as cursor:
                        cursor.execute("SELECT %s::int + %s::int", [round_, number])
                        assert cursor.fetchone() == (round_ + number,)
                    with client.cursor() as cursor:
                        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
                        assert cursor.fetchone() == (0,)
            (pool,) = [p for p in pooler.show("POOLS") if p["database"] != "pgbouncer"]
            assert pool["pool_mode"] == "transaction"
            assert pool["sv_active"] + pool["sv_idle"] + pool["sv_used"] == 1  # one, shared
            assert pool["cl_active"] + pool["cl_waiting"] == 2
        finally:
            for client in clients:
                client.close()
