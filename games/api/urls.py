"""Routes of the games' JSON API (mounted at /api/ in the site's ``api`` namespace, beside
the accounts' routes: yukon_site/urls.py)."""

from django.urls import path

from apikit import converters  # noqa: F401 registers <id:...>
from games.api import archive, commitments, receipts, views

urlpatterns = [
    path("daily/", views.DailyView.as_view(), name="daily"),
    path("daily/<str:date>/", commitments.DailyDayView.as_view(), name="daily-day"),
    path("archive/<str:date>/<str:tier>/", archive.ArchiveGameView.as_view(), name="archive"),
    path("games/", views.GameListView.as_view(), name="games"),
    path("games/<id:game_id>/", views.GameDetailView.as_view(), name="game"),
    path("games/<id:game_id>/moves/", views.MoveView.as_view(), name="moves"),
    path("games/<id:game_id>/undo/", views.UndoView.as_view(), name="undo"),
    path("games/<id:game_id>/resign/", views.ResignView.as_view(), name="resign"),
    path("games/<id:game_id>/replay/", views.ReplayView.as_view(), name="replay"),
    path("games/<id:game_id>/receipt/", receipts.ReceiptView.as_view(), name="receipt"),
    # the games app's, beside the accounts' other downloads (accounts knows no games)
    path("auth/receipts/", receipts.ReceiptsView.as_view(), name="receipts"),
]
