"""Routes of the leagues and follows API (mounted at /api/)."""

from django.urls import path

from social import api
from yukon_site import converters  # noqa: F401 registers <id:...>

app_name = "social"

urlpatterns = [
    path("leagues/", api.LeaguesView.as_view(), name="leagues"),
    path("leagues/join/<str:token>/", api.JoinView.as_view(), name="join"),
    path("leagues/join/<str:token>/report/", api.ReportInviteView.as_view(), name="report-invite"),
    path("leagues/<id:league_id>/", api.LeagueView.as_view(), name="league"),
    path("leagues/<id:league_id>/leave/", api.LeaveView.as_view(), name="leave"),
    path("leagues/<id:league_id>/invite/", api.ReplaceInviteView.as_view(), name="invite"),
    path("leagues/<id:league_id>/report/", api.ReportLeagueView.as_view(), name="report"),
    path("leagues/<id:league_id>/members/<str:name>/", api.MemberView.as_view(), name="member"),
    path("follows/", api.FollowsView.as_view(), name="follows"),
    path("follows/<str:name>/", api.FollowView.as_view(), name="follow"),
]
