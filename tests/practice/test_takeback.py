"""Take-back from the foundations as a practice option, through the API on a real database.

The option is chosen when the game starts (``{"deal": N, "variant": V, "takeback": true}``)
and then holds for every move, undo, hint, analysis, replay and verification of the game.
Ranked dailies keep the standard rules.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError

from analysis.services import _deal_result
from games.models import Deal, Game, Mode
from tests.factories import Api, make_challenges, winning_lines

pytestmark = pytest.mark.django_db

# Deal 1's known win, 12 moves in: Ad, 2d, Ah and 2h are home, 3c and 3s lie exposed.
OPENING = winning_lines()[1][:12]


def start(api: Api, deal: int = 1, **extra: Any) -> dict[str, Any]:
    status, game = api.post("/api/games/", {"deal": deal, "variant": "yukon", **extra})
    assert status == 201, game
    return game


def play(api: Api, game: dict[str, Any], texts: list[str], ply: int = 0) -> dict[str, Any]:
    body: dict[str, Any] = {}
    for text in texts:
        status, body = api.post(f"/api/games/{game['id']}/moves/", {"ply": ply, "move": text})
        assert status == 200, (text, body)
        ply += 1
    return body


def test_a_card_comes_back_from_its_foundation_for_its_ten_points(
    guest_api: Api, django_capture_on_commit_callbacks: Any
) -> None:
    game = start(guest_api, takeback=True)
    assert game["takeback"] is True and game["position"]["variant"] == "yukon+takeback"
    before = play(guest_api, game, OPENING)
    after = play(guest_api, game, ["2d>3"], ply=len(OPENING))  # 2d back onto a black 3
    assert after["score"] == before["score"] - 10
    _, state = guest_api.get(f"/api/games/{game['id']}/")
    assert state["position"]["foundations"]["d"] == 1
    # An undo puts it home again; a replay of the log, undo and all, verifies.
    status, undone = guest_api.post(f"/api/games/{game['id']}/undo/", {"ply": len(OPENING) + 1})
    assert status == 200 and undone["score"] == before["score"], undone
    assert undone["position"]["foundations"]["d"] == 2
    play(guest_api, game, ["2h>3"], ply=len(OPENING) + 2)
    with django_capture_on_commit_callbacks(execute=True):
        assert guest_api.post(f"/api/games/{game['id']}/resign/")[0] == 200
    stored = Game.objects.get(pk=game["id"])
    assert stored.verification == "verified", stored.rejection_reason
    # The replay starts from the deal with the option, so its take-backs replay.
    status, replay = guest_api.get(f"/api/games/{game['id']}/replay/")
    assert status == 200 and replay["start"]["variant"] == "yukon+takeback"
    assert [entry["move"] for entry in replay["log"]][-3:] == ["2d>3", "undo", "2h>3"]


def test_without_the_option_a_card_home_stays_home(guest_api: Api) -> None:
    game = start(guest_api)
    assert game["takeback"] is False and game["position"]["variant"] == "yukon"
    play(guest_api, game, OPENING)
    status, body = guest_api.post(
        f"/api/games/{game['id']}/moves/", {"ply": len(OPENING), "move": "2d>3"}
    )
    assert status == 400 and "stays there" in str(body), body


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        ({"daily": "easy", "takeback": True}, "ranked dailies keep the usual rules"),
        ({"deal": 1, "variant": "yukon+takeback"}, "is not a valid choice"),
        ({"deal": 1, "takeback": "sometimes"}, "Must be a valid boolean"),
        ({"deal": 1, "takeback": None}, "may not be null"),
        ({"deal": 1, "variant": "double-yukon", "takeback": True}, "one-deck variants only"),
    ],
)
def test_bad_takeback_requests_are_refused(api: Api, payload: Any, words: str) -> None:
    make_challenges()
    status, body = api.post("/api/games/", payload)
    assert status == 400 and words in str(body), body
    assert not Game.objects.exists()


def test_the_database_refuses_a_daily_with_takeback(api: Api) -> None:
    make_challenges()
    status, game = api.post("/api/games/", {"daily": "easy"})
    assert status == 201 and game["takeback"] is False
    with pytest.raises(IntegrityError):
        Game.objects.filter(pk=game["id"]).update(takeback=True)


@pytest.mark.slow
def test_following_hints_alone_wins_with_takeback(api: Api) -> None:
    game = start(api, takeback=True)
    url = f"/api/games/{game['id']}"
    for _ in range(300):
        if game["status"] != "playing":
            break
        status, hint = api.get(f"{url}/hint/")
        assert status == 200 and hint["verdict"] == "solved", hint
        status, moved = api.post(f"{url}/moves/", {"ply": game["ply"], "move": hint["move"]})
        assert status == 200, moved
        _, game = api.get(f"{url}/")
    assert game["status"] == "won" and game["takeback"] is True


def test_the_standard_rules_loss_of_a_deal_is_not_a_takeback_loss(db: None) -> None:
    # Analysis may take the deal's stored verdict for the start position: a winning line
    # of the standard rules wins with take-back too, but a proven loss may not be one.
    deal = Deal.objects.create(number=24, variant="yukon", verdict="unwinnable")
    standard = Game(deal=deal, mode=Mode.PRACTICE, position="-")
    with_takeback = Game(deal=deal, mode=Mode.PRACTICE, position="-", takeback=True)
    result = _deal_result(standard)
    assert result is not None and result.verdict == "unwinnable"
    assert _deal_result(with_takeback) is None
    deal.verdict, deal.solution = "solved", ["Ah>F"]
    result = _deal_result(with_takeback)
    assert result is not None and result.verdict == "solved"
