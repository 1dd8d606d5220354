"""The practice coach: the next move of a winning line, or whether a win is still there.

The solver sees the face-down cards, which is fine on the server; what leaves it is only a
verdict and, for a hint, one move. By the rules a move always names a face-up card, and
``advise`` checks that again before answering, so a hint can never name a hidden card.

Answers are shared through the cache, keyed by the position (without score and move
count): a solved line from position P also gives the hint for P followed by the line's
first move, so a player who follows the hints walks one line and waits for the solver once.
The search runs outside any transaction; only counting the hint touches the game row.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from apikit.budgets import note_solver_seconds
from apikit.errors import Conflict, Forbidden, NotFound, ServiceError
from games import services
from games.models import Game, Mode, Status
from games.services import Actor
from yukon.engine import EngineError, Position
from yukon.solver import SolveResult, solve

logger = logging.getLogger(__name__)

CACHE_PREFIX = "coach:v1:"
CACHE_SECONDS = 24 * 3600


class CoachBusy(ServiceError):
    """The coach is still thinking about this game: one question at a time per game."""

    http_status = 429


@dataclass(frozen=True)
class Advice:
    verdict: str  # solved | unwinnable | unknown
    move: str | None  # the next move of a winning line (solved only)


@dataclass(frozen=True)
class CoachAnswer:
    verdict: str
    move: str | None
    ply: int  # the game's ply the answer is about
    hints_used: int


def position_key(position: Position) -> str:
    """Cache key of a position's verdict: the layout only (score and move count dropped)."""
    layout = " ".join(position.to_text().split()[:3])
    return CACHE_PREFIX + hashlib.sha256(layout.encode()).hexdigest()


def names_face_up_card(position: Position, text: str) -> bool:
    """Is ``text`` a legal move here whose card lies face up? (A hint must never say more.)"""
    try:
        move = position.parse_move(text)
    except EngineError:
        return False
    return position.is_legal(move) and position.movable[position.move_card(move)]


def cached_solve(position: Position, seconds: float) -> SolveResult:
    """``solve`` with the cache in front: settled verdicts are remembered for a day.

    A solved line is stored for the position and for the one after its first move (the
    rest of the line), so following a line costs one search. ``unknown`` is not stored: a
    later question may have more luck.
    """
    key = position_key(position)
    hit = cache.get(key)
    if hit is not None:
        return SolveResult(verdict=hit["verdict"], moves=list(hit["moves"]))
    started = time.thread_time()
    result = solve(position, seconds=seconds, memory_mb=settings.COACH_MEMORY_MB)
    # CPU time of this thread, where the search runs: what the caller's budget counts
    note_solver_seconds(time.thread_time() - started)
    remember(position, result)
    return result


def remember(position: Position, result: SolveResult) -> None:
    if result.verdict == "unknown":
        return
    key = position_key(position)
    cache.set(key, {"verdict": result.verdict, "moves": result.moves}, CACHE_SECONDS)
    if result.verdict == "solved" and len(result.moves) > 1:
        after = position.copy()
        after.play_text(result.moves[0])
        cache.set(
            position_key(after),
            {"verdict": "solved", "moves": result.moves[1:]},
            CACHE_SECONDS,
        )


def advise(position: Position, seconds: float | None = None) -> Advice:
    """The solver's word on ``position``: a verdict, and the next move when it is solved."""
    if position.is_won():
        return Advice("solved", None)
    result = cached_solve(position, settings.HINT_SECONDS if seconds is None else seconds)
    if result.verdict != "solved":
        return Advice(result.verdict, None)
    move = result.moves[0]
    if not names_face_up_card(position, move):  # cannot happen: solved lines are verified
        logger.error("COACH BUG: hint %r is not a legal face-up move in %s", move, "a game")
        return Advice("unknown", None)
    return Advice("solved", move)


def _practice_game(actor: Actor, game_id: int) -> Game:
    game = (
        Game.objects.filter(pk=game_id)
        .only("id", "player_id", "session_key", "mode", "status", "ply", "position")
        .first()
    )
    if game is None or not actor.owns(game):
        raise NotFound(_("no such game"))
    if game.mode == Mode.ARCHIVE:
        raise Forbidden(
            _(
                "hints are for practice games: an archive game is played without help, "
                "as its day was"
            )
        )
    if game.mode != Mode.PRACTICE:
        raise Forbidden(
            _("hints are for practice games: a ranked daily game is played without help")
        )
    if game.status != Status.PLAYING:
        raise Conflict(
            _("the game is over (%(status)s): its analysis is on the replay page")
            % {"status": services.status_word(game.status)},
            ply=game.ply,
            status=game.status,
        )
    return game


def ask_coach(actor: Actor, game_id: int, *, hint: bool) -> CoachAnswer:
    """A hint (``hint=True``) or a winnability check for the actor's practice game.

    Either question counts in ``Game.hints_used`` (the game is then assisted): both come
    from a solver that sees the face-down cards. One question at a time per game.
    """
    game = _practice_game(actor, game_id)
    position = Position.from_text(game.position)
    lock = f"coach:busy:{game.pk}"
    if not cache.add(lock, 1, timeout=int(settings.HINT_SECONDS) + 10):
        raise CoachBusy(_("the coach is still thinking about your last question"))
    try:
        advice = advise(position)
    finally:
        cache.delete(lock)
    hints_used = services.record_hint(game.pk)
    return CoachAnswer(
        verdict=advice.verdict,
        move=advice.move if hint else None,
        ply=game.ply,
        hints_used=hints_used,
    )
