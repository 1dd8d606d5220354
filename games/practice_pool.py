"""The practice pool: deals proven winnable and rated into the daily tiers, ready to deal.

Each variant with its current rules (one deck or several) has a pool per tier. A refill
draws deal numbers from the operating system's cryptographic source (``secrets``), proves
each with the daily pipeline's solver budget and rates it with its strategy bot
(``games.daily``), and keeps the ones whose bot win rate falls in a tier that needs deals.
A daily's deal never enters: a number that is (or was) a daily challenge's is refused
here, a deal that becomes one leaves the pool as the challenge is saved
(``DailyChallenge.save``), and the services never deal a pooled deal that a challenge uses.

A pooled deal can be dealt to many players, each at most once; the pool's size is its
entries nobody has been dealt yet (``PracticeDeal.dealt == 0``), and a refill tops that
up to ``pool_size`` per tier. Refills run on the Celery worker (beat every
``PRACTICE_POOL_SWEEP_SECONDS``, and queued when a request drains a tier); without Redis
(the embedded default) in a thread of the web process, which requests wait on briefly.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, IntegrityError, close_old_connections, connections, transaction
from django.db.models import Count, F
from django.utils import timezone

from games.models import DailyChallenge, Deal, PracticeDeal, PracticePoolStatus, Tier
from yukon.engine import MAX_DEAL_NUMBER, VARIANT_NAMES, get_variant
from yukon.engine.variants import RETIRED_RULES

log = logging.getLogger(__name__)


def pool_variants() -> tuple[str, ...]:
    """The engine's variants with their current rules, one deck or several: each has a
    practice pool.

    A variant that only keeps a retired rule for old games (``moosehide-runs``: no deal of
    5,000 is winnable, docs/odds.md) has none: its refills could never find a deal, and a
    tier of it would answer 503 for ever. Its numbered deals stay playable.
    """
    retired = set(RETIRED_RULES.values())
    return tuple(name for name in VARIANT_NAMES if name not in retired)


def pool_size(variant: str) -> int:
    """Undealt deals a refill keeps in each tier of ``variant``. The multi-deck games keep
    fewer: the bot's rating of one of their deals costs about 2.5 to 15 CPU seconds against a
    fraction of one for a single deck (docs/practice.md, "The multi-deck variants")."""
    if get_variant(variant).multi_deck:
        return int(settings.PRACTICE_POOL_MULTI_DECK_SIZE)
    return int(settings.PRACTICE_POOL_SIZE)


def refill_seconds(variant: str) -> float:
    """One refill run's time budget for ``variant`` (a run may overrun it by one candidate)."""
    if get_variant(variant).multi_deck:
        return float(settings.PRACTICE_POOL_MULTI_DECK_REFILL_SECONDS)
    return float(settings.PRACTICE_POOL_REFILL_SECONDS)


def random_numbers() -> Iterator[int]:
    """Deal numbers from the operating system's cryptographic source, never predictable."""
    while True:
        yield secrets.randbelow(MAX_DEAL_NUMBER + 1)


def is_daily_number(number: int) -> bool:
    """Is ``number`` the deal of a daily challenge (prepared or published, any date, any
    variant: single-deck variants deal the same cards from one number, and a multi-deck
    pool keeps clear of a weekly's number the same way)?"""
    return DailyChallenge.objects.filter(deal__number=number).exists()


def fresh_counts(variant: str | None = None) -> dict[tuple[str, str], int]:
    """Undealt pooled deals per (variant, tier): the pool's size."""
    rows = PracticeDeal.objects.filter(dealt=0)
    if variant is not None:
        rows = rows.filter(variant=variant)
    counts = (
        rows.values("variant", "tier").annotate(n=Count("id")).values_list("variant", "tier", "n")
    )
    return {(v, t): n for v, t, n in counts}


def needs(variant: str, size: int) -> dict[str, int]:
    """How many deals each tier of ``variant`` lacks to hold ``size`` undealt ones."""
    have = fresh_counts(variant)
    return {
        tier: size - have.get((variant, tier), 0)
        for tier in Tier.values
        if have.get((variant, tier), 0) < size
    }


# ----- one refill run ----------------------------------------------------------------


@dataclass
class Refill:
    """What one refill run of a variant did."""

    variant: str
    needed: dict[str, int]
    added: dict[str, int] = field(default_factory=dict)
    attempts: int = 0
    seconds: float = 0.0
    error: str = ""

    @property
    def short(self) -> dict[str, int]:
        """Deals each tier still lacks after the run."""
        added = self.added
        return {t: n - added.get(t, 0) for t, n in self.needed.items() if n > added.get(t, 0)}

    def failed_tiers(self) -> list[str]:
        """Tiers that needed deals and got none (or every tier needing any, on an error)."""
        if self.error:
            return list(self.needed)
        return [tier for tier in self.needed if not self.added.get(tier)]


def add_to_pool(deal: Deal, tier: str, rate: float) -> bool:
    """Put a proven, rated deal in the pool; False if it is a daily's deal or pooled already."""
    with transaction.atomic():
        if is_daily_number(deal.number):
            return False
        try:
            with transaction.atomic():
                PracticeDeal.objects.create(
                    deal=deal, variant=deal.variant, tier=tier, bot_win_rate=rate
                )
        except IntegrityError:  # pooled already (a concurrent refill met the same number)
            return False
    _pool_grew()
    return True


