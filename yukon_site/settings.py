"""Django settings for Yukon Daily, read from the environment (see README.md)."""

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from yukon_site import dev_secrets, security_headers

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=True)

# Django's signing key, and the seed of the HMAC that picks each day's deal. Required with
# DEBUG off; a development install makes its own on first start and keeps them in a
# git-ignored file (yukon_site/dev_secrets.py). No usable secret is written in the code.
SECRET_KEY = env.str("SECRET_KEY", default="")
DAILY_SECRET = env.str("DAILY_SECRET", default="")
if DEBUG and not (SECRET_KEY and DAILY_SECRET):
    _dev_secrets = dev_secrets.load_or_create(
        dev_secrets.secrets_path(BASE_DIR, env.str("DEV_SECRETS_FILE", default=""))
    )
    SECRET_KEY = SECRET_KEY or _dev_secrets["SECRET_KEY"]
    DAILY_SECRET = DAILY_SECRET or _dev_secrets["DAILY_SECRET"]
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
if not DAILY_SECRET:
    raise ImproperlyConfigured("DAILY_SECRET must be set when DEBUG is off.")

# Fair play's signing key (docs/fair-play.md, docs/operations.md "The receipt signing key"):
# base64 of the raw 32-byte Ed25519 private key that signs every receipt and close record.
# Required with DEBUG off; a development install derives its own from its SECRET_KEY.
# Retired keys: their public halves (base64), comma-separated, still listed for checking.
RECEIPT_SIGNING_KEY = env.str("RECEIPT_SIGNING_KEY", default="")
if DEBUG and not RECEIPT_SIGNING_KEY:
    RECEIPT_SIGNING_KEY = dev_secrets.receipt_signing_key(SECRET_KEY)
if not RECEIPT_SIGNING_KEY:
    raise ImproperlyConfigured("RECEIPT_SIGNING_KEY must be set when DEBUG is off.")
RECEIPT_RETIRED_KEYS = env.list("RECEIPT_RETIRED_KEYS", default=[])
dev_secrets.check_signing_keys(RECEIPT_SIGNING_KEY, RECEIPT_RETIRED_KEYS)

ALLOWED_HOSTS = env.list(
    "ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# Production (DEBUG off) is HTTPS behind a proxy that sets X-Forwarded-Proto
# (docs/operations.md); `manage.py check --deploy` passes with these defaults.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
# the container health check and Prometheus (token-protected) speak plain HTTP inside
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
# Cookies go over HTTPS only (SECURE_COOKIES=false only for plain-HTTP tests on loopback);
# the session cookie is never readable by scripts. The CSRF cookie is: the client sends
# it back in the X-CSRFToken header.
SECURE_COOKIES = env.bool("SECURE_COOKIES", default=not DEBUG)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"

INSTALLED_APPS = [
    "moderation.admin_config.ModeratedAdminConfig",  # django.contrib.admin, 403 for players
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "csp",  # the content security policy (yukon_site/security_headers.py); its checks
    "accounts",
    "games",
    "social",
    "leaderboards",
    "moderation",
    "analysis",
    "metrics",  # first-party product metrics: counts only (docs/metrics.md)
    "reminders",  # opt-in Web Push and email reminders (docs/reminders.md)
    "frontend",
    # Account flows (docs/accounts.md): after our apps, whose templates override allauth's.
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "django.contrib.humanize",  # allauth.mfa's list of passkeys ("last used 2 days ago")
    "allauth.headless",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.openid_connect",
]

MIDDLEWARE = [
    "yukon_site.middleware.RequestIdMiddleware",  # first: every log line of a request has its id
    "accounts.even_timing.EvenTimingMiddleware",  # early: its clock starts with the request
    "yukon_site.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # request.csp_nonce for the templates; the policy header
    "yukon_site.security_headers.SecurityHeadersMiddleware",  # Permissions-Policy, CORP
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the language: cookie, then Accept-Language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.language.AccountLanguageMiddleware",  # a logged-in player's chosen language wins
    "django.contrib.messages.middleware.MessageMiddleware",
    "accounts.headless_input.HeadlessTextMiddleware",  # before allauth reads its JSON itself
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "moderation.middleware.ClientAddressMiddleware",
    "yukon_site.middleware.PrometheusAfterMiddleware",  # last: latency by view
]

# /metrics (yukon_site/metrics.py, docs/operations.md): answered only with
# "Authorization: Bearer <METRICS_TOKEN>"; unset, the endpoint is off (404).
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
if METRICS_TOKEN and len(METRICS_TOKEN) < 24:
    raise ImproperlyConfigured("METRICS_TOKEN must be at least 24 characters.")
# Latency buckets (seconds) of django-prometheus's histograms: fine where moves are
# (a few ms; the alert is on a p95 of 50 ms).
PROMETHEUS_LATENCY_BUCKETS = (
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
    30.0,
    float("inf"),
)

ROOT_URLCONF = "yukon_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",  # LANGUAGE_CODE: base.html's <html lang>
            ],
        },
    },
]

WSGI_APPLICATION = "yukon_site.wsgi.application"
ASGI_APPLICATION = "yukon_site.asgi.application"

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"].get("ENGINE") == "django.db.backends.postgresql":
    # Django's backend, with a health check that needs no round trip (its docstring).
    DATABASES["default"]["ENGINE"] = "yukon_site.postgresql"
elif DATABASES["default"].get("ENGINE") == "django.db.backends.sqlite3":
    # The embedded default writes from a background thread too (the practice pool's
    # refill): a transaction takes the write lock when it begins and waits for it, instead
    # of failing at once with "database is locked" when its first write meets another's.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("transaction_mode", "IMMEDIATE")
    DATABASES["default"]["OPTIONS"].setdefault("timeout", 20)
