"""The archive: start a closed day's challenge again, unranked (``POST /api/archive/...``)."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.actors import actor_of
from apikit.schema import ERROR, FORBIDDEN, LOG_IN_REQUIRED
from games import services
from games.api.base import GameAPIView
from games.api.serializers import GameSerializer
from games.models import ChallengeTier


class ArchiveGameView(GameAPIView):
    @extend_schema(
        auth=LOG_IN_REQUIRED,
        request=None,
        parameters=[
            OpenApiParameter(
                "date", OpenApiTypes.DATE, OpenApiParameter.PATH, description="YYYY-MM-DD"
            ),
            OpenApiParameter("tier", str, OpenApiParameter.PATH, enum=ChallengeTier.values),
        ],
        responses={
            201: GameSerializer,
            200: OpenApiResponse(GameSerializer, description="Your existing archive game."),
            400: OpenApiResponse(ERROR, description="Not a date."),
            403: FORBIDDEN,
            404: OpenApiResponse(
                ERROR,
                description="Unknown tier, no challenge that day, or a day not closed yet "
                "(today's is played as the daily).",
            ),
        },
        summary="Play a closed day's challenge from the archive: unranked, verified, one "
        "attempt per day and tier",
        tags=["games"],
    )
    def post(self, request: Request, date: str, tier: str) -> Response:
        try:
            day = dt.date.fromisoformat(date)
        except ValueError as exc:
            raise ValidationError(
                {"date": _("%(date)s is not a date (YYYY-MM-DD)") % {"date": repr(date)}}
            ) from exc
        game, created = services.start_archive_game(actor_of(request), day, tier)
        return Response(
            GameSerializer(game).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )
