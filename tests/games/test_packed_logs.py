"""Packed move logs (issue 45; docs/capacity.md, "Packed move logs").

The codec round-trips every log the engine writes, in every variant, and any text at all;
verification packs a verified game's log into its row and deletes its Move rows; every
reader gives the same answer from either form, and the games file, receipts and close
records come out byte for byte the same; the migration and the command pack older games,
and stop and resume.
"""

from __future__ import annotations

import datetime as dt
import importlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps as current_apps
from django.core.management import call_command
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.signals import personal_data
from analysis.services import standing_line
from games import packed_log, services
from games.api.serializers import ReplaySerializer
from games.models import DailyChallenge, Game, Move, Receipt, Status, Verification, utc_today
from games.packed_log import LogEntry, pack, unpack
from games.services.move_log import unpack_game_log
from games.services.personal_data import player_games
from leaderboards.models import CloseRecord
from leaderboards.sealing import record_document, seal_day
from moderation.admin_games import replay_frames
from moderation.flags import played_game
from moderation.origins import turned_cards
from tests.factories import (
    SECRET_DAILY_NUMBERS,
    Api,
    logged_in,
    make_challenges,
    make_player,
    winning_lines,
)
from tests.games.test_commitment import Clock
from yukon.engine import UNDO, VARIANT_NAMES, Position, card_text, get_variant
from yukon.engine.moves import MAX_MULTI_DECK_MOVE_TEXT

LINES = winning_lines()
pack_migration = importlib.import_module("games.migrations.0015_pack_verified_logs")


# ----- the codec (pure) ----------------------------------------------------------------


@st.composite
def engine_logs(draw: st.DrawFn) -> list[LogEntry]:
    """A log as the server writes one: random legal moves (and practice undos) of a random
    deal in any variant, with or without take-back, each with its turned card and time."""
    name = draw(st.sampled_from(VARIANT_NAMES))
    takeback = not get_variant(name).multi_deck and draw(st.booleans())
    variant = get_variant(name, foundation_takeback=takeback)
    position = Position.deal(draw(st.integers(0, 2**32)), variant)
    entries: list[LogEntry] = []
    at_ms = 0
    for ply in range(draw(st.integers(0, 60))):
        at_ms += draw(st.one_of(st.integers(0, 20_000), st.integers(0, 10**9)))
        legal = position.legal_moves()
        if position.can_undo and draw(st.integers(0, 9)) == 0:
            position.undo()
            entries.append(LogEntry(ply, UNDO, "", at_ms))
            continue
        if not legal:
            break
        move = legal[draw(st.integers(0, len(legal) - 1))]
        text = position.move_text(move)
        turned = position.play(move)
        entries.append(LogEntry(ply, text, "" if turned is None else card_text(turned), at_ms))
    return entries


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(engine_logs())
def test_every_log_the_engine_writes_round_trips_in_a_few_bytes_a_move(
    log: list[LogEntry],
) -> None:
    packed = pack(log)
    assert unpack(packed) == log
    # every entry codes as one symbol: none takes the literal path
    assert all(packed_log.text_token(e.text) != packed_log.LITERAL for e in log)
    if log and log[-1].at_ms <= 20_000 * len(log):
        assert len(packed) <= 2 + 7 * len(log)


def test_every_text_of_the_move_grammar_codes_to_one_token_and_back() -> None:
    """Each one-deck move, and each ``source:face[#copy]>dest`` of up to 16 columns (the
    longest, ``16:9h#2>16``, is MAX_MULTI_DECK_MOVE_TEXT long)."""
    faces = packed_log.FACES
    texts = [UNDO, *(f"{f}>{d}" for f in faces for d in [*range(1, 8), "F"])]
    texts += [
        f"{s}:{f}{c}>{d}"
        for s in range(1, 17)
        for f in faces
        for c in ["", "#1", "#2", "#3", "#4"]
        for d in [*range(1, 17), "F"]
    ]
    assert max(map(len, texts)) == MAX_MULTI_DECK_MOVE_TEXT
    tokens = [packed_log.text_token(text) for text in texts]
    assert packed_log.LITERAL not in tokens
    assert len(set(tokens)) == len(texts)
    assert [packed_log.token_text(token) for token in tokens] == texts


@given(
    st.lists(
        st.tuples(st.text(max_size=12), st.text(max_size=3), st.integers(0, 2**40)), max_size=8
    )
)
def test_any_text_round_trips_literally(raw: list[tuple[str, str, int]]) -> None:
    at_ms = 0
    log = []
    for ply, (text, turned, delta) in enumerate(raw):
        at_ms += delta
        log.append(LogEntry(ply, text, turned, at_ms))
    assert unpack(pack(log)) == log


