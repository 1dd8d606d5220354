"""Structured logs: one JSON object a line (LOG_FORMAT=json, the default with DEBUG off).

A line logged while a request runs carries its ``request_id`` (yukon_site/middleware.py's
filter sets it on the record; the response returns it in ``X-Request-ID``)."""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any

# Attributes every LogRecord has; anything else was passed in ``extra`` and is kept.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName", "request_id"}


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message", "request_id"?, ...extra, "exc"?}`` on one
    line; ``request_id`` only for a line logged during a request."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = getattr(record, "request_id", "-")
        if request_id != "-":
            entry["request_id"] = request_id
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value if isinstance(value, (str, int, float, bool)) else str(value)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)
