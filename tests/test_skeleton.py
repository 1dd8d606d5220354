"""The project skeleton: settings from the environment, pages, API schema, services."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import environ
import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str, **env_changes: str | None) -> subprocess.CompletedProcess[str]:
    """Run code in a fresh interpreter so settings are read again from the environment."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "yukon_site.settings"}
    for name, value in env_changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_database_settings_come_from_database_url() -> None:
    configured = settings.DATABASES["default"]
    url = os.environ.get("DATABASE_URL")
    if url:
        expected = environ.Env.db_url_config(url)
        # Django's PostgreSQL backend is served by ours, its subclass (yukon_site/postgresql)
        engines = {"django.db.backends.postgresql": "yukon_site.postgresql"}
        assert configured["ENGINE"] == engines.get(expected["ENGINE"], expected["ENGINE"])
        assert str(configured.get("HOST", "")) == str(expected.get("HOST", ""))
        assert str(configured.get("PORT", "")) == str(expected.get("PORT", ""))
    else:
        assert configured["ENGINE"] == "django.db.backends.sqlite3"


@pytest.mark.postgres
@pytest.mark.django_db
def test_connection_is_postgresql_when_database_url_says_so() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('server_version_num')::int")
        (version,) = cursor.fetchone()
    assert version >= 140000


@pytest.mark.django_db  # on a Sunday the page asks whether today's weekly was prepared
def test_home_page_renders(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "Yukon Daily" in response.content.decode()


def test_api_schema_is_a_valid_openapi_document(client: Client) -> None:
    from drf_spectacular.validation import validate_schema

    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    document = json.loads(response.content)
    assert document["openapi"].startswith("3.")
    assert document["info"]["title"] == "Yukon Daily API"
    validate_schema(document)  # raises on an invalid OpenAPI 3 document


def test_api_docs_page_renders(client: Client) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200


@pytest.mark.redis
def test_redis_from_redis_url_answers_ping() -> None:
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        assert client.ping() is True
    finally:
        client.close()
    # The Django cache uses the same server when REDIS_URL is set.
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    cache.set("skeleton-probe", "ok", timeout=30)
    assert cache.get("skeleton-probe") == "ok"
    cache.delete("skeleton-probe")


@pytest.mark.slow
def test_celery_runs_tasks_in_process_without_redis() -> None:
    result = run_python(
        """
        import django
        django.setup()
        from yukon_site.celery import app

        @app.task(name="skeleton.add")
        def add(x, y):
            return x + y

        assert app.conf.task_always_eager is True
        assert app.conf.task_eager_propagates is True
        print(add.delay(2, 3).get(timeout=5))
        """,
        REDIS_URL=None,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "5"


def test_settings_refuse_to_start_without_secret_key_when_debug_is_off() -> None:
    result = run_python(
        "import django; django.setup()", DEBUG="false", SECRET_KEY=None, DAILY_SECRET="x"
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
