"""Variants' rules carry a version, recorded with every deal; Moosehide's rules changed.

``moosehide`` now builds down in any suit but the card's own (rules version 2). Every
deal stored before this migration was made under version 1 of its variant's rules, and
version 1 of ``moosehide`` (only ordered runs move) lives on as ``moosehide-runs``
(``yukon.engine.variants.RETIRED_RULES``). So the old Moosehide deals become
``moosehide-runs`` deals, and their games' position snapshots (the engine's text form,
which names the variant) say so too: they keep replaying, verifying and analysing under
the rules they were played with. The odds study's rows move in analysis 0002.
"""

from django.db import migrations, models
from django.db.models import Value
from django.db.models.functions import Concat, Substr

OLD, NEW = "moosehide", "moosehide-runs"
CHOICES = [
    ("yukon", "Yukon"),
    ("russian", "Russian"),
    ("alaska", "Alaska"),
    ("moosehide", "Moosehide"),
    ("moosehide-runs", "Moosehide-Runs"),
]


def _rename_snapshots(Game, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    # "moosehide .../... KK-9 0 0" and "moosehide+takeback ..." (the variant's key first)
    games = Game.objects.filter(deal__variant=new)
    for sep in (" ", "+"):
        games.filter(position__startswith=old + sep).update(
            position=Concat(Value(new), Substr("position", len(old) + 1))
        )


def to_moosehide_runs(apps, schema_editor):  # type: ignore[no-untyped-def]
    Deal = apps.get_model("games", "Deal")
    Game = apps.get_model("games", "Game")
    Deal.objects.filter(variant=OLD, rules_version=1).update(variant=NEW)
    _rename_snapshots(Game, OLD, NEW)


def back_to_moosehide(apps, schema_editor):  # type: ignore[no-untyped-def]
    Deal = apps.get_model("games", "Deal")
    Game = apps.get_model("games", "Game")
    # Deals of the new rules cannot go back to a schema without a rules version.
    if Deal.objects.filter(variant=OLD).exists():
        raise RuntimeError(
            "games under Moosehide's rules version 2 exist: they cannot be unapplied"
        )
    Deal.objects.filter(variant=NEW).update(variant=OLD)
    games = Game.objects.filter(deal__variant=OLD)
    for sep in (" ", "+"):
        games.filter(position__startswith=NEW + sep).update(
            position=Concat(Value(OLD), Substr("position", len(NEW) + 1))
        )


class Migration(migrations.Migration):
    dependencies = [("games", "0003_abandoned_at_last_move")]

    operations = [
        migrations.AlterField(
            model_name="deal",
            name="variant",
            field=models.CharField(choices=CHOICES, default="yukon", max_length=16),
        ),
        migrations.AddField(
            model_name="deal",
            name="rules_version",
            field=models.PositiveSmallIntegerField(default=1),
            preserve_default=False,
        ),
        migrations.RemoveConstraint(model_name="deal", name="games_deal_unique"),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.UniqueConstraint(
                fields=("number", "variant", "algorithm_version", "rules_version"),
                name="games_deal_unique",
            ),
        ),
        migrations.RunPython(to_moosehide_runs, back_to_moosehide),
    ]
