"""A Celery worker SIGKILLed in the middle of verifying a game: when a worker comes back
the game is verified exactly once (acks_late; the message returns after the visibility
timeout; verify_game is idempotent through Game.verification)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest

from games import services
from games.models import Game, Verification
from tests.factories import make_challenges, make_user, winning_lines
from tests.workers import own_queue, start_worker, stop, worker_database_url

pytestmark = [
    pytest.mark.celery,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

FAST_RESTORE = {"CELERY_VISIBILITY_TIMEOUT": "3", "CELERY_RESTORE_INTERVAL": "1"}


def wait_for(condition: Callable[[], bool], seconds: float, logs: list[Path]) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail("timed out; logs:\n" + "\n".join(p.read_text() for p in logs if p.exists()))
        time.sleep(0.1)


def test_worker_killed_mid_verification_verifies_once(tmp_path: Path) -> None:
    make_challenges(numbers={"easy": 0, "medium": 1, "hard": 68})
    player = make_user("kim")
    actor = services.Actor(user_id=player.pk)
    game, _ = services.start_daily_game(actor, "easy")
    line = winning_lines()[0]
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    with own_queue() as queue:
        for ply, move in enumerate(line[:12]):
            services.play_move(actor, game.pk, ply, move)
        services.resign_game(actor, game.pk)  # queues verify_game on commit

        # Another session holds the game's row: the worker's verify_game waits on it, so
        # the worker is surely mid-task when it dies.
        with psycopg.connect(worker_database_url(), autocommit=False) as blocker:
            blocker.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE", [game.pk])
            first = start_worker(queue, logs[0], **FAST_RESTORE)
            try:
                wait_for(lambda: _waiting_on_lock(blocker), 60, logs)
                stop(first, kill=True)
                assert first.returncode == -9
            finally:
                stop(first, kill=True)
            blocker.rollback()
        game.refresh_from_db()
        assert game.verification == Verification.PENDING

        second = start_worker(queue, logs[1], **FAST_RESTORE)
        try:
            wait_for(lambda: "succeeded" in logs[1].read_text(), 60, logs)
            time.sleep(4)  # longer than the visibility timeout: a second delivery would show
        finally:
            stop(second)

    game = Game.objects.get(pk=game.pk)
    assert game.verification == Verification.VERIFIED, game.rejection_reason
    text = "\n".join(p.read_text() for p in logs)
    assert "succeeded" not in logs[0].read_text()
    assert text.count("games.verify_game[") >= 2  # received twice (before and after the kill)
    assert text.count("'verified'") == 1, text  # ... but verified exactly once


def _waiting_on_lock(blocker: psycopg.Connection) -> bool:
    with psycopg.connect(worker_database_url(), autocommit=True) as probe:
        row = probe.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND datname = current_database()"
        ).fetchone()
    return bool(row and row[0])
