"""The player's settings in the account (/api/account/settings/; docs/frontend.md,
"Settings"): only the contract's keys and types are stored (anything else is a 400 that
says why), each player reads and writes only their own, guests none, and every page a
logged-in player loads carries them for the pre-paint script."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from accounts.models import User
from tests.factories import Api, logged_in, make_player

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

URL = "/api/account/settings/"


def patch(api: Api, data: object) -> tuple[int, dict]:
    return api.call("patch", URL, data)


def test_a_player_saves_some_settings_then_more_then_replaces_them() -> None:
    ann = make_player("Ann")
    api = Api(logged_in(ann))
    assert api.get(URL) == (200, {})
    assert patch(api, {"theme": "dark", "suits": "four"}) == (
        200,
        {"theme": "dark", "suits": "four"},
    )
    assert patch(api, {"volume": 0.25, "largeIndices": True}) == (
        200,
        {"theme": "dark", "suits": "four", "volume": 0.25, "largeIndices": True},
    )
    assert api.call("put", URL, {"animations": "off", "volume": 1}) == (
        200,
        {"animations": "off", "volume": 1.0},
    )
    assert api.get(URL) == (200, {"animations": "off", "volume": 1.0})
    status, export = api.get("/api/auth/export/")
    assert status == 200 and export["settings"] == {"animations": "off", "volume": 1.0}


BAD = [
    ({"colour": "red"}, "Unknown settings: colour"),
    ({"theme": "pink"}, "Must be one of: system, light, dark, contrast."),
    ({"suits": 4}, "Must be one of: two, four."),
    ({"largeIndices": "true"}, "Must be true or false."),
    ({"sound": 1}, "Must be true or false."),
    ({"volume": 1.5}, "less than or equal to 1"),
    ({"volume": "0.5"}, "Must be a number from 0 to 1."),
    ({"volume": True}, "Must be a number from 0 to 1."),
    ({"hints": None}, "may not be null"),
    (["theme", "dark"], "Expected a dictionary"),
]


@pytest.mark.parametrize(("body", "reason"), BAD)
def test_unknown_keys_and_bad_values_are_refused_with_the_reason(body: object, reason: str) -> None:
    ann = make_player("Ann", settings={"theme": "light"})
    api = Api(logged_in(ann))
    for method in ("patch", "put"):
        status, answer = api.call(method, URL, body)
        assert status == 400 and reason in json.dumps(answer), answer
    ann.refresh_from_db()
    assert ann.settings == {"theme": "light"}


def test_the_schema_says_what_the_server_refuses(client: Client) -> None:
    document = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    shape = document["components"]["schemas"]["PlayerSettings"]
    assert shape["additionalProperties"] is False and "required" not in shape
    assert shape["properties"]["volume"]["maximum"] == 1
    api = Api(logged_in(make_player("Ann")))
    for raw in ('{"volume": NaN}', '{"volume": Infinity}'):
        assert api.call("patch", URL, raw=raw)[0] == 400
    # A form's fields are all text, which the strict types would refuse: JSON only.
    form = api.client.patch(URL, "hints=false", content_type="application/x-www-form-urlencoded")
    assert form.status_code == 415
    assert list(document["paths"][URL]["patch"]["requestBody"]["content"]) == ["application/json"]


def test_each_player_reads_and_writes_only_their_own_and_guests_none() -> None:
    ann = make_player("Ann", settings={"theme": "dark"})
    bob = make_player("Bob")
    bob_api = Api(logged_in(bob))
    assert bob_api.get(URL) == (200, {})
    assert patch(bob_api, {"theme": "contrast"})[0] == 200
    ann.refresh_from_db()
    assert ann.settings == {"theme": "dark"}
    guest = Api(Client())
    for method in ("get", "patch", "put"):
        status, answer = guest.call(method, URL, None if method == "get" else {"theme": "light"})
        assert status == 403 and "credentials" in answer["detail"], (method, answer)
    assert sorted(User.objects.values_list("settings", flat=True), key=str) == [
        {"theme": "contrast"},
        {"theme": "dark"},
    ]


def test_pages_carry_the_accounts_settings_before_the_pre_paint_script() -> None:
    """A logged-in player's page has the account's settings in <head>, ahead of the script
    that reads them; a guest's page has none (its settings are the browser's alone)."""
    ann = make_player("Ann", settings={"theme": "dark", "suits": "four"})
    page = logged_in(ann).get("/how-to-play/").content.decode()
    head = page.split("</head>", 1)[0]
    block = re.search(r'<script id="account-settings" type="application/json">(.*?)</script>', head)
    assert block and json.loads(block[1]) == {"theme": "dark", "suits": "four"}
    assert head.index('id="account-settings"') < head.index("data-pre-paint")
    guest_page = Client().get("/how-to-play/").content.decode()
    assert "data-pre-paint" in guest_page and 'id="account-settings"' not in guest_page


def test_a_deleted_account_keeps_no_settings() -> None:
    from accounts import services

    ann = make_player("Ann", settings={"theme": "dark"})
    services.delete_account(ann)
    ann.refresh_from_db()
    assert ann.settings == {}
