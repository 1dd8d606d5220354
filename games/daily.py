"""Preparing the daily challenges: secret candidates, proven winnable, rated, published.

For each tier, candidate deal numbers come from the server secret (HMAC-SHA256 of the
date, the tier and the attempt number; the first 8 bytes). Each candidate is solved
within a budget; one the solver cannot prove winnable is skipped. A winnable one is
rated by the strategy bot (the share of its playouts it wins) and published when the
rate falls in the tier's band, with the bot's own game of it (the results screen's "how
the computer did"). Publishing is one insert guarded by the unique
(date, tier) constraint, so any number of runs, on any number of workers, make one
challenge per tier, and a challenge once published never changes (not even when the
secret does). Each is published with a commitment to its deal (games/commitment.py).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import logging
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Q

from apikit.process_cache import ExpiringProcessCache
from games import services
from games.deals import solve_deal
from games.models import (
    WEEKLY,
    DailyChallenge,
    Deal,
    Game,
    Mode,
    Status,
    Tier,
    Verdict,
    is_weekly_day,
    tier_order,
    tiers_of,
    utc_today,
    variant_of_tier,
    weekly_refusal,
)
from yukon.engine import get_variant
from yukon.strategy_bot import play_once, rate_deal

log = logging.getLogger(__name__)

VARIANT = "yukon"


@dataclass(frozen=True)
class Band:
    """A tier takes deals the bot wins at least ``low`` and less than ``high`` of the time."""

    low: float
    high: float

    def __contains__(self, rate: float) -> bool:
        return self.low <= rate < self.high


# The weekly band, from the bot's win rates on proven Double Yukon deals (docs/daily.md).
WEEKLY_BAND_LOW = 0.02
WEEKLY_BAND_HIGH = 0.60


# Chosen from the bot's win rates on 80 consecutive deals (docs/daily.md): each band
# holds about a fifth of all deals, and the gaps between them keep the tiers apart.
BANDS: dict[str, Band] = {
    Tier.EASY: Band(0.60, 1.01),
    Tier.MEDIUM: Band(0.20, 0.45),
    Tier.HARD: Band(0.02, 0.12),
    # The weekly challenge (Double Yukon, Sundays): any proven deal the bot does not find
    # easy (docs/daily.md, "The weekly challenge").
    WEEKLY: Band(WEEKLY_BAND_LOW, WEEKLY_BAND_HIGH),
}


class DailyPreparationError(RuntimeError):
    """No candidate fitted a tier within the attempts allowed."""


def candidate_number(secret: str, date: dt.date, tier: str, attempt: int) -> int:
    """The ``attempt``-th candidate deal number of a day's tier (secret until the day closes)."""
    message = f"{date.isoformat()}:{tier}:{attempt}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def solve_budget() -> tuple[float, int]:
    """(safety cap in CPU seconds, node budget) for proving a candidate: the same for every
    variant since the multi-deck games are searched in C too (solver version 9,
    docs/daily.md)."""
    return settings.DAILY_SOLVE_SECONDS, settings.DAILY_SOLVE_NODES


def proven_winnable(
    number: int, variant: str = VARIANT, *, keep_unproven: bool = True
) -> Deal | None:
    """The deal, solved if nobody has yet; None unless the solver proved it winnable.

    The dailies keep every candidate's verdict (a run again reads it); the practice pool,
    whose random candidates never come back, drops a new row the solver did not prove
    (``keep_unproven=False``) rather than fill the table with them.
    """
    rules = get_variant(variant).rules_version
    deal, created = Deal.objects.get_or_create(number=number, variant=variant, rules_version=rules)
    seconds, nodes = solve_budget()
    solved = solve_deal(deal.pk, seconds, nodes, jobs=settings.DAILY_SOLVE_JOBS)
    if solved is not None and solved.verdict == Verdict.SOLVED:
        return solved
    if created and not keep_unproven:
        Deal.objects.filter(pk=deal.pk, games__isnull=True, challenges__isnull=True).delete()
    return None


def tier_of(rate: float) -> str | None:
    """The daily tier whose band holds the bot's win rate ``rate``, or None (a gap between
    bands). The weekly band is the weekly's alone: it never names a practice tier."""
    return next((str(tier) for tier in Tier.values if rate in BANDS[tier]), None)


