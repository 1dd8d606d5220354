"""The players' side of moderation: report a game (``POST /api/games/<id>/report/``) or a
league's name (``POST /api/leagues/<id>/report/`` as a member, ``POST
/api/leagues/join/<token>/report/`` with its invite link), under the leagues' paths and
tag; the league is looked up the leagues' way (``social.services``). And what the
moderators decided about oneself: the notices (``GET /api/moderation/notices/``) and one
appeal of a disqualified game (``POST /api/moderation/appeals/``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.actors import actor_of
from apikit.converters import MAX_ID
from apikit.fields import StrictCharField
from apikit.schema import ERROR
from apikit.views import BaseAPIView
from games import services as games
from moderation import services
from moderation.models import Appeal, LeagueReport, Notice, NoticeKind, Report
from moderation.services import MAX_REASON
from social import services as social
from social.models import League

if TYPE_CHECKING:  # (django-stubs-ext is a development package)
    from django_stubs_ext import StrOrPromise


def reason_field(blank: StrOrPromise, help_text: str | None = None) -> serializers.CharField:
    """A reason in the player's words. Left empty (or only spaces), the page's form shows
    ``blank`` alone, in the services' words, not DRF's "This field may not be blank."."""
    return StrictCharField(
        max_length=MAX_REASON,
        error_messages={"blank": blank, "required": blank},
        help_text=help_text,
    )


class ReportInputSerializer(serializers.Serializer):
    reason = reason_field(
        gettext_lazy("say what looks wrong: a reason is required"),
        help_text="What looks wrong with this game, in your words.",
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
            409: OpenApiResponse(ERROR, description="Your own game, still in play."),
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


class ReasonSerializer(serializers.Serializer):
    reason = reason_field(gettext_lazy("say what is wrong with the name: a reason is required"))


class LeagueReportSerializer(serializers.ModelSerializer):
    league = serializers.IntegerField(source="league_id", read_only=True)

    class Meta:
        model = LeagueReport
        fields = ("id", "league", "reported_name", "reason", "status", "created_at")
        read_only_fields = fields


LEAGUE_TAGS = ["leagues"]
REPORT_LEAGUE_RESPONSES = {
    201: LeagueReportSerializer,
    200: OpenApiResponse(LeagueReportSerializer, description="You already reported it."),
    400: OpenApiResponse(ERROR, description="No reason given."),
    403: OpenApiResponse(
        ERROR, description="Not logged in (any member or invite holder may report)."
    ),
    429: OpenApiResponse(ERROR, description="Too many reports in the last hour."),
}


def _report_league(request: Request, league: League) -> Response:
    serializer = ReasonSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    report, created = services.report_league(
        request.user, league, serializer.validated_data["reason"]
    )
    return Response(
        LeagueReportSerializer(report).data,
        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
    )


class ReportLeagueView(BaseAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Report a league's name to the moderators",
        request=ReasonSerializer,
        responses={
            **REPORT_LEAGUE_RESPONSES,
            404: OpenApiResponse(
                ERROR, description="No such league, or you are not a member of it (now)."
            ),
        },
        tags=LEAGUE_TAGS,
    )
    def post(self, request: Request, league_id: int) -> Response:
        return _report_league(request, social.league_of_member(request.user.pk, league_id))


class ReportInviteView(BaseAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Report the name of a league you were invited to, without joining it",
        request=ReasonSerializer,
        responses={
            **REPORT_LEAGUE_RESPONSES,
            404: OpenApiResponse(
                ERROR, description="Not a current invite link (replaced, or the league closed)."
            ),
        },
        tags=LEAGUE_TAGS,
    )
    def post(self, request: Request, token: str) -> Response:
        league, _ = social.invite_preview(token)
        return _report_league(request, league)


# ----- notices and appeals ---------------------------------------------------------------

NOTICES_SHOWN = 50


class AppealSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="game_id", read_only=True)

    class Meta:
        model = Appeal
        fields = ("id", "game", "reason", "status", "created_at", "decided_at", "decision")
        read_only_fields = fields


class NoticeSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="game_id", read_only=True, allow_null=True)
    appeal = serializers.SerializerMethodField(
        help_text="Your appeal of this game's disqualification, if you made one."
    )
    can_appeal = serializers.SerializerMethodField(
        help_text="True when this notice's disqualification may still be appealed (once)."
    )

    class Meta:
        model = Notice
        fields = ("id", "kind", "game", "text", "created_at", "appeal", "can_appeal")
        read_only_fields = fields

    def _appeal(self, notice: Notice) -> Appeal | None:
        appeals: dict[int, Appeal] = self.context["appeals"]
        return appeals.get(notice.game_id) if notice.game_id is not None else None

    @extend_schema_field(AppealSerializer(allow_null=True))
    def get_appeal(self, notice: Notice) -> dict[str, object] | None:
        appeal = self._appeal(notice)
        return None if appeal is None else dict(AppealSerializer(appeal).data)

    @extend_schema_field(serializers.BooleanField())
    def get_can_appeal(self, notice: Notice) -> bool:
        return (
            notice.kind == NoticeKind.DISQUALIFIED
            and notice.game is not None
            and notice.game.disqualified
            and self._appeal(notice) is None
        )


class NoticesView(BaseAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={
            200: NoticeSerializer(many=True),
            403: OpenApiResponse(ERROR, description="Not logged in."),
        },
        summary="What the moderators decided about you, newest first, in plain words",
        tags=["moderation"],
    )
    def get(self, request: Request) -> Response:
        mine = request.user.pk
        notices = Notice.objects.filter(player_id=mine).select_related("game")
        appeals = {appeal.game_id: appeal for appeal in Appeal.objects.filter(player_id=mine)}
        data = NoticeSerializer(
            notices[:NOTICES_SHOWN], many=True, context={"appeals": appeals}
        ).data
        return Response(data)


class AppealInputSerializer(serializers.Serializer):
    game = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="Your disqualified game's id."
    )
    reason = reason_field(
        gettext_lazy("say why the decision is wrong: a reason is required"),
        help_text="Why the decision is wrong, in your words.",
    )


class AppealsView(BaseAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=AppealInputSerializer,
        responses={
            201: AppealSerializer,
            400: OpenApiResponse(
                ERROR,
                description="No reason given; appealed already (an appeal is heard once); "
                "the game is not disqualified, or not on its own (a voided day, a ban).",
            ),
            403: OpenApiResponse(ERROR, description="Not logged in."),
            404: OpenApiResponse(ERROR, description="You have no game with this id."),
            429: OpenApiResponse(ERROR, description="Too many appeals in the last hour."),
        },
        summary="Appeal the disqualification of your game, once",
        tags=["moderation"],
    )
    def post(self, request: Request) -> Response:
        serializer = AppealInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        appeal = services.file_appeal(
            request.user,
            serializer.validated_data["game"],
            serializer.validated_data["reason"],
        )
        return Response(AppealSerializer(appeal).data, status=status.HTTP_201_CREATED)
