"""The public side of the close records (docs/fair-play.md, section 5): a closed day's
signed record, and the keys that sign records and receipts."""

from __future__ import annotations

import datetime as dt

from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.dates import parse_day
from apikit.errors import NotFound
from apikit.schema import ERROR
from apikit.views import BaseAPIView
from games import receipts
from games import services as game_services
from games.models import Game, Mode, Status, utc_today
from leaderboards import sealing
from leaderboards.models import CloseRecord

RECORD_MAX_AGE = 86_400  # a record never changes once made
KEYS_MAX_AGE = 300  # a rotation shows within minutes

CLOSE_RECORD = {
    "type": "object",
    "description": (
        "format (yukon-daily-close-v1), date, key_id, previous ({date, sha256} of the "
        "previous close record, or null for the first), tiers ({<tier>: {games_sha256, "
        "ranked, left_out}}), signature (Ed25519 over the canonical JSON, base64). "
        "docs/fair-play.md, section 5."
    ),
}
KEYS = {
    "type": "object",
    "description": (
        "format (yukon-daily-keys-v1), keys: [{key_id, algorithm (ed25519), public_key "
        "(base64 of the raw 32 bytes), current, first_date, last_date}]."
    ),
}


def _not_yet(message: str, day: dt.date, **fields: str) -> NotFound:
    """``message`` (translated, with ``%(day)s`` and ``fields``) as a 404."""
    return NotFound(message % {"day": day.isoformat(), **fields})


class CloseRecordView(BaseAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("date", OpenApiTypes.DATE, OpenApiParameter.PATH)],
        responses={
            200: OpenApiResponse(CLOSE_RECORD, description="The day's signed close record."),
            400: OpenApiResponse(ERROR, description="Not a date."),
            404: OpenApiResponse(
                ERROR,
                description="No challenges that day, the day is still open, or its games "
                "are not all verified yet (the record follows within minutes).",
            ),
        },
        summary="A closed day's signed close record: its games files' digests, chained",
        tags=["daily"],
    )
    def get(self, request: Request, date: str) -> Response:
        day = parse_day(date)
        record = CloseRecord.objects.filter(date=day).first()
        if record is None:
            record = self._seal_now(day)
        response = Response(sealing.record_document(record))
        patch_cache_control(response, public=True, max_age=RECORD_MAX_AGE)
        return response

    @staticmethod
    def _seal_now(day: dt.date) -> CloseRecord:
        """Without a beat (no Redis) nothing else seals: the first reader of a final day
        does, as the first reader of its games file ends the games left in play."""
        challenges = game_services.public_challenges(day, utc_today())
        if not challenges[0].is_closed(utc_today()):
            closes = challenges[0].closes_at.isoformat().replace("+00:00", "Z")
            raise _not_yet(
                _(
                    "there is no close record of %(day)s yet: it is signed after the day "
                    "closes at %(closes)s"
                ),
                day,
                closes=closes,
            )
        playing = Game.objects.filter(
            challenge__in=challenges, mode=Mode.DAILY, status=Status.PLAYING
        )
        for game_id in playing.values_list("pk", flat=True):
            game_services.end_if_day_closed(game_id)
        sealing.seal_closed_days(until=day)
        record = CloseRecord.objects.filter(date=day).first()
        if record is None:
            raise _not_yet(
                _(
                    "there is no close record of %(day)s yet: it is signed once every game "
                    "of the day, and of each day before it, is verified (usually minutes "
                    "after the close); try again later"
                ),
                day,
            )
        return record


class SigningKeysView(BaseAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: OpenApiResponse(KEYS, description="The site's signing keys.")},
        summary="The keys that sign receipts and close records, current and retired",
        tags=["daily"],
    )
    def get(self, request: Request) -> Response:
        response = Response({"format": receipts.KEYS_FORMAT, "keys": sealing.published_keys()})
        patch_cache_control(response, public=True, max_age=KEYS_MAX_AGE)
        return response
