"""The players' side of moderation: report a game (``POST /api/games/<id>/report/``)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.actors import actor_of
from apikit.schema import ERROR
from apikit.views import BaseAPIView
from games import services as games
from moderation import services
from moderation.models import Report
from moderation.services import MAX_REASON


class ReportInputSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=MAX_REASON, help_text="What looks wrong with this game, in your words."
    )


class ReportSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="game_id", read_only=True)

    class Meta:
        model = Report
        fields = ("id", "game", "reason", "status", "created_at")
        read_only_fields = fields


class ReportGameView(BaseAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ReportInputSerializer,
        responses={
            201: ReportSerializer,
            200: OpenApiResponse(ReportSerializer, description="You already reported it."),
            400: OpenApiResponse(ERROR, description="No reason given."),
            403: OpenApiResponse(ERROR, description="Not logged in, or your own game."),
            404: OpenApiResponse(ERROR, description="No such game, or its replay is not open."),
            429: OpenApiResponse(ERROR, description="Too many reports in the last hour."),
        },
        summary="Report a game you can replay to the moderators, with a reason",
        tags=["moderation"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        serializer = ReportInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = games.get_replay_for(actor_of(request), game_id)
        report, created = services.file_report(
            request.user, game, serializer.validated_data["reason"]
        )
        return Response(
            ReportSerializer(report).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )
