"""The leaderboards' own tables: boards whose Redis copy missed an update, and the signed
close record of each closed day.

Results themselves live in ``games.Game`` (PostgreSQL is the truth); Redis holds the
sorted sets. When Redis fails while a result is added or removed, the board is written
down here and rebuilt once Redis is back.
"""

from __future__ import annotations

from django.db import models


class StaleBoard(models.Model):
    challenge = models.OneToOneField(
        "games.DailyChallenge", on_delete=models.CASCADE, related_name="+"
    )
    since = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"stale board of challenge {self.challenge_id}"


class CloseRecord(models.Model):
    """A closed day's close record, signed by the site (games/receipts.py): per tier the
    games file's digest, its ranked games and the receipts it left out, chained to the
    record before it by that one's digest (docs/fair-play.md, section 5). Made once, when
    every game of the day is verified (``leaderboards.sealing``); never changed."""

    date = models.DateField(unique=True)
    key_id = models.CharField(max_length=24)
    document = models.TextField(help_text="The signed record, as JSON.")
    sha256 = models.CharField(max_length=64, help_text="Its digest: the next record's link.")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"close record of {self.date}"
