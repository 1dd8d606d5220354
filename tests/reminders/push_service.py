"""A stand-in Web Push service on localhost, and the browser side of a subscription.

It does what a real push service does with the site's POST, so the tests read what a
browser would get, not what our code meant to send: it checks the VAPID token (RFC 8292:
an ES256 JWT for this origin, signed by the site's public key, not expired), and the
browser (``Browser``, whose key pair the test makes) decrypts the aes128gcm payload with
its own private key and auth secret (RFC 8291, via http_ece). Endpoints listed in
``gone`` answer 410, as a push service does for a subscription the browser dropped.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """One browser's push subscription: its own P-256 key pair and auth secret."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict[str, Any]:
        """What PushSubscription.toJSON() gives the page."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> Any:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


@dataclass
class Delivery:
    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes
    claims: dict[str, Any]


def verify_vapid(authorization: str, public_key: str, origin: str) -> dict[str, Any]:
    """The claims of a ``vapid t=<jwt>,k=<key>`` header, after checking it as a push
    service does; AssertionError says what is wrong."""
    scheme, _, params = authorization.partition(" ")
    assert scheme.lower() == "vapid", authorization
    parts = dict(p.strip().split("=", 1) for p in params.split(","))
    assert parts["k"] == public_key, "signed with another key than the site's public one"
    header_b64, claims_b64, signature_b64 = parts["t"].split(".")
    assert json.loads(unb64url(header_b64)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature_b64)
    assert len(raw) == 64, "an ES256 signature is r || s, 32 bytes each"
    signature = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
    point = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    # raises InvalidSignature for a token this key did not sign
    point.verify(signature, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    claims: dict[str, Any] = json.loads(unb64url(claims_b64))
    assert claims["aud"] == origin, claims
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600, claims
    assert str(claims["sub"]).startswith(("mailto:", "https:")), claims
    return claims


class PushService:
    """What it received (each POST, checked), and the endpoints that answer 410."""

    def __init__(self, public_key: str) -> None:
        self.public_key = public_key
        self.deliveries: list[Delivery] = []
        self.errors: list[str] = []
        self.gone: set[str] = set()
        self.port = 0
        self.lock = threading.Lock()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def endpoint(self, name: str) -> str:
        return f"{self.origin}/push/{name}"

    def to(self, endpoint: str) -> list[Delivery]:
        path = endpoint.removeprefix(self.origin)
        return [d for d in self.deliveries if d.path == path]

    def handle(self, path: str, headers: dict[str, str], body: bytes) -> int:
        try:
            claims = verify_vapid(headers.get("authorization", ""), self.public_key, self.origin)
            assert headers.get("content-encoding") == "aes128gcm", headers
            assert int(headers["ttl"]) > 0, headers
        except Exception as exc:  # the test fails on any of them (``errors``)
            with self.lock:
                self.errors.append(f"{path}: {exc!r}")
            return 401
        with self.lock:
            self.deliveries.append(Delivery(path, headers, body, claims))
        return 410 if f"{self.origin}{path}" in self.gone else 201


@contextlib.contextmanager
def push_service(public_key: str) -> Iterator[PushService]:
    service = PushService(public_key)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            headers = {name.lower(): value for name, value in self.headers.items()}
            code = service.handle(self.path, headers, body)
            self.send_response(code)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()
