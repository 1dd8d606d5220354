"""The daily commitment: the exact text that pins a day's deal, and its SHA-256.

Pure standard library (no Django), so that the server that publishes a commitment and
anyone who checks one (``python -m games.verify_day``, docs/fair-play.md) build the same
bytes. The format is fixed; a change needs a new first line (``...-v2``), because every
commitment already published must keep checking.

    yukon-daily-commitment-v1
    <date YYYY-MM-DD>
    <tier: easy|medium|hard|weekly>
    <variant: yukon; double-yukon for the weekly>
    <deal algorithm version: 1>
    <deal number, decimal>
    <salt, lowercase hex>

each line ending in one ``\\n``, encoded as ASCII. The commitment is the lowercase hex
SHA-256 of those bytes. The salt (at least 128 random bits) makes the deal number, which
has only 64 bits, impossible to find from the commitment by trying numbers.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
from dataclasses import dataclass

FORMAT = "yukon-daily-commitment-v1"
SALT_BYTES = 16  # 128 bits
SALT_HEX = re.compile(r"[0-9a-f]{32,128}")
DIGEST_HEX = re.compile(r"[0-9a-f]{64}")
NAME = re.compile(r"[a-z][a-z+-]{0,15}")  # easy, weekly, yukon, double-yukon


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


@dataclass(frozen=True)
class Opening:
    """Everything a day's commitment covers; published in full once the day has closed."""

    date: str  # YYYY-MM-DD
    tier: str
    variant: str
    algorithm_version: int
    deal: int
    salt: str

    def text(self) -> str:
        """The committed text; refuses anything that could be read two ways."""
        try:
            canonical = dt.date.fromisoformat(self.date).isoformat() == self.date
        except (TypeError, ValueError):
            canonical = False
        if not canonical:
            raise ValueError(f"date {self.date!r} is not YYYY-MM-DD")
        for name, value in (("tier", self.tier), ("variant", self.variant)):
            if not NAME.fullmatch(value):
                raise ValueError(f"{name} {value!r} is not a lowercase name")
        if isinstance(self.deal, bool) or not 0 <= self.deal < 2**64:
            raise ValueError(f"deal {self.deal!r} is not a deal number")
        version = self.algorithm_version
        if isinstance(version, bool) or not 0 < version < 2**16:
            raise ValueError(f"algorithm version {version!r} is out of range")
        if not SALT_HEX.fullmatch(self.salt):
            raise ValueError("the salt is not 32 to 128 lowercase hex digits")
        lines = (FORMAT, self.date, self.tier, self.variant, version, self.deal, self.salt)
        return "".join(f"{line}\n" for line in lines)

    def commitment(self) -> str:
        """The lowercase hex SHA-256 of ``text()``: what is published with the day."""
        return hashlib.sha256(self.text().encode("ascii")).hexdigest()
