"""The guest_linked flag: a new account's result linked to a guest's game, held."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0009_choice_evidence"),
    ]

    operations = [
        migrations.AlterField(
            model_name="flag",
            name="kind",
            field=models.CharField(
                choices=[
                    ("fast_moves", "Moves faster than a human"),
                    ("even_pacing", "Suspiciously even pacing"),
                    ("fast_finish", "Finished faster than the solver's line allows"),
                    ("fast_reaction", "Used a card faster than anyone can see it"),
                    ("flat_timing", "Timing that ignores the position"),
                    ("solver_line", "Followed the solver's stored line"),
                    ("solver_moves", "Played the solver's move, position after position"),
                    ("perfect_first_try", "New player's perfect game on a hard deal"),
                    ("shared_address", "Several accounts from one address"),
                    ("linked_accounts", "Played after linked accounts turned its cards"),
                    ("clairvoyance", "Kept the win where the face-up cards mislead"),
                    ("solver_consulted", "Played the solver's move more than its style explains"),
                    ("guest_linked", "A new account's result linked to a guest's game: held"),
                ],
                max_length=20,
            ),
        ),
    ]
