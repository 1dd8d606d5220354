"""Receipts and close records (docs/fair-play.md, section 5), through the API.

The answer that ends a daily game carries a receipt signed with the site's key (published
at /.well-known/yukon-daily-keys.json); only the player can fetch it again, and it names
nothing secret. Once a closed day's games are all verified the site signs a close record
of its games files, chained to the day before. The formats are pinned here: a change
breaks every receipt and record already given out. tests/games/test_receipts_verify.py
holds ``verify_day --receipt`` to a dishonest server.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import receipts, services
from games.models import DailyChallenge, Game, Move, Receipt, Status, utc_today
from leaderboards.models import CloseRecord
from leaderboards.tasks import seal_closed_days
from tests.factories import SECRET_DAILY_NUMBERS, Api, make_challenges, make_user, winning_lines
from tests.games.test_commitment import Clock
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture)

LINES = winning_lines()
KEYS_URL = "/.well-known/yukon-daily-keys.json"
CARD = re.compile(r"(?<![0-9A-Za-z])[A2-9TJQK][cdhs](?![0-9A-Za-z])")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    fake = Clock(dt.datetime.combine(utc_today(), dt.time(9), tzinfo=dt.UTC))
    monkeypatch.setattr(timezone, "now", fake)
    yield fake


@pytest.fixture
def day0(db: None, clock: Clock) -> dict[str, DailyChallenge]:
    """Today's challenges, the easy one dealt from deal 0 (its winning line is known)."""
    return make_challenges(numbers={**SECRET_DAILY_NUMBERS, "easy": 0})


def play(api: Api, clock: Clock, tier: str, moves: list[str]) -> tuple[int, list[Any]]:
    status, game = api.post("/api/games/", {"daily": tier})
    assert status == 201, game
    Game.objects.filter(pk=game["id"]).update(started_at=clock.now)
    answers = []
    for ply, text in enumerate(moves):
        clock.now += dt.timedelta(seconds=1)
        status, answer = api.post(f"/api/games/{game['id']}/moves/", {"ply": ply, "move": text})
        assert status == 200, answer
        answers.append(answer)
    return int(game["id"]), answers


def published_keys(api: Api) -> dict[str, bytes]:
    status, keys = api.get(KEYS_URL)
    assert status == 200, keys
    return receipts.check_keys(keys)


def stored_log(game_id: int) -> list[dict[str, Any]]:
    return [
        receipts.log_entry(m.ply, m.text, m.turned, m.at_ms)
        for m in Move.objects.filter(game_id=game_id).order_by("ply")
    ]


# ----- the formats (pure) --------------------------------------------------------------

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
KEY_ID = receipts.key_id(receipts.public_bytes(KEY))
PINNED_KEY_ID = "ed25519:56475aa75463474c"
PINNED_SIGNATURE = (
    "XaOJdt0HXIkHfOXC+WxUxUjrwVzTZ78CyZgyPzboaoJ+nCNELVLjYwYlAnkNvGcR36+/tjQU+3KN5KLd1jIKCA=="
)
LOG = [
    {"ply": 0, "move": "8d>6", "turned": "Qh", "at_ms": 1200},
    {"ply": 1, "move": "Ac>F", "turned": None, "at_ms": 2500},
]


def test_the_signed_bytes_and_digests_are_pinned() -> None:
    # A change here breaks every receipt and close record given out: it needs a new format.
    assert KEY_ID == PINNED_KEY_ID
    assert (
        receipts.log_sha256(LOG)
        == hashlib.sha256(
            b'{"at_ms":1200,"move":"8d>6","ply":0,"turned":"Qh"}\n'
            b'{"at_ms":2500,"move":"Ac>F","ply":1,"turned":null}\n'
        ).hexdigest()
    )
    document = receipts.receipt(
        date="2026-12-01",
        tier="easy",
        game_id=7,
        player="Zoë",
        status="won",
        score=625,
        moves=2,
        elapsed_ms=2500,
        log=LOG,
        signer=KEY_ID,
    )
    assert (
        receipts.canonical(document)
        == (
            '{"date":"2026-12-01","elapsed_ms":2500,"format":"yukon-daily-receipt-v1",'
            f'"game_id":7,"key_id":"{KEY_ID}","log_sha256":"{receipts.log_sha256(LOG)}",'
            '"moves":2,"player":"Zo\\u00eb","score":625,"status":"won","tier":"easy"}'
        ).encode()
    )
    signed = receipts.sign(document, KEY)
    assert signed["signature"] == PINNED_SIGNATURE  # Ed25519 signs deterministically
    public = receipts.public_bytes(KEY)
    assert receipts.signature_holds(signed, public)
    assert receipts.check_receipt(signed) == signed
    for change in ({"score": 620}, {"elapsed_ms": 2400}, {"player": "Zoe"}, {"game_id": 8}):
        assert not receipts.signature_holds({**signed, **change}, public)
    other = Ed25519PrivateKey.generate()
    assert not receipts.signature_holds(signed, receipts.public_bytes(other))
    with pytest.raises(ValueError, match="does not name the key"):
        receipts.sign(document, other)


