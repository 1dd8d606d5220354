"""The end of a transactional test, with what ``post_migrate`` makes put back, not made again.

Django's ``TransactionTestCase`` empties every table after each test (``flush``) and then
sends ``post_migrate``, whose receivers make the content types, the permissions and the
moderator group again: about a third of a second of queries per test, over 170 such
tests in the suite. Here the first flush of each database is Django's own, and the rows
it leaves (exactly what the receivers made) are kept; every later flush empties the
tables without the signal and inserts those rows again, with the same ids, in one
transaction (PostgreSQL checks the foreign keys at its end). The database is then what
Django's flush would leave, the ids aside (Django's receivers give new ones each time):
``tests/test_flush.py`` compares the two. Other databases, and tests that name their
apps or restore serialized data, keep Django's own teardown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.management import call_command
from django.db import connections, transaction

Rows = list[tuple[str, list[str], list[tuple[Any, ...]]]]

# Per database alias: each table that is not empty after Django's own flush, its
# columns and its rows.
after_flush: dict[str, Rows] = {}


def rows_of_every_table(alias: str) -> Rows:
    """(table, columns, rows) of every table of the project's models that holds rows."""
    connection = connections[alias]
    found: Rows = []
    with connection.cursor() as cursor:
        for table in sorted(
            connection.introspection.django_table_names(only_existing=True, include_views=False)
        ):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            rows = cursor.fetchall()
            if rows:
                found.append((table, [column.name for column in cursor.description], rows))
    return found


def put_back(alias: str, tables: Rows) -> None:
    connection = connections[alias]
    with transaction.atomic(using=alias), connection.cursor() as cursor:
        for table, columns, rows in tables:
            names = ", ".join(connection.ops.quote_name(column) for column in columns)
            marks = ", ".join(["%s"] * len(columns))
            cursor.executemany(
                f"INSERT INTO {connection.ops.quote_name(table)} ({names}) VALUES ({marks})", rows
            )


def flush(self: Any, django_teardown: Callable[[Any], None]) -> None:
    """``TransactionTestCase._fixture_teardown``, with the rows ``post_migrate`` makes put
    back after the first flush of each database (PostgreSQL only)."""
    from django.contrib.contenttypes.models import ContentType

    aliases = self._databases_names(include_mirrors=False)
    if (
        self.available_apps is not None
        or self.serialized_rollback
        or any(connections[alias].vendor != "postgresql" for alias in aliases)
    ):
        django_teardown(self)
        return
    for alias in aliases:
        emptied(alias)
    # as Django's receivers do: a content type a test made may be gone with its row
    ContentType.objects.clear_cache()


def emptied(alias: str) -> None:
    """Every table of database ``alias`` emptied, as Django's teardown does (the sequences
    go on: a row put back keeps its id, below any the sequences give later), and what
    ``post_migrate`` makes there: made by it the first time, put back afterwards."""
    first = alias not in after_flush
    call_command(
        "flush",
        verbosity=0,
        interactive=False,
        database=alias,
        reset_sequences=False,
        inhibit_post_migrate=not first,
    )
    if first:
        after_flush[alias] = rows_of_every_table(alias)
    else:
        put_back(alias, after_flush[alias])
