"""Routes of the metrics API (mounted at /api/). The staff page is the admin's
(``admin/metrics/``: yukon_site/urls.py wraps ``metrics.views.funnel_page`` in its guard)."""

from django.urls import path

from metrics import api

app_name = "metrics"

urlpatterns = [
    path("metrics/events/", api.EventView.as_view(), name="events"),
]
