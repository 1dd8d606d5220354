"""A sealed day's games file, written once by the sealing task and served as a stored file
(leaderboards/stored_files.py; docs/capacity.md, the games file wall): the same bytes as
the stream, gzip as stored, and never stale: whatever changes a sealed day's file after
the seal (a disqualification, a rename, a deletion) drops the copy, and a copy that cannot
be read gives way to the stream.
"""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.http import FileResponse
from django.test import Client

from accounts import services as account_services
from games import receipts
from games import services as game_services
from games.models import DailyChallenge, Game, utc_today
from leaderboards.games_file import accepts_gzip
from leaderboards.models import CloseRecord, GamesFile
from leaderboards.tasks import seal_closed_days
from tests.factories import make_challenges, make_player, result

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = str(tmp_path)
    return tmp_path


@pytest.fixture
def day() -> dt.date:
    return utc_today() - dt.timedelta(days=1)


@pytest.fixture
def easy(day: dt.date) -> DailyChallenge:
    """Yesterday (closed), Ann's win and Bob's loss on the easy board: final, not sealed."""
    challenge = make_challenges(day)["easy"]
    noon = dt.datetime.combine(day, dt.time(12), tzinfo=dt.UTC)
    result(make_player("Ann"), challenge, finished_at=noon)
    result(make_player("Bob"), challenge, won=False, score=300, finished_at=noon)
    return challenge


def url(day: dt.date) -> str:
    return f"/api/daily/{day.isoformat()}/easy/games.jsonl"


def body(response: Any) -> bytes:
    assert response.status_code == 200, response.content[:300]
    return b"".join(response.streaming_content)


def stored_files_of(challenge: DailyChallenge) -> bool:
    return GamesFile.objects.filter(challenge=challenge).exclude(name="").exists()


def served_plain(client: Client, day: dt.date) -> bytes:
    """The file as a reader gets it, inflated if it came gzip."""
    response = client.get(url(day), headers=GZIP)
    raw = body(response)
    return gzip.decompress(raw) if response.get("Content-Encoding") == "gzip" else raw


def test_a_sealed_days_file_is_stored_once_and_served_as_the_same_bytes(
    client: Client, day: dt.date, easy: DailyChallenge, media: Path
) -> None:
    streamed = client.get(url(day), headers=GZIP)
    assert "Content-Encoding" not in streamed  # not sealed yet: the stream, as before
    streamed_bytes = body(streamed)
    assert not GamesFile.objects.exists()

    assert seal_closed_days.apply().get() == [day.isoformat()]  # the worker writes it
    copy = GamesFile.objects.get(challenge=easy)
    assert (media / copy.name).stat().st_size == copy.size
    assert (copy.games, copy.length) == (2, len(streamed_bytes))
    assert copy.sha256 == hashlib.sha256(streamed_bytes).hexdigest()

    response = client.get(url(day), headers=GZIP)
    assert isinstance(response, FileResponse)  # gunicorn sends it with sendfile
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    assert response["ETag"] == f'"{copy.sha256}-gzip"'
    assert int(response["Content-Length"]) == copy.size
    for header in ("Content-Type", "Content-Disposition", "Cache-Control"):
        assert response[header] == streamed[header]
    assert gzip.decompress(body(response)) == streamed_bytes

    plain = client.get(url(day), headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in plain and plain["ETag"] == f'"{copy.sha256}"'
    assert body(plain) == streamed_bytes
    assert client.get(url(day), headers={"If-None-Match": plain["ETag"]}).status_code == 304

    # the close record's games digest checks against the stored file
    record = json.loads(CloseRecord.objects.get(date=day).document)
    lines = [
        json.loads(line) for line in gzip.decompress((media / copy.name).read_bytes()).splitlines()
    ]
    assert receipts.games_sha256(lines) == record["tiers"]["easy"]["games_sha256"]

    # an operator deletes the file: readers get the stream (not a 500) until it is rewritten
    (media / copy.name).unlink()
    assert "Content-Encoding" not in (fallback := client.get(url(day), headers=GZIP))
    assert body(fallback) == streamed_bytes
    out = io.StringIO()
    call_command("write_games_files", "--since", day.isoformat(), stdout=out)
    assert f"{day.isoformat()} easy: 2 games" in out.getvalue()
    assert (media / GamesFile.objects.get(challenge=easy).name).exists()
    assert served_plain(client, day) == streamed_bytes
    with pytest.raises(CommandError, match="is not a date"):
        call_command("write_games_files", "--since", "yesterday")


def test_a_game_disqualified_after_the_seal_is_not_in_the_file_served_next(
    client: Client,
    day: dt.date,
    easy: DailyChallenge,
    media: Path,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    seal_closed_days.apply().get()
    sealed = GamesFile.objects.get(challenge=easy)
    assert b'"player":"Ann"' in served_plain(client, day)
    ann_game = Game.objects.get(player__display_name="Ann")

    with django_capture_on_commit_callbacks(execute=True):
        game_services.disqualify_games([ann_game.pk])  # a moderator, after the seal
    after = client.get(url(day), headers=GZIP)
    assert "Content-Encoding" not in after  # the copy is gone: the live stream
    live = body(after)
    assert b'"player":"Ann"' not in live and b'"player":"Bob"' in live
    assert not (media / sealed.name).exists()

    seal_closed_days.apply().get()  # the beat writes the copy again, without her game
    assert GamesFile.objects.get(challenge=easy).games == 1
    assert served_plain(client, day) == live


def test_a_renamed_or_deleted_player_is_never_served_under_the_old_name(
    client: Client,
    day: dt.date,
    easy: DailyChallenge,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    seal_closed_days.apply().get()
    bob = Game.objects.get(player__display_name="Bob").player
    assert bob is not None
    with django_capture_on_commit_callbacks(execute=True):
        bob.last_login = dt.datetime.now(dt.UTC)
        bob.save(update_fields=["last_login"])  # nothing in the file: the copy stays
    assert stored_files_of(easy)

    with django_capture_on_commit_callbacks(execute=True):
        account_services.change_display_name(bob, "Robert")
    assert not stored_files_of(easy)
    assert b'"player":"Robert"' in served_plain(client, day)
    seal_closed_days.apply().get()
    with django_capture_on_commit_callbacks(execute=True):
        account_services.delete_account(bob)
    served = served_plain(client, day)
    assert b'"player":"deleted player"' in served and b"Robert" not in served


@pytest.mark.parametrize(
    ("header", "takes"),
    [
        ("gzip", True),
        ("gzip, deflate, br", True),
        ("br;q=1.0, GZIP;q=0.5", True),
        ("*", True),
        ("", False),
        ("identity", False),
        ("gzip;q=0", False),
        ("gzip;q=0, *", False),
        ("deflate, *;q=0", False),
        ("gzip;q=nonsense", False),
    ],
)
def test_gzip_is_sent_only_to_clients_that_take_it(header: str, takes: bool) -> None:
    assert accepts_gzip(header) is takes
