"""``{{ day|day_name }}``: a day as the pages' scripts write it, so that one the server
writes reads the same beside them.

The scripts name a day with the browser's Intl, day, short month and year
(shared/local_time.js's ``shortDayName``): "Dec 7, 2026", "7. Dez. 2026", "7 dic 2026".
Django's own ``DATE_FORMAT`` says "Dec. 7, 2026", "7. Dezember 2026" and "7 de diciembre de
2026". These formats are Django's nearest to Intl's in each language: the same in English;
in German Intl shortens April ("Apr."), and in Spanish it writes September "sept". The page
that must agree exactly writes the day over with ``shortDayName`` itself (pages/home.js),
which also follows the reader's own variant of the language ("7 Dec 2026" in en-GB).
"""

from __future__ import annotations

import datetime as dt

from django import template
from django.utils import formats, translation

register = template.Library()

# By the page's language (settings.LANGUAGES); another falls back to its DATE_FORMAT.
DAY_FORMATS = {
    "en": "M j, Y",  # Dec 7, 2026
    "de": "j. N Y",  # 7. Dez. 2026 (N: Django's abbreviations with their full stops)
    "es": "j b Y",  # 7 dic 2026
}


@register.filter
def day_name(day: dt.date) -> str:
    """``day`` in the page's language, as shortDayName writes it."""
    language = (translation.get_language() or "en").split("-")[0]
    return formats.date_format(day, DAY_FORMATS.get(language, "DATE_FORMAT"))
