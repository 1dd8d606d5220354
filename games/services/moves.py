"""A move, the hot path: one plain SELECT, the engine, one conditional write.

Hand-written SQL on a prepared cursor: the ORM's compile-and-hydrate work cost as much as
the rest of the move (bench/bench_moves.py). No lock is held while Python checks the
move; the write stores it only if the game is still at the ply it was checked at.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from apikit.errors import Conflict, NotFound
from games.engine_reasons import SUIT_NAMES, engine_reason
from games.errors import IllegalMove
from games.models import OPEN_DAY_MODES, DailyChallenge, Game, Mode, Move, Status
from games.services.closing import refuse_closed_day
from games.services.common import Actor, ms_between, queue_verification, status_word
from games.services.receipts import receipt_at_the_end
from yukon.engine import (
    FOUNDATION,
    EngineError,
    IllegalMoveError,
    Position,
    card_text,
    parse_card,
    parse_move,
)
from yukon.engine.cards import SUIT_NAMES as ENGLISH_SUIT_NAMES

FACE_DOWN_REASON = gettext_lazy("that card is face down: only a face-up card can move")


@dataclass(frozen=True)
class MoveResult:
    ply: int  # log entries after the move: the ply the next move must carry
    turned: str | None  # the card the move turned face up
    score: int
    status: str
    moves: int
    # the signed receipt (games/receipts.py), on the answer that ends a daily game
    receipt: dict[str, Any] | None = field(default=None, compare=False)


def _hot_cursor() -> Any:
    """A cursor for the statements every move runs: prepared once per connection on
    PostgreSQL (yukon_site/postgresql), a plain one elsewhere."""
    return getattr(connection, "prepared_cursor", connection.cursor)()


_MOVE_FIELDS = (
    "id",
    "player_id",
    "session_key",
    "mode",
    "challenge_id",
    "status",
    "ply",
    "moves",
    "started_at",
    "position",
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
        raise NotFound(_("no such game"))
    values = dict(zip(_MOVE_FIELDS, row[:-1], strict=True))
    started_at = values["started_at"]
    if not isinstance(started_at, dt.datetime):  # SQLite hands back text
        started_at = dt.datetime.fromisoformat(str(started_at))
    if timezone.is_naive(started_at):
        started_at = started_at.replace(tzinfo=dt.UTC)
    values["started_at"] = started_at
    game = Game(**values)
    if not actor.owns(game):
        raise NotFound(_("no such game"))
    date = row[-1]
    if game.challenge_id is not None and date is not None:
        if not isinstance(date, dt.date):  # SQLite hands back text
            date = dt.date.fromisoformat(str(date))
        game.challenge = DailyChallenge(pk=game.challenge_id, date=date)
    return game


def check_turn(game: Game, ply: int) -> None:
    if game.status != Status.PLAYING:
        raise Conflict(
            _("the game is over (%(status)s)") % {"status": status_word(game.status)},
            ply=game.ply,
            status=game.status,
        )
    if ply != game.ply:
        raise Conflict(
            _("ply %(ply)s is not the next one: the game is at ply %(current)s")
            % {"ply": ply, "current": game.ply},
            ply=game.ply,
            status=game.status,
        )


def _hidden(position: Position, card: int) -> bool:
    home = position.found[card // 13] > card % 13
    return not home and not position.movable[card]  # (one deck: card is its face)


_CARD_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][cdhs])(?![A-Za-z0-9])")


def _safe_reason(position: Position, text: str, exc: EngineError) -> str:
    """The engine's reason, in the player's language, with nothing in it about a card the
    player cannot see.

    The engine may name a hidden card's column (``3:Ah>F`` -> "not a card of column 3")
    or the card a foundation waits for; the client must learn nothing about a face-down card.
    """
    reason = str(exc)  # the English text: the cards it names are the ones checked
    if not isinstance(exc, IllegalMoveError):
        return engine_reason(exc)  # notation errors only quote the client's own text
    if position.variant.multi_deck:
        # A multi-deck move resolves to a face-up copy or is refused the same way for a
        # face-down copy and for none ("9h is not a face-up card of column 3"); the rules'
        # reasons then name only face-up cards, or the card a foundation's visible top needs.
        return engine_reason(exc)
    try:
        move = parse_move(text).move
    except EngineError:
        return engine_reason(exc)
    card = move >> 3
    if _hidden(position, card):
        return str(FACE_DOWN_REASON)
    named = [parse_card(name) for name in _CARD_IN_TEXT.findall(reason)]
    if not any(_hidden(position, other) for other in named):
        return engine_reason(exc)
    if move & 7 == FOUNDATION:
        suit = card // 13
        count = position.found[suit]
        return ngettext(
            "%(card)s cannot go home yet: the %(suit)s foundation holds %(count)s card",
            "%(card)s cannot go home yet: the %(suit)s foundation holds %(count)s cards",
            count,
        ) % {
            "card": card_text(card),
            "suit": str(SUIT_NAMES[ENGLISH_SUIT_NAMES[suit]]),
            "count": count,
        }
    return _("%(move)s is not a legal move here") % {"move": text}


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
    challenge = game.challenge if game.mode in OPEN_DAY_MODES else None
    if challenge is not None and now >= challenge.closes_at:
        raise refuse_closed_day(game_id)
    check_turn(game, ply)
    position = Position.from_text(game.position)
    try:
        move = position.parse_move(text)
        stored = position.move_text(move)  # (multi-deck: names its column before it moves)
        turned = position.play(move)
    except EngineError as exc:
        raise IllegalMove(_safe_reason(position, text, exc), ply=game.ply) from exc
    at_ms = ms_between(game.started_at, now)
    turned_text = card_text(turned) if turned is not None else None
    game.ply += 1
    game.moves += 1
    game.score = position.score
    game.position = position.to_text()
    game.status = position.status
    if game.status != Status.PLAYING:
        game.finished_at = now
        game.elapsed_ms = at_ms
    if not _store_move(game, stored, turned_text or "", at_ms):
        check_turn(_game_for_move(actor, game_id), ply)  # raises: the race's 409
        raise Conflict(_("the game changed while this move was checked; reload it"))
    receipt = None
    if game.status != Status.PLAYING:
        queue_verification(game.pk)  # committed already: queued at once
        if game.mode == Mode.DAILY:
            receipt = receipt_at_the_end(game.pk)
    return MoveResult(game.ply, turned_text, game.score, game.status, game.moves, receipt)


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
        game.ply,
        game.moves,
        game.score,
        game.position,
        game.status,
        finished_at,
        game.elapsed_ms,
        game.pk,
        game.ply - 1,
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
