"""A ban is a field: each player banned now gets the reason of their ban in force on
``accounts.User.ban_reason``, which the ban service writes from now on."""

from typing import Any

from django.db import migrations


def copy_reasons(apps: Any, schema_editor: Any) -> None:
    Ban = apps.get_model("moderation", "Ban")
    User = apps.get_model("accounts", "User")
    in_force = Ban.objects.filter(lifted_at__isnull=True, player__is_banned=True).order_by("pk")
    told: dict[int, str] = {}
    for player_id, reason in in_force.values_list("player_id", "reason"):
        told.setdefault(player_id, reason)  # the oldest ban in force, if ever two
    for player_id, reason in told.items():
        User.objects.filter(pk=player_id).update(ban_reason=reason)


def clear_reasons(apps: Any, schema_editor: Any) -> None:
    apps.get_model("accounts", "User").objects.update(ban_reason="")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_user_ban_reason"),
        ("moderation", "0004_flag_kinds_for_bots"),
    ]

    operations = [migrations.RunPython(copy_reasons, clear_reasons)]
