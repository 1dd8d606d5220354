"""Every change to a game lives here: start, move, undo, resign, verify, sweep.

Views parse input and call one of these; Celery tasks call ``verify_game``. Each write
runs in one transaction with the game row locked, so concurrent requests for the same game
are serialised and a move is acknowledged only once committed. Undo and resign lock the
row first (``select_for_update``); a move, the hot path, writes with one conditional
statement that locks the row and checks the ply it was validated at (``play_move``).
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone

from games.engine import (
    DEAL_ALGORITHM_VERSION,
    FOUNDATION,
    UNDO,
    EngineError,
    IllegalMoveError,
    LogError,
    Position,
    card_text,
    move_text,
    parse_card,
    parse_move,
    play_log,
)
from games.engine import replay_log as replay_log_steps
from games.errors import Conflict, Forbidden, IllegalMove, LoginRequired, NotFound
from games.models import (
    DailyChallenge,
    Deal,
    Game,
    Mode,
    Move,
    Status,
    Tier,
    Verification,
    utc_today,
)
from games.signals import game_verified

logger = logging.getLogger(__name__)

FACE_DOWN_REASON = "that card is face down: only a face-up card can move"
DAY_CLOSED = "this day closed at 00:00 UTC: its games can no longer change"


@dataclass(frozen=True)
class Actor:
    """Who is asking: a logged-in player (``user_id``) or a guest (``session_key``)."""

    user_id: int | None
    session_key: str = ""
    is_staff: bool = False

    def owns(self, game: Game) -> bool:
        if game.player_id is not None:
            return game.player_id == self.user_id
        return bool(self.session_key) and game.session_key == self.session_key


@dataclass(frozen=True)
class MoveResult:
    ply: int  # log entries after the move: the ply the next move must carry
    turned: str | None  # the card the move turned face up
    score: int
    status: str
    moves: int


def _ms_between(start: dt.datetime, end: dt.datetime) -> int:
    return max(0, (end - start) // dt.timedelta(milliseconds=1))


def _queue_verification(game_id: int) -> None:
    from games.tasks import verify_game  # tasks import services: keep the cycle lazy

    # robust: a broker outage must not fail a committed move; the sweeper re-queues.
    transaction.on_commit(lambda: verify_game.delay(game_id), robust=True)


# ----- start ---------------------------------------------------------------------------


def _no_reason_recorded(user_id: int) -> str:
    return "ask a moderator"


# Why a player is banned: moderation (which games never imports) installs its lookup here.
ban_reason: Callable[[int], str] = _no_reason_recorded


def start_daily_game(
    actor: Actor, tier: str, *, today: dt.date | None = None
) -> tuple[Game, bool]:
    """The player's one ranked attempt at today's challenge: (game, created).

    A second start returns the same game; two racing starts still make one (the unique
    constraint decides, the loser reads the winner's row).
    """
    if actor.user_id is None:
        raise LoginRequired("log in to play the daily challenge; practice games are open to all")
    if get_user_model().objects.filter(pk=actor.user_id, is_banned=True).exists():
        raise Forbidden(f"your account is banned: {ban_reason(actor.user_id)}", banned=True)
    if tier not in Tier.values:
        raise NotFound(f"unknown tier {tier!r}: choose easy, medium or hard")
    today = today or utc_today()
    challenge = (
        DailyChallenge.objects.select_related("deal").filter(date=today, tier=tier).first()
    )
    if challenge is None:
        raise NotFound(f"today's {tier} challenge is not ready yet; try again in a minute")
    existing = _ranked_game(actor.user_id, challenge)
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            game = Game.objects.create(
                player_id=actor.user_id,
                deal=challenge.deal,
                challenge=challenge,
                mode=Mode.DAILY,
                position=challenge.deal.start_position().to_text(),
            )
    except IntegrityError:
        existing = _ranked_game(actor.user_id, challenge)
        if existing is None:
            raise
        return existing, False
    return game, True


def _ranked_game(user_id: int, challenge: DailyChallenge) -> Game | None:
    return (
        Game.objects.select_related("deal", "challenge")
        .filter(player_id=user_id, challenge=challenge, mode=Mode.DAILY)
        .first()
    )


def start_practice_game(actor: Actor, number: int, variant: str = "yukon") -> Game:
    """A new practice game of deal ``number``: guests too (bound to their session)."""
    if actor.user_id is None and not actor.session_key:
        raise LoginRequired("a guest needs a session (cookies) to keep a practice game")
    deal, _ = Deal.objects.get_or_create(
        number=number, variant=variant, algorithm_version=DEAL_ALGORITHM_VERSION
    )
    return Game.objects.create(
        player_id=actor.user_id,
        session_key="" if actor.user_id is not None else actor.session_key,
        deal=deal,
        mode=Mode.PRACTICE,
        position=deal.start_position().to_text(),
    )


def claim_guest_games(user: Any, session_key: str) -> int:
    """At log-in, the guest's practice games (bound to the old session) become the player's."""
    return Game.objects.filter(
        player__isnull=True, session_key=session_key, mode=Mode.PRACTICE
    ).update(player=user, session_key="")


# ----- reading -------------------------------------------------------------------------


def get_game_for(actor: Actor, game_id: int, *, today: dt.date | None = None) -> Game:
    """A game the actor may look at: their own, staff, or a finished public one; else 404.

    A daily still in play after its day closed is ended first (``abandon_game``):
    whoever reads it sees it as it now stands, unfinished.
    """
    game = Game.objects.select_related("deal", "challenge").filter(pk=game_id).first()
    if game is None:
        raise NotFound("no such game")
    if actor.owns(game) or actor.is_staff or (game.mode == Mode.DAILY and game.is_public(today)):
        if game.status == Status.PLAYING and _day_closed(game, today):
            game = abandon_game(game.pk) or game
        return game
    raise NotFound("no such game")


def get_replay_for(actor: Actor, game_id: int, *, today: dt.date | None = None) -> Game:
    """A game whose log the actor may see: own finished, or any daily once its day closed
    and the game is over."""
    game = get_game_for(actor, game_id, today=today)
    if game.mode == Mode.DAILY and game.is_public(today) and game.is_over:
        return game
    if game.is_over and (actor.owns(game) or actor.is_staff):
        return game
    if actor.owns(game):
        raise Conflict("the replay opens when the game is over", status=game.status)
    raise NotFound("no such game")


# ----- the close of day -----------------------------------------------------------------
#
# A daily game changes only while its challenge is open (docs/daily.md, "The close of
# day"). A game still in play when its day closes ends unfinished (abandoned), at the
# moment of its last move: the first request that touches it after the close ends it, the
# sweeper ends the rest, and so does the first request of a new day in the embedded default.


class DayClosed(Conflict):
    """A move or resign on a daily whose day closed: 409 with the game as it ended."""


def _day_closed(game: Game, today: dt.date | None = None) -> bool:
    if game.mode != Mode.DAILY or game.challenge is None:
        return False
    if today is not None:
        return game.challenge.is_closed(today)
    return timezone.now() >= game.challenge.closes_at


def _stopped_at(game: Game) -> dt.datetime:
    """When a game left in play at the close stopped: its last move, or its start."""
    last_at_ms = game.log.order_by("-ply").values_list("at_ms", flat=True).first()
    return game.started_at + dt.timedelta(milliseconds=last_at_ms or 0)


def abandon_game(game_id: int, *, at: dt.datetime | None = None) -> Game | None:
    """End a daily game in progress as abandoned (played, not won); None if it was not in
    play. ``at`` is when it stopped: default its last move (a day that closed under it)."""
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(no_key=True, of=("self",))
            .select_related("deal", "challenge")
            .filter(pk=game_id, mode=Mode.DAILY, status=Status.PLAYING)
            .first()
        )
        if game is None:
            return None
        _finish(game, Status.ABANDONED, at=at or _stopped_at(game))
    return game


def end_if_day_closed(game_id: int) -> Game | None:
    """The game, ended as abandoned if it was still in play after its day closed; None
    when there was nothing to end."""
    game = (
        Game.objects.select_related("challenge")
        .filter(pk=game_id, mode=Mode.DAILY, status=Status.PLAYING)
        .first()
    )
    if game is None or not _day_closed(game):
        return None
    return abandon_game(game_id)


def _refuse_closed_day(game_id: int) -> DayClosed:
    """The 409 for a change to a closed daily, after ending the game if it was in play."""
    end_if_day_closed(game_id)
    ended = Game.objects.filter(pk=game_id).values_list("ply", "status").first()
    ply, status = ended if ended is not None else (None, None)
    return DayClosed(DAY_CLOSED, ply=ply, status=status)


def abandon_closed_games(*, limit: int = 500) -> int:
    """End every daily game still in play whose day has closed; return how many."""
    stale_ids = list(
        Game.objects.filter(
            mode=Mode.DAILY, status=Status.PLAYING, challenge__date__lt=utc_today()
        ).values_list("pk", flat=True)[:limit]
    )
    return sum(1 for game_id in stale_ids if abandon_game(game_id) is not None)


# ----- moves ---------------------------------------------------------------------------


def _locked_game(actor: Actor, game_id: int) -> Game:
    try:
        game = (
            Game.objects.select_for_update(no_key=True, of=("self",))
            .select_related("challenge")
            .get(pk=game_id)
        )
    except Game.DoesNotExist:
        raise NotFound("no such game") from None
    if not actor.owns(game):
        raise NotFound("no such game")
    return game


def _hot_cursor() -> Any:
    """A cursor for the statements every move runs: prepared once per connection on
    PostgreSQL (yukon_site/postgresql), a plain one elsewhere."""
    return getattr(connection, "prepared_cursor", connection.cursor)()


_MOVE_FIELDS = (
    "id", "player_id", "session_key", "mode", "challenge_id", "status", "ply", "moves",
    "started_at", "position",
)
# The game and, for a daily, its challenge's date (the close of day), in one SELECT.
_SELECT_FOR_MOVE = (
    f"SELECT {', '.join('g.' + name for name in _MOVE_FIELDS)}, c.date "
    f"FROM {Game._meta.db_table} g LEFT JOIN {DailyChallenge._meta.db_table} c "
    "ON c.id = g.challenge_id WHERE g.id = %s"
)


def _game_for_move(actor: Actor, game_id: int) -> Game:
    """The game as a move needs it, from one plain SELECT (no lock: see ``play_move``).

    Plain SQL for the hot path, prepared: the ORM's query compilation cost as much as the
    rest of the move (bench/bench_moves.py). A daily game comes with its challenge's date,
    joined in the same statement, so the close of day costs no query.
    """
    with _hot_cursor() as cursor:
        cursor.execute(_SELECT_FOR_MOVE, [game_id])
        row = cursor.fetchone()
    if row is None:
        raise NotFound("no such game")
    values = dict(zip(_MOVE_FIELDS, row[:-1], strict=True))
    started_at = values["started_at"]
    if not isinstance(started_at, dt.datetime):  # SQLite hands back text
        started_at = dt.datetime.fromisoformat(str(started_at))
    if timezone.is_naive(started_at):
        started_at = started_at.replace(tzinfo=dt.UTC)
    values["started_at"] = started_at
    game = Game(**values)
    if not actor.owns(game):
        raise NotFound("no such game")
    date = row[-1]
    if game.challenge_id is not None and date is not None:
        if not isinstance(date, dt.date):  # SQLite hands back text
            date = dt.date.fromisoformat(str(date))
        game.challenge = DailyChallenge(pk=game.challenge_id, date=date)
    return game


def _check_turn(game: Game, ply: int) -> None:
    if game.status != Status.PLAYING:
        raise Conflict(f"the game is over ({game.status})", ply=game.ply, status=game.status)
    if ply != game.ply:
        raise Conflict(
            f"ply {ply} is not the next one: the game is at ply {game.ply}",
            ply=game.ply,
            status=game.status,
        )


def _hidden(position: Position, card: int) -> bool:
    home = position.found[card // 13] > card % 13
    return not home and not position.movable[card]


_CARD_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][cdhs])(?![A-Za-z0-9])")
_SUITS = ("clubs", "diamonds", "hearts", "spades")


def _safe_reason(position: Position, text: str, exc: EngineError) -> str:
    """The engine's reason, with nothing in it about a card the player cannot see.

    The engine may name a hidden card's column (``3:Ah>F`` -> "not a card of column 3")
    or the card a foundation waits for; the client must learn nothing about a face-down card.
    """
    reason = str(exc)
    if not isinstance(exc, IllegalMoveError):
        return reason  # notation errors only quote the client's own text
    try:
        move = parse_move(text).move
    except EngineError:
        return reason
    card = move >> 3
    if _hidden(position, card):
        return FACE_DOWN_REASON
    named = [parse_card(name) for name in _CARD_IN_TEXT.findall(reason)]
    if not any(_hidden(position, other) for other in named):
        return reason
    if move & 7 == FOUNDATION:
        suit = card // 13
        count = position.found[suit]
        return (
            f"{card_text(card)} cannot go home yet: the {_SUITS[suit]} foundation "
            f"holds {count} card{'s' if count != 1 else ''}"
        )
    return f"{text} is not a legal move here"


def play_move(actor: Actor, game_id: int, ply: int, text: str) -> MoveResult:
    """Check ``text`` against the game's position and append it to the log.

    A stale or repeated ``ply`` gets Conflict (409) with the current ply, an illegal move
    IllegalMove (400) with the engine's reason; in both cases nothing is stored.

    The ply is the game's version: every change to the position (a move, an undo) adds
    one. So the move is validated against the position read at ``ply``, and stored by
    one statement, in one transaction, that locks the game row and writes only if the
    row is still at that ply and playing (``_store_move``). A request that lost a race
    to another tab writes nothing and gets the 409 it would have got had it waited for
    the lock. Two round trips to the database instead of four (BEGIN, SELECT ... FOR
    UPDATE, write, COMMIT), and no lock held while Python checks the move.

    A daily whose day has closed refuses every move with DayClosed (409); a game still
    in play then ends unfinished, in its own transaction, before the answer. The move's
    time is read once: a move stored is a move made before the close.
    """
    now = timezone.now()
    game = _game_for_move(actor, game_id)
    if game.challenge is not None and now >= game.challenge.closes_at:
        raise _refuse_closed_day(game_id)
    _check_turn(game, ply)
    position = Position.from_text(game.position)
    try:
        move, turned = position.play_text(text)
    except EngineError as exc:
        raise IllegalMove(_safe_reason(position, text, exc), ply=game.ply) from exc
    at_ms = _ms_between(game.started_at, now)
    turned_text = card_text(turned) if turned is not None else None
    game.ply += 1
    game.moves += 1
    game.score = position.score
    game.position = position.to_text()
    game.status = position.status
    if game.status != Status.PLAYING:
        game.finished_at = now
        game.elapsed_ms = at_ms
    if not _store_move(game, move_text(move), turned_text or "", at_ms):
        _check_turn(_game_for_move(actor, game_id), ply)  # raises: the race's 409
        raise Conflict("the game changed while this move was checked; reload it")
    if game.status != Status.PLAYING:
        _queue_verification(game.pk)  # committed already: queued at once
    return MoveResult(game.ply, turned_text, game.score, game.status, game.moves)


_UPDATE_GAME = (
    f"UPDATE {Game._meta.db_table} SET ply = %s, moves = %s, score = %s, position = %s, "
    "status = %s, finished_at = %s, elapsed_ms = %s "
    f"WHERE id = %s AND ply = %s AND status = '{Status.PLAYING.value}'"
)
_INSERT_MOVE = f"INSERT INTO {Move._meta.db_table} (game_id, ply, text, turned, at_ms) "


def _store_move(game: Game, text: str, turned: str, at_ms: int) -> bool:
    """Write the game's new state and append log entry ``game.ply - 1``, if the row is
    still at that ply and playing: False, and nothing written, if it is not.

    Plain SQL instead of ``Move.objects.create`` and ``game.save``: the ORM's
    compile-and-hydrate work was a third of a move's time (see bench/bench_moves.py). On
    PostgreSQL both writes are one statement (a data-modifying CTE), so one transaction
    that holds the row lock from the check to the commit; elsewhere (SQLite) a
    transaction around two. The unique (game, ply) constraint still guards the log.
    """
    finished_at = connection.ops.adapt_datetimefield_value(game.finished_at)
    game_row: list[Any] = [
        game.ply, game.moves, game.score, game.position, game.status,
        finished_at, game.elapsed_ms, game.pk, game.ply - 1,
    ]
    move_row: list[Any] = [game.ply - 1, text, turned, at_ms]
    with _hot_cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"WITH moved AS ({_UPDATE_GAME} RETURNING id) "
                f"{_INSERT_MOVE} SELECT id, %s, %s, %s, %s FROM moved",
                game_row + move_row,
            )
            return bool(cursor.rowcount == 1)
        with transaction.atomic():
            cursor.execute(_UPDATE_GAME, game_row)
            if cursor.rowcount != 1:
                return False
            cursor.execute(f"{_INSERT_MOVE} VALUES (%s, %s, %s, %s, %s)", [game.pk, *move_row])
    return True


def undo_move(actor: Actor, game_id: int, ply: int) -> Game:
    """Practice only: take back the last standing move, logged as an ``undo`` entry."""
    with transaction.atomic():
        game = _locked_game(actor, game_id)
        if game.mode != Mode.PRACTICE:
            raise Forbidden("undo is for practice games; a ranked move is final")
        _check_turn(game, ply)
        if game.moves == 0:
            raise Conflict("there is no move to undo", ply=game.ply, status=game.status)
        texts = list(game.log.order_by("ply").values_list("text", flat=True))
        position = game.deal.start_position()
        standing = play_log(position, [*texts, UNDO])
        now = timezone.now()
        Move.objects.create(
            game=game, ply=game.ply, text=UNDO, at_ms=_ms_between(game.started_at, now)
        )
        game.ply += 1
        game.moves = len(standing)
        game.score = position.score
        game.position = position.to_text()
        game.used_undo = True
        game.save(update_fields=["ply", "moves", "score", "position", "used_undo"])
    return game


def record_hint(game_id: int) -> int:
    """Count one question to the practice coach (a hint or "still winnable?"); return the count.

    One atomic UPDATE, no lock held while the solver thinks (the coach asks after it has
    its answer). A game with any hint is assisted.
    """
    Game.objects.filter(pk=game_id).update(hints_used=F("hints_used") + 1)
    return Game.objects.filter(pk=game_id).values_list("hints_used", flat=True).first() or 0


def resign_game(actor: Actor, game_id: int) -> Game:
    """End a game in progress; it is verified like any finished game. A daily whose day
    has closed cannot be resigned: it ends unfinished instead (DayClosed, 409)."""
    with transaction.atomic():
        game = _locked_game(actor, game_id)
        closed = _day_closed(game)
        if not closed:
            if game.status != Status.PLAYING:
                raise Conflict(f"the game is already over ({game.status})", status=game.status)
            _finish(game, Status.RESIGNED)
    if closed:  # outside the block above: the game's end must commit before the 409
        raise _refuse_closed_day(game_id)
    return game


def _finish(game: Game, status: str, *, at: dt.datetime | None = None) -> None:
    finished_at = at or timezone.now()
    game.status = status
    game.finished_at = finished_at
    game.elapsed_ms = _ms_between(game.started_at, finished_at)
    game.save(update_fields=["status", "finished_at", "elapsed_ms"])
    _queue_verification(game.pk)


# ----- verification --------------------------------------------------------------------


@dataclass(frozen=True)
class Replayed:
    """What the log says, recomputed from the deal."""

    position: Position
    moves: int
    last_at_ms: int


class LogRejected(Exception):
    """The stored log does not hold up; the message says why."""


def replay_log(game: Game, log: list[tuple[int, str, str, int]]) -> Replayed:
    """Replay ``(ply, text, turned, at_ms)`` entries from the deal; raise LogRejected.

    Each entry's ply and time are checked before the engine plays it, so the first
    fault in log order is the one reported.
    """
    deal = game.deal
    if deal.algorithm_version != DEAL_ALGORITHM_VERSION:
        raise LogRejected(f"deal algorithm version {deal.algorithm_version} is not supported")
    position = deal.start_position()
    steps = replay_log_steps(position, (text for _, text, _, _ in log))
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
    if game.elapsed_ms != _ms_between(game.started_at, game.finished_at):
        raise LogRejected("the stored time differs from start to finish")
    if game.elapsed_ms < replayed.last_at_ms:
        raise LogRejected("the game finished before its last move")
    if game.status in (Status.WON, Status.STUCK) and game.elapsed_ms != replayed.last_at_ms:
        raise LogRejected("the game did not end with its last move")
    if game.challenge is not None and game.finished_at >= game.challenge.closes_at:
        raise LogRejected(
            "the game finished after its day closed "
            f"({game.challenge.closes_at:%Y-%m-%d %H:%M} UTC)"
        )


def verify_game(game_id: int) -> str:
    """Replay a finished game's log and mark it verified or rejected; idempotent.

    Returns what happened (for the task's result and logs). On verification the
    ``game_verified`` signal is sent after commit, for the leaderboards.
    """
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(no_key=True, of=("self",))
            .select_related("deal", "challenge")
            .filter(pk=game_id)
            .first()
        )
        if game is None:
            return "gone"
        if game.verification != Verification.PENDING:
            return f"already {game.verification}"
        if game.status == Status.PLAYING:
            return "still playing"
        log = list(game.log.order_by("ply").values_list("ply", "text", "turned", "at_ms"))
        try:
            _check_result(game, replay_log(game, log))
        except LogRejected as exc:
            game.verification = Verification.REJECTED
            game.rejection_reason = str(exc)
            logger.warning("game %s rejected: %s", game.pk, exc)
        else:
            game.verification = Verification.VERIFIED
            game.rejection_reason = ""
            verified = game
            transaction.on_commit(
                lambda: game_verified.send(sender=Game, game=verified), robust=True
            )
        game.verified_at = timezone.now()
        game.save(update_fields=["verification", "rejection_reason", "verified_at"])
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
