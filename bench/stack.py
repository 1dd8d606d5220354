"""Starting and stopping the stack's processes for the benchmarks (bench_load,
bench_pooling, bench_capacity, bench_synthetic_day): gunicorn as yukon_site/gunicorn.py
configures it, a Celery worker, the bench's own process set up as the stack's, and
logged-in players. The CPU each process
used is bench_capacity's ``process_table`` and ``tree_cpu``."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent


def start_web(
    env: dict[str, str], log: IO[bytes], *, workers: int, threads: int | None = None
) -> subprocess.Popen[bytes]:
    """gunicorn on a free loopback port (wait_for_gunicorn reads which from ``log``);
    ``threads`` > 1 makes its workers gthread (None: yukon_site/gunicorn.py's)."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "yukon_site.wsgi:application",
            "--config",
            "python:yukon_site.gunicorn",
            "--bind",
            "127.0.0.1:0",
            "--workers",
            str(workers),
            *(["--threads", str(threads)] if threads is not None else []),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def start_worker(
    env: dict[str, str], log: IO[bytes], *, concurrency: int | None = None, niceness: int = 0
) -> subprocess.Popen[bytes]:
    """A Celery worker: one process (``--pool=solo``) without ``concurrency``, else a
    prefork pool of that many. ``niceness`` > 0 runs it at a lower CPU priority, as
    docker-compose.yml's cpu_shares has it (``nice`` execs, so the pid is the worker's)."""
    pool = ["--pool=solo"] if concurrency is None else [f"--concurrency={concurrency}"]
    nice = ["nice", "-n", str(niceness)] if niceness else []
    return subprocess.Popen(
        [
            *nice,
            sys.executable,
            "-m",
            "celery",
            "-A",
            "yukon_site",
            "worker",
            *pool,
            "--loglevel=WARNING",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop(*processes: subprocess.Popen[bytes]) -> None:
    """SIGTERM to each process's group (each started its own session), then wait."""
    for process in processes:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(30)


def wait_for_gunicorn(log: Path, process: subprocess.Popen[bytes]) -> str:
    """Its address once /healthz answers 200 (the first request of a busy machine's fresh
    processes can take seconds)."""
    import httpx

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("gunicorn exited:\n" + log.read_text()[-3000:])
        found = re.search(r"Listening at: (http://127\.0\.0\.1:\d+)", log.read_text())
        if found:
            try:
                if httpx.get(f"{found.group(1)}/healthz", timeout=30).status_code == 200:
                    return found.group(1)
            except httpx.HTTPError:
                pass
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer /healthz:\n" + log.read_text()[-3000:])


def set_up_as_stack(production: dict[str, str], names: Iterable[str]) -> None:
    """This process with the stack's settings (``production``, bench_load's ``stack_env``)
    for ``names``, the rest of its environment as it is; the database migrated as the
    stack's migrate service does it; Django set up."""
    for name in names:
        os.environ[name] = production[name]
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=production,
        check=True,
    )
    import django

    django.setup()


def make_players(prefix: str, count: int) -> list[str]:
    """``count`` new accounts, logged in: their session cookies' values."""
    from django.test import Client

    from accounts.models import User

    sessions = []
    for n in range(count):
        user = User.objects.create_user(username=f"{prefix}{n}", display_name=f"{prefix} {n}")
        client = Client()
        client.force_login(user)
        sessions.append(client.cookies["sessionid"].value)
    return sessions
