"""Django's PostgreSQL backend with a health check that costs no round trip.

With ``CONN_HEALTH_CHECKS`` Django runs ``SELECT 1`` on a kept connection before each
request uses it: one of a move's six round trips to PostgreSQL. A server that restarts
or drops the connection closes its end of the socket (after a FATAL message), so an idle
connection with anything to read is dead; one with nothing to read is as usable as a
``SELECT 1`` would have found it. A connection that dies later fails its query, the
request gets a 503, and Django drops the connection when the request ends.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        if connection.info.transaction_status != pq.TransactionStatus.IDLE:
            return bool(super().is_usable())  # mid-transaction: ask the server
        poll = select.poll()
        poll.register(connection.fileno(), select.POLLIN)
        return not poll.poll(0)
