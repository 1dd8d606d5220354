"""``python -m games.verify_day --receipt`` against a dishonest server.

A day is played here (four players, one of them removed by a moderator), closed by
moving the clock and sealed; each player downloads their receipts. Then the site cheats
the way the old check could not see, re-signing its close record each time so that the
day alone still checks: it drops a game from the file and the board, re-times a log, or
shows one person a different file than it showed another. Each receipt, run through the
command exactly as a player would run it (a process without Django), catches it; a
forged receipt is refused; an honest day passes.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.test import Client
from django.utils import timezone

from games import checker, receipts
from games.models import Game, utc_today
from games.packed_log import pack
from games.services import log_entries
from leaderboards import day_board, sealing
from leaderboards import services as board_services
from leaderboards.models import CloseRecord
from tests.factories import SECRET_DAILY_NUMBERS, Api, make_challenges, make_user
from tests.games.test_commitment import LINES, Clock, close_the_day, play_daily
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    fake = Clock(dt.datetime.combine(utc_today(), dt.time(9), tzinfo=dt.UTC))
    monkeypatch.setattr(timezone, "now", fake)
    yield fake


@pytest.fixture(autouse=True)
def _games_file_unthrottled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each run downloads the file once; the tests run it more than its hourly limit."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    monkeypatch.setitem(rates, "daily_games", "100000/hour")


@pytest.fixture
def played(live_server: Any, clock: Clock, tmp_path: Path) -> dict[str, Any]:
    """Today's easy daily (deal 0), won by three players, resigned by a fourth, and won by
    a fifth whose game a moderator removed; tomorrow's challenges made. The day closed and
    sealed; each player's receipts downloaded (GET /api/auth/receipts/) to a file."""
    make_challenges(numbers={**SECRET_DAILY_NUMBERS, "easy": 0})
    day = utc_today()
    ids, files = {}, {}
    for name, seconds, moves in (
        ("steady", 2.0, LINES[0]),
        ("quick", 1.0, LINES[0]),
        ("twin", 1.0, LINES[0]),
        ("quitter", 1.0, LINES[0][:9]),
        ("cheat", 0.5, LINES[0]),
    ):
        client = Client()
        client.force_login(make_user(name))
        ids[name] = play_daily(client, clock, moves, seconds)
        if name == "quitter":
            assert Api(client).post(f"/api/games/{ids[name]}/resign/")[0] == 200
        if name == "cheat":  # a moderator's decision, before the close
            Game.objects.filter(pk=ids[name]).update(disqualified=True)
            board_services.remove_game(Game.objects.get(pk=ids[name]))
        response: Any = client.get("/api/auth/receipts/")
        assert response.status_code == 200
        files[name] = tmp_path / f"{name}.jsonl"
        files[name].write_bytes(response.content)
    make_challenges(day + dt.timedelta(days=1))
    close_the_day(clock)
    assert sealing.seal_closed_days() == [day.isoformat()]
    return {"ids": ids, "files": files, "day": day, "site": live_server.url, "tmp": tmp_path}


def run_verify(site: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The command as anyone would run it: no Django settings in its environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "DATABASE"))}
    return subprocess.run(
        [sys.executable, "-m", "games.verify_day", "--site", site, "--timeout", "20", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def check_receipt(played: dict[str, Any], name: str, *extra: str) -> Any:
    return run_verify(played["site"], "--receipt", str(played["files"][name]), *extra)


def receipt_of(played: dict[str, Any], name: str) -> dict[str, Any]:
    return dict(json.loads(played["files"][name].read_text()))


def reseal(*days: dt.date) -> None:
    """The dishonest site signs new close records over what it now serves."""
    CloseRecord.objects.filter(date__in=days).delete()
    assert sealing.seal_closed_days() == [day.isoformat() for day in sorted(days)]


def drop_game(game_id: int) -> None:
    """Off the board and out of the file, without a trace: the row is gone."""
    board_services.remove_game(Game.objects.get(pk=game_id))
    Game.objects.filter(pk=game_id).delete()
    day_board.process_cache.clear()


@pytest.mark.django_db(transaction=True)
def test_an_honest_day_passes_with_every_receipt(played: dict[str, Any]) -> None:
    day, ids = played["day"], played["ids"]
    together = played["tmp"] / "all.jsonl"
    together.write_text(
        "".join(played["files"][name].read_text() for name in ("quick", "steady", "quitter"))
    )
    result = run_verify(played["site"], "--receipt", str(together))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    assert lines[0] == (
        f"OK {day} easy game {ids['quick']} (Quick): the receipt is signed by the site "
        f"({receipt_of(played, 'quick')['key_id']}); the games file lists the game with that "
        f"log, result, score and time; the file is the one the signed close record of {day} "
        "holds (the first record of its chain)"
    )
    # one receipt, pretty-printed as a person might save it
    pretty = played["tmp"] / "quick.json"
    pretty.write_text(json.dumps(receipt_of(played, "quick"), indent=2))
    assert run_verify(played["site"], "--receipt", str(pretty)).returncode == 0
    # the moderator's removal is named as what it is: left out on purpose, and signed so
    result = check_receipt(played, "cheat")
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"FAIL receipt: game {ids['cheat']} ({day} easy): game {ids['cheat']} is not on the "
        "board: the site's signed close record lists its receipt among the games it left "
        "out (rejected by the replay, removed by a moderator, or the player banned)"
    )


@pytest.mark.django_db(transaction=True)
def test_a_dropped_game_is_caught_by_its_receipt(played: dict[str, Any]) -> None:
    day, steady = played["day"], played["ids"]["steady"]
    drop_game(steady)
    reseal(day)
    # the day on its own checks: a file, a board and a signed record that agree
    alone = run_verify(played["site"], day.isoformat(), "easy")
    assert alone.returncode == 0, alone.stderr
    assert "3 ranked games" in alone.stdout
    result = check_receipt(played, "steady")
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"FAIL receipt: game {steady} ({day} easy): game {steady} (Steady, won, score 625) is "
        "missing: the site signed its receipt, but the games file does not list it, nor does "
        "the close record say it was left out"
    )
    assert check_receipt(played, "quick").returncode == 0  # the others' games are there


