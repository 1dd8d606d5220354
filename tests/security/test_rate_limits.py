"""Rate limits: sign-up and log-in per client address, moves per player; a clear 429
with Retry-After. Rates are settings (REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client

from tests.factories import make_user, winning_lines

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(settings: Any) -> dict[str, str]:
    chosen = {"signup": "3/min", "login": "4/min", "moves": "20/s"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": chosen}
    return chosen


def address() -> str:
    """A fresh client address per test: counters live in the shared cache."""
    return f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"


def post(client: Client, url: str, data: Any, ip: str) -> Any:
    return client.post(url, json.dumps(data), content_type="application/json", REMOTE_ADDR=ip)


def assert_throttled(response: Any) -> None:
    assert response.status_code == 429, response.content
    body = response.json()
    assert body["detail"].startswith("Request was throttled")
    assert int(response["Retry-After"]) >= 1


@pytest.mark.slow
def test_signup_is_limited_per_address(rates: dict[str, str]) -> None:
    ip = address()
    for n in range(3):
        data = {
            "username": f"u{n}{uuid.uuid4().hex[:6]}",
            "display_name": f"Player {n}",
            "password": "a long enough passphrase 42",
        }
        assert post(Client(), "/api/auth/signup/", data, ip).status_code == 201
    data = {"username": "late", "display_name": "Late", "password": "a long enough passphrase 42"}
    assert_throttled(post(Client(), "/api/auth/signup/", data, ip))
    # another address is not affected
    assert post(Client(), "/api/auth/signup/", data, address()).status_code == 201


@pytest.mark.slow
def test_login_is_limited_per_address(rates: dict[str, str]) -> None:
    make_user("lou")
    ip = address()
    for _ in range(4):
        response = post(Client(), "/api/auth/login/", {"username": "lou", "password": "x"}, ip)
        assert response.status_code == 400
    assert_throttled(post(Client(), "/api/auth/login/", {"username": "lou", "password": "x"}, ip))


def test_moves_are_limited_per_player(rates: dict[str, str]) -> None:
    client = Client()
    client.force_login(make_user("rex"))
    game = post(client, "/api/games/", {"deal": 0}, address()).json()
    line = winning_lines()[0]
    statuses = []
    ply = 0
    for move in line[:25]:
        url = f"/api/games/{game['id']}/moves/"
        response = post(client, url, {"ply": ply, "move": move}, "1.2.3.4")
        statuses.append(response.status_code)
        if response.status_code == 429:
            assert_throttled(response)
            break
        ply = response.json()["ply"]
    assert statuses[:20] == [200] * 20 and statuses[-1] == 429
    # another player is not slowed down
    other = Client()
    other.force_login(make_user("sue"))
    game = post(other, "/api/games/", {"deal": 0}, address()).json()
    url = f"/api/games/{game['id']}/moves/"
    response = post(other, url, {"ply": 0, "move": line[0]}, "1.2.3.4")
    assert response.status_code == 200
