"""verify_game: replays the stored log, rejects tampering, is idempotent, announces results."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from games import services, tasks
from games.models import Game, Move, utc_today
from games.signals import game_verified
from tests.factories import Api, make_challenges, winning_lines

pytestmark = pytest.mark.django_db


def finished_game(api: Api, number: int = 0, moves: int | None = None) -> int:
    """A game played through the API and ended, its verification not run yet."""
    line = winning_lines()[number]
    _, game = api.post("/api/games/", {"deal": number})
    for ply, text in enumerate(line[:moves]):
        status, _ = api.post(f"/api/games/{game['id']}/moves/", {"ply": ply, "move": text})
        assert status == 200
    if moves is not None:
        api.post(f"/api/games/{game['id']}/resign/")
    stored = Game.objects.get(pk=game["id"])
    assert stored.status != "playing" and stored.verification == "pending"
    return stored.pk


@pytest.fixture
def received() -> Any:
    calls: list[Game] = []

    def listener(sender: Any, game: Game, **kwargs: Any) -> None:
        calls.append(game)

    game_verified.connect(listener)
    yield calls
    game_verified.disconnect(listener)


def test_a_won_game_is_verified_and_announced_on_commit(
    api: Api, received: list[Game], django_capture_on_commit_callbacks: Any
) -> None:
    game_id = finished_game(api)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.verify_game.delay(game_id).get() == "verified"
    game = Game.objects.get(pk=game_id)
    assert game.verification == "verified" and game.verified_at is not None
    assert [g.pk for g in received] == [game_id]
    # Idempotent: again, nothing changes and nothing is announced twice.
    with django_capture_on_commit_callbacks(execute=True):
        assert services.verify_game(game_id) == "already verified"
    assert len(received) == 1


def test_a_missing_game_is_quietly_ignored() -> None:
    assert services.verify_game(987654) == "gone"


def test_a_game_in_progress_is_not_verified(api: Api) -> None:
    _, game = api.post("/api/games/", {"deal": 0})
    assert services.verify_game(game["id"]) == "still playing"
    assert Game.objects.get(pk=game["id"]).verification == "pending"


def tamper(game_id: int, ply: int, **changes: Any) -> None:
    Move.objects.filter(game_id=game_id, ply=ply).update(**changes)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda gid: tamper(gid, 4, text="Jh>F"), "ply 4"),
        (lambda gid: tamper(gid, 3, turned="Kd"), "ply 3: the log says Kd turned"),
        (lambda gid: tamper(gid, 7, at_ms=-5), "time goes backwards"),
        (lambda gid: Move.objects.filter(game_id=gid, ply=10).delete(), "gap"),
        (lambda gid: Game.objects.filter(pk=gid).update(score=625), "score"),
        (lambda gid: Game.objects.filter(pk=gid).update(status="won"), "replay is not won"),
        (lambda gid: Game.objects.filter(pk=gid).update(elapsed_ms=1), "time"),
        (
            lambda gid: Move.objects.create(game_id=gid, ply=20, text="undo", at_ms=10**9),
            "log entries",
        ),
    ],
)
def test_a_tampered_log_is_rejected_with_a_reason(
    api: Api,
    received: list[Game],
    change: Any,
    reason: str,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game_id = finished_game(api, moves=20)
    change(game_id)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.verify_game(game_id) == "rejected"
    game = Game.objects.get(pk=game_id)
    assert game.verification == "rejected"
    assert reason in game.rejection_reason, game.rejection_reason
    assert received == []


def test_editing_a_stored_move_text_rejects_a_won_game(api: Api) -> None:
    game_id = finished_game(api)
    tamper(game_id, 0, text="9c>7")
    assert services.verify_game(game_id) == "rejected"
    assert "ply 0" in Game.objects.get(pk=game_id).rejection_reason


def test_undo_in_a_ranked_log_is_rejected(api: Api) -> None:
    make_challenges(numbers={"easy": 0, "medium": 1, "hard": 2})
    _, game = api.post("/api/games/", {"daily": "easy"})
    api.post(f"/api/games/{game['id']}/moves/", {"ply": 0, "move": "8d>6"})
    api.post(f"/api/games/{game['id']}/resign/")
    Move.objects.filter(game_id=game["id"], ply=0).update(text="undo")
    assert services.verify_game(game["id"]) == "rejected"
    assert "undo in a ranked game" in Game.objects.get(pk=game["id"]).rejection_reason


def test_moves_are_append_only() -> None:
    move = Move(ply=0, text="8d>6", at_ms=0)
    move._state.adding = False
    with pytest.raises(ValueError, match="append-only"):
        move.save()


def make_stale(game_id: int) -> None:
    """Pretend the game finished an hour ago (its verify_game message lost)."""
    finished = timezone.now() - dt.timedelta(hours=1)
    Game.objects.filter(pk=game_id).update(
        finished_at=finished, started_at=finished - dt.timedelta(seconds=5), elapsed_ms=5000
    )


def test_the_sweeper_requeues_stale_pending_games_and_abandons_closed_dailies(
    api: Api, player: Any
) -> None:
    fresh = finished_game(api, moves=3)
    stale = finished_game(api, moves=4)
    make_stale(stale)
    old = make_challenges(date=utc_today() - dt.timedelta(days=1))
    left = Game.objects.create(
        player=player,
        deal=old["hard"].deal,
        challenge=old["hard"],
        mode="daily",
        position=old["hard"].deal.start_position().to_text(),
    )
    queued: list[int] = []
    result = services.sweep_games(pending_after=dt.timedelta(minutes=5), queue=queued.append)
    assert queued == [stale]
    assert result == {"abandoned": 1, "requeued": 1}
    left.refresh_from_db()
    assert left.status == "abandoned" and left.finished_at is not None
    assert Game.objects.get(pk=fresh).verification == "pending"


def test_the_sweeper_task_runs_eagerly_and_verifies(api: Api) -> None:
    stale = finished_game(api, moves=4)
    make_stale(stale)
    Move.objects.filter(game_id=stale).update(at_ms=10)
    assert tasks.sweep_unverified_games.delay().get() == {"abandoned": 0, "requeued": 1}
    assert Game.objects.get(pk=stale).verification == "verified"


def test_beat_schedules_the_sweeper() -> None:
    from django.conf import settings

    tasks_scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "games.sweep_unverified_games" in tasks_scheduled
    assert tasks.verify_game.name == "games.verify_game"
    assert tasks.verify_game.acks_late is True
