"""Secrecy: no response ever names a face-down card, or today's daily deal number.

Many random games are played through the API (guests in practice, players in the daily
challenges) with legal moves, illegal ones, probes at face-down cards and undos. After
each request the server-side snapshot says which cards are face down; every JSON body is
scanned for them.
"""

from __future__ import annotations

import base64
import binascii
import json
import random
import re
from typing import Any

import pytest
from django.test import Client

from games.models import Game
from games.services import FACE_DOWN_REASON
from tests.factories import SECRET_DAILY_NUMBERS, Api, make_challenges, make_user
from yukon.engine import Position, card_text, move_text

pytestmark = pytest.mark.django_db

CARD = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][cdhs])(?![A-Za-z0-9])")


def hidden_cards(position: Position) -> set[str]:
    return {
        card_text(card)
        for col, down in zip(position.cols, position.down, strict=True)
        for card in col[:down]
    }


def without_signatures(body: str) -> str:
    """``body`` with each Ed25519 signature (a finished daily's receipt) taken out, once it is
    checked to be one: standard base64, whose ``+`` and ``/`` can set two characters apart
    that read as a card ("+6s/"), made from the receipt's other members, which are scanned."""
    try:
        data = json.loads(body)
    except ValueError:
        return body

    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            return {
                key: "<signature>" if key == "signature" and is_signature(value) else strip(value)
                for key, value in node.items()
            }
        return [strip(item) for item in node] if isinstance(node, list) else node

    return json.dumps(strip(data))


def is_signature(value: object) -> bool:
    try:
        return isinstance(value, str) and len(base64.b64decode(value, validate=True)) == 64
    except binascii.Error:
        return False


class Scanner:
    """Remembers what the client has been shown; fails on any hidden card in a body."""

    def __init__(self) -> None:
        self.seen: set[str] = set()  # turned up once: known to the client for good

    def check(self, body: str, game: Game, where: str) -> None:
        position = Position.from_text(game.position)
        shown = set(CARD.findall(without_signatures(body)))
        secret = hidden_cards(position) - self.seen
        leaked = shown & secret
        assert not leaked, f"{where}: {sorted(leaked)} are face down but appear in {body[:300]}"
        for number in SECRET_DAILY_NUMBERS.values():
            assert str(number) not in body, f"{where}: today's deal number leaked"
        self.seen |= shown - secret


def probe_moves(position: Position, rng: random.Random) -> list[str]:
    """Illegal moves a curious client might try, face-down cards first."""
    hidden = [c for col, down in zip(position.cols, position.down, strict=True) for c in col[:down]]
    probes = []
    if hidden:
        card = rng.choice(hidden)
        dest = rng.choice(["F", *map(str, range(1, 8))])
        source = rng.randint(1, 7)
        probes += [f"{card_text(card)}>{dest}", f"{source}:{card_text(card)}>{dest}"]
    legal = set(position.legal_moves())
    illegal_visible = [
        move_text(card << 3 | dest)
        for card in range(52)
        if position.movable[card]
        for dest in range(8)
        if card << 3 | dest not in legal
    ]
    if illegal_visible:
        probes.append(rng.choice(illegal_visible))
    return probes


def play_random_game(api: Api, game_id: int, rng: random.Random, *, practice: bool) -> None:
    scanner = Scanner()
    status, body = api.get(f"/api/games/{game_id}/")
    scanner.check(api.bodies[-1], Game.objects.get(pk=game_id), "start")
    for _ in range(80):
        game = Game.objects.get(pk=game_id)
        if game.status != "playing":
            break
        position = Position.from_text(game.position)
        roll = rng.random()
        if roll < 0.15:
            for text in probe_moves(position, rng):
                status, body = api.post(
                    f"/api/games/{game_id}/moves/", {"ply": game.ply, "move": text}
                )
                assert status == 400, (text, body)
                hidden = hidden_cards(position)
                if text.split(":")[-1][:2] in hidden:
                    assert body["detail"] == FACE_DOWN_REASON
                scanner.check(api.bodies[-1], game, f"probe {text}")
        elif roll < 0.2:
            stale = game.ply - 1 if game.ply else game.ply + 1
            status, body = api.post(f"/api/games/{game_id}/moves/", {"ply": stale, "move": "Ah>F"})
            assert status == 409
            scanner.check(api.bodies[-1], game, "stale ply")
        elif practice and roll < 0.27 and game.moves:
            status, body = api.post(f"/api/games/{game_id}/undo/", {"ply": game.ply})
            assert status == 200, body
            scanner.check(api.bodies[-1], Game.objects.get(pk=game_id), "undo")
        else:
            move = rng.choice(position.legal_moves())
            status, body = api.post(
                f"/api/games/{game_id}/moves/", {"ply": game.ply, "move": move_text(move)}
            )
            assert status == 200, body
            scanner.check(api.bodies[-1], Game.objects.get(pk=game_id), f"move {move_text(move)}")
        if rng.random() < 0.1:
            api.get(f"/api/games/{game_id}/")
            scanner.check(api.bodies[-1], Game.objects.get(pk=game_id), "detail")
            api.get("/api/daily/")
            scanner.check(api.bodies[-1], Game.objects.get(pk=game_id), "daily")
    game = Game.objects.get(pk=game_id)
    if game.status == "playing" and rng.random() < 0.5:
        api.post(f"/api/games/{game_id}/resign/")
        scanner.check(api.bodies[-1], Game.objects.get(pk=game_id), "resign")
    api.get(f"/api/games/{game_id}/replay/")
    scanner.check(api.bodies[-1], Game.objects.get(pk=game_id), "replay")


@pytest.mark.slow
def test_no_response_reveals_a_face_down_card_or_the_daily_number() -> None:
    make_challenges()
    rng = random.Random(20240601)
    for index in range(24):
        client = Client()
        api = Api(client)
        if index % 3 == 0:
            tier = ("easy", "medium", "hard")[index // 3 % 3]
            client.force_login(make_user(f"player{index}"))
            status, game = api.post("/api/games/", {"daily": tier})
            assert status == 201
            assert game["deal"] is None
            play_random_game(api, game["id"], rng, practice=False)
        else:
            status, game = api.post("/api/games/", {"deal": rng.randrange(2**64)})
            assert status == 201
            play_random_game(api, game["id"], rng, practice=True)
        for body in api.bodies:
            for number in SECRET_DAILY_NUMBERS.values():
                assert str(number) not in body


@pytest.mark.slow
def test_a_prefix_never_tells_where_a_face_down_card_lies(guest_api: Api) -> None:
    """``3:Ah>F`` must answer the same whether or not Ah lies face down in column 3."""
    _, game = guest_api.post("/api/games/", {"deal": 0})
    position = Position.deal(0)
    answers: dict[str, set[str]] = {}
    for k in range(1, 7):
        for card in position.cols[k][: position.down[k]]:
            for source in range(1, 8):
                for dest in ("F", "1", "4"):
                    text = f"{source}:{card_text(card)}>{dest}"
                    status, body = guest_api.post(
                        f"/api/games/{game['id']}/moves/", {"ply": 0, "move": text}
                    )
                    assert status == 400
                    answers.setdefault(card_text(card), set()).add(body["detail"])
    assert all(details == {FACE_DOWN_REASON} for details in answers.values()), answers
