"""``{% module_preloads "frontend/js/pages/play.js" %}``: a ``<link rel="modulepreload">`` for every
module a page's entry module imports, directly or not, so the browser fetches them all at
once instead of one import level after another.

The import graph is read from the files themselves (static ``import ... from "../shared/x.js";``
lines), so a new import is preloaded without an edit to any template.
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache

from django import template
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

register = template.Library()

# A static import or re-export of a relative path: `import {a} from "./x.js";`, `import "./x.js";`.
IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^;'"]*?(?:\bfrom\s*)?["'](\.{1,2}/[^"']+)["']""", re.M
)


def _source(path: str) -> str:
    found = finders.find(path)
    if not found:
        raise template.TemplateSyntaxError(f"module_preloads: no static file {path!r}")
    with open(found, encoding="utf-8") as handle:
        return handle.read()


def module_graph(entry: str) -> list[str]:
    """Every module ``entry`` imports, directly or through others, in first-seen order."""
    seen: list[str] = []
    todo = [entry]
    while todo:
        path = todo.pop(0)
        for relative in IMPORT.findall(_source(path)):
            imported = posixpath.normpath(posixpath.join(posixpath.dirname(path), relative))
            if imported != entry and imported not in seen:
                seen.append(imported)
                todo.append(imported)
    return seen


_cached_graph = lru_cache(maxsize=None)(module_graph)


@register.simple_tag
def module_preloads(entry: str) -> SafeString:
    graph = module_graph(entry) if settings.DEBUG else _cached_graph(entry)
    return format_html_join(
        "\n  ", '<link rel="modulepreload" href="{}">', ((static(path),) for path in graph)
    )
