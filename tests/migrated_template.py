"""One migrated database per test run, copied by each xdist worker instead of migrated again.

pytest-django makes each worker's test database (``test_yukon_gw0``, ...) by running every
migration on an empty one: about 7 CPU-s of Django's migration state in every worker, and
PostgreSQL's work on the tables (three workers on a few quick files: 59 CPU-s, then 44).
With PostgreSQL under xdist, the first worker to need one migrates a template database
once for the run (``manage.py migrate``, in a process of its own) while the others wait
for it (tests/run_cache.py), and each worker's database is made from it
(``TEST["TEMPLATE"]``: ``CREATE DATABASE ... TEMPLATE``, a copy of its files);
pytest-django's migrate then finds nothing left to apply. The tables and the rows the
migrations and their ``post_migrate`` handlers make (content types, permissions, the
moderator group) are those a migration of each database would leave. The controller drops
the template when the run ends (tests/conftest.py); a run that is killed leaves it on the
server (scripts/test-services removes its whole cluster).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
NAME = "migrated-database"  # the run cache's entry (tests/run_cache.py): the template's name


def wanted(db: dict[str, Any], config: Any) -> bool:
    """A worker of an xdist run on PostgreSQL that makes its database with migrations."""
    return (
        bool(os.environ.get("PYTEST_XDIST_WORKER"))
        and "postgresql" in str(db.get("ENGINE", ""))
        and not config.getvalue("reuse_db")
        and not config.getvalue("nomigrations")
    )


def template_name(db: dict[str, Any]) -> str:
    return f"test_{db['NAME']}_template_{os.environ.get('PYTEST_XDIST_TESTRUNUID', '')[:8]}"


def database_url(db: dict[str, Any], name: str) -> str:
    user = quote(db.get("USER") or "", safe="")
    password = quote(db.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    return f"postgres://{auth}{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{name}"


def _server(db: dict[str, Any]) -> Any:
    """A connection to the server's maintenance database, for CREATE and DROP DATABASE."""
    import psycopg

    return psycopg.connect(database_url(db, "postgres"), autocommit=True)


def make(db: dict[str, Any], name: str) -> str:
    """An empty database ``name`` with every migration applied; returns its name."""
    drop(db, name)
    with _server(db) as server:
        server.execute(f'CREATE DATABASE "{name}"')
    migrate = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env={
            **os.environ,
            "DATABASE_URL": database_url(db, name),
            "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
        },
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if migrate.returncode != 0:
        raise RuntimeError(f"migrating the template database failed:\n{migrate.stderr[-5000:]}")
    return name


def drop(db: dict[str, Any], name: str) -> None:
    with _server(db) as server:
        server.execute(f'DROP DATABASE IF EXISTS "{name}"')
