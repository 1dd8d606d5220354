"""The signed documents of fair play: a finished daily game's receipt, a closed day's close
record, the site's published keys, and the digests they carry (docs/fair-play.md, section 5).

Pure standard library plus ``cryptography`` (Ed25519), no Django: the server that signs
and anyone who checks (``python -m games.verify_day --receipt``) build the same bytes.
``cryptography`` is imported only to sign or check a signature, so the rest (the digests,
the documents' shapes) and a day's check without receipts run on the standard library
alone: the downloadable checker (games/checker.py) needs nothing installed for those.

**What is signed.** A document is a JSON object. Its signed bytes are its *canonical
JSON*: the object without its ``signature`` member, keys sorted, no whitespace
(separators ``,`` and ``:``), every non-ASCII character escaped (``\\u00e9``), integers as
integers, encoded as ASCII. ``signature`` is the Ed25519 signature of those bytes, in
standard base64. A document's *digest* is the lowercase hex SHA-256 of its signed bytes.

**Receipt** (``yukon-daily-receipt-v1``): date, tier, game_id, player (the display name
when it was issued), status, score, moves, elapsed_ms, log_sha256, key_id.

**Log digest** (``log_sha256``): for each log entry in ply order, the canonical JSON of
``{"ply", "move", "turned", "at_ms"}`` (the games file's per-move object; ``turned`` is
null when no card turned up) followed by ``\\n``; the SHA-256 of all of it.

**Close record** (``yukon-daily-close-v1``): date, key_id, previous (``{"date",
"sha256"}``: the previous close record's date and digest, or null for the first one), and
tiers: per tier ``{"games_sha256", "ranked", "left_out"}``.

**Games digest** (``games_sha256``): the SHA-256 of the day's games file with every game
line's ``player`` set to null: each line as the file writes it (compact JSON, keys in the
file's order, separators ``,`` and ``:``, non-ASCII characters as they are, UTF-8) and
``\\n``. Names are left out because a player may rename, or delete their account, after
the close; every other byte of the file is fixed once the record is signed.

**Left out** (``left_out``): the sorted digests of the receipts of the tier's finished
games that are not on its board (rejected by the replay, removed by moderation, the player
banned): a receipt holder can see their game was left out on purpose; nobody else learns
whose games they were.

The formats are fixed; a change needs a new ``format`` value (``...-v2``).
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

RECEIPT_FORMAT = "yukon-daily-receipt-v1"
CLOSE_FORMAT = "yukon-daily-close-v1"
KEYS_FORMAT = "yukon-daily-keys-v1"
KEY_BYTES = 32  # an Ed25519 private seed and a public key alike
RECEIPT_STATUSES = ("won", "stuck", "resigned", "abandoned")
LOG_KEYS = ("ply", "move", "turned", "at_ms")

DIGEST_HEX = re.compile(r"[0-9a-f]{64}")
KEY_ID = re.compile(r"ed25519:[0-9a-f]{16}")
TIER = re.compile(r"[a-z]{1,16}")

# name -> type of every member of a receipt but its signature
RECEIPT_FIELDS: dict[str, type] = {
    "format": str,
    "date": str,
    "tier": str,
    "game_id": int,
    "player": str,
    "status": str,
    "score": int,
    "moves": int,
    "elapsed_ms": int,
    "log_sha256": str,
    "key_id": str,
}


# ----- bytes and digests ---------------------------------------------------------------


def canonical(document: Mapping[str, Any]) -> bytes:
    """The bytes a document's signature covers: everything but ``signature``."""
    body = {key: value for key, value in document.items() if key != "signature"}
    return _compact_ascii(body)


def _compact_ascii(data: Any) -> bytes:
    return json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    ).encode("ascii")


def digest(document: Mapping[str, Any]) -> str:
    """The document's digest: the SHA-256 of its signed bytes (the close records' chain)."""
    return hashlib.sha256(canonical(document)).hexdigest()


def log_entry(ply: int, move: str, turned: str | None, at_ms: int) -> dict[str, Any]:
    """One move as the games file and the log digest carry it."""
    return {"ply": ply, "move": move, "turned": turned or None, "at_ms": at_ms}


def log_sha256(log: Iterable[Mapping[str, Any]]) -> str:
    """The log digest of a receipt, from the log as the games file lists it."""
    hashed = hashlib.sha256()
    for entry in log:
        hashed.update(_compact_ascii({key: entry.get(key) for key in LOG_KEYS}) + b"\n")
    return hashed.hexdigest()


