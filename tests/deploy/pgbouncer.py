"""A throwaway PgBouncer run with the shipped configuration (deploy/pgbouncer/pgbouncer.ini)
in front of a given PostgreSQL: used by tests/deploy/test_pgbouncer.py and
bench/bench_pooling.py. The deployment rehearsal (scripts/rehearse-deploy) runs the
compose service itself, from its own command.

Only the places change: a free loopback port, a temporary directory for the auth file,
the server's address, and the pool size when asked; as root (PgBouncer refuses root) it
changes to the postgres user. Every database name goes to the given server (`*`), so a
test's own database works too.
"""

from __future__ import annotations

import configparser
import contextlib
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "deploy" / "pgbouncer" / "pgbouncer.ini"


@dataclass
class PgBouncer:
    port: int
    pid: int
    user: str
    password: str
    log: Path

    def url(self, database: str) -> str:
        """The URL a client uses for ``database`` through PgBouncer."""
        netloc = f"{self.user}:{self.password}@127.0.0.1:{self.port}"
        return urlunsplit(("postgres", netloc, f"/{database}", "", ""))

    def show(self, what: str) -> list[dict[str, Any]]:
        """SHOW POOLS, SHOW STATS, ... on the admin console (simple query protocol only)."""
        import psycopg

        with psycopg.connect(
            self.url("pgbouncer"), autocommit=True, cursor_factory=psycopg.ClientCursor
        ) as console:
            cursor = console.execute(f"SHOW {what}")
            names = [column.name for column in cursor.description or []]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def pgbouncer(
    server_url: str, workdir: Path, *, pool_size: int | None = None, password: str = "pooled"
) -> Iterator[PgBouncer]:
    """PgBouncer in front of the PostgreSQL of ``server_url`` (its user logs in to both
    with ``password``; the server may trust it); stopped when the block ends."""
    binary = shutil.which("pgbouncer") or shutil.which("pgbouncer", path="/usr/sbin")
    if binary is None:
        raise RuntimeError("needs PgBouncer (Debian package pgbouncer; .ci/run installs it)")
    server = urlsplit(server_url)
    user = server.username or "postgres"
    conf = configparser.ConfigParser(interpolation=None)
    conf.optionxform = str  # type: ignore[assignment,method-assign]
    conf.read_string(SHIPPED.read_text())
    port = free_port()
    own = conf["pgbouncer"]
    own["listen_addr"] = "127.0.0.1"
    own["listen_port"] = str(port)
    own["auth_file"] = str(workdir / "userlist.txt")
    own["admin_users"] = user
    if pool_size is not None:
        own["default_pool_size"] = own["max_db_connections"] = str(pool_size)
    if os.geteuid() == 0:
        own["user"] = "postgres"
    conf.remove_section("databases")
    conf.add_section("databases")
    conf["databases"]["*"] = f"host={server.hostname} port={server.port or 5432}"
    workdir.mkdir(parents=True, exist_ok=True)
    config = workdir / "pgbouncer.ini"
    with config.open("w") as out:
        conf.write(out)
    (workdir / "userlist.txt").write_text(f'"{user}" "{password}"\n')
    log = workdir / "pgbouncer.log"
    with log.open("ab") as out:
        process = subprocess.Popen(
            [binary, str(config)], stdout=out, stderr=subprocess.STDOUT, cwd=workdir
        )
    try:
        deadline = time.monotonic() + 10
        while True:
            if process.poll() is not None:
                raise RuntimeError("pgbouncer exited:\n" + log.read_text()[-2000:])
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
                break
            if time.monotonic() > deadline:
                raise RuntimeError("pgbouncer did not listen:\n" + log.read_text()[-2000:])
            time.sleep(0.02)
        yield PgBouncer(port, process.pid, user, password, log)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