def retime(game_id: int, ply: int, change_ms: int) -> None:
    """A dishonest server's edit of a verified game's (packed) log: one move's time."""
    log = log_entries(Game.objects.get(pk=game_id))
    log[ply] = log[ply]._replace(at_ms=log[ply].at_ms + change_ms)
    Game.objects.filter(pk=game_id).update(packed_log=pack(log))


@pytest.mark.django_db(transaction=True)
def test_a_re_timed_log_is_caught_by_its_receipt(played: dict[str, Any]) -> None:
    day, quick = played["day"], played["ids"]["quick"]
    # a move made to look quicker: still legal, still in order, the same total time
    retime(quick, 3, -400)
    reseal(day)
    alone = run_verify(played["site"], day.isoformat(), "easy")
    assert alone.returncode == 0, alone.stderr
    result = check_receipt(played, "quick")
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"FAIL receipt: game {quick} ({day} easy): game {quick}: its log in the games file is "
        "not the one on its receipt (SHA-256 "
    )
    assert "a move or a move's time was changed" in result.stderr
    # and a file changed without a new record is caught by the record itself
    retime(quick, 3, +400)
    result = check_receipt(played, "twin")
    assert result.returncode == 1
    assert "the games file is not the one the site sealed at the close" in result.stderr


@pytest.mark.django_db(transaction=True)
def test_a_split_view_is_caught_by_a_later_close_record(
    played: dict[str, Any], clock: Clock
) -> None:
    day, steady = played["day"], played["ids"]["steady"]
    next_day = day + dt.timedelta(days=1)
    close_the_day(clock)
    assert sealing.seal_closed_days() == [next_day.isoformat()]
    kept = played["tmp"] / "kept.json"  # someone keeps the next day's record
    status, record = Api(Client()).get(f"/api/daily/{next_day}/close/")
    assert status == 200
    kept.write_text(json.dumps(record))

    # The site forks: a second version of the day, without Steady's game, chained anew.
    drop_game(steady)
    reseal(day, next_day)
    # Quick, shown the second version, finds it consistent with itself ...
    assert check_receipt(played, "quick").returncode == 0
    # ... but not with the record someone kept from the day after.
    result = check_receipt(played, "quick", "--close-record", str(kept))
    assert result.returncode == 1
    held = record["previous"]["sha256"]
    shown = CloseRecord.objects.get(date=day).sha256
    assert result.stderr.strip() == (
        f"FAIL receipt: game {played['ids']['quick']} ({day} easy): split view: the close "
        f"record of {day} the site shows you has digest {shown}, the chain from your close "
        f"record of {next_day} holds {held}: the site has shown different records of {day}"
    )
    result = run_verify(played["site"], "--close-record", str(kept), day.isoformat(), "easy")
    assert result.returncode == 1 and "split view" in result.stderr


