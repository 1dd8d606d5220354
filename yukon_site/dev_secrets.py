"""Secrets of a development install: made on its first start, kept in one git-ignored file.

With DEBUG on and ``SECRET_KEY`` or ``DAILY_SECRET`` unset, settings take the missing ones
from ``.dev-secrets.json`` beside ``manage.py`` (or the file ``DEV_SECRETS_FILE`` names),
creating it with fresh random values the first time. No secret is written in the
repository: a constant there would let anyone who reads the code sign cookies and work
out every daily deal of every instance run with the defaults.

The file is complete or absent, never half-written: it is written under a temporary name
(mode 0600) and hard-linked into place, which fails if another process got there first
(``runserver``'s autoreloader and parallel test processes start together). The loser
reads the winner's file, so every process of one checkout agrees.

The receipt signing key (``RECEIPT_SIGNING_KEY``) needs no entry of its own: a development
install without one derives it from its SECRET_KEY (``receipt_signing_key``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import logging
import os
import secrets
import tempfile
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

FILE_NAME = ".dev-secrets.json"
NAMES = ("SECRET_KEY", "DAILY_SECRET")

logger = logging.getLogger(__name__)


def secrets_path(base_dir: Path, configured: str = "") -> Path:
    """Where a development install keeps its secrets.

    ``DEV_SECRETS_FILE`` if set; else beside ``manage.py`` in a checkout. An installed
    package (``BASE_DIR`` is site-packages) has no place of its own: it must be told.
    """
    if configured:
        return Path(configured).expanduser().resolve()
    if (base_dir / "manage.py").is_file():
        return base_dir / FILE_NAME
    raise ImproperlyConfigured(
        "DEBUG is on and SECRET_KEY or DAILY_SECRET is not set, outside a checkout: "
        "set both, or set DEV_SECRETS_FILE to a file where generated ones can be kept."
    )


def load_or_create(path: Path) -> dict[str, str]:
    """The secrets kept at ``path``, made and written there if it does not exist yet."""
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise _unusable(path, exc) from exc
    fresh = {name: secrets.token_urlsafe(50) for name in NAMES}
    try:
        created = _create(path, fresh)
    except OSError as exc:  # a read-only checkout, a file system without hard links
        raise _unusable(path, exc) from exc
    if created:
        logger.warning(
            "DEBUG is on and no SECRET_KEY/DAILY_SECRET is set: generated development "
            "secrets in %s (git-ignored; delete it to make new ones).",
            path,
        )
        return fresh
    return _read(path)  # another process created it first: use theirs


def _unusable(path: Path, exc: OSError) -> ImproperlyConfigured:
    return ImproperlyConfigured(
        f"cannot keep development secrets in {path} ({exc.strerror or exc}): set "
        "SECRET_KEY and DAILY_SECRET, or DEV_SECRETS_FILE to a writable place."
    )


def _read(path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if not isinstance(data, dict) or not all(
        isinstance(data.get(name), str) and data[name] for name in NAMES
    ):
        raise ImproperlyConfigured(
            f"{path} is not a development secrets file (JSON with {' and '.join(NAMES)}); "
            "delete it to have new secrets made."
        )
    return {name: data[name] for name in NAMES}


def _create(path: Path, values: dict[str, str]) -> bool:
    """Write ``values`` to ``path`` unless it exists; False if another process won."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # mkstemp creates the file with mode 0600 and O_EXCL.
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(values, file, indent=2)
            file.write("\n")
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temporary, path)  # atomic, and refuses to replace an existing file
        except FileExistsError:
            return False
        return True
    finally:
        os.unlink(temporary)


# ----- the receipt signing key (docs/operations.md) ------------------------------------

RECEIPT_KEY_BYTES = 32  # an Ed25519 private key's seed, and a public key


def receipt_signing_key(secret_key: str) -> str:
    """A development install's receipt signing key: derived from its own SECRET_KEY, so it
    is as secret as that and needs no second file. Production sets RECEIPT_SIGNING_KEY."""
    seed = hashlib.sha256(b"yukon-daily receipt signing key\n" + secret_key.encode()).digest()
    return base64.b64encode(seed).decode("ascii")


def check_signing_keys(signing_key: str, retired: list[str]) -> None:
    """Stop the start on a key that is not base64 of 32 bytes, naming the setting (never
    its value)."""
    for name, value in [("RECEIPT_SIGNING_KEY", signing_key)] + [
        ("RECEIPT_RETIRED_KEYS", key) for key in retired
    ]:
        try:
            raw = base64.b64decode(value.strip(), validate=True)
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) != RECEIPT_KEY_BYTES:
            raise ImproperlyConfigured(
                f"{name} must be base64 of a raw {RECEIPT_KEY_BYTES}-byte Ed25519 key "
                '(docs/operations.md, "The receipt signing key").'
            )


# ----- the VAPID key pair of Web Push reminders (docs/reminders.md) ---------------------


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def vapid_private_key(secret_key: str) -> str:
    """A development install's VAPID private key (base64url of the raw 32-byte P-256
    scalar): derived from its own SECRET_KEY, like the receipt key, so it is kept with it
    and differs between checkouts. Production sets VAPID_PRIVATE_KEY."""
    from cryptography.hazmat.primitives.asymmetric import ec

    digest = hashlib.sha256(b"yukon-daily vapid key\n" + secret_key.encode()).digest()
    order = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551  # P-256's n
    scalar = int.from_bytes(digest, "big") % (order - 1) + 1
    key = ec.derive_private_key(scalar, ec.SECP256R1())
    return _b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def vapid_public_key(private_key: str) -> str:
    """The public half of a VAPID private key (base64url, raw 32 bytes or DER), as the
    browser's ``applicationServerKey`` takes it: the uncompressed point, base64url. Stops
    the start, naming the setting (never its value), when the key cannot be read."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        raw = base64.urlsafe_b64decode(private_key.strip() + "=" * (-len(private_key) % 4))
        if len(raw) == 32:
            key: object = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
        else:
            key = serialization.load_der_private_key(raw, password=None)
    except ValueError:
        key = None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise ImproperlyConfigured(
            "VAPID_PRIVATE_KEY must be base64url of a raw 32-byte P-256 key (or its DER): "
            "`manage.py vapid_keys` makes a pair (docs/reminders.md)."
        )
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64url(point)
