"""``python -m games.verify_day`` end to end: a day prepared here, played to wins, closed by
moving the clock past midnight, then checked against a live server from its public
endpoints alone, in a process without Django. Then the same after tampering: a stored
score, the salt, the commitment recorded during the day, a day not yet closed, a site
that does not answer. The checks themselves are also fed hand-made data (a board row with
no log, an order the rules do not give).
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import verify_day
from games.commitment import Opening
from games.models import DailyChallenge, Game, utc_today
from games.verify_day import Mismatch, Unavailable
from tests.factories import SECRET_DAILY_NUMBERS, Api, make_challenges, make_user
from tests.games.test_commitment import LINES, Clock, close_the_day, play_daily
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture)
from yukon.engine import replay

ROOT = Path(__file__).resolve().parents[2]
QUITTER_SCORE = replay(0, "yukon", LINES[0][:9]).score


def run_verify(site: str, day: dt.date, *extra: str) -> subprocess.CompletedProcess[str]:
    """The command as anyone would run it: no Django settings in its environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "DATABASE"))}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "games.verify_day",
            "--site",
            site,
            "--timeout",
            "20",
            *extra,
            day.isoformat(),
            "easy",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    fake = Clock(dt.datetime.combine(utc_today(), dt.time(9), tzinfo=dt.UTC))
    monkeypatch.setattr(timezone, "now", fake)
    yield fake


@pytest.fixture
def played(live_server: Any, clock: Clock) -> dict[str, Any]:
    """Today's easy daily (deal 0), won by three players at different paces, resigned by a
    fourth; the commitment as a player read it during the day."""
    make_challenges(numbers={**SECRET_DAILY_NUMBERS, "easy": 0})
    ids = {}
    for name, seconds, moves in (
        ("steady", 2.0, LINES[0]),
        ("quick", 1.0, LINES[0]),
        ("twin", 1.0, LINES[0]),
        ("quitter", 1.0, LINES[0][:9]),
    ):
        client = Client()
        client.force_login(make_user(name))
        ids[name] = play_daily(client, clock, moves, seconds)
        if name == "quitter":
            assert Api(client).post(f"/api/games/{ids[name]}/resign/")[0] == 200
    status, daily = Api(Client()).get("/api/daily/")
    assert status == 200
    recorded = daily["challenges"][0]["commitment"]
    close_the_day(clock)
    return {
        "ids": ids,
        "day": utc_today() - dt.timedelta(days=1),
        "commitment": recorded,
        "site": live_server.url,
    }


@pytest.mark.django_db(transaction=True)
def test_a_closed_day_verifies_from_the_public_endpoints_and_tampering_fails(
    played: dict[str, Any], clock: Clock
) -> None:
    site, day = played["site"], played["day"]
    result = run_verify(site, day, "--commitment", played["commitment"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"OK {day} easy: deal 0 and salt ")
    assert "4 ranked games (3 won)" in result.stdout
    assert "the board's 4 rows match them in order" in result.stdout

    # a stored score changed behind the log's back
    quick = played["ids"]["quick"]
    Game.objects.filter(pk=quick).update(score=620)
    result = run_verify(site, day)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"FAIL {day} easy: game {quick} (Quick): published score 620, its log replays to 625"
    )
    Game.objects.filter(pk=quick).update(score=625)

    # a salt changed after the day (or a deal swapped): the commitment no longer matches
    challenge = DailyChallenge.objects.get(date=day, tier="easy")
    DailyChallenge.objects.filter(pk=challenge.pk).update(salt="0" * 32)
    result = run_verify(site, day)
    assert result.returncode == 1
    assert result.stderr.startswith(f"FAIL {day} easy: commitment mismatch: SHA-256 of deal 0 ")
    assert len(result.stderr.strip().splitlines()) == 1
    DailyChallenge.objects.filter(pk=challenge.pk).update(salt=challenge.salt)

    # the site's commitment replaced, salt and all: the value recorded in the day catches it
    forged = Opening(day.isoformat(), "easy", "yukon", 1, 0, "ab" * 16)
    DailyChallenge.objects.filter(pk=challenge.pk).update(
        salt=forged.salt, commitment=forged.commitment()
    )
    assert run_verify(site, day).returncode == 0  # consistent with itself...
    result = run_verify(site, day, "--commitment", played["commitment"])
    assert result.returncode == 1  # ...but not what was shown during the day
    assert "you recorded " + played["commitment"] in result.stderr


