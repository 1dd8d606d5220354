"""Playing a game, apart from the move itself: start, undo, hint, resign.

Each runs in one transaction with the game row locked (``select_for_update``), so
concurrent requests for the same game are serialised. The move, the hot path, lives in
``games.services.moves``.
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.signals import results_changed
from apikit.errors import Conflict, Forbidden, LoginRequired, NotFound, Unavailable
from games import practice_pool
from games.models import (
    WEEKLY,
    ChallengeTier,
    DailyChallenge,
    Deal,
    Game,
    Mode,
    Move,
    PracticeDeal,
    Status,
    Tier,
    Verification,
    is_weekly_day,
    utc_today,
    weekly_refusal,
)
from games.services.closing import day_closed, refuse_closed_day
from games.services.common import Actor, finish, ms_between, status_word, tier_word
from games.services.move_log import log_entries
from games.services.moves import check_turn
from games.signals import result_counting
from yukon.engine import DEAL_ALGORITHM_VERSION, UNDO, get_variant, play_log


def start_daily_game(actor: Actor, tier: str, *, today: dt.date | None = None) -> tuple[Game, bool]:
    """The player's one ranked attempt at today's challenge, or a guest's one game of it
    (bound to the session, mode ``guest``): (game, created).

    A second start returns the same game; two racing starts still make one. The ban check
    and the creation are one transaction holding the player's row: a ban
    (``accounts.services.ban_account``, called by moderation's ``ban_player``) writes that
    row before it ends the player's games, so a start either commits before the ban (whose
    sweep then ends its game) or waits for it and is refused.

    A guest's game is played, closed and verified like a daily but never ranks as such:
    it becomes a daily only when its guest signs up before the close
    (``claim_guest_games_at_sign_up``; docs/fair-play.md, "Guests").
    """
    if actor.user_id is None:
        if not actor.session_key:
            raise LoginRequired(_("a guest needs a session (cookies) to play the daily challenge"))
        return _one_game_on(
            _todays_challenge(tier, today), Mode.GUEST, session_key=actor.session_key
        )
    with transaction.atomic():
        _refuse_if_banned(actor.user_id)
        challenge = _todays_challenge(tier, today)
        return _one_game_on(challenge, Mode.DAILY, user_id=actor.user_id)


def _todays_challenge(tier: str, today: dt.date | None) -> DailyChallenge:
    if tier not in ChallengeTier.values:
        raise NotFound(_unknown_tier(tier))
    today = today or utc_today()
    if tier == WEEKLY and not is_weekly_day(today):
        raise NotFound(weekly_refusal(today))
    challenge = DailyChallenge.objects.select_related("deal").filter(date=today, tier=tier).first()
    if challenge is None:
        raise NotFound(
            _("today's %(tier)s challenge is not ready yet; try again in a minute")
            % {"tier": tier_word(tier)}
        )
    return challenge


def _unknown_tier(tier: str) -> str:
    return _("unknown tier %(tier)s: choose easy, medium, hard or (on Sundays) weekly") % {
        "tier": repr(tier)
    }


def start_archive_game(
    actor: Actor, date: dt.date, tier: str, *, today: dt.date | None = None
) -> tuple[Game, bool]:
    """The player's attempt at a closed day's challenge from the archive: (game, created).

    Unranked: it never enters a daily board or a streak (``counts_q`` counts dailies
    only), and it is verified like any game for the archive board and the player's
    record. Only a day that has closed: an open day's deal must stay secret, so today's
    challenge is refused here whatever the player has played. One attempt per player,
    day and tier, like the daily.
    """
    if actor.user_id is None:
        raise LoginRequired(_("log in to play the archive: your results go on your record"))
    if tier not in ChallengeTier.values:
        raise NotFound(_unknown_tier(tier))
    if tier == WEEKLY and not is_weekly_day(date):
        raise NotFound(weekly_refusal(date))
    today = today or utc_today()
    if date >= today:
        raise NotFound(
            _("%(date)s is not in the archive yet: a day joins it once it has closed")
            % {"date": date.isoformat()}
        )
    with transaction.atomic():
        _refuse_if_banned(actor.user_id)
        challenge = (
            DailyChallenge.objects.select_related("deal").filter(date=date, tier=tier).first()
        )
        if challenge is None:
            raise NotFound(
                _("there was no %(tier)s challenge on %(date)s")
                % {"tier": tier_word(tier), "date": date.isoformat()}
            )
        return _one_game_on(challenge, Mode.ARCHIVE, user_id=actor.user_id)


def _one_game_on(
    challenge: DailyChallenge, mode: str, *, user_id: int | None = None, session_key: str = ""
) -> tuple[Game, bool]:
    """The player's (or the guest session's) one game of ``mode`` on ``challenge``, made
    if there is none yet: (game, created). Two racing starts still make one: the
    database's one-game constraint refuses the second, which then answers with the first
    one's game."""
    owner = _owner_q(Actor(user_id=user_id, session_key=session_key))
    existing = _game_on(owner, challenge, mode)
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            game = Game.objects.create(
                player_id=user_id,
                session_key="" if user_id is not None else session_key,
                deal=challenge.deal,
                challenge=challenge,
                mode=mode,
                played_as_guest=mode == Mode.GUEST,
                position=challenge.deal.start_position().to_text(),
            )
    except IntegrityError:
        existing = _game_on(owner, challenge, mode)
        if existing is None:
            raise
        return existing, False
    return game, True


