"""Moderation records: automatic flags, player reports (of games and of league names),
bans, voided days, the audit log.

Moderation decides through ``moderation.services``, which changes games and players only
through their apps' services; every decision writes one ``AuditLog`` row, which can never
be edited or deleted afterwards.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from social.models import LEAGUE_NAME_MAX_LENGTH


class FlagKind(models.TextChoices):
    # Translated: a disqualified player's notice lists the checks that saw their game.
    FAST_MOVES = "fast_moves", _("Moves faster than a human")
    EVEN_PACING = "even_pacing", _("Suspiciously even pacing")
    FAST_FINISH = "fast_finish", _("Finished faster than the solver's line allows")
    FAST_REACTION = "fast_reaction", _("Used a card faster than anyone can see it")
    FLAT_TIMING = "flat_timing", _("Timing that ignores the position")
    SOLVER_LINE = "solver_line", _("Followed the solver's stored line")
    SOLVER_MOVES = "solver_moves", _("Played the solver's move, position after position")
    PERFECT_FIRST_TRY = "perfect_first_try", _("New player's perfect game on a hard deal")
    SHARED_ADDRESS = "shared_address", _("Several accounts from one address")
    LINKED_ACCOUNTS = "linked_accounts", _("Played after linked accounts turned its cards")
    CLAIRVOYANCE = "clairvoyance", _("Kept the win where the face-up cards mislead")
    SOLVER_CONSULTED = (
        "solver_consulted",
        _("Played the solver's move more than its style explains"),
    )
    GUEST_LINKED = "guest_linked", _("A new account's result linked to a guest's game: held")


class FlagStatus(models.TextChoices):
    OPEN = "open"
    CLEARED = "cleared"  # a moderator looked and found nothing wrong
    UPHELD = "upheld"  # the game was disqualified (or its player banned)


class Flag(models.Model):
    """An automatic suspicion about one verified game; the game stays on the board meanwhile."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="flags")
    kind = models.CharField(max_length=20, choices=FlagKind.choices)
    reason = models.TextField(help_text="What was measured, in words.")
    measured = models.JSONField(default=dict, help_text="The numbers behind the reason.")
    thresholds = models.JSONField(default=dict, help_text="The settings in force when raised.")
    status = models.CharField(max_length=8, choices=FlagStatus.choices, default=FlagStatus.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    resolution = models.TextField(blank=True, default="")
    # Triage (moderation.triage): what the flagged result affects, as an order for the queue
    # and in words. Null until triaged: the queue lists such a flag first, to be safe.
    priority = models.SmallIntegerField(null=True, blank=True)
    priority_reason = models.CharField(max_length=200, blank=True, default="")
    # The result's place on its board when triaged (1 + the results better than it); null
    # when it is on no board.
    board_rank = models.PositiveIntegerField(null=True, blank=True)
    # The UTC day it was triaged on: a flag triaged while its day was open is triaged again
    # once the day has closed (``triage.triage_stale``).
    triaged_on = models.DateField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "kind"], name="moderation_flag_one_per_kind"),
        ]
        indexes = [
            models.Index(fields=["status", "created_at"], name="moderation_flag_queue"),
            models.Index(fields=["status", "-priority"], name="moderation_flag_priority"),
        ]
        ordering = ["-created_at"]
        permissions = [
            ("moderate_games", "Can clear flags, disqualify games and void days"),
            ("ban_players", "Can ban and unban players"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} on game {self.game_id} ({self.status})"


class ReportStatus(models.TextChoices):
    OPEN = "open"
    DISMISSED = "dismissed"
    ACTIONED = "actioned"  # the game disqualified, or the league renamed or closed


class AbstractReport(models.Model):
    """A player's report, with their reason: it waits in the moderators' queue until one
    dismisses it or acts on what it names (``moderation.services`` files and settles
    every kind alike)."""

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="%(class)ss_filed"
    )
    reason = models.TextField()
    status = models.CharField(
        max_length=10, choices=ReportStatus.choices, default=ReportStatus.OPEN
    )
    created_at = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    resolution = models.TextField(blank=True, default="")

    class Meta:
        abstract = True
        ordering = ["-created_at"]


