"""Secrecy end to end through gunicorn with DEBUG off: no face-down card and no open
day's deal number in any body, header or error page a client can get."""

from __future__ import annotations

import random
import re
from pathlib import Path

import httpx
import pytest

from games.models import Game
from tests.factories import SECRET_DAILY_NUMBERS, make_challenges
from tests.faults.server import Browser, collected_static, gunicorn
from yukon.engine import Position, card_text, move_text

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

CARD = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][cdhs])(?![A-Za-z0-9])")


def hidden(position: Position) -> set[str]:
    return {
        card_text(card)
        for col, down in zip(position.cols, position.down, strict=True)
        for card in col[:down]
    }


def text_of(response: httpx.Response) -> str:
    headers = "\n".join(f"{k}: {v}" for k, v in response.headers.items())
    return headers + "\n" + response.text


def test_nothing_secret_leaves_through_gunicorn(tmp_path: Path) -> None:
    make_challenges()
    static = collected_static()
    rng = random.Random(9)
    seen: list[httpx.Response] = []
    with gunicorn(tmp_path / "gunicorn.log", static, THROTTLE_MOVES="1000/s") as base:
        tab = Browser(base)
        tab.sign_up("sly")
        game_ids = []
        for tier in ("easy", "medium", "hard"):
            response = tab.post("/api/games/", {"daily": tier})
            assert response.status_code == 201, response.text
            game_ids.append(response.json()["id"])
        for game_id in game_ids:
            for _ in range(15):
                game = Game.objects.get(pk=game_id)
                position = Position.from_text(game.position)
                secret = hidden(position)
                legal = position.legal_moves()
                downs = sorted(secret)
                probes = [f"{card}>F" for card in downs[:2]] + [f"{card}>1" for card in downs[:1]]
                for text in probes:
                    answer = tab.post(
                        f"/api/games/{game_id}/moves/", {"ply": game.ply, "move": text}
                    )
                    assert answer.status_code == 400
                    assert not set(CARD.findall(text_of(answer))) - {text[:2]} & secret - {text[:2]}
                    seen.append(answer)
                if not legal:
                    break
                move = move_text(rng.choice(legal))
                answer = tab.post(f"/api/games/{game_id}/moves/", {"ply": game.ply, "move": move})
                assert answer.status_code == 200, answer.text
                after = Position.from_text(Game.objects.get(pk=game_id).position)
                shown = set(CARD.findall(answer.text))
                assert not shown & hidden(after), answer.text
                for url in (f"/api/games/{game_id}/", f"/api/games/{game_id}/replay/"):
                    page = tab.get(url)
                    assert page.status_code < 500
                    assert not set(CARD.findall(page.text)) & hidden(after), (url, page.text)
                    seen.append(page)
        # pages, boards and error pages (404, 405, 400, CSRF 403, bad JSON, a bad Host)
        for url in (
            "/",
            "/practice/",
            "/leaderboards/",
            "/how-to-play/",
            "/faq/",
            f"/play/{game_ids[0]}/",
            f"/replay/{game_ids[0]}/",
            "/api/daily/",
            "/api/leaderboards/alltime/",
            "/api/schema/",
            "/nowhere/",
            "/api/nowhere/",
            "/api/games/-1/",
            "/static/nope.js",
            "/admin/",
        ):
            seen.append(tab.get(url))
        for date_tier in ("easy", "medium", "hard"):
            from games.models import utc_today

            seen.append(tab.get(f"/api/leaderboards/daily/{utc_today()}/{date_tier}/"))
        seen.append(tab.http.post(f"/api/games/{game_ids[0]}/resign/"))  # no CSRF token
        seen.append(tab.http.post("/api/games/", content=b"{not json", headers=tab.headers()))
        seen.append(tab.http.delete(f"/api/games/{game_ids[0]}/", headers=tab.headers()))
        seen.append(httpx.get(f"{base}/api/daily/", headers={"Host": "evil.example"}))
        tab.close()
    for response in seen:
        assert response.status_code < 500, (response.url, response.status_code)
        body = text_of(response)
        assert "Traceback" not in body and "DEBUG = True" not in body, response.url
        for number in SECRET_DAILY_NUMBERS.values():
            assert str(number) not in body, f"{response.url}: today's deal number leaked"
    assert any(r.status_code == 404 for r in seen) and any(r.status_code == 403 for r in seen)
