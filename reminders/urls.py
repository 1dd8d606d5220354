"""Routes of the reminders API (mounted at /api/). The unsubscribe page of reminder mail,
``/reminders/unsubscribe/<token>/``, is ``reminders.views`` (yukon_site/urls.py)."""

from django.urls import path

from reminders import api

app_name = "reminders"

urlpatterns = [
    path("reminders/vapid-key/", api.VapidKeyView.as_view(), name="vapid-key"),
    path(
        "reminders/push-subscriptions/",
        api.PushSubscriptionsView.as_view(),
        name="push-subscriptions",
    ),
    path("reminders/preferences/", api.PreferencesView.as_view(), name="preferences"),
]
