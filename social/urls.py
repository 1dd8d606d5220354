"""Routes of the leagues and follows API (mounted at /api/). Reporting a league's name
(``leagues/<id>/report/``, ``leagues/join/<token>/report/``) is routed by moderation.urls."""

from django.urls import path

from apikit import converters  # noqa: F401 registers <id:...>
from social import api

app_name = "social"

urlpatterns = [
    path("leagues/", api.LeaguesView.as_view(), name="leagues"),
    path("leagues/join/<str:token>/", api.JoinView.as_view(), name="join"),
    path("leagues/<id:league_id>/", api.LeagueView.as_view(), name="league"),
    path("leagues/<id:league_id>/leave/", api.LeaveView.as_view(), name="leave"),
    path("leagues/<id:league_id>/invite/", api.ReplaceInviteView.as_view(), name="invite"),
    path("leagues/<id:league_id>/members/<str:name>/", api.MemberView.as_view(), name="member"),
    path("follows/", api.FollowsView.as_view(), name="follows"),
    path("follows/<str:name>/", api.FollowView.as_view(), name="follow"),
]
