"""Routes of the JSON API (mounted at /api/)."""

from django.urls import path

from accounts import api as auth_api
from games.api import archive, proof, receipts, views
from yukon_site import converters  # noqa: F401 registers <id:...>

app_name = "api"

urlpatterns = [
    path("daily/", views.DailyView.as_view(), name="daily"),
    path("daily/<str:date>/", proof.DailyDayView.as_view(), name="daily-day"),
    path("archive/<str:date>/<str:tier>/", archive.ArchiveGameView.as_view(), name="archive"),
    path("games/", views.GameListView.as_view(), name="games"),
    path("games/<id:game_id>/", views.GameDetailView.as_view(), name="game"),
    path("games/<id:game_id>/moves/", views.MoveView.as_view(), name="moves"),
    path("games/<id:game_id>/undo/", views.UndoView.as_view(), name="undo"),
    path("games/<id:game_id>/resign/", views.ResignView.as_view(), name="resign"),
    path("games/<id:game_id>/replay/", views.ReplayView.as_view(), name="replay"),
    path("games/<id:game_id>/receipt/", receipts.ReceiptView.as_view(), name="receipt"),
    path("auth/signup/", auth_api.SignupView.as_view(), name="signup"),
    path("auth/login/", auth_api.LoginView.as_view(), name="login"),
    path("auth/logout/", auth_api.LogoutView.as_view(), name="logout"),
    path("auth/me/", auth_api.MeView.as_view(), name="me"),
    path("auth/display-name/", auth_api.DisplayNameView.as_view(), name="display-name"),
    path("auth/export/", auth_api.ExportView.as_view(), name="export"),
    # the games app's, beside the account's other downloads (accounts knows no games)
    path("auth/receipts/", receipts.ReceiptsView.as_view(), name="receipts"),
    path("auth/delete/", auth_api.DeleteAccountView.as_view(), name="delete-account"),
]
