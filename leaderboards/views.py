"""Thin API views of the boards: parse the query, call one read, answer through the page's
serializer (leaderboards/serializers.py), set caching."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User, no_player_called
from apikit.dates import parse_day
from apikit.errors import Forbidden, NotFound
from apikit.etags import conditional_response
from apikit.replica import replica_reads
from apikit.schema import ERROR, LOG_IN_REQUIRED, NOT_MODIFIED
from games.models import ChallengeTier, DailyChallenge, closes_at, utc_today
from games.services import CLOSED_DAY_MAX_AGE
from leaderboards import archive, circles, day_board, records
from leaderboards.serializers import (
    MAX_PAGE,
    AllTimeBoard,
    AllTimeQuery,
    Calendar,
    CircleQuery,
    DailyBoard,
    DailyQuery,
    Home,
    LeagueBoard,
    PageQuery,
    PlayerPage,
    PlayerRecord,
    Query,
    RecordQuery,
    StreakBoard,
)
from social import services as social

# Seconds a browser or proxy may keep an answer: boards of an open day change as games
# are verified; a closed day's board changes only by moderation (CLOSED_DAY_MAX_AGE).
OPEN_MAX_AGE = 15
STATS_MAX_AGE = 60

BAD_REQUEST = OpenApiResponse(ERROR, description="Not a date, page 0, an unknown parameter value.")
NOT_FOUND = OpenApiResponse(
    ERROR, description="Unknown tier, a future date, no challenge that day, or a page past the end."
)
TABLE_NOT_FOUND = OpenApiResponse(
    ERROR, description="A page past the end, or a league you are not a member of (now)."
)
# A guest may read every board, but not narrowed to a circle: 403 as for every login the
# API asks for (apikit.errors.Forbidden; a session has no WWW-Authenticate challenge).
CIRCLE_FOR_GUESTS = OpenApiResponse(
    ERROR, description="`league` or `following` asked by a guest: log in to see a circle."
)


def page_parameter(description: str) -> OpenApiParameter:
    """``page`` as ``PageQuery`` reads it, for the views that take no other parameter."""
    return OpenApiParameter(
        "page",
        {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
        default=1,
        description=description,
    )


PAGE = page_parameter("1-based page (50 rows a page).")


def _cacheable(response: Response, request: Request, max_age: int) -> Response:
    """Anonymous answers are public; a logged-in viewer's carry their own ``me`` rows."""
    if request.user.is_authenticated:
        patch_cache_control(response, private=True, max_age=max_age)
    else:
        patch_cache_control(response, public=True, max_age=max_age)
    patch_vary_headers(response, ["Cookie"])
    return response


def viewer(request: Request) -> dict[str, Any]:
    """The serializers' context: who is looking (their own rows answer ``me``)."""
    user: Any = request.user
    if user.is_authenticated:
        return {"viewer_id": user.pk, "viewer_name": user.display_name}
    return {"viewer_id": None, "viewer_name": None}


def conditional(request: Request, data: Any, max_age: int) -> Response:
    """The answer with an ETag of its content (a poll that holds it gets an empty 304),
    cacheable as the boards are."""
    return _cacheable(conditional_response(request, data), request, max_age)


@dataclass(frozen=True)
class CircleChoice:
    kind: str
    players: dict[int, str]  # not banned: id -> display name
    league_id: int | None = None
    name: str | None = None

    def names(self) -> set[str]:
        return set(self.players.values())


def circle_of(request: Request, query: dict[str, Any]) -> CircleChoice | None:
    """The circle a board is narrowed to (``league=<id>``, ``following=true``), or None.
    A league answers only to its members (404 otherwise: social.services)."""
    league_id = query.get("league")
    following = query.get("following")
    if league_id is None and not following:
        return None
    if not request.user.is_authenticated:
        raise Forbidden(_("log in to see a board of your leagues or of the players you follow"))
    if league_id is not None:
        league = social.league_circle(request.user.pk, league_id)
        return CircleChoice("league", league.players, league.league_id, league.name)
    return CircleChoice("following", social.unbanned_following(request.user.pk))


def circle_params(query: dict[str, Any]) -> dict[str, str]:
    """The query parameters that keep a circle in the board's next/previous links."""
    if query.get("league") is not None:
        return {"league": str(query["league"])}
    return {"following": "true"} if query.get("following") else {}


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


def _query(serializer_class: type[Query], request: Request) -> dict[str, Any]:
    query = serializer_class(data=request.query_params)
    query.is_valid(raise_exception=True)
    return dict(query.validated_data)


class LeaderboardView(APIView):
    permission_classes = [AllowAny]


