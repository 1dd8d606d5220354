"""Variants by the names people use ("Double Yukon", "Moosehide (runs only)"), never the
identifiers ("double-yukon"). The names have one source, the engine's registry
(``Variant.title`` in ``yukon.engine.variants``):

- templates: ``{% load variant_names %}`` then ``{{ game.variant|variant_title }}``;
- the browser: ``base.html`` writes the site constants through ``with_variant_titles``, so
  every page carries ``variant_titles`` and ``shared/format.js``'s ``variantTitle`` reads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from yukon.engine import VARIANTS

register = template.Library()

VARIANT_TITLES = {name: variant.title for name, variant in VARIANTS.items()}
TAKEBACK_SUFFIX = "+takeback"


@register.filter
def variant_title(name: object) -> str:
    """``double-yukon`` -> "Double Yukon"; a position's ``yukon+takeback`` -> "Yukon with
    take-back". A name the engine does not know is shown as it came (never an error on a
    page)."""
    text = "" if name is None else str(name)
    base, suffix = text, ""
    if text.endswith(TAKEBACK_SUFFIX):
        base, suffix = text.removesuffix(TAKEBACK_SUFFIX), " with take-back"
    title = VARIANT_TITLES.get(base)
    return text if title is None else title + suffix


@register.filter
def with_variant_titles(constants: Mapping[str, Any]) -> dict[str, Any]:
    """The page's site constants with ``variant_titles`` (name -> title) added, for the
    browser's ``variantTitle``."""
    return {**constants, "variant_titles": VARIANT_TITLES}
