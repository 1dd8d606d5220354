"""Playing a game, apart from the move itself: start, undo, hint, resign.

Each runs in one transaction with the game row locked (``select_for_update``), so
concurrent requests for the same game are serialised. The move, the hot path, lives in
``games.services.moves``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from apikit.errors import Conflict, Forbidden, LoginRequired, NotFound
from games.engine import DEAL_ALGORITHM_VERSION, UNDO, get_variant, play_log
from games.models import DailyChallenge, Deal, Game, Mode, Move, Status, Tier, utc_today
from games.services.closing import day_closed, refuse_closed_day
from games.services.common import Actor, finish, ms_between
from games.services.moves import check_turn


def start_daily_game(actor: Actor, tier: str, *, today: dt.date | None = None) -> tuple[Game, bool]:
    """The player's one ranked attempt at today's challenge: (game, created).

    A second start returns the same game; two racing starts still make one. The ban check
    and the creation are one transaction holding the player's row: ``ban_player`` writes
    that row before it ends the player's games, so a start either commits before the ban
    (whose sweep then ends its game) or waits for it and is refused.
    """
    if actor.user_id is None:
        raise LoginRequired("log in to play the daily challenge; practice games are open to all")
    with transaction.atomic():
        _refuse_if_banned(actor.user_id)
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


def _refuse_if_banned(user_id: int) -> None:
    """Lock the player's row (until the caller's transaction ends) and refuse a ban."""
    player = get_user_model().objects.select_for_update().filter(pk=user_id).first()
    if player is not None and player.is_banned:  # the ban service wrote the reason beside it
        raise Forbidden(f"your account is banned: {player.ban_notice}", banned=True)


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
        number=number,
        variant=variant,
        algorithm_version=DEAL_ALGORITHM_VERSION,
        rules_version=get_variant(variant).rules_version,
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


def undo_move(actor: Actor, game_id: int, ply: int) -> Game:
    """Practice only: take back the last standing move, logged as an ``undo`` entry."""
    with transaction.atomic():
        game = _locked_game(actor, game_id)
        if game.mode != Mode.PRACTICE:
            raise Forbidden("undo is for practice games; a ranked move is final")
        check_turn(game, ply)
        if game.moves == 0:
            raise Conflict("there is no move to undo", ply=game.ply, status=game.status)
        texts = list(game.log.order_by("ply").values_list("text", flat=True))
        position = game.deal.start_position()
        standing = play_log(position, [*texts, UNDO])
        now = timezone.now()
        Move.objects.create(
            game=game, ply=game.ply, text=UNDO, at_ms=ms_between(game.started_at, now)
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
        # One reading of the clock: a second one could fall after midnight, finishing at
        # or after the close a resign that was let in before it (verification rejects it).
        now = timezone.now()
        closed = day_closed(game, now.astimezone(dt.UTC).date())
        if not closed:
            if game.status != Status.PLAYING:
                raise Conflict(f"the game is already over ({game.status})", status=game.status)
            finish(game, Status.RESIGNED, at=now)
    if closed:  # outside the block above: the game's end must commit before the 409
        raise refuse_closed_day(game_id)
    return game