def _day_page(
    request: Request,
    kind: str,
    board: day_board.Board,
    today: dt.date,
    *,
    circle: CircleChoice | None = None,
    link_params: dict[str, str] | None = None,
) -> dict[str, Any]:
    """What a day's board (``kind``: daily or archive) answers, for ``DailyBoard``."""
    challenge = board.challenge
    return {
        "board": kind,
        "circle": circle,
        "date": challenge.date,
        "tier": challenge.tier,
        "closed": challenge.is_closed(today),
        "par": day_board.par(challenge, today),
        "count": board.count,
        "page": board.page,
        "pages": board.pages,
        "page_size": day_board.PAGE_SIZE,
        **_links(request, board.page, board.pages, **(link_params or {})),
        "offset": board.offset,
        "served_from": board.source,
        "me": board.me,
        "results": board.rows,
    }


class DailyBoardView(LeaderboardView):
    @extend_schema(
        summary="A day's board in one tier: ranked results, 50 a page, or around yours",
        parameters=[
            OpenApiParameter("date", OpenApiTypes.DATE, OpenApiParameter.PATH),
            OpenApiParameter("tier", str, OpenApiParameter.PATH, enum=ChallengeTier.values),
            DailyQuery,
        ],
        responses={
            200: DailyBoard,
            304: NOT_MODIFIED,
            400: BAD_REQUEST,
            403: CIRCLE_FOR_GUESTS,
            404: NOT_FOUND,
        },
        tags=["leaderboards"],
    )
    def get(self, request: Request, date: str, tier: str) -> Response:
        day = parse_day(date)
        query = _query(DailyQuery, request)
        today = utc_today()
        challenge = day_board.find_challenge(day, tier, today=today)
        context = viewer(request)
        circle = circle_of(request, query)
        with replica_reads():  # the viewer's own game is the primary's (daily_board)
            if circle is None:
                board = day_board.daily_board(
                    challenge,
                    page=query["page"],
                    viewer_id=context["viewer_id"],
                    around_me=query.get("around") == "me",
                )
            else:
                board = circles.circle_board(
                    challenge, circle.players, page=query["page"], viewer_id=context["viewer_id"]
                )
        page = _day_page(
            request, "daily", board, today, circle=circle, link_params=circle_params(query)
        )
        max_age = CLOSED_DAY_MAX_AGE if challenge.is_closed(today) else OPEN_MAX_AGE
        return conditional(request, DailyBoard(page, context=context).data, max_age)