DATABASES["default"].setdefault("ATOMIC_REQUESTS", False)
# Keep connections between requests: opening one costs more than a whole move.
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
# Check a kept connection before a request uses it (no round trip on PostgreSQL:
# yukon_site/postgresql), so a PostgreSQL restart costs no request an error once it is back.
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", env.bool("CONN_HEALTH_CHECKS", default=True))
# DATABASE_URL names PgBouncer in transaction mode (docker-compose.yml; docs/operations.md,
# "Connection pooling"): each transaction may run on another server connection, so
# nothing may outlive one. Server-side cursors (`.iterator()`) and psycopg's prepared
# statements would (PgBouncer 1.18 passes neither on); the app's advisory locks are
# transaction locks, and Django's time zone is a parameter PgBouncer carries over. The
# kept connections (CONN_MAX_AGE) and their health check are to PgBouncer: cheap, right.
DATABASE_POOLER = env.str("DATABASE_POOLER", default="")
if DATABASE_POOLER == "pgbouncer":
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    # None: psycopg prepares nothing (yukon_site/postgresql prepares the move's statements
    # only when the threshold is left unset)
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = None
elif DATABASE_POOLER:
    raise ImproperlyConfigured("DATABASE_POOLER must be empty or pgbouncer.")
# The read replica (docs/operations.md, "Read replica"): a streaming replica of the primary.
# Empty, there is one database and no router. Set, apikit.replica.ReplicaRouter sends it
# only the reads of the lag-tolerant paths (boards, archive, player pages, a closed day's
# games file); everything else stays on `default`. Straight to the replica, not through
# PgBouncer: its connections are few (one per web thread) and sessions there hold nothing.
DATABASE_REPLICA_URL = env.str("DATABASE_REPLICA_URL", default="")
DATABASE_ROUTERS: list[str] = []
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = env.db_url_config(DATABASE_REPLICA_URL)
    if DATABASES["replica"].get("ENGINE") == "django.db.backends.postgresql":
        DATABASES["replica"]["ENGINE"] = "yukon_site.postgresql"
        # a replica that does not answer costs a read this long before the primary takes
        # it (apikit.replica.replica_answers)
        DATABASES["replica"].setdefault("OPTIONS", {}).setdefault(
            "connect_timeout", env.int("DATABASE_REPLICA_CONNECT_TIMEOUT", default=2)
        )
    DATABASES["replica"].setdefault("CONN_MAX_AGE", DATABASES["default"]["CONN_MAX_AGE"])
    DATABASES["replica"].setdefault(
        "CONN_HEALTH_CHECKS", DATABASES["default"]["CONN_HEALTH_CHECKS"]
    )
    # tests read the test database through it: no second test database is made
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    DATABASE_ROUTERS = ["apikit.replica.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Decided before the first migration: players have a unique display name (leaderboards).
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"

REDIS_URL = env.str("REDIS_URL", default="")
# Redis that fails over (docs/operations.md): with Sentinels, REDIS_URL names only the
# database and the password, and every client (cache, boards, metrics, Celery) asks the
# Sentinels for the master of REDIS_SENTINEL_MASTER (apikit/redis_client.py).
REDIS_SENTINELS = env.list("REDIS_SENTINELS", default=[])
REDIS_SENTINEL_MASTER = env.str("REDIS_SENTINEL_MASTER", default="yukon")
for _address in REDIS_SENTINELS:
    _host, _, _port = _address.rpartition(":")
    if not _host or not _port.isdigit():
        raise ImproperlyConfigured(f"REDIS_SENTINELS: {_address!r} is not host:port")
if REDIS_SENTINELS and not REDIS_URL:
    raise ImproperlyConfigured("REDIS_SENTINELS needs REDIS_URL (its database and password)")
# A board write waits until the replicas connected to the master have it (WAIT), at most
# this long; else the board is marked stale and rebuilt from PostgreSQL: a failover must
# not promote a replica without a result the board already showed (leaderboards/store.py).
REDIS_WAIT_FOR_REPLICAS = env.bool("REDIS_WAIT_FOR_REPLICAS", default=bool(REDIS_SENTINELS))
REDIS_WAIT_MS = env.int("REDIS_WAIT_MS", default=500)

if REDIS_URL:
    CACHES = {
        "default": {
            # RedisCache that treats a Redis outage as a miss: sessions fall back to the
            # database and rate limits open, instead of every request failing.
            "BACKEND": "yukon_site.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 1.0},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "yukon-daily",
        }
    }

# Each request's user is read through the cache when every process shares it (Redis):
# one query less per request; a save or delete of the user drops the copy, and a copy
# lives at most USER_CACHE_SECONDS (accounts/backends.py).
AUTHENTICATION_BACKENDS = [
    "accounts.backends.CachedModelBackend" if REDIS_URL else "accounts.backends.LimitedModelBackend"
]
USER_CACHE_SECONDS = env.int("USER_CACHE_SECONDS", default=300)

# Sessions live in the database; with Redis they are read through the cache (cached_db):
# one query less per request, about 15% of a move (docs/api.md). Never cached_db with the
# local-memory cache: a logout in one worker process would not reach the others.
SESSION_ENGINE = env.str(
    "SESSION_ENGINE",
    default="django.contrib.sessions.backends." + ("cached_db" if REDIS_URL else "db"),
)

# A board page's rows, once checked against PostgreSQL, are kept this long by each web
# process for reads of the same page with the same Redis members (leaderboards/day_board.py).
LEADERBOARD_ROWS_SECONDS = env.float("LEADERBOARD_ROWS_SECONDS", default=2.0)
# The day's counts (played, won, guests, playing now: the home page, /api/daily/) are kept
# this long by each web process; each count goes over all of the day's games (games/daily.py).
DAY_COUNTS_SECONDS = env.float("DAY_COUNTS_SECONDS", default=5.0)

# Leagues and follows (social/, docs/leaderboards.md "Leagues"): limits per player and league.
LEAGUES_PER_PLAYER = env.int("LEAGUES_PER_PLAYER", default=20)
LEAGUE_MAX_MEMBERS = env.int("LEAGUE_MAX_MEMBERS", default=1000)
FOLLOWS_PER_PLAYER = env.int("FOLLOWS_PER_PLAYER", default=500)

# Celery: without Redis, tasks run in-process so `make run` needs no broker.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
if REDIS_SENTINELS:
    # kombu's and Celery's own Sentinel support: one sentinel:// URL per Sentinel, each
    # with the database and password of REDIS_URL, and the master's name as an option
    _parts = urlsplit(REDIS_URL)
    _auth = _parts.netloc.rpartition("@")[0]
    CELERY_BROKER_URL = CELERY_RESULT_BACKEND = ";".join(
        f"sentinel://{_auth + '@' if _auth else ''}{address}{_parts.path}"
        for address in REDIS_SENTINELS
    )
    CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"master_name": REDIS_SENTINEL_MASTER}
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
# No task keeps its result but the odds study's chunks (analysis.study_chunk), which the
# study reads: the site never reads one, and each would hold 357 B of Redis for a day
# (two a finished game: 2 GB at 1,000,000 players a day; docs/capacity.md). Eager tasks
# still hand their value to the caller.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_EAGER_PROPAGATES = CELERY_TASK_ALWAYS_EAGER
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A message a worker took but never acknowledged (the worker died) goes back to the queue
# after visibility_timeout seconds, which must exceed the longest task (prepare_daily:
# about a minute); workers look for such messages every CELERY_RESTORE_INTERVAL seconds.
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=600),
    "unacked_restore_interval": env.int("CELERY_RESTORE_INTERVAL", default=10),
    "unacked_restore_throttle": 1,
}
if REDIS_SENTINELS:
    CELERY_BROKER_TRANSPORT_OPTIONS["master_name"] = REDIS_SENTINEL_MASTER
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="celery")
# The odds study's chunks (`manage.py odds --publish --workers`, docs/odds.md) have a queue
# of their own that only study workers consume (`celery worker -Q study`): hours of solving
# queued there never delay verification, dailies or hints on the default queue, whose
# workers (no -Q) consume the default queue only.
CELERY_STUDY_QUEUE = env.str("CELERY_STUDY_QUEUE", default="study")
CELERY_TASK_ROUTES = {"analysis.study_chunk": {"queue": CELERY_STUDY_QUEUE}}
CELERY_TIMEZONE = "UTC"
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# A finished game still pending this long is queued for verification again (its message
# was lost: a worker or Redis died), at the next sweep.
VERIFY_PENDING_GRACE_SECONDS = env.float("VERIFY_PENDING_GRACE_SECONDS", default=300.0)
CELERY_BEAT_SCHEDULE = {
    # Finished games whose verify_game message was lost get queued again.
    "sweep-unverified-games": {
        "task": "games.sweep_unverified_games",
        "schedule": env.float("VERIFY_SWEEP_SECONDS", default=300.0),
    },
    # Closed days whose games are all verified get their signed close record (fair play).
    "seal-closed-days": {
        "task": "leaderboards.seal_closed_days",
        "schedule": 300.0,
    },
    # Boards that missed an update while Redis was away are rebuilt from PostgreSQL.
    "rebuild-stale-boards": {
        "task": "leaderboards.rebuild_stale_boards",
        "schedule": env.float("STALE_BOARDS_SWEEP_SECONDS", default=300.0),
    },
    # Tomorrow's challenges are prepared well before midnight UTC ...
    "prepare-tomorrow": {
        "task": "games.prepare_daily",
        "schedule": crontab(hour=22, minute=0),
    },
    # ... and a sweeper makes sure today (and, late in the day, tomorrow) is never missing.
    # Analyses due: daily games once their day has closed, practice games that were missed.
    "sweep-analyses": {
        "task": "analysis.sweep_analyses",
        "schedule": env.float("ANALYSIS_SWEEP_SECONDS", default=600.0),
    },
    "sweep-daily": {
        "task": "games.sweep_daily",
        "schedule": env.float("DAILY_SWEEP_SECONDS", default=900.0),
    },
    # Each variant's practice pool is topped up to PRACTICE_POOL_SIZE per tier (the
    # multi-deck ones to PRACTICE_POOL_MULTI_DECK_SIZE).
    "top-up-practice-pools": {
        "task": "games.top_up_practice_pools",
        "schedule": env.float("PRACTICE_POOL_SWEEP_SECONDS", default=600.0),
    },
    # The funnel's counts gathered in Redis go to PostgreSQL (docs/metrics.md): losing
    # Redis loses at most this many seconds of counts; the staff page is this far behind.
    "flush-metrics": {
        "task": "metrics.flush_counts",
        "schedule": env.float("METRICS_FLUSH_SECONDS", default=60.0),
    },
    # Provisional results of closed days with no open flag are confirmed.
    "confirm-provisional": {
        "task": "moderation.confirm_provisional",
        "schedule": env.float("PROVISIONAL_SWEEP_SECONDS", default=900.0),
    },
    # The moderation queue's priorities: open days' boards again, closed days' flags into
    # their closed bands (moderation/triage.py).
    "triage-flags": {
        "task": "moderation.triage_flags",
        "schedule": env.float("MODERATION_TRIAGE_SWEEP_SECONDS", default=300.0),
    },
    # Data retention (docs/operations.md, "Data retention"): where games were started
    # from is kept MODERATION_ORIGIN_DAYS, guests' games no account took GUEST_GAME_DAYS
    # after their day closed, sessions until they expire; evidence of an open case stays.
    "purge-origins": {
        "task": "moderation.purge_origins",
        "schedule": crontab(hour=3, minute=30),
    },
    "purge-guest-games": {
        "task": "games.purge_guest_games",
        "schedule": crontab(hour=3, minute=40),
    },
    "clear-expired-sessions": {
        "task": "games.clear_expired_sessions",
        "schedule": crontab(hour=3, minute=50),
    },
    # Reminders (docs/reminders.md): on the quarter hour, the players whose chosen local
    # time has just passed are sent theirs, in batches (reminders.tasks.REMINDER_WINDOW).
    "queue-reminders": {
        "task": "reminders.queue_reminders",
        "schedule": crontab(minute="*/15"),
    },
}

