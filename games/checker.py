"""The fair-play checker as one file anyone can download and run: ``yukon-verify.pyz``.

A Python zip application (PEP 441) of ``games.verify_day`` with what it imports: the
receipts' and commitments' formats and the engine (``yukon.engine``), as their source,
readable with any unzip. Python 3.11 or later runs it with nothing installed; checking
signatures (``--receipt``, ``--close-record``) also needs ``cryptography``.

    python3 yukon-verify.pyz --site https://yukon.example 2026-12-01 easy

The archive is built from the installed modules' own files, the same bytes every time
for the same code (fixed times and order), so its SHA-256 names a version of the checker.
No Django here: the checker's import contract (pyproject.toml) covers this module too.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from functools import cache
from pathlib import Path

import yukon.engine
from games import commitment, receipts, verify_day

FILENAME = "yukon-verify.pyz"
SHEBANG = b"#!/usr/bin/env python3\n"
# Stand-ins for the packages' own __init__ files: the site's ``games`` package is not
# part of the checker, and these say what the archive is to whoever unzips it.
PACKAGE_NOTE = '"""Part of yukon-verify.pyz, the Yukon Daily fair-play checker."""\n'
MAIN = f"""{PACKAGE_NOTE}
import sys

if sys.version_info < (3, 11):
    sys.exit("yukon-verify.pyz needs Python 3.11 or later")

from games.verify_day import main

sys.exit(main(prog="python3 {FILENAME}"))
"""
FIXED_TIME = (2026, 1, 1, 0, 0, 0)


def _members() -> dict[str, bytes]:
    """The archive's files by name: the checker's modules and the engine's, as source."""
    members = {
        "__main__.py": MAIN.encode(),
        "games/__init__.py": PACKAGE_NOTE.encode(),
        "yukon/__init__.py": PACKAGE_NOTE.encode(),
    }
    for module in (verify_day, receipts, commitment):
        source = Path(str(module.__file__))
        members[f"games/{source.name}"] = source.read_bytes()
    engine = Path(str(yukon.engine.__file__)).parent
    for path in sorted(engine.glob("*.py")):
        members[f"yukon/engine/{path.name}"] = path.read_bytes()
    return members


@cache
def archive() -> bytes:
    """The zip application's bytes (kept: the modules do not change while a process runs)."""
    buffer = io.BytesIO()
    buffer.write(SHEBANG)
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zipped:
        for name, data in sorted(_members().items()):
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zipped.writestr(info, data)
    return buffer.getvalue()


@cache
def sha256() -> str:
    return hashlib.sha256(archive()).hexdigest()
