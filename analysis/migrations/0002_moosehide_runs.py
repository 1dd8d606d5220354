"""The odds study's Moosehide rows were solved under Moosehide's rules version 1, which is
now ``moosehide-runs`` (games 0004): they move there, so a new study of ``moosehide``
starts afresh instead of resuming from verdicts of the old rules."""

from django.db import migrations, models


def to_moosehide_runs(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("analysis", "DealStudy").objects.filter(variant="moosehide").update(
        variant="moosehide-runs"
    )


def back_to_moosehide(apps, schema_editor):  # type: ignore[no-untyped-def]
    DealStudy = apps.get_model("analysis", "DealStudy")
    DealStudy.objects.filter(variant="moosehide").delete()  # studied under the new rules
    DealStudy.objects.filter(variant="moosehide-runs").update(variant="moosehide")


class Migration(migrations.Migration):
    dependencies = [
        ("analysis", "0001_initial"),
        ("games", "0004_variant_rules_version"),
    ]

    operations = [
        migrations.AlterField(
            model_name="dealstudy",
            name="variant",
            field=models.CharField(
                choices=[
                    ("yukon", "Yukon"),
                    ("russian", "Russian"),
                    ("alaska", "Alaska"),
                    ("moosehide", "Moosehide"),
                    ("moosehide-runs", "Moosehide-Runs"),
                ],
                max_length=16,
            ),
        ),
        migrations.RunPython(to_moosehide_runs, back_to_moosehide),
    ]