# ----- Reminders (docs/reminders.md) ----------------------------------------------------
# Web Push needs a VAPID key pair: VAPID_PRIVATE_KEY (base64url, raw 32-byte P-256 or DER;
# `manage.py vapid_keys` makes one) and VAPID_SUBJECT (mailto: or https:, for the push
# services to reach the operator); VAPID_PUBLIC_KEY, if set, must be its public half.
# Unset with DEBUG off: no push reminders (email ones still go). A development install
# derives its own pair from its SECRET_KEY (yukon_site/dev_secrets.py).
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
if DEBUG and not VAPID_PRIVATE_KEY:
    VAPID_PRIVATE_KEY = dev_secrets.vapid_private_key(SECRET_KEY)
VAPID_PUBLIC_KEY = dev_secrets.vapid_public_key(VAPID_PRIVATE_KEY) if VAPID_PRIVATE_KEY else ""
if env.str("VAPID_PUBLIC_KEY", default="") not in ("", VAPID_PUBLIC_KEY):
    raise ImproperlyConfigured("VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY.")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="mailto:webmaster@localhost")
# Players per task of a run (reminders.tasks.send_reminder_batch).
REMINDERS_BATCH_SIZE = env.int("REMINDERS_BATCH_SIZE", default=500)
# Push services a subscription may name (SSRF: the worker POSTs to the endpoint): host names,
# ".example.com" for its subdomains; the browsers' services by default.
REMINDERS_PUSH_HOSTS = env.list(
    "REMINDERS_PUSH_HOSTS",
    default=[
        "fcm.googleapis.com",
        "updates.push.services.mozilla.com",
        ".notify.windows.com",
        ".push.apple.com",
    ],
)
# The site's address in reminder mail (its links and one-click unsubscribe), e.g.
# https://yukon.example; empty: the first ALLOWED_HOSTS name (http://localhost:8000 in DEBUG).
SITE_URL = env.str("SITE_URL", default="")

