"""Dates in API paths: ``YYYY-MM-DD`` read into a date, or a 400 that says what is wrong."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError

SHOWN = 40  # characters of the refused text echoed back: a path may be very long


def parse_day(text: str, field: str = "date") -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError as exc:
        refused = repr(text[:SHOWN])
        raise ValidationError(
            {field: _("%(text)s is not a date (YYYY-MM-DD)") % {"text": refused}}
        ) from exc
