"""The look (issue 42, item 0): one table style on every page, and the icons drawn from the mark.

The fonts are checked by tests/frontend/fonts.test.mjs (against node_modules)."""

from __future__ import annotations

import re
import struct
from pathlib import Path

from django.conf import settings

FRONTEND = Path(settings.BASE_DIR) / "frontend"
STATIC = FRONTEND / "static" / "frontend"
BRAND = STATIC / "brand"
TABLE_IN_TEMPLATE = re.compile(r"<table\b[^>]*>")
TABLE_IN_JS = re.compile(r"""el\(\s*["']table["']\s*,\s*["']([^"']*)["']""")
# Tables that are not data tables: the player's calendar is a grid of shaded days, and the
# keyboard help's list of keys sits on the dialog's paper, in the dialog's colours.
NOT_DATA_TABLES = {"heatmap", "shortcut-table"}


def test_every_data_table_uses_the_one_table_style() -> None:
    found = []
    for template in (FRONTEND / "templates").rglob("*.html"):
        for tag in TABLE_IN_TEMPLATE.findall(template.read_text()):
            classes = re.search(r'class="([^"]*)"', tag)
            found.append((template.name, classes.group(1).split() if classes else []))
    for module in (STATIC / "js").rglob("*.js"):
        for classes in TABLE_IN_JS.findall(module.read_text()):
            found.append((module.name, classes.split()))
    data_tables = [
        (where, classes) for where, classes in found if not NOT_DATA_TABLES & set(classes)
    ]
    assert len(data_tables) >= 10, found
    assert [(where, classes) for where, classes in data_tables if "table" not in classes] == []


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_the_app_icons_and_the_favicon_come_from_the_mark() -> None:
    assert png_size(BRAND / "icon-192.png") == (192, 192)
    assert png_size(BRAND / "icon-512.png") == (512, 512)
    assert png_size(BRAND / "icon-512-maskable.png") == (512, 512)
    mark = (BRAND / "mark.svg").read_text()
    without_title = "".join(line for line in mark.splitlines(True) if "<title>" not in line)
    assert (STATIC / "favicon.svg").read_text() == without_title
