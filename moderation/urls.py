"""Routes of the moderation API (mounted at /api/)."""

from django.urls import path

from apikit import converters  # noqa: F401 registers <id:...>
from moderation import api

app_name = "moderation"

urlpatterns = [
    path("games/<id:game_id>/report/", api.ReportGameView.as_view(), name="report"),
    # a league's name: the leagues' paths (social.urls), moderation's reports
    path("leagues/<id:league_id>/report/", api.ReportLeagueView.as_view(), name="report-league"),
    path("leagues/join/<str:token>/report/", api.ReportInviteView.as_view(), name="report-invite"),
    # what the moderators decided about oneself, and one appeal of a disqualification
    path("moderation/notices/", api.NoticesView.as_view(), name="notices"),
    path("moderation/appeals/", api.AppealsView.as_view(), name="appeals"),
]