def _game_on(owner: Q, challenge: DailyChallenge, mode: str) -> Game | None:
    return (
        Game.objects.select_related("deal", "challenge")
        .filter(owner, challenge=challenge, mode=mode)
        .first()
    )


def _refuse_if_banned(user_id: int) -> None:
    """Lock the player's row (until the caller's transaction ends) and refuse a ban."""
    player = get_user_model().objects.select_for_update().filter(pk=user_id).first()
    if player is not None and player.is_banned:  # the ban service wrote the reason beside it
        raise Forbidden(
            _("your account is banned: %(notice)s") % {"notice": player.ban_notice}, banned=True
        )


def start_practice_game(
    actor: Actor, number: int, variant: str = "yukon", *, takeback: bool = False
) -> Game:
    """A new practice game of deal ``number``: guests too (bound to their session).

    ``takeback``: with the foundation take-back option (practice only; docs/practice.md).
    """
    if actor.user_id is None and not actor.session_key:
        raise LoginRequired(_("a guest needs a session (cookies) to keep a practice game"))
    deal, _created = Deal.objects.get_or_create(
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
        takeback=takeback,
        position=deal.start_position(takeback=takeback).to_text(),
    )


class PoolExhausted(Unavailable):
    """No pooled deal of the tier that this player has not played: 503, try again later."""


def start_pooled_practice_game(
    actor: Actor, tier: str, variant: str = "yukon", *, takeback: bool = False
) -> Game:
    """A practice game on a deal of the practice pool (games/practice_pool.py) in ``tier``
    that the player (or the guest's session) has never played, and never a daily's deal.

    A deal nobody had been dealt asks for a refill. None left: PoolExhausted (503) after a
    refill is asked for; without Redis the request waits up to PRACTICE_POOL_WAIT_SECONDS
    for this process's refill thread to add one.
    """
    if actor.user_id is None and not actor.session_key:
        raise LoginRequired(_("a guest needs a session (cookies) to keep a practice game"))
    if tier not in Tier.values:
        raise NotFound(
            _("unknown tier %(tier)s: choose easy, medium or hard") % {"tier": repr(tier)}
        )
    wait = settings.PRACTICE_POOL_WAIT_SECONDS if settings.PRACTICE_POOL_FILL_ON_REQUEST else 0
    deadline = time.monotonic() + wait
    while True:
        seen = practice_pool.generation()
        game, was_fresh = _deal_from_pool(actor, tier, variant, takeback)
        if game is not None:
            if was_fresh:
                practice_pool.request_top_up(variant)
            return game
        practice_pool.request_top_up(variant)
        left = deadline - time.monotonic()
        if left <= 0 or not practice_pool.wait_for_growth(seen, left):
            break
    retry_after = max(1, round(wait)) if wait else settings.PRACTICE_POOL_RETRY_AFTER
    raise PoolExhausted(
        _(
            "no proven %(variant)s %(tier)s deal you have not played is ready; more are being "
            "prepared, try again in %(seconds)s s (or play a deal by number)"
        )
        % {"variant": variant, "tier": tier_word(tier), "seconds": retry_after},
        retry_after=retry_after,
        tier=tier,
        variant=variant,
    )


def _owner_q(actor: Actor) -> Q:
    if actor.user_id is not None:
        return Q(player_id=actor.user_id)
    return Q(player__isnull=True, session_key=actor.session_key)


