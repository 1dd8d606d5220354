"""The ``<id:...>`` path converter: a row id as the database holds one, 1 to 2^63 - 1.

Django's ``<int:...>`` takes any run of digits, and a number past a 64-bit column
reaches the database: SQLite's driver raises OverflowError (a 500), PostgreSQL refuses
the value. An id outside the range matches no route, so it is the site's usual 404.
Importing this module registers the converter; every urls.py with an id imports it
(Django looks a converter up as ``path()`` is called, so it must come first).
"""

from __future__ import annotations

from django.urls import register_converter

MAX_ID = 2**63 - 1  # BigAutoField, on PostgreSQL and SQLite alike


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 1 <= number <= MAX_ID:
            raise ValueError("not a row id")  # Django: this route does not match
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
