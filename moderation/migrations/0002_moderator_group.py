"""The ``moderator`` group: staff in it see and use the moderation tools, nothing more."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

MODERATOR_PERMISSIONS = [
    ("games", "view_game"),
    ("games", "view_move"),
    ("games", "view_deal"),
    ("games", "view_dailychallenge"),
    ("moderation", "view_flag"),
    ("moderation", "view_report"),
    ("moderation", "view_auditlog"),
    ("moderation", "view_dayvoid"),
    ("moderation", "view_ban"),
    ("moderation", "view_player"),
    ("moderation", "moderate_games"),
    ("moderation", "ban_players"),
]


def create_group(apps, schema_editor):
    # Permissions are normally made after all migrations ran; make them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="moderator")
    for app_label, codename in MODERATOR_PERMISSIONS:
        permission = Permission.objects.get(content_type__app_label=app_label, codename=codename)
        group.permissions.add(permission)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="moderator").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("games", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