def rate(deal: Deal) -> float:
    """The strategy bot's win rate on the deal, measured once and stored with it."""
    if deal.bot_win_rate is None:
        rating = rate_deal(deal.number, deal.variant, playouts=settings.DAILY_BOT_PLAYOUTS)
        deal.bot_win_rate = rating.win_rate
        deal.save(update_fields=["bot_win_rate"])
    return deal.bot_win_rate


@dataclass(frozen=True)
class BotGame:
    """How the strategy bot's own game of a deal ended: moves played and cards home."""

    moves: int
    cards_home: int
    cards: int  # in the deck(s): all of them home is a win

    @property
    def won(self) -> bool:
        return self.cards_home == self.cards


def play_bot_game(deal: Deal) -> BotGame:
    """The bot's own game of ``deal``: every move its first choice, with none of the
    randomness its rating playouts add, so the game is the same on every run (a few
    milliseconds for one deck, under 20 for Double Yukon)."""
    position = deal.start_position()
    play_once(position, random.Random(0), noise=0.0)
    return BotGame(position.moves, sum(position.found), 52 * position.variant.decks)


def bot_game(challenge: DailyChallenge) -> BotGame:
    """The bot's own game of the challenge's deal, as stored when it was published; a
    challenge published before the bot played one gets it now, stored for next time."""
    cards = 52 * get_variant(challenge.deal.variant).decks
    if challenge.bot_moves is not None and challenge.bot_cards_home is not None:
        return BotGame(challenge.bot_moves, challenge.bot_cards_home, cards)
    game = play_bot_game(challenge.deal)
    # An update, not save(): nothing the commitment covers is touched.
    DailyChallenge.objects.filter(pk=challenge.pk).update(
        bot_moves=game.moves, bot_cards_home=game.cards_home
    )
    challenge.bot_moves, challenge.bot_cards_home = game.moves, game.cards_home
    return game


def prepare_tier(date: dt.date, tier: str) -> DailyChallenge:
    """The challenge of ``date`` in ``tier``: the existing one, or a newly published one.

    The weekly tier exists on Sundays only: asked for another day, DailyPreparationError.
    """
    if tier == WEEKLY and not is_weekly_day(date):
        raise DailyPreparationError(weekly_refusal(date))
    existing = DailyChallenge.objects.filter(date=date, tier=tier).first()
    if existing is not None:
        return existing
    band = BANDS[tier]
    variant = variant_of_tier(tier)
    attempts = settings.WEEKLY_MAX_ATTEMPTS if tier == WEEKLY else settings.DAILY_MAX_ATTEMPTS
    for attempt in range(attempts):
        number = candidate_number(settings.DAILY_SECRET, date, tier, attempt)
        deal = proven_winnable(number, variant)
        if deal is None:
            log.info("daily %s %s: candidate %d skipped (not proven winnable)", date, tier, attempt)
            continue
        win_rate = rate(deal)
        if win_rate not in band:
            continue
        own_game = play_bot_game(deal)
        try:
            with transaction.atomic():
                # Published with its commitment: the row gets its salt and SHA-256 as it is
                # saved (DailyChallenge.seal, docs/fair-play.md), in this same insert; the
                # deal leaves the practice pool in the same transaction (DailyChallenge.save).
                return DailyChallenge.objects.create(
                    date=date,
                    tier=tier,
                    deal=deal,
                    bot_win_rate=win_rate,
                    bot_moves=own_game.moves,
                    bot_cards_home=own_game.cards_home,
                )
        except IntegrityError:  # another worker published first: theirs stands
            return DailyChallenge.objects.get(date=date, tier=tier)
    raise DailyPreparationError(f"no candidate for {date} {tier} in {attempts} attempts")


PREPARE_TOMORROW_FROM = dt.time(22, 0)


def dates_due(now: dt.datetime) -> list[dt.date]:
    """The days that must have their challenges by ``now``: today, and tomorrow from 22:00 UTC."""
    now = now.astimezone(dt.UTC)
    due = [now.date()]
    if now.time() >= PREPARE_TOMORROW_FROM:
        due.append(now.date() + dt.timedelta(days=1))
    return due


def tiers_shown(date: dt.date) -> list[str]:
    """The tiers a page of ``date`` draws before /api/daily/ answers: the three dailies,
    and on a Sunday the weekly once it is published (no deal may have fitted its band)."""
    tiers = list(Tier.values)
    if is_weekly_day(date) and DailyChallenge.objects.filter(date=date, tier=WEEKLY).exists():
        tiers.append(WEEKLY)
    return tiers


