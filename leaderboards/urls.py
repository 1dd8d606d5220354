"""Routes of the leaderboard API (mounted at /api/)."""

from django.urls import path

from leaderboards import views

app_name = "leaderboards"

urlpatterns = [
    path(
        "leaderboards/daily/<str:date>/<str:tier>/",
        views.DailyBoardView.as_view(),
        name="daily",
    ),
    path("leaderboards/streaks/", views.StreakBoardView.as_view(), name="streaks"),
    path("leaderboards/alltime/", views.AllTimeBoardView.as_view(), name="alltime"),
    path("players/<str:name>/", views.PlayerView.as_view(), name="player"),
]
