"""Thin API views of the boards: parse the query, call one read, shape the page, set caching."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.cache import patch_cache_control, patch_vary_headers
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.schema import ERROR
from games.models import Tier, utc_today
from leaderboards import day_board, records
from leaderboards.serializers import (
    AllTimeBoard,
    AllTimeQuery,
    DailyBoard,
    DailyQuery,
    PageQuery,
    PlayerPage,
    StreakBoard,
)

# The serializers describe the answers in the schema (and tests check answers against
# them); the views build the same shapes as plain dicts, which is several ms faster a page.

# Seconds a browser or proxy may keep an answer: boards of an open day change as games
# are verified; a closed day's board changes only by moderation.
OPEN_MAX_AGE = 15
CLOSED_MAX_AGE = 300
STATS_MAX_AGE = 60

BAD_REQUEST = OpenApiResponse(ERROR, description="Not a date, page 0, an unknown parameter value.")
NOT_FOUND = OpenApiResponse(
    ERROR, description="Unknown tier, a future date, no challenge that day, or a page past the end."
)
PAGE = OpenApiParameter("page", OpenApiTypes.INT, description="1-based page (50 rows a page).")


def _cacheable(response: Response, request: Request, max_age: int) -> Response:
    """Anonymous answers are public; a logged-in viewer's carry their own ``me`` rows."""
    if request.user.is_authenticated:
        patch_cache_control(response, private=True, max_age=max_age)
    else:
        patch_cache_control(response, public=True, max_age=max_age)
    patch_vary_headers(response, ["Cookie"])
    return response


def _links(request: Request, page: int | None, pages: int, **extra: str) -> dict[str, str | None]:
    def link(number: int) -> str:
        query = "&".join([f"{k}={v}" for k, v in extra.items()] + [f"page={number}"])
        return f"{request.path}?{query}"

    if page is None:
        return {"next": None, "previous": None}
    return {
        "next": link(page + 1) if page < pages else None,
        "previous": link(page - 1) if page > 1 else None,
    }


def _query(serializer_class: type[PageQuery], request: Request) -> dict[str, Any]:
    query = serializer_class(data=request.query_params)
    query.is_valid(raise_exception=True)
    return dict(query.validated_data)


class LeaderboardView(APIView):
    permission_classes = [AllowAny]

    def viewer_id(self, request: Request) -> int | None:
        return request.user.pk if request.user.is_authenticated else None

    def viewer_name(self, request: Request) -> str | None:
        user: Any = request.user
        return user.display_name if user.is_authenticated else None


class DailyBoardView(LeaderboardView):
    @extend_schema(
        summary="A day's board in one tier: ranked results, 50 a page, or around yours",
        parameters=[
            OpenApiParameter("date", OpenApiTypes.DATE, OpenApiParameter.PATH),
            OpenApiParameter("tier", str, OpenApiParameter.PATH, enum=Tier.values),
            PAGE,
            OpenApiParameter(
                "around", str, enum=["me"], description="`me`: the rows around your result."
            ),
        ],
        responses={200: DailyBoard, 400: BAD_REQUEST, 404: NOT_FOUND},
        tags=["leaderboards"],
    )
    def get(self, request: Request, date: str, tier: str) -> Response:
        try:
            day = dt.date.fromisoformat(date)
        except ValueError as exc:
            raise ValidationError({"date": f"{date!r} is not a date (YYYY-MM-DD)"}) from exc
        query = _query(DailyQuery, request)
        today = utc_today()
        challenge = day_board.find_challenge(day, tier, today=today)
        viewer_id = self.viewer_id(request)
        board = day_board.daily_board(
            challenge,
            page=query["page"],
            viewer_id=viewer_id,
            around_me=query.get("around") == "me",
        )

        def shaped(row: day_board.Row) -> dict[str, Any]:
            return {
                "rank": row.rank,
                "display_name": row.display_name,
                "won": row.won,
                "status": row.status,
                "score": row.score,
                "elapsed_ms": row.elapsed_ms,
                "moves": row.moves,
                "finished_at": row.finished_at,
                "game_id": row.game_id,
                "replay_url": f"/replay/{row.game_id}/",
                "me": row.player_id == viewer_id,
            }

        data = {
            "board": "daily",
            "date": challenge.date,
            "tier": challenge.tier,
            "closed": challenge.is_closed(today),
            "par": day_board.par(challenge, today),
            "count": board.count,
            "page": board.page,
            "pages": board.pages,
            "page_size": day_board.PAGE_SIZE,
            **_links(request, board.page, board.pages),
            "offset": board.offset,
            "served_from": board.source,
            "me": shaped(board.me) if board.me else None,
            "results": [shaped(row) for row in board.rows],
        }
        max_age = CLOSED_MAX_AGE if challenge.is_closed(today) else OPEN_MAX_AGE
        return _cacheable(Response(data), request, max_age)


def _board_page(
    request: Request, rows: list[dict[str, Any]], page: int, **extra: Any
) -> dict[str, Any]:
    shown = records.paginate(rows, page)
    name = LeaderboardView().viewer_name(request)
    pages = max(1, -(-len(rows) // records.PAGE_SIZE))
    return {
        **extra,
        "count": len(rows),
        "page": page,
        "pages": pages,
        "page_size": records.PAGE_SIZE,
        **_links(request, page, pages, **{k: v for k, v in extra.items() if k == "period"}),
        "results": [{**row, "me": row["display_name"] == name} for row in shown],
    }


class StreakBoardView(LeaderboardView):
    @extend_schema(
        summary="Longest current streaks of consecutive UTC days with a won daily",
        parameters=[PAGE],
        responses={200: StreakBoard, 400: BAD_REQUEST, 404: NOT_FOUND},
        tags=["leaderboards"],
    )
    def get(self, request: Request) -> Response:
        query = _query(PageQuery, request)
        data = _board_page(request, records.streak_board(), query["page"], board="streaks")
        return _cacheable(Response(data), request, STATS_MAX_AGE)


class AllTimeBoardView(LeaderboardView):
    @extend_schema(
        summary="Wins, win rate, average score and best times: all time or the last 30 days",
        parameters=[
            PAGE,
            OpenApiParameter("period", str, enum=["all", "30d"], description="Default: all."),
        ],
        responses={200: AllTimeBoard, 400: BAD_REQUEST, 404: NOT_FOUND},
        tags=["leaderboards"],
    )
    def get(self, request: Request) -> Response:
        query = _query(AllTimeQuery, request)
        period = query["period"]
        rows = records.alltime_board(period)
        data = _board_page(request, rows, query["page"], board="alltime", period=period)
        return _cacheable(Response(data), request, STATS_MAX_AGE)


class PlayerView(LeaderboardView):
    @extend_schema(
        summary="A player's page: streak, totals, personal bests, dailies with replay links",
        parameters=[
            OpenApiParameter("name", str, OpenApiParameter.PATH, description="Display name."),
            OpenApiParameter("page", OpenApiTypes.INT, description="History page (30 a page)."),
        ],
        responses={200: PlayerPage, 400: BAD_REQUEST, 404: NOT_FOUND},
        tags=["leaderboards"],
    )
    def get(self, request: Request, name: str) -> Response:
        query = _query(PageQuery, request)
        data = records.player_profile(name, page=query["page"], viewer_id=self.viewer_id(request))
        return _cacheable(Response(data), request, STATS_MAX_AGE)
