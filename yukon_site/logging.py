"""Structured logs: one JSON object a line (LOG_FORMAT=json, the default with DEBUG off)."""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any

# Attributes every LogRecord has; anything else was passed in ``extra`` and is kept.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message", ...extra, "exc"?}`` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value if isinstance(value, (str, int, float, bool)) else str(value)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)
