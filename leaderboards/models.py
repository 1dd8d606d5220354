"""The leaderboards' own tables: boards whose Redis copy missed an update, the signed
close record of each closed day, and the stored copy of each sealed day's games files.

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


class GamesFile(models.Model):
    """The stored copy of a sealed day's games file for one tier (leaderboards.stored_files):
    gzip in Django's default storage, written once by the worker after the day's close
    record, served instead of streaming the file from PostgreSQL on every request.

    ``name`` is blank while there is no copy to serve: never written yet, or dropped
    because something changed the file (a moderator's decision, a ban, a renamed or
    deleted player). ``generation`` grows at every drop, so a writer that read the games
    before the change cannot install what it wrote (its generation is gone)."""

    challenge = models.OneToOneField(
        "games.DailyChallenge", on_delete=models.CASCADE, related_name="+"
    )
    name = models.CharField(max_length=255, blank=True, help_text="Its storage name, gzip.")
    size = models.BigIntegerField(default=0, help_text="Bytes stored (gzip).")
    length = models.BigIntegerField(default=0, help_text="Bytes of the file (uncompressed).")
    sha256 = models.CharField(max_length=64, blank=True, help_text="Of the uncompressed file.")
    games = models.IntegerField(default=0, help_text="Its ranked games.")
    written_at = models.DateTimeField(null=True, blank=True)
    generation = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"games file of challenge {self.challenge_id}"
