"""PostgreSQL's client tools for backup drills and benchmarks: found as
scripts/test-services finds the server (PATH, then /usr/lib/postgresql/*/bin), the
newest one, and refused when older than the server (a dump needs pg_dump >= server).
No Django here: bench/bench_backup.py imports it before setting Django up."""

from __future__ import annotations

import glob
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg


def server_version_num(database_url: str) -> int:
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SHOW server_version_num").fetchone()
    assert row is not None
    return int(row[0])


def tool_version_num(binary: Path) -> int:
    """``pg_dump (PostgreSQL) 15.18 (Debian ...)`` -> 150018; 0 if it does not say."""
    out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, check=False)
    found = re.search(r"\(PostgreSQL\) (\d+)(?:\.(\d+))?", out.stdout)
    return int(found[1]) * 10_000 + int(found[2] or 0) if found else 0


def pg_tool(name: str, database_url: str) -> Path:
    """``name`` (pg_dump, pg_restore, createdb, dropdb) from the newest PostgreSQL
    install, as scripts/test-services finds the server; a dump needs a pg_dump at least
    as new as the server, so an older one is refused."""
    found = [Path(p) for p in glob.glob(f"/usr/lib/postgresql/*/bin/{name}")]
    on_path = shutil.which(name)  # Debian's is a wrapper that picks a version by its name
    if on_path:
        found.append(Path(on_path))
    assert found, f"{name} not found on PATH or in /usr/lib/postgresql/*/bin"
    newest = max(found, key=tool_version_num)
    server = server_version_num(database_url)
    assert tool_version_num(newest) // 10_000 >= server // 10_000, (
        f"{newest} is older than the server ({server}): dumps need pg_dump >= server"
    )
    return newest


def with_database(database_url: str, name: str) -> str:
    parts = urlsplit(database_url)
    return urlunsplit(parts._replace(path=f"/{name}"))
