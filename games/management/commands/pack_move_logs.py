"""``manage.py pack_move_logs [--batch N] [--limit N]``: pack the logs of verified games
still kept in Move rows into their game rows (docs/operations.md, "Packed move logs").

The work of migration 0015, outside ``migrate``: before a deploy on a large database, or
after a rolling one, for the games that workers still on the old code verified without
packing. Each batch commits on its own; stopped and run again, it skips what is packed.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.services import pack_verified_games


class Command(BaseCommand):
    help = "Pack the move logs of verified games still kept in rows. Resumable, idempotent."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", type=int, default=500, help="games a transaction")
        parser.add_argument("--limit", type=int, default=None, help="stop after this many")

    def handle(self, *args: Any, **options: Any) -> None:
        batch, limit = options["batch"], options["limit"]
        if batch < 1 or (limit is not None and limit < 1):
            raise CommandError("--batch and --limit take a whole number of games, 1 or more")
        packed = pack_verified_games(batch=batch, limit=limit)
        self.stdout.write(f"packed the logs of {packed} games")