@pytest.mark.django_db(transaction=True)
def test_it_cannot_check_an_open_day_or_an_unreachable_site(
    played: dict[str, Any], clock: Clock
) -> None:
    site, day = played["site"], played["day"]
    clock.now = dt.datetime.combine(day, dt.time(23, 59), tzinfo=dt.UTC)  # before the close
    result = run_verify(site, day)
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"CANNOT CHECK {day} easy: {day} easy has not closed yet: the deal and salt are "
        f"published at {day + dt.timedelta(days=1)}T00:00:00Z"
    )
    result = run_verify("http://127.0.0.1:9", day)
    assert result.returncode == 2
    assert result.stderr.startswith(f"CANNOT CHECK {day} easy: GET /api/daily/{day}/: cannot reach")
    result = run_verify(site, dt.date(2001, 1, 1))
    assert result.returncode == 2
    assert "HTTP 404: there were no challenges on 2001-01-01" in result.stderr


# ----- the checks on hand-made data ----------------------------------------------------

OPENING = Opening("2026-12-01", "easy", "yukon", 1, 0, "cd" * 16)


def game_of(game_id: int, moves: list[str], *, seconds: int = 1, **changes: Any) -> dict[str, Any]:
    from yukon.engine import card_text

    result = replay(0, "yukon", moves)
    turned = [None if card is None else card_text(card) for card in result.turned]
    log = [
        {"ply": i, "move": text, "turned": turned[i], "at_ms": (i + 1) * seconds * 1000}
        for i, text in enumerate(moves)
    ]
    game = {
        "rank": 1,
        "game_id": game_id,
        "player": f"P{game_id}",
        "status": "won" if result.won else "resigned",
        "won": result.won,
        "score": result.score,
        "moves": result.moves,
        "elapsed_ms": len(moves) * seconds * 1000,
        "finished_at": f"2026-12-01T10:00:{game_id:02d}Z",
        "verification": "verified",
        "log": log,
    }
    return {**game, **changes}


def test_each_replay_mismatch_is_named() -> None:
    good = game_of(1, LINES[0])
    verify_day.replay_game(OPENING, good)
    cases = [
        ({"log": []}, "the board counts it, but it has no move log"),
        ({"moves": good["moves"] - 1}, f"published {good['moves'] - 1} moves, its log has"),
        ({"status": "resigned", "won": False}, "published resigned, but its log wins"),
        ({"elapsed_ms": 5}, "is shorter than its last move"),
        ({"verification": "pending"}, "ranked, but not verified"),
        ({"log": [dict(good["log"][0], ply=1)]}, "the log jumps from ply -1 to 1"),
        ({"log": [dict(good["log"][0], move="Kd>F")]}, "'Kd>F' is not a legal move"),
        ({"log": [dict(good["log"][0], turned="Ah")]}, "the log says Ah turned up"),
    ]
    for changes, message in cases:
        with pytest.raises(Mismatch, match=message.replace("(", r"\(")):
            verify_day.replay_game(OPENING, {**good, **changes})


def test_the_order_and_the_board_are_checked_against_the_rules() -> None:
    fast, slow = game_of(1, LINES[0]), game_of(2, LINES[0], seconds=2, rank=2)
    tied = game_of(3, LINES[0], seconds=2, rank=2)
    lost = game_of(4, LINES[0][:5], rank=4)
    games = [fast, slow, tied, lost]
    verify_day.check_order(games)
    with pytest.raises(Mismatch, match="place 1: the file lists game 2, the ranking rules put"):
        verify_day.check_order([slow, fast, tied, lost])
    with pytest.raises(Mismatch, match="game 3: rank 3, the rules give 2"):
        verify_day.check_order([fast, slow, {**tied, "rank": 3}, lost])

    def row(game: dict[str, Any], **changes: Any) -> dict[str, Any]:
        fields = ("rank", "status", "score", "moves", "elapsed_ms", "game_id")
        return {**{k: game[k] for k in fields}, "display_name": game["player"], **changes}

    rows = [row(g) for g in games]
    assert verify_day.check_board(rows, games) == 4
    stranger = row(lost, game_id=99)
    with pytest.raises(Mismatch, match=r"board row 4 \(game 99\) has no move log"):
        verify_day.check_board([*rows[:3], stranger], games)
    with pytest.raises(Mismatch, match=r"board row 5 .* has no move log in the games file"):
        verify_day.check_board([*rows, stranger], games)
    with pytest.raises(Mismatch, match="the board has 3 rows, the games file 4 ranked games"):
        verify_day.check_board(rows[:3], games)
    with pytest.raises(Mismatch, match=r"board row 1 .*: score 600, its log gives 625"):
        verify_day.check_board([row(fast, score=600), *rows[1:]], games)
    with pytest.raises(Mismatch, match=r"board row 2 \(game 3\) is out of order"):
        verify_day.check_board([rows[0], rows[2], rows[1], rows[3]], games)


