"""How long a backup and a restore take: ``pg_dump -Fc`` of a database holding
1,000,000 moves, and ``pg_restore`` of that dump into a fresh database (one job, then
parallel jobs), as docs/operations.md gives the commands.

    .venv/bin/python bench/bench_backup.py [--moves 1000000] [--jobs 2]

Without DATABASE_URL it runs itself under scripts/test-services (a throwaway PostgreSQL,
removed afterwards; that cluster runs with fsync off, so a restore on a real disk with
fsync on takes longer). It makes a database of its own on that server, migrates it,
plays one real game through the service, then copies that game and its log with
``INSERT ... SELECT`` over ``generate_series`` until the log holds --moves moves (a few
seconds), and drops its databases at the end. Prints the figures; not a test.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def reexec_under_services() -> None:
    if os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        return
    os.environ.pop("DATABASE_URL", None)
    os.execv(
        sys.executable,
        [sys.executable, str(ROOT / "scripts" / "test-services"), "--", sys.executable, *sys.argv],
    )


def run(command: list[str]) -> float:
    """Seconds ``command`` took; its output only if it fails."""
    import subprocess

    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command[:2])} failed:\n{result.stderr[-3000:]}")
    return seconds


def fill(moves_wanted: int) -> tuple[int, int]:
    """One real game played through the service, then copies of it and its log: (games,
    moves). The copies take every column but the id from the played game, so they hold
    whatever the schema has now."""
    from django.db import connection

    from accounts.models import User
    from games import services
    from games.models import Game, Move
    from games.services import move_log
    from tests.factories import winning_lines

    user = User.objects.create_user(username="archivist", display_name="Archivist")
    actor = services.Actor(user_id=user.pk)
    game = services.start_practice_game(actor, 68)
    line = winning_lines()[68]
    for ply, text in enumerate(line):
        services.play_move(actor, game.pk, ply, text)
    # Verified at once, its log was packed (games/packed_log.py): back into Move rows, so
    # that the copies stand for games verified before packing existed (the larger form;
    # bench/bench_packed_logs.py packs them and measures both).
    move_log.unpack_game_log(Game.objects.get(pk=game.pk))
    copies = -(-moves_wanted // len(line)) - 1

    def columns(model: type[Game] | type[Move], *, leave_out: set[str]) -> list[str]:
        return [f.column for f in model._meta.concrete_fields if f.column not in leave_out]

    game_columns = ", ".join(columns(Game, leave_out={"id"}))
    move_columns = columns(Move, leave_out={"id", "game_id"})
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {Game._meta.db_table} ({game_columns}) "
            f"SELECT {game_columns} FROM {Game._meta.db_table}, generate_series(1, %s) "
            "WHERE id = %s",
            [copies, game.pk],
        )
        cursor.execute(
            f"INSERT INTO {Move._meta.db_table} (game_id, {', '.join(move_columns)}) "
            f"SELECT g.id, {', '.join('m.' + c for c in move_columns)} "
            f"FROM {Game._meta.db_table} g JOIN {Move._meta.db_table} m ON m.game_id = %s "
            "WHERE g.id <> %s",
            [game.pk, game.pk],
        )
        cursor.execute("VACUUM ANALYZE")
    return Game.objects.count(), Move.objects.count()


def database_size(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT pg_database_size(current_database())").fetchone()
    assert row is not None
    return int(row[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1_000_000)
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 2, help="parallel jobs of the second restore"
    )
    args = parser.parse_args()
    reexec_under_services()

    from tests.faults.pgtools import pg_tool, tool_version_num, with_database

    server_url = os.environ["DATABASE_URL"]
    suffix = uuid.uuid4().hex[:8]
    source, restored = f"bench_backup_{suffix}", f"bench_restored_{suffix}"
    createdb, dropdb = pg_tool("createdb", server_url), pg_tool("dropdb", server_url)
    pg_dump, pg_restore = pg_tool("pg_dump", server_url), pg_tool("pg_restore", server_url)
    run([str(createdb), "--maintenance-db", server_url, source])
    source_url = with_database(server_url, source)
    os.environ.update(
        {
            "DATABASE_URL": source_url,
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
        started = time.perf_counter()
        games, moves = fill(args.moves)
        from django.db import connection

        connection.close()
        print(
            f"pg_dump {tool_version_num(pg_dump)}, server {server_url.rsplit('@', 1)[-1]}; "
            f"{games:,} games, {moves:,} moves made in {time.perf_counter() - started:.1f} s; "
            f"database {database_size(source_url) / 2**20:.0f} MiB"
        )
        with tempfile.TemporaryDirectory() as tmp:
            dump = Path(tmp) / "yukon.dump"
            seconds = run([str(pg_dump), "-Fc", "-f", str(dump), "-d", source_url])
            print(f"pg_dump -Fc: {seconds:.1f} s, dump {dump.stat().st_size / 2**20:.0f} MiB")
            for jobs in sorted({1, args.jobs}):
                run([str(createdb), "--maintenance-db", server_url, restored])
                try:
                    seconds = run(
                        [
                            str(pg_restore),
                            "--no-owner",
                            "--exit-on-error",
                            "-j",
                            str(jobs),
                            "-d",
                            with_database(server_url, restored),
                            str(dump),
                        ]
                    )
                    print(f"pg_restore -j {jobs} into a fresh database: {seconds:.1f} s")
                finally:
                    run([str(dropdb), "--maintenance-db", server_url, "--force", restored])
    finally:
        from django.db import connections

        connections.close_all()
        run([str(dropdb), "--maintenance-db", server_url, "--force", "--if-exists", source])
    return 0


if __name__ == "__main__":
    sys.exit(main())