def file_line(data: Mapping[str, Any]) -> bytes:
    """One line of a games file, exactly as the site writes it."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def games_sha256(lines: Iterable[Mapping[str, Any]]) -> str:
    """The games digest of a file's lines (header, games, end line), names set to null."""
    hashed = hashlib.sha256()
    for line in lines:
        nameless = {**line, "player": None} if "game_id" in line and "player" in line else line
        hashed.update(file_line(nameless))  # ("player" keeps its place in the line)
    return hashed.hexdigest()


# ----- keys and signatures -------------------------------------------------------------


def decode_key(text: str, what: str = "key") -> bytes:
    """The 32 raw bytes of a base64 key; ValueError naming ``what`` otherwise."""
    try:
        raw = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ValueError(f"{what} is not base64") from exc
    if len(raw) != KEY_BYTES:
        raise ValueError(f"{what} is {len(raw)} bytes, not {KEY_BYTES}")
    return raw


def encode_key(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


class NoCryptography(RuntimeError):
    """A signature was to be made or checked where ``cryptography`` is not installed."""

    def __init__(self) -> None:
        super().__init__(
            "checking signatures needs the cryptography package: pip install cryptography"
        )


def private_key(text: str) -> Ed25519PrivateKey:
    """The signing key from its setting: base64 of the raw 32-byte private key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.from_private_bytes(decode_key(text, "the private key"))


def public_bytes(key: Ed25519PrivateKey) -> bytes:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def key_id(public_key: bytes) -> str:
    """A public key's id: ``ed25519:`` and the first 16 hex digits of its SHA-256."""
    return "ed25519:" + hashlib.sha256(public_key).hexdigest()[:16]


def sign(document: Mapping[str, Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    """The document with its ``signature``; its ``key_id`` must name ``key``."""
    if document.get("key_id") != key_id(public_bytes(key)):
        raise ValueError("the document's key_id does not name the key that signs it")
    signature = base64.b64encode(key.sign(canonical(document))).decode("ascii")
    return {**document, "signature": signature}


def signature_holds(document: Mapping[str, Any], public_key: bytes) -> bool:
    """Whether ``signature`` is ``public_key``'s Ed25519 signature of the document;
    NoCryptography without the package that checks it."""
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError as exc:
        raise NoCryptography from exc
    try:
        signature = base64.b64decode(str(document.get("signature", "")), validate=True)
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, canonical(document))
    except (binascii.Error, ValueError, InvalidSignature):
        return False
    return True


# ----- the documents -------------------------------------------------------------------


def receipt(
    *,
    date: str,
    tier: str,
    game_id: int,
    player: str,
    status: str,
    score: int,
    moves: int,
    elapsed_ms: int,
    log: Iterable[Mapping[str, Any]],
    signer: str,
) -> dict[str, Any]:
    """A receipt to sign (``signer``: the key id), its log digest computed from ``log``."""
    return check_receipt(
        {
            "format": RECEIPT_FORMAT,
            "date": date,
            "tier": tier,
            "game_id": game_id,
            "player": player,
            "status": status,
            "score": score,
            "moves": moves,
            "elapsed_ms": elapsed_ms,
            "log_sha256": log_sha256(log),
            "key_id": signer,
        },
        signed=False,
    )


def close_record(
    *,
    date: str,
    previous: tuple[str, str] | None,
    tiers: Mapping[str, Mapping[str, Any]],
    signer: str,
) -> dict[str, Any]:
    """A close record to sign: ``previous`` is (date, digest) of the one before, if any."""
    return check_close_record(
        {
            "format": CLOSE_FORMAT,
            "date": date,
            "key_id": signer,
            "previous": None if previous is None else {"date": previous[0], "sha256": previous[1]},
            "tiers": {tier: dict(value) for tier, value in tiers.items()},
        },
        signed=False,
    )


def _date(value: Any, what: str) -> str:
    try:
        if isinstance(value, str) and dt.date.fromisoformat(value).isoformat() == value:
            return value
    except ValueError:
        pass
    raise ValueError(f"{what} {value!r} is not a date (YYYY-MM-DD)")


def _hex(value: Any, what: str) -> str:
    if not isinstance(value, str) or not DIGEST_HEX.fullmatch(value):
        raise ValueError(f"{what} is not a SHA-256 in lowercase hex")
    return value


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what} {value!r} is not a count")
    return int(value)


def _members(data: Any, expected: Iterable[str], what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ValueError(f"{what} is not a JSON object")
    names = set(expected)
    missing, extra = sorted(names - set(data)), sorted(set(data) - names)
    if missing or extra:
        parts = [f"missing {', '.join(missing)}"] * bool(missing)
        parts += [f"unexpected {', '.join(extra)}"] * bool(extra)
        raise ValueError(f"{what} is not as documented: {'; '.join(parts)}")
    return data


def check_receipt(data: Any, *, signed: bool = True) -> dict[str, Any]:
    """``data`` if it is a receipt as documented (signed: with a ``signature``); else
    ValueError naming what is wrong. Nothing here checks the signature itself."""
    names = [*RECEIPT_FIELDS, "signature"] if signed else list(RECEIPT_FIELDS)
    document = _members(data, names, "the receipt")
    for name, kind in RECEIPT_FIELDS.items():
        value = document[name]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ValueError(f"the receipt's {name} {value!r} is not a {kind.__name__}")
    if document["format"] != RECEIPT_FORMAT:
        raise ValueError(f"the receipt's format {document['format']!r} is not {RECEIPT_FORMAT}")
    _date(document["date"], "the receipt's date")
    if not TIER.fullmatch(document["tier"]):
        raise ValueError(f"the receipt's tier {document['tier']!r} is not a tier")
    if document["status"] not in RECEIPT_STATUSES:
        raise ValueError(f"the receipt's status {document['status']!r} is not a finished game's")
    for name in ("game_id", "score", "moves", "elapsed_ms"):
        _count(document[name], f"the receipt's {name}")
    _hex(document["log_sha256"], "the receipt's log_sha256")
    if not KEY_ID.fullmatch(document["key_id"]):
        raise ValueError(f"the receipt's key_id {document['key_id']!r} is not a key id")
    if signed and not isinstance(document["signature"], str):
        raise ValueError("the receipt's signature is not text")
    return document


def check_close_record(data: Any, *, signed: bool = True) -> dict[str, Any]:
    """``data`` if it is a close record as documented; else ValueError."""
    names = ["format", "date", "key_id", "previous", "tiers"] + (["signature"] if signed else [])
    record = _members(data, names, "the close record")
    if record["format"] != CLOSE_FORMAT:
        raise ValueError(f"the close record's format {record['format']!r} is not {CLOSE_FORMAT}")
    date = _date(record["date"], "the close record's date")
    if not isinstance(record["key_id"], str) or not KEY_ID.fullmatch(record["key_id"]):
        raise ValueError(f"the close record's key_id {record['key_id']!r} is not a key id")
    previous = record["previous"]
    if previous is not None:
        _members(previous, ("date", "sha256"), "the close record's previous")
        if _date(previous["date"], "the previous close record's date") >= date:
            raise ValueError("the close record's previous one is not from an earlier day")
        _hex(previous["sha256"], "the previous close record's sha256")
    tiers = record["tiers"]
    if not isinstance(tiers, dict) or not tiers:
        raise ValueError("the close record has no tiers")
    for tier, entry in tiers.items():
        if not TIER.fullmatch(tier):
            raise ValueError(f"the close record's tier {tier!r} is not a tier")
        _members(entry, ("games_sha256", "ranked", "left_out"), f"the close record's {tier}")
        _hex(entry["games_sha256"], f"the close record's {tier} games_sha256")
        _count(entry["ranked"], f"the close record's {tier} ranked")
        left_out = entry["left_out"]
        if not isinstance(left_out, list) or left_out != sorted(left_out):
            raise ValueError(f"the close record's {tier} left_out is not a sorted list")
        for value in left_out:
            _hex(value, f"a digest in the close record's {tier} left_out")
    if signed and not isinstance(record["signature"], str):
        raise ValueError("the close record's signature is not text")
    return record


def check_keys(data: Any) -> dict[str, bytes]:
    """The published keys file as {key id: public key}; ValueError if it is not one, or
    a key is listed under an id that is not its own."""
    keys = _members(data, ("format", "keys"), "the keys file")
    if keys["format"] != KEYS_FORMAT or not isinstance(keys["keys"], list):
        raise ValueError(f"the keys file is not {KEYS_FORMAT}")
    found: dict[str, bytes] = {}
    for entry in keys["keys"]:
        if not isinstance(entry, dict):
            raise ValueError("a key in the keys file is not a JSON object")
        raw = decode_key(str(entry.get("public_key", "")), f"public key {entry.get('key_id')!r}")
        if entry.get("key_id") != key_id(raw):
            raise ValueError(
                f"the keys file lists a key under {entry.get('key_id')!r}, its id is {key_id(raw)}"
            )
        found[key_id(raw)] = raw
    return found
