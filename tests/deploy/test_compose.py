"""docker-compose.yml and the Dockerfile, held to the settings the app really reads.

There is no Docker engine here: the file is parsed (PyYAML) and every service's command,
port and environment is checked against settings.py, the gunicorn config and the Celery
app; then the production settings are loaded from exactly the web service's environment.
"""

from __future__ import annotations

import ast
import configparser
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("migrate", "web", "worker", "study-worker", "beat")
LONG_RUNNING = ("postgres", "pgbouncer", "redis", "web", "worker", "study-worker", "beat")
# The `sentinel` profile (docs/operations.md, "Redis that fails over"): up only when asked.
SENTINELS = ("sentinel-1", "sentinel-2", "sentinel-3")
SENTINEL_PROFILE = ("redis-replica", *SENTINELS)
# Through PgBouncer; migrate alone keeps a direct connection (its comment says why).
POOLED = ("web", "worker", "study-worker", "beat")
# Must reach every app service: without them settings refuse to load (DEBUG off) or the
# app would quietly run on SQLite and in-process tasks.
REQUIRED = {
    "DEBUG",
    "SECRET_KEY",
    "DAILY_SECRET",
    "RECEIPT_SIGNING_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "REDIS_URL",
}
SAMPLE = {
    "SECRET_KEY": "k" * 20 + "-sample-secret-key-for-the-compose-test-0123456789",
    "DAILY_SECRET": "sample-daily-secret",
    "RECEIPT_SIGNING_KEY": "c2FtcGxlLXJlY2VpcHQta2V5LWZvci10aGUtdGVzdDA=",
    "POSTGRES_PASSWORD": "pw",
    "SITE_HOST": "yukon.example",
}


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data


_VAR = re.compile(r"\$\{(\w+)(?:(:?[-?])([^}]*))?\}|\$\$")