def test_the_games_digest_leaves_out_the_names_only() -> None:
    header = {"format": "yukon-daily-games-v1", "games": 1}
    game = {"rank": 1, "game_id": 3, "player": "Ann", "score": 625, "log": LOG}
    end = {"end": True, "games": 1}
    digest = receipts.games_sha256([header, game, end])
    assert digest == receipts.games_sha256([header, {**game, "player": "Renamed"}, end])
    assert digest != receipts.games_sha256([header, {**game, "score": 620}, end])
    nameless = {**game, "player": None}
    assert (
        digest
        == hashlib.sha256(
            b"".join(receipts.file_line(line) for line in (header, nameless, end))
        ).hexdigest()
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"score": True}, "score True is not a int"),
        ({"status": "playing"}, "not a finished game's"),
        ({"date": "2026-12-1"}, "is not a date"),
        ({"log_sha256": "AB" * 32}, "log_sha256 is not a SHA-256"),
        ({"extra": 1}, "unexpected extra"),
        ({"format": "yukon-daily-receipt-v2"}, "is not yukon-daily-receipt-v1"),
    ],
)
def test_a_receipt_not_as_documented_is_refused(change: dict[str, Any], message: str) -> None:
    document = receipts.sign(
        receipts.receipt(
            date="2026-12-01",
            tier="easy",
            game_id=7,
            player="Ann",
            status="won",
            score=625,
            moves=2,
            elapsed_ms=2500,
            log=LOG,
            signer=KEY_ID,
        ),
        KEY,
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        receipts.check_receipt({**document, **change})


# ----- the receipt on the answer that ends the game ------------------------------------


@pytest.mark.slow
def test_the_winning_move_answers_with_a_receipt_the_site_signed(
    api: Api, player: User, day0: Any, clock: Clock
) -> None:
    game_id, answers = play(api, clock, "easy", LINES[0])
    assert [answer["receipt"] for answer in answers[:-1]] == [None] * (len(answers) - 1)
    receipt = answers[-1]["receipt"]
    game = Game.objects.get(pk=game_id)
    assert receipt == {
        "format": "yukon-daily-receipt-v1",
        "date": utc_today().isoformat(),
        "tier": "easy",
        "game_id": game_id,
        "player": player.display_name,
        "status": "won",
        "score": 625,
        "moves": game.moves,
        "elapsed_ms": game.elapsed_ms,
        "log_sha256": receipts.log_sha256(stored_log(game_id)),
        "key_id": receipt["key_id"],
        "signature": receipt["signature"],
    }
    keys = published_keys(api)
    assert receipts.signature_holds(receipt, keys[receipt["key_id"]])
    assert not receipts.signature_holds({**receipt, "elapsed_ms": 1}, keys[receipt["key_id"]])
    # kept as issued: fetched again, the same document
    assert api.get(f"/api/games/{game_id}/receipt/") == (200, receipt)


def test_the_resign_answer_carries_a_receipt_that_names_nothing_secret(
    api: Api, day0: dict[str, DailyChallenge], clock: Clock
) -> None:
    game_id, _ = play(api, clock, "easy", LINES[0][:5])
    clock.now += dt.timedelta(seconds=3)
    status, answer = api.post(f"/api/games/{game_id}/resign/")
    assert status == 200, answer
    receipt = answer["receipt"]
    assert receipt["status"] == "resigned" and receipt["elapsed_ms"] == 8000
    assert set(receipt) == {*receipts.RECEIPT_FIELDS, "signature"}
    assert answer["deal"] is None and answer["salt"] is None  # the day is still open
    readable = json.dumps(
        {k: v for k, v in receipt.items() if k not in ("signature", "log_sha256", "key_id")}
    )
    for challenge in day0.values():  # (easy's deal 0 is too short to search for)
        if challenge.deal.number in SECRET_DAILY_NUMBERS.values():
            assert str(challenge.deal.number) not in json.dumps(receipt)
        assert challenge.salt not in json.dumps(receipt)
    assert not CARD.search(readable), readable  # no card at all, face down or up
    keys = published_keys(api)
    assert receipts.signature_holds(receipt, keys[receipt["key_id"]])


def test_only_the_player_gets_the_receipt(
    api: Api, other_api: Api, guest_api: Api, day0: Any, clock: Clock
) -> None:
    game_id, _ = play(api, clock, "easy", LINES[0][:3])
    assert api.get(f"/api/games/{game_id}/receipt/") == (
        409,
        {"detail": "the receipt is issued when the game is over", "status": "playing"},
    )
    api.post(f"/api/games/{game_id}/resign/")
    assert api.get(f"/api/games/{game_id}/receipt/")[0] == 200
    for stranger in (other_api, guest_api):
        assert stranger.get(f"/api/games/{game_id}/receipt/") == (404, {"detail": "no such game"})
    assert api.get("/api/games/99999999/receipt/") == (404, {"detail": "no such game"})
    _, practice = api.post("/api/games/", {"deal": 12345})
    status, body = api.get(f"/api/games/{practice['id']}/receipt/")
    assert status == 404 and "only a daily game gets a receipt" in body["detail"]


@pytest.mark.slow
def test_the_player_downloads_every_receipt_as_json_lines(
    api: Api, player: User, guest_api: Api, day0: Any, clock: Clock
) -> None:
    _, answers = play(api, clock, "easy", LINES[0])
    resigned, _ = play(api, clock, "medium", [])
    _, resign_answer = api.post(f"/api/games/{resigned}/resign/")
    play(api, clock, "hard", [])  # still in play: no receipt yet
    response: Any = api.client.get("/api/auth/receipts/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    assert "attachment" in response["Content-Disposition"]
    lines = [json.loads(line) for line in response.content.decode().splitlines()]
    assert lines == [answers[-1]["receipt"], resign_answer["receipt"]]
    assert guest_api.get("/api/auth/receipts/")[0] == 403
    # the player page links to the download for its owner only
    page = api.client.get(f"/players/{player.display_name}/").content.decode()
    assert 'href="/api/auth/receipts/"' in page
    stranger_page = Client().get(f"/players/{player.display_name}/").content.decode()
    assert 'href="/api/auth/receipts/"' not in stranger_page


def test_a_new_key_signs_new_receipts_and_old_ones_keep_checking(
    api: Api, day0: Any, clock: Clock, settings: Any
) -> None:
    first, answers = play(api, clock, "easy", LINES[0])
    old = answers[-1]["receipt"]
    old_public = published_keys(api)[old["key_id"]]
    new_key = Ed25519PrivateKey.generate()
    settings.RECEIPT_SIGNING_KEY = base64.b64encode(new_key.private_bytes_raw()).decode()
    settings.RECEIPT_RETIRED_KEYS = [receipts.encode_key(old_public)]

    assert api.get(f"/api/games/{first}/receipt/") == (200, old)  # kept as issued
    resigned, _ = play(api, clock, "medium", [])
    _, answer = api.post(f"/api/games/{resigned}/resign/")
    new_id = receipts.key_id(receipts.public_bytes(new_key))
    assert answer["receipt"]["key_id"] == new_id != old["key_id"]

    status, keys = api.get(KEYS_URL)
    assert status == 200
    today = utc_today().isoformat()
    assert keys == {
        "format": "yukon-daily-keys-v1",
        "keys": [
            {
                "key_id": new_id,
                "algorithm": "ed25519",
                "public_key": receipts.encode_key(receipts.public_bytes(new_key)),
                "current": True,
                "first_date": today,
                "last_date": today,
            },
            {
                "key_id": old["key_id"],
                "algorithm": "ed25519",
                "public_key": receipts.encode_key(old_public),
                "current": False,
                "first_date": today,
                "last_date": today,
            },
        ],
    }
    published = receipts.check_keys(keys)
    assert receipts.signature_holds(old, published[old["key_id"]])
    assert receipts.signature_holds(answer["receipt"], published[new_id])


# ----- the close record ----------------------------------------------------------------


def games_file(client: Client, day: dt.date, tier: str = "easy") -> bytes:
    response: Any = client.get(f"/api/daily/{day.isoformat()}/{tier}/games.jsonl")
    assert response.status_code == 200
    return b"".join(response.streaming_content)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_close_record_signs_the_days_files_once_every_game_is_verified(
    api: Api, player: User, guest_api: Api, day0: dict[str, DailyChallenge], clock: Clock
) -> None:
    day = utc_today()
    won, _ = play(api, clock, "easy", LINES[0])
    status, body = guest_api.get(f"/api/daily/{day.isoformat()}/close/")
    assert status == 404
    assert body["detail"] == (
        f"there is no close record of {day.isoformat()} yet: it is signed after the day "
        f"closes at {(day + dt.timedelta(days=1)).isoformat()}T00:00:00Z"
    )
    other, _ = play(Api(logged_in_as("bob")), clock, "easy", LINES[0][:4])  # left in play
    clock.now = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0, 1), tzinfo=dt.UTC)
    Game.objects.filter(pk=won).update(verification="pending")  # its replay not done yet
    status, body = guest_api.get(f"/api/daily/{day.isoformat()}/close/")
    assert status == 404 and "once every game of the day" in body["detail"], body
    assert Game.objects.get(pk=other).status == Status.ABANDONED  # ended by the reader
    Game.objects.filter(pk=won).update(verification="verified")

    status, record = guest_api.get(f"/api/daily/{day.isoformat()}/close/")
    assert status == 200, record
    assert receipts.check_close_record(record) == record
    assert record["previous"] is None  # the first day of the chain
    assert sorted(record["tiers"]) == ["easy", "hard", "medium"]
    keys = published_keys(guest_api)
    assert receipts.signature_holds(record, keys[record["key_id"]])
    # the record holds the file as served, which is fixed from now on, names aside
    served = games_file(guest_api.client, day)
    lines = [json.loads(line) for line in served.splitlines()]
    assert record["tiers"]["easy"] == {
        "games_sha256": receipts.games_sha256(lines),
        "ranked": 2,
        "left_out": [],
    }
    assert games_file(guest_api.client, day) == served
    player.display_name = "Renamed"
    player.save(update_fields=["display_name"])
    renamed = games_file(guest_api.client, day)
    assert renamed != served
    assert (
        receipts.games_sha256(json.loads(line) for line in renamed.splitlines())
        == (record["tiers"]["easy"]["games_sha256"])
    )
    assert guest_api.get(f"/api/daily/{day.isoformat()}/close/") == (200, record)
    assert CloseRecord.objects.count() == 1


