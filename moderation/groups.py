"""The ``moderator`` group: staff in it see and use the moderation tools, nothing more.

Its migrations made it (0002, 0006; 0008 moved the league reports' permission to
moderation with the model); ``ensure_moderator_group`` keeps it after every
``migrate`` and every flush of the database (a test that empties the tables), so that the
group and its permissions are never missing.
"""

from __future__ import annotations

from typing import Any

MODERATOR_GROUP = "moderator"
MODERATOR_PERMISSIONS = [
    ("games", "view_game"),
    ("games", "view_move"),
    ("games", "view_deal"),
    ("games", "view_dailychallenge"),
    ("moderation", "view_flag"),
    ("moderation", "view_report"),
    ("moderation", "view_leaguereport"),
    ("moderation", "view_auditlog"),
    ("moderation", "view_dayvoid"),
    ("moderation", "view_ban"),
    ("moderation", "view_player"),
    ("moderation", "view_appeal"),
    ("moderation", "view_notice"),
    ("moderation", "moderate_games"),
    ("moderation", "ban_players"),
    ("social", "view_league"),
]


def ensure_moderator_group(using: str = "default", **kwargs: Any) -> None:
    """Receiver of ``post_migrate`` (sent once per app): the group, with each of its
    permissions that exists by now (each app's are made by its own ``post_migrate``)."""
    from django.contrib.auth.models import Group, Permission
    from django.db.models import Q

    group, _ = Group.objects.using(using).get_or_create(name=MODERATOR_GROUP)
    wanted = Q()
    for app_label, codename in MODERATOR_PERMISSIONS:
        wanted |= Q(content_type__app_label=app_label, codename=codename)
    group.permissions.add(*Permission.objects.using(using).filter(wanted))
