"""The schema declares what the server checks of these inputs, so that the fuzzer
(test_fuzz_contract.py) holds the server to it with no exception in schemathesis.toml:
``page`` from 1, the archive's ``date`` a date, the boards' parameters never empty, and
``POST /api/games/``'s body one of its three shapes."""

from __future__ import annotations

import itertools
import json
from typing import Any

import jsonschema_rs
import pytest
from django.test import Client
from rest_framework import serializers

from games.api.serializers import StartGameSerializer
from games.models import ChallengeTier, Tier
from leaderboards.serializers import MAX_PAGE
from tests.factories import logged_in, make_challenge, make_player

MAX_DEAL_NUMBER = 2**64 - 1


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return dict(json.loads(response.content))


def parameter(schema: dict[str, Any], path: str, name: str, method: str = "get") -> Any:
    (found,) = [p for p in schema["paths"][path][method]["parameters"] if p["name"] == name]
    return found


def test_every_page_parameter_starts_at_1_as_the_server_reads_it(schema: dict[str, Any]) -> None:
    pages = {
        path: parameter(schema, path, "page")["schema"]
        for path, operations in schema["paths"].items()
        for operation in operations.values()
        if any(p["name"] == "page" for p in operation.get("parameters", []))
    }
    assert {
        "/api/leaderboards/archive/{date}/{tier}/",
        "/api/players/{name}/",
        "/api/leaderboards/leagues/{league_id}/",
        "/api/leaderboards/alltime/",
    } <= set(pages)
    for path, declared in pages.items():
        assert declared == {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 1}, (
            path
        )


def test_the_archive_start_takes_a_date(schema: dict[str, Any]) -> None:
    date = parameter(schema, "/api/archive/{date}/{tier}/", "date", "post")
    assert date["schema"] == {"type": "string", "format": "date"}


@pytest.mark.django_db
@pytest.mark.postgres
@pytest.mark.redis
def test_a_board_parameter_sent_empty_is_a_400_naming_it(schema: dict[str, Any]) -> None:
    """The schema takes none of them empty (``minLength``, an integer, a boolean); the
    server once read ``?period=`` as left out."""
    challenge = make_challenge()
    day = f"/api/leaderboards/daily/{challenge.date}/{challenge.tier}/"
    archive = f"/api/leaderboards/archive/2001-01-01/{challenge.tier}/"
    player = make_player("Ann")
    viewer = logged_in(player)
    around = parameter(schema, "/api/leaderboards/daily/{date}/{tier}/", "around")["schema"]
    assert around["minLength"] == 1
    cases = [
        ("/api/leaderboards/alltime/", "period", "30d"),
        (day, "around", "me"),
        (day, "page", "1"),
        (day, "league", None),
        (day, "following", "true"),
        ("/api/leaderboards/streaks/", "following", "false"),
        ("/api/players/Ann/", "page", "1"),
        (archive, "page", None),
    ]
    for path, name, value in cases:
        response = viewer.get(f"{path}?{name}=", HTTP_ACCEPT="application/json")
        assert response.status_code == 400, (path, name, response.content)
        assert response.json()["errors"] == {
            name: ["may not be empty: leave it out for its default"]
        }
        if value is not None:  # the same parameter with a value is fine
            response = viewer.get(f"{path}?{name}={value}", HTTP_ACCEPT="application/json")
            assert response.status_code == 200, (path, name, response.content)


def start_bodies() -> list[dict[str, Any]]:
    """Every mix of the three keys, with each variant the server knows (one it does not,
    and none) and take-back in the spellings DRF reads (and some it does not), and deal
    numbers about their bounds."""
    variant_field = StartGameSerializer().fields["variant"]
    assert isinstance(variant_field, serializers.ChoiceField)
    server_variants = list(variant_field.choices)
    keys = {"daily": ChallengeTier.WEEKLY, "deal": 7, "practice": Tier.HARD}
    takebacks = [None, False, True, 0, 1, 1.0, "yes", "OFF", "True", "", "maybe", 2]
    bodies = []
    for chosen in itertools.chain.from_iterable(
        itertools.combinations(keys, count) for count in range(len(keys) + 1)
    ):
        for variant in [None, *server_variants, "klondike"]:
            for takeback in takebacks:
                body: dict[str, Any] = {key: keys[key] for key in chosen}
                if variant is not None:
                    body["variant"] = variant
                if takeback is not None:
                    body["takeback"] = takeback
                bodies.append(body)
    deals: list[Any] = [0, MAX_DEAL_NUMBER, MAX_DEAL_NUMBER + 1, -1, 7.5, True, ""]
    for number in (0, 9, 10**19 - 1, MAX_DEAL_NUMBER - 10**12, MAX_DEAL_NUMBER):
        deals += [str(number), str(number).zfill(20), str(number + 1)]
    deals += ["1" * 20, "0" * 21, "1e3", " 7", "٣"]
    bodies += [{"deal": deal} for deal in deals]
    bodies += [{"daily": "extreme"}, {"practice": "weekly"}, {"deal": 7, "daily": None}]
    bodies += [{"deal": 7, "variant": None}, {"daily": "easy", "takeback": None}]
    return bodies