# The daily challenge (games/daily.py, docs/daily.md): solver budget per candidate (a node
# budget, so that every machine picks the same deals; seconds only as a safety cap), bot
# playouts that rate a candidate's difficulty, candidates tried per tier before giving up.
DAILY_SOLVE_NODES = env.int("DAILY_SOLVE_NODES", default=4_000_000)
DAILY_SOLVE_SECONDS = env.float("DAILY_SOLVE_SECONDS", default=20.0)
# Cores per candidate: 2 runs the proof search and the restarts side by side, each with
# the whole budget (the verdict is the same; it comes sooner on a free second core).
DAILY_SOLVE_JOBS = env.int("DAILY_SOLVE_JOBS", default=2)
if DAILY_SOLVE_JOBS not in (1, 2):
    raise ImproperlyConfigured("DAILY_SOLVE_JOBS must be 1 or 2.")
DAILY_BOT_PLAYOUTS = env.int("DAILY_BOT_PLAYOUTS", default=200)
DAILY_MAX_ATTEMPTS = env.int("DAILY_MAX_ATTEMPTS", default=60)
# The weekly challenge (Sundays, Double Yukon): candidates tried before giving up (its
# solver budget is the dailies', docs/daily.md).
WEEKLY_MAX_ATTEMPTS = env.int("WEEKLY_MAX_ATTEMPTS", default=30)
# Without Redis there is no beat: GET /api/daily/ prepares a missing today in-process.
DAILY_PREPARE_ON_REQUEST = env.bool("DAILY_PREPARE_ON_REQUEST", default=not REDIS_URL)

# The practice pool (games/practice_pool.py, docs/practice.md): proven deals per variant and
# tier, each proven and rated with the daily budgets above. Size: undealt deals kept per
# tier; each refill run tries at most MAX_ATTEMPTS random numbers within SECONDS. Without
# Redis a request starts the refill in a thread and waits at most WAIT_SECONDS for it.
PRACTICE_POOL_SIZE = env.int("PRACTICE_POOL_SIZE", default=50 if REDIS_URL else 5)
PRACTICE_POOL_MAX_ATTEMPTS = env.int("PRACTICE_POOL_MAX_ATTEMPTS", default=400)
PRACTICE_POOL_REFILL_SECONDS = env.float("PRACTICE_POOL_REFILL_SECONDS", default=240.0)
PRACTICE_POOL_RETRY_AFTER = env.int("PRACTICE_POOL_RETRY_AFTER", default=30)
PRACTICE_POOL_FILL_ON_REQUEST = env.bool("PRACTICE_POOL_FILL_ON_REQUEST", default=not REDIS_URL)
PRACTICE_POOL_WAIT_SECONDS = env.float("PRACTICE_POOL_WAIT_SECONDS", default=2.0)
# The multi-deck pools (Double, Triple, Quadruple Yukon): the bot's rating of one of their
# deals costs about 2.5 to 15 CPU seconds, so they keep fewer deals per tier and a refill
# run of one gets less time (docs/practice.md, "The multi-deck variants").
PRACTICE_POOL_MULTI_DECK_SIZE = env.int(
    "PRACTICE_POOL_MULTI_DECK_SIZE", default=10 if REDIS_URL else 2
)
PRACTICE_POOL_MULTI_DECK_REFILL_SECONDS = env.float(
    "PRACTICE_POOL_MULTI_DECK_REFILL_SECONDS", default=120.0
)

