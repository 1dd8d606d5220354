"""A commitment (games/commitment.py) for every daily challenge.

Challenges published before this migration get a fresh salt and their commitment here,
once: their commitments are public only from now on, so for days already closed they
prove nothing about when the deal was fixed (docs/fair-play.md says so). Doing it here
rather than at first read keeps one rule for every row (the check constraint below) and
fixes each value once, in one place.
"""

from typing import Any

from django.db import migrations, models

from games.commitment import Opening, new_salt


def commit_existing_challenges(apps: Any, schema_editor: Any) -> None:
    challenge_model = apps.get_model("games", "DailyChallenge")
    for challenge in challenge_model.objects.select_related("deal").filter(commitment=""):
        deal = challenge.deal
        challenge.salt = new_salt()
        challenge.commitment = Opening(
            challenge.date.isoformat(), challenge.tier, deal.variant, deal.algorithm_version,
            deal.number, challenge.salt,
        ).commitment()
        challenge.save(update_fields=["salt", "commitment"])


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='dailychallenge',
            name='commitment',
            field=models.CharField(default='', editable=False, max_length=64),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='dailychallenge',
            name='salt',
            field=models.CharField(default='', editable=False, max_length=128),
            preserve_default=False,
        ),
        migrations.RunPython(commit_existing_challenges, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='dailychallenge',
            constraint=models.CheckConstraint(condition=models.Q(('commitment__regex', '^[0-9a-f]{64}$'), ('salt__regex', '^[0-9a-f]{32,128}$')), name='games_challenge_committed'),
        ),
    ]
