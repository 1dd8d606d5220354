"""Guests play today's dailies: the "guest" mode (one game per session and challenge), the
games a guest played, and the provisional results held off the boards (docs/fair-play.md)."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_challenge_bot_game"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="game",
            name="games_game_mode_matches_challenge",
        ),
        migrations.RemoveIndex(
            model_name="game",
            name="games_game_daily_playing",
        ),
        migrations.AddField(
            model_name="game",
            name="held",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="game",
            name="played_as_guest",
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name="game",
            name="mode",
            field=models.CharField(
                choices=[
                    ("daily", "Daily"),
                    ("practice", "Practice"),
                    ("archive", "Archive"),
                    ("guest", "Guest"),
                ],
                max_length=8,
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="session_key",
            field=models.CharField(
                blank=True,
                default="",
                help_text="The guest's session (a practice or guest game with no player yet).",
                max_length=40,
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("mode__in", ["daily", "guest"]), ("status", "playing")),
                fields=["challenge"],
                name="games_game_open_day_playing",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                condition=models.Q(("mode", "guest"), ("player__isnull", True)),
                fields=("session_key", "challenge"),
                name="games_game_one_guest_attempt",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("mode__in", ["daily", "archive"]),
                        ("challenge__isnull", False),
                        ("player__isnull", False),
                    ),
                    models.Q(
                        ("mode", "guest"),
                        ("challenge__isnull", False),
                        models.Q(
                            ("player__isnull", False),
                            models.Q(("session_key", ""), _negated=True),
                            _connector="OR",
                        ),
                    ),
                    models.Q(("mode", "practice"), ("challenge__isnull", True)),
                    _connector="OR",
                ),
                name="games_game_mode_matches_challenge",
            ),
        ),
    ]