def logged_in_as(name: str) -> Client:
    client = Client()
    client.force_login(make_user(name))
    return client


@pytest.mark.django_db(transaction=True)
def test_each_closed_day_is_chained_to_the_one_before_and_lists_what_it_left_out(
    api: Api, guest_api: Api, day0: dict[str, DailyChallenge], clock: Clock
) -> None:
    first = utc_today()
    won, answers = play(api, clock, "easy", LINES[0])
    removed = answers[-1]["receipt"]
    Game.objects.filter(pk=won).update(disqualified=True)  # a moderator's decision
    make_challenges(first + dt.timedelta(days=1))
    clock.now = dt.datetime.combine(first + dt.timedelta(days=2), dt.time(0, 1), tzinfo=dt.UTC)
    # the beat's task seals every closed day, oldest first; running it again changes nothing
    assert seal_closed_days.apply().get() == [
        first.isoformat(),
        (first + dt.timedelta(days=1)).isoformat(),
    ]
    assert seal_closed_days.apply().get() == []
    assert "seal-closed-days" in settings.CELERY_BEAT_SCHEDULE
    _, one = guest_api.get(f"/api/daily/{first.isoformat()}/close/")
    _, two = guest_api.get(f"/api/daily/{(first + dt.timedelta(days=1)).isoformat()}/close/")
    assert two["previous"] == {"date": first.isoformat(), "sha256": receipts.digest(one)}
    assert one["tiers"]["easy"]["ranked"] == 0
    assert one["tiers"]["easy"]["left_out"] == [receipts.digest(removed)]
    assert CloseRecord.objects.get(date=first).sha256 == receipts.digest(one)


