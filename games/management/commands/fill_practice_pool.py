"""``manage.py fill_practice_pool [--variant V ...] [--size N]``: top the practice pool up now."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import practice_pool
from games.models import Tier


def _positive(name: str, value: Any, *, allow_zero: bool = False) -> Any:
    if value is not None and (value < 0 or (value == 0 and not allow_zero)):
        raise CommandError(f"--{name} must be {'0 or more' if allow_zero else 'positive'}")
    return value


class Command(BaseCommand):
    help = (
        "Top up the practice pool of each variant (default: all of them) to --size undealt "
        "deals per tier (default PRACTICE_POOL_SIZE; PRACTICE_POOL_MULTI_DECK_SIZE for "
        "Double, Triple and Quadruple Yukon). Idempotent."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--variant", action="append", default=None, help="A variant (repeat for more)."
        )
        parser.add_argument("--size", type=int, help="Undealt deals per tier.")
        parser.add_argument(
            "--max-attempts", type=int, help="Random numbers tried per variant at most."
        )
        parser.add_argument("--seconds", type=float, help="Time budget per variant.")

    def handle(self, *args: Any, **options: Any) -> None:
        pooled = practice_pool.pool_variants()
        variants = options["variant"] or list(pooled)
        unknown = [v for v in variants if v not in pooled]
        if unknown:
            raise CommandError(
                f"no practice pool for {', '.join(unknown)}: choose from {', '.join(pooled)}"
            )
        asked_size = _positive("size", options["size"], allow_zero=True)
        attempts = _positive("max-attempts", options["max_attempts"])
        seconds = _positive("seconds", options["seconds"])
        short = False
        for variant in variants:
            size = practice_pool.pool_size(variant) if asked_size is None else asked_size
            run = practice_pool.top_up(variant, size=size, max_attempts=attempts, seconds=seconds)
            have = practice_pool.fresh_counts(variant)
            counts = ", ".join(f"{tier} {have.get((variant, tier), 0)}" for tier in Tier.values)
            self.stdout.write(
                f"{variant}: {counts} undealt (target {size}); added "
                f"{sum(run.added.values())} in {run.attempts} attempts, {run.seconds:.1f} s"
            )
            short = short or bool(run.short)
        if short:
            raise CommandError("some tiers are still short (see above and the admin's pool status)")
