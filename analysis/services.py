"""Post-game analysis: run the review of a finished game, store it, say who may read it.

A practice game is analysed as soon as it is verified (``game_verified``); a daily game
when its day has closed (the sweeper, on Celery beat), since its analysis shows the deal.
The solver runs outside any transaction; the result is written once, under a row lock, and
a second run of the same game is a no-op (idempotent through ``GameAnalysis.status``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from analysis.coach import cached_solve
from analysis.models import AnalysisStatus, GameAnalysis
from analysis.review import Review, review_line
from apikit import budgets
from apikit.errors import Forbidden, NotFound
from games.models import Game, Mode, Verdict, Verification, utc_today
from games.services import Actor, get_replay_for, log_entries
from yukon.engine import Position, play_log
from yukon.solver import SolveResult

logger = logging.getLogger(__name__)

# A practice game verified this long ago without an analysis lost its task message.
MISSED_GRACE = dt.timedelta(minutes=5)
# An analysis still pending after this long was dropped by a dying worker: queue it again.
STALE_PENDING = dt.timedelta(minutes=30)
# A deferred analysis (its player's solver budget spent) a reader looks at is queued again
# at most this often.
DEFERRED_RETRY = dt.timedelta(minutes=1)
# The sweeper looks this far back, so that its query stays small as the tables grow.
SWEEP_WINDOW = dt.timedelta(days=7)


@dataclass(frozen=True)
class StandingLine:
    moves: list[str]  # the moves that stand, undos applied
    plies: list[int]  # the log ply of each


def standing_line(game: Game) -> StandingLine:
    """The game's log with each undo taking back the move before it (the engine's rule)."""
    entries = log_entries(game)
    standing = play_log(game.start_position(), [entry.text for entry in entries])
    return StandingLine([entries[i].text for i in standing], [entries[i].ply for i in standing])


def _deal_result(game: Game) -> SolveResult | None:
    """What the deal's stored verdict says of the game's start. A winning line of the
    standard rules wins with take-back too (it only adds moves); a loss does not carry."""
    deal = game.deal
    if deal.verdict == Verdict.SOLVED and deal.solution:
        return SolveResult(verdict="solved", moves=list(deal.solution))
    if deal.verdict == Verdict.UNWINNABLE and not game.takeback:
        return SolveResult(verdict="unwinnable")
    return None


def review_game(game: Game) -> tuple[Review, StandingLine]:
    """Run the review of a finished game's standing line (slow: the solver)."""
    line = standing_line(game)
    seconds = settings.ANALYSIS_SOLVE_SECONDS

    def solver(position: Position) -> SolveResult:
        return cached_solve(position, seconds)

    review = review_line(
        game.start_position(),
        line.moves,
        solver,
        total_seconds=settings.ANALYSIS_TOTAL_SECONDS,
        deal_result=_deal_result(game),
    )
    return review, line


def analyse_game(game_id: int) -> str:
    """Analyse a finished, verified game once; return what happened (for the task's logs)."""
    game = Game.objects.select_related("deal").filter(pk=game_id).first()
    if game is None:
        return "gone"
    if game.verification != Verification.VERIFIED:
        return f"not analysed: verification {game.verification}"
    # A practice game's analysis is solver time its player asked for by starting it: it is
    # charged to their budgets (docs/api.md, "Budgets of costly calls"), and waits, marked
    # deferred, while they are spent: the sweeper and the next look at it queue it again.
    practice = game.mode == Mode.PRACTICE
    owner = budgets.player_ident(game.player_id, game.session_key or None)
    now = timezone.now()
    if practice and budgets.solver_budget_spent(game.pk, owner):
        analysis, _created = GameAnalysis.objects.get_or_create(
            game=game, defaults={"status": AnalysisStatus.DEFERRED}
        )
        if analysis.status == AnalysisStatus.DONE:
            return "already done"
        GameAnalysis.objects.filter(pk=analysis.pk).update(
            status=AnalysisStatus.DEFERRED, updated_at=now
        )
        return "deferred: the solver budget of the player or address is spent"
    analysis, _created = GameAnalysis.objects.get_or_create(game=game)
    if analysis.status == AnalysisStatus.DONE:
        return "already done"
    if analysis.status == AnalysisStatus.DEFERRED:  # its turn now: computing
        GameAnalysis.objects.filter(pk=analysis.pk, status=AnalysisStatus.DEFERRED).update(
            status=AnalysisStatus.PENDING, updated_at=now
        )
    with budgets.charged_to_caller(game.pk, owner) if practice else contextlib.nullcontext():
        review, line = review_game(game)
    with transaction.atomic():
        analysis, _created = GameAnalysis.objects.select_for_update().get_or_create(game=game)
        if analysis.status == AnalysisStatus.DONE:
            return "already done"
        losing = review.losing_move
        analysis.status = AnalysisStatus.DONE
        analysis.outcome = review.outcome
        analysis.moves = review.moves
        analysis.last_winnable = review.last_winnable
        analysis.first_lost = review.first_lost
        analysis.lost_move = line.moves[losing - 1] if losing else ""
        analysis.lost_ply = line.plies[losing - 1] if losing else None
        analysis.continuation = review.continuation
        analysis.par = review.par
        analysis.solves = review.solves
        analysis.nodes = review.nodes
        analysis.seconds = review.seconds
        analysis.save()
    logger.info(
        "game %s analysed: %s in %.2f s (%d solves)",
        game_id,
        review.outcome,
        review.seconds,
        review.solves,
    )
    return review.outcome