def test_an_open_day_or_a_wrong_header_is_refused() -> None:
    entry = {
        "date": OPENING.date,
        "tier": "easy",
        "variant": "yukon",
        "algorithm_version": 1,
        "commitment": OPENING.commitment(),
        "closes_at": "2026-12-02T00:00:00Z",
        "closed": True,
        "deal": "0",
        "salt": OPENING.salt,
    }
    assert verify_day.check_opening(entry) == OPENING
    with pytest.raises(Unavailable, match="has not closed yet"):
        verify_day.check_opening({**entry, "closed": False, "deal": None, "salt": None})
    with pytest.raises(Mismatch, match="cannot be committed to"):
        verify_day.check_opening({**entry, "salt": "xyz"})
    header = {**entry, "format": "yukon-daily-games-v1"}
    verify_day.check_header(header, OPENING, OPENING.commitment())
    with pytest.raises(Mismatch, match="the games file says deal '1', the day says '0'"):
        verify_day.check_header({**header, "deal": "1"}, OPENING, OPENING.commitment())


@pytest.mark.django_db(transaction=True)
def test_the_replay_shown_in_docs_fair_play_runs_as_written(played: dict[str, Any]) -> None:
    docs = (ROOT / "docs" / "fair-play.md").read_text()
    blocks = [b.split("```", 1)[0] for b in docs.split("```python\n")[1:]]
    [snippet] = [block for block in blocks if "games.jsonl" in block]
    example = "https://yukon.example/api/daily/2026-12-01/easy/games.jsonl"
    assert example in snippet
    url = f"{played['site']}/api/daily/{played['day']}/easy/games.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "DATABASE"))}
    result = subprocess.run(
        [sys.executable, "-c", snippet.replace(example, url)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "1 Quick 625 OK",
        "1 Twin 625 OK",
        "3 Steady 625 OK",
        f"4 Quitter {QUITTER_SCORE} OK",
    ]


class FakeSite:
    """A stand-in site (stdlib HTTP server) that answers what a broken or hostile site might."""

    def __init__(self, answers: dict[str, bytes]) -> None:
        import http.server
        import threading

        routes = answers

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = routes.get(self.path.split("?")[0], b'{"detail": "nothing here"}')
                self.send_response(200 if self.path.split("?")[0] in routes else 404)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def run_against(answers: dict[str, bytes], capsys: Any) -> tuple[int, str]:
    site = FakeSite(answers)
    try:
        code = verify_day.main(["--site", site.url, OPENING.date, "easy"])
    finally:
        site.close()
    return code, capsys.readouterr().err.strip()


@pytest.mark.slow
def test_a_site_that_answers_nonsense_gets_one_line_not_a_traceback(capsys: Any) -> None:
    import json

    day_path = f"/api/daily/{OPENING.date}/"
    games_path = f"{day_path}easy/games.jsonl"
    entry = {
        "date": OPENING.date,
        "tier": "easy",
        "variant": "yukon",
        "algorithm_version": 1,
        "commitment": OPENING.commitment(),
        "closes_at": "x",
        "closed": True,
        "deal": "0",
        "salt": OPENING.salt,
    }
    header = {**entry, "format": "yukon-daily-games-v1", "games": 1}
    cases = [
        ({day_path: b'{"not": "a list"}'}, 2, "did not answer a list of challenges"),
        ({day_path: b"<html>"}, 2, "not JSON"),
        (
            {day_path: json.dumps([{**entry, "variant": None}]).encode()},
            1,
            "cannot be committed to",
        ),
        ({day_path: json.dumps([entry]).encode()}, 2, "HTTP 404: nothing here"),
        (
            {
                day_path: json.dumps([entry]).encode(),
                games_path: json.dumps(header).encode() + b"\n",
            },
            2,
            "cut short",
        ),
        (
            {
                day_path: json.dumps([entry]).encode(),
                games_path: b"\n".join(
                    json.dumps(x).encode()
                    for x in (
                        {**header, "games": 0, "not_ranked": {"pending": 2}},
                        {"end": True, "games": 0},
                    )
                ),
            },
            2,
            "2 of the day's games still wait for verification",
        ),
        (
            {
                day_path: json.dumps([entry]).encode(),
                games_path: b"\n".join(
                    json.dumps(x).encode() for x in (header, {"log": 5}, {"end": True, "games": 1})
                ),
            },
            1,
            "the board counts it, but it has no move log",
        ),
        (
            {
                day_path: json.dumps([entry]).encode(),
                games_path: b"\n".join(
                    json.dumps(x).encode() for x in (header, [1, 2], {"end": True, "games": 1})
                ),
            },
            2,
            "an answer is not shaped as docs/api.md says",
        ),
    ]
    for answers, code, message in cases:
        got, err = run_against(answers, capsys)
        assert (got, len(err.splitlines())) == (code, 1), err
        assert message in err, err
