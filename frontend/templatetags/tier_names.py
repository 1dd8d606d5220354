"""The daily tiers by the names players read ("Easy", "Leicht", "Fácil"), never the
identifiers (``easy``): ``{% load tier_names %}`` then ``{{ tier|tier_title }}``."""

from __future__ import annotations

from django import template
from django.utils.translation import pgettext_lazy

register = template.Library()

# "tier": the same English word elsewhere (a "hard" move) may translate differently.
TIER_TITLES = {
    "easy": pgettext_lazy("tier", "Easy"),
    "medium": pgettext_lazy("tier", "Medium"),
    "hard": pgettext_lazy("tier", "Hard"),
    "weekly": pgettext_lazy("tier", "Weekly"),
}


@register.filter
def tier_title(tier: object) -> str:
    """``easy`` -> "Easy" in the page's language; an unknown tier as it came, capitalised."""
    text = "" if tier is None else str(tier)
    title = TIER_TITLES.get(text)
    return text[:1].upper() + text[1:] if title is None else str(title)