def interpolate(value: str, variables: dict[str, str]) -> str:
    """Compose's ${VAR}, ${VAR:-default}, ${VAR:?error} and $$, as `docker compose` does."""

    def one(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name, op, arg = match.groups()
        if variables.get(name):
            return variables[name]
        if op and op.endswith("?"):
            raise KeyError(f"{name}: {arg}")
        return arg if op else ""

    return _VAR.sub(one, value)


def environment(service: str, variables: dict[str, str] | None = None) -> dict[str, str]:
    env = compose()["services"][service].get("environment", {})
    assert isinstance(env, dict), f"{service}: environment as a mapping"
    return {k: interpolate(str(v), variables or SAMPLE) for k, v in env.items()}


def settings_env_names() -> set[str]:
    """Every variable settings.py reads: env("X"), env.<type>("X", ...)."""
    tree = ast.parse((ROOT / "yukon_site" / "settings.py").read_text())
    names = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        is_env = (isinstance(func, ast.Name) and func.id == "env") or (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "env"
        )
        first = node.args[0]
        if is_env and isinstance(first, ast.Constant) and isinstance(first.value, str):
            names.add(first.value)
    return names


def gunicorn_env_names() -> set[str]:
    source = (ROOT / "yukon_site" / "gunicorn.py").read_text()
    return set(re.findall(r"os\.environ\.get\(\s*[\"'](\w+)[\"']", source))


def test_the_settings_reader_finds_the_known_variables() -> None:
    names = settings_env_names()
    assert names >= REQUIRED
    assert {"THROTTLE_MOVES", "LOG_FORMAT", "SECURE_COOKIES"} <= names
    assert {"PORT", "WEB_CONCURRENCY"} <= gunicorn_env_names()


def test_services_and_named_volumes() -> None:
    data = compose()
    services = data["services"]
    assert set(services) == {"postgres", "pgbouncer", "redis", *SENTINEL_PROFILE, *APP_SERVICES}
    declared = set(data["volumes"])
    used = set()
    for name, service in services.items():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            assert not source.startswith((".", "/")), f"{name}: a named volume, not a bind mount"
            used.add(source)
    assert (
        used
        == declared
        == {
            "postgres-data",
            "pgbackrest-repo",
            "redis-data",
            "games-files",
            "redis-replica-data",
            *(f"{name}-data" for name in SENTINELS),
        }
    )
    assert services["postgres"]["volumes"] == [
        "postgres-data:/var/lib/postgresql/data",
        "pgbackrest-repo:/var/lib/pgbackrest",
    ]


def test_the_worker_writes_the_games_files_where_web_serves_them() -> None:
    """Sealed days' games files (leaderboards/stored_files.py): the worker writes them to
    MEDIA_ROOT, web sends them from there: one volume, mounted at MEDIA_ROOT in both."""
    services = compose()["services"]
    for name in ("web", "worker"):
        mounts = dict(volume.split(":")[::-1] for volume in services[name].get("volumes", []))
        assert mounts.get(environment(name)["MEDIA_ROOT"]) == "games-files", name
    # the mount point is made in the image (before its chown to the app's user), so a new
    # volume takes that owner: the worker can write it
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert dockerfile.index("WORKDIR /app/media") < dockerfile.index("chown -R yukon:yukon /app")


def test_every_long_running_service_has_a_healthcheck_and_waits_for_healthy_deps() -> None:
    services = compose()["services"]
    for name in (*LONG_RUNNING, *SENTINEL_PROFILE):
        check = services[name].get("healthcheck")
        assert check and not check.get("disable") and check["test"], f"{name}: healthcheck"
    for name in APP_SERVICES:
        depends = services[name]["depends_on"]
        assert depends["postgres"] == {"condition": "service_healthy"}, name
        if name != "migrate":
            assert depends["redis"] == {"condition": "service_healthy"}, name
            assert depends["pgbouncer"] == {"condition": "service_healthy"}, name
            assert depends["migrate"] == {"condition": "service_completed_successfully"}, name
    assert "/healthz" in " ".join(services["web"]["healthcheck"]["test"])
    assert services["migrate"]["restart"] == "no"


def test_every_variable_passed_is_one_the_app_reads_and_the_required_ones_are_passed() -> None:
    known = settings_env_names()
    for name in APP_SERVICES:
        env = environment(name)
        extra = set(env) - known - (gunicorn_env_names() if name == "web" else set())
        assert not extra, f"{name} passes variables nothing reads: {sorted(extra)}"
        assert set(env) >= REQUIRED, f"{name} lacks {sorted(REQUIRED - set(env))}"
        assert env["DEBUG"] == "false"
    # The operator must supply the secrets: no silent defaults.
    for secret in (
        "SECRET_KEY",
        "DAILY_SECRET",
        "RECEIPT_SIGNING_KEY",
        "POSTGRES_PASSWORD",
        "SITE_HOST",
    ):
        with pytest.raises(KeyError, match=secret):
            environment("web", {k: v for k, v in SAMPLE.items() if k != secret})


def test_database_and_redis_urls_point_at_their_services() -> None:
    services = compose()["services"]
    pg = {k: interpolate(str(v), SAMPLE) for k, v in services["postgres"]["environment"].items()}
    listen_port = int(pgbouncer_conf()["pgbouncer"]["listen_port"])
    for name in APP_SERVICES:
        env = environment(name)
        db = urlsplit(env["DATABASE_URL"])
        if name in POOLED:
            assert (db.scheme, db.hostname, db.port) == ("postgres", "pgbouncer", listen_port)
            assert env["DATABASE_POOLER"] == "pgbouncer", name
        else:
            assert (db.scheme, db.hostname, db.port) == ("postgres", "postgres", 5432)
            assert not env.get("DATABASE_POOLER"), name
        assert (db.username, db.password) == (pg["POSTGRES_USER"], pg["POSTGRES_PASSWORD"])
        assert db.path.lstrip("/") == pg["POSTGRES_DB"]
        redis_url = urlsplit(env["REDIS_URL"])
        assert (redis_url.scheme, redis_url.hostname, redis_url.port) == ("redis", "redis", 6379)
        hosts = env["ALLOWED_HOSTS"].split(",")
        # the public name, and what the container health check calls
        assert hosts[0] == SAMPLE["SITE_HOST"] and "127.0.0.1" in hosts


def test_commands_and_ports() -> None:
    services = compose()["services"]
    web = services["web"]
    command = web["command"]
    assert command[:2] == ["gunicorn", "yukon_site.wsgi:application"]
    assert command[2:] == ["--config", "python:yukon_site.gunicorn"]
    port = environment("web")["PORT"]
    (mapping,) = web["ports"]
    assert interpolate(mapping, SAMPLE).split(":")[-1] == port == "8000"
    assert f"127.0.0.1:{port}/healthz" in " ".join(web["healthcheck"]["test"])
    # the gunicorn config binds the PORT it is given
    probe = subprocess.run(
        [sys.executable, "-c", "import yukon_site.gunicorn as g; print(g.bind, g.workers)"],
        cwd=ROOT,
        env={**os.environ, "PORT": port, "WEB_CONCURRENCY": "3"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert probe.stdout.split() == [f"0.0.0.0:{port}", "3"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "yukon_site", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "yukon_site", "beat"]
    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--noinput"]
    assert services["pgbouncer"]["command"] == ["start-pgbouncer", "/etc/pgbouncer/pgbouncer.ini"]
    for name in ("postgres", "pgbouncer", "redis", "worker", "beat", "migrate", *SENTINEL_PROFILE):
        assert "ports" not in services[name], f"{name} is not published"


def test_celery_app_named_by_the_commands_has_the_beat_schedule() -> None:
    from yukon_site.celery import app

    assert app.main == "yukon_site"
    assert {
        "sweep-unverified-games",
        "rebuild-stale-boards",
        "sweep-daily",
        "top-up-practice-pools",
    } <= set(app.conf.beat_schedule)


def test_dockerfile() -> None:
    text = (ROOT / "Dockerfile").read_text()
    froms = re.findall(r"^FROM (\S+)", text, re.M)
    assert froms and all(image == "python:3.11-slim" for image in froms)
    users = re.findall(r"^USER (\S+)", text, re.M)
    assert users and users[-1] not in {"root", "0"}
    assert "collectstatic --noinput" in text
    assert re.search(r"^HEALTHCHECK .*\n?.*/healthz", text, re.M)
    cmd = re.search(r"^CMD (\[.*\])$", text, re.M)
    assert cmd and yaml.safe_load(cmd.group(1)) == compose()["services"]["web"]["command"]
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "db.sqlite3"} <= set(ignored)


# ---------------------------------------------------------------- connection pooling (PgBouncer)
# docs/operations.md, "Connection pooling"; scripts/rehearse-deploy runs this service.

PGBOUNCER_IMAGE = ROOT / "deploy" / "pgbouncer"


def pgbouncer_conf() -> configparser.ConfigParser:
    conf = configparser.ConfigParser(interpolation=None)
    conf.read_string((PGBOUNCER_IMAGE / "pgbouncer.ini").read_text())
    return conf


def test_pgbouncer_pools_transactions_on_a_fixed_number_of_server_connections() -> None:
    services = compose()["services"]
    service = services["pgbouncer"]
    assert service["build"] == "deploy/pgbouncer"
    assert service["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    conf = pgbouncer_conf()
    own = conf["pgbouncer"]
    assert own["pool_mode"] == "transaction"
    pool = int(own["default_pool_size"])
    assert 0 < pool <= int(own["max_db_connections"]) < 100  # PostgreSQL's max_connections
    assert int(own["max_client_conn"]) >= 200
    # Clients and PgBouncer itself log in with the postgres service's user and password:
    # start-pgbouncer writes them to the auth_file the configuration names.
    pg = {k: interpolate(str(v), SAMPLE) for k, v in services["postgres"]["environment"].items()}
    env = environment("pgbouncer")
    assert (env["POSTGRES_USER"], env["POSTGRES_PASSWORD"]) == (
        pg["POSTGRES_USER"],
        pg["POSTGRES_PASSWORD"],
    )
    assert own["auth_type"] == "scram-sha-256" and own["auth_file"].startswith("/tmp/")
    assert pg["POSTGRES_USER"] in own["admin_users"].split(",")  # SHOW POOLS, SHOW STATS
    ((name, target),) = conf["databases"].items()
    words = dict(word.split("=", 1) for word in target.split())
    assert name == words["dbname"] == pg["POSTGRES_DB"]
    assert (words["host"], words["port"]) == ("postgres", "5432")
    # Its health check asks its own port.
    check = " ".join(service["healthcheck"]["test"])
    assert f"pg_isready --dbname=postgres://{pg['POSTGRES_USER']}@127.0.0.1:" in check
    assert f":{own['listen_port']}/{name}" in check
    # The image: Debian's PgBouncer (the version the rehearsal and CI run), not as root,
    # the command's files where the compose command names them.
    dockerfile = (PGBOUNCER_IMAGE / "Dockerfile").read_text()
    assert re.findall(r"^FROM (\S+)$", dockerfile, re.M) == ["debian:bookworm-slim"]
    assert re.search(r"apt-get install .*\bpgbouncer\b.*\bpostgresql-client\b", dockerfile)
    assert re.findall(r"^USER (\S+)$", dockerfile, re.M) == ["postgres"]
    command = service["command"]
    cmd = re.search(r"^CMD (\[.*\])$", dockerfile, re.M)
    assert cmd and yaml.safe_load(cmd.group(1)) == command
    assert f"COPY pgbouncer.ini {command[1]}\n" in dockerfile
    assert f"COPY start-pgbouncer /usr/local/bin/{command[0]}\n" in dockerfile
    assert os.access(PGBOUNCER_IMAGE / "start-pgbouncer", os.X_OK)


def test_start_pgbouncer_writes_the_auth_file_its_configuration_names(tmp_path: Path) -> None:
    config = tmp_path / "pgbouncer.ini"
    auth_file = tmp_path / "userlist.txt"
    config.write_text(
        (PGBOUNCER_IMAGE / "pgbouncer.ini").read_text().replace("/tmp/userlist.txt", str(auth_file))
    )
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "pgbouncer").write_text('#!/bin/sh\necho "pgbouncer $*"\n')
    (fake / "pgbouncer").chmod(0o755)
    result = subprocess.run(
        [str(PGBOUNCER_IMAGE / "start-pgbouncer"), str(config)],
        env={
            "PATH": f"{fake}:/usr/bin:/bin",
            "POSTGRES_USER": "yukon",
            "POSTGRES_PASSWORD": 'a"b c',
        },
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout == f"pgbouncer {config}\n"  # exec'd, with the configuration
    assert auth_file.read_text() == '"yukon" "a""b c"\n'  # PgBouncer's quoting
    assert auth_file.stat().st_mode & 0o777 == 0o600


@pytest.mark.slow
def test_the_pooled_services_settings_keep_to_what_transaction_pooling_allows() -> None:
    """DATABASE_POOLER=pgbouncer: no server-side cursors, psycopg prepares nothing; the
    direct connection (migrate) keeps both."""
    probe = (
        "import json, os, runpy, sys\n"
        "out = {}\n"
        "for name, env in json.loads(sys.argv[1]).items():\n"
        "    os.environ.clear(); os.environ.update(env)\n"
        "    db = runpy.run_path('yukon_site/settings.py')['DATABASES']['default']\n"
        "    options = db.get('OPTIONS', {})\n"
        "    out[name] = [db.get('DISABLE_SERVER_SIDE_CURSORS', False),\n"
        "                 'prepare_threshold' in options,\n"
        "                 options.get('prepare_threshold', 'unset'), db['CONN_MAX_AGE']]\n"
        "print(json.dumps(out))\n"
    )
    envs = {name: {"PATH": os.environ["PATH"], **environment(name)} for name in ("web", "migrate")}
    envs["bad"] = {**envs["web"], "DATABASE_POOLER": "pgbouncr"}
    result = subprocess.run(
        [sys.executable, "-c", probe, json.dumps({k: envs[k] for k in ("web", "migrate")})],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(result.stdout) == {
        "web": [True, True, None, 60],
        "migrate": [False, False, "unset", 60],
    }
    typo = subprocess.run(
        [sys.executable, "-c", probe, json.dumps({"bad": envs["bad"]})],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "DATABASE_POOLER must be empty or pgbouncer" in typo.stderr


# ---------------------------------------------------------------- Redis that fails over
# docs/operations.md, "Redis that fails over"; tests/faults/test_redis_failover.py drills
# deploy/redis/sentinel.conf with real servers.

REDIS_IMAGE = ROOT / "deploy" / "redis"
SENTINELS_AS_DOCUMENTED = "sentinel-1:26379,sentinel-2:26379,sentinel-3:26379"


def sentinel_conf() -> list[list[str]]:
    text = (REDIS_IMAGE / "sentinel.conf").read_text()
    return [line.split() for line in text.splitlines() if line and not line.startswith("#")]


def test_the_sentinel_profile_watches_redis_with_a_majority_of_three() -> None:
    services = compose()["services"]
    profiled = {name for name, service in services.items() if service.get("profiles")}
    assert profiled == set(SENTINEL_PROFILE)
    assert all(services[name]["profiles"] == ["sentinel"] for name in profiled)
    # nothing always started may wait for what the profile may leave down
    for name, service in services.items():
        assert not set(service.get("depends_on") or {}) & profiled, name
    # the replica follows `redis`; each knows the other by its service name
    replica = services["redis-replica"]["command"]
    assert replica[replica.index("--replicaof") + 1 :][:2] == ["redis", "6379"]
    assert replica[replica.index("--replica-announce-ip") + 1] == "redis-replica"
    master = services["redis"]["command"]
    assert master[master.index("--replica-announce-ip") + 1] == "redis"
    # three Sentinels of the image, each on its own volume and announcing its own name
    for name in SENTINELS:
        sentinel = services[name]
        assert sentinel["build"] == "deploy/redis" and sentinel["command"] == ["start-sentinel"]
        assert environment(name) == {"SENTINEL_HOST": name}
        assert sentinel["volumes"] == [f"{name}-data:/data"]
    conf = sentinel_conf()
    assert ["port", "26379"] in conf
    ((_, _, watched, host, port, quorum),) = [w for w in conf if w[:2] == ["sentinel", "monitor"]]
    assert (host, port) == ("redis", "6379")
    assert len(SENTINELS) // 2 < int(quorum) <= len(SENTINELS)  # a majority decides
    # the app asks for that master, at the Sentinels the compose file tells operators to name
    web = environment("web", {**SAMPLE, "REDIS_SENTINELS": SENTINELS_AS_DOCUMENTED})
    assert web["REDIS_SENTINEL_MASTER"] == watched
    assert [a.split(":") for a in web["REDIS_SENTINELS"].split(",")] == [
        [name, "26379"] for name in SENTINELS
    ]
    assert SENTINELS_AS_DOCUMENTED in (ROOT / "docker-compose.yml").read_text()
    assert environment("web")["REDIS_SENTINELS"] == ""  # without the profile: straight to redis
    dockerfile = (REDIS_IMAGE / "Dockerfile").read_text()
    assert re.findall(r"^FROM (\S+)$", dockerfile, re.M) == ["redis:7"]
    assert "COPY start-sentinel /usr/local/bin/start-sentinel\n" in dockerfile
    assert os.access(REDIS_IMAGE / "start-sentinel", os.X_OK)


def test_start_sentinel_seeds_its_volume_once_and_keeps_what_sentinel_wrote(
    tmp_path: Path,
) -> None:
    """Sentinel rewrites its config with what it learns (the master after a failover): a
    restart must start from that, not from the image's file."""
    script = (REDIS_IMAGE / "start-sentinel").read_text()
    image_conf = tmp_path / "etc" / "sentinel.conf"
    image_conf.parent.mkdir()
    image_conf.write_text((REDIS_IMAGE / "sentinel.conf").read_text())
    data = tmp_path / "data"
    data.mkdir()
    runnable = tmp_path / "start-sentinel"
    runnable.write_text(
        script.replace("/data/", f"{data}/").replace("/etc/yukon/", f"{image_conf.parent}/")
    )
    runnable.chmod(0o755)
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "docker-entrypoint.sh").write_text('#!/bin/sh\necho "$*"\n')
    (fake / "docker-entrypoint.sh").chmod(0o755)

    def start(**env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(runnable)],
            env={"PATH": f"{fake}:/usr/bin:/bin", **env},
            capture_output=True,
            text=True,
            check=False,
        )

    first = start(SENTINEL_HOST="sentinel-2")
    assert first.returncode == 0, first.stderr
    assert first.stdout == f"redis-server {data}/sentinel.conf --sentinel\n"
    seeded = (data / "sentinel.conf").read_text()
    assert seeded.endswith("sentinel announce-ip sentinel-2\n")
    (data / "sentinel.conf").write_text(seeded + "sentinel known-replica yukon redis 6379\n")
    assert start(SENTINEL_HOST="sentinel-2").returncode == 0
    assert (data / "sentinel.conf").read_text().endswith("known-replica yukon redis 6379\n")
    (data / "sentinel.conf").unlink()
    missing = start()
    assert missing.returncode != 0 and "SENTINEL_HOST" in missing.stderr


@pytest.mark.slow
def test_the_settings_send_celery_through_the_sentinels_too() -> None:
    """Celery's broker and result backend follow the master as the other clients do:
    kombu's sentinel:// transport, one URL per Sentinel, with REDIS_URL's database."""
    probe = (
        "import json, os, runpy, sys\n"
        "os.environ.clear(); os.environ.update(json.loads(sys.argv[1]))\n"
        "s = runpy.run_path('yukon_site/settings.py')\n"
        "print(json.dumps([s['CELERY_BROKER_URL'], s['CELERY_RESULT_BACKEND'],\n"
        "    s['CELERY_BROKER_TRANSPORT_OPTIONS']['master_name'],\n"
        "    s['CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS'], s['REDIS_WAIT_FOR_REPLICAS']]))\n"
    )
    env = {
        "PATH": os.environ["PATH"],
        **environment("web", {**SAMPLE, "REDIS_SENTINELS": SENTINELS_AS_DOCUMENTED}),
    }
    result = subprocess.run(
        [sys.executable, "-c", probe, json.dumps(env)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    urls = ";".join(f"sentinel://{name}:26379/0" for name in SENTINELS)
    assert json.loads(result.stdout) == [urls, urls, "yukon", {"master_name": "yukon"}, True]


# ---------------------------------------------------------------- WAL archiving (pgBackRest)
# docs/operations.md, "Backups and point-in-time recovery"; scripts/pitr-drill restores
# with these settings (tests/deploy/test_pitr.py).

POSTGRES_IMAGE = ROOT / "deploy" / "postgres"
OFFSITE_SAMPLE = {
    "PGBACKREST_REPO2_S3_BUCKET": "yukon-backups",
    "PGBACKREST_REPO2_S3_ENDPOINT": "s3.eu-central-1.amazonaws.com",
    "PGBACKREST_REPO2_S3_REGION": "eu-central-1",
    "PGBACKREST_REPO2_S3_KEY": "sample-key",
    "PGBACKREST_REPO2_S3_KEY_SECRET": "sample-key-secret",
    "PGBACKREST_REPO2_CIPHER_PASS": "sample passphrase",
}


def pgbackrest_conf() -> configparser.ConfigParser:
    conf = configparser.ConfigParser(interpolation=None)
    conf.read_string((POSTGRES_IMAGE / "pgbackrest.conf").read_text())
    return conf


def test_the_database_archives_every_wal_segment_with_pgbackrest() -> None:
    postgres = compose()["services"]["postgres"]
    assert postgres["build"] == "deploy/postgres"
    command = postgres["command"]
    assert command[0] == "postgres" and command[1::2] == ["-c"] * (len(command) // 2)
    settings = dict(setting.split("=", 1) for setting in command[2::2])
    assert settings["archive_mode"] == "on" and settings["wal_level"] == "replica"
    archive = shlex.split(settings["archive_command"])
    assert archive[0] == "pgbackrest" and archive[-2:] == ["archive-push", "%p"]
    (stanza,) = [word.removeprefix("--stanza=") for word in archive if "--stanza=" in word]
    # The stanza's database is the data volume, reached as the image's superuser; the
    # repository is a volume of its own.
    mounts = {path: volume for volume, path in (v.split(":") for v in postgres["volumes"])}
    conf = pgbackrest_conf()
    assert mounts[conf[stanza]["pg1-path"]] == "postgres-data"
    assert conf[stanza]["pg1-user"] == postgres["environment"]["POSTGRES_USER"]
    assert mounts[conf["global"]["repo1-path"]] == "pgbackrest-repo"
    assert int(conf["global"]["repo1-retention-full"]) >= 2
    # The image: the compose file's PostgreSQL with pgBackRest, this file, the stanza made
    # on the first start.
    dockerfile = (POSTGRES_IMAGE / "Dockerfile").read_text()
    (base,) = re.findall(r"^FROM (\S+)$", dockerfile, re.M)
    assert base == "postgres:" + postgres["image"].split(":")[1]
    assert re.search(r"apt-get install .*\bpgbackrest\b", dockerfile)
    assert "COPY pgbackrest.conf /etc/pgbackrest/pgbackrest.conf\n" in dockerfile
    assert "COPY create-stanza.sh /docker-entrypoint-initdb.d/\n" in dockerfile
    init = POSTGRES_IMAGE / "create-stanza.sh"
    assert os.access(init, os.X_OK)
    assert f"pgbackrest --stanza={stanza} stanza-create\n" in init.read_text()


def test_the_copy_off_the_machine_is_an_encrypted_pgbackrest_repo2_set_by_environment() -> None:
    offsite = yaml.safe_load((POSTGRES_IMAGE / "offsite.yml").read_text())
    assert set(offsite["services"]) == {"postgres"}
    env = offsite["services"]["postgres"]["environment"]
    values = {name: interpolate(str(value), OFFSITE_SAMPLE) for name, value in env.items()}
    assert values["PGBACKREST_REPO2_TYPE"] == "s3"
    assert values["PGBACKREST_REPO2_CIPHER_TYPE"] == "aes-256-cbc"
    for required in OFFSITE_SAMPLE:  # no default stands in for a bucket or a secret
        with pytest.raises(KeyError, match=required):
            interpolate(
                str(env[required]), {k: v for k, v in OFFSITE_SAMPLE.items() if k != required}
            )
    if shutil.which("pgbackrest") is None:
        pytest.skip("needs pgBackRest (Debian package pgbackrest; .ci/run installs it)")
    # pgBackRest only warns about a variable it does not know: each must name an option.
    for name in env:
        assert name.startswith("PGBACKREST_REPO2_"), name
        option = "repo-" + name.removeprefix("PGBACKREST_REPO2_").lower().replace("_", "-")
        known = subprocess.run(
            ["pgbackrest", "help", "backup", option], capture_output=True, check=False
        )
        assert known.returncode == 0, f"{name}: pgBackRest has no option {option}"


@pytest.mark.slow
def test_production_settings_from_the_compose_environment_pass_check_deploy() -> None:
    env = {"PATH": os.environ["PATH"], **environment("web")}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize("missing", ["SECRET_KEY", "DAILY_SECRET", "RECEIPT_SIGNING_KEY"])
@pytest.mark.parametrize(
    "entry",
    [
        ["manage.py", "check"],
        ["manage.py", "migrate"],
        ["-c", "import yukon_site.wsgi"],
    ],
    ids=["manage-check", "manage-migrate", "wsgi"],
)
def test_a_missing_secret_stops_start_up_with_one_line(missing: str, entry: list[str]) -> None:
    env = {"PATH": os.environ["PATH"], **environment("web")}
    del env[missing]
    result = subprocess.run(
        [sys.executable, *entry],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode != 0
    lines = (result.stdout + result.stderr).strip().splitlines()
    assert len(lines) == 1, shlex.join(entry) + ":\n" + "\n".join(lines)
    assert missing in lines[0] and "Traceback" not in lines[0]