class Report(AbstractReport):
    """A player's report of a game they can replay."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="reports")

    class Meta(AbstractReport.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["game", "reporter"], name="moderation_report_one_per_player"
            ),
        ]
        indexes = [
            models.Index(fields=["status", "created_at"], name="moderation_report_queue"),
            # The rate limit counts a reporter's recent reports.
            models.Index(fields=["reporter", "created_at"], name="moderation_report_recent"),
        ]

    def __str__(self) -> str:
        return f"report of game {self.game_id} by {self.reporter_id} ({self.status})"


class LeagueReport(AbstractReport):
    """A member's (or an invitee's) report of a league's name."""

    league = models.ForeignKey("social.League", on_delete=models.CASCADE, related_name="reports")
    # The name as reported: a rename later does not rewrite what was reported.
    reported_name = models.CharField(max_length=LEAGUE_NAME_MAX_LENGTH)

    class Meta(AbstractReport.Meta):
        # The names are those it had in the social app, where it began (migration 0008).
        constraints = [
            models.UniqueConstraint(
                fields=["league", "reporter"], name="social_league_report_once"
            ),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="social_report_queue")]

    def __str__(self) -> str:
        return f"report of league {self.league_id} by {self.reporter_id} ({self.status})"


class Ban(models.Model):
    """A ban of a player; ``lifted_at`` is set when it ends. At most one is in force."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bans"
    )
    reason = models.TextField()
    banned_at = models.DateTimeField(auto_now_add=True)
    banned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    lift_reason = models.TextField(blank=True, default="")
    # The ranked results this ban took off the boards (disqualified): they stay off after
    # an unban until a moderator restores them (``restore_ban_results``), and only these
    # come back; a game a moderator disqualified on its own stays out.
    disqualified_games = models.ManyToManyField(
        "games.Game",
        blank=True,
        related_name="+",
        help_text="Ranked results disqualified by this ban and not restored yet.",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(lifted_at__isnull=True),
                name="moderation_ban_one_in_force",
            ),
        ]
        ordering = ["-banned_at"]

    def __str__(self) -> str:
        state = "lifted" if self.lifted_at else "in force"
        return f"ban of {self.player_id} ({state})"


class DayVoid(models.Model):
    """A daily board voided as a whole: its games were disqualified, the board says why."""

    challenge = models.OneToOneField(
        "games.DailyChallenge", on_delete=models.CASCADE, related_name="void"
    )
    reason = models.TextField()
    voided_at = models.DateTimeField(auto_now_add=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["-voided_at"]

    def __str__(self) -> str:
        return f"void of {self.challenge}"


class GameOrigin(models.Model):
    """Where a daily or archive game was started from: the evidence that links accounts.

    Kept ``MODERATION_ORIGIN_DAYS`` days (``purge_origins``), shown in the player's data
    export (docs/fair-play.md, "Linked accounts").
    """

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, primary_key=True, related_name="origin"
    )
    address = models.GenericIPAddressField()
    # The address's network: /24 for IPv4, /56 for IPv6 (one household, office or phone).
    network = models.CharField(max_length=43)
    # The browser's device cookie (moderation.middleware); blank when it sent none and
    # refused the new one.
    device = models.CharField(max_length=32, blank=True, default="")
    user_agent = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["address"], name="moderation_gameaddress_addr"),
            models.Index(fields=["network"], name="moderation_origin_network"),
            models.Index(fields=["device"], name="moderation_origin_device"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} from {self.network}"


class AuditAction(models.TextChoices):
    CLEAR_FLAG = "clear_flag", "Cleared a flag"
    DISQUALIFY = "disqualify", "Disqualified a game"
    REQUALIFY = "requalify", "Put a game back"
    BAN = "ban", "Banned a player"
    UNBAN = "unban", "Unbanned a player"
    END_GAME = "end_game", "Ended a game in progress"
    RESTORE_RESULTS = "restore_results", "Restored the results a ban took"
    VOID_DAY = "void_day", "Voided a day's board"
    DISMISS_REPORT = "dismiss_report", "Dismissed a report"
    RENAME_LEAGUE = "rename_league", "Renamed a league"
    CLOSE_LEAGUE = "close_league", "Closed a league"
    CONFIRM_RESULT = "confirm_result", "Confirmed a provisional result"
    APPEAL = "appeal", "A player appealed a disqualification"
    UPHOLD_APPEAL = "uphold_appeal", "Upheld a disqualification on appeal"
    REINSTATE = "reinstate", "Reinstated a result on appeal"


class AuditLogQuerySet(models.QuerySet["AuditLog"]):
    """Bulk update and delete are refused: the log only grows."""

    def update(self, **kwargs: Any) -> int:
        raise PermissionError("the audit log is append-only: rows are never updated")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise PermissionError("the audit log is append-only: rows are never deleted")


class AuditLog(models.Model):
    """Who did what to which target, when and why. Append-only: rows are never changed."""

    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    actor_name = models.CharField(max_length=150, help_text="The moderator's username then.")
    action = models.CharField(max_length=16, choices=AuditAction.choices)
    target_type = models.CharField(max_length=40)  # e.g. "games.game", "accounts.user"
    target_id = models.CharField(max_length=40)
    target_repr = models.CharField(max_length=200)
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AuditLogQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["target_type", "target_id"], name="moderation_audit_target"),
        ]

    def __str__(self) -> str:
        return f"{self.actor_name} {self.action} {self.target_repr}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise PermissionError("the audit log is append-only: a stored row is never changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise PermissionError("the audit log is append-only: rows are never deleted")


class Player(User):
    """Players as moderators see them in the admin: bans and their reasons."""

    class Meta:
        proxy = True
        verbose_name = "player"


class ChoiceEvidence(models.Model):
    """What a medium or hard game's choices say about its player
    (``moderation.clairvoyance.Evidence``), kept so that the player's record is judged
    without solving their earlier games again. Derived from the game's log alone."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, primary_key=True, related_name="choice_evidence"
    )
    # per masked player (moderation.clairvoyance.MASKED_PLAYERS), log10 chances
    style = models.JSONField()
    kept = models.JSONField()
    decisions = models.PositiveSmallIntegerField()
    lost = models.BooleanField()
    consulting = models.JSONField()  # per consulted share, per masked player
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"choices of game {self.game_id}"