@pytest.mark.django_db(transaction=True)
def test_a_forged_receipt_is_refused(played: dict[str, Any]) -> None:
    day, quick = played["day"], played["ids"]["quick"]
    genuine = receipt_of(played, "quick")
    forged = played["tmp"] / "forged.json"

    forged.write_text(json.dumps({**genuine, "score": 625, "elapsed_ms": 1000}))
    result = run_verify(played["site"], "--receipt", str(forged))
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"FAIL receipt: the receipt of game {quick} ({day} easy): the signature does not hold "
        f"for the site's key {genuine['key_id']}: the site did not sign this, or it was "
        "changed afterwards"
    )
    # signed, but by a key of the forger's own under the site's key id
    key = Ed25519PrivateKey.generate()
    own = receipts.sign(
        {**genuine, "key_id": receipts.key_id(receipts.public_bytes(key)), "elapsed_ms": 1000},
        key,
    )
    forged.write_text(json.dumps({**own, "key_id": genuine["key_id"]}))
    assert run_verify(played["site"], "--receipt", str(forged)).returncode == 1
    forged.write_text(json.dumps(own))
    result = run_verify(played["site"], "--receipt", str(forged))
    assert result.returncode == 1
    assert "which the site does not publish (/.well-known/yukon-daily-keys.json)" in result.stderr
    # not a receipt at all: nothing to check
    forged.write_text(json.dumps({"game_id": quick}))
    result = run_verify(played["site"], "--receipt", str(forged))
    assert result.returncode == 2
    assert result.stderr.startswith("CANNOT CHECK receipt: receipt 1 is not a receipt")


@pytest.mark.django_db(transaction=True)
def test_a_day_without_its_close_record_cannot_be_checked_yet(played: dict[str, Any]) -> None:
    CloseRecord.objects.all().delete()
    Game.objects.filter(pk=played["ids"]["twin"]).update(verification="pending")
    result = check_receipt(played, "quick")
    assert result.returncode == 2
    assert result.stderr.startswith(
        f"CANNOT CHECK receipt: game {played['ids']['quick']} ({played['day']} easy): "
        f"GET /api/daily/{played['day']}/close/: HTTP 404: there is no close record of "
    )


# ----- the checker as one file (games/checker.py) ----------------------------------------

# A Python of the same version with nothing installed: no Django, no cryptography and not
# this project (-S: no site-packages; -I: not the working directory, no PYTHONPATH).
BARE_PYTHON = [
    str(Path(sys.base_prefix) / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}"),
    "-I",
    "-S",
]


def run_checker(python: list[str], pyz: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*python, str(pyz), *args],
        cwd=pyz.parent,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.django_db(transaction=True)
def test_the_downloaded_checker_runs_on_a_bare_python(played: dict[str, Any]) -> None:
    day, site, ids = played["day"], played["site"], played["ids"]
    page = Client().get("/fair-play/")
    assert f'href="/fair-play/{checker.FILENAME}"' in page.content.decode()
    assert checker.sha256() in page.content.decode()  # the page names the file's digest
    response: Any = Client().get(f"/fair-play/{checker.FILENAME}")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == f'attachment; filename="{checker.FILENAME}"'
    assert hashlib.sha256(response.content).hexdigest() == checker.sha256()
    again = Client().get(f"/fair-play/{checker.FILENAME}", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    pyz = played["tmp"] / checker.FILENAME
    pyz.write_bytes(response.content)

    result = run_checker(BARE_PYTHON, pyz, "--site", site, day.isoformat(), "easy")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"OK {day} easy: deal 0 and salt ")
    assert "4 ranked games (3 won)" in result.stdout
    Game.objects.filter(pk=ids["quick"]).update(score=620)  # the site lies: the file says so
    result = run_checker(BARE_PYTHON, pyz, "--site", site, day.isoformat(), "easy")
    assert result.returncode == 1
    assert f"game {ids['quick']} (Quick): published score 620, its log replays to 625" in (
        result.stderr
    )
    Game.objects.filter(pk=ids["quick"]).update(score=625)

    # Signatures need cryptography: without it, one line saying so; with it, the receipt holds.
    receipt = str(played["files"]["quick"])
    result = run_checker(BARE_PYTHON, pyz, "--site", site, "--receipt", receipt)
    assert (result.returncode, result.stderr) == (
        2,
        "CANNOT CHECK receipt: checking signatures needs the cryptography package: "
        "pip install cryptography\n",
    )
    result = run_checker([sys.executable, "-I"], pyz, "--site", site, "--receipt", receipt)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"OK {day} easy game {ids['quick']} (Quick): the receipt is ")


def test_the_checker_is_the_same_bytes_each_time_and_holds_only_its_sources() -> None:
    first = checker.archive()
    checker.archive.cache_clear()
    assert checker.archive() == first
    assert first.startswith(b"#!/usr/bin/env python3\n")
    with zipfile.ZipFile(io.BytesIO(first)) as zipped:
        names = zipped.namelist()
    assert names == sorted(names)
    assert {"__main__.py", "games/verify_day.py", "games/receipts.py", "games/commitment.py"} < set(
        names
    )
    assert "yukon/engine/replay.py" in names
    assert not [name for name in names if not name.endswith(".py")]  # source only
    assert not [name for name in names if name.startswith(("yukon/solver", "games/models"))]
