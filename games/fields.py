"""Model fields: deal numbers are unsigned 64-bit, one bit wider than PostgreSQL's bigint."""

from __future__ import annotations

from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from yukon.engine import MAX_DEAL_NUMBER

_OFFSET = 2**63


class UInt64Field(models.BigIntegerField):
    """An unsigned 64-bit integer stored in a signed bigint as ``value - 2**63``.

    The shift keeps the order, so ``<``, ``>``, ``ORDER BY`` and unique indexes behave
    as on the real numbers; every value 0 .. 2**64-1 round-trips exactly.
    """

    description = "Unsigned 64-bit integer (stored shifted by 2**63)"

    @property
    def validators(self) -> list[Any]:
        return [MinValueValidator(0), MaxValueValidator(MAX_DEAL_NUMBER)]

    def get_prep_value(self, value: Any) -> Any:
        value = super().get_prep_value(value)
        if value is None:
            return None
        if not 0 <= value <= MAX_DEAL_NUMBER:
            raise ValueError(f"{value} is outside 0 .. 2**64-1")
        return value - _OFFSET

    def from_db_value(self, value: int | None, expression: Any, connection: Any) -> int | None:
        return None if value is None else value + _OFFSET
