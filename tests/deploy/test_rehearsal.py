"""The deployment rehearsal (scripts/rehearse-deploy): the image and the compose stack, run.

The whole rehearsal runs once, with a Redis of its own and a PostgreSQL cluster of its own
that archives WAL with pgBackRest as the postgres service does: the Dockerfile's files
built into a wheel and installed in a fresh virtualenv, every compose service started with
its own command and environment (PgBouncer's with this machine's PgBouncer), a player
who wins today's daily through gunicorn and PgBouncer, then two webs and two workers. Around it: the
rehearsal refuses an image whose build stage leaves out an app, stops what it started when
it is stopped, and reads .dockerignore and compose files as Docker does.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from tests.deploy.test_apps import local_apps, rehearsal
from tests.faults.server import redis_server

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "rehearse-deploy"
# Data an app needs at run time beside its modules: the wheel must carry all of it.
APP_DATA_DIRS = ("templates", "static", "migrations")


def run_rehearsal(*args: str, timeout: float, env: dict[str, str] | None = None) -> tuple[int, str]:
    """Run the script in its own session; on a timeout it is told to stop (SIGTERM, as
    Ctrl-C would) so that it stops its services, and only then killed."""
    process = subprocess.Popen(
        [sys.executable, str(SCRIPT), *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        env={**os.environ, **(env or {})},
    )
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGTERM)
        try:
            output, _ = process.communicate(timeout=90)
        finally:
            os.killpg(process.pid, signal.SIGKILL)
        pytest.fail(f"the rehearsal took over {timeout:.0f}s:\n{output[-6000:]}")
    return process.returncode, output


def processes_using(path: Path) -> list[str]:
    """Live processes whose command line or working directory lies under ``path``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            cwd = os.readlink(f"/proc/{entry}/cwd")
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and (str(path) in argv or cwd.startswith(str(path))):
            found.append(f"{entry}: {argv[:200]}")
    return found


@pytest.fixture
def workdir(tmp_path: Path) -> Iterator[Path]:
    """The rehearsal's directory (its virtualenv is large: removed afterwards)."""
    path = tmp_path / "rehearsal"
    yield path
    shutil.rmtree(path, ignore_errors=True)


def assert_servers_released(output: str, redis_url: str) -> None:
    """The rehearsal's PostgreSQL is stopped and its directory removed, its Redis database
    emptied."""
    import redis

    cluster = re.search(r"postgres is a cluster of its own in (\S+) on", output)
    index = re.search(r"redis is database (\d+)", output)
    assert cluster and index, output[-3000:]
    directory = Path(cluster.group(1))
    assert not processes_using(directory), processes_using(directory)
    assert not directory.exists()
    assert redis.Redis.from_url(redis_url, db=int(index.group(1))).dbsize() == 0