# The practice coach and post-game analysis (docs/practice.md): the solver's time budget
# for a hint or "still winnable?", its memory cap (each search, in MB), the budget of each
# probe of an analysis and of a whole analysis, and whether practice games are analysed
# as soon as they are verified.
HINT_SECONDS = env.float("HINT_SECONDS", default=2.0)
COACH_MEMORY_MB = env.int("COACH_MEMORY_MB", default=256)
ANALYSIS_SOLVE_SECONDS = env.float("ANALYSIS_SOLVE_SECONDS", default=2.0)
ANALYSIS_TOTAL_SECONDS = env.float("ANALYSIS_TOTAL_SECONDS", default=30.0)
ANALYSIS_ON_FINISH = env.bool("ANALYSIS_ON_FINISH", default=True)

# Moderation (docs/moderation.md): when a verified daily game is flagged for a moderator.
# The flag rate on honest simulated play is measured in tests/moderation/test_flag_rate.py.
MODERATION_FAST_MOVE_MS = env.int("MODERATION_FAST_MOVE_MS", default=150)
MODERATION_FAST_MOVE_RUN = env.int("MODERATION_FAST_MOVE_RUN", default=8)
# Pacing is timed from the first move (docs/moderation.md, "Automatic flags").
MODERATION_EVEN_PACING_MIN_MOVES = env.int("MODERATION_EVEN_PACING_MIN_MOVES", default=40)
MODERATION_EVEN_PACING_MAX_SPREAD = env.float("MODERATION_EVEN_PACING_MAX_SPREAD", default=0.15)
MODERATION_MIN_HUMAN_MS_PER_MOVE = env.int("MODERATION_MIN_HUMAN_MS_PER_MOVE", default=400)
MODERATION_REACTION_MS = env.int("MODERATION_REACTION_MS", default=300)
MODERATION_REACTION_FAST_MOVES = env.int("MODERATION_REACTION_FAST_MOVES", default=3)
MODERATION_FLAT_TIMING_MIN_MOVES = env.int("MODERATION_FLAT_TIMING_MIN_MOVES", default=60)
MODERATION_FLAT_TIMING_MAX_RHO = env.float("MODERATION_FLAT_TIMING_MAX_RHO", default=0.05)
MODERATION_FLAT_TIMING_MAX_PAUSE = env.float("MODERATION_FLAT_TIMING_MAX_PAUSE", default=1.05)
MODERATION_SOLVER_LINE_MOVES = env.int("MODERATION_SOLVER_LINE_MOVES", default=25)
MODERATION_SOLVER_LINE_SHARE = env.float("MODERATION_SOLVER_LINE_SHARE", default=0.9)
MODERATION_SOLVER_AGREE_MIN = env.int("MODERATION_SOLVER_AGREE_MIN", default=25)
MODERATION_SOLVER_AGREE_SHARE = env.float("MODERATION_SOLVER_AGREE_SHARE", default=0.9)
# The worker's solver budget for one game's analysis: positions per move, and in all.
MODERATION_SOLVER_NODES = env.int("MODERATION_SOLVER_NODES", default=20_000)
MODERATION_SOLVER_GAME_NODES = env.int("MODERATION_SOLVER_GAME_NODES", default=1_000_000)
MODERATION_NEW_PLAYER_DAILIES = env.int("MODERATION_NEW_PLAYER_DAILIES", default=3)
MODERATION_SHARED_ADDRESS_ACCOUNTS = env.int("MODERATION_SHARED_ADDRESS_ACCOUNTS", default=3)
# Linked accounts (moderation/origins.py): a ranked game is flagged when games of its
# challenge sharing its device or network turned this many hidden cards before it did.
MODERATION_LINKED_SEEN_CARDS = env.int("MODERATION_LINKED_SEEN_CARDS", default=1)
# The clairvoyance check (moderation/clairvoyance.py), medium and hard games: flagged when
# the player's last RECORD_GAMES judged games are at most 10^LOG10 as likely for the masked
# player whose style fits them best as for one who knows the hidden cards (CONSULTED_LOG10:
# as for one who plays the solver's first move now and then); NODES bounds its solver a game.
MODERATION_CLAIRVOYANCE_LOG10 = env.float("MODERATION_CLAIRVOYANCE_LOG10", default=-1.0)
MODERATION_CONSULTED_LOG10 = env.float("MODERATION_CONSULTED_LOG10", default=-1.5)
MODERATION_CLAIRVOYANCE_RECORD_GAMES = env.int("MODERATION_CLAIRVOYANCE_RECORD_GAMES", default=10)
MODERATION_CLAIRVOYANCE_NODES = env.int("MODERATION_CLAIRVOYANCE_NODES", default=2_000_000)
# Data retention (docs/operations.md, "Data retention"; the privacy page shows these):
# days a game's origin (address, network, device id, user agent) is kept, and days after
# its day closed that a guest's game no account took is kept (a guest's practice game:
# after it started, once its session has ended). A case still open keeps its evidence.
MODERATION_ORIGIN_DAYS = env.int("MODERATION_ORIGIN_DAYS", default=30)
GUEST_GAME_DAYS = env.int("GUEST_GAME_DAYS", default=7)
# A session (a guest's games, a log-in) lasts this long after its last change (Django's
# default, written out because the privacy page states it).
SESSION_COOKIE_AGE = env.int("SESSION_COOKIE_AGE", default=14 * 24 * 3600)
# Provisional results (games/services/provisional.py): a ranked result of an account younger
# than this many days, or with fewer verified dailies before it, is marked provisional on
# its board until the close check (moderation.confirm_provisional) or a moderator confirms it.
PROVISIONAL_ACCOUNT_DAYS = env.int("PROVISIONAL_ACCOUNT_DAYS", default=7)
PROVISIONAL_DAILIES = env.int("PROVISIONAL_DAILIES", default=3)
MODERATION_REPORTS_PER_HOUR = env.int("MODERATION_REPORTS_PER_HOUR", default=10)
# The queue's ranks (moderation/triage.py) follow a board's new results at most this often
# (seconds; 0: on every result); a moderator's decision re-triages at once.
MODERATION_TRIAGE_REFRESH_SECONDS = env.int("MODERATION_TRIAGE_REFRESH_SECONDS", default=60)
# Proxies in front of gunicorn (1 in docker-compose.yml): the client's address is that many
# hops back in X-Forwarded-For (0: REMOTE_ADDR), for every use of it: the API's limits
# (REST_FRAMEWORK below), allauth's (ALLAUTH_TRUSTED_PROXY_COUNT below) and the origins of
# games (moderation.middleware). Only one setting: with allauth left on REMOTE_ADDR behind a
# proxy, every visitor was one address, and 30 wrong passwords a minute blocked every log-in.
NUM_PROXIES = env.int("NUM_PROXIES", default=0)
# A header set by your own reverse proxy (e.g. "HTTP_X_REAL_IP") for the origins of games,
# in place of NUM_PROXIES' hop; empty: that hop.
MODERATION_CLIENT_ADDRESS_HEADER = env.str("MODERATION_CLIENT_ADDRESS_HEADER", default="")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Translations (docs/development.md, "Translations"): English is the source text; a
# language is its catalogues in locale/<code>/LC_MESSAGES/ and one line here.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("es", "Español"),
]
# A checkout's catalogues are in locale/; an installed package (the image) carries them
# compiled in yukon_site/locale/ (setup.py). Whichever is missing is skipped.
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "yukon_site" / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
# In development (and tests) whitenoise serves straight from the apps' static folders;
# in production from STATIC_ROOT, filled by `manage.py collectstatic`.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
# The default storage's directory: sealed days' games files, written once by the worker and
# served by web (leaderboards/stored_files.py; docs/operations.md, "Games files"). Both
# must see the same directory (compose: the games-files volume); a checkout keeps it in
# var/ beside manage.py. Everything in it can be rebuilt: `manage.py write_games_files`.
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "var" / "media")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            # hashed, compressed, and module imports rewritten to the hashed names
            else "yukon_site.storage.StaticFilesStorage"
        )
    },
}

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    # DRF's parsers bounded by DATA_UPLOAD_MAX_MEMORY_SIZE (413) and nesting depth (400).
    "DEFAULT_PARSER_CLASSES": [
        "apikit.parsers.JSONParser",
        "apikit.parsers.FormParser",
        "apikit.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "apikit.exceptions.api_exception_handler",
    # Rates per scope (apikit/throttles.py reads them from here at request time):
    # sign-up and log-in per client address, moves per player (a burst per second,
    # far above human play, so only scripts hit it). Counted in the default cache.
    "DEFAULT_THROTTLE_RATES": {
        "signup": env.str("THROTTLE_SIGNUP", default="20/min"),
        "login": env.str("THROTTLE_LOGIN", default="30/min"),
        "moves": env.str("THROTTLE_MOVES", default="20/s"),
        # a closed day's move logs (GET /api/daily/<date>/<tier>/games.jsonl), per address
        "daily_games": env.str("THROTTLE_DAILY_GAMES", default="30/hour"),
        # per player: display-name changes (tries), exports and deletions (docs/accounts.md)
        "display_name": env.str("THROTTLE_DISPLAY_NAME", default="5/day"),
        "account_data": env.str("THROTTLE_ACCOUNT_DATA", default="10/hour"),
        # the metrics beacon, per address: one visit a day per browser and a few shares;
        # more from one address counts nothing (docs/metrics.md)
        "metrics_events": env.str("THROTTLE_METRICS_EVENTS", default="60/hour"),
    },
    "NUM_PROXIES": NUM_PROXIES,  # (above)
}

