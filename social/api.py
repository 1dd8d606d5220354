"""The leagues and follows API (mounted at /api/): thin views over ``social.services``.

A league's contents answer only to its members (404 to anyone else, as for a league
that does not exist); its invite link shows its name and size to whoever holds it.
The league's boards and tables are the leaderboards' (``/api/leaderboards/leagues/<id>/``);
a report of a league's name is moderation's (``moderation.api``, routed under the same
``/api/leagues/`` paths).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.etags import conditional_response
from apikit.fields import StrictCharField
from apikit.schema import ERROR, NOT_MODIFIED
from apikit.views import BaseAPIView
from social import services
from social.models import League, Membership

TAGS = ["leagues"]
NOT_MEMBER = OpenApiResponse(
    ERROR, description="No such league, or you are not a member of it (now)."
)
FORBIDDEN = OpenApiResponse(ERROR, description="Not logged in, or not the league's owner.")
BAD_NAME = OpenApiResponse(ERROR, description="A league name of the wrong form or taken.")
LIMIT = OpenApiResponse(ERROR, description="A limit reached (leagues per player, members).")


def _me(request: Request) -> int:
    user: Any = request.user  # IsAuthenticated: a real user
    return int(user.pk)


def invite_url(league: League) -> str:
    return f"/leagues/join/{league.invite_token}/"


class LeagueNameSerializer(serializers.Serializer):
    # No max_length of its own: a name too long, however long, gets the one rule's answer
    # (services.clean_league_name: "A league name has 2 to 40 characters.", field "name"),
    # never a second limit's; the request's size is bounded by DATA_UPLOAD_MAX_MEMORY_SIZE.
    name = StrictCharField(trim_whitespace=False, help_text="2 to 40 letters, digits, ' _.-'.")


class MemberSerializer(serializers.Serializer):
    display_name = serializers.CharField()
    joined_at = serializers.DateTimeField()
    owner = serializers.BooleanField()


class LeagueSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField(help_text="The owner's display name.")
    is_owner = serializers.BooleanField()
    member_count = serializers.IntegerField()
    url = serializers.CharField(help_text="The league's page.")


class LeagueSerializer(LeagueSummarySerializer):
    invite_url = serializers.CharField(help_text="Share it: whoever opens it may join.")
    created_at = serializers.DateTimeField()
    members = MemberSerializer(many=True)
    limits = serializers.DictField(child=serializers.IntegerField())


class InviteSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField()
    member_count = serializers.IntegerField()
    is_member = serializers.BooleanField()


class FollowInputSerializer(serializers.Serializer):
    display_name = StrictCharField(max_length=200)


class FollowsSerializer(serializers.Serializer):
    following = serializers.ListField(child=serializers.CharField())
    limit = serializers.IntegerField()


def _summary(league: League, user_id: int, member_count: int) -> dict[str, Any]:
    return {
        "id": league.pk,
        "name": league.name,
        "owner": league.owner.display_name,
        "is_owner": league.owner_id == user_id,
        "member_count": member_count,
        "url": f"/leagues/{league.pk}/",
    }


def league_detail(league: League, user_id: int) -> dict[str, Any]:
    members = list(
        services.active_members(league).select_related("player").order_by("joined_at", "pk")
    )
    return {
        **_summary(league, user_id, len(members)),
        "invite_url": invite_url(league),
        "created_at": league.created_at,
        "members": [_member(m, league) for m in members],
        "limits": {
            "members_per_league": settings.LEAGUE_MAX_MEMBERS,
            "leagues_per_player": settings.LEAGUES_PER_PLAYER,
        },
    }


def _member(membership: Membership, league: League) -> dict[str, Any]:
    return {
        "display_name": membership.player.display_name,
        "joined_at": membership.joined_at,
        "owner": membership.player_id == league.owner_id,
    }


class LeaguesView(BaseAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Your leagues",
        responses={200: LeagueSummarySerializer(many=True), 403: FORBIDDEN},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        leagues = services.leagues_of(_me(request))
        return Response([_summary(x, _me(request), getattr(x, "member_count", 0)) for x in leagues])

    @extend_schema(
        summary="Create a league (you are its owner and first member)",
        request=LeagueNameSerializer,
        responses={201: LeagueSerializer, 400: BAD_NAME, 403: FORBIDDEN, 409: LIMIT},
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        serializer = LeagueNameSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        league = services.create_league(request.user, serializer.validated_data["name"])
        return Response(league_detail(league, _me(request)), status=status.HTTP_201_CREATED)


class LeagueView(BaseAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="A league you are in: its members and invite link",
        responses={200: LeagueSerializer, 304: NOT_MODIFIED, 403: FORBIDDEN, 404: NOT_MEMBER},
        tags=TAGS,
    )
    def get(self, request: Request, league_id: int) -> Response:
        league = services.league_of_member(_me(request), league_id)
        response = conditional_response(request, league_detail(league, _me(request)))
        response["Cache-Control"] = "private, no-cache"
        return response


class LeaveView(BaseAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Leave a league (an owner hands it to the longest-standing member)",
        request=None,
        responses={204: None, 403: FORBIDDEN, 404: NOT_MEMBER},
        tags=TAGS,
    )
    def post(self, request: Request, league_id: int) -> Response:
        services.leave_league(request.user, league_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MemberView(BaseAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Remove a member (owner only); they lose access at once and cannot rejoin",
        request=None,
        responses={
            204: None,
            403: FORBIDDEN,
            404: NOT_MEMBER,
            409: OpenApiResponse(ERROR, description="The owner cannot remove themselves."),
        },
        tags=TAGS,
    )
    def delete(self, request: Request, league_id: int, name: str) -> Response:
        services.remove_member(request.user, league_id, name)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ReplaceInviteView(BaseAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Replace the invite link (owner only); the old link joins nobody",
        request=None,
        responses={200: LeagueSerializer, 403: FORBIDDEN, 404: NOT_MEMBER},
        tags=TAGS,
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = services.replace_invite(request.user, league_id)
        return Response(league_detail(league, _me(request)))


INVITE_NOT_FOUND = OpenApiResponse(
    ERROR, description="Not a current invite link (replaced, or the league closed)."
)


class JoinView(BaseAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="What an invite link leads to: the league's name and size",
        responses={200: InviteSerializer, 404: INVITE_NOT_FOUND},
        tags=TAGS,
    )
    def get(self, request: Request, token: str) -> Response:
        league, count = services.invite_preview(token)
        user_id = _me(request) if request.user.is_authenticated else None
        is_member = services.is_member(league, user_id)
        return Response(
            {
                "id": league.pk,
                "name": league.name,
                "owner": league.owner.display_name,
                "member_count": count,
                "is_member": is_member,
            }
        )

    @extend_schema(
        summary="Join a league with its invite link",
        request=None,
        responses={
            201: LeagueSerializer,
            200: OpenApiResponse(LeagueSerializer, description="You were a member already."),
            403: OpenApiResponse(
                ERROR, description="Not logged in, or the owner removed you from it."
            ),
            404: INVITE_NOT_FOUND,
            409: LIMIT,
        },
        tags=TAGS,
    )
    def post(self, request: Request, token: str) -> Response:
        if not request.user.is_authenticated:
            return Response(
                {"detail": _("log in to join a league")}, status=status.HTTP_403_FORBIDDEN
            )
        league, joined = services.join_league(request.user, token)
        return Response(
            league_detail(league, _me(request)),
            status=status.HTTP_201_CREATED if joined else status.HTTP_200_OK,
        )


class FollowsView(BaseAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="The players you follow",
        responses={200: FollowsSerializer, 403: FORBIDDEN},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        return Response(self.answer(request))

    @extend_schema(
        summary="Follow a player",
        request=FollowInputSerializer,
        responses={
            201: FollowsSerializer,
            200: OpenApiResponse(FollowsSerializer, description="You followed them already."),
            400: OpenApiResponse(ERROR, description="No name, or your own."),
            403: FORBIDDEN,
            404: OpenApiResponse(ERROR, description="No such player."),
            409: LIMIT,
        },
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        serializer = FollowInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        _followed, created = services.follow(
            request.user, serializer.validated_data["display_name"]
        )
        return Response(
            self.answer(request),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )

    @staticmethod
    def answer(request: Request) -> dict[str, Any]:
        return {
            "following": services.followed_names(_me(request)),
            "limit": settings.FOLLOWS_PER_PLAYER,
        }


class FollowView(BaseAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Stop following a player",
        request=None,
        responses={204: None, 403: FORBIDDEN, 404: OpenApiResponse(ERROR)},
        tags=TAGS,
    )
    def delete(self, request: Request, name: str) -> Response:
        services.unfollow(request.user, name)
        return Response(status=status.HTTP_204_NO_CONTENT)
