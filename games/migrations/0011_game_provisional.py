"""A new account's ranked result is provisional until the close check confirms it."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_receipt"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="provisional",
            field=models.BooleanField(default=False),
        ),
    ]