# Failed log-ins per account (accounts/login_backoff.py, docs/api.md): this many free,
# then a wait that doubles from the base up to the cap before each next try; no lock.
LOGIN_BACKOFF_FREE_FAILURES = env.int("LOGIN_BACKOFF_FREE_FAILURES", default=5)
LOGIN_BACKOFF_BASE_SECONDS = env.int("LOGIN_BACKOFF_BASE_SECONDS", default=1)
LOGIN_BACKOFF_MAX_SECONDS = env.int("LOGIN_BACKOFF_MAX_SECONDS", default=300)

# Budgets of costly calls (apikit/budgets.py; docs/api.md, "Budgets of costly calls"): new
# practice games, hints, "still winnable?" and analysis requests, per player (a guest: per
# session) and per client address ("_address"), in calls; and the solver's CPU seconds all
# of them spent ("solver_seconds"), shared. Windows "N/period" (s, min, hour, day, or
# "3/10s"), comma-separated; empty: no limit. Set far above a person's play (a hint costs
# 0.3 ms of solver time at the median), so that only scripts meet them (docs/api.md).
COSTLY_CALL_LIMITS = {
    "games": env.str("THROTTLE_GAMES", default="10/min,100/hour"),
    "games_address": env.str("THROTTLE_GAMES_ADDRESS", default="60/min,600/hour"),
    "hints": env.str("THROTTLE_HINTS", default="60/min,1000/hour"),
    "hints_address": env.str("THROTTLE_HINTS_ADDRESS", default="300/min,5000/hour"),
    "winnable": env.str("THROTTLE_WINNABLE", default="60/min,1000/hour"),
    "winnable_address": env.str("THROTTLE_WINNABLE_ADDRESS", default="300/min,5000/hour"),
    "analysis": env.str("THROTTLE_ANALYSIS", default="120/min,2000/hour"),
    "analysis_address": env.str("THROTTLE_ANALYSIS_ADDRESS", default="600/min,10000/hour"),
    "solver_seconds": env.str("THROTTLE_SOLVER_SECONDS", default="5/min,60/hour"),
    "solver_seconds_address": env.str("THROTTLE_SOLVER_SECONDS_ADDRESS", default="30/min,600/hour"),
    # A guest's start of a daily (and its resumes): a free scout, so a script dropping its
    # cookies meets the address's limit (games/api/views.py; docs/api.md).
    "guest_dailies": env.str("THROTTLE_GUEST_DAILIES", default="20/min,200/hour"),
    "guest_dailies_address": env.str(
        "THROTTLE_GUEST_DAILIES_ADDRESS", default="30/min,300/hour,1000/day"
    ),
}
for _scope, _limits in COSTLY_CALL_LIMITS.items():  # the format apikit.budgets reads
    _window = r"\s*\d+\s*/\s*\d*\s*(s|sec|second|m|min|minute|h|hour|d|day)s?\s*"
    if not re.fullmatch(rf"({_window}(,{_window})*)?", _limits):
        raise ImproperlyConfigured(
            f"THROTTLE_{_scope.upper()}: windows like 60/min,1000/hour or 3/10s, not {_limits!r}"
        )

