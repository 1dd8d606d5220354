"""The games API answers in the player's language (Accept-Language): its refusals are
read by people, through the direct move path as well as DRF's (locale/, docs/development.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def call(client: Client, method: str, url: str, data: Any = None) -> tuple[int, Any]:
    kwargs = {} if data is None else {"data": json.dumps(data), "content_type": "application/json"}
    response = getattr(client, method)(url, HTTP_ACCEPT="application/json", **kwargs)
    return response.status_code, response.json()


def test_games_api_refusals_come_in_german_and_spanish() -> None:
    german = Client(headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    status, game = call(german, "post", "/api/games/", {"deal": 0})
    assert status == 201, game
    moves = f"/api/games/{game['id']}/moves/"
    # Well-formed moves take the direct path (games/api/direct.py): a hidden card's
    # refusal, and a stale ply's conflict with the game's state beside it.
    status, body = call(german, "post", moves, {"ply": 0, "move": "Jh>F"})
    assert (status, body["detail"]) == (
        400,
        "diese Karte ist verdeckt: nur aufgedeckte Karten lassen sich ziehen",
    )
    status, body = call(german, "post", moves, {"ply": 3, "move": "8d>6"})
    assert status == 409 and body["ply"] == 0
    assert body["detail"] == "Schritt 3 ist nicht der nächste: das Spiel ist bei Schritt 0"
    status, body = call(german, "get", "/api/games/999999999/")
    assert (status, body["detail"]) == (404, "dieses Spiel gibt es nicht")

    spanish = Client(headers={"Accept-Language": "es"})
    status, body = call(
        spanish, "post", "/api/games/", {"deal": 0, "takeback": True, "daily": "easy"}
    )
    assert status == 400
    assert body["errors"]["non_field_errors"][0].startswith('envía {"daily"'), body
    status, body = call(spanish, "get", "/api/games/999999999/")
    assert (status, body["detail"]) == (404, "esa partida no existe")


def test_the_engines_reasons_for_a_refused_move_come_in_the_players_language() -> None:
    client = Client()
    status, game = call(client, "post", "/api/games/", {"deal": 0})
    assert status == 201, game
    moves = f"/api/games/{game['id']}/moves/"

    def refusal(move: str, language: str) -> str:
        response = client.post(
            moves,
            data=json.dumps({"ply": 0, "move": move}),
            content_type="application/json",
            HTTP_ACCEPT="application/json",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        assert response.status_code == 400, response.content
        return str(response.json()["detail"])

    # deal 0: column 1 holds 8s, column 2 ends in 6s; Ah lies under 6c in column 4
    assert refusal("8s>2", "en") == "8s cannot go on 6s: Yukon builds down in alternating colour"
    assert refusal("8s>2", "de") == (
        "8s passt nicht auf 6s: bei „Yukon“ wird abwärts in wechselnden Farben angelegt"
    )
    assert refusal("Ah>F", "de") == (
        "nur freiliegende Karten dürfen auf den Ablagestapel, und auf Ah liegt noch 1 Karte"
    )
    assert (
        refusal("9h4", "es") == "el movimiento '9h4' no tiene '>': escríbelo como '9h>4' o 'Ac>F'"
    )
