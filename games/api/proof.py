"""Public proof of a day (docs/fair-play.md): its commitments, and once it has closed, its
deals and salts. The ranked games' move logs are the boards' (leaderboards/proof.py).

Nothing here reveals a deal number or a salt before the day's close (UTC midnight): the
commitment alone is shown while a day is open.
"""

from __future__ import annotations

import datetime as dt

from django.utils.cache import patch_cache_control
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.errors import NotFound
from apikit.schema import ERROR
from games.api.base import GameAPIView
from games.api.serializers import ChallengeProofSerializer
from games.models import DailyChallenge, utc_today

CLOSED_MAX_AGE = 300  # a closed day changes only by moderation


def parse_day(date: str) -> dt.date:
    try:
        return dt.date.fromisoformat(date)
    except ValueError as exc:
        raise ValidationError({"date": f"{date[:40]!r} is not a date (YYYY-MM-DD)"}) from exc


def public_challenges(day: dt.date, today: dt.date) -> list[DailyChallenge]:
    if day > today:
        raise NotFound(f"{day.isoformat()} is in the future: nothing is published for it yet")
    challenges = DailyChallenge.of_day(day)
    if not challenges:
        raise NotFound(f"there were no challenges on {day.isoformat()}")
    return challenges


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
            patch_cache_control(response, public=True, max_age=CLOSED_MAX_AGE)
        return response
