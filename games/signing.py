"""The site's signing key for receipts and close records, from the settings.

``RECEIPT_SIGNING_KEY`` (base64 of the raw 32-byte Ed25519 private key) signs; the keys
in ``RECEIPT_RETIRED_KEYS`` (public halves) signed earlier days and stay published so that
old receipts keep checking (docs/operations.md, "The receipt signing key").
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings

from games import receipts


@dataclass(frozen=True)
class PublicKey:
    key_id: str
    public_key: bytes
    current: bool


@functools.lru_cache(maxsize=4)
def _private_key(text: str) -> Ed25519PrivateKey:
    return receipts.private_key(text)


def signing_key() -> Ed25519PrivateKey:
    return _private_key(settings.RECEIPT_SIGNING_KEY)


def current_key_id() -> str:
    return receipts.key_id(receipts.public_bytes(signing_key()))


def sign(document: Mapping[str, Any]) -> dict[str, Any]:
    """``document`` (its ``key_id``: ``current_key_id()``) with the site's signature."""
    return receipts.sign(document, signing_key())


def public_keys() -> list[PublicKey]:
    """The current key, then each retired one (once each, in the order configured)."""
    current = receipts.public_bytes(signing_key())
    found = [PublicKey(receipts.key_id(current), current, current=True)]
    for text in settings.RECEIPT_RETIRED_KEYS:
        raw = receipts.decode_key(text, "a retired key")
        if all(key.public_key != raw for key in found):
            found.append(PublicKey(receipts.key_id(raw), raw, current=False))
    return found
