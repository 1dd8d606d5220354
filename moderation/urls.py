"""Routes of the moderation API (mounted at /api/)."""

from django.urls import path

from moderation import api

app_name = "moderation"

urlpatterns = [
    path("games/<int:game_id>/report/", api.ReportGameView.as_view(), name="report"),
]