@pytest.mark.parametrize(
    ("log", "message"),
    [
        ([(1, "Ah>F", "", 0)], "ply 0 expected, not 1"),
        ([(0, "Ah>F", "", 10), (1, "2h>F", "", 9)], "time goes backwards"),
    ],
)
def test_only_a_whole_log_in_order_packs(log: list[Any], message: str) -> None:
    with pytest.raises(packed_log.PackedLogError, match=message):
        pack(log)


@pytest.mark.parametrize("data", [b"", b"\x02\x00", b"\x01\x02\x8a", b"\x01\x00\x00"])
def test_bytes_that_are_not_a_packed_log_are_refused(data: bytes) -> None:
    with pytest.raises(packed_log.PackedLogError):
        unpack(data)


# ----- packing at verification, and every reader on both forms --------------------------


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    fake = Clock(dt.datetime.combine(utc_today(), dt.time(9), tzinfo=dt.UTC))
    monkeypatch.setattr(timezone, "now", fake)
    yield fake


def play_daily(client: Client, clock: Clock, moves: list[str]) -> int:
    api = Api(client)
    status, game = api.post("/api/games/", {"daily": "easy"})
    assert status == 201, game
    Game.objects.filter(pk=game["id"]).update(started_at=clock.now)
    for ply, text in enumerate(moves):
        clock.now += dt.timedelta(seconds=1 + ply % 5)
        status, answer = api.post(f"/api/games/{game['id']}/moves/", {"ply": ply, "move": text})
        assert status == 200, answer
    return int(game["id"])


def practice_with_undo(user: Any) -> int:
    """A practice game with an undo in its log, resigned: verified like any other."""
    actor = services.Actor(user_id=user.pk)
    game = services.start_practice_game(actor, 0)
    line = LINES[0]
    for ply, text in enumerate(line[:3]):
        services.play_move(actor, game.pk, ply, text)
    services.undo_move(actor, game.pk, 3)
    services.play_move(actor, game.pk, 4, line[2])
    services.resign_game(actor, game.pk)
    return game.pk


def every_reading(game_ids: list[int], day: dt.date, player: Any, staff: Client) -> Any:
    """What every reader of the log answers: the games file as served (its bytes), the
    close record and receipts as signed anew, the export, the replay, analysis,
    moderation's readers and the admin's log table."""
    games = list(Game.objects.filter(pk__in=game_ids).select_related("deal", "challenge"))
    Receipt.objects.all().delete()
    CloseRecord.objects.all().delete()
    record = seal_day(day)
    assert record is not None
    games_file: Any = Client().get(f"/api/daily/{day.isoformat()}/easy/games.jsonl")
    assert games_file.status_code == 200
    readings: dict[Any, Any] = {
        "close_record": record_document(record),
        "games_file": b"".join(games_file.streaming_content),
        "export": json.dumps(player_games(player), sort_keys=True, cls=DjangoJSONEncoder),
        "signal_export": [answer for _, answer in personal_data.send(sender=None, user=player)],
        "bulk": services.logs_of(game_ids),
    }
    for game in games:
        fresh = Game.objects.select_related("deal", "challenge").get(pk=game.pk)
        readings[game.pk] = {
            "entries": services.log_entries(fresh),
            "last_at_ms": services.last_move_at_ms(fresh),
            "receipt": services.issue_receipt(game.pk) if game.challenge_id else None,
            "replay": json.dumps(ReplaySerializer(fresh).data, cls=DjangoJSONEncoder),
            "standing": standing_line(fresh),
            "detector": played_game(fresh),
            "turned": turned_cards(fresh),
            "frames": replay_frames(fresh),
            "admin": staff.get(reverse("admin:games_game_change", args=[game.pk])).context[
                "log_rows"
            ],
        }
    return readings


