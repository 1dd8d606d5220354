"""Moderation owns league reports: the model ``social.LeagueReport`` becomes
``moderation.LeagueReport`` with every row kept (no SQL but a table's rename). The state
takes the model over on its old table, the table is renamed, and the content type moves,
so the moderator group's view permission and the admin's history go with it."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def move_content_type(apps, schema_editor, source="social", target="moderation"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    types = ContentType.objects.using(db)
    if types.filter(app_label=target, model="leaguereport").exists():
        return  # made already (post_migrate ran with the model in its new place)
    types.filter(app_label=source, model="leaguereport").update(app_label=target)


def move_content_type_back(apps, schema_editor):
    move_content_type(apps, schema_editor, source="moderation", target="social")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("moderation", "0007_game_origin"),
        ("social", "0002_league_reports_to_moderation"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="LeagueReport",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("reason", models.TextField()),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("open", "Open"),
                                    ("dismissed", "Dismissed"),
                                    ("actioned", "Actioned"),
                                ],
                                default="open",
                                max_length=10,
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("handled_at", models.DateTimeField(blank=True, null=True)),
                        ("resolution", models.TextField(blank=True, default="")),
                        ("reported_name", models.CharField(max_length=40)),
                        (
                            "handled_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "league",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="reports",
                                to="social.league",
                            ),
                        ),
                        (
                            "reporter",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="%(class)ss_filed",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["-created_at"],
                        "abstract": False,
                        "db_table": "social_leaguereport",
                        "indexes": [
                            models.Index(
                                fields=["status", "created_at"], name="social_report_queue"
                            )
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("league", "reporter"), name="social_league_report_once"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        # table=None: the default name, moderation_leaguereport (renamed in the database)
        migrations.AlterModelTable(name="leaguereport", table=None),
        migrations.RunPython(move_content_type, move_content_type_back),
        # both kinds of report share their fields (moderation.models.AbstractReport): the
        # reporter's reverse name is made from the class, "reports_filed" as before
        migrations.AlterField(
            model_name="report",
            name="reporter",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="%(class)ss_filed",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
