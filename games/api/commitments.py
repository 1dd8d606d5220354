"""A day's commitments, and once it has closed, its deals and salts: the public proof that
each deal was fixed in advance (docs/fair-play.md). The ranked games' move logs are the
boards' (leaderboards/games_file.py).

Nothing here reveals a deal number or a salt before the day's close (UTC midnight): the
commitment alone is shown while a day is open.
"""

from __future__ import annotations

from django.utils.cache import patch_cache_control
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.dates import parse_day
from apikit.schema import ERROR
from games.api.base import GameAPIView
from games.api.serializers import ChallengeProofSerializer
from games.models import utc_today
from games.services import CLOSED_DAY_MAX_AGE, public_challenges


class DailyDayView(GameAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("date", OpenApiTypes.DATE, OpenApiParameter.PATH)],
        responses={
            200: ChallengeProofSerializer(many=True),
            400: OpenApiResponse(ERROR, description="Not a date."),
            404: OpenApiResponse(ERROR, description="A future date, or no challenges that day."),
        },
        summary="A day's commitments; once the day has closed, its deals and salts",
        tags=["daily"],
    )
    def get(self, request: Request, date: str) -> Response:
        today = utc_today()
        challenges = public_challenges(parse_day(date), today)
        data = ChallengeProofSerializer(challenges, many=True, context={"today": today}).data
        response = Response(data)
        if challenges[0].is_closed(today):
            patch_cache_control(response, public=True, max_age=CLOSED_DAY_MAX_AGE)
        return response
