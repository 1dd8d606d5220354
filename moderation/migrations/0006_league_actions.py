"""League names in the moderators' queue: two audited actions, and the moderator group
sees leagues and their reports."""

from django.contrib.auth.management import create_permissions
from django.db import migrations, models

PERMISSIONS = [("social", "view_league"), ("social", "view_leaguereport")]


def grant(apps, schema_editor):
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="moderator")
    for app_label, codename in PERMISSIONS:
        group.permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for group in Group.objects.filter(name="moderator"):
        group.permissions.remove(
            *Permission.objects.filter(
                content_type__app_label="social", codename__in=[c for _, c in PERMISSIONS]
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0005_ban_reason_on_user"),
        ("social", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="auditlog",
            name="action",
            field=models.CharField(
                choices=[
                    ("clear_flag", "Cleared a flag"),
                    ("disqualify", "Disqualified a game"),
                    ("requalify", "Put a game back"),
                    ("ban", "Banned a player"),
                    ("unban", "Unbanned a player"),
                    ("end_game", "Ended a game in progress"),
                    ("restore_results", "Restored the results a ban took"),
                    ("void_day", "Voided a day's board"),
                    ("dismiss_report", "Dismissed a report"),
                    ("rename_league", "Renamed a league"),
                    ("close_league", "Closed a league"),
                ],
                max_length=16,
            ),
        ),
        migrations.RunPython(grant, revoke),
    ]
