"""Routes of the browser client (pages only; the data comes from /api/)."""

from django.urls import path, re_path

from accounts.language import choose_language
from apikit import converters  # noqa: F401 registers <id:...>
from frontend import catalogue, installable, views

app_name = "frontend"

urlpatterns = [
    path("", views.home, name="home"),
    path("play/<id:game_id>/", views.play, name="play"),
    path("practice/", views.practice_index, name="practice-index"),
    re_path(r"^practice/(?P<deal>[0-9]{1,20})/$", views.practice, name="practice"),
    path("practice/offline/", views.offline_practice, name="offline-practice"),
    path("replay/<id:game_id>/", views.replay, name="replay"),
    path("leaderboards/", views.leaderboard, name="leaderboards"),
    path("leaderboards/<str:board>/", views.leaderboard, name="leaderboard"),
    path("players/<str:name>/", views.player, name="player"),
    path("leagues/", views.leagues, name="leagues"),
    path("leagues/<id:league_id>/", views.league, name="league"),
    path("leagues/join/<str:token>/", views.league_join, name="league-join"),
    path("archive/", views.archive, name="archive"),
    path("signup/", views.signup, name="signup"),
    path("login/", views.login, name="login"),
    path("account/", views.account, name="account"),
    path("how-to-play/", views.how_to_play, name="how-to-play"),
    path("strategy/", views.strategy, name="strategy"),
    path("faq/", views.faq, name="faq"),
    path("fair-play/", views.fair_play, name="fair-play"),
    path("fair-play/yukon-verify.pyz", views.checker_download, name="checker-download"),
    path("stats/", views.stats, name="stats"),
    path("privacy/", views.privacy, name="privacy"),  # the cookies: /privacy/#cookies
    path("terms/", views.terms, name="terms"),
    # The installable app: the offline page is a page of the site; the manifest and the
    # service worker are not, and have no names (the page walks of the tests skip them).
    # The worker sits at the root so that its scope is the whole site.
    path("offline/", installable.offline, name="offline"),
    path("manifest.webmanifest", installable.manifest),
    path("sw.js", installable.service_worker),
    # The language picker's form posts here (accounts/language.py), and a page not in
    # English loads its language's JavaScript catalogue from here (frontend/catalogue.py).
    # Not pages either: no names.
    path("language/", choose_language),
    path("jsi18n/<str:language>/<str:digest>.js", catalogue.javascript_catalogue),
]