@pytest.mark.slow
def test_verification_packs_the_log_and_every_reader_reads_both_forms_alike(
    db: None, clock: Clock
) -> None:
    make_challenges(numbers={**SECRET_DAILY_NUMBERS, "easy": 0})
    alice = make_player("alice")
    client = Client()
    client.force_login(alice)
    won = play_daily(client, clock, LINES[0])
    practice = practice_with_undo(alice)
    still_playing = services.start_practice_game(services.Actor(user_id=alice.pk), 1).pk
    services.play_move(services.Actor(user_id=alice.pk), still_playing, 0, LINES[1][0])
    ids = [won, practice]
    for game_id in ids:
        assert Game.objects.get(pk=game_id).packed_log is None
        assert services.verify_game(game_id) == "verified"
        game = Game.objects.get(pk=game_id)
        assert game.packed_log is not None
        assert not Move.objects.filter(game_id=game_id).exists()
        assert len(game.packed_log) <= 2 + 5 * game.ply  # a few bytes a move
    assert Game.objects.get(pk=still_playing).packed_log is None  # in play: rows
    assert Move.objects.filter(game_id=still_playing).count() == 1

    clock.now = dt.datetime.combine(utc_today() + dt.timedelta(days=1), dt.time(1), tzinfo=dt.UTC)
    staff = logged_in(make_player("Mod", staff=True, moderator=True))
    day = DailyChallenge.objects.get(games__pk=won).date
    packed = every_reading(ids, day, alice, staff)
    for game_id in ids:
        assert unpack_game_log(Game.objects.get(pk=game_id))
    assert Move.objects.filter(game_id__in=ids).count() == sum(
        Game.objects.filter(pk__in=ids).values_list("ply", flat=True)
    )
    in_rows = every_reading(ids, day, alice, staff)
    assert in_rows == packed
    assert len(packed[won]["entries"]) == len(LINES[0])
    assert LINES[0][-1] in packed["games_file"].decode()  # the file holds the log
    assert [e.text for e in packed[practice]["entries"]][3] == UNDO


@pytest.mark.slow
def test_a_rerun_of_verification_reads_the_packed_log(db: None, clock: Clock) -> None:
    alice = make_player("alice")
    game_id = practice_with_undo(alice)
    assert services.verify_game(game_id) == "verified"
    packed = Game.objects.get(pk=game_id).packed_log
    # a re-verification (a moderator's recheck sets the game pending again)
    Game.objects.filter(pk=game_id).update(verification=Verification.PENDING)
    assert services.verify_game(game_id) == "verified"
    assert bytes(Game.objects.get(pk=game_id).packed_log or b"") == bytes(packed or b"x")
    # a packed log tampered with is rejected like a tampered row
    entries = services.log_entries(Game.objects.get(pk=game_id))
    entries[1] = entries[1]._replace(turned="" if entries[1].turned else "Ah")
    Game.objects.filter(pk=game_id).update(
        packed_log=pack(entries), verification=Verification.PENDING
    )
    assert services.verify_game(game_id) == "rejected"


def test_a_rejected_game_keeps_its_rows(db: None) -> None:
    alice = make_player("alice")
    actor = services.Actor(user_id=alice.pk)
    game = services.start_practice_game(actor, 0)
    services.play_move(actor, game.pk, 0, LINES[0][0])
    services.resign_game(actor, game.pk)
    Move.objects.filter(game_id=game.pk).update(at_ms=10**9)  # after the finish
    assert services.verify_game(game.pk) == "rejected"
    assert Game.objects.get(pk=game.pk).packed_log is None
    assert Move.objects.filter(game_id=game.pk).count() == 1


# ----- the migration and the command ----------------------------------------------------


@pytest.mark.slow
def test_the_migration_and_the_command_pack_older_games_and_resume(db: None) -> None:
    alice = make_player("alice")
    ids = [practice_with_undo(alice) for _ in range(3)]
    for game_id in ids:
        services.verify_game(game_id)
        unpack_game_log(Game.objects.get(pk=game_id))  # as verified before packing existed
    logs = services.logs_of(ids)
    pending = practice_with_undo(alice)  # finished, not yet verified: left in rows
    # the command, stopped after one game (an interrupted run), then run again
    call_command("pack_move_logs", "--limit", "1", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert [Game.objects.get(pk=i).packed_log is not None for i in ids] == [True, False, False]
    pack_migration.pack_verified_logs(current_apps, connection.schema_editor())
    pack_migration.pack_verified_logs(current_apps, connection.schema_editor())  # re-run
    assert not Move.objects.filter(game_id__in=ids).exists()
    assert services.logs_of(ids) == logs
    assert Move.objects.filter(game_id=pending).exists()
    assert Game.objects.get(pk=pending).status == Status.RESIGNED
    # and back
    pack_migration.unpack_packed_logs(current_apps, connection.schema_editor())
    assert not Game.objects.filter(packed_log__isnull=False).exists()
    assert services.logs_of(ids) == logs