def app_data_files() -> dict[str, list[str]]:
    """Per local app, every file of its templates, static files and migrations."""
    files: dict[str, list[str]] = {}
    for app in local_apps():
        for folder in APP_DATA_DIRS:
            for path in sorted((ROOT / app).rglob(f"{folder}/**/*")):
                relative = path.relative_to(ROOT).as_posix()
                if path.is_file() and "__pycache__" not in relative:
                    files.setdefault(app, []).append(relative)
    return files


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.celery
@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_the_shipped_image_and_compose_stack_rehearse(workdir: Path, tmp_path: Path) -> None:
    # A Redis of its own, as a deployment has: the suite's shared one may have no empty
    # database left by the time this runs.
    with redis_server(tmp_path) as own_redis:
        status, output = run_rehearsal(
            "--workdir",
            str(workdir),
            "--timeout",
            "900",
            timeout=1000,
            env={"REDIS_URL": own_redis.url},
        )
        assert status == 0, output[-8000:]
        assert_servers_released(output, own_redis.url)
    for step in (
        "stack: postgres archives its WAL with pgBackRest (pgbackrest check passed",
        "stack: rehearsal-pgbouncer-1 healthy",
        "stack: rehearsal-migrate-1 completed successfully",
        "stack: rehearsal-web-1 healthy",
        "stack: rehearsal-worker-1 healthy",
        "stack: rehearsal-beat-1 healthy",
        "play: /healthz 200; plain HTTP is redirected to HTTPS",
        "play: the admin login page's /static/admin/css/",
        "play: the fair-play checker /fair-play/yukon-verify.pyz: ",
        "play: the site speaks de:",
        "play: signed up rehearsal1 (Secure cookies)",
        "play: game 1 verified by the worker",
        "play: Rehearsal1 is on the",
        "stack: postgres-replica is a streaming replica of postgres (pg_basebackup -R",
        "play: Rehearsal1's page read from the replica (",
        "WAL receiver streaming, their reads on games_game); replica lag",
        "stack: rehearsal-web-2 healthy",
        "stack: rehearsal-worker-2 healthy",
        "scale: both webs serve the same boards",
        "scale: two webs, two workers, exactly one beat",
        "OK: scale rehearsed",
    ):
        assert step in output, f"missing {step!r}:\n{output[-6000:]}"
    assert re.search(r"alternating between ports \[\d+, \d+\]", output)
    # Every connection of the app's processes to the database went through PgBouncer's
    # fixed pool, in play and after scaling out.
    for step in ("play", "scale"):
        pooled = re.search(
            rf"{step}: through PgBouncer: (\d+) client connections of the app's processes on "
            r"(\d+) server connections to postgres, none direct; (\d+) transactions "
            r"\(pool_mode transaction, default_pool_size (\d+)\)",
            output,
        )
        assert pooled, f"{step} did not go through PgBouncer:\n{output[-6000:]}"
        clients, servers, transactions, pool = map(int, pooled.groups())
        assert 0 < servers <= pool and clients > 0 and transactions > 0, pooled.group(0)
    assert not processes_using(workdir), processes_using(workdir)

    (wheel,) = (workdir / "stages" / "build" / "wheels").glob("yukon_daily-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    data = app_data_files()
    assert {"frontend", "moderation", "analysis"} <= set(data)  # the finder finds them
    missing = [path for paths in data.values() for path in paths if path not in shipped]
    assert not missing, f"the wheel lacks {missing}"
    # The core as a library: typed, with its compiled search, without its tests.
    core = {"yukon/__init__.py", "yukon/py.typed", "yukon/engine/py.typed"}
    core |= {"yukon/solver/py.typed", "yukon/solver/_csolver.pyi", "yukon/solver/_cmulti.pyi"}
    assert core <= shipped, f"the wheel lacks {core - shipped}"
    for extension in ("_csolver", "_cmulti"):
        assert any(re.fullmatch(rf"yukon/solver/{extension}\..+\.so", name) for name in shipped)
    # The translations, compiled by setup.py: each language offered but English, both domains.
    languages = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
    catalogues = {
        f"yukon_site/locale/{code}/LC_MESSAGES/{domain}.mo"
        for code in languages
        for domain in ("django", "djangojs")
    }
    assert catalogues <= shipped, f"the wheel lacks {catalogues - shipped}"
    assert not [name for name in shipped if name.startswith(("yukon/tests/", "games/engine/"))]


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_an_image_whose_build_stage_leaves_out_an_app_is_refused(
    workdir: Path, tmp_path: Path
) -> None:
    """A Dockerfile once failed this way: the image's own collectstatic."""
    text = (ROOT / "Dockerfile").read_text()
    assert "COPY moderation moderation\n" in text
    broken = tmp_path / "Dockerfile"
    broken.write_text(text.replace("COPY moderation moderation\n", ""))
    status, output = run_rehearsal(
        "--dockerfile",
        str(broken),
        "--workdir",
        str(workdir),
        "--until",
        "image",
        timeout=500,
    )
    assert status == 1, output[-6000:]
    (failure,) = [line for line in output.splitlines() if "FAILED" in line]
    assert "collectstatic" in failure
    assert "ModuleNotFoundError: No module named 'moderation'" in failure
    assert not processes_using(workdir)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_stopped_rehearsal_stops_what_it_started(workdir: Path) -> None:
    """SIGTERM while pip builds the wheels: every process of it ends, none is left."""
    process = subprocess.Popen(
        [sys.executable, str(SCRIPT), "--workdir", str(workdir), "--until", "image"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    assert process.stdout is not None
    lines = []
    try:
        for line in process.stdout:
            lines.append(line)
            if "RUN pip wheel" in line:
                break
        # pip is running (in its own process group) when the rehearsal is told to stop
        deadline = time.monotonic() + 30
        while not processes_using(workdir) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert processes_using(workdir), "".join(lines)
        process.send_signal(signal.SIGTERM)
        rest, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    output = "".join(lines) + rest
    assert process.returncode == 1, output
    assert "FAILED" in output and "stopped by signal 15" in output
    assert not processes_using(workdir), output


def test_the_rehearsal_plays_no_day_that_closes_under_it() -> None:
    """A CI run once reached the rehearsal's play at 23:59 UTC: its first move came after
    the day closed (409). Within five minutes of the close it waits for the next day."""
    wait = rehearsal().wait_for_a_day_to_play
    day = dt.datetime(2026, 12, 6, tzinfo=dt.UTC)
    for at in (day, day.replace(hour=12), day.replace(hour=23, minute=55)):
        assert wait(at) == 0, at
    for at, seconds in (
        (day.replace(hour=23, minute=55, second=1), 301),
        (day.replace(hour=23, minute=59), 62),
        (day.replace(hour=23, minute=59, second=59, microsecond=500_000), 2.5),
    ):
        assert wait(at) == seconds, at
        assert (at + dt.timedelta(seconds=seconds)).date() == day.date() + dt.timedelta(days=1)


# ---------------------------------------------------------------- Docker's file formats


def test_dockerignore_patterns_as_docker_reads_them() -> None:
    ignore = rehearsal().DockerIgnore("**/__pycache__\n*.egg-info\n**/*.so\nbuild\n!build/keep\n")
    assert ignore.excluded("yukon/solver/__pycache__/x.pyc")
    assert ignore.excluded("__pycache__")
    assert ignore.excluded("yukon/solver/_csolver.cpython-311-x86_64-linux-gnu.so")
    assert ignore.excluded("yukon_daily.egg-info/PKG-INFO")
    assert not ignore.excluded("games/yukon_daily.egg-info")  # *.egg-info: top level only
    assert ignore.excluded("build/lib/x.py") and not ignore.excluded("build/keep")
    assert not ignore.excluded("yukon/solver/_csolver.c")
    assert not ignore.excluded("buildings/x.py")


def test_the_shipped_dockerignore_keeps_built_and_local_files_out() -> None:
    ignore = rehearsal().DockerIgnore((ROOT / ".dockerignore").read_text())
    for path in (
        ".git/HEAD",
        ".venv/bin/python",
        "db.sqlite3",
        "staticfiles/x.css",
        "yukon/solver/_csolver.cpython-311-x86_64-linux-gnu.so",
        "games/__pycache__/models.cpython-311.pyc",
        "tests/conftest.py",
        "yukon/tests/solver/fixtures/unwinnable.json",
    ):
        assert ignore.excluded(path), path
    for path in (
        "yukon/solver/_csolver.c",
        "yukon/solver/_cmulti.c",
        "yukon/engine/cards.py",
        "frontend/static/frontend/site.css",
        "manage.py",
    ):
        assert not ignore.excluded(path), path


def test_compose_interpolation() -> None:
    module = rehearsal()
    variables = {"A": "1", "EMPTY": ""}
    assert module.interpolate("${A}-${B:-two}-${EMPTY:-3}-$$HOSTNAME-$A", variables) == (
        "1-two-3-$HOSTNAME-1"
    )
    assert module.interpolate({"k": ["${A:?set A}"]}, variables) == {"k": ["1"]}
    assert module.interpolate("${EMPTY-unset}|${B-unset}|${EMPTY?}", variables) == "|unset|"
    with pytest.raises(module.RehearsalError, match="B: set B"):
        module.interpolate("${B:?set B}", variables)


def test_health_checks_are_read_as_compose_reads_them() -> None:
    check = rehearsal().HealthCheck.of(
        {"test": ["CMD-SHELL", "exit 0"], "interval": "1m30s", "timeout": "5s", "retries": 2}
    )
    assert check.argv == ["/bin/sh", "-c", "exit 0"]
    assert (check.interval, check.timeout, check.start_period, check.retries) == (90, 5, 0, 2)
    assert check.every == 6.0
    assert rehearsal().HealthCheck.of({"disable": True}) is None
