"""The leaderboards' own table: boards whose Redis copy missed an update.

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
