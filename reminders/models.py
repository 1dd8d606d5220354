"""Reminders a player asked for: their choices, their browsers' push subscriptions, and the
log of what was sent, which is also what makes sending idempotent.

Off by default: a player has no preferences row until they save one, and nothing is sent
until they turn push or email on. Only ``reminders.services`` changes these rows.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import Q

DEFAULT_TIME = dt.time(18, 0)


class Kind(models.TextChoices):
    """What a reminder is about (the player picks which they want)."""

    STREAK = "streak", "your streak ends soon"
    RIVAL = "rival", "a league rival beat your time"


class ReminderPreferences(models.Model):
    """When and how a player wants reminders: a local time in an IANA time zone, the
    channels (push, email) and the kinds."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="reminder_preferences",
    )
    push = models.BooleanField(default=False)
    email = models.BooleanField(default=False)
    local_time = models.TimeField(default=DEFAULT_TIME)
    time_zone = models.CharField(max_length=64, default="UTC")
    streak = models.BooleanField(default=True, help_text=Kind.STREAK.label)
    rival = models.BooleanField(default=True, help_text=Kind.RIVAL.label)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "reminder preferences"
        indexes = [
            # Each run's question: whose local time in this zone has just passed?
            models.Index(
                fields=["time_zone", "local_time"],
                condition=Q(push=True) | Q(email=True),
                name="reminders_due",
            ),
        ]

    def __str__(self) -> str:
        return f"reminders of {self.player_id} at {self.local_time} {self.time_zone}"


class PushSubscription(models.Model):
    """One browser's Web Push subscription (PushSubscription.toJSON()): where to send, and
    the keys the payload is encrypted to (RFC 8291). Removed when the push service says it
    is gone (404, 410)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    # An endpoint is one browser's: whoever subscribes it last holds it.
    endpoint = models.TextField(unique=True)
    p256dh = models.CharField(max_length=128)
    auth = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["player"], name="reminders_subscription_player")]

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.player_id}"


class SentReminder(models.Model):
    """A reminder sent: one row per player, UTC day and kind. The row is inserted before
    anything is sent, and the unique constraint lets only one worker insert it, so two
    workers (or two runs) racing send it once."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sent_reminders"
    )
    day = models.DateField(help_text="The UTC day (the daily's) it was sent for.")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    sent_at = models.DateTimeField(auto_now_add=True)
    pushes = models.PositiveSmallIntegerField(default=0, help_text="Push services that took it.")
    emailed = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "day", "kind"], name="reminders_sent_once_a_day"
            ),
        ]
        indexes = [models.Index(fields=["day"], name="reminders_sent_day")]

    def __str__(self) -> str:
        return f"{self.kind} reminder to {self.player_id} on {self.day}"