def _queue(game_id: int) -> None:
    from analysis.tasks import analyse_game as task  # tasks import services

    transaction.on_commit(lambda: task.delay(game_id), robust=True)


def on_game_verified(sender: Any, game: Game, **kwargs: Any) -> None:
    """Practice games are analysed at once; daily ones wait for their day to close."""
    if game.mode == Mode.PRACTICE and settings.ANALYSIS_ON_FINISH:
        _queue(game.pk)


def sweep_analyses(*, queue: Callable[[int], Any], limit: int = 200) -> dict[str, int]:
    """Queue the analyses that are due: closed days' daily games, missed practice games,
    and analyses left pending by a worker that died."""
    now = timezone.now()
    due = (
        Game.objects.filter(
            verification=Verification.VERIFIED,
            analysis__isnull=True,
            finished_at__gte=now - SWEEP_WINDOW,
        )
        .filter(
            Q(mode=Mode.DAILY, challenge__date__lt=utc_today())
            | Q(mode=Mode.PRACTICE, verified_at__lt=now - MISSED_GRACE)
        )
        .order_by("finished_at")
        .values_list("pk", flat=True)[:limit]
    )
    new = list(due)
    for game_id in new:
        # The row marks the game as queued, so the next sweep leaves it to the worker.
        GameAnalysis.objects.get_or_create(game_id=game_id)
        queue(game_id)
    stale = list(
        GameAnalysis.objects.filter(
            status=AnalysisStatus.PENDING, updated_at__lt=now - STALE_PENDING
        ).values_list("game_id", flat=True)[:limit]
    )
    for game_id in stale:
        GameAnalysis.objects.filter(game_id=game_id).update(updated_at=now)
        queue(game_id)
    # practice analyses that waited for their player's solver budget: try again (a row each,
    # so they never crowd the games above out of their query)
    deferred = list(
        GameAnalysis.objects.filter(
            status=AnalysisStatus.DEFERRED, updated_at__lt=now - MISSED_GRACE
        )
        .order_by("updated_at")
        .values_list("game_id", flat=True)[:limit]
    )
    for game_id in deferred:
        GameAnalysis.objects.filter(game_id=game_id).update(updated_at=now)
        queue(game_id)
    return {"queued": len(new), "requeued": len(stale), "deferred": len(deferred)}


def analysis_for(actor: Actor, game_id: int, *, today: dt.date | None = None) -> GameAnalysis:
    """The analysis a reader may see: practice at once (its owner), daily once the day closed.

    It shows a winning line, i.e. the deal's hidden cards, so a daily game's analysis
    waits for the day to close even for its own player.
    """
    game = get_replay_for(actor, game_id, today=today)  # 404 / 409 as for the replay
    if not game.is_public(today):
        assert game.challenge is not None
        raise Forbidden(
            _(
                "the analysis of a daily game opens when its day closes "
                "(%(closes_at)s UTC): it shows the deal"
            )
            % {"closes_at": f"{game.challenge.closes_at:%Y-%m-%d %H:%M}"},
            opens_at=game.challenge.closes_at.isoformat(),
        )
    if game.verification == Verification.REJECTED:
        raise NotFound(_("this game could not be verified, so it has no analysis"))
    analysis = GameAnalysis.objects.filter(game=game).first()
    if analysis is None and game.verification == Verification.VERIFIED:
        # Not queued yet (a daily game before the sweeper's next round): queue it now.
        GameAnalysis.objects.get_or_create(game=game)
        _queue(game.pk)
        analysis = GameAnalysis.objects.filter(game=game).first()
    if (
        analysis is not None
        and analysis.status == AnalysisStatus.DEFERRED
        and analysis.updated_at < timezone.now() - DEFERRED_RETRY
    ):
        # waiting for its player's solver budget: a look at it tries again (once a minute)
        GameAnalysis.objects.filter(pk=analysis.pk).update(updated_at=timezone.now())
        _queue(game.pk)
        analysis = GameAnalysis.objects.filter(game=game).first()
    if analysis is None:  # still being verified
        analysis = GameAnalysis(game=game, status=AnalysisStatus.PENDING)
    analysis.game = game
    return analysis
