"""Sign-in with an external OpenID Connect provider, against a stand-in provider: a small
HTTP server on a loopback port that speaks the protocol (discovery, authorize, token,
userinfo, JWKS). allauth talks to it over real HTTP; nothing of ours is mocked."""

from __future__ import annotations

import http.client
import json
import secrets
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import jwt
import pytest
from allauth.socialaccount.models import SocialAccount
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db

CLIENT_ID, CLIENT_SECRET, PROVIDER_ID = "yukon-test", "stand-in-secret", "standin"


class StandInProvider:
    """An OpenID Connect provider that approves whoever it is told to (``subject``)."""

    def __init__(self) -> None:
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.subject = {"sub": "u-123", "preferred_username": "olive", "email": "olive@example.org"}
        self.codes: dict[str, dict[str, str]] = {}
        self.refuse_codes = False
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _json(self, status: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                url = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                if url.path == "/.well-known/openid-configuration":
                    self._json(200, provider.discovery())
                elif url.path == "/jwks":
                    self._json(200, provider.jwks())
                elif url.path == "/userinfo":
                    self._json(200, provider.subject)
                elif url.path == "/authorize":  # the user said yes at once
                    code = secrets.token_urlsafe(16)
                    provider.codes[code] = query
                    target = (
                        query["redirect_uri"]
                        + "?"
                        + urlencode({"code": code, "state": query["state"]})
                    )
                    self.send_response(302)
                    self.send_header("Location", target)
                    self.end_headers()
                else:
                    self._json(404, {"error": "not_found"})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
                asked = provider.codes.pop(form.get("code", ""), None)
                if provider.refuse_codes or asked is None:
                    self._json(400, {"error": "invalid_grant"})
                    return
                self._json(200, provider.tokens(asked))

        return Handler

    def discovery(self) -> dict[str, Any]:
        return {
            "issuer": self.url,
            "authorization_endpoint": f"{self.url}/authorize",
            "token_endpoint": f"{self.url}/token",
            "userinfo_endpoint": f"{self.url}/userinfo",
            "jwks_uri": f"{self.url}/jwks",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "token_endpoint_auth_methods_supported": ["client_secret_post"],
        }

    def jwks(self) -> dict[str, Any]:
        jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        return {"keys": [{**jwk, "kid": "k1", "use": "sig", "alg": "RS256"}]}

    def tokens(self, asked: dict[str, str]) -> dict[str, Any]:
        now = int(time.time())
        claims = {**self.subject, "iss": self.url, "aud": CLIENT_ID, "iat": now, "exp": now + 300}
        if "nonce" in asked:
            claims["nonce"] = asked["nonce"]
        pem = self.key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        id_token = jwt.encode(claims, pem, algorithm="RS256", headers={"kid": "k1"})
        return {
            "access_token": secrets.token_urlsafe(16),
            "token_type": "Bearer",
            "expires_in": 300,
            "id_token": id_token,
        }


@pytest.fixture
def provider(settings: Any) -> Iterator[StandInProvider]:
    stand_in = StandInProvider()
    stand_in.thread.start()
    apps = [
        {
            "provider_id": PROVIDER_ID,
            "name": "Stand-in ID",
            "client_id": CLIENT_ID,
            "secret": CLIENT_SECRET,
            "settings": {"server_url": stand_in.url, "oauth_pkce_enabled": True},
        }
    ]
    settings.OIDC_APPS = apps
    settings.SOCIALACCOUNT_PROVIDERS = {"openid_connect": {"APPS": apps}}
    try:
        yield stand_in
    finally:
        stand_in.server.shutdown()
        stand_in.server.server_close()


def start(client: Client) -> str:
    """Press the log-in page's provider button: the address allauth sends the browser to."""
    page = client.get("/login/")
    assert b"Log in with Stand-in ID" in page.content
    response = client.post(f"/accounts/oidc/{PROVIDER_ID}/login/?process=login&next=/")
    assert response.status_code == 302, response.content[:500]
    return response["Location"]


def follow_provider(authorize_url: str) -> str:
    """The browser at the provider: its answer sends it back to us (path and query)."""
    url = urlsplit(authorize_url)
    connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=5)
    connection.request("GET", f"{url.path}?{url.query}")
    answer = connection.getresponse()
    assert answer.status == 302
    back = urlsplit(answer.getheader("Location", ""))
    connection.close()
    return f"{back.path}?{back.query}"


def test_a_first_sign_in_picks_names_then_the_provider_logs_in(provider: StandInProvider) -> None:
    client = Client()
    authorize = start(client)
    asked = parse_qs(urlsplit(authorize).query)
    assert asked["client_id"] == [CLIENT_ID] and "code_challenge" in asked  # PKCE
    response = client.get(follow_provider(authorize))
    assert response.status_code == 302 and response["Location"] == "/accounts/3rdparty/signup/"
    form = client.get("/accounts/3rdparty/signup/")
    assert form.status_code == 200 and b'name="display_name"' in form.content
    User.objects.create_user(username="alice", display_name="Alice")
    taken = client.post(
        "/accounts/3rdparty/signup/", {"username": "olive", "display_name": "AIice", "email": ""}
    )
    assert taken.status_code == 200 and b"too close" in taken.content
    done = client.post(
        "/accounts/3rdparty/signup/", {"username": "olive", "display_name": "Olive", "email": ""}
    )
    assert done.status_code == 302, done.content[:1000]
    me = client.get("/api/auth/me/").json()
    assert me["authenticated"] and me["player"]["display_name"] == "Olive"
    account = SocialAccount.objects.get(provider=PROVIDER_ID)
    assert account.uid == "u-123" and account.user.username == "olive"
    assert not account.user.has_usable_password()

    again = Client()  # a later sign-in: straight in, the same account
    response = again.get(follow_provider(start(again)))
    assert response.status_code == 302 and response["Location"] == "/"
    assert again.get("/api/auth/me/").json()["player"]["username"] == "olive"
    assert User.objects.filter(username="olive").count() == 1


def test_a_forged_callback_or_a_refused_code_logs_nobody_in(provider: StandInProvider) -> None:
    client = Client()
    back = follow_provider(start(client))
    forged = back.replace("state=", "state=x")  # not the state this browser was given
    response = client.get(forged)
    assert response.status_code in (200, 401) and b"error" in response.content.lower()
    assert client.get("/api/auth/me/").json()["authenticated"] is False

    provider.refuse_codes = True
    other = Client()
    response = other.get(follow_provider(start(other)))
    assert response.status_code in (200, 401)
    assert other.get("/api/auth/me/").json()["authenticated"] is False
    assert not SocialAccount.objects.exists() and not User.objects.exists()


def test_off_by_default() -> None:
    page = Client().get("/login/")
    assert b"Log in with" not in page.content.replace(b"Log in with a passkey", b"")
    response = Client().post(f"/accounts/oidc/{PROVIDER_ID}/login/")
    assert response.status_code == 404
