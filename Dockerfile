# Yukon Daily: one image for the web app (gunicorn), the Celery worker and Celery beat.
# docker-compose.yml starts it three times with different commands; docs/operations.md.

# ---- build: compile the solver's C extension into a wheel ------------------------------
FROM python:3.11-slim AS build
# gettext: msgfmt compiles the translation catalogues into the wheel (setup.py).
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev gettext \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# pip and the build backend at the locked versions, hash-checked (docs/operations.md,
# "Dependencies"); the wheel is built with them, not with whatever the index has that day.
COPY requirements/build.lock requirements/build.lock
RUN pip install --no-cache-dir --require-hashes -r requirements/build.lock
COPY pyproject.toml setup.py README.md ./
# Every package of pyproject.toml's list (the one list of apps), in its order; a directory's
# COPY copies its contents, hence a line each. tests/deploy/test_apps.py holds them together
# and scripts/rehearse-deploy builds and starts exactly these files.
COPY yukon_site yukon_site
COPY accounts accounts
COPY games games
COPY leaderboards leaderboards
COPY moderation moderation
COPY analysis analysis
COPY frontend frontend
COPY apikit apikit
COPY social social
COPY yukon yukon
COPY metrics metrics
COPY reminders reminders
# The translations' sources: the wheel carries them compiled (yukon_site/locale/).
COPY locale locale
RUN pip wheel --no-cache-dir --no-deps --no-build-isolation --wheel-dir /wheels .

# ---- run ---------------------------------------------------------------------------------
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=yukon_site.settings \
    STATIC_ROOT=/app/staticfiles \
    PORT=8000
RUN groupadd --system yukon && useradd --system --gid yukon --home-dir /app --shell /usr/sbin/nologin yukon
# The site's dependencies are exactly requirements/base.lock (hash-checked: the versions CI
# tested, as dev.lock pins them), in a layer of their own that a code change leaves cached;
# the app's wheel adds nothing to them, and `pip check` refuses a lock that lacks one.
COPY requirements/base.lock /tmp/requirements/base.lock
RUN pip install --no-cache-dir --require-hashes -r /tmp/requirements/base.lock \
    && rm -rf /tmp/requirements
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-deps /wheels/*.whl && rm -rf /wheels && pip check
# MEDIA_ROOT, the games-files volume's mount point (compose): made in the image, and given
# to yukon by the chown below, so that a new volume takes that owner (the worker writes it).
WORKDIR /app/media
WORKDIR /app
COPY manage.py ./
# Static files are collected at build time (whitenoise serves them, compressed and
# hashed); the throwaway secrets below exist only for this one command.
RUN DEBUG=false SECRET_KEY=collectstatic-only-not-a-secret DAILY_SECRET=collectstatic-only \
    RECEIPT_SIGNING_KEY=Y29sbGVjdHN0YXRpYy1vbmx5LW5vdC1hLWtleS0wMDA= \
    python manage.py collectstatic --noinput \
    && chown -R yukon:yukon /app
USER yukon
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4).status == 200 else 1)"]
CMD ["gunicorn", "yukon_site.wsgi:application", "--config", "python:yukon_site.gunicorn"]
