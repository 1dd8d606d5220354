"""Routes of the leaderboard API (mounted at /api/)."""

from django.urls import path

from apikit import converters  # noqa: F401 registers <id:...>
from leaderboards import close_records, games_file, results, views

app_name = "leaderboards"

urlpatterns = [
    # Beside /api/daily/<date>/ (games): a closed day's ranked games, as the board has them.
    path(
        "daily/<str:date>/<str:tier>/games.jsonl",
        games_file.DailyGamesView.as_view(),
        name="daily-games",
    ),
    # a closed day's signed close record (docs/fair-play.md, section 5)
    path("daily/<str:date>/close/", close_records.CloseRecordView.as_view(), name="daily-close"),
    path(
        "leaderboards/daily/<str:date>/<str:tier>/",
        views.DailyBoardView.as_view(),
        name="daily",
    ),
    path("leaderboards/streaks/", views.StreakBoardView.as_view(), name="streaks"),
    path("leaderboards/alltime/", views.AllTimeBoardView.as_view(), name="alltime"),
    path("leaderboards/leagues/<id:league_id>/", views.LeagueBoardView.as_view(), name="league"),
    path(
        "leaderboards/archive/<str:date>/<str:tier>/",
        views.ArchiveBoardView.as_view(),
        name="archive",
    ),
    # beside the games' routes: a finished daily's results screen, figured from the boards
    path("games/<id:game_id>/results/", results.GameResultsView.as_view(), name="game-results"),
    path("calendar/<str:month>/", views.CalendarView.as_view(), name="calendar"),
    path("leaderboards/home/", views.HomeView.as_view(), name="home"),
    path("players/<str:name>/", views.PlayerView.as_view(), name="player"),
    path("players/<str:name>/record/", views.PlayerRecordView.as_view(), name="player-record"),
]
