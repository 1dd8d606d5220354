"""API views of the coach and the analysis: thin, like games.api.views."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from analysis import coach, services
from analysis.serializers import AnalysisSerializer, HintSerializer, WinnableSerializer
from apikit.actors import actor_of
from apikit.budgets import OVER_BUDGET, RETRY_AFTER_ON_429, costly_call, over_budget_or
from apikit.schema import CONFLICT, ERROR, NOT_FOUND
from apikit.views import BaseAPIView

BUSY = over_budget_or("The coach is still answering your last question.")
OVER = OpenApiResponse(CONFLICT, description="The game is over: see its analysis.")


def _answer(coached: coach.CoachAnswer, *, hint: bool) -> dict[str, object]:
    body: dict[str, object] = {
        "verdict": coached.verdict,
        "ply": coached.ply,
        "hints_used": coached.hints_used,
        "assisted": True,
    }
    if hint:
        body["move"] = coached.move
    return body


class HintView(BaseAPIView):
    @extend_schema(
        responses={
            200: HintSerializer,
            403: OpenApiResponse(ERROR, description="Ranked daily games get no hints."),
            404: NOT_FOUND,
            409: OVER,
            429: BUSY,
        },
        parameters=[RETRY_AFTER_ON_429],
        summary="Practice: the next move of a winning line from the current position",
        description="The solver (about 2 s) from the game's current position. Counts in "
        "hints_used; the game is then assisted. move is null unless verdict is solved. "
        "Budgeted: hints, and the solver's time, per player and per address.",
        tags=["coach"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        with costly_call(request, "hints", hold_seconds=settings.HINT_SECONDS):
            coached = coach.ask_coach(actor_of(request), game_id, hint=True)
        return Response(_answer(coached, hint=True))


class WinnableView(BaseAPIView):
    @extend_schema(
        responses={
            200: WinnableSerializer,
            403: OpenApiResponse(ERROR, description="Ranked daily games get no help."),
            404: NOT_FOUND,
            409: OVER,
            429: BUSY,
        },
        parameters=[RETRY_AFTER_ON_429],
        summary="Practice: is this game still winnable? solved, unwinnable or unknown",
        description="Like a hint without the move; it counts in hints_used too. Budgeted "
        "like a hint, with a count of its own.",
        tags=["coach"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        with costly_call(request, "winnable", hold_seconds=settings.HINT_SECONDS):
            coached = coach.ask_coach(actor_of(request), game_id, hint=False)
        return Response(_answer(coached, hint=False))


class AnalysisView(BaseAPIView):
    @extend_schema(
        responses={
            200: AnalysisSerializer,
            403: OpenApiResponse(ERROR, description="A daily game before its day closes."),
            404: NOT_FOUND,
            409: OpenApiResponse(CONFLICT, description="Your game is still in progress."),
            429: OVER_BUDGET,
        },
        parameters=[RETRY_AFTER_ON_429],
        summary="Where a finished game stopped being winnable, with a winning continuation",
        description="Practice games: at once (status pending while it is computed). Daily "
        "games: once their UTC day has closed, since the continuation shows the deal. "
        "Budgeted: requests, and the solver's time an analysis run here spends.",
        tags=["coach"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        # Without a worker (the embedded default) a missing analysis runs right here, on
        # the caller's solver budget; with one it runs once per game in the queue.
        with costly_call(request, "analysis"):
            analysis = services.analysis_for(actor_of(request), game_id)
        return Response(AnalysisSerializer(analysis).data)
