"""League reports are moderation's now (moderation.0008_league_reports_from_social): the
model leaves the social app's state only; its table and rows stay, and moderation's
migration renames the table and takes the model over."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("social", "0001_initial"),
        # after moderation.0006 has granted the moderators the view permission on the
        # model, which moderation.0008 then carries over with its content type
        ("moderation", "0007_game_origin"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="LeagueReport")],
            database_operations=[],
        ),
    ]
