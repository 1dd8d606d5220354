"""What the solver found about finished games (analysis) and about numbered deals (odds).

The analysis app reads the games app and never the reverse: it learns of finished games
through the ``game_verified`` signal and a periodic sweeper.
"""

from __future__ import annotations

from django.db import models

from games.fields import UInt64Field
from games.models import VARIANT_CHOICES, Game, Verdict
from yukon.engine import DEAL_ALGORITHM_VERSION


class AnalysisStatus(models.TextChoices):
    PENDING = "pending"
    DONE = "done"
    # waiting for the solver budgets of whoever started the practice game (docs/api.md)
    DEFERRED = "deferred"


class Outcome(models.TextChoices):
    WON = "won"  # the player won: winnable all along
    WINNABLE_AT_END = "winnable_at_end"  # resigned or abandoned while a win remained
    LOST_AT = "lost_at"  # one named move threw the win away
    NEVER_WINNABLE = "never_winnable"  # the deal itself is lost
    UNDECIDED = "undecided"  # the budget ran out before the losing move was pinned down


class GameAnalysis(models.Model):
    """Where a finished game stopped being winnable. Positions are counted in standing moves:
    position k is the one after the player's first k moves (undone moves left out)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(
        max_length=8, choices=AnalysisStatus.choices, default=AnalysisStatus.PENDING
    )
    outcome = models.CharField(max_length=16, choices=Outcome.choices, blank=True, default="")
    moves = models.PositiveIntegerField(default=0, help_text="Standing moves of the game.")
    last_winnable = models.PositiveIntegerField(
        null=True, blank=True, help_text="The last position proven winnable (moves played)."
    )
    first_lost = models.PositiveIntegerField(
        null=True, blank=True, help_text="The first position proven lost (moves played)."
    )
    lost_move = models.CharField(
        max_length=8, blank=True, default="", help_text="The move that lost the game."
    )
    lost_ply = models.PositiveIntegerField(
        null=True, blank=True, help_text="Log ply of the losing move, when it is known."
    )
    continuation = models.JSONField(
        default=list, blank=True, help_text="A winning line from the last winnable position."
    )
    par = models.PositiveIntegerField(
        null=True, blank=True, help_text="Length of the solver's line from the deal."
    )
    solves = models.PositiveIntegerField(default=0)
    nodes = models.BigIntegerField(default=0)
    seconds = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "game analyses"
        indexes = [
            # The sweeper: analyses left pending (a lost task message).
            models.Index(
                fields=["updated_at"],
                condition=models.Q(status="pending"),
                name="analysis_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} ({self.status} {self.outcome})"


class DealStudy(models.Model):
    """One deal of the odds study: the solver's verdict within a budget."""

    variant = models.CharField(max_length=16, choices=VARIANT_CHOICES)
    number = UInt64Field()
    algorithm_version = models.PositiveSmallIntegerField(default=DEAL_ALGORITHM_VERSION)
    verdict = models.CharField(max_length=12, choices=Verdict.choices)
    seconds = models.FloatField()
    nodes = models.BigIntegerField()
    line_length = models.PositiveIntegerField(null=True, blank=True)
    budget_seconds = models.FloatField(help_text="The time budget the solver had.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["variant", "number", "algorithm_version"], name="analysis_study_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.variant} #{self.number}: {self.verdict}"