def _deal_from_pool(
    actor: Actor, tier: str, variant: str, takeback: bool
) -> tuple[Game | None, bool]:
    """(the new game, whether its deal was one nobody had been dealt); (None, False) if none.

    The pooled row is locked (SKIP LOCKED: two tabs of one player take different rows)
    and the player's games are read again once it is held, in a statement of its own, so
    a game committed meanwhile by another tab is seen.
    """
    owner = _owner_q(actor)
    played = Game.objects.filter(owner, deal_id=OuterRef("deal_id"))
    daily = DailyChallenge.objects.filter(deal__number=OuterRef("deal__number"))
    candidates = (
        PracticeDeal.objects.filter(variant=variant, tier=tier)
        .exclude(Exists(played))
        .exclude(Exists(daily))
    )
    tried: list[int] = []
    with transaction.atomic():
        while True:
            pick = (
                candidates.exclude(pk__in=tried)
                .select_for_update(skip_locked=True, of=("self",))
                .select_related("deal")
                .order_by("?")
                .first()
            )
            if pick is None:
                return None, False
            if not Game.objects.filter(owner, deal_id=pick.deal_id).exists():
                break
            tried.append(pick.pk)
        game = Game.objects.create(
            player_id=actor.user_id,
            session_key="" if actor.user_id is not None else actor.session_key,
            deal=pick.deal,
            mode=Mode.PRACTICE,
            practice_tier=tier,
            takeback=takeback,
            position=pick.deal.start_position(takeback=takeback).to_text(),
        )
        PracticeDeal.objects.filter(pk=pick.pk).update(dealt=F("dealt") + 1)
    return game, pick.dealt == 0


def claim_guest_games(user: Any, session_key: str) -> int:
    """At log-in, the guest's games (bound to the old session) become the player's: its
    practice games, and its games of dailies, which stay unranked guest games beside the
    player's own daily. A log-in never makes a guest's result count: else one player could
    play the day's deal in several private windows and keep the best."""
    if not session_key:
        return 0
    return Game.objects.filter(
        player__isnull=True, session_key=session_key, mode__in=[Mode.PRACTICE, Mode.GUEST]
    ).update(player=user, session_key="")


def claim_guest_games_at_sign_up(user: Any, session_key: str) -> list[int]:
    """A guest signs up: the session's guest games of dailies become the new account's.

    One whose day is still open becomes the account's daily: its result ranks, marked
    provisional like any new account's, and moderation may hold it off the boards
    (``result_counting``: a game linked to another of its challenge, docs/fair-play.md,
    "Guests"). One whose day has closed stays an unranked guest game in the account's
    history. Returns the ids that became dailies. The rows are locked, and only those no
    account holds yet are taken: of two sign-ups racing from one session, one gets them.
    (Practice games follow at log-in: ``claim_guest_games``.)
    """
    if not session_key:
        return []
    now = timezone.now()
    with transaction.atomic():
        games = list(
            Game.objects.select_for_update(of=("self",))
            .select_related("challenge", "deal")
            .filter(player__isnull=True, session_key=session_key, mode=Mode.GUEST)
            .order_by("pk")
        )
        ranked = []
        for game in games:
            challenge = game.challenge
            assert challenge is not None  # a guest game is a challenge's (a check constraint)
            own_daily = Game.objects.filter(player=user, challenge=challenge, mode=Mode.DAILY)
            if now < challenge.closes_at and not own_daily.exists():
                game.mode, game.provisional = Mode.DAILY, True
                ranked.append(game)
            game.player, game.session_key = user, ""
            game.save(update_fields=["player", "session_key", "mode", "provisional"])
        counting = [game for game in ranked if game.verification == Verification.VERIFIED]
        for game in counting:
            result_counting.send(sender=Game, game=game, why="signed_up")
        if counting:
            ids = [game.pk for game in counting]
            # robust: Redis trouble must not undo a sign-up (board reads check PostgreSQL)
            transaction.on_commit(
                lambda: results_changed.send(sender=Game, games=ids, players=[], challenges=[]),
                robust=True,
            )
    return [game.pk for game in ranked]


def _locked_game(actor: Actor, game_id: int) -> Game:
    try:
        game = (
            Game.objects.select_for_update(no_key=True, of=("self",))
            .select_related("challenge")
            .get(pk=game_id)
        )
    except Game.DoesNotExist:
        raise NotFound(_("no such game")) from None
    if not actor.owns(game):
        raise NotFound(_("no such game"))
    return game


def undo_move(actor: Actor, game_id: int, ply: int) -> Game:
    """Practice only: take back the last standing move, logged as an ``undo`` entry."""
    with transaction.atomic():
        game = _locked_game(actor, game_id)
        if game.mode == Mode.ARCHIVE:
            raise Forbidden(_("undo is for practice games; an archive game's moves are final"))
        if game.mode != Mode.PRACTICE:
            raise Forbidden(_("undo is for practice games; a ranked move is final"))
        check_turn(game, ply)
        if game.moves == 0:
            raise Conflict(_("there is no move to undo"), ply=game.ply, status=game.status)
        texts = [entry.text for entry in log_entries(game)]
        position = game.start_position()
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
                raise Conflict(
                    _("the game is already over (%(status)s)")
                    % {"status": status_word(game.status)},
                    status=game.status,
                )
            finish(game, Status.RESIGNED, at=now)
    if closed:  # outside the block above: the game's end must commit before the 409
        raise refuse_closed_day(game_id)
    return game