# Account flows: django-allauth (docs/accounts.md). Log-in by username; an email address is
# optional and verified by a link; password reset by email. The headless JSON API
# (/_allauth/browser/v1/) serves the ES-module client, allauth's own pages (/accounts/)
# the rest, in the site's templates. Our backend stays the one that checks passwords (the
# per-account wait above); allauth logs in through it.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*"]
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupDetailsForm"  # the display name
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_CHANGE_EMAIL = True  # one address at a time: a new one replaces it once verified
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_USER_DISPLAY = "accounts.models.public_name"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Yukon Daily] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = False
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = False  # a reset for an unknown address mails nobody
# No email enumeration (docs/accounts.md, accounts/even_timing.py): an answer to a form that
# takes an email address (password reset, sign-up) goes out no sooner than this many
# seconds after its request came in, a sign-up that gave an address no sooner than the
# second; each well above the slowest such answers (bench/bench_account_timing.py).
ACCOUNT_EMAIL_ANSWER_SECONDS = env.float("ACCOUNT_EMAIL_ANSWER_SECONDS", default=0.25)
ACCOUNT_SIGNUP_ANSWER_SECONDS = env.float("ACCOUNT_SIGNUP_ANSWER_SECONDS", default=1.5)
ACCOUNT_REAUTHENTICATION_TIMEOUT = env.int("ACCOUNT_REAUTHENTICATION_TIMEOUT", default=300)
# The per-account wait (above) counts failed passwords; allauth only limits per address.
ACCOUNT_RATE_LIMITS = {"login_failed": env.str("ACCOUNT_LOGIN_FAILED_LIMIT", default="30/m/ip")}
ALLAUTH_TRUSTED_PROXY_COUNT = NUM_PROXIES  # its limits' "ip" is the client's, not the proxy's
HEADLESS_ADAPTER = "accounts.adapter.HeadlessAdapter"
HEADLESS_CLIENTS = ("browser",)
HEADLESS_SERVE_SPECIFICATION = True  # /_allauth/openapi.json (docs/api.md)
# TOTP and passkeys (WebAuthn) as second factors; a passkey alone also signs in.
MFA_SUPPORTED_TYPES = ["totp", "webauthn", "recovery_codes"]
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_TOTP_ISSUER = "Yukon Daily"
# Email is optional here, so an unverified (or no) address does not stop anyone, staff
# above all, from adding a second factor.
MFA_ALLOW_UNVERIFIED_EMAIL = True
# The relying party of a passkey is the host the page came from (allauth's MFA adapter:
# request.get_host()), which a browser accepts only as a name, never an IP address: so
# `make run` serves http://localhost:8000/, and at an address that cannot use passkeys
# the pages say so (frontend/static/frontend/js/shared/passkeys.js).
# Plain-HTTP origins (development on localhost, the browser tests) may register passkeys.
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = env.bool("MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN", default=DEBUG)

# Mail (verification links, password resets): EMAIL_URL (smtp+tls://user:pass@host:587 for
# STARTTLS, smtp+ssl://...:465, consolemail://; django-environ ignores "?tls=True"), else
# the usual EMAIL_HOST & co., else the console (development: messages are printed).
if env.str("EMAIL_URL", default=""):
    globals().update(env.email_url("EMAIL_URL"))
