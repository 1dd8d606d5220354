"""Views of the browser client: they only render pages; game logic lives in the API.

Every page sets the CSRF cookie, because the ES modules send it back in the
``X-CSRFToken`` header on each API call (moves, sign-up, log-in).
"""

from __future__ import annotations

import functools
from datetime import UTC, date, datetime, time, timedelta

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import etag, require_safe

from accounts import login_backoff
from accounts.language import LANGUAGE_COOKIE_SECONDS
from accounts.models import DISPLAY_NAME_MAX_LENGTH, User, no_player_called
from accounts.suppression import undeliverable_address
from apikit.actors import actor_of
from apikit.errors import Conflict, NotFound
from frontend.tier_cards import tier_cards
from games import checker, practice_pool
from games.daily import day_overview, tiers_shown
from games.models import WEEKLY, DailyChallenge, Mode, Status, Tier, tiers_of
from games.services import get_game_for, get_replay_for
from leaderboards.archive import month_text
from leaderboards.records import playing_now
from moderation import origins
from moderation.services import MAX_REASON
from social.models import LEAGUE_NAME_MAX_LENGTH
from yukon.engine import MAX_DEAL_NUMBER, VARIANT_NAMES, get_variant

BOARDS = ("daily", "streaks", "alltime")

# The log-in name's limit, as the user model (and so allauth's sign-up) has it.
USERNAME_MAX_LENGTH = User._meta.get_field("username").max_length

# The game's constants as the browser reads them (base.html puts them in a JSON script
# tag): one source, the engine and the models, so a new variant or tier needs no edit here.
# The deal limit is a string because a JavaScript number cannot hold 2**64 - 1.
SITE_CONSTANTS = {
    "variants": list(VARIANT_NAMES),
    "tiers": list(Tier.values),
    "max_deal": str(MAX_DEAL_NUMBER),
}


def _page(request: HttpRequest, template: str, **context: object) -> HttpResponse:
    return render(request, f"frontend/{template}", {"site_constants": SITE_CONSTANTS, **context})


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    now = timezone.now().astimezone(UTC)
    today = now.date()
    yesterday = today - timedelta(days=1)
    tiers = tiers_shown(today)
    left = int((datetime.combine(today + timedelta(days=1), time(), UTC) - now).total_seconds())
    # The day's cards as home.js would draw them, so nothing moves when it starts; a day
    # not prepared yet keeps its places (/api/daily/ prepares it on the embedded default).
    overview = day_overview(today, request.user, request.session.session_key or "")
    # home.js asks for yesterday's deals, opened, only when there were some.
    opened = DailyChallenge.objects.filter(date=yesterday).exists()
    # Where the account page sends a player who deleted their account (pages/your_account.js),
    # logged out by then: the page says so. Never to someone logged in.
    deleted = request.GET.get("account") == "deleted" and not request.user.is_authenticated
    return _page(
        request,
        "home.html",
        account_deleted=deleted,
        today=today.isoformat(),
        today_date=today,  # shown in the page's language: "5. Dez. 2026" (day_names)
        countdown=f"{left // 3600:02}:{left % 3600 // 60:02}:{left % 60:02}",  # as home.js's tick()
        tiers=tiers,
        cards=tier_cards(overview, tiers, playing_now(today)),
        weekly=WEEKLY in tiers,
        opened_day=yesterday.isoformat() if opened else "",
    )


# A game the viewer may not see is the site's 404 page, told apart from a game that does
# not exist by nothing: the API's own rule (games.services.get_game_for) and its same
# answer, so a page never says more than GET /api/games/<id>/ does.
NO_SUCH_GAME = "No such game."


