"""Top-level URL routes: admin, account pages, the JSON API, its schema and docs, the client."""

from allauth.mfa.webauthn import views as webauthn_views
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerSplitView

from accounts.urls import urlpatterns as account_api
from apikit import converters  # noqa: F401 registers <id:...>
from apikit.not_found import api_catch_all
from apikit.schema_view import SchemaView
from frontend import entrance
from games.api.urls import urlpatterns as game_api
from leaderboards.close_records import SigningKeysView
from metrics.views import funnel_page
from reminders.views import unsubscribe as reminders_unsubscribe
from yukon_site import security_headers
from yukon_site.health import healthz, no_such_page
from yukon_site.metrics import metrics_view

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),  # bearer token only (METRICS_TOKEN)
    # the funnel's staff page, behind the admin's guard (staff, second factor; docs/metrics.md)
    path("admin/metrics/", admin.site.admin_view(funnel_page), name="staff-metrics"),
    path("admin/", admin.site.urls),
    # allauth's pages (docs/accounts.md); its two <int:pk> routes first with a bounded id,
    # and any other key a 404 (a 25-digit one would reach the database and fail there)
    path(
        "accounts/2fa/webauthn/keys/<id:pk>/remove/",
        webauthn_views.remove_webauthn,
        name="mfa_remove_webauthn",
    ),
    path(
        "accounts/2fa/webauthn/keys/<id:pk>/edit/",
        webauthn_views.edit_webauthn,
        name="mfa_edit_webauthn",
    ),
    path("accounts/2fa/webauthn/keys/<str:pk>/<str:action>/", no_such_page),
    # one log-in page and one sign-up page: a browser asking for allauth's is sent to ours
    path("accounts/login/", entrance.login),
    path("accounts/signup/", entrance.signup),
    path("accounts/", include("allauth.urls")),
    path("_allauth/", include("allauth.headless.urls")),  # its JSON API and its OpenAPI spec
    # the games' and the accounts' routes share the "api" namespace (api:game, api:login);
    # neither app imports the other's API
    path("api/", include((game_api + account_api, "api"))),
    path("api/", include("leaderboards.urls")),
    path("api/", include("moderation.urls")),
    path("api/", include("social.urls")),
    path("api/", include("analysis.urls")),
    path("api/", include("metrics.urls")),
    path("api/", include("reminders.urls")),
    # reminder mail's one-click unsubscribe (RFC 8058: no log-in, no CSRF, a signed token)
    path(
        "reminders/unsubscribe/<str:token>/",
        reminders_unsubscribe,
        name="reminders-unsubscribe",
    ),
    # fair play's signing keys, current and retired (docs/fair-play.md, section 5)
    path(
        ".well-known/yukon-daily-keys.json",
        SigningKeysView.as_view(),
        name="signing-keys",
    ),
    path("api/schema/", SchemaView.as_view(), name="schema"),  # one generation at a time
    # Swagger UI: its start-up script as a file of its own (the split view), its bundle from
    # its CDN on this page alone (yukon_site/security_headers.py)
    path(
        "api/docs/",
        csp_update(security_headers.SWAGGER_UI_POLICY)(
            SpectacularSwaggerSplitView.as_view(url_name="schema")
        ),
        name="api-docs",
    ),
    api_catch_all(),  # last under /api/: what no route takes is a JSON 404, never HTML
    path("", include("frontend.urls")),
]

# JSON errors under /api/; a database outage is 503 with a message; never a traceback.
handler404 = "yukon_site.health.not_found"
handler500 = "yukon_site.health.server_error"