elif env.str("EMAIL_HOST", default=""):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = env.str("EMAIL_HOST")
    EMAIL_PORT = env.int("EMAIL_PORT", default=25)
    EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
    EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
    EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
    EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Yukon Daily <noreply@localhost>")
# Mail that arrives (docs/operations.md, "Mail"): the backend chosen above is the one the
# Celery task sends with, retrying while the server is away; the site's own backend only
# queues that task, so no request talks SMTP. Suppressed addresses (bounces, complaints)
# are fed back with `manage.py mail_feedback` or POST /api/mail/feedback/ with the header
# X-Mail-Feedback-Secret: MAIL_FEEDBACK_SECRET (unset: the endpoint refuses everything).
EMAIL_DELIVERY_BACKEND = env.str("EMAIL_DELIVERY_BACKEND", default=EMAIL_BACKEND)
EMAIL_BACKEND = "accounts.mail.QueuedEmailBackend"
if EMAIL_DELIVERY_BACKEND == EMAIL_BACKEND:
    raise ImproperlyConfigured("EMAIL_DELIVERY_BACKEND must be a backend that sends mail.")
MAIL_FEEDBACK_SECRET = env.str("MAIL_FEEDBACK_SECRET", default="")
if MAIL_FEEDBACK_SECRET and len(MAIL_FEEDBACK_SECRET) < 24:
    raise ImproperlyConfigured("MAIL_FEEDBACK_SECRET must be at least 24 characters.")

# Sign-in with an external OpenID Connect provider: off unless OIDC_SERVER_URL is set
# (its issuer URL; discovery at <url>/.well-known/openid-configuration), with the client
# id and secret registered there. Redirect URI (docs/accounts.md):
# <site>/accounts/oidc/<OIDC_PROVIDER_ID>/login/callback/
OIDC_SERVER_URL = env.str("OIDC_SERVER_URL", default="")
OIDC_APPS: list[dict[str, Any]] = []
SOCIALACCOUNT_PROVIDERS = {"openid_connect": {"APPS": OIDC_APPS}}
if OIDC_SERVER_URL:
    OIDC_APPS[:] = [
        {
            "provider_id": env.str("OIDC_PROVIDER_ID", default="oidc"),
            "name": env.str("OIDC_NAME", default="OpenID Connect"),
            "client_id": env.str("OIDC_CLIENT_ID"),
            "secret": env.str("OIDC_CLIENT_SECRET"),
            "settings": {"server_url": OIDC_SERVER_URL, "oauth_pkce_enabled": True},
        }
    ]
SOCIALACCOUNT_ADAPTER = "accounts.adapter.SocialAccountAdapter"
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False  # never join an account by a provider's email
SOCIALACCOUNT_AUTO_SIGNUP = False  # a first sign-in picks a username and a display name
SOCIALACCOUNT_LOGIN_ON_GET = False

# Security headers (docs/operations.md, "Security headers"). A strict content security
# policy: scripts and styles from the site's files and the nonce of each page
# (`nonce="{{ request.csp_nonce }}"`), never inline code, style attributes or eval
# (yukon_site/security_headers.py). Django's own defaults send the rest and are named here so
# that a change is seen: Referrer-Policy, X-Content-Type-Options, Cross-Origin-Opener-Policy,
# X-Frame-Options (HSTS and secure cookies: above, on with DEBUG off).
CONTENT_SECURITY_POLICY = security_headers.content_security_policy(OIDC_SERVER_URL)
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

SPECTACULAR_SETTINGS = {
    "TITLE": "Yukon Daily API",
    "DESCRIPTION": "Daily Yukon Solitaire: challenges, games, moves and leaderboards.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "ENUM_NAME_OVERRIDES": {
        "TierEnum": "games.models.Tier",
        "ChallengeTierEnum": "games.models.ChallengeTier",
        "GameStatusEnum": "games.models.Status",
        "MoveStatusEnum": "games.api.serializers.MOVE_STATUSES",
        "VerificationEnum": "games.models.Verification",
        "ModeEnum": "games.models.Mode",
        "ReportStatusEnum": "moderation.models.ReportStatus",  # game and league reports
        "SuppressionReasonEnum": "accounts.models.SuppressionReason",  # mail feedback
        "NoticeKindEnum": "moderation.models.NoticeKind",
        "AppealStatusEnum": "moderation.models.AppealStatus",
        # the metrics beacon's two shapes, each its own `event` (docs/metrics.md)
        "MetricsVisitEnum": ["visit"],
        "MetricsShareEnum": ["share"],
        "MetricsTierEnum": "metrics.services.TIERS",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "apikit.schema.shared_error_responses",  # 429 and 503
        "apikit.schema_routing.routing_and_csrf_responses",  # 404 of a refused path, CSRF 403
    ],
    # Request bodies as components of their own, so that a string the serializer refuses
    # blank says minLength 1 there (a response's may still be empty).
    "COMPONENT_SPLIT_REQUEST": True,
    # <id:...> (apikit/converters.py) as the numbers it takes, not its regex's digits
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "format": "int64", "minimum": 1, "maximum": 2**63 - 1},
    },
}

LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
# One JSON object a line in production (yukon_site/logging.py), readable text in development.
LOG_FORMAT = env.str("LOG_FORMAT", default="plain" if DEBUG else "json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"},
        "json": {"()": "yukon_site.logging.JsonFormatter"},
    },
    "filters": {"request_id": {"()": "yukon_site.middleware.RequestIdFilter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["request_id"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
    },
}
