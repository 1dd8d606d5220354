"""Verification and sweeps: a finished game's log replayed from the deal, once.

``verify_game`` runs in a Celery task after the game ends; on success the log is packed
into the game's row (``move_log``) and ``game_verified`` is sent after commit (the
leaderboards, moderation and analysis listen). The sweeper re-queues what a lost task
message left pending and ends dailies left in play after their day closed.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import OPEN_DAY_MODES, Game, Mode, Status, Verification
from games.services.closing import abandon_closed_games
from games.services.common import ms_between
from games.services.move_log import log_entries, pack_verified_log
from games.services.provisional import is_new_account
from games.signals import game_verified, result_counting
from yukon.engine import DEAL_ALGORITHM_VERSION, UNDO, LogError, Position, card_text, replay_log

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Replayed:
    """What the log says, recomputed from the deal."""

    position: Position
    moves: int
    last_at_ms: int


class LogRejected(Exception):
    """The stored log does not hold up; the message says why."""


def replay_game_log(game: Game, log: Sequence[tuple[int, str, str, int]]) -> Replayed:
    """Replay ``(ply, text, turned, at_ms)`` entries from the deal; raise LogRejected.

    Each entry's ply and time are checked before the engine plays it, so the first
    fault in log order is the one reported.
    """
    deal = game.deal
    if deal.algorithm_version != DEAL_ALGORITHM_VERSION:
        raise LogRejected(f"deal algorithm version {deal.algorithm_version} is not supported")
    position = game.start_position()
    steps = replay_log(position, (text for _, text, _, _ in log))
    standing = 0
    last_at_ms = 0
    for expected_ply, (ply, text, turned, at_ms) in enumerate(log):
        if ply != expected_ply:
            raise LogRejected(f"the log has a gap: ply {expected_ply} is missing")
        if at_ms < last_at_ms:
            raise LogRejected(f"ply {ply}: time goes backwards ({at_ms} ms < {last_at_ms} ms)")
        last_at_ms = at_ms
        if text == UNDO and game.mode != Mode.PRACTICE:
            raise LogRejected(f"ply {ply}: undo in a ranked game")
        try:
            step = next(steps)
        except LogError as exc:
            if exc.nothing_to_undo:
                raise LogRejected(f"ply {ply}: undo with no move to take back") from exc
            raise LogRejected(f"ply {ply}: {text!r} is not legal: {exc.reason}") from exc
        standing = len(step.standing)
        if step.is_undo:
            continue
        shown = card_text(step.turned) if step.turned is not None else ""
        if shown != turned:
            raise LogRejected(
                f"ply {ply}: the log says {turned or 'nothing'} turned, not {shown or 'nothing'}"
            )
    if len(log) != game.ply:
        raise LogRejected(f"the game says {game.ply} log entries, the log has {len(log)}")
    return Replayed(position, standing, last_at_ms)


def _check_result(game: Game, replayed: Replayed) -> None:
    position = replayed.position
    if position.to_text() != game.position:
        raise LogRejected("the replayed position differs from the stored one")
    if position.score != game.score:
        raise LogRejected(f"stored score {game.score}, replayed score {position.score}")
    if replayed.moves != game.moves:
        raise LogRejected(f"stored {game.moves} moves, replayed {replayed.moves}")
    won = position.is_won()
    if (game.status == Status.WON) != won:
        raise LogRejected(f"status {game.status}, but the replay is {'won' if won else 'not won'}")
    if game.status == Status.STUCK and not position.is_stuck():
        raise LogRejected("status stuck, but the replayed position still has a legal move")
    if game.finished_at is None or game.elapsed_ms is None:
        raise LogRejected("a finished game without a finish time")
    if game.elapsed_ms != ms_between(game.started_at, game.finished_at):
        raise LogRejected("the stored time differs from start to finish")
    if game.elapsed_ms < replayed.last_at_ms:
        raise LogRejected("the game finished before its last move")
    if game.status in (Status.WON, Status.STUCK) and game.elapsed_ms != replayed.last_at_ms:
        raise LogRejected("the game did not end with its last move")
    closes_at = game.challenge.closes_at if game.challenge is not None else None
    if game.mode in OPEN_DAY_MODES and closes_at is not None and game.finished_at >= closes_at:
        raise LogRejected(
            f"the game finished after its day closed ({closes_at:%Y-%m-%d %H:%M} UTC)"
        )


def verify_game(game_id: int) -> str:
    """Replay a finished game's log and mark it verified or rejected; idempotent.

    Returns what happened (for the task's result and logs). On verification the
    ``game_verified`` signal is sent after commit, for the leaderboards.
    """
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(no_key=True, of=("self",))
            .select_related("deal", "challenge", "player")
            .filter(pk=game_id)
            .first()
        )
        if game is None:
            return "gone"
        if game.verification != Verification.PENDING:
            return f"already {game.verification}"
        if game.status == Status.PLAYING:
            return "still playing"
        log = log_entries(game)  # a re-run reads the packed form
        try:
            _check_result(game, replay_game_log(game, log))
        except LogRejected as exc:
            game.verification = Verification.REJECTED
            game.rejection_reason = str(exc)
            logger.warning("game %s rejected: %s", game.pk, exc)
        else:
            game.verification = Verification.VERIFIED
            game.rejection_reason = ""
            game.provisional = game.mode == Mode.DAILY and is_new_account(game)
            verified = game
            transaction.on_commit(
                lambda: game_verified.send(sender=Game, game=verified), robust=True
            )
        game.verified_at = timezone.now()
        game.save(update_fields=["verification", "rejection_reason", "verified_at", "provisional"])
        # Verified, the log is settled evidence: packed into the row, its Move rows gone.
        pack_verified_log(game, log)
        if game.mode == Mode.DAILY and game.verification == Verification.VERIFIED:
            result_counting.send(sender=Game, game=game)
        return str(game.verification)


def sweep_games(
    *, pending_after: dt.timedelta, queue: Callable[[int], Any], limit: int = 500
) -> dict[str, int]:
    """Re-queue finished games still pending after ``pending_after``; abandon stale dailies.

    A daily game still in play when its day closed is marked abandoned at its last move
    (and verified like any other finished game).
    """
    now = timezone.now()
    abandoned = abandon_closed_games(limit=limit)
    pending = list(
        Game.objects.filter(verification=Verification.PENDING, finished_at__lt=now - pending_after)
        .exclude(status=Status.PLAYING)
        .order_by("finished_at")
        .values_list("pk", flat=True)[:limit]
    )
    for game_id in pending:
        queue(game_id)
    return {"abandoned": abandoned, "requeued": len(pending)}
