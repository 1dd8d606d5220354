"""Top-level URL routes: admin, account pages, the JSON API, its schema and docs, the client."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from yukon_site.health import healthz
from yukon_site.metrics import metrics_view

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),  # bearer token only (METRICS_TOKEN)
    path("admin/", admin.site.urls),
    path("api/", include("games.api.urls")),
    path("api/", include("leaderboards.urls")),
    path("api/", include("moderation.urls")),
    path("api/", include("analysis.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("", include("frontend.urls")),
]

# JSON errors under /api/; a database outage is 503 with a message; never a traceback.
handler404 = "yukon_site.health.not_found"
handler500 = "yukon_site.health.server_error"
