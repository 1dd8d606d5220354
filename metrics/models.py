"""The funnel's counts: one row per day, event and tier, and nothing about anyone."""

from __future__ import annotations

from django.db import models


class DailyCount(models.Model):
    """How many times ``event`` happened on ``day`` (UTC) in ``tier``.

    ``tier`` is a daily's tier (easy, medium, hard, weekly) for the events a daily has
    (start, finish, share), ``practice`` or ``archive`` for those games, counted apart
    from the dailies, and empty for the events of the site as a whole (visit, returns,
    sign-up). Rows are only ever added to (metrics.services.add_counts).
    """

    day = models.DateField()
    event = models.CharField(max_length=20)
    tier = models.CharField(max_length=10, blank=True, default="")
    count = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["day", "event", "tier"], name="metrics_one_count")
        ]
        ordering = ["-day", "event", "tier"]

    def __str__(self) -> str:
        return f"{self.day} {self.event} {self.tier or '-'}: {self.count}"


class FlushedBatch(models.Model):
    """A batch of counts moved from Redis into DailyCount, written in the same
    transaction: a batch whose move was interrupted after the commit is recognised and
    not added twice. Kept a few days (metrics.services.flush_pending)."""

    name = models.CharField(max_length=64, unique=True)
    at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name
