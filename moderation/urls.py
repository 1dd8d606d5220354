"""Routes of the moderation API (mounted at /api/)."""

from django.urls import path

from moderation import api
from yukon_site import converters  # noqa: F401 registers <id:...>

app_name = "moderation"

urlpatterns = [
    path("games/<id:game_id>/report/", api.ReportGameView.as_view(), name="report"),
]