def test_the_start_body_is_one_of_three_shapes_exactly_as_the_server_reads_it(
    schema: dict[str, Any],
) -> None:
    components = schema["components"]["schemas"]
    assert schema["paths"]["/api/games/"]["post"]["requestBody"]["content"] == {
        "application/json": {"schema": {"$ref": "#/components/schemas/StartGameRequest"}}
    }
    one_of = components["StartGameRequest"]["oneOf"]
    shapes = [components[entry["$ref"].rsplit("/", 1)[1]] for entry in one_of]
    assert [shape["required"] for shape in shapes] == [["daily"], ["deal"], ["practice"]]
    # schemathesis's own validator
    validator = jsonschema_rs.Draft4Validator(
        {"$ref": "#/components/schemas/StartGameRequest", "components": schema["components"]}
    )
    verdicts = [
        (body, validator.is_valid(body), StartGameSerializer(data=body).is_valid())
        for body in start_bodies()
    ]
    assert sum(taken for _, _, taken in verdicts) > 100  # each shape, many ways
    disagreements = [
        (body, "declared" if declared else "not declared")
        for body, declared, taken in verdicts
        if declared != taken
    ]
    assert not disagreements, disagreements


def test_path_ids_tiers_and_log_ins_are_declared_as_the_server_reads_them(
    schema: dict[str, Any],
) -> None:
    """Three explicit path parameters hid their routes' bounds (any integer, where the
    server takes 1 .. 2^63-1); the archive start declared only the daily tiers, where a
    closed Sunday's weekly starts too; and three operations that answer a guest only 403
    listed the log-in as optional."""
    ids = {"type": "integer", "format": "int64", "minimum": 1, "maximum": 2**63 - 1}
    for path, name in [
        ("/api/games/{game_id}/receipt/", "game_id"),
        ("/api/games/{game_id}/results/", "game_id"),
        ("/api/leaderboards/leagues/{league_id}/", "league_id"),
    ]:
        assert parameter(schema, path, name)["schema"] == ids, path
    tier = parameter(schema, "/api/archive/{date}/{tier}/", "tier", "post")["schema"]
    assert sorted(tier["enum"]) == sorted(ChallengeTier.values)
    for path, method in [
        ("/api/calendar/{month}/", "get"),
        ("/api/archive/{date}/{tier}/", "post"),
        ("/api/leaderboards/leagues/{league_id}/", "get"),
    ]:
        assert schema["paths"][path][method]["security"] == [{"cookieAuth": []}], path


@pytest.mark.django_db
def test_an_answer_with_an_etag_declares_its_304(schema: dict[str, Any]) -> None:
    """The boards, the calendar, a league: each answers an empty 304 to the ETag it gave
    (apikit/etags.py); the schema said so for none of them."""
    player = make_player("Ann")
    viewer = logged_in(player)
    challenge = make_challenge()
    month = challenge.date.isoformat()[:7]
    asked = {
        "/api/leaderboards/home/": "/api/leaderboards/home/",
        "/api/calendar/{month}/": f"/api/calendar/{month}/",
        "/api/leaderboards/streaks/": "/api/leaderboards/streaks/",
    }
    for declared, url in asked.items():
        first = viewer.get(url)
        assert first.status_code == 200 and first["ETag"], url
        again = viewer.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304, url
        operation = schema["paths"][declared]["get"]
        assert "304" in operation["responses"], declared
        assert "ETag" in operation["responses"]["200"]["headers"], declared
    with_etag = [
        path
        for path, operations in schema["paths"].items()
        if "304" in operations.get("get", {}).get("responses", {})
    ]
    assert len(with_etag) == 10, with_etag  # the nine views of conditional(), games.jsonl
