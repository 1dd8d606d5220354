"""Routes of the coach and analysis API (mounted at /api/)."""

from django.urls import path

from analysis import api
from apikit import converters  # noqa: F401 registers <id:...>

app_name = "analysis"

urlpatterns = [
    path("games/<id:game_id>/hint/", api.HintView.as_view(), name="hint"),
    path("games/<id:game_id>/winnable/", api.WinnableView.as_view(), name="winnable"),
    path("games/<id:game_id>/analysis/", api.AnalysisView.as_view(), name="analysis"),
]
