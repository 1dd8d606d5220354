"""A real gunicorn serving the app on a free loopback port, in production settings
(DEBUG off), pointed at the test database; plus a small JSON client over httpx.

Used by tests/faults and tests/security. Tests that use it need committed data:
``django_db(transaction=True)``.
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import redis

from tests.workers import ROOT, worker_database_url

TEST_SECRET_KEY = "gunicorn-tests-" + "x7Qp2" * 10
# fair play's signing key (docs/operations.md): a fresh one for each test session
TEST_RECEIPT_SIGNING_KEY = base64.b64encode(os.urandom(32)).decode("ascii")
_STATIC: dict[str, Path] = {}


def local_http(**options: Any) -> httpx.Client:
    """An HTTP client for this machine's plain-HTTP servers. ``verify=False`` spares it the
    TLS context httpx builds by default, reading every CA certificate: 40 ms of CPU a
    client, which polling loops and per-player clients paid over and over."""
    return httpx.Client(verify=False, **options)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def collected_static() -> Path:
    """collectstatic once per test process: DEBUG off serves the hashed manifest files.
    In a directory of its own, removed at exit: a test's tmp_path goes when the test has
    passed (tmp_path_retention_policy), while later tests' servers still read this one."""
    if "dir" not in _STATIC:
        target = Path(tempfile.mkdtemp(prefix="yukon-static-"))
        atexit.register(shutil.rmtree, target, ignore_errors=True)
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env={**production_env(), "STATIC_ROOT": str(target)},
            check=True,
            capture_output=True,
            timeout=120,
        )
        _STATIC["dir"] = target
    return _STATIC["dir"]


def production_env(**extra: str) -> dict[str, str]:
    """DEBUG off, secrets set, plain HTTP on loopback (no TLS redirect, cookies not Secure)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
        "DEBUG": "false",
        "SECRET_KEY": TEST_SECRET_KEY,
        "DAILY_SECRET": "gunicorn-tests-daily-secret",
        "RECEIPT_SIGNING_KEY": TEST_RECEIPT_SIGNING_KEY,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
        "LOG_FORMAT": "json",
        # tasks go to a queue nobody consumes unless a test starts a worker on it
        "CELERY_TASK_DEFAULT_QUEUE": f"gunicorn-{uuid.uuid4().hex[:8]}",
    }
    with contextlib.suppress(Exception):
        env["DATABASE_URL"] = worker_database_url()
    env.update(extra)
    return env


@contextlib.contextmanager
def gunicorn(
    log_path: Path, static_root: Path, *, workers: int = 2, **extra_env: str
) -> Iterator[str]:
    """Serve the app; yields its base URL; stops it (SIGTERM, then SIGKILL) afterwards."""
    port = free_port()
    env = production_env(STATIC_ROOT=str(static_root), **extra_env)
    log = log_path.open("ab")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "yukon_site.wsgi:application",
            "--config",
            "python:yukon_site.gunicorn",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        with local_http(timeout=2) as probe:
            while True:
                if process.poll() is not None:
                    raise RuntimeError("gunicorn exited:\n" + log_path.read_text()[-3000:])
                with contextlib.suppress(httpx.HTTPError):
                    if probe.get(f"{base}/healthz").status_code in (200, 503):
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError("gunicorn did not answer:\n" + log_path.read_text()[-3000:])
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        log.close()


class Browser:
    """A JSON client with its own cookies that sends the CSRF token like the site's JS."""

    def __init__(self, base: str, timeout: float = 10.0) -> None:
        self.http = local_http(base_url=base, timeout=timeout)
        self.http.get("/api/auth/me/")  # sets csrftoken

    def close(self) -> None:
        self.http.close()

    def headers(self) -> dict[str, str]:
        token = self.http.cookies.get("csrftoken")
        return {"X-CSRFToken": token} if token else {}

    def post(self, url: str, data: Any = None) -> httpx.Response:
        return self.http.post(url, json=data, headers=self.headers())

    def get(self, url: str) -> httpx.Response:
        return self.http.get(url)

    def sign_up(self, name: str, password: str = "a long enough passphrase 42") -> None:
        response = self.post(
            "/api/auth/signup/",
            {"username": name, "display_name": name.title(), "password": password},
        )
        assert response.status_code == 201, response.text


class RedisServer:
    """A redis-server of this test's own, with an append-only file so a restart keeps
    what it had (a board built before the outage comes back without the missed result)."""

    log_name = "redis.log"

    def __init__(self, workdir: Path, *options: str) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.options = list(options)  # more of redis-server's options: --replicaof ...
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def arguments(self) -> list[str]:
        return [
            *("--port", str(self.port), "--bind", "127.0.0.1", "--save", ""),
            *("--appendonly", "yes", "--dir", str(self.workdir), *self.options),
        ]

    def start(self) -> None:
        server = shutil.which("redis-server")
        assert server, "redis-server not on PATH"
        self.process = subprocess.Popen(
            [server, *self.arguments()],
            stdout=(self.workdir / self.log_name).open("ab"),
            stderr=subprocess.STDOUT,
        )
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(redis.RedisError):
                if client.ping():
                    return
            assert time.monotonic() < deadline, f"{server} {self.arguments()} did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()  # a clean shutdown writes the append-only file
            try:
                # (a CI run timed out at 10 s here with both cores busy)
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def kill(self) -> None:
        """Die at once, as a crashed host does: nothing flushed, nobody told."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


@contextlib.contextmanager
def redis_server(workdir: Path) -> Iterator[RedisServer]:
    server = RedisServer(workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()


class SentinelServer(RedisServer):
    """A Redis Sentinel of this test's own, on the shipped deploy/redis/sentinel.conf
    (docker-compose.yml's Sentinels) pointed at ``master``, and quicker to call a master
    down (``down_after_ms``) so that a drill takes seconds."""

    CONFIG = ROOT / "deploy" / "redis" / "sentinel.conf"
    log_name = "sentinel.log"

    def __init__(self, workdir: Path, master: RedisServer, *, down_after_ms: int = 1000) -> None:
        super().__init__(workdir)
        workdir.mkdir(parents=True, exist_ok=True)
        lines = []
        for shipped in self.CONFIG.read_text().splitlines():
            words = shipped.split()
            if words[:1] == ["port"]:
                lines.append(f"port {self.port}")
            elif words[:2] == ["sentinel", "monitor"]:
                self.master_name, quorum = words[2], words[5]
                lines.append(
                    f"sentinel monitor {self.master_name} 127.0.0.1 {master.port} {quorum}"
                )
            elif words[:2] == ["sentinel", "down-after-milliseconds"]:
                lines.append(f"sentinel down-after-milliseconds {words[2]} {down_after_ms}")
            else:
                lines.append(shipped)
        self.config = workdir / "sentinel.conf"  # Sentinel rewrites it as it learns
        self.config.write_text("\n".join([*lines, "bind 127.0.0.1", f"dir {workdir}", ""]))

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def arguments(self) -> list[str]:
        return [str(self.config), "--sentinel"]