@pytest.mark.django_db(transaction=True)
def test_a_game_verified_after_the_close_seals_its_day(
    api: Api, guest_api: Api, day0: Any, clock: Clock
) -> None:
    """The sweeper ends a game left in play; its verification (on commit) seals the day."""
    game_id, _ = play(api, clock, "easy", LINES[0][:4])
    clock.now = dt.datetime.combine(
        utc_today() + dt.timedelta(days=1), dt.time(0, 6), tzinfo=dt.UTC
    )
    assert not CloseRecord.objects.exists()
    services.sweep_games(pending_after=dt.timedelta(minutes=5), queue=lambda _: None)
    assert Game.objects.get(pk=game_id).status == Status.ABANDONED
    record = CloseRecord.objects.get()
    assert record.date == utc_today() - dt.timedelta(days=1)
    assert json.loads(record.document)["tiers"]["easy"]["ranked"] == 1
    # a game left in play got its receipt too (no answer ended it): on request
    assert Receipt.objects.filter(game_id=game_id).count() == 0
    status, receipt = api.get(f"/api/games/{game_id}/receipt/")
    assert status == 200 and receipt["status"] == "abandoned"


@pytest.mark.django_db(transaction=True)
def test_a_closed_day_replayed_in_the_archive_keeps_the_games_file_it_sealed(
    api: Api, guest_api: Api, day0: Any, clock: Clock
) -> None:
    """Archive games share the challenge but never its board: they must not change the
    file (its ``not_ranked`` counts) once the day is sealed."""
    day = utc_today()
    play(api, clock, "easy", LINES[0])
    clock.now = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0, 1), tzinfo=dt.UTC)
    status, record = guest_api.get(f"/api/daily/{day.isoformat()}/close/")
    assert status == 200, record
    sealed = games_file(guest_api.client, day)
    replaying = Api(logged_in_as("carol"))
    status, game = replaying.post(f"/api/archive/{day.isoformat()}/easy/")
    assert status == 201, game
    assert games_file(guest_api.client, day) == sealed  # an archive game in play
    replaying.post(f"/api/games/{game['id']}/resign/")
    assert games_file(guest_api.client, day) == sealed  # and finished
    lines = [json.loads(line) for line in sealed.splitlines()]
    assert receipts.games_sha256(lines) == record["tiers"]["easy"]["games_sha256"]


def test_the_worked_example_in_docs_fair_play_is_the_pinned_one() -> None:
    docs = (settings.BASE_DIR / "docs" / "fair-play.md").read_text()
    assert PINNED_KEY_ID in docs and PINNED_SIGNATURE in docs
    assert receipts.encode_key(receipts.public_bytes(KEY)) in docs
    [snippet] = [
        block.split("```", 1)[0]
        for block in docs.split("```python\n")[1:]
        if "def log_sha256" in block
    ]
    namespace: dict[str, Any] = {}
    exec(snippet, namespace)  # the documentation's own example
    assert namespace["log_sha256"](LOG) == receipts.log_sha256(LOG)


def test_a_deleted_account_leaves_no_receipt_holding_its_name(
    api: Api, player: User, day0: Any, clock: Clock
) -> None:
    from accounts.services import delete_account

    game_id, answers = play(api, clock, "easy", LINES[0])
    assert answers[-1]["receipt"]["player"] == player.display_name
    delete_account(player)
    assert not Receipt.objects.filter(game_id=game_id).exists()
    reissued = services.issue_receipt(game_id)
    assert reissued is not None and reissued["player"] == "deleted player"
