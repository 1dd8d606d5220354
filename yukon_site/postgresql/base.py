"""Django's PostgreSQL backend with two changes for the move path.

- A health check that costs no round trip. With ``CONN_HEALTH_CHECKS`` Django runs
  ``SELECT 1`` on a kept connection before each request uses it: one of a move's six
  round trips to PostgreSQL. A server that restarts or drops the connection closes its
  end of the socket (after a FATAL message), so an idle connection with anything to read
  is dead; one with nothing to read is as usable as a ``SELECT 1`` would have found it.
  A connection that dies later fails its query, the request gets a 503, and Django drops
  the connection when the request ends.
- ``prepared_cursor()``: a cursor whose statements the server parses and plans once per
  connection (server-side binding, prepared on first use). Django's cursors bind on the
  client, so PostgreSQL plans every statement again; for the two statements of a move
  that was more than half of the server's work (bench/bench_load.py). Behind PgBouncer
  in transaction mode (``DATABASE_POOLER=pgbouncer``: ``OPTIONS["prepare_threshold"]``
  None) it prepares nothing: PgBouncer 1.18 does not carry prepared statements over
  from one server connection to the next (1.21+ with ``max_prepared_statements`` does).
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg import pq


class PreparingCursor(psycopg.Cursor[Any]):
    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
        kwargs.setdefault("prepare", True)
        return super().execute(query, params, **kwargs)


# psycopg prepares nothing while a connection's threshold is None (Django's default, for
# poolers); with this one it prepares only what a PreparingCursor asks for.
_ONLY_WHEN_ASKED = 2**31 - 1


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        # OPTIONS' own prepare_threshold wins; None there (DATABASE_POOLER) prepares nothing
        if "prepare_threshold" not in self.settings_dict["OPTIONS"]:
            params["prepare_threshold"] = _ONLY_WHEN_ASKED
        return params

    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        if connection.info.transaction_status != pq.TransactionStatus.IDLE:
            return bool(super().is_usable())  # mid-transaction: ask the server
        poll = select.poll()
        poll.register(connection.fileno(), select.POLLIN)
        return not poll.poll(0)

    def prepared_cursor(self) -> Any:
        """Like ``cursor()`` (errors wrapped, queries logged), with prepared statements."""
        self.ensure_connection()
        with self.wrap_database_errors:
            return self._prepare_cursor(  # type: ignore[attr-defined]
                PreparingCursor(self.connection)
            )