def top_up(
    variant: str,
    *,
    size: int | None = None,
    numbers: Iterator[int] | None = None,
    max_attempts: int | None = None,
    seconds: float | None = None,
) -> Refill:
    """Add proven, rated deals to ``variant``'s tiers until each holds ``size`` undealt
    ones (default ``pool_size``), trying at most ``max_attempts`` numbers within ``seconds``
    (default ``refill_seconds``). Idempotent: a full pool tries nothing. Records the run in
    PracticePoolStatus (failures included)."""
    from games import daily  # daily imports the services, which import this module lazily

    size = pool_size(variant) if size is None else size
    max_attempts = settings.PRACTICE_POOL_MAX_ATTEMPTS if max_attempts is None else max_attempts
    seconds = refill_seconds(variant) if seconds is None else seconds
    numbers = numbers if numbers is not None else random_numbers()
    run = Refill(variant, needs(variant, size))
    started = time.monotonic()
    want = dict(run.needed)
    try:
        for number in numbers:
            if not want or run.attempts >= max_attempts or time.monotonic() - started >= seconds:
                break
            run.attempts += 1
            if is_daily_number(number):
                continue
            deal = daily.proven_winnable(number, variant, keep_unproven=False)
            if deal is None:
                continue
            rate = daily.rate(deal)
            tier = daily.tier_of(rate)
            if tier not in want or not add_to_pool(deal, tier, rate):
                continue
            run.added[tier] = run.added.get(tier, 0) + 1
            want[tier] -= 1
            if not want[tier]:
                del want[tier]
    except DatabaseError as exc:
        run.error = f"{type(exc).__name__}: {exc}"
        raise
    finally:
        run.seconds = time.monotonic() - started
        if run.needed:
            _record(run)
    return run


def _record(run: Refill) -> None:
    now = timezone.now()
    failed = set(run.failed_tiers())
    for tier, needed in run.needed.items():
        reason = ""
        if tier in failed:
            reason = run.error or (
                f"no {run.variant} {tier} deal among {run.attempts} random numbers in "
                f"{run.seconds:.0f} s ({needed} needed)"
            )
            log.warning("practice pool: %s", reason)
        try:
            PracticePoolStatus.objects.get_or_create(variant=run.variant, tier=tier)
            updates: dict[str, object] = {
                "refills": F("refills") + 1,
                "added": F("added") + run.added.get(tier, 0),
                "last_refill_at": now,
            }
            if reason:
                updates |= {
                    "failures": F("failures") + 1,
                    "last_failure_at": now,
                    "last_failure": reason,
                }
            PracticePoolStatus.objects.filter(variant=run.variant, tier=tier).update(**updates)
        except DatabaseError:  # the database broke the run: the log has said so
            log.exception("practice pool: could not record the refill of %s", run.variant)
            return
    log.info(
        "practice pool %s: added %s in %d attempts, %.1f s",
        run.variant,
        run.added or "nothing",
        run.attempts,
        run.seconds,
    )


# ----- asking for a refill -------------------------------------------------------------

_QUEUED_KEY = "games:practice-pool:queued:{}"


def request_top_up(variant: str) -> None:
    """Have ``variant``'s pool topped up soon: a worker task (once a minute at most per
    variant), or without Redis the web process's own refill thread."""
    if settings.PRACTICE_POOL_FILL_ON_REQUEST:
        fill_in_background(variant)
        return
    from games.tasks import top_up_practice_pool  # tasks import this module

    def queue() -> None:
        if cache.add(_QUEUED_KEY.format(variant), 1, timeout=60):
            top_up_practice_pool.delay(variant)

    # robust: a broker outage must not fail the request that dealt a game; beat refills.
    transaction.on_commit(queue, robust=True)


# The embedded default's refills: one thread per variant at a time, in this process. The
# condition wakes requests waiting for a deal whenever a refill adds one.
_threads: dict[str, threading.Thread] = {}
_threads_lock = threading.Lock()
_grew = threading.Condition()
_generation = 0


def _pool_grew() -> None:
    global _generation  # noqa: PLW0603 (the waiters' wake-up counter, one per process)
    with _grew:
        _generation += 1
        _grew.notify_all()


def generation() -> int:
    """A counter that moves each time this process adds a deal to a pool."""
    with _grew:
        return _generation


def wait_for_growth(since: int, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for this process to add a deal after ``since``."""
    with _grew:
        return _grew.wait_for(lambda: _generation != since, timeout=timeout)


def warm_up(variant: str) -> None:
    """Without a worker, start ``variant``'s refill thread if its pool lacks deals."""
    if settings.PRACTICE_POOL_FILL_ON_REQUEST and needs(variant, pool_size(variant)):
        fill_in_background(variant)


def fill_in_background(variant: str, run: Callable[[str], object] | None = None) -> bool:
    """Start this process's refill thread for ``variant`` unless one runs; True if started."""
    with _threads_lock:
        running = _threads.get(variant)
        if running is not None and running.is_alive():
            return False
        thread = threading.Thread(
            target=_fill,
            args=(variant, run or top_up),
            name=f"practice-pool-{variant}",
            daemon=True,
        )
        _threads[variant] = thread
        thread.start()
        return True


def _fill(variant: str, run: Callable[[str], object]) -> None:
    close_old_connections()
    try:
        run(variant)
    except Exception:  # a thread has nobody to raise to: the run recorded it, log it
        log.exception("practice pool: the refill of %s failed", variant)
    finally:
        connections.close_all()  # this thread's connections only


def wait_for_refills(timeout: float) -> bool:
    """Wait for this process's refill threads to end (tests, the bench); True if they did."""
    deadline = time.monotonic() + timeout
    with _threads_lock:
        threads = list(_threads.values())
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    return not any(thread.is_alive() for thread in threads)
