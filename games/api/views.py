"""Thin API views: parse with a serializer, call one service, shape the answer."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.actors import actor_of
from apikit.budgets import OVER_BUDGET, costly_call, remember_caller
from apikit.metrics import count_move
from apikit.parsers import JSONParser
from apikit.schema import BAD_REQUEST, CONFLICT, ERROR, FORBIDDEN, NOT_FOUND
from apikit.throttles import MoveThrottle
from games import daily, services
from games.api.base import GameAPIView
from games.api.direct import direct_move
from games.api.serializers import (
    DailySerializer,
    DailyStartSerializer,
    DealStartSerializer,
    GameSerializer,
    MoveInputSerializer,
    MoveResultSerializer,
    PlySerializer,
    PracticeGameSummarySerializer,
    PracticeStartSerializer,
    ReplaySerializer,
    ResignAnswerSerializer,
    StartGameSerializer,
    move_answer,
)
from games.models import DailyChallenge, Mode


class DailyView(GameAPIView):
    @extend_schema(
        responses={200: DailySerializer},
        summary="Today's challenges: tiers, played, won and guests so far, your game if any",
        tags=["daily"],
    )
    def get(self, request: Request) -> Response:
        overview = daily.todays_challenges(request.user, request.session.session_key or "")
        opened = DailyChallenge.of_day(overview.date - dt.timedelta(days=1))
        data = DailySerializer(
            {"date": overview.date, "challenges": overview.challenges, "opened": opened},
            context={"own_games": overview.own_games},
        ).data
        return Response(data)


RECENT_PRACTICE_GAMES = 20


class GameListView(GameAPIView):
    @extend_schema(
        responses={200: PracticeGameSummarySerializer(many=True)},
        summary="Your recent practice games, newest first (the last 20)",
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        games = services.recent_practice_games(actor_of(request), RECENT_PRACTICE_GAMES)
        return Response(PracticeGameSummarySerializer(games, many=True).data)

    @extend_schema(
        # JSON only: the server also reads a form, where DRF takes an empty field as left
        # out and any text for a boolean, which one schema for both could not say.
        request={
            "application/json": PolymorphicProxySerializer(
                component_name="StartGame",
                serializers=[DailyStartSerializer, DealStartSerializer, PracticeStartSerializer],
                resource_type_field_name=None,  # told apart by which of the three keys is sent
            )
        },
        responses={
            201: GameSerializer,
            200: OpenApiResponse(
                GameSerializer,
                description="Your existing game of today's challenge (a guest's: its "
                "session's, `guest` true).",
            ),
            400: BAD_REQUEST,
            403: FORBIDDEN,
            404: OpenApiResponse(ERROR, description="Today's challenge is not ready yet."),
            429: OVER_BUDGET,
            503: OpenApiResponse(
                ERROR,
                description="The database is unavailable, or (practice tier) no pooled deal "
                "you have not played is ready yet: more are being prepared; wait "
                "Retry-After seconds (also `retry_after` in the body).",
            ),
        },
        parameters=[
            OpenApiParameter(
                "Retry-After",
                int,
                OpenApiParameter.HEADER,
                response=[429, 503],
                description="Seconds to wait before asking again.",
            )
        ],
        summary="Start a game: today's challenge (a guest's is unranked), a practice deal, "
        "or a practice tier",
        tags=["games"],
    )
    def post(self, request: Request) -> Response:
        serializer = StartGameSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if "daily" in data and request.user.is_authenticated:
            game, created = services.start_daily_game(actor_of(request), data["daily"])
        elif "daily" in data:
            # A guest's game is a free scout of the day's deal: budgeted (before a session
            # is made for it), so that a script dropping its cookies cannot farm them.
            with costly_call(request, "guest_dailies"):
                actor = actor_of(request, create_session=True)
                game, created = services.start_daily_game(actor, data["daily"])
        else:
            actor = actor_of(request, create_session=True)  # the guest's budget is its session's
            # A practice game opens the way to hints and an analysis, so starting one is
            # budgeted; a ranked start is not: there is one a day and tier.
            # no pooled deal ready yet (503) is no game: the polite client asks again after
            # Retry-After, and those tries must not spend the player's count of new games
            with costly_call(request, "games", not_counted_on=(services.PoolExhausted,)):
                if "practice" in data:
                    tier, variant = data["practice"], data["variant"]
                    game = services.start_pooled_practice_game(
                        actor, tier, variant, takeback=data["takeback"]
                    )
                else:
                    game = services.start_practice_game(
                        actor, data["deal"], data["variant"], takeback=data["takeback"]
                    )
            remember_caller(request, game.pk)  # its analysis is charged to them
            created = True
        return Response(
            GameSerializer(game).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class GameDetailView(GameAPIView):
    @extend_schema(
        responses={200: GameSerializer, 404: NOT_FOUND},
        summary="A game: masked position, score, status, ply",
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = services.get_game_for(actor_of(request), game_id)
        return Response(GameSerializer(game).data)


class MoveView(GameAPIView):
    throttle_classes = [MoveThrottle]
    # The hot path speaks JSON only: no content negotiation with the browsable API.
    parser_classes = [JSONParser]
    renderer_classes = [JSONRenderer]

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        """DRF's view behind the direct path for well-formed moves (games/api/direct.py)."""
        drf_view = super().as_view(**initkwargs)

        @csrf_exempt  # the direct path checks CSRF itself, as DRF's view does
        def view(request: HttpRequest, game_id: int) -> HttpResponseBase:
            answer = direct_move(request, game_id)
            if answer is None:
                answer = drf_view(request, game_id=game_id)
            count_move(answer)  # both paths: accepted, or refused and why (/metrics)
            return answer

        # what DRF's as_view records, for URL introspection and the OpenAPI schema
        for name in ("cls", "initkwargs", "login_required"):
            setattr(view, name, getattr(drf_view, name))
        return view

    @extend_schema(
        request=MoveInputSerializer,
        responses={
            200: MoveResultSerializer,
            400: BAD_REQUEST,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: OpenApiResponse(
                CONFLICT,
                description="Stale or repeated ply, game over, or a daily whose day closed "
                "(00:00 UTC): the game then ends unfinished.",
            ),
        },
        summary="Play a move (checked by the server, then logged)",
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        serializer = MoveInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = services.play_move(
            actor_of(request),
            game_id,
            serializer.validated_data["ply"],
            serializer.validated_data["move"],
        )
        return Response(move_answer(result))


class UndoView(GameAPIView):
    @extend_schema(
        request=PlySerializer,
        responses={
            200: GameSerializer,
            400: BAD_REQUEST,
            403: OpenApiResponse(ERROR, description="Ranked games cannot undo."),
            404: NOT_FOUND,
            409: OpenApiResponse(CONFLICT, description="Stale ply, nothing to undo, game over."),
        },
        summary="Take back the last move (practice only)",
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        serializer = PlySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = services.undo_move(actor_of(request), game_id, serializer.validated_data["ply"])
        return Response(GameSerializer(game).data)


class ResignView(GameAPIView):
    @extend_schema(
        request=None,
        responses={
            200: ResignAnswerSerializer,
            404: NOT_FOUND,
            409: OpenApiResponse(
                CONFLICT,
                description="The game is already over, or it is a daily whose day closed.",
            ),
        },
        summary="Resign a game in progress",
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = services.resign_game(actor_of(request), game_id)
        receipt = services.receipt_at_the_end(game.pk) if game.mode == Mode.DAILY else None
        return Response(ResignAnswerSerializer(game, context={"receipt": receipt}).data)


class ReplayView(GameAPIView):
    @extend_schema(
        responses={
            200: ReplaySerializer,
            404: NOT_FOUND,
            409: OpenApiResponse(CONFLICT, description="Your game is still in progress."),
        },
        summary="A game's move log: your finished game, or any daily once its day closed",
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = services.get_replay_for(actor_of(request), game_id)
        return Response(ReplaySerializer(game).data)
