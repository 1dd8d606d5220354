"""A player's receipts (docs/fair-play.md, section 5): one game's, or all of them as JSON
lines, the file ``python -m games.verify_day --receipt`` reads. Only the player's own."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.actors import actor_of
from apikit.schema import CONFLICT, ERROR, NOT_FOUND
from games import receipts, services
from games.api.base import GameAPIView
from games.api.serializers import ReceiptSerializer

JSON_LINES = "application/x-ndjson"


class ReceiptView(GameAPIView):
    @extend_schema(
        responses={
            200: ReceiptSerializer,
            404: NOT_FOUND,
            409: OpenApiResponse(CONFLICT, description="Your game is still in progress."),
        },
        summary="Your finished daily game's signed receipt (404 for anyone else's game)",
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        document = services.receipt_for(actor_of(request), game_id)
        response = Response(document)
        response["Cache-Control"] = "private, no-store"
        return response


class ReceiptsView(GameAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={
            (200, JSON_LINES): OpenApiResponse(
                {
                    "type": "object",
                    "description": "One receipt a line (the shape of ReceiptSerializer), "
                    "oldest day first.",
                },
                description="Every receipt of your finished daily games, as JSON lines.",
            ),
            (403, "application/json"): OpenApiResponse(ERROR, description="Not logged in."),
        },
        summary="Download your receipts (JSON lines, for python -m games.verify_day)",
        tags=["auth"],
    )
    def get(self, request: Request) -> HttpResponse:
        player_id = request.user.pk
        assert player_id is not None  # IsAuthenticated
        lines = b"".join(
            receipts.file_line(document) for document in services.receipts_of(player_id)
        )
        response = HttpResponse(lines, content_type=JSON_LINES)
        response["Content-Disposition"] = 'attachment; filename="yukon-daily-receipts.jsonl"'
        response["Cache-Control"] = "private, no-store"
        return response