@ensure_csrf_cookie
def play(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = get_game_for(actor_of(request), game_id)
    except NotFound:
        raise Http404(NO_SUCH_GAME) from None
    guest_note = None  # drawn with the page: a line that came with the game would move the board
    if game.mode == Mode.GUEST and game.status == Status.PLAYING:
        guest_note = "ranks" if game.ranks_if_signed_up_before() else "unranked"
    return _page(request, "play.html", game_id=game_id, mode="game", guest_note=guest_note)


@ensure_csrf_cookie
def practice(request: HttpRequest, deal: str) -> HttpResponse:
    if not deal.isascii() or not deal.isdigit() or int(deal) > MAX_DEAL_NUMBER:
        raise Http404("A deal number is a whole number from 0 to 2**64 - 1.")
    variant = request.GET.get("variant", "yukon")
    if variant not in VARIANT_NAMES:
        variant = "yukon"
    return _page(
        request,
        "play.html",
        deal=int(deal),
        variant=variant,
        takeback=request.GET.get("takeback") == "1",
        # take-back is a one-deck option: not offered beside a several-deck deal (play.js
        # shows and hides it as the variant changes)
        multi_deck=get_variant(variant).multi_deck,
        variants=VARIANT_NAMES,
        mode="practice",
    )


@functools.cache
def never_won() -> tuple[tuple[str, int], ...]:
    """The variants of which the published study won no deal, with how many it proved lost
    (moosehide-runs: 5,000 of 5,000): the practice page says so beside them. The study
    ships with the code, so it is read once a process."""
    from analysis.odds import load_published  # as stats() imports analysis: when needed

    study = load_published()
    rows = study.rows if study else []
    return tuple((r.variant, r.unwinnable) for r in rows if r.solved == 0 and r.unwinnable)


def never_won_notes() -> list[tuple[str, int, str]]:
    """never_won() with each count as the page's language groups its digits ("5,000")."""
    return [(v, n, str(number_format(n, force_grouping=True))) for v, n in never_won()]


@ensure_csrf_cookie
def practice_index(request: HttpRequest) -> HttpResponse:
    # Without a worker, the practice pool's first refill starts as the page opens, so a
    # tier button usually finds a deal ready (games/practice_pool.py).
    practice_pool.warm_up("yukon")
    return _page(
        request,
        "practice.html",
        never_won=never_won_notes(),
        variants=VARIANT_NAMES,
        tiers=Tier.values,
        pooled=" ".join(practice_pool.pool_variants()),
        # take-back is a one-deck option: the page greys it out for these
        multi_deck=" ".join(name for name in VARIANT_NAMES if get_variant(name).multi_deck),
    )


def offline_practice(request: HttpRequest) -> HttpResponse:
    """Practice played in the browser alone (docs/frontend.md, "Offline practice"): the deal
    and variant are read from the address by the page, which deals and plays them itself.

    The page is a shell, the same for everyone: nothing in it comes from the query or the
    player, and it calls no API (no CSRF cookie), so the service worker keeps one copy of it
    and serves it for any numbered practice deal when the network is gone."""
    return _page(request, "offline_practice.html", variants=VARIANT_NAMES)


@ensure_csrf_cookie
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        get_replay_for(actor_of(request), game_id)
    except NotFound:
        raise Http404(NO_SUCH_GAME) from None
    except Conflict:
        pass  # one's own game still in play: the page says its replay opens when it ends
    return _page(request, "replay.html", game_id=game_id)


@ensure_csrf_cookie
def leaderboard(request: HttpRequest, board: str = "daily") -> HttpResponse:
    if board not in BOARDS:
        raise Http404("No such leaderboard.")
    day = request.GET.get("date", "")
    try:
        day = date.fromisoformat(day).isoformat()
    except ValueError:
        day = timezone.now().date().isoformat()
    tiers = tiers_of(date.fromisoformat(day))  # the weekly board on Sundays
    tier = request.GET.get("tier", "easy")
    if tier not in tiers:
        tier = Tier.EASY.value
    return _page(request, "leaderboard.html", board=board, day=day, tier=tier, tiers=tiers)


@ensure_csrf_cookie
def player(request: HttpRequest, name: str) -> HttpResponse:
    """A player's page (its data: /api/players/<name>/); the site's 404 page, saying so,
    for a name no player has (or a banned one's), as the API answers."""
    if User.named(name) is None:
        message = no_player_called(name)
        return render(request, "404.html", {"message": message}, status=404)
    user = request.user
    own = user.is_authenticated and user.display_name.casefold() == name.casefold()
    # the fair-play page's checker: a player has it, not the server's own module
    return _page(
        request,
        "player.html",
        name=name,
        own=own,
        checker_name=checker.FILENAME,
        appeal_max_length=MAX_REASON,
    )


@ensure_csrf_cookie
def leagues(request: HttpRequest) -> HttpResponse:
    """Your leagues, a new one, and the players you follow (the data: /api/leagues/)."""
    return _page(
        request,
        "leagues.html",
        league_name_max_length=LEAGUE_NAME_MAX_LENGTH,
        display_name_max_length=DISPLAY_NAME_MAX_LENGTH,
    )


@ensure_csrf_cookie
def league(request: HttpRequest, league_id: int) -> HttpResponse:
    """A league's page; whether you may see it is the API's answer (members only)."""
    return _page(request, "league.html", league_id=league_id, tiers=Tier.values)


@ensure_csrf_cookie
def league_join(request: HttpRequest, token: str) -> HttpResponse:
    return _page(request, "league_join.html", token=token)


@ensure_csrf_cookie
def archive(request: HttpRequest) -> HttpResponse:
    """The monthly calendar of closed days to play again (the data: /api/calendar/)."""
    today = timezone.now().date()
    month = request.GET.get("month", "")
    try:
        first = date.fromisoformat(f"{month}-01")
    except ValueError:
        first = today.replace(day=1)
    if first > today:
        first = today.replace(day=1)
    return _page(request, "archive.html", month=month_text(first), tiers=Tier.values)


@ensure_csrf_cookie
def signup(request: HttpRequest) -> HttpResponse:
    return _page(
        request,
        "account.html",
        action="signup",
        username_max_length=USERNAME_MAX_LENGTH,
        display_name_max_length=DISPLAY_NAME_MAX_LENGTH,
    )


@ensure_csrf_cookie
def login(request: HttpRequest) -> HttpResponse:
    return _page(
        request,
        "account.html",
        action="login",
        username_max_length=USERNAME_MAX_LENGTH,
        oidc_providers=oidc_providers(),
        next=request.GET.get("next", "/"),
    )


def oidc_providers() -> list[dict[str, str]]:
    """The OpenID Connect providers configured from the environment (docs/accounts.md)."""
    return [{"id": app["provider_id"], "name": app["name"]} for app in settings.OIDC_APPS]


@ensure_csrf_cookie
@login_required
def account(request: HttpRequest) -> HttpResponse:
    """Your account: display name, your data, deletion; links to allauth's pages; a line
    when mail to your address no longer goes out (bounced, or marked as spam)."""
    assert isinstance(request.user, User)  # login_required
    return _page(
        request,
        "your_account.html",
        undeliverable=undeliverable_address(request.user),
        display_name_max_length=DISPLAY_NAME_MAX_LENGTH,
    )


def how_to_play(request: HttpRequest) -> HttpResponse:
    return _page(request, "how_to_play.html")


def strategy(request: HttpRequest) -> HttpResponse:
    return _page(request, "strategy.html")


def faq(request: HttpRequest) -> HttpResponse:
    return _page(request, "faq.html")


def fair_play(request: HttpRequest) -> HttpResponse:
    """How anyone checks a day's commitment and board (docs/fair-play.md), and a checker."""
    yesterday = timezone.now().date() - timedelta(days=1)
    return _page(
        request,
        "fair_play.html",
        yesterday=yesterday.isoformat(),
        checker_name=checker.FILENAME,
        checker_sha256=checker.sha256(),
    )


@require_safe
@etag(lambda request: checker.sha256())
def checker_download(request: HttpRequest) -> HttpResponse:
    """The fair-play checker as one file to run with Python (games/checker.py)."""
    response = HttpResponse(checker.archive(), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{checker.FILENAME}"'
    return response


# ----- privacy and terms (issue 41; docs/operations.md, "Data retention") ----------------
# Every figure on these pages is read from the setting or constant the code obeys, so the
# page cannot say one thing while the beat jobs do another.

DAY_SECONDS = 24 * 3600


def _days(seconds: int) -> str:
    days = round(seconds / DAY_SECONDS)
    return ngettext("%(days)s day", "%(days)s days", days) % {"days": days}


def retention_figures() -> dict[str, object]:
    """How long each kind of data is kept, in the settings' own numbers."""
    return {
        "origin_days": settings.MODERATION_ORIGIN_DAYS,
        "guest_game_days": settings.GUEST_GAME_DAYS,
        "session_lifetime": _days(settings.SESSION_COOKIE_AGE),
        "login_failures_hours": login_backoff.FAILURES_KEPT_SECONDS // 3600,
    }


def site_cookies() -> list[dict[str, str]]:
    """Every cookie the site sets, with its purpose and lifetime: all essential. A cookie
    not listed here must not exist (tests/frontend/test_privacy_pages.py looks)."""
    return [
        {
            "name": settings.SESSION_COOKIE_NAME,
            "purpose": _(
                "Keeps you logged in; for a guest, ties the games you play to this browser."
            ),
            "lifetime": _("%(days)s after it last changed, or until you log out")
            % {"days": _days(settings.SESSION_COOKIE_AGE)},
        },
        {
            "name": settings.CSRF_COOKIE_NAME,
            "purpose": _(
                "Proves that a move or a form was sent by this site's own pages "
                "(protection against cross-site request forgery)."
            ),
            "lifetime": _days(settings.CSRF_COOKIE_AGE),
        },
        {
            "name": origins.DEVICE_COOKIE,
            "purpose": _(
                "A random device id, set when you start a daily, guest or archive game: "
                "it links games played from one browser under several accounts (fair play). "
                "Nothing else reads it."
            ),
            "lifetime": _days(origins.DEVICE_COOKIE_DAYS * DAY_SECONDS),
        },
        {
            "name": login_backoff.DEVICE_COOKIE,
            "purpose": _(
                "Set when you log in: this browser keeps logging you in normally while "
                "someone elsewhere is guessing at your password."
            ),
            "lifetime": _days(login_backoff.DEVICE_DAYS * DAY_SECONDS),
        },
        {
            "name": "messages",
            "purpose": _(
                "Carries a one-time notice (“your address is confirmed”) "
                "from one account page to the next."
            ),
            "lifetime": _("until it is shown, or you close the browser"),
        },
        {
            "name": settings.LANGUAGE_COOKIE_NAME,
            "purpose": _(
                "Set when you choose a language with the picker in the header: "
                "the site keeps showing you that language."
            ),
            "lifetime": _days(LANGUAGE_COOKIE_SECONDS),
        },
    ]


def privacy(request: HttpRequest) -> HttpResponse:
    """What is kept about you, why, for how long and who sees it; the cookies."""
    return _page(request, "privacy.html", cookies=site_cookies(), **retention_figures())


def terms(request: HttpRequest) -> HttpResponse:
    return _page(request, "terms.html", **retention_figures())


def stats(request: HttpRequest) -> HttpResponse:
    from analysis.stats import page_context

    return _page(request, "stats.html", **page_context())
