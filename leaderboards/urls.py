"""Routes of the leaderboard API (mounted at /api/)."""

from django.urls import path

from leaderboards import proof, views

app_name = "leaderboards"

urlpatterns = [
    # Beside /api/daily/<date>/ (games): a closed day's ranked games, as the board has them.
    path(
        "daily/<str:date>/<str:tier>/games.jsonl",
        proof.DailyGamesView.as_view(),
        name="daily-games",
    ),
    path(
        "leaderboards/daily/<str:date>/<str:tier>/",
        views.DailyBoardView.as_view(),
        name="daily",
    ),
    path("leaderboards/streaks/", views.StreakBoardView.as_view(), name="streaks"),
    path("leaderboards/alltime/", views.AllTimeBoardView.as_view(), name="alltime"),
    path("players/<str:name>/", views.PlayerView.as_view(), name="player"),
]