def is_ready(date: dt.date) -> bool:
    """Every tier of ``date`` is published (the weekly too, on a Sunday)."""
    return DailyChallenge.objects.filter(date=date).count() == len(tiers_of(date))


@dataclass(frozen=True)
class DailyOverview:
    date: dt.date
    challenges: Sequence[DailyChallenge]  # in tier order, with played, won and guests (day_counts)
    own_games: dict[int, Game]  # the viewer's game per challenge id


def todays_challenges(user: Any, session_key: str = "") -> DailyOverview:
    """Today's challenges with how many played and won them (guests included, and counted
    apart as ``guests``: games played as a guest), and the viewer's own games: a player's
    daily, a guest's game of its session."""
    today = utc_today()
    end_closed_days_on_request(today)
    prepare_today_on_request(today)
    return day_overview(today, user, session_key)


def day_overview(date: dt.date, user: Any, session_key: str = "") -> DailyOverview:
    """``date``'s challenges as they stand, counted, with the viewer's own games: what
    todays_challenges gives once the day is prepared, without preparing it (the home page
    draws its cards from it and leaves a day not yet ready to /api/daily/)."""
    counts = day_counts(date)
    challenges = sorted(
        DailyChallenge.objects.filter(date=date).select_related("deal"),
        key=lambda challenge: tier_order(challenge.tier),
    )
    for challenge in challenges:
        challenge.played, challenge.won, challenge.guests = counts.get(  # type: ignore[attr-defined]
            challenge.pk, (0, 0, 0)
        )
    if user.is_authenticated:
        own = Game.objects.filter(player=user, mode=Mode.DAILY)
    elif session_key:
        own = Game.objects.filter(player__isnull=True, session_key=session_key, mode=Mode.GUEST)
    else:
        own = Game.objects.none()
    own_games: dict[int, Game] = {}
    if challenges:
        own_games = {
            game.challenge_id: game
            for game in own.filter(challenge__in=challenges)
            if game.challenge_id is not None
        }
    return DailyOverview(date, challenges, own_games)


# The day's counts (every home page and /api/daily/ shows them) as this process counted
# them lately: each count goes over all of the day's games, millions on a busy day, and
# a count a few seconds old says as much (DAY_COUNTS_SECONDS; 0 counts on every read).
counts_kept = ExpiringProcessCache("DAY_COUNTS_SECONDS", size=16)


def day_counts(date: dt.date) -> dict[int, tuple[int, int, int]]:
    """Games played, won and played as a guest, per challenge id of ``date``: every game
    of the challenge (guests' included), as of at most DAY_COUNTS_SECONDS ago."""
    found: dict[int, tuple[int, int, int]] | None = counts_kept.get(("day", date))
    if found is None:
        rows = (
            Game.objects.filter(challenge__date=date)
            .values_list("challenge_id")
            .annotate(
                played=Count("id"),
                won=Count("id", filter=Q(status=Status.WON)),
                guests=Count("id", filter=Q(played_as_guest=True)),
            )
            .order_by()
        )
        found = {challenge: (played, won, guests) for challenge, played, won, guests in rows}
        counts_kept.put(("day", date), found)
    return found


# The day through which this process has ended the closed days' games in play.
closed_days_swept_through: dt.date | None = None


def end_closed_days_on_request(today: dt.date) -> None:
    """The embedded default has no sweeper: the first request of a new day (in each
    process) ends the games still in play on days now closed. Every request that touches
    such a game ends it anyway; this settles the rest (their day's "played" counts)."""
    global closed_days_swept_through  # noqa: PLW0603 (a once-a-day marker per process)
    if closed_days_swept_through == today:
        return
    while services.abandon_closed_games(limit=500) == 500:
        pass
    closed_days_swept_through = today


def prepare_today_on_request(today: dt.date) -> None:
    """The embedded default has no beat: a server left running past midnight prepares the
    new day when someone first asks for it (DAILY_PREPARE_ON_REQUEST, on without Redis)."""
    if settings.DAILY_PREPARE_ON_REQUEST and not is_ready(today):
        prepare_daily(today)


def prepare_daily(date: dt.date) -> dict[str, int]:
    """Make sure ``date`` has one challenge per tier (and on a Sunday the weekly one);
    return {tier: challenge id}."""
    started = time.perf_counter()
    ids = {tier: prepare_tier(date, tier).pk for tier in tiers_of(date)}
    log.info("daily %s ready in %.1f s", date, time.perf_counter() - started)
    return ids