def _table_page(
    request: Request,
    rows: list[dict[str, Any]],
    page: int,
    circle: CircleChoice | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """What a page of the streak or all-time table answers (``extra``: the board's kind
    and period), for ``StreakBoard`` and ``AllTimeBoard``."""
    if circle is not None:
        rows = _narrowed(rows, circle.names())
    shown = records.paginate(rows, page)
    pages = max(1, -(-len(rows) // records.PAGE_SIZE))
    return {
        **extra,
        "circle": circle,
        "count": len(rows),
        "page": page,
        "pages": pages,
        "page_size": records.PAGE_SIZE,
        **_links(
            request,
            page,
            pages,
            **{k: v for k, v in extra.items() if k == "period"},
            **circle_params(
                {"league": circle.league_id}
                if circle and circle.league_id
                else {"following": circle is not None}
            ),
        ),
        "results": shown,
    }


def _narrowed(rows: list[dict[str, Any]], names: set[str]) -> list[dict[str, Any]]:
    """The rows of a circle's players, ranked again among them by the board's own key
    (rank ties in the full board are ties here too: the order is the same)."""
    kept = [dict(row) for row in rows if row["display_name"] in names]
    previous_rank = None
    rank = 0
    for index, row in enumerate(kept):
        if row["rank"] != previous_rank:
            rank = index + 1
        previous_rank = row["rank"]
        row["rank"] = rank
    return kept


class StreakBoardView(LeaderboardView):
    @extend_schema(
        summary="Longest current streaks of consecutive UTC days with a won daily",
        parameters=[CircleQuery],
        responses={
            200: StreakBoard,
            304: NOT_MODIFIED,
            400: BAD_REQUEST,
            403: CIRCLE_FOR_GUESTS,
            404: TABLE_NOT_FOUND,
        },
        tags=["leaderboards"],
    )
    def get(self, request: Request) -> Response:
        query = _query(CircleQuery, request)
        circle = circle_of(request, query)
        with replica_reads():
            rows = records.streak_board()
        page = _table_page(request, rows, query["page"], circle, board="streaks")
        return conditional(request, StreakBoard(page, context=viewer(request)).data, STATS_MAX_AGE)


class AllTimeBoardView(LeaderboardView):
    @extend_schema(
        summary="Wins, win rate, average score and best times: all time or the last 30 days",
        parameters=[AllTimeQuery],
        responses={
            200: AllTimeBoard,
            304: NOT_MODIFIED,
            400: BAD_REQUEST,
            403: CIRCLE_FOR_GUESTS,
            404: TABLE_NOT_FOUND,
        },
        tags=["leaderboards"],
    )
    def get(self, request: Request) -> Response:
        query = _query(AllTimeQuery, request)
        period = query["period"]
        with replica_reads():
            rows = records.alltime_board(period)
        circle = circle_of(request, query)
        page = _table_page(request, rows, query["page"], circle, board="alltime", period=period)
        return conditional(request, AllTimeBoard(page, context=viewer(request)).data, STATS_MAX_AGE)


class PlayerView(LeaderboardView):
    @extend_schema(
        summary="A player's page: streak, totals, personal bests, dailies with replay links",
        parameters=[
            OpenApiParameter("name", str, OpenApiParameter.PATH, description="Display name."),
            page_parameter("History page (30 a page)."),
        ],
        responses={200: PlayerPage, 400: BAD_REQUEST, 404: NOT_FOUND},
        tags=["leaderboards"],
    )
    def get(self, request: Request, name: str) -> Response:
        query = _query(PageQuery, request)
        viewer_id = viewer(request)["viewer_id"]
        with replica_reads():
            profile = records.player_profile(name, page=query["page"], viewer_id=viewer_id)
        return _cacheable(Response(PlayerPage(profile).data), request, STATS_MAX_AGE)


class LeagueBoardView(LeaderboardView):
    @extend_schema(
        auth=LOG_IN_REQUIRED,
        summary="A league's boards: today per tier, this week's and month's points, streaks",
        description="The week, month and streak tables come a page at a time (50 rows, "
        "your own row added when it is not on the page); today's boards show their first "
        "page (the daily board with `?league=` has the rest).",
        parameters=[PAGE],
        responses={
            200: LeagueBoard,
            304: NOT_MODIFIED,
            400: BAD_REQUEST,
            403: OpenApiResponse(ERROR, description="Not logged in."),
            404: OpenApiResponse(
                ERROR,
                description="No such league, or you are not a member of it (now); "
                "a page past the longest table.",
            ),
        },
        tags=["leagues"],
    )
    def get(self, request: Request, league_id: int) -> Response:
        if not request.user.is_authenticated:
            raise Forbidden(_("log in to see your leagues"))
        query = _query(PageQuery, request)
        league = social.league_circle(request.user.pk, league_id)
        players = league.players
        context = viewer(request)
        today = utc_today()
        page = circles.league_page(
            players, viewer_id=context["viewer_id"], today=today, page=query["page"]
        )
        week_start, week_end = circles.week_of(today)
        month_start, month_end = circles.month_of(today)
        counts = page["counts"]
        answer = {
            "league": league.league_id,
            "name": league.name,
            "date": today,
            "today": [
                {
                    "tier": tier,
                    "closed": entry["challenge"].is_closed(today),
                    "count": entry["board"].count,
                    "results": entry["board"].rows,
                }
                for tier, entry in page["today"].items()
            ],
            "page": query["page"],
            "pages": page["pages"],
            "page_size": day_board.PAGE_SIZE,
            "week": {
                "start": week_start,
                "end": week_end,
                "count": counts["week"],
                "results": page["week"],
            },
            "month": {
                "start": month_start,
                "end": month_end,
                "count": counts["month"],
                "results": page["month"],
            },
            "members": counts["streaks"],
            "streaks": page["streaks"],
            "points": circles.POINTS,
            "played_points": circles.PLAYED_POINTS,
        }
        return conditional(request, LeagueBoard(answer, context=context).data, OPEN_MAX_AGE)


class HomeView(LeaderboardView):
    @extend_schema(
        summary="The home page's data: playing now, your streak, yesterday's winners and par, "
        "your leagues' leaders",
        responses={200: Home, 304: NOT_MODIFIED},
        tags=["leaderboards"],
    )
    def get(self, request: Request) -> Response:
        today = utc_today()
        context = viewer(request)
        viewer_id = context["viewer_id"]
        yesterday = today - dt.timedelta(days=1)
        answer = {
            "date": today,
            "next_deal_at": closes_at(today),
            "playing": records.playing_now(today),
            "streak": records.streak_summary(viewer_id, today) if viewer_id else None,
            "yesterday": [
                _yesterday(challenge, today) for challenge in DailyChallenge.of_day(yesterday)
            ],
            "leagues": _league_leaders(viewer_id, today) if viewer_id else [],
        }
        return conditional(request, Home(answer, context=context).data, OPEN_MAX_AGE)


def _yesterday(challenge: DailyChallenge, today: dt.date) -> dict[str, Any]:
    board = day_board.daily_board(challenge, size=3)  # the winners: three rows to check
    return {
        "tier": challenge.tier,
        "date": challenge.date,
        "par": day_board.par(challenge, today),
        "count": board.count,
        "winners": board.rows[:3],
        "board_url": f"/leaderboards/daily/?date={challenge.date}&tier={challenge.tier}",
    }


def _league_leaders(viewer_id: int, today: dt.date) -> list[dict[str, Any]]:
    out = []
    leagues = social.leagues_of(viewer_id)
    challenges = DailyChallenge.of_day(today) if leagues else []
    for league in leagues:
        standings = circles.today_standings(
            social.unbanned_members(league), viewer_id=viewer_id, challenges=challenges
        )
        out.append(
            {
                "league": league.pk,
                "name": league.name,
                "url": f"/leagues/{league.pk}/",
                "leaders": {
                    tier: entry["board"].rows[0] if entry["board"].rows else None
                    for tier, entry in standings.items()
                },
            }
        )
    return out


class ArchiveBoardView(LeaderboardView):
    @extend_schema(
        summary="A closed day's archive board: its unranked replays, ranked by the same rules",
        parameters=[
            OpenApiParameter("date", OpenApiTypes.DATE, OpenApiParameter.PATH),
            OpenApiParameter("tier", str, OpenApiParameter.PATH, enum=ChallengeTier.values),
            PAGE,
        ],
        responses={
            200: DailyBoard,
            304: NOT_MODIFIED,
            400: BAD_REQUEST,
            404: OpenApiResponse(
                ERROR, description="Unknown tier, no challenge that day, a day not closed yet."
            ),
        },
        tags=["leaderboards"],
    )
    def get(self, request: Request, date: str, tier: str) -> Response:
        day = parse_day(date)
        query = _query(PageQuery, request)
        today = utc_today()
        if day >= today:
            raise NotFound(
                _("%(day)s is not in the archive yet: it joins once closed")
                % {"day": day.isoformat()}
            )
        challenge = day_board.find_challenge(day, tier, today=today)
        context = viewer(request)
        with replica_reads():
            board = archive.archive_board(
                challenge, page=query["page"], viewer_id=context["viewer_id"]
            )
        page = _day_page(request, "archive", board, today)
        return conditional(request, DailyBoard(page, context=context).data, OPEN_MAX_AGE)


class CalendarView(LeaderboardView):
    @extend_schema(
        auth=LOG_IN_REQUIRED,
        summary="Your month: per day and tier won, lost, not played; the month's badges",
        parameters=[
            OpenApiParameter("month", str, OpenApiParameter.PATH, description="YYYY-MM"),
        ],
        responses={
            200: Calendar,
            304: NOT_MODIFIED,
            400: OpenApiResponse(ERROR, description="Not a month."),
            403: OpenApiResponse(ERROR, description="Not logged in."),
            404: OpenApiResponse(ERROR, description="A month that has not started."),
        },
        tags=["leaderboards"],
    )
    def get(self, request: Request, month: str) -> Response:
        if not request.user.is_authenticated:
            raise Forbidden(_("log in to see your calendar"))
        try:
            year, number = archive.parse_month(month)
        except ValueError as exc:
            raise ValidationError({"month": str(exc)}) from exc
        days = archive.month_calendar(request.user.pk, year, number)
        # max-age 0: the page shows a game just started or finished when it comes back.
        return conditional(request, Calendar(days).data, 0)


class PlayerRecordView(LeaderboardView):
    @extend_schema(
        summary="A player's record: per tier played, won, win rate, best time; the archive; "
        "the last days (30, or `days`); monthly badges",
        parameters=[
            OpenApiParameter("name", str, OpenApiParameter.PATH, description="Display name."),
            RecordQuery,
        ],
        responses={
            200: PlayerRecord,
            304: NOT_MODIFIED,
            400: OpenApiResponse(ERROR, description="`days` not a whole number from 1 to 371."),
            404: NOT_FOUND,
        },
        tags=["leaderboards"],
    )
    def get(self, request: Request, name: str) -> Response:
        days = _query(RecordQuery, request)["days"]
        with replica_reads():
            user = User.named(name)
            if user is None:
                raise NotFound(no_player_called(name))
            record = archive.player_record(user.pk, days=days)
        return conditional(request, PlayerRecord(record).data, STATS_MAX_AGE)
