"""Double, Triple and Quadruple Yukon through the API: play, hints, analysis, replay, 400s.

Real database, real solver (the multi-deck search), real verification on commit.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game, Verification
from tests.factories import Api
from yukon.engine import Position, card_text
from yukon.solver import solve

pytestmark = pytest.mark.django_db(transaction=True)


def start(api: Api, deal: int, variant: str) -> dict[str, Any]:
    status, game = api.post("/api/games/", {"deal": deal, "variant": variant})
    assert status == 201, game
    return game


def move(api: Api, game: dict[str, Any], ply: int, text: str) -> tuple[int, dict[str, Any]]:
    return api.post(f"/api/games/{game['id']}/moves/", {"ply": ply, "move": text})


@pytest.mark.parametrize(
    ("variant", "columns", "deal"),
    [
        ("double-yukon", 10, 2**64 - 1),
        ("triple-yukon", 13, 12345),
        ("quadruple-yukon", 16, 0),
    ],
)
def test_any_deal_of_each_variant_starts_masked(
    api: Api, variant: str, columns: int, deal: int
) -> None:
    game = start(api, deal, variant)
    board = game["position"]
    assert board["variant"] == variant and len(board["columns"]) == columns
    dealt = Position.deal(deal, variant)
    assert [c["down"] for c in board["columns"]] == dealt.down
    for shown, col, down in zip(board["columns"], dealt.cols, dealt.down, strict=True):
        assert shown["up"] == [card_text(c) for c in col[down:]]
        assert shown["copies"] == [c // 52 + 1 for c in col[down:]]
    # The first legal move plays; the answer is the engine's.
    first = sorted(dealt.move_text(m) for m in dealt.legal_moves())[0]
    status, body = move(api, game, game["ply"], first)
    assert status == 200, body


@pytest.mark.slow
def test_a_double_yukon_deal_is_won_through_the_api_and_verified(api: Api) -> None:
    line = solve(0, variant="double-yukon", seconds=10).moves
    assert line, "deal 0 of Double Yukon is solved in about a thousand positions"
    game = start(api, 0, "double-yukon")
    status, hint = api.get(f"/api/games/{game['id']}/hint/")
    assert status == 200 and hint["verdict"] == "solved", hint
    assert hint["move"] == line[0]
    ply = game["ply"]
    for text in line:
        status, body = move(api, game, ply, text)
        assert status == 200, (text, body)
        ply = body["ply"]
    assert body["status"] == "won" and body["score"] == 1260
    stored = Game.objects.get(pk=game["id"])
    assert stored.verification == Verification.VERIFIED and stored.score == 1260
    status, replay = api.get(f"/api/games/{game['id']}/replay/")
    assert status == 200, replay
    status, analysis = api.get(f"/api/games/{game['id']}/analysis/")
    assert status in (200, 202), analysis


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Ah>F", "does not name its source column"),
        ("11:Ah>F", "column 11 is beyond the board: Double Yukon has 10 columns"),
        ("2:Ah>17", "column 17 is beyond the board"),
        ("2:Ah#3>F", "a card of a deck that does not exist: Double Yukon plays 2 decks"),
        ("2:Ah>F", "column 2 shows 2 copies of Ah: name the one you mean"),
        ("1:Ah#1>F", "Ah#1 is not a face-up card of column 1"),
        ("2:Ah#1", "has no '>'"),
        ("16:9h#2>16x", "too long"),
    ],
)
def test_bad_multi_deck_moves_get_a_400_with_the_reason(api: Api, text: str, reason: str) -> None:
    # Deal 0 of Double Yukon shows both aces of hearts in column 2.
    game = start(api, 0, "double-yukon")
    status, body = move(api, game, game["ply"], text)
    assert status == 400, body
    assert reason in body["detail"], body
    _, again = api.get(f"/api/games/{game['id']}/")
    assert again["ply"] == game["ply"]


def test_a_face_down_copy_is_refused_like_a_missing_card(api: Api) -> None:
    """Naming a card that lies face down in a column says nothing about it."""
    dealt = Position.deal(0, "double-yukon")
    k = next(k for k, down in enumerate(dealt.down) if down >= 2)
    hidden = dealt.cols[k][0]
    face = card_text(hidden)
    absent = next(
        card_text(c) for c in range(52) if all(c != other % 52 for other in dealt.cols[k])
    )
    game = start(api, 0, "double-yukon")
    _, hidden_answer = move(api, game, 0, f"{k + 1}:{face}>1")
    _, absent_answer = move(api, game, 0, f"{k + 1}:{absent}>1")
    assert hidden_answer["detail"].replace(face, "X") == absent_answer["detail"].replace(
        absent, "X"
    )


def test_one_deck_games_keep_the_short_form(api: Api) -> None:
    game = start(api, 0, "yukon")
    status, body = move(api, game, 0, "8d>6")
    assert status == 200, body
    assert Game.objects.get(pk=game["id"]).log.get().text == "8d>6"
