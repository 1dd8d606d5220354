"""Shapes of the coach's answers and of a game's analysis."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from analysis.models import AnalysisStatus, GameAnalysis, Outcome

VERDICTS = ("solved", "unwinnable", "unknown")


class HintSerializer(serializers.Serializer):
    verdict = serializers.ChoiceField(
        choices=VERDICTS,
        help_text="solved: a win exists (move is its next move); unwinnable: proven lost "
        "from here; unknown: no win found within the time budget.",
    )
    move = serializers.CharField(
        allow_null=True, help_text="The next move of a winning line ('8s>3'), else null."
    )
    ply = serializers.IntegerField(help_text="The game's ply the answer is about.")
    hints_used = serializers.IntegerField(help_text="Questions asked to the coach so far.")
    assisted = serializers.BooleanField(help_text="Always true once the coach was asked.")


class WinnableSerializer(serializers.Serializer):
    verdict = serializers.ChoiceField(
        choices=VERDICTS,
        help_text="solved: a win still exists; unwinnable: proven lost from here; unknown: "
        "no win found within the time budget.",
    )
    ply = serializers.IntegerField(help_text="The game's ply the answer is about.")
    hints_used = serializers.IntegerField(help_text="Questions asked to the coach so far.")
    assisted = serializers.BooleanField(help_text="Always true once the coach was asked.")


class AnalysisSerializer(serializers.ModelSerializer):
    """The analysis of a finished game; positions are counted in standing moves."""

    game = serializers.IntegerField(source="game_id", read_only=True, help_text="The game's id.")
    status = serializers.ChoiceField(
        choices=AnalysisStatus.choices,
        read_only=True,
        help_text="pending: being computed; done; deferred: waiting while the solver budget "
        "of whoever started the practice game is spent (tried again within minutes).",
    )
    outcome = serializers.ChoiceField(
        choices=Outcome.choices,
        allow_blank=True,
        help_text="won; winnable_at_end: resigned or abandoned with a win left; lost_at: one "
        "move threw the win away (losing_move); never_winnable: the deal itself is lost; "
        "undecided: the budget ran out first; blank until done.",
    )
    losing_move = serializers.SerializerMethodField()
    summary = serializers.SerializerMethodField()
    player_moves = serializers.IntegerField(
        source="game.moves", read_only=True, help_text="The moves the player made."
    )

    class Meta:
        model = GameAnalysis
        fields = (
            "game",
            "status",
            "outcome",
            "summary",
            "moves",
            "player_moves",
            "last_winnable",
            "first_lost",
            "losing_move",
            "lost_ply",
            "continuation",
            "par",
            "solves",
            "seconds",
        )
        read_only_fields = fields
        extra_kwargs = {
            "solves": {"help_text": "Solver searches the analysis ran."},
            "seconds": {"help_text": "Seconds the analysis took (wall clock, in the worker)."},
        }

    @extend_schema_field(
        serializers.DictField(
            allow_null=True,
            help_text='{"number": 23, "move": "8s>F", "ply": 25}: the move that lost the game.',
        )
    )
    def get_losing_move(self, analysis: GameAnalysis) -> dict[str, Any] | None:
        if analysis.outcome != Outcome.LOST_AT or analysis.first_lost is None:
            return None
        return {
            "number": analysis.first_lost,
            "move": analysis.lost_move,
            "ply": analysis.lost_ply,
        }

    @extend_schema_field(serializers.CharField(help_text="The analysis in one sentence."))
    def get_summary(self, analysis: GameAnalysis) -> str:
        return summary(analysis)


# A move's text (docs/engine.md): an optional source column, the card (a copy's deck), the
# destination column or F.
MOVE_TEXT = re.compile(r"^(?:\d{1,2}:)?([A2-9TJQK])([cdhs])(?:#[1-4])?>(\d{1,2}|F)$")
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def summary(analysis: GameAnalysis) -> str:
    """One sentence for people, e.g. "Your game was winnable until move 23, the 8♠ home. ..."."""
    if analysis.status == "deferred":
        return _(
            "The analysis waits: your share of the solver's time (or your network address's) "
            "is used up for now. It runs when the share comes back, within the hour."
        )
    if analysis.status != "done":
        return _("The analysis is being computed; it takes a few seconds.")
    outcome = analysis.outcome
    if outcome == Outcome.WON:
        return _("You won: the deal stayed winnable all the way.")
    if outcome == Outcome.NEVER_WINNABLE:
        return _("This deal could not be won: no line wins from the start.")
    if outcome == Outcome.WINNABLE_AT_END:
        return _("The game was still winnable when it ended; here is a line that wins from there.")
    if outcome == Outcome.LOST_AT and analysis.first_lost is not None:
        move = MOVE_TEXT.match(analysis.lost_move)
        if move is None:  # not a move text (never stored): said as it is
            return _(
                "Your game was winnable until move %(number)s: %(move)s. From there, no line wins."
            ) % {"number": analysis.first_lost, "move": analysis.lost_move}
        rank, suit, dest = move.groups()
        fields = {
            "number": analysis.first_lost,
            "card": ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit],
            "column": dest,
        }
        # the move in words, as the coach's hints say it ("the 8♠ onto column 6"), not "8s>6"
        if dest == "F":
            return (
                _(
                    "Your game was winnable until move %(number)s, the %(card)s home. "
                    "From there, no line wins."
                )
                % fields
            )
        return (
            _(
                "Your game was winnable until move %(number)s, the %(card)s onto column "
                "%(column)s. From there, no line wins."
            )
            % fields
        )
    winnable, lost = analysis.last_winnable, analysis.first_lost
    # Each case one whole sentence: the translations word them in their own order.
    if winnable is not None and lost is not None:
        return _(
            "Undecided: the solver ran out of time. Known: still winnable after move "
            "%(winnable)s and lost after move %(lost)s."
        ) % {"winnable": winnable, "lost": lost}
    if winnable is not None:
        return _(
            "Undecided: the solver ran out of time. Known: still winnable after move %(winnable)s."
        ) % {"winnable": winnable}
    if lost is not None:
        return _("Undecided: the solver ran out of time. Known: lost after move %(lost)s.") % {
            "lost": lost
        }
    return _(
        "Undecided: the solver ran out of time. Known: neither winnable nor lost within the budget."
    )
