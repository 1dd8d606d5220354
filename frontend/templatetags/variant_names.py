"""Variants by the names people use ("Double Yukon", "Moosehide (runs only)"), never the
identifiers ("double-yukon"). The names have one source, the engine's registry
(``Variant.title`` in ``yukon.engine.variants``):

- templates: ``{% load variant_names %}`` then ``{{ game.variant|variant_title }}``;
- the browser: ``base.html`` writes the site constants through ``with_variant_titles``, so
  every page carries ``variant_titles`` and ``shared/format.js``'s ``variantTitle`` reads it.

Both say the title in the page's language: the engine never imports Django, so its English
titles are translated here (``TRANSLATED_TITLES``); the identifiers stay the keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.translation import gettext

# The titles as messages (a variant missing there shows its English title;
# tests/frontend/test_variant_names.py checks that every variant is listed).
from games.engine_reasons import VARIANT_TITLES as TRANSLATED_TITLES
from yukon.engine import VARIANTS

register = template.Library()

VARIANT_TITLES = {name: variant.title for name, variant in VARIANTS.items()}
TAKEBACK_SUFFIX = "+takeback"


def translated_titles() -> dict[str, str]:
    """Every variant's title (name -> title) in the active language."""
    return {name: str(TRANSLATED_TITLES.get(name, title)) for name, title in VARIANT_TITLES.items()}


@register.filter
def variant_title(name: object) -> str:
    """``double-yukon`` -> "Double Yukon"; a position's ``yukon+takeback`` -> "Yukon with
    take-back". A name the engine does not know is shown as it came (never an error on a
    page)."""
    text = "" if name is None else str(name)
    base = text.removesuffix(TAKEBACK_SUFFIX)
    if base not in VARIANT_TITLES:
        return text
    title = str(TRANSLATED_TITLES.get(base, VARIANT_TITLES[base]))
    if base == text:
        return title
    return gettext("%(variant)s with take-back") % {"variant": title}


@register.filter
def with_variant_titles(constants: Mapping[str, Any]) -> dict[str, Any]:
    """The page's site constants with ``variant_titles`` (name -> title) added, for the
    browser's ``variantTitle``."""
    return {**constants, "variant_titles": translated_titles()}
