"""Filters that keep a long list of ids cheap on PostgreSQL.

``player_id IN (%s, %s, ...)`` with 1,000 ids costs Django a prepared value per id and
psycopg a placeholder each to parse (about 10 ms a query, bench/bench_leagues.py);
``player_id = ANY(%s)`` sends the same ids as one array. ``IN (SELECT ...)`` of a few
members among 100,000 players leads PostgreSQL to scan the whole player table;
``= ANY(ARRAY(SELECT ...))`` looks each one up by its index. Elsewhere (SQLite) both are
the plain ``IN``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import BooleanField, Expression, F, Subquery
from django.db.models.sql.compiler import SQLCompiler


class _AnyOf(Expression):
    """``<column> = ANY(%s)`` (an array of values) or ``= ANY(ARRAY(<subquery>))``."""

    output_field = BooleanField()
    conditional = True

    def __init__(self, column: str, values: Sequence[Any] | None, subquery: Any = None) -> None:
        super().__init__()
        self.column: Any = F(column)
        self.values = None if values is None else list(values)
        self.subquery = subquery

    def get_source_expressions(self) -> list[Any]:
        return [self.column] if self.subquery is None else [self.column, self.subquery]

    def set_source_expressions(self, exprs: Sequence[Any]) -> None:
        self.column = exprs[0]
        if len(exprs) > 1:
            self.subquery = exprs[1]

    def as_sql(self, compiler: SQLCompiler, connection: Any) -> tuple[str, list[Any]]:
        column, params = compiler.compile(self.column)
        postgres = connection.vendor == "postgresql"
        if self.subquery is not None:
            sub, sub_params = compiler.compile(self.subquery)
            sql = f"{column} = ANY(ARRAY{sub})" if postgres else f"{column} IN {sub}"
            return sql, [*params, *sub_params]
        assert self.values is not None
        if postgres:
            return f"{column} = ANY(%s)", [*params, self.values]
        if not self.values:
            return "1 = 0", []
        marks = ", ".join(["%s"] * len(self.values))
        return f"{column} IN ({marks})", [*params, *self.values]


def in_ids(column: str, ids: Sequence[int]) -> _AnyOf:
    """``column IN ids``: one array parameter on PostgreSQL."""
    return _AnyOf(column, [int(i) for i in ids])


def in_subquery(column: str, subquery: Any) -> _AnyOf:
    """``column IN (subquery)`` (a ``values()`` queryset of one column), each one looked
    up by index on PostgreSQL."""
    return _AnyOf(column, None, Subquery(subquery))
