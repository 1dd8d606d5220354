"""Who plays with whom: leagues (private, joined by an invite link) and follows.

Only ``social.services`` changes these rows. A league is private: its name, members
and boards are shown to its members alone (and its name to whoever holds the invite).
Reports of a league's name are moderation's (``moderation.models.LeagueReport``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

LEAGUE_NAME_MAX_LENGTH = 40


class League(models.Model):
    name = models.CharField(max_length=LEAGUE_NAME_MAX_LENGTH)
    # What the name looks like (accounts/skeleton.py): no two open leagues look alike.
    name_key = models.TextField(db_index=True, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="leagues_owned"
    )
    # The invite link's secret: 192 random bits (secrets.token_urlsafe(24)); replaced by
    # the owner at will, after which the old link joins nobody.
    invite_token = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set by moderation (or when its last member leaves): a closed league shows to nobody.
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_reason = models.TextField(blank=True, default="")

    class Meta:
        indexes = [models.Index(fields=["owner"], name="social_league_owner")]

    def __str__(self) -> str:
        return f"league {self.pk} {self.name!r}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class Membership(models.Model):
    """A player in a league. A member the owner removed keeps a row with ``removed_at``:
    the invite link lets them back only if the owner takes them back (they may not rejoin)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="social_membership_once"),
        ]
        indexes = [
            models.Index(
                fields=["player"], condition=Q(removed_at__isnull=True), name="social_member_of"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.league_id}"


class Follow(models.Model):
    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="social_follow_once"),
            models.CheckConstraint(
                condition=~Q(follower=F("followed")), name="social_follow_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"
