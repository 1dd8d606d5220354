"""Bytes a move at rest, before and after packing the logs (issue 45, docs/capacity.md).

    .venv/bin/python bench/bench_packed_logs.py [--moves 1000000] [--batch 500]

Builds bench_backup's database (one real game played through the service, copied with
its log until the log holds --moves moves: every game finished and verified, its log in
Move rows as before packing existed), measures the tables (heap, indexes, TOAST) after
VACUUM FULL, packs every log with ``manage.py pack_move_logs`` (the migration's work),
and measures again. Without DATABASE_URL it runs itself under scripts/test-services and
drops its database at the end. Prints the figures; not a test.
"""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_backup import database_size, fill, reexec_under_services, run  # noqa: E402

TABLES = ("games_game", "games_move")


def table_bytes() -> dict[str, tuple[int, int, int]]:
    """Per table: (heap with its TOAST, indexes, total) in bytes, after VACUUM FULL."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM FULL ANALYZE {', '.join(TABLES)}")
        out = {}
        for name in TABLES:
            cursor.execute(
                "SELECT pg_table_size(%s), pg_indexes_size(%s), pg_total_relation_size(%s)",
                [name, name, name],
            )
            out[name] = tuple(int(v) for v in cursor.fetchone())
    return out  # type: ignore[return-value]


def packed_figures() -> tuple[int, int, int]:
    """(moves packed, their packed bytes, games packed)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(sum(ply), 0), coalesce(sum(octet_length(packed_log)), 0), "
            "count(*) FROM games_game WHERE packed_log IS NOT NULL"
        )
        moves, size, games = cursor.fetchone()
    return int(moves), int(size), int(games)


def line(label: str, sizes: dict[str, tuple[int, int, int]], moves: int) -> str:
    total = sum(s[2] for s in sizes.values())
    parts = ", ".join(
        f"{name} heap {heap / moves:.1f} + indexes {index / moves:.1f}"
        for name, (heap, index, _) in sizes.items()
    )
    return f"{label}: {total / moves:.1f} B a move in games_game + games_move ({parts})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1_000_000)
    parser.add_argument("--batch", type=int, default=500)
    args = parser.parse_args()
    reexec_under_services()
    import os

    from tests.faults.pgtools import pg_tool, with_database

    server_url = os.environ["DATABASE_URL"]
    name = f"bench_packed_{uuid.uuid4().hex[:8]}"
    createdb, dropdb = pg_tool("createdb", server_url), pg_tool("dropdb", server_url)
    run([str(createdb), "--maintenance-db", server_url, name])
    url = with_database(server_url, name)
    os.environ.update(
        {
            "DATABASE_URL": url,
            "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
            "LOG_LEVEL": "WARNING",
            "REDIS_URL": "",
        }
    )
    try:
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        fill_started = time.perf_counter()
        games, moves = fill(args.moves)  # every game verified, its log in Move rows
        print(
            f"{games:,} finished, verified games, {moves:,} moves in rows, made in "
            f"{time.perf_counter() - fill_started:.1f} s"
        )
        before = table_bytes()
        database_before = database_size(url)
        print(line("before (Move rows)", before, moves))
        started = time.perf_counter()
        call_command("pack_move_logs", "--batch", str(args.batch), stdout=open(os.devnull, "w"))  # noqa: SIM115
        seconds = time.perf_counter() - started
        packed_moves, packed_bytes, packed_games = packed_figures()
        after = table_bytes()
        print(
            f"pack_move_logs: {packed_games:,} games, {packed_moves:,} moves in {seconds:.1f} s "
            f"({packed_moves / seconds:,.0f} moves/s)"
        )
        print(line("after (packed)", after, moves))
        grown = sum(a[2] for a in after.values()) - before["games_game"][2]
        print(
            f"packed logs alone: {packed_bytes / packed_moves:.2f} B a move "
            f"({packed_bytes / packed_games:.0f} B a game of {packed_moves / packed_games:.0f}); "
            f"at rest, what the log adds to games_game + games_move: "
            f"{before['games_move'][2] / moves:.1f} B a move before, {grown / moves:.1f} after"
        )
        from django.db import connection

        connection.close()
        print(
            f"database: {database_before / 2**20:.0f} MiB before, "
            f"{database_size(url) / 2**20:.0f} MiB after"
        )
    finally:
        from django.db import connections

        connections.close_all()
        run([str(dropdb), "--maintenance-db", server_url, "--force", "--if-exists", name])
    return 0


if __name__ == "__main__":
    sys.exit(main())
