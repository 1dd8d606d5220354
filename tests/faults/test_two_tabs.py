"""Two tabs of one player play the same game at once (through gunicorn, two workers):
the server serialises them (a locked row and a ply check), the log stays gapless with
every move once, and each tab ends on the server's position."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from games.models import Game
from games.services import log_entries
from tests.factories import winning_lines
from tests.faults.server import Browser, gunicorn
from yukon.engine import Position

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


class Tab(threading.Thread):
    """Knows only what the server told it; plays the next move of the line from there."""

    def __init__(self, tab: Browser, game_id: int, line: list[str]) -> None:
        super().__init__(daemon=True)
        self.tab, self.game_id, self.line = tab, game_id, line
        self.ply = 0
        self.accepted: list[int] = []
        self.conflicts = 0
        self.bad: list[str] = []

    def run(self) -> None:
        deadline = time.monotonic() + 60
        while self.ply < len(self.line) and time.monotonic() < deadline:
            response = self.tab.post(
                f"/api/games/{self.game_id}/moves/",
                {"ply": self.ply, "move": self.line[self.ply]},
            )
            if response.status_code == 200:
                self.accepted.append(self.ply)
                self.ply = response.json()["ply"]
            elif response.status_code == 409:
                self.conflicts += 1
                self.ply = response.json()["ply"]  # the other tab moved: catch up
            else:
                self.bad.append(f"{response.status_code}: {response.text[:200]}")
                return
        # back on the page: the tab shows what the server has
        self.final = self.tab.get(f"/api/games/{self.game_id}/").json()


def test_two_tabs_of_one_player(tmp_path: Path) -> None:
    line = winning_lines()[68]
    static = tmp_path / "static"
    static.mkdir()
    with gunicorn(tmp_path / "gunicorn.log", static, THROTTLE_MOVES="1000/s") as base:
        first = Browser(base)
        first.sign_up("tabby")
        game_id = first.post("/api/games/", {"deal": 68}).json()["id"]
        second = Browser(base)
        second.http.cookies = first.http.cookies  # same browser, same session, another tab
        tabs = [Tab(first, game_id, line), Tab(second, game_id, line)]
        for tab in tabs:
            tab.start()
        for tab in tabs:
            tab.join(90)
        for tab in tabs:
            assert not tab.bad, tab.bad
    accepted = sorted(tabs[0].accepted + tabs[1].accepted)
    assert accepted == list(range(len(line)))  # every ply accepted once, by one tab or the other
    assert tabs[0].accepted and tabs[1].accepted and tabs[0].conflicts + tabs[1].conflicts > 0
    game = Game.objects.get(pk=game_id)
    log = [(entry.ply, entry.text) for entry in log_entries(game)]  # rows, or packed
    assert log == list(enumerate(line))
    position = Position.deal(68)
    for move in line:
        position.play_text(move)
    assert game.position == position.to_text() and game.status == "won"
    for tab in tabs:
        assert tab.ply == game.ply
        assert tab.final["ply"] == game.ply and tab.final["position"] == position.masked()