class NoticeKind(models.TextChoices):
    DISQUALIFIED = "disqualified", "A result taken off the boards"
    BANNED = "banned", "The account banned"
    REINSTATED = "reinstated", "A result put back on the boards"
    APPEAL_REFUSED = "appeal_refused", "An appeal turned down"


class Notice(models.Model):
    """What the moderators decided about a player, told in plain words: shown on the
    player's own page (``GET /api/moderation/notices/``) and mailed once the decision has
    committed. In the player's data download; deleted with the account."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="moderation_notices"
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(max_length=16, choices=NoticeKind.choices)
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["player", "-created_at"], name="moderation_notice_player")]

    def __str__(self) -> str:
        return f"notice to {self.player_id}: {self.kind}"


class AppealStatus(models.TextChoices):
    OPEN = "open"
    UPHELD = "upheld"  # the disqualification stands
    REINSTATED = "reinstated"  # the result is back on its board


class Appeal(models.Model):
    """A player's one appeal of a disqualified game: it waits at the head of the queue
    until a moderator upholds the decision or reinstates the result."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="appeal")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="appeals"
    )
    reason = models.TextField(help_text="Why the player thinks the decision is wrong.")
    status = models.CharField(
        max_length=10, choices=AppealStatus.choices, default=AppealStatus.OPEN
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    decision = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["created_at"]
        indexes = [
            models.Index(fields=["status", "created_at"], name="moderation_appeal_queue"),
            # The rate limit counts a player's recent appeals.
            models.Index(fields=["player", "created_at"], name="moderation_appeal_recent"),
        ]

    def __str__(self) -> str:
        return f"appeal of game {self.game_id} ({self.status})"
