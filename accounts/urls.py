"""Routes of the accounts' JSON API (mounted under /api/ in the site's ``api`` namespace,
beside the games' routes: yukon_site/urls.py): /api/auth/..., the player's settings at
/api/account/settings/ and the mail provider's feedback."""

from django.urls import path

from accounts import api

urlpatterns = [
    path("auth/signup/", api.SignupView.as_view(), name="signup"),
    path("auth/login/", api.LoginView.as_view(), name="login"),
    path("auth/logout/", api.LogoutView.as_view(), name="logout"),
    path("auth/me/", api.MeView.as_view(), name="me"),
    path("auth/display-name/", api.DisplayNameView.as_view(), name="display-name"),
    path("auth/export/", api.ExportView.as_view(), name="export"),
    path("auth/delete/", api.DeleteAccountView.as_view(), name="delete-account"),
    path("mail/feedback/", api.MailFeedbackView.as_view(), name="mail-feedback"),
    path("account/settings/", api.PlayerSettingsView.as_view(), name="account-settings"),
]
